"""Fields more than one form uses, and the way a page's own values are read."""

from __future__ import annotations

from collections.abc import Sequence

from django import forms
from django.core.exceptions import BadRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games.engine.names import NameRefused, as_sentence, clean_text, name_key, player_names
from games.engine.numbers import whole_number
from games.models import LARGEST, Player

NOT_READABLE = gettext_noop(
    "Something this page sent could not be read ({what}). Reload the page and try again."
)


class WholeNumberField(forms.IntegerField):
    """A whole number typed in ASCII digits (``int`` also takes "٣" and "²" and 5,000 digits)."""

    def __init__(self, *, digits: int = 6, **kwargs):
        super().__init__(**kwargs)
        self.digits = digits

    def to_python(self, value):
        if value in self.empty_values:
            return None
        number = whole_number(str(value), digits=self.digits)
        if number is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return number


class PageText(forms.CharField):
    """Text a page sends (a hidden key, a button's value, a search): control
    characters dropped and cut to ``most`` characters, never refused."""

    def __init__(self, *, most: int = 200, **kwargs):
        super().__init__(required=False, strip=False, **kwargs)
        self.most = most

    def to_python(self, value) -> str:
        return clean_text(str(value or ""))[: self.most]


def page_number(*, least: int = 0, most: int = LARGEST) -> WholeNumberField:
    """A number a page sends (a deal's number, a version, a row's id): blank is None."""
    return WholeNumberField(required=False, min_value=least, max_value=most, digits=len(str(most)))


class PageValues(forms.Form):
    """The values a page sends itself, not a person's typing. One that can't be read
    means the page was not ours (or was tampered with): 400, in words, nothing done."""

    def read(self) -> dict:
        if not self.is_valid():
            raise BadRequest(_(NOT_READABLE).format(what=next(iter(self.errors))))
        return self.cleaned_data


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
