"""Each player's chance of winning during a game, from the table's own deals
(games/engine/chances.py), and how good those chances have been.

What the chances are drawn from is every finished game of the table, so what
is kept is keyed by the table's ``chances_version``, which the ladder's
re-rating moves on whenever a result changes: a deal of a finished game
edited, a game finished, deleted or restored (games/services/ladder.py). A
member's kept game page and its poll go by it too (games/selectors/games.py).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np
from django.core.cache import caches
from django.utils.translation import gettext as _

from games import engine
from games.engine import chances as maths
from games.models import Game, Table
from games.selectors.chances import Played, finished_games

KEEP_SECONDS = 24 * 3600


@dataclass(frozen=True)
class Said:
    """What the table's finished games say: the chances each had after every
    deal, from what was known then, and how good they were."""

    by_game: dict[int, list[list[float]]]
    brier: maths.Brier
    # For the next time: each game's deal ratings and chances, by the games before
    # it (theirs and its own ids and versions), so a game finished since, or an
    # edit of a late game, works out only what changed.
    kept: dict[tuple, tuple[dict, list[list[float]]]] = field(default_factory=dict, compare=False)
    chances_version: int = field(default=-1, compare=False)


class _Shapes:
    """A group's past deals, each row sorted, grown in place as games are added."""

    def __init__(self, players: int) -> None:
        self.rows = np.zeros((64, players), dtype=np.int64)
        self.count = 0

    def add(self, deals: Sequence[maths.PastDeal]) -> None:
        while self.count + len(deals) > len(self.rows):
            self.rows = np.vstack([self.rows, np.zeros_like(self.rows)])
        for deal in deals:
            self.rows[self.count] = sorted(deal.scores)
            self.count += 1

    def now(self) -> np.ndarray:
        return self.rows[: self.count]


def _work_out(games: Sequence[Played], before: Said | None = None) -> Said:
    """Every finished game in turn, from the deals of the games finished before it;
    what ``before`` worked out for a game with the same games before it is taken as
    it was (it would come out the same, number for number)."""
    shapes: dict[tuple, _Shapes] = {}
    pairs: dict[tuple, maths.Pairs] = {}
    strength: dict[tuple, dict] = {}
    # The games before, by id and version, as a running hash (of whole numbers only,
    # so the same in every process).
    behind: dict[tuple, int] = {}
    by_game: dict[int, list[list[float]]] = {}
    kept: dict[tuple, tuple[dict, list[list[float]]]] = {}
    for game in games:
        group, n = game.key, len(game.players)
        grown = shapes.setdefault(group, _Shapes(n))
        counted = pairs.setdefault(group, maths.Pairs())
        key = (behind.get(group, 0), game.pk, game.version)
        if before is not None and key in before.kept:
            strength[group], said = before.kept[key]
        else:
            # Each fit starts from the last: a game's deals move the strengths little.
            strength[group] = counted.strengths(strength.get(group)) if grown.count else {}
            model = maths.DealModel(game.rules, n, grown.now(), strength[group])
            said = maths.game_chances(model, game.players, game.totals, runs=maths.CALIBRATION_RUNS)
        kept[key] = (strength[group], said)
        by_game[game.pk] = said
        behind[group] = hash(key)
        grown.add(game.past_deals())
        counted.add(game.past_deals())
    brier = maths.brier((by_game[g.pk], [tuple(0 for _ in g.players), *g.totals]) for g in games)
    return Said(by_game, brier, kept)


def table_said(table: Table) -> Said:
    """:class:`Said` for the table, worked out once per state of its finished games
    and kept where every process finds it; after a change, from what was kept."""
    cache = caches["default"]
    key = f"chances-said:2:{table.pk}"  # 2: with the bands of the reliability drawing
    said = cache.get(key)
    if said is None or said.chances_version != table.chances_version:
        said = replace(
            _work_out(finished_games(table), before=said),
            chances_version=table.chances_version,
        )
        cache.set(key, said, KEEP_SECONDS)
    return said


def model_for(table: Table, rules: engine.Rules, players: int) -> maths.DealModel:
    """How points fall at the table in a deal of these rules and players, from all
    its finished games; kept in this process per state of them."""
    cache = caches["local"]
    stamp = table.chances_version
    key = f"deal-model:{table.pk}:{stamp}:{hash(maths.scoring_key(rules))}:{players}"
    kept = cache.get(key)
    if kept is None:
        wanted = (maths.scoring_key(rules), players)
        # Never rated means never a finished game: nothing to read.
        played = finished_games(table) if table.chances_version else []
        deals = [d for g in played if g.key == wanted for d in g.past_deals()]
        kept = maths.DealModel.from_deals(rules, players, deals)
        kept.fresh = fresh_deals(rules, players)
        cache.set(key, kept, KEEP_SECONDS)
    # The end differs from game to game; how a deal falls does not.
    return maths.DealModel(rules, kept.players, kept.shapes, kept.strength, kept.fresh)


def fresh_deals(rules: engine.Rules, players: int) -> np.ndarray:
    """The engine's fresh deals for these rules, made once for every process: they
    are seeded, so the same everywhere, and making them is most of a new process's
    first chances (about 50 ms), which would otherwise fall on a page."""
    what = repr((maths.scoring_key(rules), players, maths.FRESH_DEALS, maths.SEED))
    key = "fresh-deals:" + hashlib.sha256(what.encode()).hexdigest()[:40]
    made = caches["default"].get(key)
    if made is None:
        made = maths.fresh_deals(rules, players)
        caches["default"].set(key, made, KEEP_SECONDS)
    return made


def percents(chances: Sequence[float]) -> list[int]:
    """Whole percents, never 100 or 0 unless it is certain: 99.6% is not a sure thing."""
    shown = []
    for chance in chances:
        percent = round(chance * 100)
        if percent == 100 and chance < 1:
            percent = 99
        elif percent == 0 and chance > 0:
            percent = 1
        shown.append(percent)
    return shown


def percent_text(chance: float) -> str:
    """A chance as a person reads it: "62%"; "under 1%" where it is not certain but
    less than 1%, so a small chance is never shown larger than it is; "99%" for more
    than 99% short of certain; "0%" and "100%" only where the rules decide it."""
    if 0 < chance < 0.01:
        return _("under 1%")
    return _("{percent}%").format(percent=percents([chance])[0])


def percent_number(chance: float) -> str:
    """The same in a narrow place (a box of seven, a table's cell): "62", "<1"."""
    return "<1" if 0 < chance < 0.01 else str(percents([chance])[0])


def percent_short(chance: float) -> str:
    """ "62%", "<1%": where "under 1%" does not fit, beside the words for a screen reader."""
    return _("{percent}%").format(percent=percent_number(chance))


def chances_now(
    game: Game, players: Sequence[int], totals: Sequence[int], played: int
) -> list[float]:
    """Each seat's chance of winning the game in progress from its totals now.

    Worked out once per game version for every process: kept in this one's memory
    and in the shared cache, where a club night's big screen finds what the
    members' phones had worked out.
    """
    key = f"chances-now:{game.pk}:{game.version}:{game.table.chances_version}:{played}"
    said = caches["local"].get(key)
    if said is None:
        said = caches["default"].get(key)
        if said is None:
            model = model_for(game.table, game.get_rules(), len(players))
            said = maths.chances_from_here(model, players, totals, played)
            caches["default"].set(key, said, KEEP_SECONDS)
        caches["local"].set(key, said, KEEP_SECONDS)
    return said


@dataclass(frozen=True)
class Comeback:
    name: str
    percent: int
    deal: int
    said: str = ""  # the chance as it was shown: "9%", "under 1%"


def comeback(
    names: Sequence[str], winners: Sequence[int], said: Sequence[Sequence[float]]
) -> Comeback | None:
    """The winner who was, after some deal, the least likely of all to win and under an
    even share, at their lowest; None when no winner was ever that far behind."""
    lowest: tuple[float, int, int] | None = None
    for deal, now in enumerate(said[1:-1], start=1):
        for seat in winners:
            chance = now[seat]
            behind = chance == min(now) and chance < 1 / len(names)
            if behind and (lowest is None or chance < lowest[0]):
                lowest = (chance, seat, deal)
    if lowest is None:
        return None
    chance, seat, deal = lowest
    return Comeback(names[seat], percents([chance])[0], deal, percent_text(chance))


def game_said(game: Game) -> list[list[float]]:
    """A finished game's chances after every deal, from the deals of the games that
    finished before it (as its players knew them then); kept per state of the table."""
    cache = caches["local"]
    key = f"game-chances:{game.pk}:{game.version}:{game.table.chances_version}"
    said = cache.get(key)
    if said is None:
        games = finished_games(game.table)
        mine = next((g for g in games if g.pk == game.pk), None)
        if mine is None:
            return []
        before = [
            d for g in games[: games.index(mine)] if g.key == mine.key for d in g.past_deals()
        ]
        model = maths.DealModel.from_deals(mine.rules, len(mine.players), before)
        said = maths.game_chances(model, mine.players, mine.totals)
        cache.set(key, said, KEEP_SECONDS)
    return said
