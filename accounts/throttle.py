"""Slowing down password guessing and mass sign-ups.

Failed sign-ins are counted by django-axes (settings ``AXES_*``): in the
database, atomically, per normalised username and address, on our sign-in
page and the admin's alike. The helpers here are what axes is told to call.
New accounts are limited per address with a window that really lasts an hour.
"""

from __future__ import annotations

import ipaddress
import time
import unicodedata

from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy

FAILURES_PER_ACCOUNT = 5  # from one address, within the pause below
PAUSE_MINUTES = 15
SIGNUPS_PER_ADDRESS = 5
SIGNUP_WINDOW_SECONDS = 60 * 60

SIGN_IN_LOCKED = gettext_lazy(
    "Too many failed sign-ins from here. To keep accounts safe, signing in is paused "
    "for 15 minutes: try again later, or ask the table's owner for help."
)
RESET_LOCKED = gettext_lazy(
    "Too many password resets asked for from here in the last hour. Please try again later."
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


def normalised_username(request: HttpRequest, credentials: dict | None) -> str:
    """The username as sign-in compares it (NFKC, as Django's form does), case folded.

    "ｐａｂ" signs in as "pab", so both count against one account.
    """
    if credentials and credentials.get("username") is not None:
        raw = str(credentials.get("username"))
    else:
        raw = request.POST.get("username", "") if request is not None else ""
    return unicodedata.normalize("NFKC", raw).strip().casefold()[:150]


def axes_client_address(request: HttpRequest) -> str | None:
    """The address for axes's records, which hold only real addresses (a unix socket has none)."""
    address = client_address(request)
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:
        return None


def locked_out(
    request: HttpRequest, response: HttpResponse | None = None, credentials: dict | None = None
) -> HttpResponse:
    """What a paused sign-in shows: the sign-in page saying why, 429."""
    context = {"form": AuthenticationForm(request), "locked": SIGN_IN_LOCKED}
    return render(request, "registration/login.html", context, status=429)


def _key(request: HttpRequest, kind: str) -> str:
    return f"{kind}:{client_address(request)}"


def _recent(request: HttpRequest, kind: str) -> list[float]:
    since = time.time() - SIGNUP_WINDOW_SECONDS
    return [at for at in cache.get(_key(request, kind), []) if at > since]


def sign_up_locked(request: HttpRequest, kind: str = "signups") -> bool:
    """Whether this address made its hour's worth already: of accounts, or of ``kind``."""
    return len(_recent(request, kind)) >= SIGNUPS_PER_ADDRESS


def signed_up(request: HttpRequest, kind: str = "signups") -> None:
    # The times themselves are kept, not a counter: each one leaves the
    # window an hour after it happened, whatever the cache does with expiry.
    recent = [*_recent(request, kind), time.time()]
    cache.set(_key(request, kind), recent, SIGNUP_WINDOW_SECONDS)
