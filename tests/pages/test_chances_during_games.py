"""Chances from here on the pages: the line under the totals, the finished game's chart,
the result picture's comeback, the big screen, and how good they have been."""

from __future__ import annotations

import re

import pytest
from django.core.cache import caches
from django.urls import reverse

from games import engine
from games.formats.writing import export_json
from games.models import Game, Table
from games.pages import chances as during
from games.services.deals import deal_delete, deal_edit, deal_record
from games.services.games import game_delete, game_start
from games.services.imports import import_history
from tests.factories import builtin

# Hearts only to 50: Alice takes little, Ben more, Cara most, with the odd upset.
DEALS = [(0, 13, 13), (2, 6, 18), (13, 0, 13), (1, 12, 13), (4, 4, 18), (0, 13, 13), (3, 5, 18)]


def play(table, players, shift: int = 0) -> Game:
    game = game_start(table=table, players=players, ruleset=builtin("Hearts only"), first_dealer=0)
    number = shift
    while not Game.objects.get(pk=game.pk).is_finished:
        deal_record(game=game, entry=engine.PointsEntry(DEALS[number % len(DEALS)]), by=None)
        number += 1
    return Game.objects.get(pk=game.pk)


def text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def shown_chances(html: str) -> list[str]:
    """The chance in each player's box, in seat order: "62%", "under 1%"."""
    found = re.findall(
        r'id="chance-(\d)"><span class="sr-only">Chance of winning from here: ([^<]+)</span>',
        html,
    )
    return [said for _, said in sorted(found)]


def counted(monkeypatch, name: str) -> list:
    """Each call of the chances' function ``name`` from now on, made as before."""
    calls = []
    real = getattr(during.maths, name)
    monkeypatch.setattr(
        during.maths, name, lambda *args, **kwargs: calls.append(args) or real(*args, **kwargs)
    )
    return calls


def fresh_said(table: Table) -> during.Said:
    caches["default"].clear()
    caches["local"].clear()
    return during.table_said(Table.objects.get(pk=table.pk))


def test_members_see_the_chances_from_here_beside_the_totals_and_the_watch_link_does_not(
    client, owner, table, players
):
    for shift in range(4):
        play(table, players, shift)
    game = game_start(table=table, players=players, ruleset=builtin("Hearts only"), first_dealer=0)
    deal_record(game=game, entry=engine.PointsEntry((0, 13, 13)), by=None)
    client.force_login(owner)
    html = client.get(game.get_absolute_url()).content.decode()
    alice, ben, cara = shown_chances(html)
    game = Game.objects.select_related("table").get(pk=game.pk)
    expected = during.chances_now(game, [p.pk for p in players], [0, 13, 13], 1)
    assert expected[0] > expected[1] and expected[0] > expected[2]  # 13 ahead, the better player
    assert [alice, ben, cara] == [during.percent_text(chance) for chance in expected]
    from games.services.sharing import watch_link_replace

    watched = client.get(reverse("watch_game", args=[watch_link_replace(game)]))
    assert "Chance of winning" not in watched.content.decode()
    # Norwegian too.
    nb = text(client.get(game.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="nb"))
    said = alice.replace("%", " %")
    assert f"Vinnersjanse herfra: {said}" in nb and f"{said} sjanse" in nb


def test_a_finished_game_draws_each_player_s_chance_over_its_deals_with_no_script(
    client, owner, table, players
):
    for shift in range(3):
        play(table, players, shift)
    game = play(table, players, 2)
    client.force_login(owner)
    html = client.get(game.get_absolute_url()).content.decode()
    chart = html[html.index("chance of winning, deal by deal") :]
    chart = chart[: chart.index("</figure>")]
    said = during.game_said(Game.objects.select_related("table").get(pk=game.pk))
    assert len(said) == game.deals.count() + 1 and said[-1] == [1.0, 0.0, 0.0]
    assert chart.count("<polyline") == 3 and "<script" not in chart
    assert (
        re.search(r'points="34(\.0)?,', chart) and "100%" in chart
    )  # coordinates and ticks, not localised
    # The owner turns the chances off: the chart goes.
    client.post(reverse("table_chances", args=[table.pk]), {"show": "0"})
    assert "deal by deal" not in client.get(game.get_absolute_url()).content.decode()


def test_the_result_picture_names_the_comeback(owner, table, players):
    """Cara trails 25 to 0 after deal 1, then Alice and Ben take everything."""
    from games.drawing.pictures import game_picture

    for shift in range(3):
        play(table, players, shift)
    game = game_start(table=table, players=players, ruleset=builtin("Hearts only"), first_dealer=0)
    for scores in [(0, 1, 25), (13, 13, 0), (13, 13, 0), (13, 13, 0), (13, 13, 0)]:
        deal_record(game=game, entry=engine.PointsEntry(scores), by=None)
    game = Game.objects.select_related("table").get(pk=game.pk)
    assert game.is_finished
    said = during.game_said(game)
    back = during.comeback(["Alice", "Ben", "Cara"], [2], said)
    assert back is not None and back.name == "Cara" and back.deal == 1
    assert back.percent == during.percents([said[1][2]])[0] < 33
    note = game_picture(game).picture().note
    assert note.startswith(f"Cara won from {back.said} after deal 1.")  # "under 1%"


def test_no_comeback_when_the_winner_was_never_behind():
    said = [[0.4, 0.3, 0.3], [0.6, 0.2, 0.2], [0.9, 0.05, 0.05], [1.0, 0.0, 0.0]]
    assert during.comeback(["Åse", "Bjørn", "Kåre"], [0], said) is None
    # Shared last place under an even share counts; the lowest moment is named.
    said = [[0.4, 0.3, 0.3], [0.2, 0.2, 0.6], [0.09, 0.6, 0.31], [1.0, 0.0, 0.0]]
    back = during.comeback(["Åse", "Bjørn", "Kåre"], [0], said)
    assert (back.name, back.percent, back.deal) == ("Åse", 9, 2)


def test_the_big_screen_shows_the_chances_from_here_of_games_under_way(
    client, owner, table, players
):
    from games.pages.clubnight import board_context

    for shift in range(3):
        play(table, players, shift)
    night = table.evenings.create(name="Friday", date="2026-12-04")
    game = game_start(table=table, players=players, ruleset=builtin("Hearts only"), first_dealer=0)
    Game.objects.filter(pk=game.pk).update(evening=night, round=1)
    deal_record(game=game, entry=engine.PointsEntry((13, 0, 13)), by=None)
    board = board_context(night, readonly=True)
    ((shown, lines),) = [g for _, round_ in board["rounds"] for g in round_]
    game = Game.objects.select_related("table").get(pk=game.pk)
    said = during.chances_now(game, [p.pk for p in players], [13, 0, 13], 1)
    expected = dict(zip(["Alice", "Ben", "Cara"], map(during.percent_text, said), strict=True))
    assert shown.pk == game.pk
    # By total, the leader first, each beside their own chance.
    assert [(line.name, line.total) for line in lines] == [("Ben", 0), ("Alice", 13), ("Cara", 13)]
    assert {line.name: line.chance for line in lines} == expected


def test_how_good_the_chances_during_games_have_been_is_said_on_the_statistics(
    client, owner, table, players
):
    for shift in range(6):
        play(table, players, shift)
    client.force_login(owner)
    page = text(client.get(reverse("table_stats", args=[table.pk])))
    said = fresh_said(table).brier
    assert said.deals > 10
    shown = re.search(r"The chances during games, after (\d+) deals, have (not yet )?been", page)
    assert shown and int(shown.group(1)) == said.deals
    assert f"{said.chances:.2f} against {said.leader:.2f}, and {said.equal:.2f}" in page


@pytest.mark.django_db(transaction=False)
def test_the_calibration_after_an_edit_a_deleted_game_and_a_restore_equals_one_from_scratch(
    owner, table, players, django_user_model
):
    games = [play(table, players, shift) for shift in range(5)]
    first = during.table_said(Table.objects.get(pk=table.pk))  # kept
    assert first == fresh_said(table)

    # An edit of a past deal of a finished game: the kept answer is not the one read.
    deal = games[1].deals.get(number=2)
    deal_edit(deal=deal, entry=engine.PointsEntry((6, 6, 14)), by=None, version=deal.version)
    edited = during.table_said(Table.objects.get(pk=table.pk))
    assert edited != first and edited == fresh_said(table)

    game_delete(game=Game.objects.get(pk=games[0].pk))
    deleted = during.table_said(Table.objects.get(pk=table.pk))
    assert deleted == fresh_said(table) and len(deleted.by_game) == 4

    # A restore into a new table: the same chances, game by game, and the same score.
    other = django_user_model.objects.create_user("bjorn", password="x")
    restored = import_history(export_json(table.games.all()), owner=other)
    copy = restored[0].table
    assert copy.pk != table.pk
    again = during.table_said(Table.objects.get(pk=copy.pk))
    assert again.brier == deleted.brier
    assert list(again.by_game.values()) == list(deleted.by_game.values())
    # A deal deleted from a game under way changes no finished game: the same answer.
    game = game_start(table=table, players=players, ruleset=builtin("Hearts only"), first_dealer=0)
    deal_record(game=game, entry=engine.PointsEntry((0, 13, 13)), by=None)
    deal_delete(deal=game.deals.get(), by=None)
    assert during.table_said(Table.objects.get(pk=table.pk)) == deleted


def test_a_watch_link_s_poll_never_works_out_the_chances(client, table, players, monkeypatch):
    from games.services.sharing import watch_link_replace

    for shift in range(2):
        play(table, players, shift)
    game = game_start(table=table, players=players, ruleset=builtin("Hearts only"), first_dealer=0)
    deal_record(game=game, entry=engine.PointsEntry((0, 13, 13)), by=None)
    token = watch_link_replace(game)

    def worked_out(*args, **kwargs):
        raise AssertionError("the chances were worked out for a watch link")

    monkeypatch.setattr(during.maths, "chances_from_here", worked_out)
    assert client.get(reverse("watch_game", args=[token])).status_code == 200
    assert client.get(reverse("watch_game_live", args=[token])).status_code == 200
    deal_record(game=game, entry=engine.PointsEntry((13, 0, 13)), by=None)
    assert client.get(reverse("watch_game_live", args=[token])).status_code == 200


def test_a_finished_game_s_chart_follows_an_edit_of_a_game_before_it(client, owner, table, players):
    """Its chances come from the games that finished before it: one of them edited,
    the kept page of the later game is made again."""
    earlier = [play(table, players, shift) for shift in range(3)]
    game = play(table, players, 4)
    client.force_login(owner)

    def chart() -> str:
        html = client.get(game.get_absolute_url()).content.decode()
        start = html.index("chance of winning, deal by deal")
        return html[start : html.index("</figure>", start)]

    before = chart()
    deal = earlier[0].deals.get(number=1)
    deal_edit(deal=deal, entry=engine.PointsEntry((13, 0, 13)), by=None, version=deal.version)
    after = chart()
    assert after != before
    caches["local"].clear()
    caches["default"].clear()
    assert chart() == after  # the same as worked out from scratch


def test_a_save_s_answer_leaves_the_chances_to_the_poll_that_follows_it(
    client, owner, table, players, monkeypatch
):
    """The phone waits for a save's answer: the chances shown stay (htmx keeps them),
    and the members' poll that the save sets off works out the new ones."""
    for shift in range(2):
        play(table, players, shift)
    game = game_start(table=table, players=players, ruleset=builtin("Hearts only"), first_dealer=0)
    deal_record(game=game, entry=engine.PointsEntry((0, 13, 13)), by=None)
    client.force_login(owner)
    worked_out = counted(monkeypatch, "chances_from_here")
    fields = {"mode": "points", "number": "2", "key": "k2"}
    fields.update({"points-0": "13", "points-1": "0", "points-2": "13"})
    saved = client.post(reverse("deal_new", args=[game.pk]), fields, HTTP_HX_REQUEST="true")
    html = saved.content.decode()
    assert saved.status_code == 200 and worked_out == []
    for seat in range(3):
        assert f'<span class="chance" id="chance-{seat}" hx-preserve="true"></span>' in html
    polled = client.get(reverse("game_live", args=[game.pk]), HTTP_HX_REQUEST="true")
    assert len(shown_chances(polled.content.decode())) == 3 and len(worked_out) == 1
    client.get(game.get_absolute_url())  # the page of that version: kept, not worked out again
    assert len(worked_out) == 1


def test_a_game_finished_since_is_the_only_one_worked_out_again(table, players, monkeypatch):
    for shift in range(4):
        play(table, players, shift)
    during.table_said(Table.objects.get(pk=table.pk))
    worked_out = counted(monkeypatch, "game_chances")
    play(table, players, 5)
    kept = during.table_said(Table.objects.get(pk=table.pk))
    assert len(worked_out) == 1 and len(kept.by_game) == 5
    assert kept == fresh_said(table) and len(worked_out) == 6


def test_a_new_process_takes_the_fresh_deals_another_made(table, players, monkeypatch):
    """Making the fresh deals is most of a process's first chances: made once, shared."""
    game = game_start(table=table, players=players, ruleset=builtin("Hearts only"), first_dealer=0)
    deal_record(game=game, entry=engine.PointsEntry((0, 13, 13)), by=None)
    game = Game.objects.select_related("table").get(pk=game.pk)
    seated = [p.pk for p in players]
    caches["default"].clear()
    caches["local"].clear()
    first = during.chances_now(game, seated, [0, 13, 13], 1)
    made = counted(monkeypatch, "fresh_deals")
    caches["local"].clear()  # as in another process, which has made nothing yet
    model = during.model_for(game.table, game.get_rules(), 3)
    assert made == [] and (model.fresh == during.maths.fresh_deals(game.get_rules(), 3)).all()
    assert during.chances_now(game, seated, [0, 13, 13], 1) == first
