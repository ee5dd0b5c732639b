"""What the game page shows: totals, the coming deal, the history.

Built from stored rows with the rules engine for turn order; views only
render it. Reads a fixed number of queries whatever the number of deals.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch

from games import rules as r
from games.chart import Chart, score_chart
from games.models import Deal, Game, Seat


@dataclass(frozen=True)
class SeatLine:
    number: int
    name: str
    total: int
    leading: bool
    winner: bool
    to_target: int | None


@dataclass(frozen=True)
class PassLine:
    giver: str
    receiver: str


@dataclass(frozen=True)
class Coming:
    number: int
    dealer: str
    leader: str
    pass_cards: int
    direction: str
    passes: list[PassLine]


@dataclass(frozen=True)
class HistoryRow:
    deal: Deal
    dealer: str
    cells: list[tuple[int, int, bool]]  # (score, total, is the shooter)
    moon: str | None
    entered_by: str


@dataclass(frozen=True)
class Scoreboard:
    game: Game
    rules: r.Rules
    names: list[str]
    seats: list[SeatLine]
    coming: Coming | None
    history: list[HistoryRow]
    winners: list[str]
    deal_total: int
    moon_value: int

    @property
    def winners_text(self) -> str:
        return r.join_names(self.winners)

    @property
    def chart(self) -> Chart:
        return score_chart(
            self.names,
            [row.deal.totals for row in self.history],
            self.rules.target,
            [row.deal.moon_seat for row in self.history],
        )


def load_game(queryset, pk: int) -> Game:
    """One game with seats, players and deals loaded (a fixed number of queries)."""
    return (
        queryset.select_related("table", "ruleset")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("number")),
            Prefetch(
                "deals", queryset=Deal.objects.select_related("entered_by").order_by("number")
            ),
        )
        .get(pk=pk)
    )


def scoreboard(game: Game) -> Scoreboard:
    rules = game.get_rules()
    seats = list(game.seats.all())
    deals = list(game.deals.all())
    names = [s.player.name for s in seats]
    players = len(names)
    totals = [s.total for s in seats]
    best = min(totals) if deals else None
    lines = [
        SeatLine(
            number=s.number,
            name=s.player.name,
            total=s.total,
            leading=best is not None and s.total == best,
            winner=s.is_winner,
            to_target=None if rules.target is None else rules.target - s.total,
        )
        for s in seats
    ]
    coming = None
    if not game.is_finished:
        number = len(deals) + 1
        direction = r.pass_direction(rules, players, number)
        passes = []
        for seat in range(players):
            receiver = r.pass_receiver(rules, players, number, seat)
            if receiver is not None:
                passes.append(PassLine(names[seat], names[receiver]))
        coming = Coming(
            number=number,
            dealer=names[r.dealer(game.first_dealer, players, number)],
            leader=names[r.leader(game.first_dealer, players, number)],
            pass_cards=r.cards_passed(rules, players),
            direction=direction,
            passes=passes,
        )
    history = [
        HistoryRow(
            deal=deal,
            dealer=names[r.dealer(game.first_dealer, players, deal.number)],
            cells=[
                (score, total, deal.moon_seat == seat)
                for seat, (score, total) in enumerate(zip(deal.scores, deal.totals, strict=True))
            ],
            moon=None if deal.moon_seat is None else names[deal.moon_seat],
            entered_by=deal.entered_by.get_username() if deal.entered_by else "",
        )
        for deal in deals
    ]
    return Scoreboard(
        game=game,
        rules=rules,
        names=names,
        seats=lines,
        coming=coming,
        history=history,
        winners=[s.player.name for s in seats if s.is_winner],
        deal_total=r.deal_total(rules, players),
        moon_value=r.moon_value(rules, players),
    )
