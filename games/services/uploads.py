"""An uploaded history file, kept on the server between its preview and the import.

The confirm step sends back only a key, never the file (a file near the
upload limit would not fit in a form's body). The key is random, belongs to
the person and the table it was shown for, and is forgotten after 30 minutes
or once the file is imported. The file is a row of its own (KeptUpload), not a
cache entry: the shared cache culls a third of its entries when full, and an
upload was kept only by the letters its key happened to start with.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.utils import timezone

from games.models import KeptUpload

KEEP_SECONDS = 30 * 60


def keep_upload(*, user: int, table: int, raw: bytes) -> str:
    token = secrets.token_urlsafe(18)
    now = timezone.now()
    forget_expired(now)
    KeptUpload.objects.create(
        user_id=user,
        table_id=table,
        token=token,
        raw=raw,
        expires=now + timedelta(seconds=KEEP_SECONDS),
    )
    return token


def kept_upload(*, user: int, table: int, token: str) -> bytes | None:
    if not token.replace("-", "").replace("_", "").isalnum() or len(token) > 40:
        return None
    raw = (
        KeptUpload.objects.filter(
            user_id=user, table_id=table, token=token, expires__gt=timezone.now()
        )
        .values_list("raw", flat=True)
        .first()
    )
    return bytes(raw) if raw is not None else None


def forget_upload(*, user: int, table: int, token: str) -> None:
    KeptUpload.objects.filter(user_id=user, table_id=table, token=token).delete()


def forget_expired(now=None) -> int:
    """Uploads never confirmed, past their time (each new upload, and the daily job)."""
    deleted, _ = KeptUpload.objects.filter(expires__lte=now or timezone.now()).delete()
    return deleted
