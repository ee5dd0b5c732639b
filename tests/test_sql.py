"""The plain SQL of games/sql.py writes what the ORM's bulk_create writes."""

from __future__ import annotations

from games import engine, sql
from games.models import Deal, Game
from tests.factories import DEAL_1, builtin


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
