"""A game's pages: New game, the game page, its note, print, changes, Play again, deletion."""

from __future__ import annotations

import re

from django.urls import reverse

from games import engine
from games.models import Deal, Game, Ruleset
from games.services.deals import deal_record
from games.services.games import game_start
from tests.factories import DEAL_1, builtin, game_snapshot, text


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


def post_deal(client, game, **fields):
    return client.post(reverse("deal_new", args=[game.pk]), fields)


def current_mode(page: str) -> str:
    return re.search(r'href="\?mode=(\w+)#entry"[^>]*aria-current="true"', page).group(1)


def test_a_built_in_rulesets_note_is_not_shown_on_the_game_page(client_owner, table, players):
    omnibus = builtin("Omnibus")
    game = game_start(table=table, players=players, ruleset=omnibus, first_dealer=0)
    page = text(client_owner.get(game.get_absolute_url()))
    assert "House rules" not in page and "whoever" not in page
    assert "2♣ out" in page  # the facts line says what the table needs


def test_starting_a_game_in_seat_order_with_a_chosen_dealer(client_owner, table, players):
    alice, ben, cara = players
    response = client_owner.post(
        reverse("game_new", args=[table.pk]), start_form([cara, alice, ben], dealer=ben)
    )
    game = Game.objects.get()
    assert response.url == game.get_absolute_url()
    assert [s.player.name for s in game.seats.order_by("number")] == ["Cara", "Alice", "Ben"]
    assert game.first_dealer == 2


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


def choices(page: str) -> tuple[bool, str]:
    """New game's folded choices: whether they are open, and the line saying them."""
    details = re.search(r"<details class=\"folded\"[^>]*>", page).group(0)
    said = re.search(r"data-choices-said>([^<]*)<", page).group(1)
    return " open" in details, said


def test_new_games_choices_fold_into_a_line_and_open_when_one_needs_the_person(
    client_owner, table, players
):
    alice, ben, cara = players
    url = reverse("game_new", args=[table.pk])
    page = text(client_owner.get(url))
    assert choices(page) == (False, "Black Maria · to 100 · no moon · the first dealer drawn")
    # Sent back for a reason elsewhere, they stay folded and say what was chosen.
    form = start_form([alice, ben], dealer=ben, end="deals", deals="1", moon="others")
    said = "Black Maria · 1 deal · moon: the others add · Ben deals first"
    assert choices(text(client_owner.post(url, form))) == (False, said)
    # A problem in one of them opens them.
    form = start_form([alice, ben, cara], end="target", target="")
    assert choices(text(client_owner.post(url, form)))[0] is True
    assert not Game.objects.exists()


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


def test_the_game_page_shows_totals_the_coming_deal_and_the_pass(client_owner, moon_game, owner):
    deal_record(game=moon_game, entry=DEAL_1, by=owner)
    page = text(client_owner.get(moon_game.get_absolute_url()))
    assert "Deal 2 — Ben deals, Cara leads</h2>" in page
    assert "<summary>Pass 3 cards to the right</summary>" in page
    assert (
        'Alice <span aria-hidden="true">→</span><span class="sr-only">passes to</span> Cara' in page
    )
    assert "83 to go" in page  # Alice has 17, the game goes to 100
    assert 'class="total place-1 leading with-chance"' in page  # Cara, 6, with her chance from here


def test_the_game_page_keeps_its_query_count_whatever_the_deals(
    client_owner, moon_game, owner, django_assert_max_num_queries
):
    for _ in range(2):
        deal_record(game=moon_game, entry=engine.PointsEntry((17, 13, 13)), by=owner)
    # Nothing cached yet: the page and its parts are rendered and kept.
    with django_assert_max_num_queries(26) as few:
        client_owner.get(moon_game.get_absolute_url())
    for _ in range(3):
        deal_record(game=moon_game, entry=engine.PointsEntry((13, 17, 13)), by=owner)
    with django_assert_max_num_queries(len(few.captured_queries)):
        client_owner.get(moon_game.get_absolute_url())


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
    # One number for the deal to come: the banner's and the choice's (theirs is deal 1).
    assert "Deal 2 — Ben deals, Cara leads" in page and "Enter deal 1" not in page
    assert "Yours, not saved yet" in page
    assert moon_game.deals.count() == 1
    # Sent again as it is, it conflicts again; chosen as the next deal, it is deal 2.
    assert post_deal(client_owner, moon_game, **fields).status_code == 409
    assert moon_game.deals.count() == 1
    assert post_deal(client_owner, moon_game, next_number="2", **fields).status_code == 302
    assert list(moon_game.deals.values_list("number", "scores")) == [
        (1, [17, 13, 13]),
        (2, [13, 17, 13]),
    ]


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
    # Sent again (Back, a double tap, the other phone): the one rematch opens.
    again = client_owner.post(reverse("game_rematch", args=[game.pk]))
    assert again.url == new.get_absolute_url()
    assert Game.objects.count() == 2


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
    # Said once, in the deal's banner (it stood alone above "Deal 1 — Alice deals" too).
    assert "Deal 1 of 6 — Alice deals, Ben leads" in page and "6 deals" in page
    assert page.count("Deal 1 of 6") == 2  # the banner, and the phone's copy of it in JSON
    assert "Deal 1 —" not in page
    for _ in range(5):
        deal_record(game=game, entry=engine.PointsEntry((17, 13, 13)), by=None)
    page = text(client_owner.get(game.get_absolute_url()))
    assert "Last deal — Cara deals, Alice leads" in page and "Deal 6" not in page
    sheet = text(client_owner.get(reverse("game_print", args=[game.pk])))
    assert "17 cards each · 2♣ out" in sheet


def test_the_dealer_under_a_deal_number_is_cut_only_where_columns_need_it(
    client_owner, table, players
):
    from games.services.games import game_start
    from games.services.players import players_join

    names = players_join(table=table, names=["Kristoffer", "Sebastian"])
    three = game_start(
        table=table, players=[*names, players[0]], ruleset=builtin("Black Maria"), first_dealer=0
    )
    deal_record(game=three, entry=engine.PointsEntry((17, 13, 13)), by=None)
    page = client_owner.get(three.get_absolute_url()).content.decode()
    assert "1<small>Kristoffer</small>" in page  # three players: the whole name
    four = game_start(
        table=table, players=[*names, *players[:2]], ruleset=builtin("Black Maria"), first_dealer=0
    )
    deal_record(game=four, entry=engine.PointsEntry((13, 13, 4, 13)), by=None)
    page = client_owner.get(four.get_absolute_url()).content.decode()
    # Four or more: both, the short one shown on a narrow screen only (the CSS's .many).
    both = '<span class="name-full">Kristoffer</span><span class="name-short">Kri</span>'
    assert f"1<small>{both}</small>" in page


def test_five_or_more_players_by_cards_get_the_one_grid_and_its_script(
    client_owner, table, players
):
    from games.services.players import players_join

    more = [*players, *players_join(table=table, names=["Dan", "Eve"])]
    five = game_start(table=table, players=more, ruleset=builtin("Black Maria"), first_dealer=0)
    three = game_start(table=table, players=players, ruleset=builtin("Black Maria"), first_dealer=0)
    page = client_owner.get(five.get_absolute_url() + "?mode=cards").content.decode()
    assert "data-by-player" in page and "js/by-player" in page
    assert page.count("data-card=") == 16 and 'data-seat="4" data-short="Eve"' in page
    page = client_owner.get(three.get_absolute_url() + "?mode=cards").content.decode()
    assert "data-by-player" not in page and "js/by-player" not in page


def test_the_game_page_and_its_fragment_vary_by_the_htmx_header(client_owner, moon_game):
    """The page and htmx's entry alone answer one address: a cache (the phone's,
    a proxy's) must keep them apart."""
    url = moon_game.get_absolute_url()
    page = client_owner.get(url)
    fragment = client_owner.get(url + "?mode=cards", HTTP_HX_REQUEST="true")
    assert b"<html" in page.content and b"<html" not in fragment.content
    for response in (page, fragment):
        assert "HX-Request" in response["Vary"], response["Vary"]
