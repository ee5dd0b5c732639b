"""Players joining a table, renamed, linked to an account."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from games.engine.names import TAKEN, as_sentence, name_key
from games.models import Game, Player, Table
from games.services.errors import Refused
from games.services.versions import games_changed


def players_join(*, table: Table, names: Sequence[str]) -> list[Player]:
    """New players at ``table``, checked already (games/engine/names.py), in order.

    A name another phone added meanwhile is refused: the person sees it and
    picks that player instead.
    """
    players = [Player(table=table, name=name, name_key=name_key(name)) for name in names]
    if not players:
        return []
    try:
        with transaction.atomic():
            return Player.objects.bulk_create(players)
    except IntegrityError:
        taken = table.players.filter(name_key__in=[p.name_key for p in players]).first()
        name = taken.name if taken else names[0]
        raise Refused(as_sentence(_(TAKEN).format(name=name))) from None


def player_rename(*, player: Player, name: str) -> None:
    """A new name, on every page of every game the player sat in."""
    with transaction.atomic():
        player.name, player.name_key = name, name_key(name)
        try:
            with transaction.atomic():
                player.save(update_fields=["name", "name_key"])
        except IntegrityError:
            raise Refused(as_sentence(_(TAKEN).format(name=name))) from None
        games_changed(Game.objects.filter(seats__player=player))  # their boards say the name


def player_link(*, player: Player, user: AbstractBaseUser | None) -> None:
    """Link a player to an account (None: unlink), so their games follow them."""
    if user is not None and player.table.players.filter(user=user).exclude(pk=player.pk).exists():
        raise Refused(
            _("{username} is already linked to another player here.").format(username=user)
        )
    player.user = user
    player.save(update_fields=["user"])
