"""The plain SQL of games/sql.py gives what the ORM's access rule gives."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games import engine, sql
from games.access import games_for_user
from games.models import Deal, Game, Membership, Seat, Table
from games.services.deals import deal_record
from games.services.games import game_start
from tests.factories import DEAL_1, builtin


def orm_page_key(game: int, user) -> tuple | None:
    return (
        games_for_user(user)
        .filter(pk=game)
        .values_list("version", "table__last_entry_mode", "table__chances_version")
        .first()
    )


def orm_version(game: int, user) -> tuple[int, int] | None:
    found = games_for_user(user).filter(pk=game).values_list("version", "table__chances_version")
    return found.first()


@pytest.fixture
def cast(owner, member, outsider, moon_game, players):
    """The owner's game with a deal and a note; another table's game the member plays at too."""
    deal_record(game=moon_game, entry=DEAL_1, by=owner)
    Game.objects.filter(pk=moon_game.pk).update(note="At the cabin")
    elsewhere = Table.objects.create(name="Elsewhere", owner=outsider, last_entry_mode="cards")
    Membership.objects.create(table=elsewhere, user=member)
    others = [elsewhere.players.create(name=n) for n in ("Dan", "Eve", "Finn")]
    other_game = game_start(table=elsewhere, players=others, ruleset=builtin("Hearts only"))
    Game.objects.filter(pk=other_game.pk).update(ruleset=None)  # a game whose ruleset is gone
    loner = get_user_model().objects.create_user("lone", password="a-long-pass-phrase")
    return [owner, member, outsider, loner], [moon_game.pk, other_game.pk, other_game.pk + 99]


def test_the_game_page_key_is_the_orms_for_everyone(cast):
    users, games = cast
    seen = 0
    for user in users:
        for game in games:
            expected = orm_page_key(game, user)
            assert sql.game_page_key(game=game, user=user.pk) == expected, (user, game)
            seen += expected is not None
    assert seen == 4  # owner 1, member 2, outsider 1 (their own), loner 0


def test_the_game_version_is_the_orms_for_everyone(cast):
    users, games = cast
    for user in users:
        for game in games:
            assert sql.game_version(game=game, user=user.pk) == orm_version(game, user)


def orm_save_read(game: int, user):
    """The save's read as the ORM gives it."""
    found = games_for_user(user).select_related("table").filter(pk=game).first()
    if found is None:
        return None
    seats = list(found.seats.select_related("player").order_by("number"))
    played = found.deals.count()
    return found, seats, played


def test_the_saves_read_is_the_orms_for_everyone(cast, moon_game):
    users, games = cast
    for user in users:
        for game in games:
            expected = orm_save_read(game, user)
            found = sql.game_for_save(game=game, user=user.pk)
            if expected is None:
                assert found is None
                continue
            (want, want_seats, want_played), (got, got_seats, got_played) = expected, found
            for field in sql.GAME_FIELDS:
                assert getattr(got, field) == getattr(want, field), field
            assert got.table.last_entry_mode == want.table.last_entry_mode
            assert got_played == want_played
            assert [
                [getattr(s, f) for f in sql.SEAT_FIELDS] + [s.player.name, s.player.table_id]
                for s in got_seats
            ] == [
                [getattr(s, f) for f in sql.SEAT_FIELDS] + [s.player.name, s.player.table_id]
                for s in want_seats
            ]
            assert all(s.game is got for s in got_seats)
            assert got.get_rules() == want.get_rules()


def test_the_game_found_by_its_own_watch_link_is_the_orms(moon_game, table):
    from games.access import watched_by_own_link
    from games.services.sharing import watch_link_replace

    token = watch_link_replace(moon_game)
    watch_link_replace(table)  # a table's link is not a game's
    for asked in (token, table.watch_token, "not-a-link", token.upper()):
        expected = watched_by_own_link(asked).values_list("pk", "version").first()
        assert sql.game_by_own_link(token=asked) == expected


@pytest.mark.parametrize("count", [3, 7])
def test_the_seats_totals_are_written_as_bulk_update_writes_them(table, owner, count):
    players = [table.players.create(name=f"P{i}") for i in range(count)]
    one = game_start(table=table, players=players, ruleset=builtin("Black Maria"))
    two = game_start(table=table, players=players, ruleset=builtin("Black Maria"))
    values = [(-(10**6) + i * 97, i % 2 == 0) for i in range(count)]

    def written(game: Game) -> list[tuple]:
        return list(
            Seat.objects.filter(game=game).order_by("number").values_list("total", "is_winner")
        )

    by_orm, by_sql = list(one.seats.order_by("number")), list(two.seats.order_by("number"))
    for seats in (by_orm, by_sql):
        for seat, (total, won) in zip(seats, values, strict=True):
            seat.total, seat.is_winner = total, won
    Seat.objects.bulk_update(by_orm, ["total", "is_winner"])
    sql.seat_totals(by_sql)
    assert written(one) == written(two) == values
    assert written(one) != []


def test_an_imports_deals_are_written_as_bulk_create_writes_them(table, players, owner):
    """games.sql.insert_deals against the ORM's bulk_create, row for row."""
    from games.models import DealChange
    from games.services.games import game_start
    from tests.factories import DEAL_2, DEAL_3

    entries = [DEAL_1, DEAL_2, DEAL_3, engine.PointsEntry((13, 17, 13))]
    games = [
        game_start(table=table, players=players, ruleset=builtin("Black Maria, moon to the others"))
        for _ in range(2)
    ]
    state = engine.score_game(
        games[0].get_rules(), [p.name for p in players], games[0].first_dealer, entries
    )
    sql.insert_deals(
        [
            sql.NewDeal(games[0].pk, e.mode, e.to_data(), s)
            for e, s in zip(entries, state.deals, strict=True)
        ],
        changes_by=owner,
    )
    made = Deal.objects.bulk_create(
        Deal(
            game=games[1], number=s.number, mode=e.mode, entry=e.to_data(),
            raw=list(s.result.raw), scores=list(s.result.scores), totals=list(s.totals),
            moon_seat=s.result.moon,
        )
        for e, s in zip(entries, state.deals, strict=True)
    )  # fmt: skip
    DealChange.objects.bulk_create(
        DealChange(
            game=games[1], deal=d, number=d.number, action=DealChange.Action.RECORDED, by=owner,
            after={"mode": d.mode, "entry": d.entry, "scores": d.scores, "imported": True},
        )
        for d in made
    )  # fmt: skip

    def rows(model, game: Game) -> list[dict]:
        skip = {"id", "game_id", "deal_id", "entered_at", "updated_at", "at"}
        found = model.objects.filter(game=game).order_by("number").values()
        return [{k: v for k, v in row.items() if k not in skip} for row in found]

    for model in (Deal, DealChange):
        assert rows(model, games[0]) == rows(model, games[1]) != []
    assert Deal.objects.get(game=games[0], number=2).moon_seat == 2
