"""Fields more than one form uses."""

from __future__ import annotations

from collections.abc import Sequence

from django import forms

from games.engine.names import NameRefused, as_sentence, name_key, player_names
from games.models import Player
from scorekeeper.params import whole_number


class WholeNumberField(forms.IntegerField):
    """A whole number typed in ASCII digits (``int`` also takes "٣" and "²" and 5,000 digits)."""

    def to_python(self, value):
        if value in self.empty_values:
            return None
        number = whole_number(str(value), digits=6)
        if number is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return number


def typed_names(text: str) -> list[str]:
    """Names typed with commas (or one a line) between them, each once, as people write them."""
    try:
        return player_names(text.replace("\n", ",").split(","), repeats=True)
    except NameRefused as refused:
        raise forms.ValidationError(as_sentence(refused.message)) from None


def with_typed(known: Sequence[Player], chosen: Sequence[Player], typed: Sequence[str]):
    """The chosen players and the typed names: a typed name that plays here is that player."""
    by_key = {name_key(p.name): p for p in known}
    chosen, new = list(chosen), []
    for name in typed:
        player = by_key.get(name_key(name))
        if player is None:
            new.append(name)
        elif player not in chosen:
            chosen.append(player)
    return chosen, new


class RefusableForm(forms.Form):
    """A form for one service: its ``ARGUMENTS`` are cleaned under the service's own
    names, and the reasons the service may still refuse go on the form."""

    ARGUMENTS: tuple[str, ...] = ()

    def arguments(self) -> dict:
        return {name: self.cleaned_data[name] for name in self.ARGUMENTS}

    def refused(self, refusal) -> None:
        for problem in refusal.problems:
            self.add_error(None, problem)
