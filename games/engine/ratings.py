"""Ratings from finished games: openskill's Plackett–Luce model, Django-free.

Each finished game ranks its players by final total, lowest first; players on
the same total share the place (a shared win is a tie for first). Games are
rated in the order they finished, each from the ratings its players had
then. What people see is one conservative number (μ − 3σ, scaled), with how
sure it is said in words.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
MU, SIGMA = MODEL.mu, MODEL.sigma
SCALE = 40  # so a rating reads as a whole number: 0 new, ~1,000 for the best


@dataclass(frozen=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def shown(self) -> int:
        """The conservative estimate, as a whole number people can compare."""
        return round((self.mu - 3 * self.sigma) * SCALE)


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


def certainty(sigma: float) -> str:
    """How sure a rating is, as a key the page puts in words."""
    if sigma > 7:
        return "new"
    if sigma > 5:
        return "settling"
    if sigma > 3.5:
        return "fair"
    return "sure"
