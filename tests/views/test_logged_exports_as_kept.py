"""BG Stats and BoardGameGeek logs as clubs keep them: scores typed as sums,
Hearts, Omnibus and Black Maria in one file, unnamed seats, files cut short,
plays logged twice, and the same export (or a newer one) brought in again."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from games.models import Game, Player, Ruleset, Seat, Standing, Table
from games.services.ladder import rerate

PEOPLE = {1: "Åse", 2: "Bjørn", 3: "Kåre", 4: "Dagny", 9: "Anonymous player"}
GAMES = {
    1: {"name": "Hearts", "bggId": 6887},
    2: {"name": "Omnibus Hearts", "bggId": 0},
    3: {"name": "Svarte Maria", "bggId": 0},
}


def play(uuid: int, game: int, day: str, scores: list[tuple[int, str, bool]]) -> dict:
    """A play as BG Stats writes it: string scores, seat order 0 when not kept."""
    return {
        "uuid": f"5a1b2c3d-0000-4000-8000-{uuid:012d}",
        "gameRefId": game,
        "playDate": f"{day} 20:30:00",
        "ignored": False,
        "playerScores": [
            {"playerRefId": who, "score": score, "winner": won, "seatOrder": 0}
            for who, score, won in scores
        ],
    }


def export(*plays: dict) -> bytes:
    return json.dumps(
        {
            "players": [
                {"id": pk, "name": name, "isAnonymous": pk == 9} for pk, name in PEOPLE.items()
            ],
            "games": [{"id": pk, "highestWins": False, **game} for pk, game in GAMES.items()],
            "plays": list(plays),
        },
        ensure_ascii=False,
    ).encode()


SUMMED = play(
    1, 1, "2024-02-23", [(1, "5+9+12", False), (2, "24-12+4", True), (3, "-10+7+22", False)]
)
OMNIBUS = play(
    2, 2, "2024-03-01", [(1, "40", False), (2, "-7", True), (3, "10", False), (4, "0", False)]
)
MARIA = play(3, 3, "2024-03-08", [(2, "43", False), (3, "30", False), (4, "12", True)])
# BG Stats flags Åse, but Kåre has the lowest total.
DISAGREES = play(4, 3, "2024-03-15", [(1, "20", True), (2, "40", False), (3, "15", False)])
TWO_UNNAMED = play(5, 1, "2024-03-22", [(1, "10", True), (9, "12", False), (9, "14", False)])
NEWER = play(6, 2, "2024-04-05", [(1, "12", True), (3, "30", False), (4, "22", False)])


def upload(raw: bytes, name: str = "BGStatsExport.json") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, raw, "application/octet-stream")


def text(response) -> str:
    return html.unescape(re.sub(r"\s+", " ", response.content.decode()))


@pytest.fixture
def signed_in(client, owner):
    client.force_login(owner)
    return client


def show(client, table, raw: bytes):
    page = client.post(reverse("table_import", args=[table.pk]), {"file": upload(raw)})
    body = page.content.decode()
    token = re.search(r'name="upload" value="([A-Za-z0-9_-]+)"', body).group(1)
    ticked = re.findall(r'name="games" value="([^"]+)"[^>]*checked', body)
    rules = dict(
        re.findall(r'name="(rules_\d+)"[^>]*>.*?<option value="(\d+)"[^>]*selected', body, re.S)
    )
    return page, {"upload": token, "games": ticked, "shown": ticked, **rules}


def step(client, table, sent: dict, how: str = "import", **more):
    return client.post(reverse("table_import", args=[table.pk]), {**sent, "step": how, **more})


def builtin(name: str) -> Ruleset:
    return Ruleset.objects.get(table=None, name=name)


def test_a_club_export_comes_in_whole_each_game_under_its_own_rules(signed_in, table):
    raw = export(SUMMED, OMNIBUS, MARIA, DISAGREES)
    page, sent = show(signed_in, table, raw)
    said = text(page)
    assert page.status_code == 200
    assert sent["games"] == ["1", "2", "3"]
    # Each game's rules, as its name says, to be changed on the page.
    assert sent["rules_0"] == str(builtin("Hearts only").pk)
    assert sent["rules_1"] == str(builtin("Omnibus").pk)
    assert sent["rules_2"] == str(builtin("Black Maria").pk)
    assert "Åse, Bjørn, Kåre</strong> · 23 Feb 2024 · Hearts only · result only" in said
    assert "Åse 26, Bjørn 16, Kåre 19" in said  # the sums, as BG Stats shows them
    assert "Omnibus · result only" in said and "Black Maria · result only" in said
    assert "BG Stats: Åse won. By the totals: Kåre." in said
    step(signed_in, table, sent, "totals")
    games = {g.started_at.date().isoformat(): g for g in table.games.all()}
    assert games["2024-02-23"].rules["name"] == "Hearts only"
    assert games["2024-03-01"].rules["name"] == "Omnibus"
    assert games["2024-03-08"].rules["name"] == "Black Maria"
    winners = Seat.objects.filter(game=games["2024-03-15"], is_winner=True)
    assert [s.player.name for s in winners] == ["Kåre"]


def test_the_rules_of_a_game_are_changed_before_it_comes_in(signed_in, table):
    _page, sent = show(signed_in, table, export(SUMMED, MARIA))
    spot = builtin("Spot hearts")
    step(signed_in, table, {**sent, "rules_0": str(spot.pk)})
    game = table.games.get(started_at__date="2024-02-23")
    assert game.rules["name"] == spot.name == "Spot hearts"


def test_a_table_s_own_black_maria_is_the_one_its_plays_get(signed_in, table):
    own = Ruleset.objects.create(
        **{
            f.name: getattr(builtin("Black Maria"), f.name)
            for f in Ruleset._meta.concrete_fields
            if f.name not in {"id", "table"}
        },
        table=table,
    )
    _page, sent = show(signed_in, table, export(MARIA))
    assert sent["rules_2"] == str(own.pk)


def test_a_rules_choice_from_another_table_is_refused(signed_in, table, outsider):
    theirs = Table.objects.create(name="Theirs", owner=outsider)
    other = Ruleset.objects.create(name="Theirs", table=theirs)
    page, sent = show(signed_in, table, export(SUMMED))
    page = step(signed_in, table, {**sent, "rules_0": str(other.pk)})
    assert page.status_code == 422
    assert "Select a valid choice" in text(page)
    assert not table.games.exists()


def test_the_same_export_twice_and_a_newer_one_add_only_what_is_new(signed_in, table):
    page, sent = show(signed_in, table, export(SUMMED, OMNIBUS, DISAGREES))
    step(signed_in, table, sent, "totals")
    assert table.games.count() == 3
    # The same file again: everything is here, nothing is asked.
    page, sent = show(signed_in, table, export(SUMMED, OMNIBUS, DISAGREES))
    said = text(page)
    assert "3 games of the file are at this table already" in said
    assert "names another winner" not in said  # asked once, answered by the totals
    # A newer export: the new play comes in, under its game's rules, nothing doubled.
    page, sent = show(signed_in, table, export(SUMMED, OMNIBUS, DISAGREES, NEWER))
    assert "names another winner" not in text(page)
    step(signed_in, table, sent)
    assert table.games.count() == 4
    newer = table.games.get(started_at__date="2024-04-05")
    assert newer.rules["name"] == "Omnibus"


def test_plays_with_unnamed_seats_are_left_out_and_counted(signed_in, table):
    page, sent = show(signed_in, table, export(SUMMED, TWO_UNNAMED))
    said = text(page)
    assert page.status_code == 200
    assert "1 play with unnamed players is left out: name them in BG Stats to bring it in." in said
    assert "same player written two ways" not in said
    step(signed_in, table, sent)
    assert table.games.count() == 1


def test_unnamed_seats_brought_in_are_kept_apart_and_off_the_ladder(signed_in, table):
    page, sent = show(signed_in, table, export(SUMMED, TWO_UNNAMED))
    page = step(signed_in, table, sent, "show", unnamed="on")
    said = text(page)
    assert "Åse, Unnamed 1, Unnamed 2" in said
    step(signed_in, table, sent, unnamed="on")
    assert table.games.count() == 2
    unnamed = Player.objects.filter(table=table, unnamed=True)
    assert sorted(p.name for p in unnamed) == ["Unnamed 1", "Unnamed 2"]
    rerate(table)
    assert not Standing.objects.filter(player__unnamed=True).exists()
    assert Standing.objects.filter(player__table=table).count() == 3


def test_a_summed_score_that_is_not_a_sum_is_refused_naming_the_play(signed_in, table):
    bad = play(7, 1, "2024-02-23", [(1, "5+x", True), (2, "3", False), (3, "4", False)])
    page, _sent = show(signed_in, table, export(bad))
    said = text(page)
    assert page.status_code == 422
    assert "The play of 23 Feb 2024 (Hearts: Åse, Bjørn, Kåre): the score '5+x'" in said
    assert "Play 1" not in said


def test_a_bg_stats_export_cut_short_says_so(signed_in, table):
    raw = export(SUMMED, OMNIBUS)
    page = signed_in.post(reverse("table_import", args=[table.pk]), {"file": upload(raw[:-40])})
    said = text(page)
    assert page.status_code == 422
    assert "This BG Stats export breaks off at line 1" in said
    assert "not JSON text" not in said


@pytest.mark.parametrize("raw", [b"", b"  \n\t\n"])
def test_an_empty_file_is_said_to_be_empty(signed_in, table, raw):
    page = signed_in.post(reverse("table_import", args=[table.pk]), {"file": upload(raw)})
    said = text(page)
    assert page.status_code == 422
    assert "The file is empty." in said
    assert "Choose a file" not in said


def test_a_boardgamegeek_play_logged_as_two_comes_in_once_and_says_so(signed_in, table):
    raw = (
        '<plays username="ann" total="1"><play id="77" date="2024-05-02" quantity="2">'
        '<item name="Black Maria" objectid="0"/><players>'
        '<player name="Åse" score="10" win="1"/><player name="Bjørn" score="13" win="0"/>'
        '<player name="Kåre" score="20" win="0"/></players></play></plays>'
    ).encode()
    page, sent = show(signed_in, table, raw)
    said = text(page)
    assert "2 May 2024, Black Maria: logged as 2 plays; brought in once." in said
    step(signed_in, table, sent)
    assert Game.objects.filter(table=table).count() == 1
