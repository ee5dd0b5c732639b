"""What the scorekeeper stores: tables, players, rulesets, games and deals.

The scoring itself lives in :mod:`games.engine`; these models keep what was
entered and what the engine computed from it. Writes go through
:mod:`games.services`.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, gettext_noop

from games import engine
from games.engine.names import MOST_NAME, MOST_TABLE_NAME, name_key

NAME_MAX_LENGTH = MOST_NAME
# What PostgreSQL's columns hold: a deal number or a version (integer), a row's id
# (bigint). A request naming more is refused before the database is asked.
LARGEST = 2**31 - 1
LARGEST_ID = 2**63 - 1
TABLE_NAME_MAX_LENGTH = MOST_TABLE_NAME
INVITE_LIFETIME = timedelta(days=7)


def account_or_none(user):
    """The account to store as who did something: none for an anonymous visitor."""
    return user if user is not None and user.is_authenticated else None


def new_game_key() -> str:
    """A game's own name, kept through export and import: the same game is not imported twice."""
    return secrets.token_urlsafe(16)


def unique_start_key(kind: str) -> models.UniqueConstraint:
    """A form's key makes one thing at its table (games/services/once.py)."""
    return models.UniqueConstraint(
        fields=["table", "start_key"],
        condition=~Q(start_key=""),
        name=f"{kind}_start_key_unique_per_table",
    )


def new_token() -> str:
    """An unguessable link token: 192 random bits."""
    return secrets.token_urlsafe(24)


# The built-in rulesets' names (migration 0002), in every language. Their notes
# are not shown: a line made from the settings describes them.
BUILTIN_WORDS = frozenset(
    [
        gettext_noop("Black Maria"),
        gettext_noop("Black Maria, moon to the others"),
        gettext_noop("Black Maria, moon off the shooter"),
        gettext_noop("Hearts only"),
        gettext_noop("Spot hearts"),
        gettext_noop("Omnibus"),
    ]
)


def builtin_words(text: str) -> str:
    """A built-in ruleset's name in the person's language; others as written."""
    return gettext(text) if text in BUILTIN_WORDS else text


class Table(models.Model):
    """A group of people who play together; owned by one account."""

    name = models.CharField(max_length=TABLE_NAME_MAX_LENGTH)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tables"
    )
    default_ruleset = models.ForeignKey(
        "Ruleset", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    last_entry_mode = models.CharField(max_length=10, blank=True, default="")
    # Each player's chance of winning, from the ladder, before a game: the owner may turn it off.
    show_chances = models.BooleanField(default=True)
    # Moved on whenever the chances change: the finished games' results (the ladder
    # rated again) or whether they show. What is worked out from the results is kept
    # by it (games/pages/chances.py), and a member's poll compares it.
    chances_version = models.PositiveIntegerField(default=0, editable=False)
    # Read-only link to the table's games; None when turned off.
    watch_token = models.CharField(max_length=64, null=True, blank=True, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("table_detail", args=[self.pk])


class TableGone(models.Model):
    """A table a member kept scores at, deleted by its owner: told to the member once."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    table_number = models.PositiveIntegerField()  # the deleted table's id: its links find this
    name = models.CharField(max_length=TABLE_NAME_MAX_LENGTH)
    owner = models.CharField(max_length=150)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"{self.name}, deleted by {self.owner}"


class KeptUpload(models.Model):
    """An uploaded history file between its preview and the import
    (:mod:`games.services.uploads`): a row of its own, where no cache's culling
    can drop it; gone once imported, or after ``expires``."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    table = models.ForeignKey("Table", on_delete=models.CASCADE, related_name="+")
    token = models.CharField(max_length=40, unique=True)
    raw = models.BinaryField()
    expires = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"upload {self.token[:6]}… until {self.expires:%H:%M}"


class Membership(models.Model):
    """Another account that keeps this table's scores: starts games, enters deals."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["table", "user"], name="member_once_per_table"),
        ]

    def __str__(self) -> str:
        return f"{self.user} at {self.table}"


class Invite(models.Model):
    """A link that makes whoever opens it (signed in) a member: once, and not for long."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="invites")
    token = models.CharField(max_length=64, unique=True, default=new_token)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"Invite to {self.table}"

    def save(self, *args, **kwargs) -> None:
        if self.expires_at is None:
            self.expires_at = timezone.now() + INVITE_LIFETIME
        super().save(*args, **kwargs)

    @property
    def is_usable(self) -> bool:
        return self.used_at is None and self.expires_at > timezone.now()


class Player(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=NAME_MAX_LENGTH)
    # What two names must share to be one person (games/engine/names.py): unique
    # at a table, so "Ann" and "ann" can't both join, however they are sent.
    name_key = models.CharField(max_length=4 * NAME_MAX_LENGTH, editable=False)
    # The account of the person, so their games and statistics follow them.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # A seat another app logged without a name ("Unnamed 1"), brought in as a
    # player of its own: in the games and their totals, never on the ladder.
    unnamed = models.BooleanField(default=False)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "name_key"], name="player_name_unique_per_table_in_any_case"
            ),
            models.UniqueConstraint(
                fields=["table", "user"],
                condition=Q(user__isnull=False),
                name="account_linked_once_per_table",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        self.name_key = name_key(self.name)
        super().save(*args, **kwargs)


def option_choices(name: str) -> list[tuple[str, str]]:
    """The values of one of the rules' options, each with its words in the person's language."""
    return [(value, gettext_lazy(words)) for value, words in engine.RULE_OPTIONS[name].choices]


def rules_field(name: str, option: engine.Option) -> models.Field:
    """The column of one of the rules' options (engine.RULE_OPTIONS), with the
    engine's default and choices."""
    default = getattr(engine.Rules(), name)
    given = {} if default is None else {"default": default}
    if option.kind == "choice":
        choices = option_choices(name)
        longest = max(len(value) for value in option.values)
        return models.CharField(max_length=longest, choices=choices, **given)
    if option.kind == "cards":
        return models.JSONField(null=True, blank=True, **given)
    whole = models.IntegerField if option.least is None else models.PositiveIntegerField
    return whole(null=option.optional, blank=option.optional, **given)


class Ruleset(models.Model):
    """A named set of rules. Built-in ones have no table; a table may have its own.

    Besides its name, table and notes, a column for each of the rules' options
    (engine.RULE_OPTIONS: :func:`rules_field`), added after the class.
    """

    name = models.CharField(max_length=80)
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.CASCADE, related_name="rulesets"
    )
    notes = models.TextField(blank=True, help_text="House rules shown to the table.")

    class Meta:
        ordering = ["table_id", "name", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(jack_of_diamonds__lte=0), name="ruleset_bonus_not_positive"
            ),
            models.CheckConstraint(
                condition=Q(target__isnull=False) | Q(deals__isnull=False),
                name="ruleset_has_an_end",
            ),
        ]

    def __str__(self) -> str:
        return builtin_words(self.name) if self.is_builtin else self.name

    @property
    def is_builtin(self) -> bool:
        return self.table_id is None

    @classmethod
    def black_maria(cls) -> Ruleset | None:
        """The built-in Black Maria: where a new table and a new ruleset start."""
        return cls.objects.filter(table=None, name="Black Maria").first()

    def to_rules(self) -> engine.Rules:
        return engine.Rules.of(self.name, {n: getattr(self, n) for n in engine.RULE_OPTIONS})


for _name, _option in engine.RULE_OPTIONS.items():
    Ruleset.add_to_class(_name, rules_field(_name, _option))


class Evening(models.Model):
    """A club night: the people present, split into games played at once, round by round.

    Its games are ordinary games (``Game.evening``, ``Game.round``); the
    splitting, seating and standings are :mod:`games.engine.clubnight`'s.
    """

    class Scoring(models.TextChoices):
        PLACES = "places", gettext_lazy("places")
        SHARE = "share", gettext_lazy("points against an even share")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="evenings")
    name = models.CharField(max_length=80)
    date = models.DateField()
    scoring = models.CharField(max_length=6, choices=Scoring, default=Scoring.PLACES)
    ruleset = models.ForeignKey(
        Ruleset, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    present = models.ManyToManyField(Player, related_name="evenings", blank=True)
    # The next round as drawn and not yet started: a list of games, each a list
    # of player ids in seat order.
    proposal = models.JSONField(null=True, blank=True)
    # Bumped on every change the evening's pages show (a draw, who is here).
    version = models.PositiveIntegerField(default=0)
    # Read-only link for a big screen; None when turned off.
    watch_token = models.CharField(max_length=64, null=True, blank=True, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Sent with the form that starts it: the same form twice opens this one.
    start_key = models.CharField(max_length=64, blank=True, default="", editable=False)

    class Meta:
        ordering = ["-date", "-id"]
        constraints = [
            unique_start_key("evening"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("evening_detail", args=[self.pk])


class Game(models.Model):
    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", gettext_lazy("in progress")
        FINISHED = "finished", gettext_lazy("finished")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="games")
    ruleset = models.ForeignKey(
        Ruleset, null=True, blank=True, on_delete=models.SET_NULL, related_name="games"
    )
    # A frozen copy of the rules at the start (Rules.to_dict, resolved for the
    # player count), so editing a ruleset never re-scores an old game.
    rules = models.JSONField()
    first_dealer = models.PositiveSmallIntegerField(help_text="Seat index, 0 for seat 1.")
    status = models.CharField(max_length=12, choices=Status, default=Status.IN_PROGRESS)
    # Brought in from paper or a spreadsheet: the final totals, no deals.
    result_only = models.BooleanField(default=False)
    # Now, unless an import says when (a default, so a bulk insert keeps the file's).
    started_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Bumped on every change to the game's deals: the version a client saw.
    version = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Read-only link to this game; None when turned off.
    watch_token = models.CharField(max_length=64, null=True, blank=True, unique=True)
    note = models.TextField(blank=True, max_length=2000)
    # Sent with the New game form: the same form sent twice (Back, then Start
    # again; a double tap) opens the game it started instead of a second one.
    start_key = models.CharField(max_length=64, blank=True, default="", editable=False)
    # Carried by the history file: a backup imported twice, or where its games
    # already are, adds each game once.
    key = models.CharField(max_length=64, default=new_game_key, editable=False)
    # One of a club night's games, and in which of its rounds.
    evening = models.ForeignKey(
        Evening, null=True, blank=True, on_delete=models.SET_NULL, related_name="games"
    )
    round = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at", "-id"]
        indexes = [models.Index(fields=["table", "status"])]
        constraints = [
            unique_start_key("game"),
            models.UniqueConstraint(fields=["table", "key"], name="game_key_unique_per_table"),
        ]

    def __str__(self) -> str:
        return f"{self.table} game {self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("game_detail", args=[self.pk])

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    def get_rules(self) -> engine.Rules:
        return engine.Rules.from_dict(self.rules)


class Seat(models.Model):
    """A player's place at one game, with their running total."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    # A player goes only with their table (and its games); never alone while seated.
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="seats")
    number = models.PositiveSmallIntegerField(help_text="Seat index, 0 for seat 1, clockwise.")
    total = models.IntegerField(default=0)
    is_winner = models.BooleanField(default=False)

    class Meta:
        ordering = ["game_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="seat_number_unique_per_game"),
            models.UniqueConstraint(fields=["game", "player"], name="player_seated_once_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in seat {self.number + 1}"


class Deal(models.Model):
    class Mode(models.TextChoices):
        CARDS = "cards", gettext_lazy("cards")
        COUNTS = "counts", gettext_lazy("counts")
        POINTS = "points", gettext_lazy("points")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveIntegerField()
    mode = models.CharField(max_length=6, choices=Mode)
    # Exactly what was entered, by seat index (rules.Entry.to_data).
    entry = models.JSONField()
    # Computed by the engine, by seat index.
    raw = models.JSONField()
    scores = models.JSONField()
    totals = models.JSONField()
    moon_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    entered_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    version = models.PositiveIntegerField(default=1)
    # Sent by the phone with a deal (entered offline, or online in case of a
    # retry): the same key twice is the same deal, recorded once.
    client_key = models.CharField(max_length=64, blank=True, default="", editable=False)

    class Meta:
        ordering = ["game_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="deal_number_unique_per_game"),
            models.UniqueConstraint(
                fields=["game", "client_key"],
                condition=~Q(client_key=""),
                name="deal_client_key_unique_per_game",
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="deal_number_positive"),
        ]

    def __str__(self) -> str:
        return f"Deal {self.number} of game {self.game_id}"

    def get_entry(self) -> engine.Entry:
        return engine.entry_from_data(self.mode, self.entry)


class DealChange(models.Model):
    """The audit trail: every record, edit and delete of a deal, before and after."""

    class Action(models.TextChoices):
        RECORDED = "recorded", gettext_lazy("recorded")
        EDITED = "edited", gettext_lazy("edited")
        DELETED = "deleted", gettext_lazy("deleted")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="changes")
    deal = models.ForeignKey(
        Deal, null=True, blank=True, on_delete=models.SET_NULL, related_name="changes"
    )
    number = models.PositiveIntegerField(help_text="The deal's number when it changed.")
    action = models.CharField(max_length=8, choices=Action)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    # {"mode", "entry", "scores"} as it was before and after; None for none.
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["at", "id"]
        indexes = [models.Index(fields=["game", "number"])]

    def __str__(self) -> str:
        return f"Deal {self.number} {self.action}"


class PlayerRating(models.Model):
    """A player's rating before and after one finished game, rebuilt from the games.

    Never edited or imported: :func:`games.services.ladder.rerate` writes them again from
    the table's finished games whenever a result changes.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    place = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="rating_once_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.player} after game {self.game_id}: {self.mu:.1f} ± {self.sigma:.1f}"


class Standing(models.Model):
    """A player's rating now, with games and wins: the ladder in one query."""

    player = models.OneToOneField(
        Player, on_delete=models.CASCADE, primary_key=True, related_name="standing"
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField()
    wins = models.PositiveIntegerField()  # shared wins included
    shared_wins = models.PositiveIntegerField()
    change = models.IntegerField()  # of the shown rating, over the player's last game

    def __str__(self) -> str:
        return f"{self.player}: {self.mu:.1f} ± {self.sigma:.1f} after {self.games} games"


class Season(models.Model):
    """A stretch of dates the owner names ("Autumn 2026"): its own ladder, from its games."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=80)
    starts = models.DateField()
    ends = models.DateField()

    class Meta:
        ordering = ["-starts", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends__gte=F("starts")), name="season_ends_after_start"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.starts} to {self.ends})"
