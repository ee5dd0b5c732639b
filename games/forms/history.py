"""Forms for looking back: the statistics filter and the history file to import."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.pages.stats import Filters


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
        label=gettext_lazy("History file (JSON) or results kept on paper (CSV)"),
        help_text=gettext_lazy(
            "A file exported from this app, or a spreadsheet's CSV of final totals: a row "
            "a player a game (date, game, player, total), or a row a game (date, then a "
            "column a player). At most 2 MB."
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
        if not cleaned["raw"]:
            raise forms.ValidationError(_("The file is empty."))
        return cleaned
