"""A deal as it is posted, read once: how it was entered, what was tapped or
typed (kept as typed, to show again if it is refused), and the save's own values
(its number, key and version). Every deal view reads the request through these
forms; the engine then judges the entry (:meth:`DealEntry.entry`)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

from django import forms

from games import engine
from games.engine.names import clean_text
from games.engine.numbers import whole_number
from games.forms.fields import PageText, PageValues, page_number
from games.models import LARGEST_ID
from games.pages.entry import DealEntry, default_mode, modes_for

TYPED_MOST = 20  # what was typed is shown again as typed, up to a length nobody types


class DealForm(PageValues):
    """A new deal, an edit, or a deal a phone kept offline, for a game of these
    ``rules`` and seats (``names``). ``entry``: the deal as typed, for the engine
    and for the page."""

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

    def clean_mode(self) -> str:
        """One of the rules' ways of entering; anything else, the rules' first."""
        mode = self.cleaned_data["mode"]
        return mode if mode in modes_for(self.rules) else default_mode(self.rules, "")

    @cached_property
    def entry(self) -> DealEntry:
        """What was tapped or typed, seat by seat, with the last number filled in as
        the rest; a card given to no seat of this game is given to nobody."""
        data = self.data
        self.is_valid()  # a field that can't be read leaves the others as sent
        mode = self.cleaned_data.get("mode") or default_mode(self.rules, "")
        entry = DealEntry.blank(mode, self.rules, self.names)
        seats = range(len(self.names))
        entry.hearts = [_typed(data, f"hearts-{seat}") for seat in seats]
        entry.points = [_typed(data, f"points-{seat}") for seat in seats]
        for card in entry.takers:
            seat = whole_number(data.get(f"taker-{card}", ""), digits=1)
            entry.takers[card] = seat if seat is not None and seat in seats else None
        entry.fill_remainder()
        entry.is_bound = True
        return entry


class DealDeleteForm(PageValues):
    version = page_number()  # the version the person saw: a deal changed since is kept


class ModeForm(PageValues):
    """The way of entering asked for (``?mode=``), on the game page or a deal's edit."""

    mode = PageText(most=10)

    def mode_for(self, rules: engine.Rules, stored: str) -> str:
        """The mode asked for if the rules have it, else ``stored`` (the deal's own)."""
        asked = self.read()["mode"]
        return asked if asked in modes_for(rules) else stored


def _typed(data, name: str) -> str:
    return clean_text(data.get(name, "")).strip()[:TYPED_MOST]
