"""Seven players named like real people, negative totals, on a 360 px phone:
every list fits, with no sideways scrolling and no word or number broken."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from games import engine
from games.models import Player, Ruleset, Table
from games.services.deals import deal_record
from games.services.games import game_start
from games.services.sharing import watch_link_replace
from tests.e2e.conftest import axe_violations, screenshot, sign_in
from tests.e2e.helpers import Taps, misfits, phone
from tests.e2e.seven import NAMES, seven_at_a_table


@pytest.fixture
def seven(transactional_db):
    return seven_at_a_table()


@pytest.mark.parametrize(("locale", "scheme"), [("en-GB", "light"), ("nb-NO", "dark")])
def test_every_page_of_a_seven_player_table_fits_a_360_px_phone(
    browser: Browser, live_server, seven, locale, scheme
):
    _, table, game, finished = seven
    page = phone(browser, locale=locale, color_scheme=scheme)
    sign_in(page, live_server)
    token = watch_link_replace(game)
    pages = {
        "90-seven-game": game.get_absolute_url(),
        "82-seven-chances": table.games.filter(deals=None).latest("pk").get_absolute_url(),
        "91-seven-game-cards": game.get_absolute_url() + "?mode=cards",
        "92-seven-finished": finished.get_absolute_url(),
        "93-seven-table": table.get_absolute_url(),
        "94-seven-history": reverse("table_history", args=[table.pk]),
        "95-seven-stats": reverse("table_stats", args=[table.pk]),
        "96-seven-print": reverse("game_print", args=[game.pk]),
        "97-seven-deal-edit": reverse("deal_edit", args=[game.deals.get(number=2).pk]),
        "98-seven-changes": reverse("game_changes", args=[game.pk]),
        "99-seven-watch": reverse("watch_game", args=[token]),
        "87-seven-evening": reverse("evening_detail", args=[table.evenings.get().pk]),
        "86-seven-evening-new": reverse("evening_new", args=[table.pk]),
        "85-seven-big-screen": reverse("watch_evening", args=[table.evenings.get().watch_token]),
        "88-seven-player": reverse("player_detail", args=[table.players.get(name="Anne-Marie").pk]),
        "84-seven-player-ranked": reverse(
            "player_detail", args=[table.players.get(name="Kristoffer").pk]
        ),
    }
    page.goto(live_server.url + pages["82-seven-chances"])
    expect(page.locator(".chances")).to_contain_text("Kristoffer")
    page.goto(live_server.url + pages["93-seven-table"])
    expect(page.locator(".ladder li")).to_have_count(7)  # the ranked five, and the two apart
    expect(page.locator(".ladder.unranked li")).to_have_count(2)
    problems = []
    for name, url in pages.items():
        page.goto(live_server.url + url)
        problems += misfits(page, f"{name}-{locale}-{scheme}")
        problems += [f"{name}-{locale}-{scheme}: {v}" for v in axe_violations(page)]
    assert problems == [], "\n".join(problems)

    # Printed on A4 (186 mm between the margins is 703 CSS px): every column on the paper.
    page.set_viewport_size({"width": 703, "height": 1000})
    page.emulate_media(media="print")
    page.goto(live_server.url + pages["96-seven-print"])
    sheet = page.locator(".sheet-table")
    assert sheet.locator("thead th").all_inner_texts()[1:] == NAMES[::-1]  # in full
    assert page.evaluate("document.documentElement.scrollWidth") <= 703
    assert sheet.bounding_box()["width"] <= 703
    page.context.close()


@pytest.mark.parametrize("count", [3, 4])
def test_the_first_entry_control_is_on_the_first_screen(page: Page, live_server, count):
    user = get_user_model().objects.create_user("ann", password="a-long-pass-phrase")
    table = Table.objects.create(name="Fredagsklubben", owner=user)
    players = [Player.objects.create(table=table, name=n) for n in NAMES[:count]]
    rules = Ruleset.objects.get(table=None, name="Black Maria, moon to the others")
    game = game_start(table=table, players=players, ruleset=rules, first_dealer=0, by=user)
    deal_record(game=game, entry=engine.PointsEntry((13, 17, 13, 0)[:count]), by=user)
    page.set_viewport_size({"width": 360, "height": 640})
    sign_in(page, live_server)
    page.goto(live_server.url + game.get_absolute_url())
    first = page.locator(".entry-fields label.chip span").first
    expect(first).to_be_visible()
    screenshot(page, f"89-first-screen-{count}")
    screenshot(page, f"89-first-view-{count}", full_page=False)
    box, bar = first.bounding_box(), page.locator("#entry-check").bounding_box()
    assert box["y"] + box["height"] <= bar["y"], (box, bar)  # in sight, not under the bar


@pytest.mark.parametrize(("locale", "scheme"), [("en-GB", "light"), ("nb-NO", "dark")])
def test_seven_players_enter_a_deal_by_cards_from_one_grid(
    browser: Browser, live_server, locale, scheme
):
    """By cards, seven players made 16 rows of seven names (3,000 px to scroll through):
    a player, then their cards, from one grid on one screen."""
    user = get_user_model().objects.create_user("ann", password="a-long-pass-phrase")
    table = Table.objects.create(name="Fredagsklubben", owner=user)
    players = [Player.objects.create(table=table, name=n) for n in NAMES]
    rules = Ruleset.objects.get(table=None, name="Black Maria")
    game = game_start(table=table, players=players, ruleset=rules, first_dealer=0, by=user)
    page = phone(browser, locale=locale, color_scheme=scheme)
    sign_in(page, live_server)
    page.goto(live_server.url + game.get_absolute_url() + "?mode=cards")
    grid = page.locator("[data-by-player]")
    expect(grid).to_be_visible()
    expect(page.locator("[data-card-rows]")).to_be_hidden()
    screenshot(page, f"83-seven-by-cards-blank-{locale}-{scheme}", full_page=False)
    height = page.evaluate("document.querySelector('.entry-fields').offsetHeight")
    assert height <= 640, height  # the whole entry on one screen
    taps = Taps(page)

    def card(code: str):
        return grid.locator(f'[data-card="{code}"]')

    def player(seat: int):
        return grid.locator(f'[data-seat="{seat}"]')

    # Kristoffer (chosen to start with) took five hearts; Marianne the rest and Q♠;
    # Ingeborg K♠; the last card, A♠, to Sebastian by "All the rest".
    for code in ("2H", "3H", "4H", "5H", "6H"):
        taps.tap(card(code))
    taps.tap(player(1))
    for code in ("7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH", "QS"):
        taps.tap(card(code))
    taps.tap(player(2))
    taps.tap(card("KS"))
    expect(card("KS").locator("[data-holder]")).to_have_text("Ing")
    taps.tap(card("KS"))  # tapped again: nobody's
    expect(card("KS").locator("[data-holder]")).to_have_text("")
    taps.tap(card("KS"))
    taps.tap(player(3))
    taps.tap(grid.locator("[data-rest-current]"))
    expect(card("AS").locator("[data-holder]")).to_have_text("Seb")
    expect(page.locator("#entry-check .tally")).to_have_text(re.compile(r"^43\b.*43$"))
    screenshot(page, f"83-seven-by-cards-{locale}-{scheme}", full_page=False)
    assert misfits(page, f"83-seven-by-cards-full-{locale}-{scheme}") == []
    assert axe_violations(page) == []
    page.locator("#entry-check .save").tap()
    expect(page.locator(".totals .points")).to_have_text(["5", "21", "10", "7", "0", "0", "0"])
    print(f"\nseven players by cards: {taps.count} taps, the entry {height} px high")
    assert taps.count == 21  # 16 cards, 3 players chosen, K♠ taken back and again, the rest
    page.context.close()


IN_SIGHT = """() => {
  const bar = document.getElementById("entry-check").getBoundingClientRect();
  return [Math.round(bar.top), Math.round(bar.bottom), innerHeight];
}"""


@pytest.mark.parametrize("count", [3, 7])
def test_the_tally_bar_is_in_sight_from_the_first_moment_after_a_change_of_mode(
    browser: Browser, live_server, count
):
    """With seven players, right after tapping Cards the bar sat at 636-665 px of a
    640 px screen, cut off: it sticks at its form's top, which was under the fold."""
    user = get_user_model().objects.create_user("ann", password="a-long-pass-phrase")
    table = Table.objects.create(name="Fredagsklubben", owner=user)
    players = [Player.objects.create(table=table, name=n) for n in NAMES[:count]]
    rules = Ruleset.objects.get(table=None, name="Black Maria")
    game = game_start(table=table, players=players, ruleset=rules, first_dealer=0, by=user)
    page = phone(browser)
    sign_in(page, live_server)
    page.goto(live_server.url + game.get_absolute_url())
    page.wait_for_function("() => window.htmx")
    for mode in ("Cards", "Points", "Counts", "Cards"):
        page.locator("nav.modes").get_by_role("link", name=mode).tap()
        expect(page.locator("nav.modes a[aria-current]")).to_have_text(mode)
        top, bottom, screen = page.evaluate(IN_SIGHT)  # the first moment, not a frame later
        assert top >= 0 and bottom <= screen, (mode, top, bottom)
    for label in page.locator("#entry .entry-fields label.chip, [data-card]").all()[:6]:
        label.tap()
        top, bottom, screen = page.evaluate(IN_SIGHT)
        assert top >= 0 and bottom <= screen, (top, bottom)
    page.context.close()
