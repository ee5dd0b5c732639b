"""The table pages: home, a new table, its page, settings, default rules, seasons, deletion."""

from __future__ import annotations

import html
import re

from django.urls import reverse

from games.models import Table
from tests.factories import builtin, text


def test_sign_up_signs_in_and_leads_to_a_new_table(client, db):
    response = client.post(
        reverse("signup"),
        {"username": "bo", "password1": "long-pass-phrase-1", "password2": "long-pass-phrase-1"},
    )
    assert response.status_code == 302
    assert response.url == reverse("table_new")
    assert client.get(reverse("home")).status_code == 200


def test_home_says_what_this_is_to_someone_not_signed_in(client, db):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    assert "A scorekeeper for Black Maria" in response.content.decode()
    # The pages behind it still ask for signing in.
    assert client.get(reverse("table_new")).url.startswith(reverse("login"))


def test_home_lists_tables_and_games_in_progress(
    client_owner, moon_game, django_assert_max_num_queries
):
    with django_assert_max_num_queries(9):  # 8, and whether a table was deleted under them
        response = client_owner.get(reverse("home"))
    page = text(response)
    assert "Friday club" in page
    assert moon_game.get_absolute_url() in page


def test_a_table_is_made_with_its_players(client_owner, owner):
    response = client_owner.post(
        reverse("table_new"),
        {
            "name": "  Kitchen  ",
            "players": "Alice\n Ben \n\nCara",
            "default_ruleset": builtin("Omnibus").pk,
        },
    )
    table = Table.objects.get(name="Kitchen")
    assert response.status_code == 302
    assert table.owner == owner
    assert table.default_ruleset.name == "Omnibus"
    assert sorted(table.players.values_list("name", flat=True)) == ["Alice", "Ben", "Cara"]


def test_a_table_refuses_a_player_listed_twice(client_owner):
    response = client_owner.post(
        reverse("table_new"),
        {"name": "Kitchen", "players": "Ann\nann", "default_ruleset": builtin("Omnibus").pk},
    )
    assert response.status_code == 200
    assert "Ann and ann are the same player written two ways" in text(response)
    assert not Table.objects.exists()


def test_choosing_the_default_ruleset(client_owner, table):
    url = reverse("table_default_ruleset", args=[table.pk])
    client_owner.post(url, {"ruleset": builtin("Hearts only").pk})
    table.refresh_from_db()
    assert table.default_ruleset.name == "Hearts only"


def test_the_new_game_screen_offers_the_players_in_the_order_they_were_typed(client_owner, owner):
    client_owner.post(
        reverse("table_new"),
        {
            "name": "Friday",
            "players": "Zoe\nAnna\nMia",
            "default_ruleset": builtin("Black Maria").pk,
        },
    )
    table = Table.objects.get(name="Friday")
    page = text(client_owner.get(reverse("game_new", args=[table.pk])))
    seated = re.findall(r'name="players" value="\d+" checked><span>(\w+)</span>', page)
    assert seated == ["Zoe", "Anna", "Mia"]
    assert 'name="seat_' not in page  # no seat dropdowns


def test_a_season_overlapping_another_is_refused_naming_it(client_owner, table):
    from datetime import date

    from games.models import Season

    url = reverse("season_new", args=[table.pk])
    summer = {"name": "Summer", "starts": "2026-06-01", "ends": "2026-08-31"}
    assert client_owner.post(url, summer).status_code == 302
    for starts, ends in [("2026-08-31", "2026-11-30"), ("2026-05-01", "2026-06-01"),
                         ("2026-07-01", "2026-07-02"), ("2026-01-01", "2026-12-31")]:  # fmt: skip
        response = client_owner.post(url, {"name": "Autumn", "starts": starts, "ends": ends})
        assert response.status_code == 422
        page = html.unescape(text(response))
        assert "Summer runs from 1 Jun 2026 to 31 Aug 2026: seasons can't overlap." in page
    assert list(Season.objects.values_list("name", flat=True)) == ["Summer"]
    autumn = {"name": "Autumn", "starts": "2026-09-01", "ends": "2026-11-30"}
    assert client_owner.post(url, autumn).status_code == 302
    assert table.seasons.get(name="Autumn").starts == date(2026, 9, 1)
    nb = client_owner.post(
        url,
        {"name": "Jul", "starts": "2026-11-30", "ends": "2026-12-31"},
        HTTP_ACCEPT_LANGUAGE="nb",
    )
    said = "Autumn varer fra 1. september 2026 til 30. november 2026: sesonger kan ikke overlappe."
    assert said in html.unescape(text(nb))


def test_every_id_on_the_settings_page_is_its_own_and_each_field_has_its_label(client_owner, table):
    """The season's name and the new player's were both id_name: the new player's
    box had no label a screen reader could find. The table's name is there too now."""

    page = client_owner.get(reverse("table_settings", args=[table.pk])).content.decode()
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    assert '<label for="player_name">New player&#x27;s name</label>' in page
    assert 'for="season_name"' in page and 'id="season_name"' in page
