"""Whole game pages kept in this process's memory, per game version and person.

Opening a game at the table is then one small query and a dictionary look-up,
however many deals it has. A kept page holds a stand-in where the CSRF token
goes; each answer puts the asker's own freshly masked token there. The stand-in
is random and made anew by every process, so no text a person types can ever
be mistaken for it (a kept page lives only in the process that made it).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from django.core.cache import caches
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token

# Letters and digits only, as a real token is, so escaping leaves it as it is.
CSRF_STAND_IN = "csrf" + secrets.token_hex(24)

KEEP_SECONDS = 3600


def kept_page(
    request: HttpRequest,
    *,
    game: int,
    version: int | str,
    mode: str,
    render: Callable[[str], HttpResponse],
) -> HttpResponse:
    """The game page from memory, or ``render(stand_in)`` kept for next time.

    Everything the page shows moves ``version`` on when it changes
    (games/services/kept_pages.py; the chances, the table's chances version:
    games/selectors/games.py); ``mode`` is the way of entering the page opens in.
    """
    cache = caches["local"]
    language = getattr(request, "LANGUAGE_CODE", "")
    # The username too: a guest who keeps the scores gets a name of their own.
    user = request.user
    key = f"game-page:{game}:{version}:{user.pk}:{user.get_username()}:{language}:{mode}"
    kept = cache.get(key)
    if kept is None:
        kept = render(CSRF_STAND_IN).content.decode()
        cache.set(key, kept, KEEP_SECONDS)
    return HttpResponse(kept.replace(CSRF_STAND_IN, get_token(request)))
