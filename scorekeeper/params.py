"""Reading values from a request: the one careful way, used by every view.

A person or a script can send any text: Unicode digits such as ``²`` (which
``str.isdigit`` accepts and ``int`` refuses), numbers thousands of digits
long, NUL characters, lone surrogates. What can't be read is refused here
with :class:`ValueRefused`, which the middleware below turns into a 400 page
in the person's words; nothing after it runs, so nothing is written.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django_htmx.middleware import HtmxDetails

from games.engine.names import clean_text

# Deal numbers, versions: PostgreSQL's integer column holds up to here.
LARGEST = 2**31 - 1
# Row ids (big integers).
LARGEST_ID = 2**63 - 1
# A whole number as people type it: ASCII digits, with an optional minus sign
# (the keyboard's or the typographic one).
WHOLE_NUMBER = re.compile(r"[-−]?[0-9]+")

NOT_READABLE = gettext_noop(
    "Something this page sent could not be read ({what}). Reload the page and try again."
)


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


class ValueRefused(Exception):
    """A request value that can't be read: answered 400 with ``message``."""

    def __init__(self, message: str):
        self.message = message
        super().__init__(message)


def whole_number(text: str, digits: int = 9) -> int | None:
    """``text`` as a whole number, or None: ASCII digits only, at most ``digits`` of them.

    >>> whole_number("17"), whole_number(" -10 "), whole_number("−3")
    (17, -10, -3)
    >>> whole_number("²"), whole_number("1" * 5000), whole_number("1.5")
    (None, None, None)
    """
    text = text.strip()
    if len(text) > digits + 1 or not WHOLE_NUMBER.fullmatch(text):
        return None
    if len(text.lstrip("-−")) > digits:
        return None
    return int(text.replace("−", "-"))


def number(
    data: Mapping[str, str],
    name: str,
    *,
    least: int = 0,
    most: int = LARGEST,
    required: bool = False,
) -> int | None:
    """The whole number sent as ``name``; None when it is missing or blank.

    Anything else that is not a whole number from ``least`` to ``most`` is
    refused.
    """
    raw = data.get(name, "")
    if raw.strip() == "":
        if required:
            raise ValueRefused(_(NOT_READABLE).format(what=name))
        return None
    value = whole_number(raw, digits=len(str(most)))
    if value is None or not least <= value <= most:
        raise ValueRefused(_(NOT_READABLE).format(what=name))
    return value


def choice(data: Mapping[str, str], name: str, choices: Collection[str], default: str = "") -> str:
    """One of ``choices``; ``default`` when missing; anything else is refused."""
    raw = data.get(name, "")
    if raw == "":
        return default
    if raw not in choices:
        raise ValueRefused(_(NOT_READABLE).format(what=name))
    return raw


def text(data: Mapping[str, str], name: str, *, most: int = 200) -> str:
    """Free text, cut to ``most`` characters, without control characters."""
    return clean_text(data.get(name, ""))[:most]


def refuse_unreadable_values(get_response: Callable[[HttpRequest], HttpResponse]):
    """Middleware: a :class:`ValueRefused` from any view is a 400 page saying why."""

    def middleware(request: HttpRequest) -> HttpResponse:
        return get_response(request)

    def process_exception(request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, ValueRefused):
            return None
        if "application/json" in request.headers.get("Accept", ""):
            return JsonResponse({"status": "refused", "problems": [exception.message]}, status=400)
        return render(request, "refused.html", {"message": exception.message}, status=400)

    middleware.process_exception = process_exception  # type: ignore[attr-defined]
    return middleware
