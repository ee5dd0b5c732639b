"""Club nights, Django-free: splitting the people present into games, seating
each round among new neighbours, and the evening's standings.

People are any hashable ids (player ids in the app). Everything random takes
a ``random.Random`` so tests can fix it.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Collection, Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from games.engine.rules import MAX_PLAYERS, MIN_PLAYERS

PLACES = "places"
SHARE = "share"

# Random arrangements tried for a round before polishing the best by swaps:
# plenty for a club night (a dozen or two people) and quick.
TRIES = 400


def splits(present: int, usual: int, allowed: Collection[int]) -> list[tuple[int, ...]]:
    """Every way to split ``present`` people into games of even sizes, best first.

    Games are as even as possible (sizes differ by one at most), each of a size
    the rules can deal (``allowed``, within 3 to 7). Best is the number of
    games whose size comes nearest the table's ``usual`` one; fewer games first
    on a tie.

    >>> splits(7, 3, range(3, 8))
    [(4, 3), (7,)]
    >>> splits(9, 3, range(3, 8))
    [(3, 3, 3), (5, 4)]
    >>> splits(2, 3, range(3, 8))
    []
    """
    options = []
    for games in range(max(1, math.ceil(present / MAX_PLAYERS)), present // MIN_PLAYERS + 1):
        size, extra = divmod(present, games)
        sizes = (size + 1,) * extra + (size,) * (games - extra)
        if all(MIN_PLAYERS <= s <= MAX_PLAYERS and s in allowed for s in sizes):
            options.append(sizes)
    return sorted(options, key=lambda sizes: (abs(present / len(sizes) - usual), len(sizes)))


def neighbours(games: Iterable[Sequence[Hashable]]) -> Counter[frozenset]:
    """The pairs sitting next to each other (seats go round: the last sits by the first)."""
    pairs: Counter[frozenset] = Counter()
    for seats in games:
        for i, person in enumerate(seats):
            pairs[frozenset((person, seats[(i + 1) % len(seats)]))] += 1
    return pairs


def together(games: Iterable[Sequence[Hashable]]) -> Counter[frozenset]:
    """The pairs at the same game."""
    return Counter(frozenset(pair) for seats in games for pair in itertools.combinations(seats, 2))


def _cost(games: list[list[Hashable]], sat_by: Counter, sat_with: Counter) -> tuple[int, int]:
    # New neighbours first; among equally new seatings, new company at the game.
    return (
        sum(sat_by[pair] for pair in neighbours(games)),
        sum(sat_with[pair] for pair in together(games)),
    )


def _cut(order: Sequence[Hashable], sizes: Sequence[int]) -> list[list[Hashable]]:
    games, start = [], 0
    for size in sizes:
        games.append(list(order[start : start + size]))
        start += size
    return games


def draw(
    people: Sequence[Hashable],
    sizes: Sequence[int],
    earlier: Iterable[Sequence[Sequence[Hashable]]] = (),
    rng: random.Random | None = None,
) -> list[list[Hashable]]:
    """Seat ``people`` in games of ``sizes`` (each game's seats in order, clockwise).

    The first round is drawn at random. Later rounds (``earlier`` holds each
    earlier round's games) are drawn among the seatings that put the fewest
    people next to someone they already sat next to this evening, then the
    fewest at a game with someone they already played: random tries, the best
    then improved by swapping two people while that helps.
    """
    if sum(sizes) != len(people):
        raise ValueError("the games' sizes must add up to the people present")
    rng = rng or random.Random()
    order = list(people)
    rounds = [list(games) for games in earlier]
    if not rounds:
        rng.shuffle(order)
        return _cut(order, sizes)
    sat_by = sum((neighbours(games) for games in rounds), Counter())
    sat_with = sum((together(games) for games in rounds), Counter())
    best, best_cost = None, None
    for _ in range(TRIES):
        rng.shuffle(order)
        cost = _cost(_cut(order, sizes), sat_by, sat_with)
        if best_cost is None or cost < best_cost:
            best, best_cost = list(order), cost
    assert best is not None and best_cost is not None
    improved = True
    while improved and best_cost != (0, 0):
        improved = False
        for i, j in itertools.combinations(range(len(best)), 2):
            best[i], best[j] = best[j], best[i]
            cost = _cost(_cut(best, sizes), sat_by, sat_with)
            if cost < best_cost:
                best_cost, improved = cost, True
            else:
                best[i], best[j] = best[j], best[i]
    return _cut(best, sizes)


def repeated_neighbours(
    games: Sequence[Sequence[Hashable]], earlier: Iterable[Sequence[Sequence[Hashable]]]
) -> int:
    """How many pairs of neighbours in ``games`` already sat next to each other."""
    before = set().union(*(neighbours(round_) for round_ in earlier))
    return sum(1 for pair in neighbours(games) if pair in before)


# --- Standings ---------------------------------------------------------------------


@dataclass(frozen=True)
class Result:
    """One game of the evening as it stands: (person, total) in seat order."""

    totals: Sequence[tuple[Hashable, int]]
    deals: int
    deal_total: int
    finished: bool


@dataclass(frozen=True)
class Line:
    person: Hashable
    place: int
    games: int
    wins: int  # games finished first, shared wins included
    points: int  # penalty points taken over the evening
    # Place points (a whole number of halves), or the share of an even share, in per cent.
    score: Fraction | None


def place_points(totals: Sequence[int]) -> list[Fraction]:
    """A point for each player finished ahead of (a lower total), half for each tie.

    >>> [str(p) for p in place_points([10, 20, 20, 5])]
    ['2', '1/2', '1/2', '3']
    """
    behind = [sum(1 for o in totals if o > t) for t in totals]
    tied = [sum(1 for o in totals if o == t) - 1 for t in totals]
    return [Fraction(b) + Fraction(t, 2) for b, t in zip(behind, tied, strict=True)]


def standings(results: Iterable[Result], rule: str) -> list[Line]:
    """The evening's table, best first; equal scores share a place.

    ``places``: place points added over the games. ``share``: points taken
    against an even share of every deal played (each deal's total divided
    by the players at that game), in per cent: 100 is an even share, lower is
    better, so games of 3 and of 4 compare. Games with no deal yet count for
    nothing.
    """
    games: Counter = Counter()
    wins: Counter = Counter()
    points: Counter = Counter()
    score: dict[Hashable, Fraction] = {}
    even: Counter = Counter()
    people: list[Hashable] = []
    for result in results:
        for person, _ in result.totals:
            if person not in score:
                people.append(person)
                score[person] = Fraction(0)
        if not result.deals:
            continue
        totals = [total for _, total in result.totals]
        shares = place_points(totals)
        lowest = min(totals)
        for (person, total), share in zip(result.totals, shares, strict=True):
            games[person] += 1
            points[person] += total
            if result.finished and total == lowest:
                wins[person] += 1
            if rule == PLACES:
                score[person] += share
            else:
                even[person] += Fraction(result.deals * result.deal_total, len(totals))

    def shown(person: Hashable) -> Fraction | None:
        if not games[person]:
            return None
        if rule == PLACES:
            return score[person]
        return Fraction(points[person] * 100, 1) / even[person] if even[person] else None

    figures = {person: shown(person) for person in people}
    # Most place points first; the smallest share first; people yet to play last.
    sign = -1 if rule == PLACES else 1

    def key(person: Hashable) -> tuple:
        figure = figures[person]
        return (figure is None, 0 if figure is None else sign * figure)

    ordered = sorted(people, key=key)
    lines = []
    for person in ordered:
        place = 1 + sum(1 for other in ordered if key(other) < key(person))
        lines.append(
            Line(person, place, games[person], wins[person], points[person], figures[person])
        )
    return lines
