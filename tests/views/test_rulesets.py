"""A table's own rulesets: new, edited, previewed."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.models import Ruleset
from games.services.deals import deal_record
from games.services.games import game_start
from tests.factories import DEAL_1, HX, builtin, text


def ruleset_post(**changes) -> dict:
    data = {
        "name": "House",
        "hearts": "one",
        "queen_of_spades": "13",
        "king_of_spades": "10",
        "ace_of_spades": "7",
        "jack_of_diamonds": "0",
        "moon": "others",
        "target": "100",
        "deals": "",
        "removed": "",
        "pass_cards": "",
        "pass_direction": "right",
        "notes": "",
    }
    data.update(changes)
    return data


def test_a_table_makes_its_own_ruleset_from_a_builtin(client_owner, table):
    url = reverse("ruleset_new", args=[table.pk])
    response = client_owner.get(url + f"?from={builtin('Spot hearts').pk}")
    assert response.status_code == 200
    assert 'value="Spot hearts (our rules)"' in text(response)
    assert client_owner.post(url, ruleset_post(queen_of_spades="26")).status_code == 302
    ruleset = Ruleset.objects.get(table=table)
    assert ruleset.queen_of_spades == 26


def test_an_adapted_ruleset_has_no_note_of_the_old_one_and_becomes_the_default(client_owner, table):
    url = reverse("ruleset_new", args=[table.pk])
    hearts = builtin("Hearts only")
    page = text(client_owner.get(url + f"?from={hearts.pk}"))
    assert re.search(r'<textarea name="notes"[^>]*>\s*</textarea>', page)
    assert "across, hold" not in page
    client_owner.post(url, ruleset_post(name="Hearts, passing right", pass_direction="right"))
    table.refresh_from_db()
    assert table.default_ruleset.name == "Hearts, passing right"
    # The settings page describes each ruleset from its settings, in the person's language.
    page = text(client_owner.get(reverse("table_settings", args=[table.pk])))
    assert (
        "Hearts 1 each, Q♠ 13, K♠ 10, A♠ 7 · moon: the others add · to 100 · pass to the right"
        in page
    )
    nb = text(
        client_owner.get(reverse("table_settings", args=[table.pk]), HTTP_ACCEPT_LANGUAGE="nb")
    )
    assert "Hjerter 1 hver, D♠ 13, K♠ 10, E♠ 7 · måne: de andre får den · til 100" in nb
    form = text(client_owner.get(url, HTTP_ACCEPT_LANGUAGE="nb"))
    assert "Vises på spillsiden" in form and "House rules shown" not in form


def test_the_ruleset_preview_shows_deal_total_and_moon(client_owner, table):
    url = reverse("ruleset_preview", args=[table.pk])
    response = client_owner.post(url, ruleset_post(jack_of_diamonds="-10"), **HX)
    page = text(response)
    assert '<th scope="row">3</th><td>33</td><td>43</td>' in page
    assert '<th scope="row">6</th><td>32</td><td>42</td>' in page


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {"removed": "2C 2D 2S 2H 3C"},
            "With 5 cards taken out, 47 cards don&#x27;t deal out equally",
        ),
        ({"removed": "ZZ"}, "ZZ: not cards"),
        ({"target": "", "deals": ""}, "The game needs an end"),
        ({"deals": "2.5"}, "Enter a whole number"),
        ({"jack_of_diamonds": "3"}, "J♦ is a bonus card"),
    ],
)
def test_impossible_rulesets_are_refused_clearly(client_owner, table, changes, message):
    response = client_owner.post(reverse("ruleset_new", args=[table.pk]), ruleset_post(**changes))
    assert response.status_code == 422
    assert message in text(response)
    assert not Ruleset.objects.filter(table=table).exists()


def test_a_deal_count_that_is_not_a_multiple_of_the_players_is_warned(client_owner, table):
    url = reverse("ruleset_preview", args=[table.pk])
    page = text(client_owner.post(url, ruleset_post(deals="6", target=""), **HX))
    assert "6 deals for 4 players: not everyone deals the same number of times." in page
    assert "6 deals is not a multiple of 3" not in page


def test_editing_a_ruleset_never_rescores_a_started_game(client_owner, table, players, owner):
    ruleset = Ruleset.objects.create(table=table, name="House", moon="others")

    game = game_start(table=table, players=players, ruleset=ruleset, first_dealer=0)
    deal_record(game=game, entry=DEAL_1, by=owner)
    url = reverse("ruleset_edit", args=[table.pk, ruleset.pk])
    assert client_owner.post(url, ruleset_post(queen_of_spades="26")).status_code == 302
    game.refresh_from_db()
    assert game.get_rules().queen_of_spades == 13
