"""Statistics per player, from a fixed number of queries whatever the games.

Lowest is best everywhere: a leaderboard ranks by wins (a shared win counts
for each winner), then by the lower average points per deal.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import QuerySet
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.models import Game
from games.selectors import history as history_read

SPADES = ("QS", "KS", "AS")


@dataclass
class PlayerStats:
    key: int  # the player's id, or the account's id across tables
    name: str
    played: int = 0  # finished games
    won: int = 0
    shared: int = 0  # wins shared with someone else
    deals: int = 0
    points: int = 0
    spades: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SPADES, 0))
    spades_known: int = 0  # deals entered as cards or counts, where spades are known
    moons: int = 0
    best: int | None = None
    worst: int | None = None
    results: list[tuple[tuple, bool]] = field(default_factory=list)  # (when, won)

    @property
    def win_rate(self) -> float | None:
        return None if not self.played else self.won / self.played

    @property
    def win_percent(self) -> str:
        rate = self.win_rate
        return "—" if rate is None else _("{percent}%").format(percent=round(100 * rate))

    @property
    def average(self) -> str:
        # Rounded as before, then written the local way (20.7, or 20,7 in Norwegian).
        return "—" if not self.deals else number_format(Decimal(f"{self.points / self.deals:.1f}"))

    @property
    def streak(self) -> str:
        """ "3 wins", "2 losses": the run of the most recent finished games."""
        ordered = [won for _, won in sorted(self.results, key=lambda item: item[0])]
        if not ordered:
            return "—"
        last = ordered[-1]
        run = 0
        for won in reversed(ordered):
            if won != last:
                break
            run += 1
        if last:
            return ngettext("{count} win", "{count} wins", run).format(count=run)
        return ngettext("{count} loss", "{count} losses", run).format(count=run)

    @property
    def sort_key(self) -> tuple:
        average = self.points / self.deals if self.deals else float("inf")
        return (-(self.win_rate or 0), -self.won, average, self.name.casefold())


def player_stats(games: QuerySet[Game], *, by_account: bool = False) -> list[PlayerStats]:
    """Everyone who sat at these games, best first. Two queries.

    ``by_account`` gathers a person's players across tables under their
    linked account (only seats of linked players count then).
    """
    seat_rows = history_read.seat_rows(games, linked_only=by_account)
    stats: dict[int, PlayerStats] = {}
    who: dict[tuple[int, int], PlayerStats] = {}  # (game, seat) -> stats
    winners: dict[int, int] = defaultdict(int)
    finished_seats = []
    for row in seat_rows:
        game_id, number, player_id, name, user_id, username, total, won, status, ended, began = row
        key = user_id if by_account else player_id
        label = username if by_account else name
        entry = stats.setdefault(key, PlayerStats(key=key, name=label))
        who[(game_id, number)] = entry
        if status == Game.Status.FINISHED:
            # Order of play: when it ended (or began, for games without an end time).
            finished_seats.append((entry, game_id, total, won, (ended or began, game_id)))
            if won:
                winners[game_id] += 1
    for entry, game_id, total, won, ended in finished_seats:
        entry.played += 1
        entry.results.append((ended, won))
        entry.best = total if entry.best is None else min(entry.best, total)
        entry.worst = total if entry.worst is None else max(entry.worst, total)
        if won:
            entry.won += 1
            if winners[game_id] > 1:
                entry.shared += 1
    deals = history_read.deal_rows(games)
    for game_id, mode, entry_data, scores, moon in deals:
        for seat, score in enumerate(scores):
            entry = who.get((game_id, seat))
            if entry is None:
                continue
            entry.deals += 1
            entry.points += score
            if moon == seat:
                entry.moons += 1
            if mode in ("cards", "counts"):
                cards = entry_data[seat] if mode == "cards" else entry_data["cards"][seat]
                entry.spades_known += 1
                for card in SPADES:
                    if card in cards:
                        entry.spades[card] += 1
    return sorted(stats.values(), key=lambda s: s.sort_key)
