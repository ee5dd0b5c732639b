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


class RulesetForm(forms.ModelForm):
    removed = forms.CharField(
        required=False,
        label=gettext_lazy("Cards taken out"),
        help_text=gettext_lazy(
            "Blank for the usual ones (2♣ with three players…), or codes like 2C 2D."
        ),
    )

    class Meta:
        model = Ruleset
        fields = [
            "name",
            "hearts",
            "queen_of_spades",
            "king_of_spades",
            "ace_of_spades",
            "jack_of_diamonds",
            "moon",
            "target",
            "deals",
            "removed",
            "pass_cards",
            "pass_direction",
            "notes",
        ]
        labels = {
            "name": gettext_lazy("Name"),
            "hearts": gettext_lazy("Hearts"),
            "queen_of_spades": gettext_lazy("Q♠ (Black Maria)"),
            "king_of_spades": gettext_lazy("K♠"),
            "ace_of_spades": gettext_lazy("A♠"),
            "jack_of_diamonds": gettext_lazy("J♦ bonus (Omnibus, 0 or less)"),
            "moon": gettext_lazy("Shooting the moon"),
            "target": gettext_lazy("Game ends at (points)"),
            "deals": gettext_lazy("or after this many deals"),
            "pass_cards": gettext_lazy("Cards passed"),
            "pass_direction": gettext_lazy("Pass"),
            "notes": gettext_lazy("House rules"),
        }
        help_texts = {
            "target": gettext_lazy("Blank for no target."),
            "deals": gettext_lazy("Blank to play to the target."),
            "pass_cards": gettext_lazy("Blank: 3 with three or four players, 2 with more."),
            "notes": gettext_lazy(
                "Shown on the game page. Only what the settings above don't say: "
                "they are shown anyway."
            ),
        }
        widgets = {"notes": forms.Textarea(attrs={"rows": 3})}
        field_classes = {
            name: WholeNumberField
            for name in (
                "queen_of_spades",
                "king_of_spades",
                "ace_of_spades",
                "jack_of_diamonds",
                "target",
                "deals",
                "pass_cards",
            )
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.removed is not None and not self.is_bound:
            self.initial["removed"] = " ".join(self.instance.removed)
        for name in ("queen_of_spades", "king_of_spades", "ace_of_spades", "target", "deals"):
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
        data = cleaned if cleaned is not None else self.cleaned_data
        removed = data.get("removed")
        return engine.Rules(
            name=data.get("name") or "Rules",
            hearts=data.get("hearts") or "one",
            queen_of_spades=data.get("queen_of_spades") or 0,
            king_of_spades=data.get("king_of_spades") or 0,
            ace_of_spades=data.get("ace_of_spades") or 0,
            jack_of_diamonds=data.get("jack_of_diamonds") or 0,
            moon=data.get("moon") or "none",
            target=data.get("target"),
            deals=data.get("deals"),
            removed=None if removed is None else tuple(removed),
            pass_cards=data.get("pass_cards"),
            pass_direction=data.get("pass_direction") or "right",
        )
