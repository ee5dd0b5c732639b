"""What the app takes from the front (Caddy) and what it never sends a phone's own fetches."""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Callable
from functools import lru_cache

from django.conf import settings
from django.http import HttpRequest, HttpResponse

# Headers only the front may set: from anyone else they are forged.
FORWARDED = ("HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_PROTO", "HTTP_X_FORWARDED_HOST")
# Sent by the page's script and the service worker on the copies they keep for
# offline use (static/js/offline.js, sw.js).
KEPT_COPY_HEADER = "HTTP_X_KEPT_COPY"

log = logging.getLogger(__name__)


@lru_cache(maxsize=4)
def _networks(entries: tuple[str, ...]) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return [ipaddress.ip_network(entry, strict=False) for entry in entries]


def _address(raw: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(raw.strip().removeprefix("[").removesuffix("]"))
    except ValueError:
        return None


@lru_cache(maxsize=8)
def _say_the_front_is_not_trusted(peer: str) -> None:
    """Once a process and address: a front passes requests on, but none is trusted.
    Phones then get plain-HTTP cookies, share the front's address for every limit,
    and have their forms refused (their origin says https, the app sees http)."""
    log.warning(
        "A front at %s passes requests on (X-Forwarded-Proto) but TRUSTED_PROXIES is empty: "
        "set TRUSTED_PROXIES=%s so that the app sees HTTPS and each phone's own address.",
        peer,
        peer,
    )


def forwarded_by_the_front_only(get_response: Callable[[HttpRequest], HttpResponse]):
    """Middleware, first of all: the client's address and scheme as the front saw them.

    The front (``TRUSTED_PROXIES``, the addresses it connects from) sets
    ``X-Forwarded-For`` to the phone's address and ``X-Forwarded-Proto`` to
    https. From the front, the last address it appended becomes
    ``REMOTE_ADDR``, so every per-address limit (sign-ups, sign-ins, resets)
    counts per phone; from anyone else the headers are dropped, so a phone that
    forges them changes nothing.
    """

    def middleware(request: HttpRequest) -> HttpResponse:
        peer = _address(request.META.get("REMOTE_ADDR", ""))
        trusted = _networks(tuple(settings.TRUSTED_PROXIES))
        if peer is not None and any(peer in network for network in trusted):
            hops = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
            client = _address(hops[-1])
            if client is not None:
                request.META["REMOTE_ADDR"] = str(client)
        else:
            if not trusted and "HTTP_X_FORWARDED_PROTO" in request.META:
                _say_the_front_is_not_trusted(str(peer))
            for header in FORWARDED:
                request.META.pop(header, None)
        return get_response(request)

    return middleware


def no_cookies_for_kept_copies(get_response: Callable[[HttpRequest], HttpResponse]):
    """Middleware, outside the session's and CSRF's: the pages the phone fetches on
    its own to keep for offline use set no cookie.

    Such a fetch can arrive after the person signed in or started as a guest
    (which gives a new CSRF token); had its answer set the cookie it was sent
    with, the next form on the screen would be refused.
    """

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        # The offline page by its name too: a phone's older service worker does not mark it.
        match = getattr(request, "resolver_match", None)
        if KEPT_COPY_HEADER in request.META or (match and match.url_name == "offline"):
            response.cookies.clear()
        return response

    return middleware
