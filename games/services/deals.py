"""Recording, editing and deleting deals.

Every deal write goes through :func:`store_scores`, inside one transaction with
the game row locked, so the stored scores are always what the rules engine
computes from the stored entries, and a refused change leaves nothing behind.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Max, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import engine
from games.models import Deal, DealChange, Game, Seat, account_or_none
from games.services import ladder
from games.services.errors import DealConflict, Refused
from games.services.tables import table_remember_mode
from games.services.versions import game_changed

GAME_FINISHED = gettext_noop("The game is over: no more deals can be entered.")


def seat_names(game: Game) -> list[str]:
    return [seat.player.name for seat in game.seats.select_related("player")]


@dataclass(frozen=True)
class Recorded:
    """Saved as ``deal``; ``seats`` are the game's, with their totals after it (the
    game given is moved on in hand: its version and status are the save's)."""

    deal: Deal
    seats: list[Seat]


@dataclass(frozen=True)
class Duplicate:
    """Sent before (its key, or the same entry by the same person): ``deal`` is the one
    already there, and nothing was written."""

    deal: Deal


@dataclass(frozen=True)
class Conflict:
    """Another deal holds the number (``deal``; None when it was deleted meanwhile);
    nothing was written. ``message`` says so in the person's words."""

    message: str
    deal: Deal | None


type Saved = Recorded | Duplicate | Conflict


def deal_record(
    *,
    game: Game,
    entry: engine.Entry,
    by: AbstractBaseUser | None,
    number: int | None = None,
    key: str | None = None,
) -> Deal:
    """Record the next deal of ``game``: the deal recorded, or the one already sent
    with ``key``.

    ``number`` is the deal number the person was entering; if that deal has
    been recorded meanwhile (a second tap on Save, another phone), nothing is
    written and :class:`DealConflict` points at the deal that is there.
    """
    return _record(game, entry, by, number, key).deal


def _record(
    game: Game,
    entry: engine.Entry,
    by: AbstractBaseUser | None,
    number: int | None,
    key: str | None,
) -> Recorded | Duplicate:
    with transaction.atomic():
        found = Game.objects.select_for_update().filter(pk=game.pk)
        found = found.values_list("version", "status").first()
        if found is None:
            raise Game.DoesNotExist("The game was deleted.")
        game.version, game.status = found
        # Read in a statement of their own after the lock: PostgreSQL answers a locking
        # statement's subqueries from before it waited, which missed a deal saved meanwhile.
        seats, played = seats_and_played(game)
        if key and (number is None or number <= played):
            # Sent before? (A deal under its own number is new unless that number is taken.)
            existing = game.deals.filter(client_key=key).first()
            if existing is not None:
                existing.game = game
                return Duplicate(existing)
        if number is not None and number <= played:
            existing = game.deals.select_related("entered_by").get(number=number)
            raise DealConflict(taken_message(existing), existing)
        if game.is_finished:
            raise Refused(_(GAME_FINISHED))
        try:
            state = engine.score_game(
                game.get_rules(),
                [seat.player.name for seat in seats],
                game.first_dealer,
                [entry],
                played=played,
                totals_before=[seat.total for seat in seats],
            )
        except engine.GameError as error:
            raise Refused(error.problems, deal=error.deal) from None
        deal = Deal(
            game=game,
            number=played + 1,
            mode=entry.mode,
            entry=entry.to_data(),
            entered_by=account_or_none(by),
            client_key=key or "",
        )
        store_scores(game, [deal], state, start=0, seats=seats)
        _audit(game, deal, DealChange.Action.RECORDED, by, before=None, after=_snapshot(deal))
        return Recorded(deal, seats)


def seats_of(game: Game) -> list[Seat]:
    return list(Seat.objects.filter(game=game).select_related("player").order_by("number"))


def seats_and_played(game: Game) -> tuple[list[Seat], int]:
    """The game's seats (their totals are those after its last deal) and how many deals
    it has had, in one statement."""
    played = Deal.objects.filter(game=game).values("game").annotate(n=Max("number"))
    seats = list(
        Seat.objects.filter(game=game)
        .select_related("player")
        .annotate(played=Coalesce(Subquery(played.values("n")), Value(0)))
        .order_by("number")
    )
    return seats, seats[0].played if seats else 0


def deal_save(
    *,
    game: Game,
    entry: engine.Entry,
    by: AbstractBaseUser | None,
    number: int | None = None,
    key: str | None = None,
    replace: bool = False,
    version: int | None = None,
) -> Saved:
    """An entered deal saved, online or kept on a phone: the one place a conflict is decided.

    Recorded as deal ``number`` (None: as the next deal). With ``replace``
    the person chose, after a conflict, to put this entry over deal
    ``number`` as they saw it then (its ``version``; None: as it is now). A
    deal already there that is this one (the phone's ``key``, or the same
    entry by the same person: a second tap on Save) is a :class:`Duplicate`;
    any other is a :class:`Conflict`, and nothing is written. The table
    remembers the way it was entered. Refused by the rules: :class:`Refused`.
    """
    try:
        if replace:
            target = game.deals.filter(number=number).first()
            if target is None:
                return Conflict(deleted_message(number), None)  # type: ignore[arg-type]
            deal = deal_edit(deal=target, entry=entry, by=by, version=version, key=key)
            saved: Recorded | Duplicate = Recorded(deal, seats_of(game))
        else:
            saved = _record(game, entry, by, number, key)
    except DealConflict as clash:
        theirs = clash.deal
        if theirs is not None and (
            (key and theirs.client_key == key) or _same_deal(theirs, entry, by)
        ):
            return Duplicate(theirs)
        return Conflict(clash.message, theirs)
    if isinstance(saved, Recorded):
        table_remember_mode(table=game.table, mode=entry.mode)
    return saved


def _same_deal(deal: Deal, entry: engine.Entry, by: AbstractBaseUser | None) -> bool:
    return (
        deal.mode == entry.mode
        and deal.entry == entry.to_data()
        and deal.entered_by_id == getattr(account_or_none(by), "pk", None)
    )


def deal_edit(
    *,
    deal: Deal,
    entry: engine.Entry,
    by: AbstractBaseUser | None,
    version: int | None = None,
    key: str | None = None,
) -> Deal:
    """Replace what was entered for ``deal`` and re-score everything after it.

    ``version`` is the deal's version when the person opened it; if someone
    changed it since, nothing is written and :class:`DealConflict` is raised.
    """
    with transaction.atomic():
        game = _lock(deal.game)
        deals = list(game.deals.order_by("number"))
        current = next((d for d in deals if d.pk == deal.pk), None)
        if current is None:
            raise DealConflict(deleted_message(deal.number), None)
        if version is not None and current.version != version:
            raise DealConflict(changed_message(current), current)
        before = _snapshot(current)
        current.mode = entry.mode
        current.entry = entry.to_data()
        current.version += 1
        also = []
        if key and current.client_key != key:
            # The phone's deal replaced this one: sent again, it is this deal.
            game.deals.filter(client_key=key).exclude(pk=current.pk).update(client_key="")
            current.client_key = key
            also = ["client_key"]
        _rescore(game, deals, start=current.number - 1, changed={current.pk}, also=also)
        _audit(game, current, DealChange.Action.EDITED, by, before=before, after=_snapshot(current))
        return current


def deal_delete(*, deal: Deal, by: AbstractBaseUser | None, version: int | None = None) -> None:
    """Delete ``deal``; later deals move up one number and are re-scored."""
    with transaction.atomic():
        game = _lock(deal.game)
        deals = list(game.deals.order_by("number"))
        current = next((d for d in deals if d.pk == deal.pk), None)
        if current is None:
            return
        if version is not None and current.version != version:
            raise DealConflict(changed_message(current), current)
        index = current.number - 1
        remaining = deals[:index] + deals[index + 1 :]
        # Check the whole game first, so a refused deletion deletes nothing.
        state = _score(game, remaining)
        _audit(game, current, DealChange.Action.DELETED, by, before=_snapshot(current), after=None)
        current.delete()
        for deal_after in remaining[index:]:
            deal_after.number -= 1
            # One at a time in ascending order, so no two deals ever share a number.
            Deal.objects.filter(pk=deal_after.pk).update(number=deal_after.number)
        store_scores(game, remaining, state, start=index)


def _snapshot(deal: Deal) -> dict:
    return {"mode": deal.mode, "entry": deal.entry, "scores": deal.scores}


def _audit(
    game: Game,
    deal: Deal,
    action: str,
    by: AbstractBaseUser | None,
    *,
    before: dict | None,
    after: dict | None,
) -> None:
    change = DealChange(
        game=game,
        deal=deal,
        number=deal.number,
        action=action,
        by=account_or_none(by),
        before=before,
        after=after,
    )
    change.save(force_insert=True)


def _lock(game: Game) -> Game:
    return Game.objects.select_for_update().get(pk=game.pk)


def who_entered(deal: Deal) -> str:
    return deal.entered_by.get_username() if deal.entered_by else _("someone else")


def taken_message(deal: Deal) -> str:
    return _("Deal {number} was just entered by {username} — here it is.").format(
        number=deal.number, username=who_entered(deal)
    )


def deleted_message(number: int) -> str:
    return _("Deal {number} was deleted meanwhile.").format(number=number)


def changed_message(deal: Deal) -> str:
    return _(
        "Deal {number} was changed by someone else since you opened it — here it is now."
    ).format(number=deal.number)


def _score(game: Game, deals: Sequence[Deal]) -> engine.GameState:
    names = seat_names(game)
    try:
        return engine.score_game(
            game.get_rules(), names, game.first_dealer, [d.get_entry() for d in deals]
        )
    except engine.GameError as error:
        raise Refused(error.problems) from None


def _rescore(
    game: Game,
    deals: list[Deal],
    *,
    start: int,
    changed: set[int] | None = None,
    also: Sequence[str] = (),
) -> engine.GameState:
    state = _score(game, deals)
    store_scores(game, deals, state, start=start, changed=changed, also=also)
    return state


def store_scores(
    game: Game,
    deals: Sequence[Deal],
    state: engine.GameState,
    *,
    start: int,
    changed: set[int] | None = None,
    seats: list[Seat] | None = None,
    also: Sequence[str] = (),
    rerate: bool = True,
) -> None:
    """Write the engine's results for deals ``start`` onward, seats and game.

    A finished game's result, new or changed (or a game re-opened), rates the
    table again (``rerate=False`` when the caller does it once for many).
    """
    to_update = []
    for deal, scored in zip(deals[start:], state.deals[start:], strict=True):
        deal.raw = list(scored.result.raw)
        deal.scores = list(scored.result.scores)
        deal.totals = list(scored.totals)
        deal.moon_seat = scored.result.moon
        if deal.pk is None:
            deal.save(force_insert=True)
        else:
            to_update.append(deal)
    if to_update:
        fields = ["raw", "scores", "totals", "moon_seat", "updated_at"]
        if changed:
            fields += ["mode", "entry", "version", *also]
        now = timezone.now()
        for deal in to_update:
            deal.updated_at = now
        Deal.objects.bulk_update(to_update, fields)

    if seats is None:
        seats = list(game.seats.all())
    for seat in seats:
        seat.total = state.totals[seat.number]
        seat.is_winner = seat.number in state.winners
    Seat.objects.bulk_update(seats, ["total", "is_winner"])

    was = game.status
    fields = {
        "status": Game.Status.FINISHED if state.finished else Game.Status.IN_PROGRESS,
        "updated_at": timezone.now(),
    }
    if state.finished != (was == Game.Status.FINISHED):
        # Finished now, or re-opened: only then does the time change.
        fields["finished_at"] = fields["updated_at"] if state.finished else None
    game_changed(game, **fields)
    if rerate and (state.finished or was == Game.Status.FINISHED):
        ladder.rerate(game.table)
