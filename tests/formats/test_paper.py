"""The years kept on paper: a CSV of final totals imported as result-only games."""

from __future__ import annotations

import io
import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.formats.paper import paper_history, read_upload
from games.formats.reading import ImportRefused, parse_history
from games.formats.writing import export_json
from games.models import Deal, Game, Player, Standing, Table
from games.pages.ladder import record
from games.services.imports import import_history
from tests.factories import PAPER_NOTEBOOK as BY_PLAYER
from tests.factories import make_games

BY_GAME = """date,Ann,Ben,Cara,Dan
2024-03-01,31,12,77,
2024-03-01,,45,20,9
2024-03-08,10,10,50,60
"""


def csv_file(text: str, encoding: str = "utf-8") -> SimpleUploadedFile:
    return SimpleUploadedFile("scores.csv", text.encode(encoding), "text/csv")


def imported(text: str, owner, table):
    return import_history(read_upload(text.encode(), table=table.name), owner=owner, table=table)


def test_a_row_a_player_a_game_in_norwegian_with_semicolons(owner, table):
    games = imported(BY_PLAYER, owner, table)
    assert len(games) == 2 and all(g.result_only and g.is_finished for g in games)
    assert not Deal.objects.exists()
    first, second = sorted(games, key=lambda g: g.finished_at)
    assert [(s.player.name, s.total, s.is_winner) for s in first.seats.order_by("number")] == [
        ("Åse", 23, True), ("Bjørn", 61, False), ("Cecilie", 102, False),
    ]  # fmt: skip
    assert [s.total for s in second.seats.order_by("number")] == [88, 12, 40, -5]
    assert first.finished_at.date().isoformat() == "2025-12-04"
    # They count for the ladder and head to head: the seats' totals rated, in their order.
    assert Standing.objects.get(player__name="Åse").games == 2
    rivals = {r.name: (r.together, r.ahead) for r in record(Player.objects.get(name="Dag")).rivals}
    assert rivals == {"Åse": (1, 1), "Bjørn": (1, 1), "Cecilie": (1, 1)}


def test_a_row_a_game_with_a_column_a_player(owner, table):
    games = imported(BY_GAME, owner, table)
    seated = [[(s.player.name, s.total) for s in g.seats.order_by("number")] for g in games]
    assert seated == [
        [("Ann", 31), ("Ben", 12), ("Cara", 77)],
        [("Ben", 45), ("Cara", 20), ("Dan", 9)],
        [("Ann", 10), ("Ben", 10), ("Cara", 50), ("Dan", 60)],
    ]
    assert [s.is_winner for s in games[2].seats.order_by("number")] == [True, True, False, False]


@pytest.mark.parametrize(
    "text",
    [
        "Dato;Dag;Kåre;Sølvi;Tor\n04.12.2025;31;12;77;\n11.12.2025;;45;20;9\n",
        "Dag;Kåre;Dato;Sølvi;Tor\n31;12;04.12.2025;77;\n;45;11.12.2025;20;9\n",
    ],
)
def test_a_player_named_like_a_date_header_keeps_their_column(owner, table, text):
    """Dag is a common name and also "day": his column holds totals, not dates."""
    games = imported(text, owner, table)
    seated = [sorted((s.player.name, s.total) for s in g.seats.all()) for g in games]
    assert seated == [
        [("Dag", 31), ("Kåre", 12), ("Sølvi", 77)],
        [("Kåre", 45), ("Sølvi", 20), ("Tor", 9)],
    ]
    assert [g.finished_at.date().isoformat() for g in games] == ["2025-12-04", "2025-12-11"]


def test_two_columns_of_dates_are_refused_naming_both(owner, table):
    text = "Dato;Dag;Kåre;Sølvi;Tor\n04.12.2025;05.12.2025;1;2;3\n"
    with pytest.raises(ImportRefused) as refused:
        imported(text, owner, table)
    assert refused.value.message == (
        "Line 1: the columns Dato and Dag could each be the date: keep one column of dates"
    )
    assert not Game.objects.exists()


def test_the_same_file_twice_adds_nothing(owner, table):
    imported(BY_GAME, owner, table)
    again = imported(BY_GAME, owner, table)
    assert again == [] and again.skipped == 3 and Game.objects.count() == 3


HEADER = "date,Ann,Ben,Cara\n"
MISTAKES = [
    (
        HEADER + "2024-03-01,1,2,3\n2024-31-01,1,2,3\n",
        "Line 3: the date '2024-31-01' is not a date",
    ),
    (HEADER + "2024-03-01,1,two,3\n", "Line 2: the total 'two' is not a whole number"),
    (HEADER + "2024-03-01,1,,3\n", "Line 2: the game of 2024-03-01 has 2 players; a game is for 3"),
    ("date,game,player,total\n2024-03-01,1,Ann,3\n2024-03-01,1,ann ,4\n", "Line 3: ann is in"),
    ("date,Ann,ann,Cara\n2024-03-01,1,2,3\n", "Line 1: a player is named twice in the header"),
    ("date;Ann;Ben;Cara\n", "The file has a header line but no results under it."),
    (HEADER + "2024-03-01,1,2,99999999999\n", "Line 2: the total '99999999999' is too large"),
]


@pytest.mark.parametrize(("text", "said"), MISTAKES)
def test_a_file_with_a_mistake_is_refused_whole_naming_the_line(owner, table, text, said):
    with pytest.raises(ImportRefused) as refused:
        imported(text, owner, table)
    assert said in refused.value.message
    assert not Game.objects.exists()


def test_result_only_games_round_trip_through_the_history_file(owner, outsider, table):
    imported(BY_PLAYER, owner, table)
    before = json.loads(json.dumps(export_json(Game.objects.order_by("pk"))))
    assert all(g["result_only"] is True and g["deals"] == [] for g in before["games"])
    assert before["games"][1]["totals"] == {"Åse": 88, "Bjørn": 12, "Cecilie": 40, "Dag": -5}
    copy = Table.objects.create(name="Copy", owner=outsider)
    import_history(before, owner=outsider, table=copy)
    after = json.loads(json.dumps(export_json(Game.objects.filter(table=copy).order_by("pk"))))
    strip = lambda d: [{k: v for k, v in g.items() if k != "table"} for g in d["games"]]  # noqa: E731
    assert strip(after) == strip(before)
    # A file written before result-only games reads as it did: every game has its deals.
    assert all(not g.result_only for g in parse_history({"format": before["format"], "games": []}))


def test_the_web_import_previews_then_imports_and_shows_result_only(client, owner, table):
    signed_in = client
    signed_in.force_login(owner)
    url = reverse("table_import", args=[table.pk])
    page = signed_in.post(
        url, {"file": csv_file(BY_PLAYER.replace(";", ",").replace("−", "-"), "cp1252")}
    )
    text = page.content.decode()
    assert page.status_code == 200 and "The file holds 2 games" in text
    assert "Åse, Bjørn, Cecilie" in text and "Dag" in text  # the new players, as typed
    token = re.search(r'name="upload" value="([A-Za-z0-9_-]+)"', text).group(1)
    assert signed_in.post(url, {"upload": token}).status_code == 302
    game = Game.objects.order_by("finished_at").first()
    shown = signed_in.get(game.get_absolute_url()).content.decode()
    assert "Result only: the final totals, kept on paper, with no deals." in shown
    assert 'name="number"' not in shown  # no entry: a result only takes no deals
    history = signed_in.get(reverse("table_history", args=[table.pk])).content.decode()
    assert "result only" in history
    refused = signed_in.post(reverse("deal_new", args=[game.pk]), {"mode": "points", "number": "1"})
    assert refused.status_code in (409, 422) and game.deals.count() == 0


QUERIES_FOR_2000_GAMES = 40  # 35 today: the table, players, games, seats, ladder


def test_two_thousand_result_only_games_import_in_a_bounded_number_of_queries(
    owner, table, django_assert_max_num_queries
):
    """Written in bulk, not a query a game: a club's years on paper come in at once.
    (A count of queries, not seconds: the machine's speed is no test of the code.)"""
    from datetime import date, timedelta

    names = ["Ann", "Ben", "Cara", "Dan", "Eve"]
    rows = ["date,game,player,total"]
    for n in range(2000):
        day = date(2010, 1, 1) + timedelta(days=n // 2)
        for seat, name in enumerate(names[: 3 + n % 3]):
            rows.append(f"{day},{n % 2 + 1},{name},{(n * 7 + seat * 13) % 100}")
    raw = ("\n".join(rows) + "\n").encode()
    with django_assert_max_num_queries(QUERIES_FOR_2000_GAMES):
        games = import_history(read_upload(raw, table=table.name), owner=owner, table=table)
    assert len(games) == 2000 and Standing.objects.get(player__name="Ann").games == 2000


@pytest.mark.django_db
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=st.lists(
        st.lists(st.one_of(st.text(max_size=8), st.integers(-10**12, 10**12).map(str),
                           st.dates().map(str)), max_size=6),
        max_size=6,
    ).map(lambda rows: "date,Ann,Ben,Cara\n" + "\n".join(",".join(r) for r in rows))
)  # fmt: skip
def test_any_table_of_results_is_read_or_refused_in_words(text):
    try:
        data = paper_history(text, table="Club")
        parse_history(data)
    except ImportRefused as refused:
        assert refused.message


def test_result_only_games_count_in_the_season_they_were_played(owner, table):
    from datetime import date

    from games.pages.ladder import season_ladder
    from games.services.tables import season_add

    imported(BY_GAME, owner, table)
    spring = season_add(
        table=table, name="Spring 2024", starts=date(2024, 3, 1), ends=date(2024, 3, 5)
    )
    rungs = {r.name: r.games for r in season_ladder(table, spring)}
    assert rungs == {"Ann": 1, "Ben": 2, "Cara": 2, "Dan": 1}  # the 8 March game is not in it


@pytest.mark.parametrize(
    ("headers", "said"),
    [
        ({}, "This is the CSV the app exports for spreadsheets"),
        ({"HTTP_ACCEPT_LANGUAGE": "nb"}, "Dette er CSV-fila appen lager for regneark"),
    ],
)
def test_the_app_s_own_csv_export_is_refused_saying_to_import_the_json(
    client, owner, table, players, headers, said
):
    """The export's CSV holds the deals' points but not the rules: the page says
    what can be brought back, and the file itself is refused saying so."""
    make_games(table, players, 1, 3)
    client.force_login(owner)
    page = client.get(reverse("table_history", args=[table.pk]), **headers).content.decode()
    assert ("a backup" if not headers else "en sikkerhetskopi") in page
    exported = client.get(reverse("table_export", args=[table.pk, "csv"]), **headers)
    csv = b"".join(exported.streaming_content)
    before = Game.objects.count()
    upload = SimpleUploadedFile("scores.csv", csv, "text/csv")
    refused = client.post(reverse("table_import", args=[table.pk]), {"file": upload}, **headers)
    assert refused.status_code == 422 and said in refused.content.decode()
    assert Game.objects.count() == before


def test_the_command_line_imports_results_kept_on_paper_at_the_table_named(owner, table, tmp_path):
    path = tmp_path / "notebook.csv"
    path.write_text(BY_GAME, encoding="utf-8")
    with pytest.raises(CommandError, match="name the table they were kept at with --table"):
        call_command("import_games", str(path), "--owner", owner.username)
    assert not Game.objects.exists()
    out = io.StringIO()
    # The owner's table, written another way, is that table.
    call_command(
        "import_games", str(path), "--owner", owner.username, "--table", "FRIDAY club", stdout=out
    )
    assert "Imported 3 games (0 deals)" in out.getvalue()
    assert list(table.games.values_list("result_only", flat=True)) == [True, True, True]
    again = io.StringIO()
    call_command(
        "import_games", str(path), "--owner", owner.username, "--table", "Friday club", stdout=again
    )
    said = "Imported 0 games (0 deals) for ann. 3 games were at their tables already."
    assert said in again.getvalue()
    assert table.games.count() == 3


@pytest.mark.parametrize("start", [b"", b"\xef\xbb\xbf", b" \r\n\t"])
def test_a_json_history_file_is_never_read_as_cells(monkeypatch, start):
    """A 2 MB history file is often one line: read as a header of cells, its
    confirmation spent 1.5 s of 5.6 on it."""
    from games.formats import paper

    def as_cells(*args):
        raise AssertionError("a JSON file was read as cells")

    monkeypatch.setattr(paper, "looks_like_results", as_cells)
    monkeypatch.setattr(paper, "looks_like_our_export", as_cells)
    data = read_upload(
        start + json.dumps({"format": "blackmaria-scores/1", "games": []}).encode(), table="T"
    )
    assert data["games"] == []


def test_dag_alone_over_numbers_is_a_player_in_a_file_without_dates():
    with pytest.raises(ImportRefused) as refused:
        paper_history("Dag;Kåre;Sølvi\n31;12;77\n", table="Club")
    assert refused.value.message == (
        "Line 1: the column Dag holds no dates: if Dag is a player, add a column of dates "
        "(Dato) before the players"
    )
