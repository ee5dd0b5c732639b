"""Forms: turning what was tapped or typed into domain objects, and back."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import rules as r
from games.models import NAME_MAX_LENGTH, Game, Player, Ruleset, Table
from games.names import name_key, normalise_name
from games.params import whole_number
from games.stats import Filters

# --- Accounts, tables, players -------------------------------------------------


class WholeNumberField(forms.IntegerField):
    """A whole number typed in ASCII digits (``int`` also takes "٣" and "²" and 5,000 digits)."""

    def to_python(self, value):
        if value in self.empty_values:
            return None
        number = whole_number(str(value), digits=6)
        if number is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return number


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
        self.fields["default_ruleset"].queryset = rulesets or Ruleset.objects.filter(table=None)
        self.fields["default_ruleset"].required = True
        self.fields["default_ruleset"].empty_label = None

    def clean_name(self) -> str:
        return normalise_name(self.cleaned_data["name"])

    def clean_players(self) -> list[str]:
        names = [normalise_name(line) for line in self.cleaned_data["players"].splitlines()]
        names = [n for n in names if n]
        for name in names:
            if len(name) > NAME_MAX_LENGTH:
                raise forms.ValidationError(
                    _("“{name}…” is too long: at most {most} characters.").format(
                        name=name[:20], most=NAME_MAX_LENGTH
                    )
                )
        seen = set()
        for name in names:
            if name_key(name) in seen:
                raise forms.ValidationError(_("{name} is listed twice.").format(name=name))
            seen.add(name_key(name))
        return names


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
        user = get_user_model().objects.filter(username__iexact=username).first()
        if user is None:
            raise forms.ValidationError(
                _("Nobody here has the username {username}.").format(username=username)
            )
        self.cleaned_data["user"] = user
        return username


class PlayerForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ["name"]
        labels = {"name": gettext_lazy("New player's name")}

    def __init__(self, *args, table: Table, **kwargs):
        super().__init__(*args, **kwargs)
        self.table = table
        self.fields["name"].widget.attrs.update(autocomplete="off", maxlength=NAME_MAX_LENGTH)
        if self.instance.pk:
            self.fields["name"].label = _("Name")

    def clean_name(self) -> str:
        name = normalise_name(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError(_("Give the player a name."))
        others = Player.objects.filter(table=self.table)
        if self.instance.pk:
            others = others.exclude(pk=self.instance.pk)
        taken = {name_key(other): other for other in others.values_list("name", flat=True)}
        if name_key(name) in taken:
            raise forms.ValidationError(
                _("{name} already plays at this table.").format(name=taken[name_key(name)])
            )
        return name


# --- Rulesets ------------------------------------------------------------------


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
        bad = [c for c in codes if not r.is_card(c)]
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
        problems = r.rules_problems(rules)
        if not problems and not playable_counts(rules):
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

    def to_rules(self, cleaned: Mapping | None = None) -> r.Rules:
        data = cleaned if cleaned is not None else self.cleaned_data
        removed = data.get("removed")
        return r.Rules(
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


def playable_counts(rules: r.Rules) -> list[int]:
    return [n for n in range(r.MIN_PLAYERS, r.MAX_PLAYERS + 1) if not r.rules_problems(rules, n)]


@dataclass(frozen=True)
class CountSummary:
    players: int
    deal_total: int
    moon_value: int
    removed: str
    pass_cards: int
    warning: str


def ruleset_summary(rules: r.Rules) -> list[CountSummary]:
    """For each player count the rules can serve: deal total, moon, and warnings."""
    rows = []
    for n in playable_counts(rules):
        warning = ""
        if rules.deals is not None and rules.deals % n:
            warning = _(
                "{deals} deals is not a multiple of {players}: not everyone deals equally"
            ).format(deals=rules.deals, players=n)
        removed = r.removed_cards(rules, n)
        rows.append(
            CountSummary(
                players=n,
                deal_total=r.deal_total(rules, n),
                moon_value=r.moon_value(rules, n),
                removed=" ".join(r.card_label(c) for c in removed) or _("none"),
                pass_cards=r.cards_passed(rules, n),
                warning=warning,
            )
        )
    return rows


class GameNoteForm(forms.ModelForm):
    class Meta:
        model = Game
        fields = ["note"]
        labels = {"note": gettext_lazy("Note on this game")}
        widgets = {"note": forms.Textarea(attrs={"rows": 2})}


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
        label=gettext_lazy("History file (JSON)"),
        help_text=gettext_lazy("A file exported from this app, at most 2 MB."),
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


# --- New game ------------------------------------------------------------------


class NewGameForm(forms.Form):
    """Seats are chosen in order (seat 1, 2, …, clockwise); blank seats are skipped."""

    ruleset = forms.ModelChoiceField(
        queryset=Ruleset.objects.none(), empty_label=None, label=gettext_lazy("Rules")
    )
    first_dealer = forms.TypedChoiceField(
        coerce=int, choices=(), initial=-1, label=gettext_lazy("First dealer"), empty_value=-1
    )
    # Made anew for each blank form: sent twice, it opens the game it started.
    key = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)

    def __init__(self, *args, table: Table, players: Sequence[Player], rulesets, **kwargs):
        super().__init__(*args, **kwargs)
        self.table = table
        self.players = {p.pk: p for p in players}
        self.fields["key"].initial = secrets.token_urlsafe(16)
        self.fields["ruleset"].queryset = rulesets
        self.fields["ruleset"].initial = table.default_ruleset_id
        choices = [("", "—")] + [(p.pk, p.name) for p in players]
        for seat in range(r.MAX_PLAYERS):
            self.fields[f"seat_{seat}"] = forms.TypedChoiceField(
                coerce=int,
                choices=choices,
                required=False,
                empty_value=None,
                label=_("Seat {number}").format(number=seat + 1),
            )
        self.fields["first_dealer"].choices = [(-1, _("Draw at random"))] + [
            (seat, _("Seat {number}").format(number=seat + 1)) for seat in range(r.MAX_PLAYERS)
        ]

    def seat_fields(self):
        return [self[f"seat_{seat}"] for seat in range(r.MAX_PLAYERS)]

    def clean(self) -> dict:
        cleaned = super().clean()
        chosen = [cleaned.get(f"seat_{seat}") for seat in range(r.MAX_PLAYERS)]
        seated = [pk for pk in chosen if pk is not None]
        if len(set(seated)) != len(seated):
            names = {self.players[pk].name for pk in seated if seated.count(pk) > 1}
            raise forms.ValidationError(
                _("{names} can sit in only one seat.").format(names=", ".join(sorted(names)))
            )
        if not r.MIN_PLAYERS <= len(seated) <= r.MAX_PLAYERS:
            raise forms.ValidationError(
                _("Choose {least} to {most} players (you chose {chosen}).").format(
                    least=r.MIN_PLAYERS, most=r.MAX_PLAYERS, chosen=len(seated)
                )
            )
        cleaned["seated"] = [self.players[pk] for pk in seated]
        dealer = cleaned.get("first_dealer", -1)
        if dealer is not None and dealer >= len(seated):
            raise forms.ValidationError(
                _("The first dealer must be one of the {seats} seats taken.").format(
                    seats=len(seated)
                )
            )
        cleaned["first_dealer"] = None if dealer in (None, -1) else dealer
        ruleset = cleaned.get("ruleset")
        if ruleset is not None:
            problems = r.rules_problems(ruleset.to_rules(), len(seated))
            if problems:
                raise forms.ValidationError([f"{ruleset.name}: {p}." for p in problems])
        return cleaned
