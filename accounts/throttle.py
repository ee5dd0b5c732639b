"""Slowing down password guessing and mass sign-ups.

Failed sign-ins are counted by django-axes (settings ``AXES_*``): in the
database, atomically, per normalised username and address, on our sign-in
page and the admin's alike. The helpers here are what axes is told to call.
New accounts (and password resets) are limited per address, counted in the
database in one step, with a window that really lasts an hour.
"""

from __future__ import annotations

import ipaddress
import unicodedata
from datetime import timedelta

from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext_lazy

from accounts.models import AddressSlot

FAILURES_PER_ACCOUNT = 5  # from one address, within the pause below
# Across every username from one address (guessing one password for many
# accounts): far above a person's own mistypes, which pause their account at 5.
FAILURES_PER_ADDRESS = 20
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
    """The client's address: behind the front, the phone's, as
    scorekeeper/middleware.py set it from what the front passed on."""
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


def address_paused(request: HttpRequest | None) -> bool:
    """Whether this address failed ``FAILURES_PER_ADDRESS`` sign-ins, for any usernames,
    within ``PAUSE_MINUTES`` of its last failure (axes keeps the failures)."""
    from axes.models import AccessAttempt

    address = axes_client_address(request) if request is not None else None
    if address is None:
        return False
    since = timezone.now() - timedelta(minutes=PAUSE_MINUTES)
    recent = AccessAttempt.objects.filter(ip_address=address, attempt_time__gte=since)
    return (recent.aggregate(n=Sum("failures_since_start"))["n"] or 0) >= FAILURES_PER_ADDRESS


class AddressBackend:
    """First of the sign-in backends: no password is checked from a paused address.

    The pause is shown as axes shows its own (``locked_out``, 429); the try
    counts as a failure, so the pause runs from the last one.
    """

    def authenticate(self, request, **credentials):
        if address_paused(request):
            request.axes_locked_out = True
            raise PermissionDenied
        return None


def locked_out(
    request: HttpRequest, response: HttpResponse | None = None, credentials: dict | None = None
) -> HttpResponse:
    """What a paused sign-in shows: the sign-in page saying why, 429."""
    context = {"form": AuthenticationForm(request), "locked": SIGN_IN_LOCKED}
    return render(request, "registration/login.html", context, status=429)


def claim(request: HttpRequest, kind: str = "signups") -> bool:
    """Take one of this address's new accounts (or ``kind``) for the hour; False if none is left.

    Each of an address's slots is a row: taken by writing it, anew or over one
    whose hour is over, so the check and the count are one step however many
    requests come at once (the database decides, on any number of servers).
    A slot taken stays taken for its hour, whatever follows.
    """
    address = client_address(request)[:64]
    now = timezone.now()
    over = now - timedelta(seconds=SIGNUP_WINDOW_SECONDS)
    mine = AddressSlot.objects.filter(kind=kind, address=address)
    for slot in range(SIGNUPS_PER_ADDRESS):
        if mine.filter(slot=slot, taken_at__lte=over).update(taken_at=now):
            return True
        try:
            with transaction.atomic():
                AddressSlot.objects.create(kind=kind, address=address, slot=slot, taken_at=now)
        except IntegrityError:
            continue  # taken, and within its hour (or by a request at this moment)
        return True
    return False
