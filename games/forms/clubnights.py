"""Forms for a club night: starting one, and who is here."""

from __future__ import annotations

import secrets

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine.names import normalise_name
from games.forms.fields import PageValues, RefusableForm, WholeNumberField, typed_names, with_typed
from games.models import NAME_MAX_LENGTH, Evening, Player, Table
from games.selectors import tables as tables_read
from games.services.clubnights import MOST_PRESENT


class EveningForm(RefusableForm):
    """A club night: its name, who is here, the rules its games play, how the evening is won."""

    ARGUMENTS = ("name", "scoring", "ruleset", "players", "new_players")  # evening_start's

    name = forms.CharField(max_length=80, label=gettext_lazy("Name"))
    players = forms.TypedMultipleChoiceField(
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=gettext_lazy("Who is here"),
    )
    new_players = forms.CharField(
        required=False,
        max_length=(NAME_MAX_LENGTH + 2) * 42,
        label=gettext_lazy("New players"),
        help_text=gettext_lazy("Names, separated by commas."),
    )
    ruleset = forms.ModelChoiceField(queryset=None, empty_label=None, label=gettext_lazy("Rules"))
    scoring = forms.ChoiceField(
        choices=[
            (
                Evening.Scoring.PLACES,
                gettext_lazy(
                    "Places: at each game, a point for every player you finish ahead of, "
                    "half a point for a tie"
                ),
            ),
            (
                Evening.Scoring.SHARE,
                gettext_lazy(
                    "Points: what you took against an even share of every deal "
                    "(100 is an even share, lower is better), so games of 3 and 4 compare"
                ),
            ),
        ],
        widget=forms.RadioSelect,
        initial=Evening.Scoring.PLACES,
        label=gettext_lazy("The evening is won by"),
    )
    key = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)

    def __init__(self, *args, table: Table, rulesets, **kwargs):
        super().__init__(*args, **kwargs)
        self.table = table
        self.known = tables_read.players_by_name(table)
        self.by_pk = {p.pk: p for p in self.known}
        self.fields["players"].choices = [(p.pk, p.name) for p in self.known]
        self.fields["ruleset"].queryset = rulesets
        default = table.default_ruleset or next(iter(rulesets), None)
        self.fields["ruleset"].initial = default.pk if default else None
        self.fields["key"].initial = secrets.token_urlsafe(16)
        self.fields["new_players"].widget.attrs.update(autocomplete="off")

    def clean_name(self) -> str:
        name = normalise_name(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError(_("Give the evening a name."))
        return name

    def clean_new_players(self) -> list[str]:
        return typed_names(self.cleaned_data["new_players"])

    def clean(self) -> dict:
        cleaned = super().clean()
        chosen = [self.by_pk[pk] for pk in dict.fromkeys(cleaned.get("players", []))]
        here, new = with_typed(self.known, chosen, cleaned.get("new_players", []))
        cleaned["players"], cleaned["new_players"] = here, new
        if len(here) + len(new) > MOST_PRESENT:
            raise forms.ValidationError(
                _("A club night is for at most {most} people.").format(most=MOST_PRESENT)
            )
        return cleaned


class PresentForm(forms.Form):
    """Who is here now, on a club night."""

    players = forms.TypedMultipleChoiceField(
        coerce=int, required=False, widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args, table: Table, **kwargs):
        super().__init__(*args, **kwargs)
        self.by_pk = {p.pk: p for p in tables_read.players_by_name(table)}
        self.fields["players"].choices = [(p.pk, p.name) for p in self.by_pk.values()]

    def clean_players(self) -> list[Player]:
        return [self.by_pk[pk] for pk in dict.fromkeys(self.cleaned_data["players"])]


class SplitForm(PageValues):
    """The split a round is drawn in again: one of those offered for who is here."""

    def __init__(self, data, *, options):
        super().__init__(data)
        self.fields["sizes"] = forms.ChoiceField(
            required=False, choices=[("", "")] + [(value, value) for value in options]
        )


class RoundForm(PageValues):
    round = WholeNumberField(min_value=1, max_value=999, digits=3)  # the round drawn
