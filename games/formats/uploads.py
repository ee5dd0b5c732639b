"""An uploaded history file, kept on the server between its preview and the import.

The confirm step sends back only a key, never the file (a file near the
upload limit would not fit in a form's body). The key is random, belongs to
the person and the table it was shown for, and is forgotten after 30 minutes
or once the file is imported.
"""

from __future__ import annotations

import secrets

from django.core.cache import cache

KEEP_SECONDS = 30 * 60


def _cache_key(user: int, table: int, token: str) -> str:
    return f"upload:{user}:{table}:{token}"


def keep_upload(*, user: int, table: int, raw: bytes) -> str:
    token = secrets.token_urlsafe(18)
    cache.set(_cache_key(user, table, token), raw, KEEP_SECONDS)
    return token


def kept_upload(*, user: int, table: int, token: str) -> bytes | None:
    if not token.replace("-", "").replace("_", "").isalnum() or len(token) > 40:
        return None
    return cache.get(_cache_key(user, table, token))


def forget_upload(*, user: int, table: int, token: str) -> None:
    cache.delete(_cache_key(user, table, token))
