"""Ratings from finished games: openskill's Plackett–Luce model, Django-free.

Each finished game ranks its players by final total, lowest first; players on
the same total share the place (a shared win is a tie for first). Games are
rated in the order they finished, each from the ratings its players had
then. What people see is the skill estimate μ on a scale where everyone
starts at 1,000, with how sure it is said in words; a player is ranked once
they have finished a few games (:data:`RANKED_AFTER`).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
MU, SIGMA = MODEL.mu, MODEL.sigma
START = 1000  # where a newcomer starts, and the middle of any club
# Points a unit of μ: a club's players read about 700 to 1,300, and even one last in
# every one of 300 games of seven stays above 0 (tested).
SCALE = 10
# Ranked from the fifth finished game: by then a player has met the table's
# regulars more than once, so one lucky win no longer sets the order, and
# the number moves by tens a game rather than by a hundred or more.
RANKED_AFTER = 5


@dataclass(frozen=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def shown(self) -> int:
        """The skill estimate as a whole number people can compare: 1,000 to start."""
        return round(START + (self.mu - MU) * SCALE)


@dataclass(frozen=True)
class Rated:
    """One player's rating before and after one game."""

    game: Hashable
    player: Hashable
    place: int
    before: Rating
    after: Rating


def places(totals: Sequence[int]) -> list[int]:
    """1 for the lowest total; equal totals share a place (1, 1, 3)."""
    return [1 + sum(1 for other in totals if other < total) for total in totals]


def rate(games: Iterable[tuple[Hashable, Sequence[tuple[Hashable, int]]]]) -> list[Rated]:
    """Rate ``(game, [(player, final total), ...])`` in the order given."""
    current: dict[Hashable, Rating] = {}
    rated: list[Rated] = []
    for game, seats in games:
        players = [player for player, _ in seats]
        before = [current.get(p, Rating()) for p in players]
        ranks = places([total for _, total in seats])
        teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
        after = MODEL.rate(teams, ranks=ranks)
        for player, place, old, (new,) in zip(players, ranks, before, after, strict=True):
            current[player] = Rating(new.mu, new.sigma)
            rated.append(Rated(game, player, place, old, current[player]))
    return rated


def certainty(games: int, sigma: float) -> str:
    """How sure a rating is, as a key the page puts in words.

    Before :data:`RANKED_AFTER` games a player is not ranked yet. After that
    the words follow how far one more game can still move the number, which
    is what σ measures: it shrinks with every game, more slowly at bigger
    tables, so 25 games of three are "fairly sure" and 25 of seven are too.

    >>> certainty(2, 7.9), certainty(6, 7.2), certainty(25, 6.3), certainty(60, 4.1)
    ('unranked', 'settling', 'fair', 'sure')
    """
    if games < RANKED_AFTER:
        return "unranked"
    if sigma > 7:
        return "settling"
    if sigma > 4.5:
        return "fair"
    return "sure"


def chances(before: Sequence[Rating]) -> list[float]:
    """Each player's chance of winning a game about to start, as openskill's
    model predicts it from their ratings (summing to 1)."""
    return list(MODEL.predict_win([[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]))


@dataclass(frozen=True)
class Calibration:
    """How good the chances were: of the ``games`` with one favourite, the
    favourite won ``won`` (a shared win counts); the chances said ``expected``."""

    games: int = 0
    won: int = 0
    expected: float = 0.0


def calibration(rated: Iterable[Rated]) -> Calibration:
    """Each finished game's chances from the ratings its players had then.

    A game whose players were all equally rated (everyone's first) has no
    favourite and is left out; so is one where two share the highest chance.
    """
    games: dict[Hashable, list[Rated]] = {}
    for r in rated:
        games.setdefault(r.game, []).append(r)
    counted = won = 0
    expected = 0.0
    for seats in games.values():
        said = chances([r.before for r in seats])
        best = max(said)
        favourites = [seat for seat, chance in enumerate(said) if chance == best]
        if len(favourites) != 1:
            continue
        counted += 1
        won += seats[favourites[0]].place == 1
        expected += best
    return Calibration(counted, won, expected)
