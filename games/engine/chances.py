"""Each player's chance of winning a game from where it stands, Django-free.

The rest of the game is played out many times over, deal by deal, and a
player's chance is the share of those endings in which they hold the lowest
total (a shared win counts as a win for each, so on a likely tie the chances
add up to more than 100%). Simulation rather than working it out exactly:
the state is every player's total and the deals left, too large to walk
through for seven players or a game of 500 deals, and a simulated ending is
a game the rules themselves score, moons and a negative jack included.

How points fall in one deal comes from the table itself (:class:`DealModel`):

- **The deal's shape** is one of the table's own past deals of the same scoring
  rules and number of players, drawn at random (a bootstrap), so a moon or a
  queen-heavy deal is as likely as the table has seen it. A table with few
  deals has not seen every shape: following a Dirichlet process with
  concentration 1, a deal is instead a fresh random one (tricks falling to
  random players) with chance 1 / (deals seen + 1). A new table therefore
  starts from random deals and moves to its own as it plays.
- **Who takes the good end of it** follows each player's deal rating: a
  Plackett–Luce strength fitted by maximum likelihood to who scored fewer
  points than whom in every past deal (each deal broken into its pairs, which
  estimates Plackett–Luce consistently; Hunter's MM algorithm), with one
  virtual draw against an average player so that a player with few deals
  stays near average until their own deals say otherwise. The ladder's
  ratings rate whole games; their scale says nothing about one deal, and
  fitting on deals needs no factor chosen by hand.

The random numbers are seeded from nothing but the number of deals played, so
the same history gives the same chances on every server, on every
recomputation and after a restore.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from games.engine.entries import CardsEntry
from games.engine.game import game_over
from games.engine.rules import MOST_DEALS, Rules, moon_value, pack, valued_cards
from games.engine.scoring import check_deal

RUNS = 2000  # endings played out; a chance is then within about ±1 point
# For how good the chances have been, over every deal of every finished game: each
# chance is rougher (±2 points), and the mean over hundreds of deals is not.
CALIBRATION_RUNS = 500
WORK_DEALS = 20  # deals left beyond which fewer endings are played out
FRESH_DEALS = 400  # random deals kept per ruleset, to draw the Dirichlet process's new ones from
SEED = 20_261_204


@dataclass(frozen=True)
class PastDeal:
    """One finished deal: the players by seat and what each scored."""

    players: tuple[Hashable, ...]
    scores: tuple[int, ...]


def scoring_key(rules: Rules) -> tuple:
    """What decides how points fall in one deal: everything but the end and the name."""
    return (
        rules.hearts,
        rules.queen_of_spades,
        rules.king_of_spades,
        rules.ace_of_spades,
        rules.jack_of_diamonds,
        rules.moon,
        rules.removed,
        rules.pass_cards,
        rules.pass_direction,
    )


def fresh_deals(rules: Rules, players: int) -> np.ndarray:
    """Deals of no table: the pack shuffled, each trick to a player chosen at random,
    scored by the rules (moons included); each row sorted, fewest points first."""
    # The end and the name don't change a deal: one set of deals for every end.
    return _fresh_deals(replace(rules, name="", target=None, deals=None), players)


@lru_cache(maxsize=64)
def _fresh_deals(rules: Rules, players: int) -> np.ndarray:
    rng = random.Random(SEED)
    cards = list(pack(rules, players))
    valued = valued_cards(rules, players)
    names = [str(seat) for seat in range(players)]
    rows = []
    for _ in range(FRESH_DEALS):
        rng.shuffle(cards)
        taken: list[list[str]] = [[] for _ in range(players)]
        for start in range(0, len(cards), players):
            trick = cards[start : start + players]
            taken[rng.randrange(players)].extend(c for c in trick if c in valued)
        result = check_deal(rules, names, CardsEntry(tuple(tuple(t) for t in taken))).result
        assert result is not None  # every valued card was given out
        rows.append(sorted(result.scores))
    return np.array(rows, dtype=np.int64)


class Pairs:
    """Who took fewer points than whom, pair by pair, over deals added in turn."""

    def __init__(self) -> None:
        self.wins: dict[Hashable, float] = defaultdict(float)
        self.met: dict[tuple[Hashable, Hashable], float] = defaultdict(float)

    def add(self, deals: Iterable[PastDeal]) -> None:
        for deal in deals:
            seats = list(zip(deal.players, deal.scores, strict=True))
            for i, (a, sa) in enumerate(seats):
                for b, sb in seats[i + 1 :]:
                    self.wins[a] += 1.0 if sa < sb else 0.5 if sa == sb else 0.0
                    self.wins[b] += 1.0 if sb < sa else 0.5 if sa == sb else 0.0
                    self.met[(a, b)] += 1

    def strengths(self, start: dict[Hashable, float] | None = None) -> dict[Hashable, float]:
        """Each player's Plackett–Luce strength in a deal (1 is average), by maximum
        likelihood; ``start`` is where the fit begins (the last one, when deals are added)."""
        against: dict[Hashable, list[tuple[Hashable, float]]] = defaultdict(list)
        for (a, b), n in self.met.items():
            against[a].append((b, n))
            against[b].append((a, n))
        strength = {p: (start or {}).get(p, 1.0) for p in against}
        # Hunter's MM update; the virtual draw (half a win against strength 1) keeps
        # every strength positive and finite, and is what "near average" means.
        for _ in range(1000):
            moved = 0.0
            new = {}
            for p, opponents in against.items():
                w = strength[p]
                denominator = sum(n / (w + strength[q]) for q, n in opponents) + 1 / (w + 1)
                new[p] = (self.wins[p] + 0.5) / denominator
                moved = max(moved, abs(math.log(new[p] / w)))
            strength = new
            if moved < 1e-6:
                break
        return strength


def deal_ratings(
    deals: Iterable[PastDeal], start: dict[Hashable, float] | None = None
) -> dict[Hashable, float]:
    """Each player's strength in a deal, from every pair in every deal: fewer points
    beat more, equal points are half a win each."""
    pairs = Pairs()
    pairs.add(deals)
    return pairs.strengths(start)


@dataclass
class DealModel:
    """How points fall in a deal at one table, for one ruleset and number of players."""

    rules: Rules
    players: int
    shapes: np.ndarray  # the past deals, each row sorted, fewest points first
    strength: dict[Hashable, float]
    # The fresh deals for these rules (fresh_deals), when the caller keeps them.
    fresh: np.ndarray | None = None

    @classmethod
    def from_deals(cls, rules: Rules, players: int, deals: Sequence[PastDeal]) -> DealModel:
        return cls(rules, players, shapes(deals, players), deal_ratings(deals) if deals else {})


def shapes(deals: Sequence[PastDeal], players: int) -> np.ndarray:
    """The deals' scores, each row sorted, fewest points first."""
    return np.array([sorted(d.scores) for d in deals], dtype=np.int64).reshape(len(deals), players)


def chances_from_here(
    model: DealModel,
    seated: Sequence[Hashable],
    totals: Sequence[int],
    played: int,
    *,
    runs: int = RUNS,
) -> list[float]:
    """Each seat's chance of winning, with ``totals`` after ``played`` deals."""
    rules, n = model.rules, len(seated)
    if played and game_over(rules, totals, played):
        best = min(totals)
        return [1.0 if t == best else 0.0 for t in totals]
    certain = _certain(rules, n, totals, played)
    if certain is not None and None not in certain:
        return [float(c) for c in certain]  # type: ignore[arg-type]
    rng = np.random.default_rng(SEED + played)
    seen = len(model.shapes)
    # The table's deals, then the fresh ones: one draw picks a table's deal with
    # chance seen / (seen + 1), each alike, or else a fresh one, each alike.
    made = model.fresh if model.fresh is not None else fresh_deals(rules, n)
    pool = np.vstack([model.shapes, made])
    table_share, fresh = seen / (seen + 1), len(pool) - seen
    log_strength = np.log([model.strength.get(p, 1.0) for p in seated])
    left = _deals_left(rules, pool, totals, played)
    runs = max(200, min(runs, runs * WORK_DEALS // left))
    sums = np.tile(np.array(totals, dtype=np.int64), (runs, 1))
    going = np.arange(runs)  # the endings not yet over
    deal = played
    while len(going) and deal < MOST_DEALS:
        # A deal at a time, all endings at once; where the game has far to go, in
        # blocks of deals, an ending stopping at the first that reaches the target.
        block = 1 if left <= WORK_DEALS else min(left // WORK_DEALS * 4, 64, MOST_DEALS - deal)
        if rules.deals is not None:
            block = min(block, rules.deals - deal)
        k = len(going)
        u = rng.random((k, block))
        index = np.where(
            u < table_share,
            (u * (seen / table_share if seen else 0)).astype(np.int64),
            seen + ((u - table_share) / (1 - table_share) * fresh).astype(np.int64),
        )
        # Who gets which end of a deal: a Plackett–Luce order drawn by the Gumbel
        # trick; a seat's place is how many drew a higher key (0 takes the fewest points).
        keys = log_strength + rng.gumbel(size=(k, block, n))
        place = (keys[..., None, :] > keys[..., :, None]).sum(axis=-1)
        path = sums[going][:, None, :] + np.cumsum(pool[index[..., None], place], axis=1)
        deal += block
        if rules.target is not None:
            reached = (path >= rules.target).any(axis=2)
            over = reached.any(axis=1)
            at = np.where(over, reached.argmax(axis=1), block - 1)
            sums[going] = path[np.arange(k), at]
            going = going[~over]
        else:
            sums[going] = path[:, -1]
        if rules.deals is not None and deal >= rules.deals:
            break
    won = (sums == sums.min(axis=1, keepdims=True)).mean(axis=0)
    # Only what the rules decide is sure: a share of simulated endings never is.
    said = [float(x) for x in np.clip(won, 0.5 / runs, 1 - 0.5 / runs)]
    if certain is not None:
        said = [s if c is None else float(c) for s, c in zip(said, certain, strict=True)]
    return said


def _deals_left(rules: Rules, pool: np.ndarray, totals: Sequence[int], played: int) -> int:
    """About how many deals the game has left: the fixed ones, or until the highest
    total reaches the target at the average deal. Where that is far (a target of
    thousands, hundreds of fixed deals) fewer endings are played out, so the work
    stays about that of a game with 20 deals left, each chance then within about
    ±3 points rather than ±1."""
    if rules.deals is not None:
        return max(rules.deals - played, 1)
    each = max(float(pool.mean()), 1.0)
    return max(math.ceil(max(rules.target - max(totals), 0) / each), 1)


def _certain(rules: Rules, n: int, totals: Sequence[int], played: int) -> list[int | None] | None:
    """Each seat's chance where the rules alone decide it: 1 for a seat that wins
    whatever the deals left bring, 0 for one that can no longer win, None where
    it depends on the deals; None for all when the deals left are not bounded.

    Only a game of a fixed number of deals has a known most of deals left (a
    target may end it sooner, which only leaves less to change). In one deal
    the gap between two players moves by at most the best a deal can give one
    less the worst it can give the other, a moon and a negative jack included.
    A tie for the lowest total is a win for each, so a leader whom the others
    can at best catch is sure, and a player whom a deal's worth cannot bring
    level with someone is out.
    """
    if rules.deals is None:
        return None
    left = max(rules.deals - played, 0)
    values = valued_cards(rules, n).values()
    most = max(sum(v for v in values if v > 0), moon_value(rules, n))
    least = sum(v for v in values if v < 0) - (moon_value(rules, n) if rules.moon == "self" else 0)
    swing = left * (most - least)
    said: list[int | None] = []
    for seat, total in enumerate(totals):
        others = [t for s, t in enumerate(totals) if s != seat]
        if any(total - other > swing for other in others):
            said.append(0)
        elif all(other - total >= swing for other in others):
            said.append(1)
        else:
            said.append(None)
    return said


def game_chances(
    model: DealModel,
    seated: Sequence[Hashable],
    totals: Sequence[Sequence[int]],
    *,
    runs: int = RUNS,
) -> list[list[float]]:
    """Each seat's chance before the first deal and after every deal, from the
    totals after each deal."""
    said = [chances_from_here(model, seated, [0] * len(seated), 0, runs=runs)]
    for number, now in enumerate(totals, start=1):
        said.append(chances_from_here(model, seated, now, number, runs=runs))
    return said


BANDS = 10  # the bands of chances the reliability drawing shows


@dataclass(frozen=True)
class Brier:
    """The chances during finished games against what happened: the mean of
    (chance − 1 if won, else 0)², over every player after every deal but the
    last; beside it the same for two plain guesses."""

    states: int = 0
    deals: int = 0
    chances: float = 0.0
    equal: float = 0.0  # everyone the same chance
    leader: float = 0.0  # whoever leads now wins (leaders tied share it)
    # The same chances in bands of ten points (0–10%, 10–20%, …, 90–100%): in each,
    # how many were said, their sum, and how many of those players won.
    bands: tuple[Band, ...] = ()


@dataclass(frozen=True)
class Band:
    """The chances said between ``low`` and ``low`` + 10 percent, against what happened."""

    low: int
    cases: int = 0
    said: float = 0.0  # the sum of the chances said
    won: int = 0

    @property
    def said_mean(self) -> float:
        return self.said / self.cases if self.cases else 0.0

    @property
    def happened(self) -> float:
        return self.won / self.cases if self.cases else 0.0


def brier(games: Iterable[tuple[Sequence[Sequence[float]], Sequence[Sequence[int]]]]) -> Brier:
    """``games`` are (the chances after deals 0..n, the totals after deals 0..n) of finished
    games; the states between the first deal and the last are scored."""
    states = deals = 0
    said = equal = leader = 0.0
    cases, sums, wins = [0] * BANDS, [0.0] * BANDS, [0] * BANDS
    for chances, totals in games:
        final = totals[-1]
        best = min(final)
        won = [1.0 if t == best else 0.0 for t in final]
        n = len(final)
        for deal in range(1, len(totals) - 1):
            now = totals[deal]
            low = min(now)
            leading = [1.0 if t == low else 0.0 for t in now]
            share = sum(leading)
            deals += 1
            for seat in range(n):
                said += (chances[deal][seat] - won[seat]) ** 2
                equal += (1 / n - won[seat]) ** 2
                leader += (leading[seat] / share - won[seat]) ** 2
                states += 1
                band = min(int(chances[deal][seat] * BANDS), BANDS - 1)
                cases[band] += 1
                sums[band] += chances[deal][seat]
                wins[band] += int(won[seat])
    if not states:
        return Brier()
    bands = tuple(
        Band(band * 100 // BANDS, cases[band], sums[band], wins[band]) for band in range(BANDS)
    )
    return Brier(states, deals, said / states, equal / states, leader / states, bands)
