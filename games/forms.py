"""Forms: turning what was tapped or typed into domain objects, and back."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from games import rules as r
from games.models import NAME_MAX_LENGTH, Game, Player, Ruleset, Table
from games.stats import Filters

# --- Accounts, tables, players -------------------------------------------------


def clean_name(value: str) -> str:
    """Trim and fold inner white space, so "Ann " and "Ann" are one player."""
    return re.sub(r"\s+", " ", value).strip()


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
        return clean_name(self.cleaned_data["name"])

    def clean_players(self) -> list[str]:
        names = [clean_name(line) for line in self.cleaned_data["players"].splitlines()]
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
            if name.casefold() in seen:
                raise forms.ValidationError(_("{name} is listed twice.").format(name=name))
            seen.add(name.casefold())
        return names


class TableNameForm(forms.ModelForm):
    class Meta:
        model = Table
        fields = ["name"]
        labels = {"name": gettext_lazy("Name")}

    def clean_name(self) -> str:
        return clean_name(self.cleaned_data["name"])


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
        name = clean_name(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError(_("Give the player a name."))
        taken = Player.objects.filter(table=self.table, name__iexact=name)
        if self.instance.pk:
            taken = taken.exclude(pk=self.instance.pk)
        if taken.exists():
            raise forms.ValidationError(_("{name} already plays at this table.").format(name=name))
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

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.removed is not None and not self.is_bound:
            self.initial["removed"] = " ".join(self.instance.removed)
        for name in ("queen_of_spades", "king_of_spades", "ace_of_spades", "target", "deals"):
            self.fields[name].widget.attrs["inputmode"] = "numeric"
        self.fields["jack_of_diamonds"].widget.attrs["max"] = 0

    def clean_name(self) -> str:
        return clean_name(self.cleaned_data["name"])

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
    file = forms.FileField(
        required=False,
        label=gettext_lazy("History file (JSON)"),
        help_text=gettext_lazy("A file exported from this app."),
    )
    data = forms.CharField(required=False, widget=forms.HiddenInput)

    MAX_BYTES = 2_000_000

    def clean(self) -> dict:
        cleaned = super().clean()
        upload = cleaned.get("file")
        if upload is not None:
            if upload.size > self.MAX_BYTES:
                raise forms.ValidationError(_("The file is larger than 2 MB: split it by table."))
            raw = upload.read()
        else:
            raw = (cleaned.get("data") or "").encode()
        if not raw:
            raise forms.ValidationError(_("Choose a file to import."))
        try:
            cleaned["parsed"] = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise forms.ValidationError(
                _("This file is not a history file (it is not JSON text).")
            ) from None
        cleaned["text"] = raw.decode("utf-8")
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

    def __init__(self, *args, table: Table, players: Sequence[Player], rulesets, **kwargs):
        super().__init__(*args, **kwargs)
        self.table = table
        self.players = {p.pk: p for p in players}
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


# --- Entering a deal -----------------------------------------------------------


@dataclass(frozen=True)
class SeatRow:
    seat: int
    name: str
    hearts: int | None
    points: str
    filled: bool


@dataclass(frozen=True)
class CardRow:
    code: str
    label: str
    name: str
    suit: str
    taker: int | None


# The entry form's words for what can't be read yet (the phone uses them too).
HEARTS_TO_ENTER = gettext_noop("{name}'s hearts are still to enter")
POINTS_TO_ENTER = gettext_noop("{name}'s points are still to enter")
POINTS_NOT_A_NUMBER = gettext_noop("{name}'s points must be a whole number (not “{value}”)")
HEARTS_NOT_A_NUMBER = gettext_noop("{name}'s hearts must be a whole number (not “{value}”)")


@dataclass
class EntryForm:
    """One deal being entered: what was typed, by seat, and what is wrong with it.

    Built from POST data (or from a stored entry, for editing) and rendered
    back as it was typed, so nothing is lost when an entry is refused.
    """

    mode: str
    rules: r.Rules
    names: list[str]
    hearts: list[str] = field(default_factory=list)  # counts, as typed
    points: list[str] = field(default_factory=list)  # points, as typed
    takers: dict[str, int | None] = field(default_factory=dict)  # card -> seat
    filled: int | None = None  # the seat filled in as the remainder
    problems: list[str] = field(default_factory=list)  # typing problems
    is_bound: bool = False  # True once it holds what somebody entered

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def hearts_total(self) -> int:
        return len(r.hearts_in_pack(self.rules, self.players))

    def cards_to_assign(self) -> list[str]:
        if self.mode == "cards":
            return sorted(r.valued_cards(self.rules, self.players), key=_entry_order)
        return sorted(r.special_cards(self.rules, self.players), key=_entry_order)

    @classmethod
    def blank(cls, mode: str, rules: r.Rules, names: Sequence[str]) -> EntryForm:
        form = cls(mode, rules, list(names))
        form.hearts = [""] * len(names)
        form.points = [""] * len(names)
        form.takers = {c: None for c in form.cards_to_assign()}
        return form

    @classmethod
    def from_post(
        cls, mode: str, rules: r.Rules, names: Sequence[str], data: Mapping[str, str]
    ) -> EntryForm:
        form = cls.blank(mode, rules, names)
        form.hearts = [data.get(f"hearts-{s}", "").strip() for s in range(len(names))]
        form.points = [data.get(f"points-{s}", "").strip() for s in range(len(names))]
        for card in form.takers:
            value = data.get(f"taker-{card}", "")
            form.takers[card] = int(value) if value.isdigit() and int(value) < len(names) else None
        return form

    @classmethod
    def from_entry(cls, rules: r.Rules, names: Sequence[str], entry: r.Entry) -> EntryForm:
        form = cls.blank(entry.mode, rules, names)
        if isinstance(entry, r.PointsEntry):
            form.points = [str(p) for p in entry.points]
        else:
            if isinstance(entry, r.CountsEntry):
                form.hearts = [str(h) for h in entry.hearts]
            for seat, cards in enumerate(entry.cards):
                for card in cards:
                    if card in form.takers:
                        form.takers[card] = seat
        return form

    def fill_remainder(self) -> None:
        """When all but one player's number is in, suggest the last as the remainder."""
        if self.mode == "counts":
            values, total = self.hearts, self.hearts_total
        elif self.mode == "points":
            values, total = self.points, r.deal_total(self.rules, self.players)
        else:
            return
        empty = [s for s, v in enumerate(values) if v == ""]
        if len(empty) != 1:
            return
        try:
            typed = sum(int(v) for v in values if v != "")
        except ValueError:
            return
        remainder = total - typed
        if self.mode == "counts" and remainder < 0:
            return
        values[empty[0]] = str(remainder)
        self.filled = empty[0]

    def entry(self) -> r.Entry | None:
        """The engine's entry, or None with ``problems`` saying what can't be read."""
        self.problems = []
        if self.mode == "points":
            points = [self._number(v, s, "points") for s, v in enumerate(self.points)]
            if self.problems:
                return None
            return r.PointsEntry(tuple(points))  # type: ignore[arg-type]
        per_seat: list[list[str]] = [[] for _ in self.names]
        for card, seat in self.takers.items():
            if seat is not None:
                per_seat[seat].append(card)
        cards = tuple(tuple(c) for c in per_seat)
        if self.mode == "cards":
            return r.CardsEntry(cards)
        hearts = [self._number(v, s, "hearts") for s, v in enumerate(self.hearts)]
        if self.problems:
            return None
        return r.CountsEntry(tuple(hearts), cards)  # type: ignore[arg-type]

    def _number(self, value: str, seat: int, what: str) -> int | None:
        name = self.names[seat]
        if value == "":
            missing = HEARTS_TO_ENTER if what == "hearts" else POINTS_TO_ENTER
            self.problems.append(_(missing).format(name=name))
            return None
        try:
            return int(value.replace("−", "-"))
        except ValueError:
            wrong = HEARTS_NOT_A_NUMBER if what == "hearts" else POINTS_NOT_A_NUMBER
            self.problems.append(_(wrong).format(name=name, value=value[:10]))
            return None

    def check(self) -> r.DealCheck:
        entry = self.entry()
        if entry is not None:
            return r.check_deal(self.rules, self.names, entry)
        total = r.deal_total(self.rules, self.players)
        return r.DealCheck(self._counted_so_far(), total, tuple(self.problems), None)

    def _counted_so_far(self) -> int:
        """The running count of a half-entered deal, from what can be read."""
        typed = self.points if self.mode == "points" else self.hearts
        counted = sum(int(v) for v in typed if re.fullmatch(r"-?\d+", v))
        if self.mode == "counts":
            values = r.valued_cards(self.rules, self.players)
            counted += sum(values[c] for c, seat in self.takers.items() if seat is not None)
        return counted

    def taken(self) -> list[tuple[str, list[CardRow], int]]:
        """Cards assigned so far, under their taker, with the points they make."""
        rows = self.card_rows
        return [
            (
                name,
                [c for c in rows if c.taker == seat],
                sum(r.card_value(self.rules, c.code) for c in rows if c.taker == seat),
            )
            for seat, name in enumerate(self.names)
        ]

    @property
    def heart_choices(self) -> range:
        return range(self.hearts_total + 1)

    @property
    def seat_rows(self) -> list[SeatRow]:
        return [
            SeatRow(
                seat=s,
                name=name,
                hearts=int(self.hearts[s]) if self.hearts[s].isdigit() else None,
                points=self.points[s],
                filled=self.filled == s,
            )
            for s, name in enumerate(self.names)
        ]

    @property
    def filled_row(self) -> SeatRow | None:
        return None if self.filled is None else self.seat_rows[self.filled]

    @property
    def card_rows(self) -> list[CardRow]:
        return [
            CardRow(
                code=code,
                label=r.card_label(code),
                name=r.card_name(code),
                suit=r.SUIT_NAMES[code[-1]],
                taker=seat,
            )
            for code, seat in self.takers.items()
        ]


def _entry_order(card: str) -> tuple[int, int]:
    """Spades first (Q♠ K♠ A♠ are what people look for), then J♦, then hearts."""
    order = {"S": 0, "D": 1, "H": 2, "C": 3}
    rank = r.RANKS.index(card[:-1])
    if card[-1] == "S":
        rank = {"Q": 0, "K": 1, "A": 2}.get(card[:-1], 3 + rank)
    return order[card[-1]], rank


MODE_NAMES = {
    "cards": gettext_lazy("cards"),
    "counts": gettext_lazy("counts"),
    "points": gettext_lazy("points"),
}


def default_mode(rules: r.Rules, remembered: str) -> str:
    """The table's last choice, else counts for one-point hearts and cards for spot."""
    if remembered in r.ENTRY_MODES and not (remembered == "counts" and rules.hearts != "one"):
        return remembered
    return "counts" if rules.hearts == "one" else "cards"


def modes_for(rules: r.Rules) -> list[str]:
    return [m for m in r.ENTRY_MODES if not (m == "counts" and rules.hearts != "one")]
