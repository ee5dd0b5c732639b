"""Migrations that touch data: what was stored before comes through."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("games", "0013_evenings")]
AFTER = [("games", "0015_club_night")]


def migrate(target):
    executor = MigrationExecutor(connection)
    executor.migrate(target)
    return executor.loader.project_state(target).apps


@pytest.fixture
def back_to_the_latest():
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("back_to_the_latest")
def test_look_alike_players_stored_before_are_reported_and_told_apart(capsys):
    old = migrate(BEFORE)
    user = old.get_model("auth", "User").objects.create(username="ann")
    table = old.get_model("games", "Table").objects.create(owner_id=user.pk, name="Club")
    other = old.get_model("games", "Table").objects.create(owner_id=user.pk, name="Other")
    Player = old.get_model("games", "Player")
    for at, name in [(table, "Ann"), (table, "ann"), (table, "ANN"), (table, "Bo"), (other, "ann")]:
        Player.objects.create(table_id=at.pk, name=name)
    new = migrate(AFTER)
    kept = new.get_model("games", "Player").objects.order_by("pk")
    assert [(p.table_id, p.name, p.name_key) for p in kept] == [
        (table.pk, "Ann", "ann"),
        (table.pk, "ann (2)", "ann (2)"),
        (table.pk, "ANN (3)", "ann (3)"),
        (table.pk, "Bo", "bo"),
        (other.pk, "ann", "ann"),  # another table's Ann is another person
    ]
    said = capsys.readouterr().out
    assert "“ann” looks like player" in said and "now “ann (2)”" in said
    assert "“ANN” looks like player" in said and "now “ANN (3)”" in said


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("back_to_the_latest")
def test_the_change_over_the_last_game_moves_to_the_ladder_s_new_scale():
    from games.engine import ratings

    old = migrate([("games", "0016_game_key")])
    user = old.get_model("auth", "User").objects.create(username="ann")
    table = old.get_model("games", "Table").objects.create(owner_id=user.pk, name="Club")
    player = old.get_model("games", "Player").objects.create(
        table_id=table.pk, name="Ann", name_key="ann"
    )
    ruleset = old.get_model("games", "Ruleset").objects.first()
    Game = old.get_model("games", "Game")
    first, last = (
        Game.objects.create(table_id=table.pk, ruleset_id=ruleset.pk, rules={}, first_dealer=0)
        for _ in range(2)
    )
    Rating = old.get_model("games", "PlayerRating")
    for game, before, after in [(first, 25.0, 27.0), (last, 27.0, 26.0)]:
        Rating.objects.create(
            game_id=game.pk, player_id=player.pk, place=1,
            mu_before=before, sigma_before=8, mu=after, sigma=7,
        )  # fmt: skip
    # On the old scale, (μ − 3σ) × 40: over the last game 26 − 21 less 27 − 24, times 40.
    old.get_model("games", "Standing").objects.create(
        player_id=player.pk, mu=26, sigma=7, games=2, wins=2, shared_wins=0, change=80
    )
    new = migrate([("games", "0017_ladder_scale")])
    standing = new.get_model("games", "Standing").objects.get()
    assert standing.change == ratings.Rating(26, 7).shown - ratings.Rating(27, 8).shown == -10
