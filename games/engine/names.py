"""Names are people: the same name typed two ways is the same player.

Names of players, tables and rulesets are kept normalised (Unicode NFKC, so
"José" is one way whether typed with an accent key or a combining mark, and
full-width "ｐａｂ" is "pab"; no control or zero-width characters; white space
collapsed), and compared without regard to case.
"""

from __future__ import annotations

import re
import unicodedata

_SPACES = re.compile(r"\s+")

# Characters nobody means to type: controls (NUL among them), format characters
# such as the zero-width space and joiners, lone surrogates, unassigned ones.
_INVISIBLE = {"Cc", "Cf", "Cs", "Co", "Cn"}


def clean_text(value: str) -> str:
    """``value`` without invisible characters (kept: ordinary white space)."""
    return "".join(c for c in value if c in "\t\n\r " or unicodedata.category(c) not in _INVISIBLE)


def normalise_name(value: str) -> str:
    """The name as kept.

    >>> normalise_name("  Ann\\u200b   B ")
    'Ann B'
    >>> normalise_name("Jose\\u0301") == normalise_name("José")
    True
    """
    text = unicodedata.normalize("NFKC", value)
    return _SPACES.sub(" ", clean_text(text)).strip()


def name_key(value: str) -> str:
    """What two names must share to be the same person: ``Ann``, ``ann`` and ``ANN`` do.

    >>> name_key("ANN") == name_key("ann ") == name_key("Ann")
    True
    """
    return unicodedata.normalize("NFKC", normalise_name(value).casefold())
