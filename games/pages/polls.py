"""A poll's answer: 204, which htmx leaves alone, while the page shows this version.

The polled element sends the version it shows as ``If-None-Match`` (its
``hx-headers``). A 304 would not do: the browser hands a script the cached
200 instead, and htmx would redraw the same scoreboard every few seconds.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.translation import get_language


def game_etag(game_id: int, version: int | str) -> str:
    # The language too: a browser that switched must not keep the old words.
    return f'"g{game_id}v{version}-{get_language()}"'


def evening_etag(version: str, *, readonly: bool) -> str:
    return f'"e{version}-{get_language()}-{int(readonly)}"'


def _seen(request: HttpRequest, etag: str) -> bool:
    sent = request.headers.get("If-None-Match", "")
    return etag in [t.strip().removeprefix("W/") for t in sent.split(",")]


def poll_answer(
    request: HttpRequest, etag: str, answer: Callable[[], HttpResponse]
) -> HttpResponse:
    """204 while the page shows ``etag``, else ``answer()`` (made only then)."""
    response = HttpResponse(status=204) if _seen(request, etag) else answer()
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache, private"
    return response
