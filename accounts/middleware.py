"""Request tweaks that must come before Django's own middleware."""

from __future__ import annotations

import re

from django.http import HttpRequest, HttpResponse

# Norwegian browsers may ask for "no" (Norwegian) or "nn" (Nynorsk) only;
# Bokmål is what we have, and what those readers read too.
NORWEGIAN = re.compile(r"(?i)(?<![\w-])(no|nn)(?:-[a-z]{2})?(?=\s*(;|,|$))")


def norwegian_means_bokmal(get_response):
    def middleware(request: HttpRequest) -> HttpResponse:
        accept = request.META.get("HTTP_ACCEPT_LANGUAGE", "")
        if accept and "nb" not in accept.lower() and NORWEGIAN.search(accept):
            request.META["HTTP_ACCEPT_LANGUAGE"] = NORWEGIAN.sub("nb", accept, count=1)
        return get_response(request)

    return middleware
