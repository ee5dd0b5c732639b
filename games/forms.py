"""Forms: turning what was tapped or typed into domain objects, and back."""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import engine
from games.engine.names import name_key, normalise_name
from games.models import NAME_MAX_LENGTH, Evening, Game, Player, Ruleset, Season, Table
from games.pages.stats import Filters
from games.services.clubnights import MOST_PRESENT
from scorekeeper.params import whole_number

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


def playable_counts(rules: engine.Rules) -> list[int]:
    return [
        n
        for n in range(engine.MIN_PLAYERS, engine.MAX_PLAYERS + 1)
        if not engine.rules_problems(rules, n)
    ]


@dataclass(frozen=True)
class CountSummary:
    players: int
    deal_total: int
    moon_value: int
    removed: str
    pass_cards: int
    warning: str


def ruleset_summary(rules: engine.Rules) -> list[CountSummary]:
    """For each player count the rules can serve: deal total, moon, and warnings."""
    rows = []
    for n in playable_counts(rules):
        warning = ""
        if rules.deals is not None and rules.deals % n:
            warning = _(
                "{deals} deals is not a multiple of {players}: not everyone deals equally"
            ).format(deals=rules.deals, players=n)
        removed = engine.removed_cards(rules, n)
        rows.append(
            CountSummary(
                players=n,
                deal_total=engine.deal_total(rules, n),
                moon_value=engine.moon_value(rules, n),
                removed=" ".join(engine.card_label(c) for c in removed) or _("none"),
                pass_cards=engine.cards_passed(rules, n),
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


def typed_names(text: str) -> list[str]:
    """Names typed with commas (or one a line) between them, each once, as people write them."""
    names: list[str] = []
    for part in text.replace("\n", ",").split(","):
        name = normalise_name(part)
        if not name:
            continue
        if len(name) > NAME_MAX_LENGTH:
            raise forms.ValidationError(
                _("A name can be at most {most} characters.").format(most=NAME_MAX_LENGTH)
            )
        if name_key(name) not in {name_key(n) for n in names}:
            names.append(name)
    return names


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


class NewGameForm(forms.Form):
    """A new game in one screen: who plays in seat order, the first dealer, the end, the moon.

    ``players`` arrive in seat order, clockwise (the page keeps the tapped ones
    in the order they were tapped); names typed in ``new_players`` join the
    table and sit after them. The end and the moon start from the chosen
    ruleset and may be changed for this game.
    """

    DRAW = "draw"
    TARGET, DEALS = "target", "deals"

    players = forms.TypedMultipleChoiceField(
        coerce=int, required=False, label=gettext_lazy("Players, clockwise")
    )
    new_players = forms.CharField(
        required=False,
        max_length=(NAME_MAX_LENGTH + 2) * engine.MAX_PLAYERS,
        label=gettext_lazy("New players"),
        help_text=gettext_lazy("Names, separated by commas, in seat order after the ones above."),
    )
    # "draw", a player's id, or "new-0" for the first of the new players typed.
    first_dealer = forms.CharField(
        required=False, max_length=20, label=gettext_lazy("First dealer")
    )
    ruleset = forms.ModelChoiceField(
        queryset=Ruleset.objects.none(), empty_label=None, label=gettext_lazy("Rules")
    )
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
        choices=Ruleset.Moon.choices, widget=forms.RadioSelect, label=gettext_lazy("Moon")
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
        default = table.default_ruleset or rulesets.first()
        self.fields["ruleset"].initial = default.pk if default else None
        rules = last_rules or (default.to_rules() if default else engine.Rules())
        self.fields["end"].initial = self.TARGET if rules.target else self.DEALS
        self.fields["target"].initial = rules.target or 100
        self.fields["deals"].initial = rules.deals
        self.fields["moon"].initial = rules.moon
        self.fields["new_players"].widget.attrs.update(autocomplete="off")
        for name in ("target", "deals"):
            self.fields[name].widget.attrs.update(inputmode="numeric", size="5")

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
        cleaned["seated"], cleaned["new_names"] = seated, new
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


class EveningForm(forms.Form):
    """A club night: its name, who is here, the rules its games play, how the evening is won."""

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
    ruleset = forms.ModelChoiceField(
        queryset=Ruleset.objects.none(), empty_label=None, label=gettext_lazy("Rules")
    )
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
        self.known = list(table.players.order_by("name"))
        self.by_pk = {p.pk: p for p in self.known}
        self.fields["players"].choices = [(p.pk, p.name) for p in self.known]
        self.fields["ruleset"].queryset = rulesets
        default = table.default_ruleset or rulesets.first()
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
        cleaned["here"], cleaned["new_names"] = here, new
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
        self.by_pk = {p.pk: p for p in table.players.order_by("name")}
        self.fields["players"].choices = [(p.pk, p.name) for p in self.by_pk.values()]

    def clean_players(self) -> list[Player]:
        return [self.by_pk[pk] for pk in dict.fromkeys(self.cleaned_data["players"])]
