"""The ruleset form and the summary of what its settings make for each number of players."""

from __future__ import annotations

from collections.abc import Mapping

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import engine
from games.engine.names import normalise_name
from games.forms.fields import WholeNumberField
from games.models import Ruleset

OPTIONS = engine.RULE_OPTIONS
WHOLE = [name for name, option in OPTIONS.items() if option.kind == "whole"]


class RulesetForm(forms.ModelForm):
    """A table's own ruleset: its name, each of the rules' options (their words and
    kinds are the engine's, engine.RULE_OPTIONS) and its house rules."""

    removed = forms.CharField(
        required=False,
        label=gettext_lazy(OPTIONS["removed"].label),
        help_text=gettext_lazy(OPTIONS["removed"].help),
    )

    class Meta:
        model = Ruleset
        fields = ["name", *OPTIONS, "notes"]
        labels = {
            "name": gettext_lazy("Name"),
            **{name: gettext_lazy(option.label) for name, option in OPTIONS.items()},
            "notes": gettext_lazy("House rules"),
        }
        help_texts = {
            **{name: gettext_lazy(option.help) for name, option in OPTIONS.items() if option.help},
            "notes": gettext_lazy(
                "Shown on the game page. Only what the settings above don't say: "
                "they are shown anyway."
            ),
        }
        widgets = {"notes": forms.Textarea(attrs={"rows": 3})}
        field_classes = dict.fromkeys(WHOLE, WholeNumberField)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.removed is not None and not self.is_bound:
            self.initial["removed"] = " ".join(self.instance.removed)
        for name in WHOLE:
            if OPTIONS[name].least == 0:  # no minus sign on a phone's number pad
                self.fields[name].widget.attrs["inputmode"] = "numeric"
        self.fields["jack_of_diamonds"].widget.attrs["max"] = 0

    def clean_name(self) -> str:
        return normalise_name(self.cleaned_data["name"])

    def clean_removed(self) -> list[str] | None:
        text = self.cleaned_data["removed"].replace(",", " ").upper()
        codes = [c for c in text.split() if c]
        if not codes:
            return None
        bad = [c for c in codes if not engine.is_card(c)]
        if bad:
            raise forms.ValidationError(
                _("{codes}: not cards. Write rank then suit: 2C, 10H, QS.").format(
                    codes=", ".join(bad)
                )
            )
        return codes

    def clean(self) -> dict:
        cleaned = super().clean()
        if self.errors:
            return cleaned
        rules = self.to_rules(cleaned)
        problems = engine.rules_problems(rules)
        if not problems and not engine.playable_counts(rules):
            problems = [_("these settings don't make a game for any number of players from 3 to 7")]
            if rules.removed is not None:
                problems = [
                    _(
                        "with {removed} cards taken out, {cards} cards don't deal out equally "
                        "to any number of players from 3 to 7"
                    ).format(removed=len(rules.removed), cards=52 - len(rules.removed))
                ]
        for problem in problems:
            self.add_error(None, problem[0].upper() + problem[1:] + ".")
        return cleaned

    def to_rules(self, cleaned: Mapping | None = None) -> engine.Rules:
        """The rules as entered; an option left blank that must have a value counts as 0
        (or its first choice), so that a half-filled form can be described."""
        data = cleaned if cleaned is not None else self.cleaned_data
        values: dict[str, object] = {}
        for name, option in OPTIONS.items():
            value = data.get(name)
            if value in (None, "") and not option.optional:
                value = option.values[0] if option.kind == "choice" else 0
            values[name] = value
        return engine.Rules.of(data.get("name") or "Rules", values)
