"""Queries built once: the same rows as the ORM, for every id, on each connection."""

from __future__ import annotations

import gc
import threading
import weakref
from datetime import UTC, datetime

import pytest
from django.db import connection, connections, transaction
from django.test.utils import CaptureQueriesContext

from games import rules as r
from games.models import Deal, Game, Player, Ruleset, Seat, Table
from games.prepared import Prepared, field_names, insert, instance, update_fields, update_many
from games.services import deal_record


def seats_of(game: int, table: int):
    return (
        Seat.objects.filter(game_id=game, game__table_id=table, game__status=Game.IN_PROGRESS)
        .order_by("number")
        .values_list("number", "player__name", "game__rules", "total", "is_winner")
    )


def test_rows_are_what_the_orm_reads_for_every_id(moon_game, table, players, owner):
    other = Table.objects.create(name="Other", owner=owner)
    prepared = Prepared(seats_of)
    assert prepared.rows(game=moon_game.pk, table=table.pk) == list(
        seats_of(moon_game.pk, table.pk)
    )
    # The rules come back as a dict (the JSON field's own conversion), not text.
    assert prepared.first(game=moon_game.pk, table=table.pk)[2]["moon"] == "others"
    assert prepared.rows(game=moon_game.pk, table=other.pk) == []
    assert prepared.first(game=moon_game.pk + 1000, table=table.pk) is None
    # A constant in the query ("in_progress") stays what it was.
    Game.objects.filter(pk=moon_game.pk).update(status=Game.FINISHED)
    assert prepared.rows(game=moon_game.pk, table=table.pk) == []


def test_the_sql_is_built_once_per_connection(moon_game, table):
    built = []

    def build(game, table):
        built.append((game, table))
        return seats_of(game, table)

    prepared = Prepared(build)
    for _ in range(3):
        assert len(prepared.rows(game=moon_game.pk, table=table.pk)) == 3
    assert len(built) == 1
    # The stand-in numbers are nobody's ids.
    assert all(number > 2**31 - 100 for number in built[0])
    with CaptureQueriesContext(connection) as captured:
        prepared.rows(game=moon_game.pk, table=table.pk)
    assert len(captured.captured_queries) == 1


@pytest.mark.django_db(transaction=True)
def test_each_thread_builds_for_its_own_connection_and_forgets_it_after(moon_game, table):
    prepared = Prepared(seats_of)
    prepared.rows(game=moon_game.pk, table=table.pk)
    found, theirs = [], []

    def other_thread():
        try:
            found.append(prepared.rows(game=moon_game.pk, table=table.pk))
            theirs.append(weakref.ref(connections["default"]))
        finally:
            connections.close_all()

    thread = threading.Thread(target=other_thread)
    thread.start()
    thread.join()
    assert found == [prepared.rows(game=moon_game.pk, table=table.pk)]
    # This thread's own query was kept and not replaced by the other's...
    assert prepared._local.built["default"][0] is connections["default"]
    # ...and nothing keeps the other thread's connection alive (no leak per thread).
    gc.collect()
    assert theirs[0]() is None


def test_a_locking_query_is_built_inside_its_transaction(moon_game):
    prepared = Prepared(
        lambda game: Game.objects.select_for_update().filter(pk=game).values_list("version")
    )
    with transaction.atomic():
        assert prepared.first(game=moon_game.pk) == (moon_game.version,)


def test_instances_are_as_the_orm_reads_them(moon_game):
    row = Game.objects.filter(pk=moon_game.pk).values_list(*field_names(Game)).get()
    game = instance(Game, row)
    orm = Game.objects.get(pk=moon_game.pk)
    for field in Game._meta.concrete_fields:
        assert getattr(game, field.attname) == getattr(orm, field.attname), field.name
    assert game.get_rules() == orm.get_rules()
    assert not game._state.adding and game._state.db == "default"
    assert game.get_deferred_fields() == set()


def test_updates_write_every_kind_of_field(moon_game, players):
    game = Game.objects.get(pk=moon_game.pk)
    game.status = Game.FINISHED
    game.finished_at = datetime(2026, 11, 30, 21, 15, tzinfo=UTC)
    game.rules = {**game.rules, "target": 77}
    game.note = "Ben's 'moon' – again"
    update_fields(game, ["status", "finished_at", "rules", "note"])
    game.refresh_from_db()
    assert game.status == Game.FINISHED and game.rules["target"] == 77
    assert game.finished_at == datetime(2026, 11, 30, 21, 15, tzinfo=UTC)
    assert game.note == "Ben's 'moon' – again"
    game.finished_at = None
    update_fields(game, ["finished_at"])
    game.refresh_from_db()
    assert game.finished_at is None

    seats = list(game.seats.order_by("number"))
    for seat, total in zip(seats, (-26, 0, 131), strict=True):
        seat.total, seat.is_winner = total, total == -26
    with CaptureQueriesContext(connection) as captured:
        update_many(seats, ["total", "is_winner"])
    assert len(captured.captured_queries) == 1  # one batch
    assert list(game.seats.order_by("number").values_list("total", "is_winner")) == [
        (-26, True),
        (0, False),
        (131, False),
    ]
    update_many([], ["total"])  # nothing to write, nothing sent


def test_a_saved_deal_reads_and_writes_as_before(moon_game, owner):
    """The save's prepared reads and plain writes leave what the ORM would."""
    entry = r.PointsEntry((17, 13, 13))
    first = deal_record(game=moon_game, entry=entry, by=owner)
    second = deal_record(game=moon_game, entry=r.PointsEntry((10, 20, 13)), by=owner)
    assert (first.number, second.number) == (1, 2)
    assert Deal.objects.get(pk=second.pk).totals == [27, 33, 26]
    game = Game.objects.get(pk=moon_game.pk)
    assert game.version == moon_game.version + 2
    assert game.updated_at > moon_game.updated_at
    assert [s.total for s in game.seats.order_by("number")] == [27, 33, 26]
    assert Player.objects.count() == 3 and Ruleset.objects.filter(table=None).exists()


def test_an_insert_is_what_save_would_write(moon_game, owner):
    deal = Deal(game=moon_game, number=1, mode="points", entry={"points": [17, 13, 13]})
    deal.raw, deal.scores, deal.totals, deal.entered_by = (
        [17, 13, 13],
        [17, 13, 13],
        [17, 13, 13],
        owner,
    )
    insert(deal)
    assert deal.pk and not deal._state.adding and deal.entered_at is not None
    stored = Deal.objects.get(pk=deal.pk)
    assert (stored.number, stored.entry, stored.totals) == (
        1,
        {"points": [17, 13, 13]},
        [17, 13, 13],
    )
    assert stored.entered_by == owner and stored.moon_seat is None and stored.client_key == ""
    assert stored.entered_at == deal.entered_at and stored.updated_at == deal.updated_at
