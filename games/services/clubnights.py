"""Club nights in the database: starting one, who is here, drawing and starting rounds.

The split and the seating are worked out by games/engine/clubnight.py.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from datetime import date

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import engine
from games.engine import clubnight
from games.models import Evening, Game, Player, Ruleset, Table, account_or_none
from games.selectors.clubnights import evening_rules, next_round, rounds, splits_for
from games.services.errors import Refused
from games.services.games import CHANGED_MEANWHILE, game_start
from games.services.once import make_once
from games.services.players import players_join
from games.services.versions import games_changed

MOST_PRESENT = 42  # six games of seven


def new_rng() -> random.Random:
    return random.Random(secrets.randbits(64))


def evening_start(
    *,
    table: Table,
    name: str,
    day: date,
    scoring: str,
    ruleset: Ruleset | None,
    players: Sequence[Player],
    new_players: Sequence[str] = (),
    by: AbstractBaseUser | None = None,
    key: str = "",
    rng: random.Random | None = None,
) -> Evening:
    """Start a club night with these people here, its first round drawn (not yet started)."""
    present = len(players) + len(new_players)
    problem = can_split(table, ruleset, present)
    if problem:
        raise Refused(problem)

    def make() -> Evening:
        joined = players_join(table=table, names=new_players)
        evening = Evening.objects.create(
            table=table,
            name=name,
            date=day,
            scoring=scoring,
            ruleset=ruleset,
            created_by=account_or_none(by),
            start_key=key,
        )
        evening.present.set([*players, *joined])
        _draw(evening, rng=rng)
        return evening

    return make_once(table.evenings, key, make, clash=Refused(_(CHANGED_MEANWHILE)))


def _draw(
    evening: Evening, *, sizes: Sequence[int] | None = None, rng: random.Random | None = None
) -> None:
    people = sorted(evening.present.values_list("pk", flat=True))
    options = splits_for(evening, len(people))
    if not options:
        evening.proposal = None
    else:
        chosen = tuple(sizes) if sizes and tuple(sizes) in options else options[0]
        earlier = _seatings(rounds(evening))
        evening.proposal = clubnight.draw(people, chosen, earlier, rng or new_rng())
    evening.version += 1
    evening.save(update_fields=["proposal", "version"])


def evening_draw(
    *, evening: Evening, sizes: Sequence[int] | None = None, rng: random.Random | None = None
) -> None:
    """Draw the next round again (in games of ``sizes``, when that is one of the splits)."""
    with transaction.atomic():
        evening = Evening.objects.select_for_update().get(pk=evening.pk)
        _draw(evening, sizes=sizes, rng=rng)


def evening_present(
    *, evening: Evening, players: Sequence[Player], rng: random.Random | None = None
) -> None:
    """Who is here now (someone came, someone went home): the next round is drawn again."""
    problem = can_split(evening.table, evening.ruleset, len(players))
    if problem:
        raise Refused(problem)
    with transaction.atomic():
        evening = Evening.objects.select_for_update().get(pk=evening.pk)
        evening.present.set(players)
        _draw(evening, rng=rng)


def round_start(*, evening: Evening, number: int, by: AbstractBaseUser | None = None) -> bool:
    """Start round ``number`` as drawn: its games, at once. False if it had started already.

    Sent twice (a double tap, Back and again), the round starts once.
    """
    with transaction.atomic():
        # Only the evening's row is locked (its ruleset may be missing: an outer join).
        evening = (
            Evening.objects.select_for_update(of=("self",))
            .select_related("table", "ruleset")
            .get(pk=evening.pk)
        )
        if number != next_round(evening) or not evening.proposal:
            return False
        present = {p.pk: p for p in evening.present.all()}
        games = evening.proposal
        if sorted(pk for game in games for pk in game) != sorted(present):
            raise Refused(_("Who is here changed meanwhile: draw the round again."))
        rules = evening_rules(evening)
        for seats in games:
            game_start(
                table=evening.table,
                players=[present[pk] for pk in seats],
                ruleset=evening.ruleset or Ruleset.objects.filter(table=None).first(),
                rules=rules,
                by=by,
                evening=evening,
                round=number,
            )
        evening.proposal = None
        evening.version += 1
        evening.save(update_fields=["proposal", "version"])
    return True


def evening_delete(*, evening: Evening) -> None:
    """The evening goes; its games stay, as the table's ordinary games."""
    with transaction.atomic():
        # Their pages link to the evening: made anew without it.
        games_changed(evening.games.all(), evening=None, round=None)
        evening.delete()


def can_split(table: Table, ruleset: Ruleset | None, present: int) -> str:
    """Why this many people can't be split into games by these rules; "" if they can."""
    if present < engine.MIN_PLAYERS:
        return ngettext(
            "A club night needs at least {least} people: {present} is here.",
            "A club night needs at least {least} people: {present} are here.",
            present,
        ).format(least=engine.MIN_PLAYERS, present=present)
    rules = ruleset.to_rules() if ruleset else engine.Rules()
    if not clubnight.splits(present, 3, engine.playable_counts(rules)):
        return ngettext(
            "{count} person can't be split into games these rules deal for.",
            "{count} people can't be split into games these rules deal for.",
            present,
        ).format(count=present)
    return ""


def _seatings(played: list[list[Game]]) -> list[list[list[int]]]:
    return [[[seat.player_id for seat in game.seats.all()] for game in round_] for round_ in played]
