"""Request tweaks that must come before Django's own middleware."""

from __future__ import annotations

import re
from functools import cache

from django.conf import settings
from django.http import HttpRequest, HttpResponse


@cache
def _aliases() -> list[tuple[str, re.Pattern[str]]]:
    """(a language of LANGUAGES, the tags a browser may ask for it by) from LANGUAGE_ALIASES."""
    asked: dict[str, list[str]] = {}
    for alias, code in settings.LANGUAGE_ALIASES.items():
        asked.setdefault(code, []).append(re.escape(alias))
    return [
        (code, re.compile(rf"(?i)(?<![\w-])({'|'.join(tags)})(?:-[a-z]{{2}})?(?=\s*(;|,|$))"))
        for code, tags in asked.items()
    ]


def as_served(accept: str) -> str:
    """An Accept-Language header with the first tag asked by an alias named as the
    language that serves it (unless that is asked for already): a browser that asks
    for Norwegian ("no") or Nynorsk only gets Bokmål, not English."""
    for code, tags in _aliases():
        if code not in accept.lower() and tags.search(accept):
            accept = tags.sub(code, accept, count=1)
    return accept


def language_aliases(get_response):
    def middleware(request: HttpRequest) -> HttpResponse:
        accept = request.META.get("HTTP_ACCEPT_LANGUAGE", "")
        if accept:
            request.META["HTTP_ACCEPT_LANGUAGE"] = as_served(accept)
        return get_response(request)

    return middleware
