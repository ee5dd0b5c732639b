"""The engine's words: English as written, the person's language once the web app
installs its translation (games/apps.py).

Messages are templates, filled with ``str.format``, so a phone checking a deal
on its own (no network) can give exactly the same ones.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence


def gettext_noop(message: str) -> str:
    """Marks a message for translation where it is defined; translated where used."""
    return message


def _as_written(context: str, message: str) -> str:
    return message


def _as_written_plural(singular: str, plural: str, count: int) -> str:
    return singular if count == 1 else plural


_translate: Callable[[str], str] = gettext_noop
_translate_in_context: Callable[[str, str], str] = _as_written
_translate_count: Callable[[str, str, int], str] = _as_written_plural


def use_translation(
    gettext: Callable[[str], str],
    pgettext_: Callable[[str, str], str],
    ngettext_: Callable[[str, str, int], str],
) -> None:
    """Speak through these (Django's gettext, pgettext and ngettext in the web app)."""
    global _translate, _translate_in_context, _translate_count
    _translate, _translate_in_context, _translate_count = gettext, pgettext_, ngettext_


def _(message: str) -> str:
    return _translate(message)


def pgettext(context: str, message: str) -> str:
    return _translate_in_context(context, message)


def ngettext(singular: str, plural: str, count: int) -> str:
    return _translate_count(singular, plural, count)


HEARTS_NOT_WHOLE = gettext_noop("{name}'s hearts must be a whole number, 0 or more")
HEARTS_SUM = gettext_noop("hearts add up to {counted}, the pack has {hearts}")
NOBODY_TOOK = gettext_noop("nobody has taken {cards} yet")
POINTS_NOT_WHOLE = gettext_noop("{names}: points must be whole numbers")
POINTS_SUM = gettext_noop("points add up to {counted}, the deal total is {total}")
AND = gettext_noop("{first} and {last}")
DEAL_PROBLEM = gettext_noop("deal {number}: {problem}")
INFEASIBLE = gettext_noop("no way of taking the cards gives {points}")
INFEASIBLE_CARDS = gettext_noop("no way of taking the cards gives {points}: check who took {cards}")
MOON_OTHERS = gettext_noop("{shooter} shoots the moon: {shooter} scores 0, {others} +{moon} each")
MOON_SELF = gettext_noop("{shooter} shoots the moon: {shooter} −{moon}, {others} 0")


def without_deal_number(problem: str, number: int) -> str:
    """A game's refusal as said of the deal being entered: without "deal 4: "."""
    prefix = _(DEAL_PROBLEM).format(number=number, problem="")
    return problem.removeprefix(prefix)


def join_names(names: Sequence[str]) -> str:
    """``["Ann", "Bo", "Cy"]`` -> ``"Ann, Bo and Cy"``."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return _(AND).format(first=", ".join(names[:-1]), last=names[-1])


class Refusal(ValueError):
    """What the rules refuse; ``problems`` say why, in players' words."""

    def __init__(self, problems: Sequence[str]):
        self.problems = list(problems)
        super().__init__("; ".join(self.problems))
