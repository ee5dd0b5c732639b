"""Names are people: the same name typed two ways is the same player.

Names of players, tables and rulesets are kept normalised (Unicode NFKC, so
"José" is one way whether typed with an accent key or a combining mark, and
full-width "ｐａｂ" is "pab"; no control or zero-width characters; white space
collapsed), and compared without regard to case.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from games.engine.words import _, gettext_noop, join_names

_SPACES = re.compile(r"\s+")

MOST_NAME = 40  # a player's name, in characters, as kept
MOST_TABLE_NAME = 80

# The one set of words for a player's name that can't be kept, wherever it was
# typed or read (a form, a club night's newcomers, a history file).
NO_NAME = gettext_noop("a player needs a name")
TOO_LONG = gettext_noop("“{name}…” is too long: a name has at most {most} characters")
TWICE = gettext_noop("{names} are the same player written two ways")
TAKEN = gettext_noop("{name} already plays at this table")

# Characters nobody means to type: controls (NUL among them), format characters
# such as the zero-width space and joiners, lone surrogates, unassigned ones.
_INVISIBLE = {"Cc", "Cf", "Cs", "Co", "Cn"}


def clean_text(value: str) -> str:
    """``value`` without invisible characters (kept: ordinary white space)."""
    return "".join(c for c in value if c in "\t\n\r " or unicodedata.category(c) not in _INVISIBLE)


@lru_cache(maxsize=4096)  # a history file says each name on every deal
def normalise_name(value: str) -> str:
    """The name as kept.

    >>> normalise_name("  Ann\\u200b   B ")
    'Ann B'
    >>> normalise_name("Jose\\u0301") == normalise_name("José")
    True
    """
    text = unicodedata.normalize("NFKC", value)
    return _SPACES.sub(" ", clean_text(text)).strip()


@lru_cache(maxsize=4096)
def name_key(value: str) -> str:
    """What two names must share to be the same person: ``Ann``, ``ann`` and ``ANN`` do.

    >>> name_key("ANN") == name_key("ann ") == name_key("Ann")
    True
    """
    return unicodedata.normalize("NFKC", normalise_name(value).casefold())


class NameRefused(ValueError):
    """A player's name that can't be kept; ``message`` says why, in players' words."""

    def __init__(self, message: str):
        self.message = message
        super().__init__(message)


def as_sentence(problem: str) -> str:
    """An engine's problem ("a player needs a name") as a form says it."""
    return problem[:1].upper() + problem[1:] + "."


def player_names(
    typed: Iterable[str], *, playing: Iterable[str] = (), repeats: bool = False
) -> list[str]:
    """The players' names as kept: normalised, blanks left out, each checked.

    ``playing`` are the names already at the table: one typed again is refused.
    A name typed twice (in any case) is refused too, or kept once with
    ``repeats``. Raises :class:`NameRefused`.

    >>> player_names([" Ann ", "", "Bo"])
    ['Ann', 'Bo']
    >>> player_names(["Ann", "ANN"], repeats=True)
    ['Ann']
    >>> player_names(["Ann", "ann"])
    Traceback (most recent call last):
    ...
    games.engine.names.NameRefused: Ann and ann are the same player written two ways
    >>> player_names(["bo"], playing=["Bo"])
    Traceback (most recent call last):
    ...
    games.engine.names.NameRefused: Bo already plays at this table
    """
    at_table = {name_key(name): name for name in playing}
    names: dict[str, str] = {}
    for text in typed:
        name = normalise_name(text)
        if not name:
            continue
        if len(name) > MOST_NAME:
            raise NameRefused(_(TOO_LONG).format(name=name[:20], most=MOST_NAME))
        key = name_key(name)
        if key in at_table:
            raise NameRefused(_(TAKEN).format(name=at_table[key]))
        if key in names:
            if repeats:
                continue
            raise NameRefused(_(TWICE).format(names=join_names([names[key], name])))
        names[key] = name
    return list(names.values())


def player_name(text: str, *, playing: Iterable[str] = ()) -> str:
    """One player's name as kept (see :func:`player_names`); a blank is refused."""
    names = player_names([text], playing=playing)
    if not names:
        raise NameRefused(_(NO_NAME))
    return names[0]
