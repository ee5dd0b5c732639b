"""Forms for looking back: the statistics filter and the history file to import."""

from __future__ import annotations

from collections.abc import Sequence

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.forms.fields import PageText, PageValues, page_number
from games.models import Ruleset, builtin_words
from games.selectors.history import Filters


class StatsFilterForm(forms.Form):
    ruleset = forms.ChoiceField(required=False, label=gettext_lazy("Rules"))
    start = forms.DateField(
        required=False, label=gettext_lazy("From"), widget=forms.DateInput(attrs={"type": "date"})
    )
    end = forms.DateField(
        required=False, label=gettext_lazy("To"), widget=forms.DateInput(attrs={"type": "date"})
    )

    def __init__(self, *args, rulesets: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["ruleset"].choices = [("", _("All rules"))] + [(n, n) for n in rulesets]

    def filters(self) -> Filters:
        if not self.is_valid():
            return Filters()
        data = self.cleaned_data
        return Filters(ruleset=data["ruleset"], start=data["start"], end=data["end"])


class ImportForm(forms.Form):
    """The file to preview; the import itself is confirmed by the key it was kept under."""

    file = forms.FileField(
        required=False,
        allow_empty_file=True,  # said below, in the words of the page
        label=gettext_lazy("The file to import"),
        help_text=gettext_lazy(
            "A file exported from this app; a BG Stats export (JSON) or a BoardGameGeek "
            "play log (XML); or a spreadsheet's CSV of final totals: a row a player a game "
            "(date, game, player, total), or a row a game (date, then a column a player). "
            "At most 2 MB."
        ),
    )
    upload = forms.CharField(required=False, max_length=40, widget=forms.HiddenInput)

    MAX_BYTES = 2_000_000

    def clean(self) -> dict:
        cleaned = super().clean()
        upload = cleaned.get("file")
        if cleaned.get("upload"):
            return cleaned
        if upload is None:
            raise forms.ValidationError(_("Choose a file to import."))
        if upload.size > self.MAX_BYTES:
            raise forms.ValidationError(
                _("The file is larger than 2 MB: export fewer games at a time.")
            )
        cleaned["raw"] = upload.read()
        if not cleaned["raw"].strip():
            raise forms.ValidationError(_("The file is empty."))
        return cleaned


class LoggedForm(forms.Form):
    """Which of a logged file's games are this table's, and how to import their plays.

    ``shown``: the games whose plays the page listed, so an import is never of
    plays the person has not seen. ``step``: show the plays of the games ticked,
    or import them; where the file's winner flags disagree with the totals, the
    import says what to do with those plays: go by the totals, or leave them out."""

    SHOW, IMPORT, BY_TOTALS, LEAVE_OUT = "show", "import", "totals", "leave"

    upload = forms.CharField(max_length=40, widget=forms.HiddenInput)
    games = forms.MultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=gettext_lazy("The games of this table"),
    )
    shown = forms.MultipleChoiceField(required=False, widget=forms.MultipleHiddenInput)
    step = forms.ChoiceField(choices=[(s, s) for s in (SHOW, IMPORT, BY_TOTALS, LEAVE_OUT)])
    unnamed = forms.BooleanField(
        required=False,
        label=gettext_lazy("Bring in the plays with unnamed players too, each one kept apart"),
    )

    def __init__(self, *args, logged, rulesets: Sequence[Ruleset], **kwargs):
        super().__init__(*args, **kwargs)
        choices = [(game.ref, _game_label(game)) for game in logged.games]
        self.fields["games"].choices = self.fields["shown"].choices = choices
        # Each game's plays are scored by a ruleset of the table's: the one its name
        # says (Hearts → Hearts only), changed per game on the page.
        self.rulesets = {str(r.pk): r for r in rulesets}
        # A table's own ruleset named like a built-in one is the one it means.
        own_last = sorted(rulesets, key=lambda r: r.table_id is not None)
        by_name = {r.name: str(r.pk) for r in own_last}
        fallback = by_name.get("Black Maria", next(iter(self.rulesets), ""))
        self.logged = logged
        for number, game in enumerate(logged.games):
            self.fields[f"rules_{number}"] = forms.ChoiceField(
                required=False,
                label=_("Rules for {game}").format(game=game.name),
                choices=[(pk, builtin_words(r.name)) for pk, r in self.rulesets.items()],
                initial=by_name.get(game.rules or "", fallback),
            )

    def rules_fields(self, ticks: Sequence[str]) -> list[forms.BoundField]:
        """The rules choice of each game ticked, in the file's order."""
        return [
            self[f"rules_{number}"]
            for number, game in enumerate(self.logged.games)
            if game.ref in ticks
        ]

    @property
    def bring_unnamed(self) -> bool:
        return bool(self._cleaned().get("unnamed"))

    def _cleaned(self) -> dict:
        return getattr(self, "cleaned_data", {}) if self.is_bound else {}

    def rules(self) -> dict[str, dict]:
        """Each game's rules (by its ref) as a history file writes them."""
        chosen = {}
        for number, game in enumerate(self.logged.games):
            field = self[f"rules_{number}"]
            pk = self._cleaned().get(field.name) or field.initial
            if pk in self.rulesets:
                chosen[game.ref] = self.rulesets[pk].to_rules().to_dict()
        return chosen

    @property
    def importing(self) -> bool:
        """Import asked for, with the ticks the page showed the plays of."""
        data = self.cleaned_data
        return data["step"] != self.SHOW and set(data["games"]) == set(data["shown"])

    @property
    def ticks_changed(self) -> bool:
        """Import asked for, but the ticks are not those the page showed the plays of."""
        return self.cleaned_data["step"] != self.SHOW and not self.importing


def _game_label(game) -> str:
    count = ngettext("{count} play with scores", "{count} plays with scores", game.scored).format(
        count=game.scored
    )
    if game.bgg_id:
        return _("{name} · BoardGameGeek {id} · {plays}").format(
            name=game.name, id=game.bgg_id, plays=count
        )
    return _("{name} · {plays}").format(name=game.name, plays=count)


class HistorySearchForm(PageValues):
    """The list of a table's games: the player searched for, and the page."""

    player = PageText(most=40)
    page = page_number(least=1)


class ImportStepForm(PageValues):
    """Where an import is: a file shown (``step``) under the key it is kept by."""

    step = PageText(most=10)
    upload = PageText(most=40)
