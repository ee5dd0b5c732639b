"""Slowing down password guessing and mass sign-ups.

Failed sign-ins are counted by django-axes (settings ``AXES_*``): in the
database, atomically, per normalised username and address, on our sign-in
page and the admin's alike. The helpers here are what axes is told to call.
New accounts, guests and password resets are limited per network (an IPv4
address, an IPv6 /64), counted in the database in one step, with windows that
really last their time.
"""

from __future__ import annotations

import ipaddress
import unicodedata
from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext_lazy, ngettext

from accounts.models import AddressSlot

FAILURES_PER_ACCOUNT = 5  # from one address, within the pause below
# Across every username from one address (guessing one password for many
# accounts): far above a person's own mistypes, which pause their account at 5.
FAILURES_PER_ADDRESS = 20
PAUSE_MINUTES = 15


@dataclass(frozen=True)
class Limit:
    count: int
    window: timedelta


# What one network may make. A club's phones share the venue's one public
# address, and a new club's first evening signs up everyone at once: 60 accounts
# and 60 guests a day let a club of 40 in, with a script from one address stopped
# at the 61st of each. An IPv6 phone can take a fresh address at will: IPv6 is
# counted by its /64, the network a phone's addresses come from.
LIMITS = {
    "signups": Limit(60, timedelta(days=1)),
    "guests": Limit(60, timedelta(days=1)),
    "resets": Limit(5, timedelta(hours=1)),
}

SIGN_IN_LOCKED = gettext_lazy(
    "Too many failed sign-ins from here. To keep accounts safe, signing in is paused "
    "for 15 minutes: try again later, or ask the table's owner for help."
)
RESET_LOCKED = gettext_lazy(
    "Too many password resets asked for from here in the last hour. Please try again later."
)


def sign_up_locked() -> str:
    """Said when a network has made its new accounts (or guests) for the day."""
    count = LIMITS["signups"].count
    return ngettext(
        "Too many new accounts from here today: one network may make {count} a day. "
        "Please try again tomorrow, or sign in to an account made already.",
        "Too many new accounts from here today: one network may make {count} a day. "
        "Please try again tomorrow, or sign in to an account made already.",
        count,
    ).format(count=count)


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


def network(address: str) -> str:
    """What the limits count by: an IPv4 address as it is, an IPv6 one by its /64."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address[:64]
    if parsed.version == 4:
        return str(parsed)
    if parsed.ipv4_mapped is not None:  # an IPv4 phone through an IPv6 socket
        return str(parsed.ipv4_mapped)
    return str(ipaddress.ip_network(f"{parsed}/64", strict=False))


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


def claim(request: HttpRequest, kind: str) -> bool:
    """Take one of this network's ``kind`` (LIMITS) for its window; False if none is left.

    Each of a network's slots is a row: taken by writing it, anew or over one
    whose window is over, so the check and the count are one step however many
    requests come at once (the database decides, on any number of servers).
    A slot taken stays taken for its window, whatever follows.
    """
    limit = LIMITS[kind]
    address = network(client_address(request))
    now = timezone.now()
    over = now - limit.window
    mine = AddressSlot.objects.filter(kind=kind, address=address)
    # The slots in use, read once: the rest are tried in turn, each in one statement.
    busy = set(mine.filter(taken_at__gt=over).values_list("slot", flat=True))
    for slot in range(limit.count):
        if slot in busy:
            continue
        if mine.filter(slot=slot, taken_at__lte=over).update(taken_at=now):
            return True
        try:
            with transaction.atomic():
                AddressSlot.objects.create(kind=kind, address=address, slot=slot, taken_at=now)
        except IntegrityError:
            continue  # taken, and within its hour (or by a request at this moment)
        return True
    return False
