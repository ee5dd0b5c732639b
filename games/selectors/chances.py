"""A table's finished games as the chances read them: their rules, seats and deals."""

from __future__ import annotations

from dataclasses import dataclass

from games import engine
from games.engine import chances as maths
from games.models import Deal, Game, Seat, Table


@dataclass(frozen=True)
class Played:
    """A game with deals, as the chances read it."""

    pk: int
    rules: engine.Rules
    players: tuple[int, ...]
    totals: tuple[tuple[int, ...], ...]  # after each deal
    scores: tuple[tuple[int, ...], ...]
    version: int = 0  # moved on by any change to its deals

    @property
    def key(self) -> tuple:
        return (maths.scoring_key(self.rules), len(self.players))

    def past_deals(self) -> list[maths.PastDeal]:
        return [maths.PastDeal(self.players, s) for s in self.scores]


def finished_games(table: Table) -> list[Played]:
    """The table's finished games that have deals, in the order they finished (three queries)."""
    games = list(
        Game.objects.filter(table=table, status=Game.Status.FINISHED, result_only=False)
        .order_by("finished_at", "pk")
        .values_list("pk", "rules", "version")
    )
    ids = [pk for pk, _, _ in games]
    seats: dict[int, list[int]] = {}
    for game, player in (
        Seat.objects.filter(game_id__in=ids)
        .order_by("game_id", "number")
        .values_list("game_id", "player_id")
    ):
        seats.setdefault(game, []).append(player)
    deals: dict[int, list[tuple[list[int], list[int]]]] = {}
    for game, scores, totals in (
        Deal.objects.filter(game_id__in=ids)
        .order_by("game_id", "number")
        .values_list("game_id", "scores", "totals")
    ):
        deals.setdefault(game, []).append((scores, totals))
    return [
        Played(
            pk,
            engine.Rules.from_dict(rules),
            tuple(seats[pk]),
            tuple(tuple(t) for _, t in deals[pk]),
            tuple(tuple(s) for s, _ in deals[pk]),
            version,
        )
        for pk, rules, version in games
        if pk in deals and pk in seats
    ]
