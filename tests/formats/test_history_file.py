"""The history format: export, import, the CSV, and the management commands."""

from __future__ import annotations

import copy
import csv
import io
import json

import pytest
from django.core.management import CommandError, call_command

from games import engine
from games.formats.reading import ImportRefused
from games.formats.writing import FORMAT, export_json
from games.models import Deal, Game, Player, Table
from games.services.deals import deal_record
from games.services.imports import import_history
from tests.factories import DEAL_1, DEAL_2, DEAL_3, HEARTS, MOON_EXAMPLE, SPEC_EXAMPLE, builtin


def exported(**filters) -> dict:
    return json.loads(json.dumps(export_json(Game.objects.filter(**filters).order_by("id"))))


def test_the_spec_example_imports_and_exports_with_computed_keys(owner):
    games = import_history(SPEC_EXAMPLE, owner=owner)
    assert len(games) == 1
    game = exported()["games"][0]
    assert game["status"] == "in_progress"
    assert game["totals"] == {"Alice": 51, "Ben": 39, "Cara": 39}
    assert game["winners"] == []
    assert game["deal_total"] == 43
    assert game["moon_value"] == 43
    assert game["next_dealer"] == "Alice"  # deal 4: Alice, Ben, Cara, Alice
    assert [d["dealer"] for d in game["deals"]] == ["Alice", "Ben", "Cara"]
    assert [d["leader"] for d in game["deals"]] == ["Ben", "Cara", "Alice"]
    assert game["deals"][0]["raw"] == {"Alice": 17, "Ben": 13, "Cara": 13}
    assert game["deals"][2]["totals"] == {"Alice": 51, "Ben": 39, "Cara": 39}
    assert game["deals"][1]["counts"] == SPEC_EXAMPLE["games"][0]["deals"][1]["counts"]
    assert game["rules"] == SPEC_EXAMPLE["games"][0]["rules"]
    table = Table.objects.get()
    assert table.owner == owner
    assert table.name == "Friday club"
    assert sorted(table.players.values_list("name", flat=True)) == ["Alice", "Ben", "Cara"]


def test_the_moon_example_through_import_and_export(owner):
    import_history(MOON_EXAMPLE, owner=owner)
    game = exported()["games"][0]
    assert [d["totals"] for d in game["deals"]] == [
        {"Alice": 17, "Ben": 20, "Cara": 6},
        {"Alice": 60, "Ben": 63, "Cara": 6},
        {"Alice": 88, "Ben": 65, "Cara": 19},
    ]
    assert [d["moon"] for d in game["deals"]] == [None, "Cara", None]
    assert game["deals"][1]["scores"] == {"Alice": 43, "Ben": 43, "Cara": 0}
    assert game["rules"]["removed"] == ["2C"]
    assert game["rules"]["pass_cards"] == 3


def strip_ids(data: dict) -> dict:
    data = copy.deepcopy(data)
    for game in data["games"]:
        game.pop("started_at")
        game.pop("finished_at")
    return data


@pytest.mark.parametrize(
    "ruleset",
    [
        "Black Maria",
        "Black Maria, moon to the others",
        "Black Maria, moon off the shooter",
        "Hearts only",
        "Spot hearts",
        "Omnibus",
    ],
)
def test_an_export_imports_back_to_the_same_games(moon_game, owner, outsider, ruleset):
    from games.services.games import game_start

    game = game_start(
        table=moon_game.table,
        players=list(Player.objects.filter(table=moon_game.table).order_by("name")),
        ruleset=builtin(ruleset),
        first_dealer=2,
    )
    rules = game.get_rules()
    specials = engine.special_cards(rules, 3)
    deal_record(
        game=game,
        entry=engine.CardsEntry(((*HEARTS[:3], *specials), tuple(HEARTS[3:]), ())),
        by=owner,
    )
    deal_record(game=game, entry=engine.CardsEntry(((), (*HEARTS, *specials), ())), by=owner)
    if rules.hearts == "one":
        deal_record(
            game=game, entry=engine.CountsEntry((6, 7, 0), ((), (), tuple(specials))), by=owner
        )
    before = exported(pk=game.pk)
    import_history(before, owner=outsider)
    after = exported(table__owner=outsider)
    assert strip_ids(after) == strip_ids(before)


def test_a_finished_game_exports_its_winners(table, players, owner):
    from games.services.games import game_start

    game = game_start(table=table, players=players, ruleset=builtin("Hearts only"), first_dealer=0)
    deal_record(game=game, entry=engine.PointsEntry((0, 26, 0)), by=owner)
    deal_record(game=game, entry=engine.PointsEntry((0, 26, 0)), by=owner)
    data = exported()["games"][0]
    assert data["status"] == "finished"
    assert data["winners"] == ["Ben"]
    assert data["next_dealer"] is None
    # And the finished game imports back finished, elsewhere; where it is, it is not doubled.
    copy = Table.objects.create(name="Copy", owner=owner)
    import_history({"format": FORMAT, "games": [data]}, owner=owner, table=copy)
    assert Game.objects.filter(status=Game.Status.FINISHED).count() == 2
    again = import_history({"format": FORMAT, "games": [data]}, owner=owner)
    assert again == [] and again.skipped == 1 and Game.objects.count() == 2


def test_a_confirmation_that_finds_its_games_there_says_imported_already(
    owner, table, players, monkeypatch
):
    """Two confirmations at once, the other finishing first: this one looked for the
    key before that one committed and for the games after; it says so, not "0 games"."""
    from games.services import imports

    import_history(MOON_EXAMPLE, owner=owner, table=table, key="upload-1")
    looked = iter([None])
    real = imports.sent_before
    monkeypatch.setattr(imports, "sent_before", lambda made, key: next(looked, real(made, key)))
    with pytest.raises(imports.ImportedAlready):
        import_history(MOON_EXAMPLE, owner=owner, table=table, key="upload-1")
    assert Game.objects.count() == 1


def refused(data, owner) -> str:
    before = (
        Table.objects.count(),
        Player.objects.count(),
        Game.objects.count(),
        Deal.objects.count(),
    )
    with pytest.raises(ImportRefused) as error:
        import_history(data, owner=owner)
    after = (
        Table.objects.count(),
        Player.objects.count(),
        Game.objects.count(),
        Deal.objects.count(),
    )
    assert after == before, "a refused import must save nothing"
    return error.value.message


def with_change(change) -> dict:
    data = copy.deepcopy(
        {"format": FORMAT, "games": [SPEC_EXAMPLE["games"][0], MOON_EXAMPLE["games"][0]]}
    )
    change(data)
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: d["games"][1]["deals"][2].update(points={"Alice": 28, "Ben": 2, "Cara": 12}),
            "Game 2 (Alice's kitchen), deal 3: points add up to 42, the deal total is 43",
        ),
        (
            lambda d: d["games"][0]["deals"][0]["cards"]["Ben"].append("QS"),
            "Game 1 (Friday club), deal 1: Q♠ is given to both Alice and Ben",
        ),
        (
            lambda d: d["games"][0]["deals"][1]["counts"]["Cara"].update(hearts=5),
            "Game 1 (Friday club), deal 2: hearts add up to 12, the pack has 13",
        ),
        (
            lambda d: d["games"][0]["deals"][2]["points"].pop("Cara"),
            "Game 1 (Friday club), deal 3: Cara missing from the deal",
        ),
        (
            lambda d: d["games"][0]["deals"][2].update(cards={}),
            "Game 1 (Friday club), deal 3: a deal must have exactly one of cards, counts or points",
        ),
        (
            lambda d: d["games"][1].update(first_dealer="Zoe"),
            "Game 2 (Alice's kitchen): the first dealer 'Zoe' is not one of the players",
        ),
        (
            lambda d: d["games"][1]["rules"].update(moon="maybe"),
            "Game 2 (Alice's kitchen): rules: moon must be one of none, others, self",
        ),
        (
            lambda d: d["games"][1]["rules"].update(target=50),
            "Game 2 (Alice's kitchen): the game would end after deal 2 (Alice has 60 and Ben "
            "has 63, reaching the target of 50), but 3 deals are recorded",
        ),
        (
            lambda d: d["games"][0].update(players=["Alice", "Ben"]),
            "Game 1 (Friday club): the game is for 3 to 7 players, not 2",
        ),
        (lambda d: d.update(format="other/2"), "The file's format is 'other/2'"),
    ],
)
def test_an_invalid_file_is_refused_whole_naming_game_deal_and_reason(owner, change, message):
    assert refused(with_change(change), owner).startswith(message)


def test_keys_that_are_not_in_the_format_are_ignored(owner):
    data = with_change(lambda d: d["games"][0].update(colour="green", totals={"Alice": 999}))
    import_history(data, owner=owner)
    assert exported()["games"][0]["totals"]["Alice"] == 51


def test_export_command_writes_json_to_stdout_and_to_a_file(owner, tmp_path):
    import_history(SPEC_EXAMPLE, owner=owner)
    import_history(MOON_EXAMPLE, owner=owner)
    out = io.StringIO()
    call_command("export_games", stdout=out)
    data = json.loads(out.getvalue())
    assert data["format"] == FORMAT
    assert [g["table"] for g in data["games"]] == ["Friday club", "Alice's kitchen"]
    path = tmp_path / "kitchen.json"
    call_command("export_games", "--table", "Alice's kitchen", "--output", str(path))
    data = json.loads(path.read_text(encoding="utf-8"))
    assert [g["table"] for g in data["games"]] == ["Alice's kitchen"]


def test_export_command_writes_csv_one_row_per_deal(owner):
    import_history(MOON_EXAMPLE, owner=owner)
    out = io.StringIO()
    call_command("export_games", "--format", "csv", stdout=out)
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert rows[0] == [
        "game", "table", "evening", "round", "deal", "dealer",
        "Alice points", "Ben points", "Cara points",
        "moon",
        "Alice total", "Ben total", "Cara total",
    ]  # fmt: skip
    game_id = str(Game.objects.get().pk)
    assert rows[1:] == [
        [game_id, "Alice's kitchen", "", "", "1", "Ben", "17", "20", "6", "", "17", "20", "6"],
        [game_id, "Alice's kitchen", "", "", "2", "Cara", "43", "43", "0", "Cara", "60", "63", "6"],
        [game_id, "Alice's kitchen", "", "", "3", "Alice", "28", "2", "13", "", "88", "65", "19"],
    ]


def test_csv_of_several_games_numbers_the_seats(owner):
    import_history(MOON_EXAMPLE, owner=owner)
    import_history(SPEC_EXAMPLE, owner=owner)
    out = io.StringIO()
    call_command("export_games", "--format", "csv", stdout=out)
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert rows[0][:9] == [
        "game", "table", "evening", "round", "deal", "dealer", "seat 1", "seat 2", "seat 3",
    ]  # fmt: skip
    assert len(rows) == 7
    assert rows[1][6:9] == ["Alice", "Ben", "Cara"]


def test_csv_keeps_formulas_as_text(owner):
    data = copy.deepcopy(MOON_EXAMPLE)
    game = data["games"][0]
    game["players"] = ["=1+1", "a;=1+1", "b|@x"]
    game["first_dealer"] = "=1+1"
    for deal in game["deals"]:
        points = deal["points"]
        deal["points"] = {"=1+1": points["Alice"], "a;=1+1": points["Ben"], "b|@x": points["Cara"]}
    import_history(data, owner=owner)
    out = io.StringIO()
    call_command("export_games", "--format", "csv", stdout=out)
    text = out.getvalue()
    assert "'=1+1 points" in text
    # A spreadsheet splitting cells on ";" (as Norwegian Excel does) or "|" finds no formula.
    for separator in (";", "|", ","):
        for cell in text.replace("\n", separator).split(separator):
            assert not cell.strip().lstrip('"').startswith(("=", "@")), cell


def test_import_command_imports_for_the_named_owner(owner, tmp_path):
    path = tmp_path / "history.json"
    path.write_text(json.dumps(MOON_EXAMPLE), encoding="utf-8")
    out = io.StringIO()
    call_command("import_games", str(path), "--owner", "ann", stdout=out)
    assert out.getvalue().strip() == "Imported 1 game (3 deals) for ann."
    assert Game.objects.get().table.owner == owner


def test_import_command_refuses_an_invalid_file_and_saves_nothing(owner, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(
        json.dumps(with_change(lambda d: d["games"][1]["deals"][0]["points"].update(Ben=21)))
    )
    with pytest.raises(CommandError) as error:
        call_command("import_games", str(path), "--owner", "ann")
    assert "Game 2 (Alice's kitchen), deal 1: points add up to 44" in str(error.value)
    assert not Game.objects.exists()
    assert not Table.objects.exists()


def test_import_command_refuses_broken_json_and_unknown_owner(owner, tmp_path):
    path = tmp_path / "broken.json"
    path.write_text("{not json")
    with pytest.raises(CommandError, match="it is not JSON text"):
        call_command("import_games", str(path), "--owner", "ann")
    path.write_text(json.dumps(MOON_EXAMPLE))
    with pytest.raises(CommandError, match="no user named 'nobody'"):
        call_command("import_games", str(path), "--owner", "nobody")


def test_the_worked_example_entered_through_services_exports_as_in_the_spec(moon_game, owner):
    for entry in (DEAL_1, DEAL_2, DEAL_3):
        deal_record(game=moon_game, entry=entry, by=owner)
    game = exported()["games"][0]
    assert game["totals"] == {"Alice": 88, "Ben": 65, "Cara": 19}
    assert game["deals"][1]["moon"] == "Cara"
    assert game["deals"][0]["counts"]["Ben"] == {"hearts": 3, "cards": ["KS", "AS"]}
