"""Starting, rematching and deleting games."""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import engine
from games.models import (
    Game,
    Player,
    Ruleset,
    Seat,
    Table,
)
from games.services import ladder
from games.services.deals import _user
from games.services.errors import Refused
from games.services.players import _new_player

NOT_YOUR_PLAYERS = gettext_noop("Every player must belong to this table.")


PLAYERS_TWICE = gettext_noop("A player can sit only once at a game.")


def game_start(
    *,
    table: Table,
    players: Sequence[Player],
    ruleset: Ruleset,
    first_dealer: int | None = None,
    by: AbstractBaseUser | None = None,
    key: str = "",
    rules: engine.Rules | None = None,
    new_players: Sequence[str] = (),
) -> Game:
    """Seat ``players`` in this order (clockwise) and start a game.

    ``first_dealer`` is a seat index; None draws one at random. ``key`` names
    this start: a game already started with it is returned as it is. ``rules``
    are the ruleset's as chosen for this game (its end and moon, say);
    ``new_players`` join the table and sit after ``players``.
    """
    if key:
        started = table.games.filter(start_key=key).first()
        if started is not None:
            return started
    if any(p.table_id != table.pk for p in players):
        raise Refused(_(NOT_YOUR_PLAYERS))
    if len({p.pk for p in players}) != len(players):
        raise Refused(_(PLAYERS_TWICE))
    count = len(players) + len(new_players)
    try:
        rules = engine.resolve(rules or ruleset.to_rules(), count)
    except engine.RulesError as error:
        raise Refused(error.problems) from None
    if first_dealer is None:
        first_dealer = secrets.randbelow(count)
    if not 0 <= first_dealer < count:
        raise Refused(_("The first dealer must be one of the players."))
    try:
        with transaction.atomic():
            players = list(players) + [_new_player(table, name) for name in new_players]
            game = Game.objects.create(
                table=table,
                ruleset=ruleset,
                rules=rules.to_dict(),
                first_dealer=first_dealer,
                created_by=by if by is not None and by.is_authenticated else None,
                start_key=key,
            )
            Seat.objects.bulk_create(
                Seat(game=game, player=player, number=number)
                for number, player in enumerate(players)
            )
    except IntegrityError:
        # The same form, sent twice at once: the other request started it.
        started = table.games.filter(start_key=key).first() if key else None
        if started is None:
            raise
        return started
    return game


def game_delete(*, game: Game) -> None:
    """Delete a game with its deals and their trail; a finished one rates the table again."""
    with transaction.atomic():
        table, finished = game.table, game.is_finished
        game.delete()
        if finished:
            ladder.rerate(table)


def game_rematch(*, game: Game, by: AbstractBaseUser | None) -> Game:
    """A new game with the same seats and rules; the next dealer deals first."""
    seats = list(game.seats.select_related("player").order_by("number"))
    players = len(seats)
    played = game.deals.count()
    with transaction.atomic():
        new = Game.objects.create(
            table=game.table,
            ruleset=game.ruleset,
            rules=game.rules,
            first_dealer=engine.dealer(game.first_dealer, players, played + 1),
            created_by=_user(by),
        )
        Seat.objects.bulk_create(
            Seat(game=new, player=seat.player, number=seat.number) for seat in seats
        )
    return new
