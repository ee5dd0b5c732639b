"""The plays logged in BG Stats and on BoardGameGeek, read as result-only games.

The two files in ``files/`` are written by hand from the formats' public
descriptions, shaped like real exports: several games, plays of other games,
plays without scores, a tie, seat orders, dates with and without times.
"""

from __future__ import annotations

import copy
import json
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.formats.logged import chosen, logged_history, read_logged
from games.formats.reading import ImportRefused, parse_history
from games.formats.writing import export_json
from games.models import Game, Player
from games.pages.ladder import ladder
from games.services.imports import import_history

FILES = Path(__file__).parent / "files"
BG_STATS = (FILES / "bgstats.json").read_bytes()
BGG = (FILES / "bgg.xml").read_bytes()


def bg_stats(change=None) -> bytes:
    data = json.loads(BG_STATS)
    if change:
        change(data)
    return json.dumps(data, ensure_ascii=False).encode()


def bring_in(raw: bytes, owner, table, ticks=None, disagreeing="totals"):
    logged = read_logged(raw)
    picked = chosen(logged, logged.suggested() if ticks is None else ticks)
    data = logged_history(picked, table=table.name, disagreeing=disagreeing)
    return import_history(data, owner=owner, table=table)


def seats(game: Game) -> list[tuple[str, int]]:
    return [
        (s.player.name, s.total) for s in game.seats.select_related("player").order_by("number")
    ]


def test_a_bg_stats_export_lists_its_games_and_ticks_ours():
    logged = read_logged(BG_STATS)
    assert logged.source == "BG Stats"
    games = [(g.name, g.bgg_id, g.scored, g.ours) for g in logged.games]
    assert games == [
        ("Hearts", 6887, 4, True),  # by BoardGameGeek's id, and by name
        ("Ticket to Ride", 9209, 1, False),
        ("Svarte Maria", None, 1, True),  # by its Norwegian name; no BoardGameGeek id
    ]


def test_the_ticked_games_plays_come_in_seat_order_with_the_lowest_total_winning():
    logged = read_logged(BG_STATS)
    picked = chosen(logged, logged.suggested())
    assert [p.day.isoformat() for p in picked.plays] == [
        "2024-03-15",
        "2024-03-22",
        "2024-04-05",
        "2024-04-12",
    ]
    first = picked.plays[0]
    # Listed Bjørn, Åse, Kåre; seated Åse (0), Bjørn (1), Kåre (2); Åse started.
    assert [(s.name, s.total) for s in first.seats] == [("Åse", 12), ("Bjørn", 31), ("Kåre", 57)]
    assert first.first == "Åse"
    tie = picked.plays[1]
    assert tie.winners == ["Bjørn", "Kåre"] and not tie.disagrees  # the file flags both
    # Skipped and counted: a play without scores; a play for two.
    assert (picked.unscored, picked.unfit) == (1, 1)
    # Kåre "won" at 56 against Bjørn's 30: the file disagrees with the totals.
    assert [p.number for p in picked.disagreeing] == [6]


def test_a_boardgamegeek_play_log_reads_the_same_way():
    logged = read_logged(BGG)
    assert logged.source == "BoardGameGeek"
    assert [(g.ref, g.name, g.scored, g.ours) for g in logged.games] == [
        ("6887", "Hearts", 2, True),
        ("822", "Carcassonne", 1, False),
        ("name-Black Maria", "Black Maria", 1, True),  # a game BoardGameGeek does not list
    ]
    picked = chosen(logged, logged.suggested())
    first = picked.plays[0]
    # Start positions 2, 1, 3: Bjørn sat first and started.
    assert [(s.name, s.total, s.won) for s in first.seats] == [
        ("Bjørn", 33, False),
        ("Åse", 14, True),
        ("Kåre", 56, False),
    ]
    assert first.first == "Bjørn" and first.key == "bgg-81234501"
    assert picked.unscored == 1  # the play marked incomplete, with a score missing
    assert not picked.disagreeing


def test_plays_become_result_only_games_matched_to_the_table_s_players(owner, table):
    Player.objects.create(table=table, name="ÅSE")  # already here, written another way
    made = bring_in(BG_STATS, owner, table)
    assert len(made) == 4
    assert Game.objects.filter(result_only=True).count() == 4
    assert sorted(table.players.values_list("name", flat=True)) == ["Bjørn", "Kåre", "Sølvi", "ÅSE"]
    first = table.games.order_by("finished_at").first()
    assert seats(first) == [("ÅSE", 12), ("Bjørn", 31), ("Kåre", 57)]
    # A play with a time is at that time; one logged by its day alone, that evening.
    times = [g.finished_at.isoformat() for g in table.games.order_by("finished_at")]
    assert times[0].startswith("2024-03-15T20:30") and times[2].startswith("2024-04-05T")
    tie = table.games.order_by("finished_at")[1]
    assert sorted(s.player.name for s in tie.seats.filter(is_winner=True)) == ["Bjørn", "Kåre"]


def test_the_same_export_twice_and_a_newer_one_add_only_what_is_new(owner, table):
    assert len(bring_in(BG_STATS, owner, table)) == 4
    again = bring_in(BG_STATS, owner, table)
    assert len(again) == 0 and again.skipped == 4

    def newer(data):
        play = copy.deepcopy(data["plays"][0])
        play["uuid"] = "5a1b2c3d-0000-4000-8000-000000000099"
        play["playDate"] = "2024-05-01 20:00:00"
        data["plays"].append(play)

    more = bring_in(bg_stats(newer), owner, table)
    assert len(more) == 1 and more.skipped == 4
    assert table.games.count() == 5


def test_names_in_another_normalisation_form_are_the_same_players(owner, table):
    bring_in(BG_STATS, owner, table)

    def decomposed(data):
        for player in data["players"]:
            player["name"] = unicodedata.normalize("NFD", player["name"])
        for play in data["plays"]:
            play["uuid"] = play["uuid"].replace("5a1b", "6b2c")  # another phone's log

    assert unicodedata.normalize("NFD", "Åse") != "Åse"
    bring_in(bg_stats(decomposed), owner, table)
    assert table.players.count() == 4 and table.games.count() == 8


def test_a_play_that_disagrees_goes_by_the_totals_or_is_left_out(owner, table):
    left = bring_in(BG_STATS, owner, table, disagreeing="leave")
    assert len(left) == 3
    by_totals = bring_in(BG_STATS, owner, table, disagreeing="totals")
    assert len(by_totals) == 1  # the play left out, now brought in by the totals
    game = by_totals[0]
    assert [s.player.name for s in game.seats.filter(is_winner=True)] == ["Bjørn"]


def test_a_bad_play_of_a_game_not_ticked_is_never_looked_at_and_refuses_when_ticked():
    logged = read_logged(BG_STATS)
    assert chosen(logged, ["1"]).plays  # Ticket to Ride's score of 12.5 is not ours
    with pytest.raises(ImportRefused) as refused:
        chosen(logged, ["1", "2"])
    said = refused.value.message
    assert said == (
        "The play of 15 Mar 2024 (Ticket to Ride: Åse, Bjørn, Sølvi): the score '12.5' "
        "is not a whole number, nor whole numbers added up (5+9+12)"
    )


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (
            lambda d: d["plays"][0]["playerScores"][1].update(playerRefId=2),
            "The play of 15 Mar 2024 (Hearts: Bjørn, Bjørn, Kåre): Bjørn and Bjørn are the same "
            "player written two ways",
        ),
        (
            lambda d: d["plays"][0].update(playDate="15/03/2024"),
            "The play of an unknown day (Hearts: Åse, Bjørn, Kåre): its date can't be read",
        ),
        (
            lambda d: d["plays"][0]["playerScores"][0].update(playerRefId=77),
            "The play of 15 Mar 2024 (Hearts: no players): a score is for a player the "
            "file does not list",
        ),
        (
            lambda d: d["players"][0].update(name="Å" * 41),
            "The play of 15 Mar 2024 (Hearts: "
            + "Å" * 40
            + ", Bjørn, Kåre): “ÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅ…” "
            "is too long",
        ),
    ],
)
def test_a_play_that_can_t_be_read_is_named(change, said):
    logged = read_logged(bg_stats(change))
    with pytest.raises(ImportRefused) as refused:
        chosen(logged, logged.suggested())
    assert refused.value.message.startswith(said)


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        (b'{"players": [], "plays": 3}', "This is not a BG Stats export: its players, games"),
        (
            b'{"players": [], "games": [], "plays": [{"gameRefId": 9}]}',
            "This is not a BG Stats export: play 1 is of a game the file does not list",
        ),
        (b"<plays><play id='1'>", "This is not a BoardGameGeek export: its XML breaks off at"),
        (b"<html><body>Not found</body></html>", "its XML must be a list of plays"),
        (
            b'<?xml version="1.0"?><!DOCTYPE plays [<!ENTITY a "aaaa">]><plays>&a;</plays>',
            "This is not a BoardGameGeek export: it holds XML a play log never does",
        ),
    ],
)
def test_a_file_that_is_not_what_these_apps_write_is_refused_whole(raw, said):
    with pytest.raises(ImportRefused) as refused:
        read_logged(raw)
    assert said in refused.value.message


def test_files_of_ours_and_paper_are_not_taken_for_logged_plays():
    assert read_logged(b'{"format": "black-maria-history/1", "games": []}') is None
    assert read_logged(b"date,Ann,Ben,Cara\n2024-03-01,1,2,3\n") is None
    assert read_logged(b"[]") is None


def test_imported_plays_travel_in_the_history_file_and_come_back_with_the_same_ladder(
    owner, table, outsider
):
    from games.models import Table

    bring_in(BG_STATS, owner, table)
    bring_in(BGG, owner, table)
    before = [(r.place, r.name, r.games, r.wins, r.rating) for r in ladder(table)]
    data = export_json(table.games.all())
    elsewhere = Table.objects.create(name="Restored", owner=outsider)
    import_history(data, owner=outsider, table=elsewhere)
    after = [(r.place, r.name, r.games, r.wins, r.rating) for r in ladder(elsewhere)]
    assert after == before and len(before) == 4
    # The restored games keep the plays' keys: the export brought in again adds nothing.
    assert len(bring_in(BGG, outsider, elsewhere)) == 0


# Broken files, made by breaking the real ones, and any bytes at all: read, or refused
# whole in words; a play that reads is imported or refused naming the play.

_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**15), 10**15) | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


def _broken_bg_stats(data, path, value):
    target = data
    for step in path[:-1]:
        target = target[step % len(target)] if isinstance(target, list) else target[step]
    last = path[-1]
    if isinstance(target, list):
        target[last % len(target)] = value
    else:
        target[last] = value
    return json.dumps(data).encode()


_PATHS = st.sampled_from(
    [
        ("plays",),
        ("players", 0),
        ("players", 0, "id"),
        ("players", 1, "name"),
        ("games", 0, "id"),
        ("games", 0, "bggId"),
        ("plays", 0),
        ("plays", 0, "uuid"),
        ("plays", 0, "gameRefId"),
        ("plays", 0, "playDate"),
        ("plays", 0, "playerScores"),
        ("plays", 2, "playerScores", 0),
        ("plays", 2, "playerScores", 1, "score"),
        ("plays", 2, "playerScores", 1, "playerRefId"),
        ("plays", 2, "playerScores", 1, "seatOrder"),
        ("plays", 5, "playerScores", 2, "winner"),
    ]
)


def _read_or_refused(raw: bytes) -> None:
    try:
        logged = read_logged(raw)
        if logged is None:
            return
        picked = chosen(logged, [game.ref for game in logged.games])
        parse_history(logged_history(picked, table="Club"))
    except ImportRefused as refused:
        assert refused.message and "Traceback" not in refused.message


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(path=_PATHS, value=_JSON_VALUES)
def test_any_broken_bg_stats_file_is_read_or_refused_in_words(path, value):
    _read_or_refused(_broken_bg_stats(json.loads(BG_STATS), path, value))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    cut=st.integers(0, len(BGG)),
    attribute=st.sampled_from(
        [b'score="33"', b'date="2024-05-03"', b'name="Hearts"', b'id="81234501"']
    ),
    value=st.text(max_size=10).map(lambda t: t.encode("utf-8", "surrogatepass")),
)
def test_any_broken_boardgamegeek_file_is_read_or_refused_in_words(cut, attribute, value):
    name = attribute.split(b"=")[0]
    changed = BGG.replace(attribute, name + b'="' + value.replace(b'"', b"") + b'"', 1)
    _read_or_refused(changed)
    _read_or_refused(BGG[:cut])


@settings(max_examples=100, deadline=None)
@given(raw=st.binary(max_size=200).map(lambda b: st_prefix(b)))
def test_any_bytes_are_read_or_refused_in_words(raw):
    _read_or_refused(raw)


def st_prefix(raw: bytes) -> bytes:
    """Half the examples begin as a logged file does, so the readers are reached."""
    return (b"<plays>" if raw[:1] < b"\x80" else b'{"plays": [') + raw if raw else raw


def test_two_thousand_plays_fit_the_web_s_limit_and_import_in_batches_not_a_query_a_play(
    owner, outsider, table
):
    """The time goes to the benchmark (bench/logged_import.py); here, what does not
    depend on the machine: the file fits 2 MB, and its queries are batches of rows
    (SQLite takes fewer rows a statement), never one a play."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from bench.logged_import import bg_stats_file
    from games.forms.history import ImportForm
    from games.models import Table

    big, small = bg_stats_file(2200), bg_stats_file(11)
    assert len(big) < ImportForm.MAX_BYTES
    counted = []
    for raw, at in ((small, Table.objects.create(name="Small", owner=outsider)), (big, table)):
        with CaptureQueriesContext(connection) as queries:
            made = bring_in(raw, at.owner, at)
        counted.append(len(queries))
    assert len(made) == 2000 and table.games.count() == 2000
    assert counted[1] - counted[0] <= 20, counted  # 10 plays: 29 queries; 2,000: 41


def test_a_play_the_app_keeps_out_of_its_statistics_is_left_out_and_counted():
    def ignored(data):
        data["plays"][0]["ignored"] = True

    logged = read_logged(bg_stats(ignored))
    picked = chosen(logged, logged.suggested())
    assert picked.ignored == 1 and len(picked.plays) == 3
    nowinstats = BGG.replace(
        b'id="81234501" date="2024-05-03" quantity="1" length="60" incomplete="0" nowinstats="0"',
        b'id="81234501" date="2024-05-03" quantity="1" length="60" incomplete="0" nowinstats="1"',
    )
    assert nowinstats != BGG
    picked = chosen(read_logged(nowinstats), ["6887"])
    assert picked.ignored == 1 and len(picked.plays) == 1
