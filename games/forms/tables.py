"""Forms for a table: making one, its name, members, players and seasons."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine.names import NameRefused, as_sentence, normalise_name, player_name, player_names
from games.forms.fields import PageText, PageValues, page_number
from games.models import LARGEST_ID, NAME_MAX_LENGTH, Player, Season, Table
from games.selectors import tables as tables_read


class TableForm(forms.ModelForm):
    players = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        label=gettext_lazy("Players"),
        help_text=gettext_lazy("One name a line (you can add more later)."),
    )

    class Meta:
        model = Table
        fields = ["name", "default_ruleset"]
        labels = {"name": gettext_lazy("Name"), "default_ruleset": gettext_lazy("Rules")}

    def __init__(self, *args, rulesets=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["default_ruleset"].queryset = rulesets or tables_read.builtin_rulesets()
        self.fields["default_ruleset"].required = True
        self.fields["default_ruleset"].empty_label = None

    def clean_name(self) -> str:
        return normalise_name(self.cleaned_data["name"])

    def clean_players(self) -> list[str]:
        try:
            return player_names(self.cleaned_data["players"].splitlines())
        except NameRefused as refused:
            raise forms.ValidationError(as_sentence(refused.message)) from None


class TableNameForm(forms.ModelForm):
    class Meta:
        model = Table
        fields = ["name"]
        labels = {"name": gettext_lazy("Name")}

    def clean_name(self) -> str:
        return normalise_name(self.cleaned_data["name"])


class MemberForm(forms.Form):
    username = forms.CharField(label=gettext_lazy("Their username"), max_length=150)

    def clean_username(self) -> str:
        username = self.cleaned_data["username"].strip()
        user = tables_read.account_named(username)
        if user is None:
            raise forms.ValidationError(
                _("Nobody here has the username {username}.").format(username=username)
            )
        self.cleaned_data["user"] = user
        return username


class PlayerForm(forms.ModelForm):
    # Its length is the engine's to judge, with the words every name check uses
    # (games/engine/names.py), and after the name is normalised.
    name = forms.CharField(label=gettext_lazy("New player's name"), max_length=500)

    class Meta:
        model = Player
        fields = ["name"]

    def __init__(self, *args, table: Table, **kwargs):
        # Its own ids: the settings page also has the table's and a season's name.
        kwargs.setdefault("auto_id", "player_%s")
        super().__init__(*args, **kwargs)
        self.table = table
        self.fields["name"].widget.attrs.update(autocomplete="off", maxlength=NAME_MAX_LENGTH)
        if self.instance.pk:
            self.fields["name"].label = _("Name")

    def clean_name(self) -> str:
        others = tables_read.player_names(self.table, besides=self.instance.pk)
        try:
            return player_name(self.cleaned_data["name"], playing=others)
        except NameRefused as refused:
            raise forms.ValidationError(as_sentence(refused.message)) from None


class SeasonForm(forms.ModelForm):
    class Meta:
        model = Season
        fields = ["name", "starts", "ends"]
        labels = {
            "name": gettext_lazy("Season"),
            "starts": gettext_lazy("From"),
            "ends": gettext_lazy("To"),
        }
        widgets = {
            "starts": forms.DateInput(attrs={"type": "date"}),
            "ends": forms.DateInput(attrs={"type": "date"}),
        }

    def __init__(self, *args, **kwargs):
        # The settings page holds the table's name and the new player's form too.
        kwargs.setdefault("auto_id", "season_%s")
        super().__init__(*args, **kwargs)

    def clean_name(self) -> str:
        name = normalise_name(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError(_("Give the season a name."))
        return name

    def clean(self) -> dict:
        cleaned = super().clean()
        starts, ends = cleaned.get("starts"), cleaned.get("ends")
        if starts and ends and ends < starts:
            raise forms.ValidationError(_("A season ends on or after the day it starts."))
        return cleaned


# --- Values the table's pages send themselves (a 400 in words if they can't be read) ---


class DefaultRulesetForm(PageValues):
    ruleset = page_number(most=LARGEST_ID)  # one of the table's rulesets (checked by access)


class ChancesShownForm(PageValues):
    show = forms.ChoiceField(required=False, choices=[("", ""), ("0", "0"), ("1", "1")])

    @property
    def shown(self) -> bool:
        return self.read()["show"] != "0"


class TableDeleteForm(PageValues):
    confirm = PageText(most=200)  # the table's name, typed to be sure


class PlayerLinkForm(PageValues):
    user = page_number(most=LARGEST_ID)  # an account at the table, or blank to unlink


class LinkActionForm(PageValues):
    """A watch or big-screen link: made or replaced, or turned ``off``."""

    action = PageText(most=10)

    @property
    def turns_off(self) -> bool:
        return self.read()["action"] == "off"
