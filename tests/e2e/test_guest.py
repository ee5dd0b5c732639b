"""From the first page to the first saved deal with no account; the scores kept."""

from __future__ import annotations

import pytest
from django.shortcuts import render
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import check_page, screenshot, sign_in
from tests.e2e.helpers import Taps, chip, first_dealer, phone


def test_first_page_to_first_deal_as_a_guest_then_the_scores_kept(
    page: Page, browser: Browser, live_server
):
    page.set_viewport_size({"width": 360, "height": 640})
    page.goto(live_server.url + "/")
    check_page(page, "00-first-page")
    taps = Taps(page)
    taps.tap(page.get_by_role("button", name="Start a game"))
    # One screen: who plays and the rules (it was New table, then New game).
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    check_page(page, "00-first-game")
    page.fill("#id_new_players", "Alice, Ben, Cara")  # typing three names
    dealer = first_dealer(page, "Alice")
    expect(dealer).to_be_visible()
    taps.tap(dealer)
    expect(dealer.locator("input")).to_be_checked()
    taps.tap(page.get_by_role("button", name="Start the game"))
    expect(page.locator("#coming-h")).to_contain_text("Deal 1")
    expect(page.get_by_role("link", name="Rename the table")).to_be_visible()
    for seat, count in enumerate((4, 3)):
        taps.tap(chip(page, f"hearts-{seat}", count))
    for card, seat in {"QS": 0, "KS": 1, "AS": 2}.items():
        taps.tap(chip(page, f"taker-{card}", seat))
    taps.tap(page.get_by_role("button", name="Save deal 1"))
    expect(page.locator(".history tbody tr")).to_have_count(1)
    assert taps.count == 9  # the issue allows 15

    # Every page offers to keep the scores; kept, they are there on another phone.
    taps.follow(page.get_by_role("link", name="Keep these scores"))
    check_page(page, "00-keep-these-scores")
    page.fill("#id_username", "ann")
    page.fill("#id_password1", "a-long-pass-phrase")
    page.fill("#id_password2", "a-long-pass-phrase")
    page.get_by_role("button", name="Keep my scores").tap()
    expect(page.get_by_role("heading", name="Your tables")).to_be_visible()
    expect(page.get_by_role("link", name="Keep these scores")).to_have_count(0)
    page.get_by_role("button", name="Sign out").tap()  # an ordinary account now: it may
    other = browser.new_context(viewport={"width": 360, "height": 640})
    second = other.new_page()
    sign_in(second, live_server)
    expect(second.get_by_role("link", name="Our table", exact=True)).to_be_visible()
    expect(second.get_by_role("link", name="Our table Alice 17 · Ben 13")).to_be_visible()
    other.close()


def test_a_slow_offline_copy_never_undoes_the_guests_new_csrf_token(
    page: Page, live_server, monkeypatch
):
    """The service worker fetches /offline/ on the first page; starting as a guest
    gives a new CSRF token meanwhile. Its answer arriving after that (a slow
    network) set the old cookie back, and Start the game was refused."""
    import threading
    import time

    from games.views import install

    arrived = []
    asked = threading.Event()

    def slow_render(request, template, *args, **kwargs):
        asked.set()
        time.sleep(1)
        arrived.append(template)
        return render(request, template, *args, **kwargs)

    monkeypatch.setattr(install, "render", slow_render)
    page.set_viewport_size({"width": 360, "height": 640})
    page.goto(live_server.url + "/")
    assert asked.wait(10)  # the worker's fetch of /offline/ is under way, and slow
    page.get_by_role("button", name="Start a game").tap()
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=15_000)
    assert arrived == ["offline.html"]
    page.fill("#id_new_players", "Alice, Ben, Cara")
    first_dealer(page, "Alice").tap()
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator("#coming-h")).to_contain_text("Deal 1")


@pytest.mark.parametrize("names", ["Kristoffer, Marianne, Alexandra", "Ann, Bo, Cy, Dag"])
def test_a_first_visits_first_game_starts_its_entry_on_the_first_screen(
    browser: Browser, live_server, names
):
    """What a person meets first: no deal yet, nobody rated, a table just made. The
    first hearts and the tally are on the first screen, not under the bar."""
    page = phone(browser)
    page.goto(live_server.url + "/")
    page.get_by_role("button", name="Start a game").click()
    page.fill("#id_new_players", names)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#coming-h")).to_contain_text("Deal 1")
    count = len(names.split(","))
    screenshot(page, f"00-first-game-entry-{count}", full_page=False)
    bar = page.locator("#entry-check").bounding_box()
    assert bar["y"] + bar["height"] <= 640, bar  # the tally and Save
    chip = page.locator(".entry-fields label.chip span").first.bounding_box()
    assert chip["y"] + chip["height"] <= bar["y"], (chip, bar)  # not under the bar
    # Three side by side, as on a score sheet, and every name whole.
    cut = page.locator(".total .name").evaluate_all(
        "names => names.filter(n => n.scrollWidth > n.clientWidth).map(n => n.textContent)"
    )
    assert cut == []
    expect(page.get_by_role("heading", name="Our table")).to_be_visible()  # where it is kept
    expect(page.get_by_role("link", name="Rename the table")).to_be_visible()
    page.context.close()
