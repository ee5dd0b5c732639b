"""A deal as it is posted, read once: how it was entered, what was tapped or
typed (kept as typed, to show again if it is refused), and the save's own values
(its number, key and version). Every deal view reads the request through these
forms; the engine then judges the entry (:meth:`DealEntry.entry`)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

from django import forms
from django.utils.translation import gettext as _

from games import engine
from games.engine.names import clean_text
from games.forms.fields import WholeNumberField
from games.pages.entry import DealEntry, default_mode, modes_for
from scorekeeper.params import LARGEST, LARGEST_ID, NOT_READABLE, ValueRefused, whole_number

TYPED_MOST = 20  # what was typed is shown again as typed, up to a length nobody types


def _number(*, least: int = 1, most: int = LARGEST) -> WholeNumberField:
    return WholeNumberField(required=False, min_value=least, max_value=most)


class _ReadOnce(forms.Form):
    """A form whose values are the page's own, never a person's typing: one that
    can't be read answers 400 in words (a page sent by something else), as the
    middleware of :mod:`scorekeeper.params` says."""

    def read(self) -> dict:
        if not self.is_valid():
            field = next(iter(self.errors))
            raise ValueRefused(_(NOT_READABLE).format(what=field))
        return self.cleaned_data


class DealForm(_ReadOnce):
    """A new deal, an edit, or a deal a phone kept offline, for a game of these
    ``rules`` and seats (``names``). ``entry``: the deal as typed, for the engine
    and for the page."""

    mode = forms.CharField(required=False)
    number = _number()
    # "Enter mine as deal N", chosen after a conflict: that number, not the one it had.
    next_number = _number()
    key = forms.CharField(required=False, max_length=64)
    version = _number(least=0)
    # "Save mine over theirs", chosen after a conflict: the version now there.
    replace_version = _number(least=0)
    resolve = forms.ChoiceField(
        required=False, choices=[("", ""), ("replace", "replace"), ("next", "next")]
    )
    kept_by = _number(most=LARGEST_ID)  # who kept it on the phone

    def __init__(self, data, *, rules: engine.Rules, names: Sequence[str]):
        super().__init__(data)
        self.rules, self.names = rules, list(names)

    def clean_mode(self) -> str:
        """One of the rules' ways of entering; anything else, the rules' first."""
        mode = self.cleaned_data["mode"]
        return mode if mode in modes_for(self.rules) else default_mode(self.rules, "")

    def clean_key(self) -> str:
        return clean_text(self.cleaned_data["key"])

    @cached_property
    def entry(self) -> DealEntry:
        """What was tapped or typed, seat by seat, with the last number filled in as
        the rest; a card given to no seat of this game is given to nobody."""
        data = self.data
        mode = self.cleaned_data["mode"] if self.is_valid() else default_mode(self.rules, "")
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


class DealDeleteForm(_ReadOnce):
    version = _number(least=0)  # the version the person saw: a deal changed since is kept


class EditModeForm(forms.Form):
    """The way of entering asked for when a deal is opened to edit (``?mode=``)."""

    mode = forms.CharField(required=False, max_length=10)

    def mode_for(self, rules: engine.Rules, stored: str) -> str:
        """The mode asked for if the rules have it, else the deal's own."""
        asked = self.cleaned_data["mode"] if self.is_valid() else ""
        return asked if asked in modes_for(rules) else stored


def _typed(data, name: str) -> str:
    return clean_text(data.get(name, "")).strip()[:TYPED_MOST]
