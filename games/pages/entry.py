"""A deal as it is being entered, as the page shows it: what was tapped or typed,
by seat, the check of it as it stands, and the rows of the entry form. The
posted deal is read (and what can't be read said) by
:class:`games.forms.deals.DealForm`; a stored one comes back for editing by
:meth:`DealEntry.from_entry`. What was typed is shown again as typed, so
nothing is lost when an entry is refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from games import engine
from games.engine.numbers import whole_number
from games.models import Deal


@dataclass(frozen=True)
class SeatRow:
    seat: int
    name: str
    hearts: int | None
    points: str
    filled: bool


@dataclass(frozen=True)
class CardRow:
    code: str
    label: str
    name: str
    suit: str
    taker: int | None


# The entry form's words for what can't be read yet (the phone uses them too).
HEARTS_TO_ENTER = gettext_noop("{name}'s hearts are still to enter")
POINTS_TO_ENTER = gettext_noop("{name}'s points are still to enter")
POINTS_NOT_A_NUMBER = gettext_noop("{name}'s points must be a whole number (not “{value}”)")
HEARTS_NOT_A_NUMBER = gettext_noop("{name}'s hearts must be a whole number (not “{value}”)")
# What a half-entered deal still lacks, said in one neutral line (nothing is wrong yet).
STILL_TO_ENTER = gettext_noop("Still to enter: {what}.")
HEARTS_FOR = gettext_noop("hearts for {names}")
POINTS_FOR = gettext_noop("points for {names}")
WHO_TOOK = gettext_noop("who took {cards}")
CARDS_NAMED = 3  # more cards than this are counted, not named


@dataclass
class DealEntry:
    """One deal being entered: what was typed, by seat, the engine's entry it reads
    as (``parsed``) or what can't be read (``problems``)."""

    mode: str
    rules: engine.Rules
    names: list[str]
    hearts: list[str] = field(default_factory=list)  # counts, as typed
    points: list[str] = field(default_factory=list)  # points, as typed
    takers: dict[str, int | None] = field(default_factory=dict)  # card -> seat
    filled: int | None = None  # the seat filled in as the remainder
    parsed: engine.Entry | None = None  # what the engine judges, once it can be read
    unreadable: list[str] = field(default_factory=list)  # what was typed and isn't a number
    missing_seats: list[int] = field(default_factory=list)  # seats with no number yet
    is_bound: bool = False  # True once it holds what somebody entered

    @property
    def problems(self) -> list[str]:
        """Why it can't be read yet, as a refused save says it."""
        to_enter = HEARTS_TO_ENTER if self.mode == "counts" else POINTS_TO_ENTER
        missing = [_(to_enter).format(name=self.names[s]) for s in self.missing_seats]
        return self.unreadable + missing

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def may_be_negative(self) -> bool:
        """Whether a player's points can be below 0 (a bonus card, or a moon off the shooter)."""
        return self.rules.jack_of_diamonds < 0 or self.rules.moon == "self"

    @property
    def hearts_total(self) -> int:
        return len(engine.hearts_in_pack(self.rules, self.players))

    def cards_to_assign(self) -> list[str]:
        if self.mode == "cards":
            return sorted(engine.valued_cards(self.rules, self.players), key=_entry_order)
        return sorted(engine.special_cards(self.rules, self.players), key=_entry_order)

    @classmethod
    def blank(cls, mode: str, rules: engine.Rules, names: Sequence[str]) -> DealEntry:
        form = cls(mode, rules, list(names))
        form.hearts = [""] * len(names)
        form.points = [""] * len(names)
        form.takers = {c: None for c in form.cards_to_assign()}
        return form

    @classmethod
    def from_entry(
        cls, rules: engine.Rules, names: Sequence[str], entry: engine.Entry
    ) -> DealEntry:
        form = cls.blank(entry.mode, rules, names)
        if isinstance(entry, engine.PointsEntry):
            form.points = [str(p) for p in entry.points]
        else:
            if isinstance(entry, engine.CountsEntry):
                form.hearts = [str(h) for h in entry.hearts]
            for seat, cards in enumerate(entry.cards):
                for card in cards:
                    if card in form.takers:
                        form.takers[card] = seat
        form.parsed = entry
        return form

    def cards_by_seat(self) -> tuple[tuple[str, ...], ...]:
        """The cards given so far, under the seat that took them."""
        per_seat: list[list[str]] = [[] for _ in self.names]
        for card, seat in self.takers.items():
            if seat is not None:
                per_seat[seat].append(card)
        return tuple(tuple(c) for c in per_seat)

    def check(self) -> engine.DealCheck:
        if self.parsed is not None:
            return engine.check_deal(self.rules, self.names, self.parsed)
        total = engine.deal_total(self.rules, self.players)
        wrong = self.unreadable
        if self.mode == "counts":
            # Too many hearts already: that is the problem, not the ones still to enter.
            typed = sum(n for n in map(whole_number, self.hearts) if n is not None and n > 0)
            if typed > self.hearts_total:
                wrong = [_(engine.HEARTS_SUM).format(counted=typed, hearts=self.hearts_total)]
        missing = [c for c, seat in self.takers.items() if seat is None and self.mode != "points"]
        return engine.DealCheck(
            self._counted_so_far(),
            total,
            tuple(self.problems),
            None,
            wrong=tuple(wrong),
            missing_cards=tuple(sorted(missing, key=engine.card_sort_key)),
            missing_seats=tuple(self.missing_seats),
        )

    def _counted_so_far(self) -> int:
        """The running count of a half-entered deal, from what can be read."""
        typed = self.points if self.mode == "points" else self.hearts
        counted = sum(n for n in map(whole_number, typed) if n is not None)
        if self.mode == "counts":
            values = engine.valued_cards(self.rules, self.players)
            counted += sum(values[c] for c, seat in self.takers.items() if seat is not None)
        return counted

    def taken(self) -> list[tuple[str, list[CardRow], int]]:
        """Cards assigned so far, under their taker, with the points they make."""
        rows = self.card_rows
        return [
            (
                name,
                [c for c in rows if c.taker == seat],
                sum(engine.card_value(self.rules, c.code) for c in rows if c.taker == seat),
            )
            for seat, name in enumerate(self.names)
        ]

    @property
    def heart_choices(self) -> range:
        return range(self.hearts_total + 1)

    @property
    def seat_rows(self) -> list[SeatRow]:
        return [
            SeatRow(
                seat=s,
                name=name,
                hearts=whole_number(self.hearts[s]),
                points=self.points[s],
                filled=self.filled == s,
            )
            for s, name in enumerate(self.names)
        ]

    @property
    def filled_row(self) -> SeatRow | None:
        return None if self.filled is None else self.seat_rows[self.filled]

    @property
    def card_rows(self) -> list[CardRow]:
        return [
            CardRow(
                code=code,
                label=engine.card_label(code),
                name=engine.card_name(code),
                suit=engine.SUIT_NAMES[code[-1]],
                taker=seat,
            )
            for code, seat in self.takers.items()
        ]


def _entry_order(card: str) -> tuple[int, int]:
    """Spades first (Q♠ K♠ A♠ are what people look for), then J♦, then hearts."""
    order = {"S": 0, "D": 1, "H": 2, "C": 3}
    rank = engine.RANKS.index(card[:-1])
    if card[-1] == "S":
        rank = {"Q": 0, "K": 1, "A": 2}.get(card[:-1], 3 + rank)
    return order[card[-1]], rank


MODE_NAMES = dict(Deal.Mode.choices)  # the entry modes in the person's language


def default_mode(rules: engine.Rules, remembered: str) -> str:
    """The table's last choice, else counts for one-point hearts and cards for spot."""
    if remembered in engine.ENTRY_MODES and not (remembered == "counts" and rules.hearts != "one"):
        return remembered
    return "counts" if rules.hearts == "one" else "cards"


def modes_for(rules: engine.Rules) -> list[str]:
    return [m for m in engine.ENTRY_MODES if not (m == "counts" and rules.hearts != "one")]


def rest_hearts_words(count: int) -> str:
    """Said in the bar when the phone filled in a player's hearts as the rest."""
    return ngettext(
        "The rest to {name}: {count} heart", "The rest to {name}: {count} hearts", count
    )


def who_took_words(count: int) -> str:
    return ngettext("who took {count} card", "who took {count} cards", count)


def still_to_enter(check: engine.DealCheck, names: Sequence[str], mode: str) -> str:
    """ "Still to enter: hearts for Ann and Ben; who took Q♠." (the phone says the same)."""
    parts = []
    if check.missing_seats:
        template = HEARTS_FOR if mode == "counts" else POINTS_FOR
        who = engine.join_names([names[s] for s in check.missing_seats])
        parts.append(_(template).format(names=who))
    cards = check.missing_cards
    if 0 < len(cards) <= CARDS_NAMED:
        labels = [engine.card_label(c) for c in sorted(cards, key=engine.card_sort_key)]
        parts.append(_(WHO_TOOK).format(cards=engine.join_names(labels)))
    elif cards:
        parts.append(who_took_words(len(cards)).format(count=len(cards)))
    return _(STILL_TO_ENTER).format(what="; ".join(parts)) if parts else ""


def rest_points_words() -> str:
    return _("The rest to {name}: {points}")


def rest_said(entry: DealEntry) -> str:
    """What Save records that nobody entered: the one count or score left empty,
    filled in as what the others leave."""
    row = entry.filled_row
    if row is None:
        return ""
    if entry.mode == "counts":
        return rest_hearts_words(row.hearts).format(name=row.name, count=row.hearts)
    return rest_points_words().format(name=row.name, points=row.points)


def entry_context(board, entry: DealEntry | None, **extra) -> dict:
    game = board.game
    check = entry.check() if entry is not None and entry.is_bound else None
    context = {
        "game": game,
        "board": board,
        "entry": entry,
        "check": check,
        "moon_text": engine.moon_summary(board.names, check.result, board.rules)
        if check and check.result
        else None,
        "rest_said": rest_said(entry) if check and check.valid else "",
        "to_enter": still_to_enter(check, board.names, entry.mode) if check else "",
        "raw_by_name": list(zip(board.names, check.result.raw, strict=True))
        if check and check.result
        else [],
        "modes": modes_for(board.rules),
        "live_url": reverse("game_live", args=[game.pk]),
        "save_url": reverse("deal_new", args=[game.pk]),
        "deal_number": board.coming.number if board.coming else None,
        # After a conflict, the number the person's entry would take instead.
        "next_number": board.coming.number if board.coming else None,
    }
    conflict = extra.get("conflict")
    if conflict is not None and conflict.deal is not None:
        context["conflict_line"] = scores_line(board.names, conflict.deal.scores)
    context.update(extra)
    return context


def scores_line(names: list[str], scores: list[int]) -> str:
    return ", ".join(f"{n} {p}" for n, p in zip(names, scores, strict=True))
