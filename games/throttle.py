"""Slowing down password guessing: failed sign-ins and sign-ups per address.

Counts live in Django's cache (the database cache, shared by every app
process), each for a fixed window.
"""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from django.utils.translation import gettext_lazy

WINDOW_SECONDS = 15 * 60
FAILURES_PER_ACCOUNT = 5  # from one address, in the window
FAILURES_PER_ADDRESS = 20  # any accounts, from one address, in the window
SIGNUPS_PER_ADDRESS = 5  # an hour
SIGNUP_WINDOW_SECONDS = 60 * 60

SIGN_IN_LOCKED = gettext_lazy(
    "Too many failed sign-ins from here. To keep accounts safe, signing in is paused "
    "for 15 minutes: try again later, or ask the table's owner for help."
)
SIGN_UP_LOCKED = gettext_lazy(
    "Too many new accounts from here in the last hour. Please try again later."
)


def client_address(request: HttpRequest) -> str:
    """The client's address; behind a trusted proxy, the one it appended last."""
    if settings.TRUST_X_FORWARDED_FOR:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if hops:
            return hops[-1]
    return request.META.get("REMOTE_ADDR", "unknown")


def _keys(request: HttpRequest, username: str) -> tuple[str, str]:
    address = client_address(request)
    return f"signin:{address}:{username.strip().casefold()}", f"signin:{address}"


def _count(key: str) -> int:
    return cache.get(key, 0)


def _bump(key: str, window: int) -> None:
    if not cache.add(key, 1, window):
        try:
            cache.incr(key)
        except ValueError:  # expired between the two calls
            cache.set(key, 1, window)


def sign_in_locked(request: HttpRequest, username: str) -> bool:
    account, address = _keys(request, username)
    return _count(account) >= FAILURES_PER_ACCOUNT or _count(address) >= FAILURES_PER_ADDRESS


def sign_in_failed(request: HttpRequest, username: str) -> None:
    for key in _keys(request, username):
        _bump(key, WINDOW_SECONDS)


def sign_up_locked(request: HttpRequest) -> bool:
    return _count(f"signup:{client_address(request)}") >= SIGNUPS_PER_ADDRESS


def signed_up(request: HttpRequest) -> None:
    _bump(f"signup:{client_address(request)}", SIGNUP_WINDOW_SECONDS)
