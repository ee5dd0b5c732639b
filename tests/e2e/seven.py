"""A table of seven players named like real people, with negative totals: finished
games, a ladder, a game under way, a club night and a game just started."""

from __future__ import annotations

from datetime import date

from django.contrib.auth import get_user_model

from games import engine
from games.models import Player, Ruleset, Table
from games.services.clubnights import evening_draw, evening_start, round_start
from games.services.deals import deal_record
from games.services.games import game_start
from games.services.sharing import watch_link_replace

NAMES = ["Kristoffer", "Marianne", "Ingeborg", "Sebastian", "Alexandra", "Thorbjørn", "Anne-Marie"]
# Omnibus for seven: 33 a deal, the J♦ −10 makes totals go below zero.
DEALS = [
    (-10, 13, 10, 7, 5, 4, 4),
    (13, -10, 4, 10, 7, 5, 4),
    (4, 7, -10, 13, 5, 10, 4),
    (-10, 4, 5, 4, 13, 10, 7),
    (10, -10, 13, 4, 4, 5, 7),
    (-10, 13, 4, 4, 5, 10, 7),
]


def seven_at_a_table():
    """(the owner, the table, the game under way, the finished game)."""
    user = get_user_model().objects.create_user("ann", password="a-long-pass-phrase")
    table = Table.objects.create(name="Fredagsklubben på Grünerløkka", owner=user)
    players = [Player.objects.create(table=table, name=n) for n in NAMES]
    omnibus = Ruleset.objects.get(table=None, name="Omnibus")
    finished = game_start(table=table, players=players, ruleset=omnibus, first_dealer=0, by=user)
    for points in DEALS * 4:
        if finished.is_finished:
            break
        deal_record(game=finished, entry=engine.PointsEntry(points), by=user)
        finished.refresh_from_db()
    # Four more games of five: those five are ranked on the ladder, the other two not yet.
    five = [(-10, 13, 10, 7, 13), (13, 13, -10, 10, 7), (7, 10, 13, -10, 13)]
    for round_ in range(4):
        more = game_start(
            table=table, players=players[:5], ruleset=omnibus, first_dealer=0, by=user
        )
        while not more.is_finished:
            deal_record(game=more, entry=engine.PointsEntry(five[round_ % 3]), by=user)
            more.refresh_from_db()
    game = game_start(table=table, players=players[::-1], ruleset=omnibus, first_dealer=2, by=user)
    for points in DEALS:
        deal_record(game=game, entry=engine.PointsEntry(points), by=user)
    # A club night of the seven, its first round under way.
    evening = evening_start(
        table=table,
        name="Klubbkveld på Grünerløkka, fredag 4. desember",
        day=date(2026, 12, 4),
        scoring="share",
        ruleset=omnibus,
        players=players,
    )
    evening_draw(evening=evening, sizes=(4, 3))
    round_start(evening=evening, number=1, by=user)
    four = max(evening.games.all(), key=lambda g: g.seats.count())
    deal_record(game=four, entry=engine.PointsEntry((-10, 20, 13, 10)), by=user)
    watch_link_replace(evening)
    # And one just started: its players' chances before the first deal.
    game_start(table=table, players=players, ruleset=omnibus, first_dealer=3, by=user)
    return user, table, game, finished
