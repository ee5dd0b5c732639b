"""A poll's answer: 304 while the browser has this version of what it shows."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified


def _not_modified(request: HttpRequest, etag: str) -> bool:
    sent = request.headers.get("If-None-Match", "")
    return etag in [t.strip().removeprefix("W/") for t in sent.split(",")]


def poll_answer(
    request: HttpRequest, etag: str, answer: Callable[[], HttpResponse]
) -> HttpResponse:
    """304 while the browser has ``etag``, else ``answer()`` (made only then)."""
    response = HttpResponseNotModified() if _not_modified(request, etag) else answer()
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache, private"
    return response
