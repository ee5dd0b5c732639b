"""Every service that changes what a game's board shows moves a version its poll compares
(games/services/versions.py), and the page shows it at once."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Ruleset
from games.services.clubnights import evening_delete, evening_start
from games.services.deals import deal_delete, deal_edit, deal_record
from games.services.games import game_annotate
from games.services.players import player_rename
from games.services.rulesets import ruleset_save
from games.services.sharing import watch_link_replace
from games.services.tables import table_rename
from tests.factories import DEAL_1, DEAL_2, builtin


@pytest.fixture
def phone(owner):
    client = Client()
    client.force_login(owner)
    return client


def page(phone, game) -> str:
    response = phone.get(game.get_absolute_url())
    assert response.status_code == 200
    return response.content.decode()


def kept(phone, game) -> str:
    """The page, opened twice (a second opening once came from a copy kept in memory)."""
    page(phone, game)
    return page(phone, game)


def board_etag(phone, game) -> str:
    return phone.get(reverse("game_live", args=[game.pk]))["ETag"]


def watch_etag(game) -> str:
    return Client().get(reverse("watch_game_live", args=[game.watch_token]))["ETag"]


CHANGES = {
    "deal": lambda game, owner: deal_record(game=game, entry=DEAL_1, by=owner),
    "note": lambda game, owner: game_annotate(game=game, note="At the cabin"),
    "player's name": lambda game, owner: player_rename(
        player=game.seats.get(number=0).player, name="Alicia"
    ),
}
# Not on a board (the page shows them, drawn afresh): they move no version, so a
# watch link's poll reads the game's row alone.
ELSEWHERE = {
    "table's name": lambda game, owner: table_rename(table=game.table, name="Saturday club"),
    "house rules": lambda game, owner: ruleset_save(
        ruleset=Ruleset.objects.get(pk=game.ruleset_id), table=game.table
    ),
}


@pytest.mark.parametrize("change", CHANGES)
def test_each_change_a_board_shows_moves_the_version_its_polls_compare(
    change, phone, table, players, owner
):
    from games.services.games import game_start

    ruleset = ruleset_save(ruleset=Ruleset(name="Ours", notes="Jokers wild"), table=table)
    game = game_start(table=table, players=players, ruleset=ruleset, first_dealer=0, by=owner)
    watch_link_replace(game)
    before = (board_etag(phone, game), watch_etag(game))
    CHANGES[change](game, owner)
    game.refresh_from_db()
    after = (board_etag(phone, game), watch_etag(game))
    assert before[0] != after[0] and before[1] != after[1]
    live = reverse("game_live", args=[game.pk])
    assert phone.get(live, HTTP_IF_NONE_MATCH=before[0]).status_code == 200
    assert phone.get(live, HTTP_IF_NONE_MATCH=after[0]).status_code == 204


def totals(html: str) -> list[int]:
    return [int(t) for t in re.findall(r'<span class="points">(-?\d+)</span>', html)]


def test_a_recorded_edited_or_deleted_deal_shows_at_once(phone, moon_game, owner):
    assert totals(kept(phone, moon_game)) == [0, 0, 0]
    deal = deal_record(game=moon_game, entry=DEAL_1, by=owner)
    assert totals(page(phone, moon_game)) == [17, 20, 6]
    deal_edit(deal=deal, entry=DEAL_2, by=owner)  # Cara shoots the moon
    assert totals(page(phone, moon_game)) == [43, 43, 0]
    deal_delete(deal=deal, by=owner)
    assert totals(page(phone, moon_game)) == [0, 0, 0]


def test_a_renamed_player_shows_at_once(phone, moon_game, players):
    assert "Alicia" not in kept(phone, moon_game)
    player_rename(player=players[0], name="Alicia")
    assert "Alicia" in page(phone, moon_game)


def test_a_renamed_table_shows_at_once(phone, moon_game, table):
    assert "Saturday club" not in kept(phone, moon_game)
    table_rename(table=table, name="Saturday club")
    assert "Saturday club" in page(phone, moon_game)


def test_a_note_shows_at_once(phone, moon_game):
    assert "At the cabin" not in kept(phone, moon_game)
    game_annotate(game=moon_game, note="At the cabin")
    assert "At the cabin" in page(phone, moon_game)


def test_changed_house_rules_show_at_once(phone, table, players, owner):
    from games.services.games import game_start

    ruleset = ruleset_save(ruleset=Ruleset(name="Ours", notes="Jokers wild"), table=table)
    game = game_start(table=table, players=players, ruleset=ruleset, first_dealer=0, by=owner)
    assert "Jokers wild" in kept(phone, game)
    ruleset.notes = "No jokers"
    ruleset_save(ruleset=ruleset, table=table)
    assert "No jokers" in page(phone, game)


def test_a_deleted_club_night_is_no_longer_linked(phone, table, owner):
    people = [table.players.create(name=n) for n in ("Ann", "Bo", "Cy")]
    evening = evening_start(
        table=table,
        name="Friday",
        day=date(2026, 12, 4),
        scoring="places",
        ruleset=builtin("Black Maria"),
        players=people,
        by=owner,
    )
    from games.services.clubnights import round_start

    assert round_start(evening=evening, number=1, by=owner)
    game = evening.games.get()
    link = f"/evenings/{evening.pk}/"
    assert link in kept(phone, game)
    evening_delete(evening=evening)
    assert link not in page(phone, game)
    assert phone.get(game.get_absolute_url()).status_code == 200


def test_a_game_not_dealt_yet_shows_the_chances_of_the_ladder_as_it_is_now(
    phone, table, players, owner
):
    """Re-rating moves no game's version of its own: an import that re-rated the
    table left the kept page's chances from before (16/39/16 % where the ladder said 15/39/18)."""
    import html
    from datetime import UTC, datetime

    from games.formats.paper import result_game
    from games.formats.writing import FORMAT
    from games.pages.ladder import chances_line
    from games.services import ladder
    from games.services.games import game_start
    from games.services.imports import import_history
    from tests.factories import make_games

    make_games(table, players, 4, 3)
    ladder.rerate(table)
    game = game_start(
        table=table, players=players, ruleset=builtin("Black Maria"), first_dealer=0, by=owner
    )

    def shown(html_page: str) -> list[str]:
        line = re.search(r'<p class="chances">(.*?)</p>', html_page, re.S)[1]
        return re.findall(r'<span class="whole">([^<]+)</span>', html.unescape(line))

    before = shown(kept(phone, game))
    assert before == chances_line([s.player for s in game.seats.order_by("number")])
    seats = [("Cara", 0), ("Ben", 40), ("Alice", 60)]
    at = datetime(2026, 1, 1, 20, tzinfo=UTC)
    results = [result_game(table.name, key=f"won-{n}", seats=seats, at=at) for n in range(3)]
    import_history({"format": FORMAT, "games": results}, owner=owner, table=table)
    now = chances_line([s.player for s in game.seats.order_by("number")])
    assert now != before
    assert shown(page(phone, game)) == now


@pytest.mark.parametrize("change", ELSEWHERE)
def test_what_no_board_shows_leaves_its_polls_alone(change, phone, table, players, owner):
    from games.services.games import game_start

    ruleset = ruleset_save(ruleset=Ruleset(name="Ours", notes="Jokers wild"), table=table)
    game = game_start(table=table, players=players, ruleset=ruleset, first_dealer=0, by=owner)
    watch_link_replace(game)
    before = (board_etag(phone, game), watch_etag(game))
    ELSEWHERE[change](game, owner)
    assert (board_etag(phone, game), watch_etag(game)) == before
