"""Whole numbers as people type them, read carefully.

A person or a script can send any text: Unicode digits such as ``²`` (which
``str.isdigit`` accepts and ``int`` refuses), numbers thousands of digits
long. Only ASCII digits, with an optional minus sign (the keyboard's or the
typographic one), and not absurdly many of them, are a number here.
"""

from __future__ import annotations

import re

WHOLE_NUMBER = re.compile(r"[-−]?[0-9]+")


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
