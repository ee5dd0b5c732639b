"""Scoring a deal: the check that says "37 of 43" and what is wrong, the
scores, and the moon.

>>> from games.engine.entries import PointsEntry
>>> result = score_deal(Rules(), ["Alice", "Ben", "Cara"], PointsEntry((17, 13, 13)))
>>> result.scores
(17, 13, 13)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.engine.entries import Entry, missing_cards_problem, read_cards, read_counts, read_points
from games.engine.rules import (
    Rules,
    bonus_value,
    deal_total,
    hearts_in_pack,
    moon_value,
    valued_cards,
)
from games.engine.words import MOON_OTHERS, MOON_SELF, Refusal, _, join_names


class InvalidDeal(Refusal):
    """An entry that can't be scored; ``problems`` name what is wrong."""


@dataclass(frozen=True)
class DealResult:
    raw: tuple[int, ...]
    scores: tuple[int, ...]
    moon: int | None  # seat of the shooter when a moon was scored


@dataclass(frozen=True)
class DealCheck:
    """The live check while entering: "37 of 43", what can't be right as it stands
    (``wrong``) and what nobody has entered yet (the cards nobody took, the seats
    with no number): a half-entered deal is unfinished, not wrong."""

    counted: int
    total: int
    problems: tuple[str, ...]  # everything a save would be refused for
    result: DealResult | None
    wrong: tuple[str, ...] = ()
    missing_cards: tuple[str, ...] = ()
    missing_seats: tuple[int, ...] = ()

    @property
    def valid(self) -> bool:
        return self.result is not None


def check_deal(rules: Rules, names: Sequence[str], entry: Entry) -> DealCheck:
    """Validate and score an entry without raising."""
    players = len(names)
    total = deal_total(rules, players)
    if entry.mode == "cards":
        counted, wrong, missing, raw = read_cards(rules, names, entry)
    elif entry.mode == "counts":
        counted, wrong, missing, raw = read_counts(rules, names, entry)
    else:
        counted, wrong, missing, raw = read_points(rules, names, entry)
    if raw is None:
        problems = (*wrong, *missing_cards_problem(missing))
        return DealCheck(counted, total, problems, None, tuple(wrong), tuple(missing))
    # With no moon rule a clean sweep is just points: no moon is scored.
    shooter = None if rules.moon == "none" else _moon_shooter(rules, players, entry, raw)
    scores = _apply_moon(rules, players, raw, shooter)
    return DealCheck(counted, total, (), DealResult(tuple(raw), tuple(scores), shooter))


def score_deal(rules: Rules, names: Sequence[str], entry: Entry) -> DealResult:
    """Score a valid entry, or raise :class:`InvalidDeal` naming the problems."""
    check = check_deal(rules, names, entry)
    if check.result is None:
        raise InvalidDeal(check.problems)
    return check.result


def _moon_shooter(rules: Rules, players: int, entry: Entry, raw: Sequence[int]) -> int | None:
    """The seat that took every positive card, if any."""
    moon = moon_value(rules, players)
    if moon <= 0:
        return None
    bonus = bonus_value(rules, players)
    if entry.mode == "points":
        # Recognised when one player holds the whole moon value (plus the bonus
        # if they may have it) and everyone else 0 (or the bonus).
        for seat, points in enumerate(raw):
            if points in (moon, moon + bonus) and all(
                p in (0, bonus) for s, p in enumerate(raw) if s != seat
            ):
                return seat
        return None
    positive = {c for c, v in valued_cards(rules, players).items() if v > 0}
    for seat in range(players):
        if entry.mode == "cards":
            taken = set(entry.cards[seat])
            if positive <= taken:
                return seat
        else:
            positive_specials = {c for c in positive if not c.endswith("H")}
            hearts = len(hearts_in_pack(rules, players))
            if entry.hearts[seat] == hearts and positive_specials <= set(entry.cards[seat]):
                return seat
    return None


def _apply_moon(rules: Rules, players: int, raw: Sequence[int], shooter: int | None) -> list[int]:
    if shooter is None or rules.moon == "none":
        return list(raw)
    moon = moon_value(rules, players)
    scores = []
    for seat, points in enumerate(raw):
        if seat == shooter:
            # The bonus card, if the shooter took it, still counts.
            kept = points - moon
            scores.append(kept if rules.moon == "others" else kept - moon)
        else:
            scores.append(points + moon if rules.moon == "others" else points)
    return scores


def moon_summary(names: Sequence[str], result: DealResult, rules: Rules) -> str | None:
    """ "Cara shoots the moon: Cara scores 0, Alice and Ben +43 each", or None without a moon."""
    if result.moon is None:
        return None
    shooter = names[result.moon]
    moon = moon_value(rules, len(names))
    others = [n for s, n in enumerate(names) if s != result.moon]
    # Says what the shooter scores, so the "43" taken is never read as theirs.
    if rules.moon == "others":
        return _(MOON_OTHERS).format(shooter=shooter, moon=moon, others=join_names(others))
    return _(MOON_SELF).format(shooter=shooter, moon=moon, others=join_names(others))
