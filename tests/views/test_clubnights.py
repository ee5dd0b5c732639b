"""Club nights: an evening's people split into games, round after round, with standings."""

from __future__ import annotations

import csv
import io
import itertools
import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import engine
from games.engine import clubnight
from games.formats.writing import export_json, iter_csv
from games.models import Evening, Game, Player, Standing, Table
from games.pages import clubnight as night
from games.selectors import clubnights as clubnights_read
from games.services.deals import deal_record
from games.services.imports import import_history
from tests.factories import builtin

NAMES = ["Ingeborg", "Marianne", "Sverre", "Kari", "Ola", "Nils", "Astrid"]


@pytest.fixture
def seven(table):
    return [Player.objects.create(table=table, name=n) for n in NAMES]


def start(client, table, people, *, key="k1", scoring="places", ruleset="Black Maria"):
    return client.post(
        reverse("evening_new", args=[table.pk]),
        {
            "name": "Friday club night",
            "players": [p.pk for p in people],
            "ruleset": builtin(ruleset).pk,
            "scoring": scoring,
            "key": key,
        },
    )


@pytest.fixture
def evening(client, member, table, seven) -> Evening:
    client.force_login(member)
    response = start(client, table, seven)
    evening = Evening.objects.get()
    assert response.status_code == 302 and response.url == evening.get_absolute_url()
    return evening


def start_round(client, evening, number):
    return client.post(reverse("evening_round", args=[evening.pk]), {"round": number})


def finish(game, loser: int = 0) -> None:
    """Three deals of all 43 points to one seat: past 100, the game is over."""
    seats = game.seats.count()
    for _ in range(3):
        points = tuple(43 if i == loser else 0 for i in range(seats))
        deal_record(game=game, entry=engine.PointsEntry(points), by=None)


def test_a_member_starts_an_evening_and_seven_are_drawn_four_and_three(client, evening, seven):
    assert sorted(len(g) for g in evening.proposal) == [3, 4]
    assert sorted(pk for g in evening.proposal for pk in g) == sorted(p.pk for p in seven)
    page = client.get(evening.get_absolute_url()).content.decode()
    assert "Round 1, as drawn" in page and "Start round 1" in page
    assert "2 games: 4 + 3" in page and "1 game of 7" in page


def test_the_same_form_sent_twice_starts_one_evening(client, evening, table, seven):
    response = start(client, table, seven)
    assert response.url == evening.get_absolute_url()
    assert Evening.objects.count() == 1


def test_too_few_people_or_too_many_for_the_rules_are_refused_with_the_reason(
    client, member, table, seven
):
    client.force_login(member)
    response = start(client, table, seven[:2])
    assert response.status_code == 422
    assert "A club night needs at least 3 people: 2 are here." in response.content.decode()
    assert not Evening.objects.exists()


def test_starting_a_round_starts_its_games_as_drawn_and_only_once(client, evening):
    drawn = evening.proposal
    assert start_round(client, evening, 1).status_code == 302
    assert start_round(client, evening, 1).status_code == 302  # a second tap
    games = list(evening.games.order_by("pk"))
    assert len(games) == 2 and {g.round for g in games} == {1}
    assert [[s.player_id for s in g.seats.order_by("number")] for g in games] == drawn
    evening.refresh_from_db()
    assert evening.proposal is None
    # Ordinary games: their pages, for the table's members.
    assert client.get(games[0].get_absolute_url()).status_code == 200


def test_the_standings_follow_every_deal(client, evening):
    start_round(client, evening, 1)
    four, three = sorted(evening.games.all(), key=lambda g: -g.seats.count())
    deal_record(game=four, entry=engine.PointsEntry((13, 10, 20, 0)), by=None)
    page = client.get(evening.get_absolute_url()).content.decode()
    lines = night.standings(evening, clubnights_read.rounds(evening))
    seat = [s.player.name for s in four.seats.order_by("number")]
    assert [(line.name, line.score) for line in lines[:4]] == [
        (seat[3], "3"),
        (seat[1], "2"),
        (seat[0], "1"),
        (seat[2], "0"),
    ]
    # The three yet to deal share the last place, with no figure yet.
    assert {(line.place, line.score) for line in lines[4:]} == {(5, "")}
    assert re.search(
        rf'standing-name">{seat[3]}</span></span>\s*<span[^>]*>'
        r'<strong class="[^"]*standing-score">3<',
        page,
    )
    deal_record(game=three, entry=engine.PointsEntry((43, 0, 0)), by=None)
    lines = night.standings(evening, clubnights_read.rounds(evening))
    assert [line.score for line in lines if line.name == three.seats.get(number=0).player.name] == [
        "0"
    ]
    assert {line.score for line in lines if line.games} == {"3", "2", "1", "0", "1½"}


def test_by_share_the_standings_say_per_cent_of_an_even_share(client, member, table, seven):
    client.force_login(member)
    start(client, table, seven, scoring="share")
    evening = Evening.objects.get()
    start_round(client, evening, 1)
    three = next(g for g in evening.games.all() if g.seats.count() == 3)
    deal_record(game=three, entry=engine.PointsEntry((43, 0, 0)), by=None)
    page = client.get(evening.get_absolute_url()).content.decode()
    assert "300%" in page and "0%" in page  # all 43 against an even 43/3


def test_the_next_round_is_drawn_once_the_round_is_over_among_new_neighbours(client, evening):
    start_round(client, evening, 1)
    page = client.get(evening.get_absolute_url()).content.decode()
    assert "Draw round 2" not in page  # its games go on
    for game in evening.games.all():
        finish(game)
    page = client.get(evening.get_absolute_url()).content.decode()
    assert "Round 1 is over." in page and "Draw round 2" in page
    assert client.post(reverse("evening_draw", args=[evening.pk])).status_code == 302
    evening.refresh_from_db()
    first = [[s.player_id for s in g.seats.order_by("number")] for g in evening.games.all()]
    people = [pk for game in first for pk in game]
    sizes = tuple(len(g) for g in evening.proposal)
    fewest = min(
        clubnight.repeated_neighbours(clubnight._cut(order, sizes), [first])
        for order in itertools.permutations(people)
    )
    assert clubnight.repeated_neighbours(evening.proposal, [first]) == fewest
    start_round(client, evening, 2)
    assert sorted(evening.games.values_list("round", flat=True)) == [1, 1, 2, 2]


def test_the_split_can_be_chosen_and_the_seats_drawn_again(client, evening):
    url = reverse("evening_draw", args=[evening.pk])
    assert client.post(url, {"sizes": "7"}).status_code == 302
    evening.refresh_from_db()
    assert [len(g) for g in evening.proposal] == [7]
    assert client.post(url, {"sizes": "5+2"}).status_code == 400  # not a split offered
    evening.refresh_from_db()
    assert [len(g) for g in evening.proposal] == [7]


def test_someone_who_comes_late_is_in_the_next_draw(client, evening, table, seven):
    late = Player.objects.create(table=table, name="Bjørn")
    url = reverse("evening_present", args=[evening.pk])
    response = client.post(url, {"players": [p.pk for p in seven] + [late.pk]}, follow=True)
    assert "Who is here is saved" in response.content.decode()
    evening.refresh_from_db()
    assert late.pk in [pk for g in evening.proposal for pk in g]
    assert sorted(len(g) for g in evening.proposal) == [4, 4]
    response = client.post(url, {"players": [seven[0].pk]}, follow=True)
    assert "needs at least 3 people" in response.content.decode()
    assert evening.present.count() == 8


def test_the_big_screen_follows_the_evening_with_no_controls(client, evening):
    start_round(client, evening, 1)
    client.post(reverse("evening_watch_link", args=[evening.pk]))
    evening.refresh_from_db()
    client.logout()
    page = client.get(reverse("watch_evening", args=[evening.watch_token])).content.decode()
    assert 'class="big-screen tv-page"' in page and "Standings" in page
    # Nobody is rated yet: even chances say nothing, so none are shown.
    assert "Chances:" not in re.sub(r"<[^>]+>", "", page)
    assert "<form" not in page and "<button" not in page and 'class="topbar"' not in page
    client.force_login(evening.created_by)
    client.post(
        reverse("evening_present", args=[evening.pk]),
        {"players": list(evening.present.values_list("pk", flat=True))},
    )
    client.logout()
    # The coming round, drawn: the big screen says where to sit, with nothing to press.
    page = client.get(reverse("watch_evening", args=[evening.watch_token])).content.decode()
    assert "Round 2, as drawn" in page and "<form" not in page and "<button" not in page
    assert 'hx-trigger="every 400ms"' in page
    live = reverse("watch_evening_live", args=[evening.watch_token])
    first = client.get(live)
    assert first.status_code == 200
    again = client.get(live, headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 204
    game = evening.games.first()
    points = (43,) + (0,) * (game.seats.count() - 1)
    deal_record(game=game, entry=engine.PointsEntry(points), by=None)
    changed = client.get(live, headers={"If-None-Match": first["ETag"]})
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    token = evening.watch_token
    client.force_login(evening.created_by)
    client.post(reverse("evening_watch_link", args=[evening.pk]), {"action": "off"})
    assert client.get(reverse("watch_evening", args=[token])).status_code == 404


def test_the_evening_page_reads_as_many_queries_with_more_games(client, evening):
    start_round(client, evening, 1)
    with CaptureQueriesContext(connection) as one_round:
        client.get(evening.get_absolute_url())
    for game in evening.games.all():
        finish(game)
    client.post(reverse("evening_draw", args=[evening.pk]))
    start_round(client, evening, 2)
    with CaptureQueriesContext(connection) as two_rounds:
        client.get(evening.get_absolute_url())
    assert len(two_rounds) == len(one_round)


def test_the_table_page_lists_its_club_nights(client, evening, table):
    page = client.get(table.get_absolute_url()).content.decode()
    assert "Club nights" in page and evening.get_absolute_url() in page


# --- In the history file -------------------------------------------------------------


def test_each_game_carries_its_evening_and_round_and_import_brings_them_back(
    client, evening, owner, table
):
    start_round(client, evening, 1)
    for game in evening.games.all():
        finish(game)
    exported = export_json(table.games.all())
    played = [g for g in exported["games"] if "evening" in g]
    assert len(played) == 2
    assert {json.dumps(g["evening"], sort_keys=True) for g in played} == {
        json.dumps(
            {
                "key": f"evening-{evening.pk}",
                "name": "Friday club night",
                "date": evening.date.isoformat(),
                "scoring": "places",
            },
            sort_keys=True,
        )
    }
    assert {g["round"] for g in played} == {1}
    rows = list(csv.reader(io.StringIO("".join(iter_csv(table.games.all())))))
    assert rows[0][2:4] == ["evening", "round"]
    assert {tuple(row[2:4]) for row in rows[1:]} == {("Friday club night", "1")}
    other = Table.objects.create(name="Elsewhere", owner=owner)
    import_history(exported, owner=owner, table=other)
    copy = other.evenings.get()
    assert (copy.name, copy.date, copy.scoring) == (evening.name, evening.date, "places")
    assert copy.games.count() == 2 and set(copy.games.values_list("round", flat=True)) == {1}
    assert copy.present.count() == 7
    # Ratings are the games' own, worked out again, never read from the file.
    assert Standing.objects.filter(player__table=other).count() == 7


def test_a_file_with_a_wrong_evening_is_refused_whole(client, owner, table, players):
    game = {
        "table": "Friday club",
        "players": ["Alice", "Ben", "Cara"],
        "first_dealer": "Alice",
        "deals": [{"points": {"Alice": 17, "Ben": 13, "Cara": 13}}],
        "evening": {"name": "Friday", "date": "4 December"},
        "round": 1,
    }
    client.force_login(owner)
    upload = SimpleUploadedFile(
        "h.json", json.dumps({"format": "blackmaria-scores/1", "games": [game]}).encode()
    )
    response = client.post(reverse("table_import", args=[table.pk]), {"file": upload})
    assert "the evening&#x27;s date must be written like 2026-12-04" in response.content.decode()
    assert not Game.objects.exists() and not Evening.objects.exists()


def test_the_owner_deletes_an_evening_and_its_games_stay(client, evening, owner, member):
    start_round(client, evening, 1)
    url = reverse("evening_delete", args=[evening.pk])
    assert client.post(url).status_code == 403  # a member
    client.force_login(owner)
    assert "Delete the evening" in client.get(evening.get_absolute_url()).content.decode()
    assert client.post(url).status_code == 302
    assert not Evening.objects.exists()
    assert list(Game.objects.values_list("evening", "round")) == [(None, None)] * 2


def test_an_evening_game_leads_back_to_its_evening(client, evening):
    start_round(client, evening, 1)
    page = client.get(evening.games.first().get_absolute_url()).content.decode()
    assert f'href="{evening.get_absolute_url()}">The club night, round 1</a>' in page


def test_half_a_point_reads_as_a_half_not_nought_and_a_half():
    from games.models import Evening
    from games.pages.clubnight import _shown

    places = Evening.Scoring.PLACES
    assert [_shown(x, places) for x in (0, 0.5, 1, 3.5)] == ["0", "½", "1", "3½"]


def test_a_deal_saved_while_the_board_is_drawn_is_shown_by_the_next_poll(
    client, evening, monkeypatch
):
    """The board read the standings, then the version: a deal saved in between was
    counted in the version its poll sends back, but not shown, and every poll after
    was answered 204 (the big screen stuck on a round's old standings)."""
    from games.pages import clubnight as page

    start_round(client, evening, 1)
    four = max(evening.games.all(), key=lambda g: g.seats.count())
    standings = page.standings

    def then_a_deal_is_saved(*args):
        read = standings(*args)
        deal_record(game=four, entry=engine.PointsEntry((13, 10, 20, 0)), by=None)
        return read

    monkeypatch.setattr(page, "standings", then_a_deal_is_saved)
    evening.refresh_from_db()  # as the view reads it
    drawn = page.board_context(evening, readonly=False)
    monkeypatch.setattr(page, "standings", standings)
    assert all(line.score == "" for line in drawn["standings"])  # drawn before the deal
    poll = client.get(
        reverse("evening_live", args=[evening.pk]),
        HTTP_IF_NONE_MATCH=drawn["poll_etag"],
        HTTP_HX_REQUEST="true",
    )
    assert poll.status_code == 200  # not 204: the deal is shown
