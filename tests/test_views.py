"""The pages: what a signed-in person can do, and what an outsider can't."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from games import engine
from games.models import Deal, Game, Player, Ruleset, Table
from games.services.deals import deal_edit, deal_record
from games.services.games import game_start
from tests.factories import DEAL_1, DEAL_2, DEAL_3, builtin, game_snapshot

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def client_owner(client, owner):
    client.force_login(owner)
    return client


@pytest.fixture
def client_outsider(client, outsider):
    client.force_login(outsider)
    return client


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


# --- Accounts --------------------------------------------------------------------


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


def test_the_login_page_renders(client, db):
    response = client.get(reverse("login"))
    assert response.status_code == 200
    assert "<h1>Sign in</h1>" in text(response)


def test_home_lists_tables_and_games_in_progress(
    client_owner, moon_game, django_assert_max_num_queries
):
    with django_assert_max_num_queries(8):
        response = client_owner.get(reverse("home"))
    page = text(response)
    assert "Friday club" in page
    assert moon_game.get_absolute_url() in page


# --- Tables and players ------------------------------------------------------------


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


def test_adding_a_player_trims_and_refuses_a_name_taken(client_owner, table, players):
    url = reverse("player_add", args=[table.pk])
    assert client_owner.post(url, {"name": "  Dan  "}).status_code == 302
    assert table.players.filter(name="Dan").exists()
    response = client_owner.post(url, {"name": "alice"})
    assert response.status_code == 422
    assert "Alice already plays at this table" in text(response)
    response = client_owner.post(url, {"name": "x" * 41})
    assert response.status_code == 422
    assert table.players.count() == 4


def test_renaming_a_player(client_owner, players):
    url = reverse("player_rename", args=[players[0].pk])
    assert client_owner.get(url).status_code == 200
    assert client_owner.post(url, {"name": "Alicia"}).status_code == 302
    players[0].refresh_from_db()
    assert players[0].name == "Alicia"
    response = client_owner.post(url, {"name": "Ben"})
    assert "Ben already plays at this table" in text(response)


def test_a_renamed_player_shows_in_cached_history_and_polls(client_owner, moon_game, owner):
    """The history, entry form and poll are cached by game version: a rename moves it on."""
    deal_record(game=moon_game, entry=DEAL_1, by=owner)
    page = moon_game.get_absolute_url()
    live = reverse("game_live", args=[moon_game.pk])
    assert "Alice" in text(client_owner.get(page))
    etag = client_owner.get(live).headers["ETag"]
    alice = moon_game.seats.get(number=0).player
    client_owner.post(reverse("player_rename", args=[alice.pk]), {"name": "Alicia"})
    assert client_owner.get(live, HTTP_IF_NONE_MATCH=etag).status_code == 200
    shown = text(client_owner.get(page))
    shown = shown[shown.index('id="game-body"') :]  # past "Alice is now Alicia."
    assert "Alice " not in shown and "Alicia" in shown
    history = shown[shown.index('id="history"') :]
    assert "Alicia" in history  # the dealer of deal 1, from the cached rows


def test_choosing_the_default_ruleset(client_owner, table):
    url = reverse("table_default_ruleset", args=[table.pk])
    client_owner.post(url, {"ruleset": builtin("Hearts only").pk})
    table.refresh_from_db()
    assert table.default_ruleset.name == "Hearts only"


# --- Rulesets -----------------------------------------------------------------------


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
    # The table page describes each ruleset from its settings, in the person's language.
    page = text(client_owner.get(table.get_absolute_url()))
    assert (
        "Hearts 1 each, Q♠ 13, K♠ 10, A♠ 7 · moon: the others add · to 100 · pass to the right"
        in page
    )
    nb = text(client_owner.get(table.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="nb"))
    assert "Hjerter 1 hver, D♠ 13, K♠ 10, E♠ 7 · måne: de andre får den · til 100" in nb
    form = text(client_owner.get(url, HTTP_ACCEPT_LANGUAGE="nb"))
    assert "Vises på spillsiden" in form and "House rules shown" not in form


def test_a_built_in_rulesets_note_is_not_shown_on_the_game_page(client_owner, table, players):
    omnibus = builtin("Omnibus")
    game = game_start(table=table, players=players, ruleset=omnibus, first_dealer=0)
    page = text(client_owner.get(game.get_absolute_url()))
    assert "House rules" not in page and "whoever" not in page
    assert "2♣ out" in page  # the facts line says what the table needs


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
    from games.services.games import game_start

    game = game_start(table=table, players=players, ruleset=ruleset, first_dealer=0)
    deal_record(game=game, entry=DEAL_1, by=owner)
    url = reverse("ruleset_edit", args=[table.pk, ruleset.pk])
    assert client_owner.post(url, ruleset_post(queen_of_spades="26")).status_code == 302
    game.refresh_from_db()
    assert game.get_rules().queen_of_spades == 13


# --- New game -------------------------------------------------------------------------


def start_form(players, dealer="draw", ruleset="Black Maria", **extra) -> dict:
    """What the New game screen sends: players in seat order, and the rest as offered."""
    chosen = builtin(ruleset)
    form = {
        "players": [p.pk for p in players],
        "first_dealer": dealer if dealer == "draw" else str(dealer.pk),
        "ruleset": chosen.pk,
        "end": "target",
        "target": "100",
        "moon": chosen.moon,
    }
    return {**form, **extra}


def test_starting_a_game_in_seat_order_with_a_chosen_dealer(client_owner, table, players):
    alice, ben, cara = players
    response = client_owner.post(
        reverse("game_new", args=[table.pk]), start_form([cara, alice, ben], dealer=ben)
    )
    game = Game.objects.get()
    assert response.url == game.get_absolute_url()
    assert [s.player.name for s in game.seats.order_by("number")] == ["Cara", "Alice", "Ben"]
    assert game.first_dealer == 2


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


def test_starting_a_game_refuses_too_few_players_or_a_dealer_not_playing(
    client_owner, table, players
):
    alice, ben, cara = players
    url = reverse("game_new", args=[table.pk])
    response = client_owner.post(url, start_form([alice, ben]))
    assert "Choose 3 to 7 players (you chose 2)" in text(response)
    response = client_owner.post(url, start_form([alice, ben, cara, alice]))  # sent twice
    assert response.status_code == 302
    Game.objects.all().delete()
    table.players.create(name="Dag")
    response = client_owner.post(
        url, start_form([alice, ben, cara], dealer=table.players.get(name="Dag"))
    )
    assert "The first dealer must be one of the players in this game" in text(response)
    response = client_owner.post(url, start_form([alice, ben, cara], end="deals", deals=""))
    assert "Give the number of deals, or end at a target" in text(response)
    assert not Game.objects.exists()


def test_the_end_and_moon_chosen_are_the_games_and_the_next_games_offer(
    client_owner, table, players
):
    url = reverse("game_new", args=[table.pk])
    form = start_form(players, end="deals", deals="8", moon="others", ruleset="Hearts only")
    response = client_owner.post(url, form, follow=True)
    game = Game.objects.get()
    rules = game.get_rules()
    assert (rules.name, rules.target, rules.deals, rules.moon) == ("Hearts only", None, 8, "others")
    assert "8 deals for 3 players: not everyone deals the same number of times." in text(response)
    table.refresh_from_db()
    assert table.default_ruleset == builtin("Hearts only")
    page = text(client_owner.get(url))
    assert 'name="deals" value="8"' in page
    assert re.search(r'name="end" value="deals"[^>]*checked', page)
    assert re.search(r'name="moon" value="others"[^>]*checked', page)


def test_players_typed_on_the_new_game_screen_join_the_table_after_the_tapped_ones(
    client_owner, table, players
):
    cara = players[2]
    url = reverse("game_new", args=[table.pk])
    response = client_owner.post(url, start_form([cara], new_players="Dag, alice ,  Eli"))
    assert response.status_code == 302
    game = Game.objects.get()
    # "alice" is Alice, not a second one; Dag and Eli are new at the table.
    assert [s.player.name for s in game.seats.order_by("number")] == ["Cara", "Alice", "Dag", "Eli"]
    Game.objects.all().delete()
    # A new player can deal first: "new-1" is the second one typed.
    client_owner.post(url, start_form([cara], new_players="Gus, Eve", first_dealer="new-1"))
    game = Game.objects.get()
    assert game.seats.get(number=game.first_dealer).player.name == "Eve"
    assert sorted(table.players.values_list("name", flat=True)) == [
        "Alice", "Ben", "Cara", "Dag", "Eli", "Eve", "Gus",
    ]  # fmt: skip


# --- The game page ------------------------------------------------------------------------


def test_the_game_page_shows_totals_the_coming_deal_and_the_pass(client_owner, moon_game, owner):
    deal_record(game=moon_game, entry=DEAL_1, by=owner)
    page = text(client_owner.get(moon_game.get_absolute_url()))
    assert "Deal 2 — Ben deals, Cara leads</h2>" in page
    assert "<summary>Pass 3 cards to the right</summary>" in page
    assert (
        'Alice <span aria-hidden="true">→</span><span class="sr-only">passes to</span> Cara' in page
    )
    assert "83 to go" in page  # Alice has 17, the game goes to 100
    assert 'class="total leading"' in page  # Cara, 6


def test_the_game_page_keeps_its_query_count_whatever_the_deals(
    client_owner, moon_game, owner, django_assert_max_num_queries
):
    for _ in range(2):
        deal_record(game=moon_game, entry=engine.PointsEntry((17, 13, 13)), by=owner)
    # Nothing cached yet: the page and its parts are rendered and kept.
    with django_assert_max_num_queries(26) as few:
        client_owner.get(moon_game.get_absolute_url())
    for _ in range(3):
        deal_record(game=moon_game, entry=engine.PointsEntry((0, 13, 30)), by=owner)
    with django_assert_max_num_queries(len(few.captured_queries)):
        client_owner.get(moon_game.get_absolute_url())


def post_deal(client, game, **fields):
    return client.post(reverse("deal_new", args=[game.pk]), fields)


def test_the_worked_example_entered_in_all_three_modes(client_owner, moon_game):
    hearts = [rank + "H" for rank in engine.RANKS]
    post_deal(client_owner, moon_game, mode="counts", number="1", **{
        "hearts-0": "4", "hearts-1": "3", "hearts-2": "6",
        "taker-QS": "0", "taker-KS": "1", "taker-AS": "1",
    })  # fmt: skip
    post_deal(client_owner, moon_game, mode="points", number="2", **{
        "points-0": "0", "points-1": "0", "points-2": "43"
    })  # fmt: skip
    cards = {"taker-QS": "0", "taker-KS": "0", "taker-AS": "2"}
    cards.update({f"taker-{h}": "0" for h in hearts[:5]})
    cards.update({f"taker-{h}": "1" for h in hearts[5:7]})
    cards.update({f"taker-{h}": "2" for h in hearts[7:]})
    response = post_deal(client_owner, moon_game, mode="cards", number="3", **cards)
    assert response.status_code == 302
    assert list(moon_game.seats.values_list("total", flat=True)) == [88, 65, 19]
    page = text(client_owner.get(moon_game.get_absolute_url()))
    assert '<span class="points">88</span>' in page
    assert "☾" in page


def test_the_last_players_hearts_are_the_remainder(client_owner, moon_game):
    response = post_deal(client_owner, moon_game, mode="counts", number="1", **{
        "hearts-0": "4", "hearts-1": "3", "taker-QS": "0", "taker-KS": "1", "taker-AS": "1",
    })  # fmt: skip
    assert response.status_code == 302
    assert Deal.objects.get().entry["hearts"] == [4, 3, 6]


def test_an_invalid_deal_is_refused_keeps_what_was_typed_and_saves_nothing(client_owner, moon_game):
    before = game_snapshot(moon_game)
    response = post_deal(client_owner, moon_game, mode="points", number="1", **{
        "points-0": "11", "points-1": "11", "points-2": "11",
    })  # fmt: skip
    assert response.status_code == 422
    page = text(response)
    assert "Points add up to 33, the deal total is 43" in page
    assert 'name="points-0" value="11"' in page
    assert game_snapshot(moon_game) == before


def test_a_double_tap_on_save_records_the_deal_once(client_owner, moon_game):
    fields = {"mode": "points", "number": "1", "points-0": "17", "points-1": "13", "points-2": "13"}
    assert post_deal(client_owner, moon_game, **fields).status_code == 302
    assert post_deal(client_owner, moon_game, **fields).status_code == 302
    assert moon_game.deals.count() == 1


def test_a_deal_someone_else_just_entered_is_shown_not_doubled(client_owner, moon_game, outsider):
    deal_record(game=moon_game, entry=engine.PointsEntry((17, 13, 13)), by=outsider, number=1)
    fields = {"mode": "points", "number": "1", "points-0": "13", "points-1": "17", "points-2": "13"}
    response = post_deal(client_owner, moon_game, **fields)
    assert response.status_code == 409
    page = text(response)
    assert "Deal 1 was just entered by olaf — here it is." in page
    assert "Theirs: Alice 17, Ben 13, Cara 13." in page
    assert 'name="points-0" value="13"' in page
    # Kept under its own number, with the choices: never armed as the next deal.
    assert 'name="number" value="1"' in page
    assert "Save deal 2" not in page
    assert 'name="next_number" value="2"' in page and "Enter mine as deal 2" in page
    assert "Keep theirs" in page
    assert moon_game.deals.count() == 1
    # Sent again as it is, it conflicts again; chosen as the next deal, it is deal 2.
    assert post_deal(client_owner, moon_game, **fields).status_code == 409
    assert moon_game.deals.count() == 1
    assert post_deal(client_owner, moon_game, next_number="2", **fields).status_code == 302
    assert list(moon_game.deals.values_list("number", "scores")) == [
        (1, [17, 13, 13]),
        (2, [13, 17, 13]),
    ]


def test_saving_with_htmx_returns_a_fresh_form_and_tells_the_scoreboard(client_owner, moon_game):
    fields = {"mode": "points", "number": "1", "points-0": "17", "points-1": "13", "points-2": "13"}
    response = client_owner.post(reverse("deal_new", args=[moon_game.pk]), fields, **HX)
    assert response.status_code == 200
    assert json.loads(response["HX-Trigger-After-Settle"]) == {"dealRecorded": {}}
    assert 'id="live"' in text(response) and 'hx-swap-oob="true"' in text(response)
    page = text(response)
    assert '<section id="entry"' in page
    assert "Enter deal 2" in page
    assert 'name="points-0" value=""' in page
    assert "history" not in page


def current_mode(page: str) -> str:
    return re.search(r'href="\?mode=(\w+)#entry"[^>]*aria-current="true"', page).group(1)


def test_the_entry_mode_is_remembered_per_table(client_owner, moon_game):
    assert current_mode(text(client_owner.get(moon_game.get_absolute_url()))) == "counts"
    post_deal(client_owner, moon_game, mode="points", number="1", **{
        "points-0": "17", "points-1": "13", "points-2": "13",
    })  # fmt: skip
    assert current_mode(text(client_owner.get(moon_game.get_absolute_url()))) == "points"


def test_spot_hearts_enter_cards_by_default(client_owner, table, players):
    from games.services.games import game_start

    game = game_start(table=table, players=players, ruleset=builtin("Spot hearts"), first_dealer=0)
    page = text(client_owner.get(game.get_absolute_url()))
    assert "?mode=counts" not in page
    assert 'href="?mode=cards#entry"' in page
    assert "For each card, tap who took it." in page


# --- Correcting ---------------------------------------------------------------------------


def test_editing_a_deal_rescores_the_rest(client_owner, moon_game, owner):
    first = deal_record(game=moon_game, entry=DEAL_1, by=owner)
    deal_record(game=moon_game, entry=DEAL_2, by=owner)
    deal_record(game=moon_game, entry=DEAL_3, by=owner)
    url = reverse("deal_edit", args=[first.pk])
    page = text(client_owner.get(url))
    assert 'name="hearts-0" value="4" checked' in page
    response = client_owner.post(url, {
        "mode": "points", "version": "1", "points-0": "13", "points-1": "17", "points-2": "13",
    })  # fmt: skip
    assert response.status_code == 302
    assert list(moon_game.seats.values_list("total", flat=True)) == [84, 62, 26]


def test_an_edit_that_would_end_the_game_early_shows_why(client_owner, table, players, owner):
    from games.services.games import game_start

    ruleset = Ruleset.objects.create(table=table, name="To 70", moon="others", target=70)
    game = game_start(table=table, players=players, ruleset=ruleset, first_dealer=0)
    first = deal_record(game=game, entry=DEAL_1, by=owner)
    deal_record(game=game, entry=DEAL_2, by=owner)
    deal_record(game=game, entry=DEAL_3, by=owner)
    response = client_owner.post(reverse("deal_edit", args=[first.pk]), {
        "mode": "points", "version": "1", "points-0": "43", "points-1": "0", "points-2": "0",
    })  # fmt: skip
    assert response.status_code == 422
    assert "The game would end after deal 2 (Ben has 86, reaching the target of 70)" in text(
        response
    )


def test_deleting_a_deal(client_owner, moon_game, owner):
    deal = deal_record(game=moon_game, entry=DEAL_1, by=owner)
    url = reverse("deal_delete", args=[deal.pk])
    assert "Delete deal 1" in text(client_owner.get(url))
    assert client_owner.post(url, {"version": "1"}).status_code == 302
    assert not moon_game.deals.exists()


def test_a_finished_game_shows_the_winner_and_takes_no_more_deals(
    client_owner, table, players, owner
):
    from games.services.games import game_start

    game = game_start(table=table, players=players, ruleset=builtin("Hearts only"), first_dealer=0)
    deal_record(game=game, entry=engine.PointsEntry((0, 26, 0)), by=owner)
    deal_record(game=game, entry=engine.PointsEntry((0, 26, 0)), by=owner)
    page = text(client_owner.get(game.get_absolute_url()))
    assert "★</span> Ben wins" in page
    assert 'id="entry"' not in page
    response = post_deal(client_owner, game, mode="points", number="3", **{
        "points-0": "13", "points-1": "13", "points-2": "0",
    })  # fmt: skip
    assert "The game is over: no more deals can be entered." in text(response)
    assert game.deals.count() == 2


def test_a_tie_shares_the_win_and_a_rematch_keeps_seats_and_rules(
    client_owner, table, players, owner
):
    from games.services.games import game_start

    ruleset = Ruleset.objects.create(table=table, name="One deal", target=None, deals=1)
    game = game_start(table=table, players=players, ruleset=ruleset, first_dealer=1)
    deal_record(game=game, entry=engine.PointsEntry((13, 17, 13)), by=owner)
    assert "★</span> Alice and Cara share the win" in text(
        client_owner.get(game.get_absolute_url())
    )
    response = client_owner.post(reverse("game_rematch", args=[game.pk]))
    new = Game.objects.exclude(pk=game.pk).get()
    assert response.url == new.get_absolute_url()
    assert new.rules == game.rules
    assert new.first_dealer == 2
    assert [s.player_id for s in new.seats.order_by("number")] == [p.pk for p in players]


# --- Outsiders ---------------------------------------------------------------------------------


def test_an_outsider_gets_404_everywhere(client_outsider, moon_game, owner, players):
    deal = deal_record(game=moon_game, entry=DEAL_1, by=owner)
    table = moon_game.table
    before = game_snapshot(moon_game)
    gets = [
        reverse("table_detail", args=[table.pk]),
        reverse("ruleset_new", args=[table.pk]),
        reverse("game_new", args=[table.pk]),
        reverse("player_rename", args=[players[0].pk]),
        reverse("game_detail", args=[moon_game.pk]),
        reverse("deal_edit", args=[deal.pk]),
        reverse("deal_delete", args=[deal.pk]),
    ]
    for url in gets:
        assert client_outsider.get(url).status_code == 404, url
    posts = [
        reverse("player_add", args=[table.pk]),
        reverse("table_default_ruleset", args=[table.pk]),
        reverse("ruleset_preview", args=[table.pk]),
        reverse("game_new", args=[table.pk]),
        reverse("deal_new", args=[moon_game.pk]),
        reverse("deal_edit", args=[deal.pk]),
        reverse("deal_delete", args=[deal.pk]),
        reverse("game_rematch", args=[moon_game.pk]),
        reverse("player_rename", args=[players[0].pk]),
    ]
    for url in posts:
        assert client_outsider.post(url, {"name": "x", "mode": "points"}).status_code == 404, url
    assert game_snapshot(moon_game) == before
    assert Player.objects.filter(table=table).count() == 3


def test_anonymous_visitors_are_sent_to_sign_in(client, moon_game):
    response = client.get(moon_game.get_absolute_url())
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_a_stale_edit_keeps_the_version_seen_until_the_person_saves_over_theirs(
    client_owner, moon_game, outsider
):
    deal = deal_record(game=moon_game, entry=engine.PointsEntry((17, 13, 13)), by=outsider)
    url = reverse("deal_edit", args=[deal.pk])
    mine = {"mode": "points", "version": "1", "points-0": "13", "points-1": "13", "points-2": "17"}
    deal_edit(deal=deal, entry=engine.PointsEntry((13, 17, 13)), by=outsider)  # another phone
    response = client_owner.post(url, mine)
    assert response.status_code == 409
    page = text(response)
    assert "Deal 1 was changed by someone else" in page
    assert "Theirs: Alice 13, Ben 17, Cara 13." in page
    assert 'name="version" value="1"' in page  # the version seen, not theirs
    assert 'name="replace_version" value="2"' in page
    # Saved again as it is: a conflict again, theirs stands.
    assert client_owner.post(url, mine).status_code == 409
    deal.refresh_from_db()
    assert deal.scores == [13, 17, 13]
    # Saved over theirs, by choice.
    assert client_owner.post(url, {**mine, "replace_version": "2"}).status_code == 302
    deal.refresh_from_db()
    assert (deal.scores, deal.version) == ([13, 13, 17], 3)


def test_a_new_game_form_sent_again_opens_the_game_it_started(client_owner, table, players):
    url = reverse("game_new", args=[table.pk])
    page = client_owner.get(url).content.decode()
    key = re.search(r'name="key" value="([^"]+)"', page).group(1)
    assert (
        key != re.search(r'name="key" value="([^"]+)"', client_owner.get(url).content.decode())[1]
    )
    ruleset = builtin("Black Maria")
    form = {**start_form(players, dealer=players[0]), "key": key, "ruleset": ruleset.pk}
    first = client_owner.post(url, form)
    assert first.status_code == 302
    game = table.games.get()
    # Back, then "Start the game" again, or a double tap: the same game opens.
    again = client_owner.post(url, form)
    assert again.status_code == 302 and again.url == first.url == game.get_absolute_url()
    assert table.games.count() == 1
    # A new form (a new key) starts a new game.
    assert client_owner.post(url, {**form, "key": "another"}).status_code == 302
    assert table.games.count() == 2


def test_the_game_page_says_cards_each_cards_out_the_pass_and_the_end(client_owner, moon_game):
    page = text(client_owner.get(moon_game.get_absolute_url()))
    assert "17 cards each · 2♣ out · to 100" in page
    assert "<summary>Pass 3 cards to the right</summary>" in page  # in the deal's banner
    assert "100 to go" in page and "100 to 100" not in page


def test_a_game_of_six_deals_says_which_deal_of_six_and_the_last(client_owner, table, players):
    from games.services.games import game_start

    ruleset = Ruleset.objects.create(table=table, name="Six", target=None, deals=6)
    game = game_start(table=table, players=players, ruleset=ruleset, first_dealer=0)
    page = text(client_owner.get(game.get_absolute_url()))
    assert "Deal 1 of 6" in page and "6 deals" in page
    for _ in range(5):
        deal_record(game=game, entry=engine.PointsEntry((17, 13, 13)), by=None)
    page = text(client_owner.get(game.get_absolute_url()))
    assert "Last deal" in page
    sheet = text(client_owner.get(reverse("game_print", args=[game.pk])))
    assert "17 cards each · 2♣ out" in sheet


def test_a_moon_says_what_the_shooter_scores_after_the_cards_taken(client_owner, moon_game):
    """As the edit page opens on a moon (the phone's check says the same as it is tapped)."""
    deal = deal_record(game=moon_game, entry=engine.PointsEntry((0, 0, 43)), by=None)
    page = text(client_owner.get(reverse("deal_edit", args=[deal.pk])))
    taken = page.index("Adds up, cards taken: Alice 0, Ben 0, Cara 43.")
    assert page.index("☾ Cara shoots the moon: Cara scores 0, Alice and Ben +43 each") > taken
