"""Starting, rematching, annotating and deleting games.

Every game is made by :func:`game_create`: a new game on the New game screen,
Play again, a club night's round and an imported one alike.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import engine
from games.models import Evening, Game, Player, Ruleset, Seat, Table, account_or_none
from games.services import ladder
from games.services.errors import Refused
from games.services.once import make_once, sent_before
from games.services.players import players_join
from games.services.tables import table_create
from games.services.versions import games_changed

NOT_YOUR_PLAYERS = gettext_noop("Every player must belong to this table.")
PLAYERS_TWICE = gettext_noop("A player can sit only once at a game.")
CHANGED_MEANWHILE = gettext_noop("Someone changed the table's players meanwhile: try again.")


@dataclass
class NewGame:
    """A game to make: ``players`` in seat order. ``state`` is the engine's score of
    deals the caller writes (an import's): the seats' totals, the winners and
    whether it is over come with them. ``key_of_game`` is the game's own key,
    as a history file gives it; ``result_only``: a game kept on paper, its
    final totals in ``state``, no deals; ``started_at`` and ``finished_at`` as
    a file says."""

    table: Table
    players: Sequence[Player]
    rules: engine.Rules
    first_dealer: int
    ruleset: Ruleset | None = None
    by: AbstractBaseUser | None = None
    key: str = ""
    evening: Evening | None = None
    round: int | None = None
    state: engine.GameState | None = None
    key_of_game: str = ""
    result_only: bool = False
    started_at: datetime | None = None
    finished_at: datetime | None = None


def game_create(**new) -> Game:
    """The game row and its seats (the caller's transaction); see :class:`NewGame`."""
    return games_create([NewGame(**new)])[0]


def games_create(new: Sequence[NewGame]) -> list[Game]:
    """Games and their seats in two statements, however many (an import's thousands)."""
    now = timezone.now()
    games = []
    for made in new:
        finished = made.state is not None and made.state.finished
        games.append(
            Game(
                table=made.table,
                ruleset=made.ruleset,
                rules=made.rules.to_dict(),
                first_dealer=made.first_dealer,
                created_by=account_or_none(made.by),
                start_key=made.key,
                evening=made.evening,
                round=made.round,
                result_only=made.result_only,
                status=Game.Status.FINISHED if finished else Game.Status.IN_PROGRESS,
                started_at=made.started_at or now,
                finished_at=(made.finished_at or now) if finished else None,
                **({"key": made.key_of_game} if made.key_of_game else {}),
            )
        )
    games = Game.objects.bulk_create(games, batch_size=500)
    Seat.objects.bulk_create(
        (
            Seat(
                game=game,
                player=player,
                number=number,
                total=made.state.totals[number] if made.state else 0,
                is_winner=made.state is not None and number in made.state.winners,
            )
            for game, made in zip(games, new, strict=True)
            for number, player in enumerate(made.players)
        ),
        batch_size=1000,
    )
    return games


def game_start(
    *,
    table: Table,
    players: Sequence[Player],
    ruleset: Ruleset | None,
    first_dealer: int | None = None,
    by: AbstractBaseUser | None = None,
    key: str = "",
    rules: engine.Rules | None = None,
    new_players: Sequence[str] = (),
    evening: Evening | None = None,
    round: int | None = None,
) -> Game:
    """Seat ``players`` in this order (clockwise) and start a game.

    ``first_dealer`` is a seat index; None draws one at random. ``key`` names
    this start: a game already started with it is returned as it is
    (games/services/once.py). ``rules`` are the ruleset's as chosen for this
    game (its end and moon, say); ``new_players`` join the table and sit
    after ``players``.
    """
    if any(p.table_id != table.pk for p in players):
        raise Refused(_(NOT_YOUR_PLAYERS))
    if len({p.pk for p in players}) != len(players):
        raise Refused(_(PLAYERS_TWICE))
    count = len(players) + len(new_players)
    try:
        rules = engine.resolve(rules or ruleset.to_rules(), count)  # type: ignore[union-attr]
    except engine.RulesError as error:
        raise Refused(error.problems) from None
    if first_dealer is None:
        first_dealer = secrets.randbelow(count)
    if not 0 <= first_dealer < count:
        raise Refused(_("The first dealer must be one of the players."))

    def make() -> Game:
        seated = [*players, *players_join(table=table, names=new_players)]
        return game_create(
            table=table,
            players=seated,
            rules=rules,
            first_dealer=first_dealer,
            ruleset=ruleset,
            by=by,
            key=key,
            evening=evening,
            round=round,
        )

    return make_once(table.games, key, make, clash=Refused(_(CHANGED_MEANWHILE)))


def game_start_at_new_table(
    *, owner: AbstractBaseUser, table_name: str, key: str = "", **start
) -> Game:
    """A first game, before there is a table: the table is made with it, named
    ``table_name`` (the owner renames it when they like), or neither is.

    Sent twice (Back, a double tap), it opens the game the first sending started.
    """
    with transaction.atomic():
        # One first game at a time for a person: the second sending waits, then finds it.
        list(get_user_model().objects.select_for_update().filter(pk=owner.pk).values_list("pk"))
        started = sent_before(Game.objects.filter(table__owner=owner), key)
        if started is not None:
            return started
        table = table_create(owner=owner, name=table_name, ruleset=start.get("ruleset"))
        return game_start(table=table, key=key, **start)


def game_rematch(*, game: Game, by: AbstractBaseUser | None) -> Game:
    """A new game with the same seats and rules; the next dealer deals first.

    Sent twice (Back, a double tap, two phones), it opens the one rematch.
    """
    seats = list(game.seats.select_related("player").order_by("number"))
    played = game.deals.count()
    return game_start(
        table=game.table,
        players=[seat.player for seat in seats],
        ruleset=game.ruleset,
        rules=game.get_rules(),
        first_dealer=engine.dealer(game.first_dealer, len(seats), played + 1),
        by=by,
        key=f"after-game-{game.pk}",
    )


def game_annotate(*, game: Game, note: str) -> None:
    games_changed(Game.objects.filter(pk=game.pk), note=note)
    game.note = note


def game_delete(*, game: Game) -> None:
    """Delete a game with its deals and their trail; a finished one rates the table again."""
    with transaction.atomic():
        table, finished = game.table, game.is_finished
        game.delete()
        if finished:
            ladder.rerate(table)
