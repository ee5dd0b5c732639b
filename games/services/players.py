"""Players joining a table, renamed, linked to an account."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from games.models import (
    Player,
    Table,
)
from games.services.errors import Refused


def _new_player(table: Table, name: str) -> Player:
    try:
        with transaction.atomic():
            return Player.objects.create(table=table, name=name)
    except IntegrityError:
        # Added meanwhile, by another phone.
        raise Refused(_("{name} already plays at this table.").format(name=name)) from None
