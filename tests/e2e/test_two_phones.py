"""Two phones at one table: the watch link follows the game by itself."""

from __future__ import annotations

import time

from playwright.sync_api import Page, expect

from tests.e2e.conftest import check_page, screenshot
from tests.e2e.test_at_the_table import chip, sign_up_and_start, tap_counts, totals


def test_a_deal_entered_on_one_phone_appears_on_the_watch_link(page: Page, browser, live_server):
    sign_up_and_start(page, live_server, "Black Maria", checks=False)
    game_url = page.url
    page.get_by_role("link", name="Share this game").tap()
    page.get_by_role("button", name="Make a watch link").tap()
    watch_url = page.locator("#watch-url").input_value()
    assert "/watch/" in watch_url
    check_page(page, "30-share")

    other = browser.new_context(
        viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True
    )
    watcher = other.new_page()
    watcher.goto(watch_url)
    expect(watcher.locator("#coming-h")).to_contain_text("Deal 1 — Alice deals")
    check_page(watcher, "31-watch-before")

    page.goto(game_url)
    tap_counts(page, (4, 3), {"QS": 0, "KS": 1, "AS": 2})
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator("#coming-h")).to_contain_text("Deal 2 — Ben deals")
    saved = time.monotonic()

    # The watcher touches nothing: the page updates itself within 5 seconds.
    expect(watcher.locator("#coming-h")).to_contain_text("Deal 2 — Ben deals", timeout=5000)
    assert time.monotonic() - saved < 5
    assert totals(watcher) == ["17", "13", "13"]
    expect(watcher.locator(".history tbody tr")).to_have_count(1)
    expect(watcher.get_by_role("link", name="Edit deal 1")).to_have_count(0)
    check_page(watcher, "32-watch-after")
    other.close()


def second_phone(browser, live_server, url: str):
    """A second phone at the table: the same account, another browser; opens ``url``."""
    other = browser.new_context(
        viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True
    )
    second = other.new_page()
    second.goto(live_server.url + "/accounts/login/")
    second.fill("#id_username", "ann")
    second.fill("#id_password", "a-long-pass-phrase")
    second.get_by_role("button", name="Sign in").tap()
    expect(second.get_by_role("heading", name="Your tables")).to_be_visible()
    second.goto(url)
    return other, second


def test_a_half_entered_deal_survives_a_refresh_from_another_phone(
    page: Page, browser, live_server
):
    sign_up_and_start(page, live_server, "Black Maria", checks=False)
    game_url = page.url
    other, second = second_phone(browser, live_server, game_url)

    # The first phone starts entering deal 1 ...
    chip(page, "hearts-0", 5).tap()
    # ... while the second records it.
    tap_counts(second, (4, 3), {"QS": 0, "KS": 1, "AS": 2})
    second.get_by_role("button", name="Save deal 1").tap()
    expect(second.locator("#coming-h")).to_contain_text("Deal 2 — Ben deals")

    # The first phone's scores follow, and its half-entered deal is still there.
    expect(page.locator("#coming-h")).to_contain_text("Deal 2 — Ben deals", timeout=5000)
    expect(page.locator('input[name="hearts-0"][value="5"]')).to_be_checked()
    # Saving it now is refused as deal 1 and kept on screen to compare.
    tap_counts(page, (5, 2), {"QS": 1, "KS": 0, "AS": 2})
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator(".errors")).to_contain_text("Deal 1 was just entered by ann — here it is.")
    expect(page.locator('input[name="hearts-0"][value="5"]')).to_be_checked()
    screenshot(page, "33-conflict")
    expect(page.locator(".history tbody tr")).to_have_count(1)
    other.close()
