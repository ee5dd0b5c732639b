"""Forms for a game: New game in one screen, and the note."""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import replace

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games import engine
from games.engine.numbers import whole_number
from games.forms.fields import (
    PageText,
    PageValues,
    RefusableForm,
    WholeNumberField,
    page_number,
    typed_names,
    with_typed,
)
from games.models import LARGEST_ID, NAME_MAX_LENGTH, Game, Player, Ruleset, Table, option_choices
from games.pages.rules import moon_words, the_end


class NewGameForm(RefusableForm):
    """A new game in one screen: who plays in seat order, the first dealer, the end, the moon.

    ``players`` arrive in seat order, clockwise (the page keeps the tapped ones
    in the order they were tapped); names typed in ``new_players`` join the
    table and sit after them. The end and the moon start from the chosen
    ruleset and may be changed for this game.
    """

    ARGUMENTS = ("players", "new_players", "ruleset", "rules", "first_dealer")  # game_start's
    DRAW = "draw"
    TARGET, DEALS = "target", "deals"

    players = forms.TypedMultipleChoiceField(
        coerce=int, required=False, label=gettext_lazy("Players, clockwise")
    )
    new_players = forms.CharField(
        required=False,
        max_length=(NAME_MAX_LENGTH + 2) * engine.MAX_PLAYERS,
        label=gettext_lazy("New players"),
        help_text=gettext_lazy("Commas between names; they sit after the ones above."),
    )
    # "draw", a player's id, or "new-0" for the first of the new players typed.
    first_dealer = forms.CharField(
        required=False, max_length=20, label=gettext_lazy("First dealer")
    )
    ruleset = forms.ModelChoiceField(queryset=None, empty_label=None, label=gettext_lazy("Rules"))
    end = forms.ChoiceField(
        choices=[
            (TARGET, gettext_lazy("at a target")),
            (DEALS, gettext_lazy("after a number of deals")),
        ],
        widget=forms.RadioSelect,
        label=gettext_lazy("The game ends"),
    )
    target = WholeNumberField(
        required=False, min_value=1, max_value=engine.MOST_TARGET, label=gettext_lazy("Target")
    )
    deals = WholeNumberField(
        required=False, min_value=1, max_value=engine.MOST_DEALS, label=gettext_lazy("Deals")
    )
    moon = forms.ChoiceField(
        choices=option_choices("moon"), widget=forms.RadioSelect, label=gettext_lazy("Moon")
    )
    # Made anew for each blank form: sent twice, it opens the game it started.
    key = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)

    def __init__(
        self,
        *args,
        table: Table,
        players: Sequence[Player],
        rulesets,
        seated: Sequence[Player] = (),
        last_rules: engine.Rules | None = None,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        self.table = table
        self.by_pk = {p.pk: p for p in players}
        # Seated first, in the order they sat last time; the others as they joined.
        self.seated = list(seated)
        self.others = [p for p in players if p not in self.seated]
        self.fields["key"].initial = secrets.token_urlsafe(16)
        self.fields["players"].choices = [(p.pk, p.name) for p in self.seated + self.others]
        self.fields["players"].initial = [p.pk for p in self.seated]
        self.dealer_choices = [(self.DRAW, _("Draw"))] + [
            (str(p.pk), p.name) for p in self.seated + self.others
        ]
        self.fields["first_dealer"].initial = self.DRAW
        self.fields["ruleset"].queryset = rulesets
        default = table.default_ruleset or next(iter(rulesets), None)
        self.fields["ruleset"].initial = default.pk if default else None
        rules = last_rules or (default.to_rules() if default else engine.Rules())
        self.fields["end"].initial = self.TARGET if rules.target else self.DEALS
        self.fields["target"].initial = rules.target or 100
        self.fields["deals"].initial = rules.deals
        self.fields["moon"].initial = rules.moon
        self.fields["new_players"].widget.attrs.update(autocomplete="off")
        for name in ("target", "deals"):
            self.fields[name].widget.attrs.update(inputmode="numeric")

    def seating(self) -> tuple[list[Player], list[Player]]:
        """Who is seated (in seat order) and who is not, as sent or as offered."""
        if not self.is_bound:
            return self.seated, self.others
        sent = (whole_number(v, digits=12) for v in self.data.getlist("players"))
        seated = [self.by_pk[pk] for pk in dict.fromkeys(sent) if pk in self.by_pk]
        return seated, [p for p in self.by_pk.values() if p not in seated]

    def clean_new_players(self) -> list[str]:
        return typed_names(self.cleaned_data["new_players"])

    def clean(self) -> dict:
        cleaned = super().clean()
        seated = [self.by_pk[pk] for pk in dict.fromkeys(cleaned.get("players", []))]
        seated, new = with_typed(list(self.by_pk.values()), seated, cleaned.get("new_players", []))
        count = len(seated) + len(new)
        if not engine.MIN_PLAYERS <= count <= engine.MAX_PLAYERS:
            raise forms.ValidationError(
                _("Choose {least} to {most} players (you chose {chosen}).").format(
                    least=engine.MIN_PLAYERS, most=engine.MAX_PLAYERS, chosen=count
                )
            )
        cleaned["players"], cleaned["new_players"] = seated, new
        cleaned["first_dealer"] = self._dealer_seat(cleaned.get("first_dealer") or "", seated, new)
        end = cleaned.get("end")
        if end == self.TARGET and not cleaned.get("target"):
            self.add_error("target", _("Give the target, or end after a number of deals."))
        if end == self.DEALS and not cleaned.get("deals"):
            self.add_error("deals", _("Give the number of deals, or end at a target."))
        ruleset = cleaned.get("ruleset")
        if ruleset is not None and not self.errors:
            cleaned["rules"] = rules = self.rules_for(ruleset, cleaned)
            problems = engine.rules_problems(rules, count)
            if problems:
                raise forms.ValidationError([f"{ruleset.name}: {p}." for p in problems])
        return cleaned

    def _dealer_seat(self, chosen: str, seated: list[Player], new: list[str]) -> int | None:
        """The first dealer's seat, or None to draw one."""
        if chosen in ("", self.DRAW):
            return None
        if chosen.startswith("new-"):
            index = whole_number(chosen.removeprefix("new-"), digits=1)
            if index is not None and 0 <= index < len(new):
                return len(seated) + index
        else:
            player = self.by_pk.get(whole_number(chosen, digits=12))  # type: ignore[arg-type]
            if player in seated:
                return seated.index(player)
        self.add_error(
            "first_dealer", _("The first dealer must be one of the players in this game.")
        )
        return None

    def rules_for(self, ruleset: Ruleset, cleaned: Mapping) -> engine.Rules:
        """The ruleset as chosen for this game: its end and moon as set here."""
        by_target = cleaned["end"] == self.TARGET
        return replace(
            ruleset.to_rules(),
            target=cleaned["target"] if by_target else None,
            deals=None if by_target else cleaned["deals"],
            moon=cleaned["moon"],
        )

    def choices_said(self) -> str:
        """The folded choices in a line, as chosen: "Black Maria · to 100 · no moon · …"."""
        chosen = str(self["ruleset"].value())
        ruleset = next((r for r in self.fields["ruleset"].queryset if str(r.pk) == chosen), None)
        target, deals = self["target"].value(), self["deals"].value()
        by_target = self["end"].value() != self.DEALS
        rules = engine.Rules(
            target=whole_number(str(target or ""), digits=4) if by_target else None,
            deals=None if by_target else whole_number(str(deals or ""), digits=4),
        )
        words = [str(ruleset) if ruleset else ""]
        if rules.target or rules.deals:
            words.append(the_end(rules))
        words.append(moon_words().get(str(self["moon"].value()), ""))
        dealer = str(self["first_dealer"].value() or self.DRAW)
        named = dict(self.dealer_choices)
        if dealer != self.DRAW and dealer in named:
            words.append(_("{name} deals first").format(name=named[dealer]))
        else:
            words.append(_("the first dealer drawn"))
        return " · ".join(w for w in words if w)

    def choices_words(self) -> str:
        """What the page needs to say the folded choices again as they change."""
        words = {
            "target": _("to {target}"),
            "deals": [ngettext("{count} deal", "{count} deals", n) for n in (1, 2)],
            "moon": moon_words(),
            "dealer": _("{name} deals first"),
            "draw": _("the first dealer drawn"),
        }
        return json.dumps(words, ensure_ascii=False, separators=(",", ":"))

    def folded_errors(self) -> bool:
        """A choice folded away is opened when it needs the person's attention."""
        folded = ("first_dealer", "ruleset", "end", "target", "deals", "moon")
        return any(self[name].errors for name in folded)

    def ruleset_data(self) -> str:
        """Each ruleset's end and moon, for the page to show when one is picked."""
        data = {
            ruleset.pk: {
                "end": self.TARGET if ruleset.target else self.DEALS,
                "target": ruleset.target or 100,
                "deals": ruleset.deals or "",
                "moon": ruleset.moon,
            }
            for ruleset in self.fields["ruleset"].queryset
        }
        return json.dumps(data, separators=(",", ":"))


class GameNoteForm(forms.ModelForm):
    class Meta:
        model = Game
        fields = ["note"]
        labels = {"note": gettext_lazy("Note on this game")}
        widgets = {"note": forms.Textarea(attrs={"rows": 2})}


class StartKeyForm(PageValues):
    """The key a start form carries: the same form sent twice opens what it started."""

    key = PageText(most=64)


class RulesetBaseForm(PageValues):
    """A new ruleset starts from another (``?from=``), one the table may play by."""

    def __init__(self, data):
        super().__init__(data)
        self.fields["from"] = page_number(most=LARGEST_ID)
