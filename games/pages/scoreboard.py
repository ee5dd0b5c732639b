"""What the game page shows: totals, the coming deal, the history.

Built from stored rows with the rules engine for turn order; views only
render it. Reads a fixed number of queries whatever the number of deals.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import engine
from games.engine.chart import Chart, chance_chart, score_chart
from games.models import Game, Seat
from games.pages import chances as during
from games.pages.ladder import chances_line
from games.pages.links import bg_stats_link
from games.pages.rules import the_end
from games.selectors import games as games_read


@dataclass(frozen=True)
class SeatLine:
    number: int
    name: str
    total: int
    leading: bool
    winner: bool
    to_target: int | None
    place: int = 1  # 1 for the lowest total; equal totals share a place
    chance: str | None = None  # of winning from here, as shown ("62%", "under 1%")
    chance_short: str | None = None  # the same where room is short ("<1%")


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
    deals: int | None = None  # in a game of a fixed number of deals

    @property
    def turn(self) -> str:
        """ "Deal 4 — Ben deals, Cara leads", "Deal 4 of 6 — …" or "Last deal — …"."""
        if self.deals is not None and self.number >= self.deals:
            said = _("Last deal — {dealer} deals, {leader} leads")
        elif self.deals is not None:
            said = _("Deal {number} of {deals} — {dealer} deals, {leader} leads")
        else:
            said = _("Deal {number} — {dealer} deals, {leader} leads")
        return said.format(
            number=self.number, deals=self.deals, dealer=self.dealer, leader=self.leader
        )

    @property
    def passing(self) -> str:
        """ "Pass 3 cards to the right", or "No pass this deal"."""
        if not self.passes:
            return _("No pass this deal")
        return {
            "right": ngettext(
                "Pass {count} card to the right", "Pass {count} cards to the right", self.pass_cards
            ),
            "left": ngettext(
                "Pass {count} card to the left", "Pass {count} cards to the left", self.pass_cards
            ),
            "across": ngettext(
                "Pass {count} card across", "Pass {count} cards across", self.pass_cards
            ),
        }[self.direction].format(count=self.pass_cards)


def short_names(names: list[str], least: int = 3) -> list[str]:
    """Each name cut to its first letters, as few as tell it from the others.

    >>> short_names(["Kristoffer", "Kristin", "Ann", "Sebastian"])
    ['Kristo', 'Kristi', 'Ann', 'Seb']
    >>> short_names(["Ann", "Ann B", "Bo"])
    ['Ann', 'Ann B', 'Bo']
    """
    cut = {name: min(len(name), least) for name in names}
    while True:
        seen: dict[str, list[str]] = {}
        for name in names:
            seen.setdefault(name[: cut[name]].rstrip().casefold(), []).append(name)
        clashes = [group for group in seen.values() if len(group) > 1]
        grown = False
        for group in clashes:
            for name in group:
                if cut[name] < len(name):
                    cut[name] += 1
                    grown = True
        if not grown:
            return [name[: cut[name]].rstrip() for name in names]


@dataclass(frozen=True)
class HistoryRow:
    pk: int
    number: int
    dealer: str
    dealer_short: str
    cells: list[tuple[str, str, bool]]  # (score, total, is the shooter), ready to show
    moon: str | None
    entered_by: str
    totals: list[int]
    moon_seat: int | None
    edit_url: str


class Scoreboard:
    """Everything the table sees; the deal-by-deal part is read only if shown."""

    def __init__(self, game: Game, deal_count: int | None = None, seats: list[Seat] | None = None):
        self.game = game
        self.rules = game.get_rules()
        seats = list(game.seats.all()) if seats is None else seats
        self._seats = seats
        self.players = [s.player for s in seats]
        self.names = [s.player.name for s in seats]
        # For the columns of a narrow screen: "Kri" over Kristoffer's column.
        self.short_names = short_names(self.names)
        players = len(self.names)
        self.deal_count = games_read.deal_count(game) if deal_count is None else deal_count
        best = min(s.total for s in seats) if self.deal_count else None
        self.seats = [
            SeatLine(
                number=s.number,
                name=s.player.name,
                total=s.total,
                leading=best is not None and s.total == best,
                winner=s.is_winner,
                to_target=None if self.rules.target is None else self.rules.target - s.total,
                place=1 + sum(other.total < s.total for other in seats),
            )
            for s in seats
        ]
        self.winners = [s.player.name for s in seats if s.is_winner]
        self.deal_total = engine.deal_total(self.rules, players)
        self.moon_value = engine.moon_value(self.rules, players)
        self.coming = None if game.is_finished else self._coming(self.deal_count + 1)

    def _coming(self, number: int) -> Coming:
        rules, names, players = self.rules, self.names, len(self.names)
        passes = []
        for seat in range(players):
            receiver = engine.pass_receiver(rules, players, number, seat)
            if receiver is not None:
                passes.append(PassLine(names[seat], names[receiver]))
        return Coming(
            number=number,
            dealer=names[engine.dealer(self.game.first_dealer, players, number)],
            leader=names[engine.leader(self.game.first_dealer, players, number)],
            pass_cards=engine.cards_passed(rules, players),
            direction=engine.pass_direction(rules, players, number),
            passes=passes,
            deals=rules.deals,
        )

    def coming_after(self, count: int) -> list[Coming]:
        """The coming deal and the ``count`` after it (for entering offline)."""
        if self.coming is None:
            return []
        return [self._coming(self.coming.number + i) for i in range(count + 1)]

    @property
    def facts(self) -> list[str]:
        """What the table needs to know before dealing: cards each, cards out, the pass, the end."""
        rules, players = self.rules, len(self.names)
        removed = engine.removed_cards(rules, players)
        passed = engine.cards_passed(rules, players)
        each = engine.cards_each(rules, players)
        # Cards out only when some are: "13 cards each" at four says the rest.
        facts = [ngettext("{count} card each", "{count} cards each", each).format(count=each)]
        if removed:
            cards = " ".join(engine.card_label(c) for c in removed)
            facts.append(_("{cards} out").format(cards=cards))
        if passed and rules.pass_direction == "right":
            facts.append(
                ngettext(
                    "pass {count} card to the right",
                    "pass {count} cards to the right",
                    passed,
                ).format(count=passed)
            )
        elif passed:
            cycle = _("left, right, across, hold") if players % 2 == 0 else _("left, right, hold")
            passing = ngettext("pass {count} card: {cycle}", "pass {count} cards: {cycle}", passed)
            facts.append(passing.format(count=passed, cycle=cycle))
        else:
            facts.append(_("no pass"))
        facts.append(the_end(rules))
        return facts

    @property
    def facts_over_the_banner(self) -> list[str]:
        """The facts above the coming deal's banner, which says a pass to the right itself."""
        facts = self.facts
        if self.coming is not None and self.rules.pass_direction == "right":
            passed = engine.cards_passed(self.rules, len(self.names))
            if passed:
                del facts[-2]  # the pass, said by the banner; the end stays last
        return facts

    @cached_property
    def chances(self) -> list[str]:
        """Before the first deal, where the table shows them: each player's chance of
        winning, from the ladder (read only when shown)."""
        if self.deal_count or self.game.is_finished or not self.game.table.show_chances:
            return []
        return chances_line(self.players)

    @property
    def _shows_chances(self) -> bool:
        return self.game.table.show_chances and not self.game.result_only and self.deal_count > 0

    @property
    def shows_chances_now(self) -> bool:
        """After a deal of a game under way, where the table shows chances (read, not
        worked out: a save's answer keeps the chances the page shows)."""
        return not self.game.is_finished and self._shows_chances

    @property
    def by_place(self) -> list[SeatLine]:
        """The seats as a finished game's result reads: first place first."""
        return sorted(self.seats, key=lambda seat: (seat.place, seat.number))

    @cached_property
    def seats_with_chances(self) -> list[SeatLine]:
        """The totals, each with the player's chance of winning from here, where shown."""
        if not self.shows_chances_now:
            return self.seats
        said = during.chances_now(
            self.game, [p.pk for p in self.players], [s.total for s in self.seats], self.deal_count
        )
        return [
            replace(
                seat, chance=during.percent_text(chance), chance_short=during.percent_short(chance)
            )
            for seat, chance in zip(self.seats, said, strict=True)
        ]

    @cached_property
    def _said_over_the_game(self) -> list[list[float]]:
        if not self.game.is_finished or not self._shows_chances:
            return []
        return during.game_said(self.game)

    @cached_property
    def chance_chart(self) -> Chart | None:
        """A finished game's chances over its deals, where the table shows chances."""
        said = self._said_over_the_game
        if not said:
            return None
        return chance_chart(self.names, [during.percents(row) for row in said])

    @property
    def chance_rows(self) -> list[tuple[int, list[str]]]:
        """The chart's chances as a table: before the first deal (0) and after each."""
        return [
            (deal, [during.percent_number(chance) for chance in row])
            for deal, row in enumerate(self._said_over_the_game)
        ]

    @property
    def name_pairs(self) -> list[tuple[str, str]]:
        return list(zip(self.names, self.short_names, strict=True))

    @cached_property
    def bg_stats_link(self) -> str | None:
        return bg_stats_link(self.game, self._seats)

    @property
    def winners_text(self) -> str:
        return engine.join_names(self.winners)

    @cached_property
    def history(self) -> list[HistoryRow]:
        """Every deal, from plain rows (one query, no model instances)."""
        game, names, players = self.game, self.names, len(self.names)
        # One reverse() for all rows: the edit link differs only by the deal's id.
        edit = reverse("deal_edit", args=[0]).replace("/0/", "/{}/")
        rows = games_read.deal_rows(game)
        return [
            HistoryRow(
                pk=pk,
                number=number,
                dealer=names[dealer := engine.dealer(game.first_dealer, players, number)],
                dealer_short=self.short_names[dealer],
                cells=[
                    (str(score), str(total), moon == seat)
                    for seat, (score, total) in enumerate(zip(scores, totals, strict=True))
                ],
                moon=None if moon is None else names[moon],
                entered_by=username or "",
                totals=totals,
                moon_seat=moon,
                edit_url=edit.format(pk),
            )
            for pk, number, scores, totals, moon, username in rows
        ]

    @cached_property
    def chart(self) -> Chart:
        return score_chart(
            self.names,
            [row.totals for row in self.history],
            self.rules.target,
            [row.moon_seat for row in self.history],
        )


def scoreboard(game: Game) -> Scoreboard:
    return Scoreboard(game)
