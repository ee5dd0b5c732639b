"""What the server itself can say of its state, for /healthz."""

from __future__ import annotations

import logging

from django.db import DatabaseError, connection

log = logging.getLogger(__name__)


def database_answers() -> bool:
    """The database answers a query now (a health check's question)."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError as error:
        log.error("The database does not answer: %s", error)
        return False
    return True
