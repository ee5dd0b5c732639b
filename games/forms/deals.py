"""A deal as it is posted, read once: how it was entered, what was tapped or
typed (kept as typed, to show again if it is refused), and the save's own values
(its number, key and version). Every deal view reads the request through these
forms: :class:`DealForm` reads each way of entering into the engine's entry, or
says in the players' words what can't be read; the engine then judges the deal,
and the page shows it (games/pages/entry.py)."""

from __future__ import annotations

from collections.abc import Sequence

from django import forms
from django.utils.translation import gettext as _

from games import engine
from games.engine.names import clean_text
from games.engine.numbers import whole_number
from games.forms.fields import PageText, PageValues, page_number
from games.models import LARGEST_ID
from games.pages.entry import (
    HEARTS_NOT_A_NUMBER,
    POINTS_NOT_A_NUMBER,
    DealEntry,
    default_mode,
    modes_for,
)

TYPED_MOST = 20  # what was typed is shown again as typed, up to a length nobody types


class Typed(forms.CharField):
    """A count or points as typed: never refused here, shown again as it came."""

    def __init__(self):
        super().__init__(required=False, strip=False)

    def to_python(self, value) -> str:
        return clean_text(str(value or "")).strip()[:TYPED_MOST]


class Taker(forms.Field):
    """The seat that took a card: a seat of this game, else nobody (None)."""

    def __init__(self, seats: int):
        super().__init__(required=False)
        self.seats = seats

    def to_python(self, value) -> int | None:
        seat = whole_number(str(value or ""), digits=1)
        return seat if seat is not None and seat < self.seats else None


class DealForm(PageValues):
    """A new deal, an edit, or a deal a phone kept offline, for a game of these
    ``rules`` and seats (``names``). Once read, ``entry`` is the deal as typed (for
    the page), with the engine's entry (``entry.parsed``) or what can't be read
    (``entry.problems``)."""

    mode = PageText(most=10)
    number = page_number(least=1)
    # "Enter mine as deal N", chosen after a conflict: that number, not the one it had.
    next_number = page_number(least=1)
    key = PageText(most=64)
    version = page_number()
    # "Save mine over theirs", chosen after a conflict: the version now there.
    replace_version = page_number()
    resolve = forms.ChoiceField(
        required=False, choices=[("", ""), ("replace", "replace"), ("next", "next")]
    )
    kept_by = page_number(least=1, most=LARGEST_ID)  # who kept it on the phone

    def __init__(self, data, *, rules: engine.Rules, names: Sequence[str]):
        super().__init__(data)
        self.rules, self.names = rules, list(names)
        self.entry: DealEntry | None = None
        for seat in range(len(self.names)):
            self.fields[f"hearts-{seat}"] = Typed()
            self.fields[f"points-{seat}"] = Typed()
        for card in engine.valued_cards(rules, len(self.names)):
            self.fields[f"taker-{card}"] = Taker(len(self.names))

    def clean_mode(self) -> str:
        """One of the rules' ways of entering; anything else, the rules' first."""
        mode = self.cleaned_data["mode"]
        return mode if mode in modes_for(self.rules) else default_mode(self.rules, "")

    def clean(self) -> dict:
        """The deal as typed, with the last number filled in as the rest, read into the
        engine's entry; a field that can't be read leaves the others as sent."""
        cleaned = super().clean()
        seats = range(len(self.names))
        entry = DealEntry.blank(
            cleaned.get("mode") or default_mode(self.rules, ""), self.rules, self.names
        )
        entry.hearts = [cleaned.get(f"hearts-{seat}", "") for seat in seats]
        entry.points = [cleaned.get(f"points-{seat}", "") for seat in seats]
        entry.takers = {card: cleaned.get(f"taker-{card}") for card in entry.takers}
        _fill_remainder(entry)
        entry.parsed, entry.unreadable, entry.missing_seats = _parsed(entry)
        entry.is_bound = True
        self.entry = entry
        return cleaned


def _fill_remainder(entry: DealEntry) -> None:
    """When all but one player's number is in, the last is what the others leave."""
    if entry.mode == "counts":
        values, total = entry.hearts, entry.hearts_total
    elif entry.mode == "points":
        values, total = entry.points, engine.deal_total(entry.rules, entry.players)
    else:
        return
    empty = [s for s, v in enumerate(values) if v == ""]
    if len(empty) != 1:
        return
    numbers = [whole_number(v) for v in values if v != ""]
    if None in numbers:
        return
    remainder = total - sum(numbers)  # type: ignore[arg-type]
    if entry.mode == "counts" and remainder < 0:
        return
    values[empty[0]] = str(remainder)
    entry.filled = empty[0]


def _parsed(entry: DealEntry) -> tuple[engine.Entry | None, list[str], list[int]]:
    """The engine's entry, or None, what can't be read (in the players' words) and
    the seats with no number yet."""
    problems: list[str] = []
    missing: list[int] = []

    def number(value: str, seat: int, what: str) -> int | None:
        name = entry.names[seat]
        if value == "":
            missing.append(seat)
            return None
        found = whole_number(value)
        if found is None:
            wrong = HEARTS_NOT_A_NUMBER if what == "hearts" else POINTS_NOT_A_NUMBER
            problems.append(_(wrong).format(name=name, value=value[:10]))
        return found

    if entry.mode == "cards":
        return engine.CardsEntry(entry.cards_by_seat()), [], []
    what = "points" if entry.mode == "points" else "hearts"
    typed = entry.points if what == "points" else entry.hearts
    numbers = [number(v, s, what) for s, v in enumerate(typed)]
    if problems or missing:
        return None, problems, missing
    if what == "points":
        return engine.PointsEntry(tuple(numbers)), [], []  # type: ignore[arg-type]
    return engine.CountsEntry(tuple(numbers), entry.cards_by_seat()), [], []  # type: ignore[arg-type]


class DealDeleteForm(PageValues):
    version = page_number()  # the version the person saw: a deal changed since is kept


class ModeForm(PageValues):
    """The way of entering asked for (``?mode=``), on the game page or a deal's edit."""

    mode = PageText(most=10)

    def mode_for(self, rules: engine.Rules, stored: str) -> str:
        """The mode asked for if the rules have it, else ``stored`` (the deal's own)."""
        asked = self.read()["mode"]
        return asked if asked in modes_for(rules) else stored
