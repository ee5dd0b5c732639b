"""Names are people: the same name written two ways is one player, in forms and in import."""

from __future__ import annotations

import copy

import pytest
from django.urls import reverse

from games.engine.names import name_key, normalise_name
from games.formats.reading import ImportRefused
from games.forms.tables import PlayerForm, TableForm
from games.models import Player, Ruleset, Seat
from games.services.imports import import_history
from tests.factories import MOON_EXAMPLE

SAME_AS_ANN_B = ["Ann B", "ann b", "ANN B", "Ann  B", " Ann\tB ", "Ann\u200b B", "Ａｎｎ Ｂ"]


@pytest.mark.parametrize("written", SAME_AS_ANN_B)
def test_a_name_written_another_way_is_the_same_name(written):
    assert name_key(written) == name_key("Ann B")


def test_jose_is_one_name_however_the_accent_was_typed():
    composed, combining = "Jos\u00e9", "Jose\u0301"
    assert normalise_name(combining) == normalise_name(composed) == composed
    assert name_key(combining) == name_key("JOSÉ")


def test_invisible_and_control_characters_are_not_kept():
    assert normalise_name("A\x00nn\u200d\u200b\ufeff") == "Ann"
    assert normalise_name("\u202eAnn") == "Ann"  # no right-to-left override either


@pytest.mark.parametrize("written", SAME_AS_ANN_B[1:])
def test_the_player_form_refuses_a_player_already_at_the_table(table, written):
    Player.objects.create(table=table, name="Ann B")
    form = PlayerForm({"name": written}, table=table)
    assert not form.is_valid()
    assert "Ann B already plays at this table." in form.errors["name"][0]


def test_a_new_table_refuses_the_same_player_twice(db):
    form = TableForm({"name": "Club", "players": "José\nJOSE\u0301\n"})
    form.fields["default_ruleset"].required = False
    assert not form.is_valid()
    assert "the same player written two ways" in str(form.errors["players"])


def test_a_player_is_kept_as_normalised(client, owner, table):
    client.force_login(owner)
    client.post(reverse("player_add", args=[table.pk]), {"name": "  Ｍａｒｇａｒｅｔ\u200b  "})
    assert list(table.players.values_list("name", flat=True)) == ["Margaret"]


def game_with_names(names: list[str]) -> dict:
    data = copy.deepcopy(MOON_EXAMPLE)
    game = data["games"][0]
    old = game["players"]
    game["players"] = names
    game["first_dealer"] = names[0]
    for deal in game["deals"]:
        deal["points"] = {new: deal["points"][o] for new, o in zip(names, old, strict=True)}
    return data


def test_importing_ann_into_a_table_that_has_ann_seats_the_same_player(owner, table):
    ann = Player.objects.create(table=table, name="Ann")
    import_history(game_with_names(["ann", "Ben", "Cara"]), owner=owner, table=table)
    assert table.players.count() == 3
    assert Seat.objects.get(number=0).player == ann


def test_an_imported_table_name_matches_the_owners_table_written_another_way(owner, table):
    data = game_with_names(["Alice", "Ben", "Cara"])
    data["games"][0]["table"] = "  friday   CLUB "
    game = import_history(data, owner=owner)[0]
    assert game.table == table


@pytest.mark.parametrize(
    "names", [["Ann", "ann", "Cara"], ["Ann B", "Ann  B", "Cara"], ["José", "Jose\u0301", "Cara"]]
)
def test_an_import_with_two_players_written_alike_is_refused(owner, names):
    data = game_with_names(names)
    with pytest.raises(ImportRefused, match="the same player written two ways"):
        import_history(data, owner=owner)
    assert not Player.objects.exists()


def test_an_imported_name_with_nul_or_zero_width_characters_is_kept_clean(owner):
    data = game_with_names(["Al\x00ice", "Ben\u200b", "Cara"])
    game = import_history(data, owner=owner)[0]
    names = list(game.seats.order_by("number").values_list("player__name", flat=True))
    assert names == ["Alice", "Ben", "Cara"]


def test_the_database_keeps_one_player_of_a_name_at_a_table_in_any_case(table, players):
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(table=table, name="ALICE")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.bulk_create([Player(table=table, name="alice", name_key=name_key("alice"))])
    assert table.players.count() == 3


def test_a_name_taken_meanwhile_is_refused_in_the_players_words(table, players):
    from games.services.errors import Refused
    from games.services.players import players_join

    with pytest.raises(Refused) as refused:
        players_join(table=table, names=["BEN"])
    assert refused.value.problems == ["Ben already plays at this table."]


def test_one_set_of_words_for_names_written_alike_wherever_they_are_typed(owner, table):
    from games.forms.clubnights import EveningForm

    said = "Ann and ann are the same player written two ways"
    form = TableForm({"name": "Club", "players": "Ann\nann"})
    form.fields["default_ruleset"].required = False
    assert not form.is_valid() and form.errors["players"] == [said + "."]
    with pytest.raises(ImportRefused, match=said):
        import_history(game_with_names(["Ann", "ann", "Cara"]), owner=owner)
    long = "A" * 41
    rulesets = Ruleset.objects.filter(table=None)
    for form in (
        TableForm({"name": "Club", "players": long}),
        PlayerForm({"name": long}, table=table),
        EveningForm({"name": "Friday", "new_players": long}, table=table, rulesets=rulesets),
    ):
        assert f"“{'A' * 20}…” is too long: a name has at most 40 characters." in str(form.errors)
