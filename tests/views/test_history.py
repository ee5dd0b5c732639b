"""Looking back: the history list, notes, statistics, the score sheet."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import engine
from games.models import Game, Player, Table
from games.services.deals import deal_record
from games.services.games import game_start
from tests.factories import DEAL_1, DEAL_2, DEAL_3, builtin, make_games


def text(response) -> str:
    """The page on one line, without what lays a table out as cards on a phone."""
    page = re.sub(r"\s+", " ", response.content.decode())
    return re.sub(r' (?:role|data-label)="[^"]*"| class="rank"', "", page)


@pytest.fixture
def signed_in(client, owner):
    client.force_login(owner)
    return client


# --- History list ----------------------------------------------------------------------


@pytest.mark.parametrize("count", [2, 200])
def test_the_history_list_keeps_its_query_count(
    signed_in, table, players, count, django_assert_max_num_queries
):
    make_games(table, players, count, 3)
    with django_assert_max_num_queries(9):
        response = signed_in.get(reverse("table_history", args=[table.pk]))
    page = text(response)
    assert f"{count} games" in page
    assert page.count('class="card-link"') == min(count, 20)


def test_the_history_list_pages_and_searches_by_player(signed_in, table, players, owner):
    make_games(table, players, 25, 1)
    dan = Player.objects.create(table=table, name="Dan")
    game = game_start(
        table=table, players=[players[0], players[1], dan], ruleset=builtin("Black Maria")
    )
    page = text(signed_in.get(reverse("table_history", args=[table.pk]) + "?page=2"))
    assert "Page 2 of 2" in page
    page = text(signed_in.get(reverse("table_history", args=[table.pk]) + "?player=da"))
    assert "1 game with “da”" in page
    assert game.get_absolute_url() in page


def test_a_game_carries_a_note(signed_in, moon_game):
    signed_in.post(reverse("game_note", args=[moon_game.pk]), {"note": "Cara's birthday"})
    moon_game.refresh_from_db()
    assert moon_game.note == "Cara's birthday"
    page = text(signed_in.get(reverse("table_history", args=[moon_game.table_id])))
    assert "Cara&#x27;s birthday" in page


# --- Statistics ---------------------------------------------------------------------------


def finished_game(table, players, owner, deals, ruleset="Hearts only", first_dealer=0):
    game = game_start(
        table=table, players=players, ruleset=builtin(ruleset), first_dealer=first_dealer
    )
    for entry in deals:
        deal_record(game=game, entry=entry, by=owner)
    game.refresh_from_db()
    return game


def test_statistics_per_player(signed_in, table, players, owner):
    # Hearts only, to 50: Ben wins the first, Alice and Cara share the second.
    finished_game(table, players, owner, [
        engine.CardsEntry((("QS",), (), tuple(h + "H" for h in engine.RANKS))),  # 13 0 13
        engine.PointsEntry((0, 26, 0)),  # Ben shoots: 26 to the others -> 39 0 39
        engine.PointsEntry((13, 0, 13)),  # 52 0 52: ends
    ])  # fmt: skip
    finished_game(table, players, owner, [
        engine.PointsEntry((13, 13, 0)), engine.PointsEntry((0, 13, 13)),
        engine.PointsEntry((13, 13, 0)),
        engine.PointsEntry((13, 13, 13 - 13)),  # 39 52 13: ends, Cara wins
    ])  # fmt: skip
    page = text(signed_in.get(reverse("table_stats", args=[table.pk])))
    rows = re.findall(r'<tr> <td>(\d+)</td> <th scope="row">(\w+)</th> (.*?)</tr>', page)
    assert [(rank, name) for rank, name, _ in rows] == [("1", "Ben"), ("2", "Cara"), ("3", "Alice")]
    ben = dict((name, cells) for _, name, cells in rows)["Ben"]
    assert "<td>2</td> <td>1</td> <td>50%</td>" in ben
    assert "<td>0</td><td>0</td><td>0</td> <td>1</td>" in ben  # no Q♠ K♠ A♠ by cards; 1 moon


def test_statistics_count_spades_from_cards_and_counts_and_shared_wins(table, players, owner):
    from games.pages.stats import player_stats

    game = game_start(table=table, players=players, ruleset=builtin("Black Maria"), first_dealer=0)
    deal_record(game=game, entry=DEAL_1, by=owner)  # counts: Alice QS, Ben KS AS
    deal_record(game=game, entry=DEAL_3, by=owner)  # cards: Alice QS KS, Cara AS
    deal_record(game=game, entry=engine.PointsEntry((17, 13, 13)), by=owner)
    stats = {s.name: s for s in player_stats(Game.objects.all())}
    assert stats["Alice"].spades == {"QS": 2, "KS": 1, "AS": 0}
    assert stats["Ben"].spades == {"QS": 0, "KS": 1, "AS": 1}
    assert stats["Cara"].spades == {"QS": 0, "KS": 0, "AS": 1}
    assert stats["Alice"].spades_known == 2
    assert stats["Alice"].deals == 3
    assert stats["Alice"].average == f"{(17 + 28 + 17) / 3:.1f}"
    assert stats["Alice"].played == 0  # not finished


def test_a_shared_win_counts_for_each_winner_and_streaks_follow(table, players, owner):
    from games.models import Ruleset
    from games.pages.stats import player_stats

    one_deal = Ruleset.objects.create(table=table, name="One deal", target=None, deals=1)
    for points in ((13, 17, 13), (10, 20, 13), (17, 13, 13)):
        game = game_start(table=table, players=players, ruleset=one_deal, first_dealer=0)
        deal_record(game=game, entry=engine.PointsEntry(points), by=owner)
    stats = {s.name: s for s in player_stats(Game.objects.all())}
    assert (stats["Alice"].won, stats["Alice"].shared) == (2, 1)
    assert (stats["Cara"].won, stats["Cara"].shared) == (2, 2)
    assert (stats["Ben"].won, stats["Ben"].shared) == (1, 1)
    assert stats["Alice"].streak == "1 loss"
    assert stats["Cara"].streak == "1 win"  # shared the last one
    assert stats["Alice"].best == 10
    assert stats["Alice"].worst == 17


@pytest.mark.parametrize("count", [2, 200])
def test_statistics_keep_their_query_count(
    signed_in, table, players, count, django_assert_max_num_queries
):
    make_games(table, players, count, 5)
    # 9 for the figures, 7 for how good the table's chances have been: however many games.
    with django_assert_max_num_queries(16):
        response = signed_in.get(reverse("table_stats", args=[table.pk]))
    assert f"<td>{count}</td>" in text(response)


def test_statistics_filter_by_ruleset_and_dates(signed_in, table, players, owner):
    finished_game(
        table, players, owner, [engine.PointsEntry((0, 26, 0)), engine.PointsEntry((0, 26, 0))]
    )
    old = finished_game(table, players, owner, [engine.PointsEntry((13, 0, 13))] * 4)
    Game.objects.filter(pk=old.pk).update(started_at=timezone.now() - timedelta(days=400))
    url = reverse("table_stats", args=[table.pk])
    page = text(signed_in.get(url, {"ruleset": "Hearts only"}))
    assert '<th scope="row">Ben</th> <td>2</td>' in page
    start = (timezone.localdate() - timedelta(days=30)).isoformat()
    page = text(signed_in.get(url, {"start": start}))
    assert '<th scope="row">Ben</th> <td>1</td>' in page
    response = signed_in.get(url, {"ruleset": "Spot hearts"})  # never played here
    assert response.status_code == 422
    assert "Select a valid choice" in text(response)


def test_a_linked_player_sees_their_statistics_across_tables(client, owner, member, table, players):
    other = Table.objects.create(name="Cabin", owner=member)
    mine = [Player.objects.create(table=other, name=n) for n in ("Mo", "Ann", "Kit")]
    mine[0].user = member
    mine[0].save()
    players[1].user = member
    players[1].save()
    finished_game(
        table, players, owner, [engine.PointsEntry((0, 26, 0)), engine.PointsEntry((0, 26, 0))]
    )
    finished_game(
        other, mine, member, [engine.PointsEntry((26, 0, 0)), engine.PointsEntry((26, 0, 0))]
    )
    client.force_login(member)
    page = text(client.get(reverse("my_stats")))
    assert '<th scope="row">mo</th> <td>2</td> <td>2</td> <td>100%</td>' in page


# --- The score sheet ------------------------------------------------------------------------


def test_the_score_sheet_has_rules_players_deals_totals_and_winner(
    signed_in, table, players, owner
):
    game = finished_game(
        table,
        players,
        owner,
        [DEAL_1, DEAL_2, DEAL_3, engine.PointsEntry((0, 0, 43))],
        ruleset="Black Maria, moon to the others",
    )
    page = text(signed_in.get(reverse("game_print", args=[game.pk])))
    assert "css/print.css" in page
    assert "Hearts 1 each, Q♠ 13, K♠ 10, A♠ 7: 43 a deal." in page
    assert "Moon: the others add 43." in page
    assert page.count('<tr> <th scope="row">') == 4  # a row a deal
    assert "Winner: Cara." in page
