"""Two phones at one table: the watch link follows the game by itself."""

from __future__ import annotations

import time

from playwright.sync_api import Page, expect

from tests.e2e.conftest import check_page, cut_targets, frames, screenshot, until_polled
from tests.e2e.helpers import chip, second_phone, sign_up_and_start, tap_counts, totals


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
    # Going on with it and saving, the phone is told deal 1 is taken; the entry is kept to compare.
    tap_counts(page, (5, 2), {"QS": 1, "KS": 0, "AS": 2})
    page.get_by_role("button", name="Save deal 1").tap()
    conflict = page.locator("#entry-conflict .errors")
    expect(conflict).to_contain_text("Deal 1 was just entered by ann — here it is.")
    expect(page.locator('input[name="hearts-0"][value="5"]')).to_be_checked()
    # Once the polls and any swap have run, it stays,
    # and no "Save deal 2" stands armed with the same entry.
    until_polled(page, 2)
    expect(conflict).to_contain_text("Deal 1 was just entered by ann")
    expect(page.get_by_role("button", name="Save deal 2")).to_have_count(0)
    expect(page.get_by_role("button", name="Enter mine as deal 2")).to_be_enabled()
    screenshot(page, "33-conflict")
    assert cut_targets(page) == []  # "Enter mine as deal 2" whole beside "Keep theirs"
    expect(page.locator(".history tbody tr")).to_have_count(1)
    # Changing the entry keeps the conflict on screen too.
    chip(page, "hearts-0", 6).tap()
    until_polled(page, 2)
    expect(conflict).to_contain_text("Deal 1 was just entered by ann")
    chip(page, "hearts-0", 5).tap()
    # The person chooses: theirs stands, mine becomes deal 2.
    page.get_by_role("button", name="Enter mine as deal 2").tap()
    expect(page.locator("#coming-h")).to_contain_text("Deal 3 — Cara deals")
    expect(page.locator(".history tbody tr")).to_have_count(2)
    expect(page.locator("#entry-conflict .errors")).to_have_count(0)
    other.close()


def test_keeping_theirs_after_a_conflict_records_nothing_of_mine(page: Page, browser, live_server):
    sign_up_and_start(page, live_server, "Black Maria", checks=False)
    other, second = second_phone(browser, live_server, page.url)
    tap_counts(second, (4, 3), {"QS": 0, "KS": 1, "AS": 2})
    second.get_by_role("button", name="Save deal 1").tap()
    expect(second.locator("#coming-h")).to_contain_text("Deal 2 — Ben deals")
    tap_counts(page, (5, 2), {"QS": 1, "KS": 0, "AS": 2})
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator("#entry-conflict .errors")).to_contain_text("Deal 1 was just entered")
    until_polled(page, 2)
    page.get_by_role("link", name="Keep theirs").tap()
    expect(page.get_by_role("heading", name="Enter deal 2")).to_be_visible()
    expect(page.locator("#entry-conflict .errors")).to_have_count(0)
    expect(page.locator('input[name="hearts-0"][value="5"]')).not_to_be_checked()
    expect(page.locator(".history tbody tr")).to_have_count(1)
    assert totals(page) == ["17", "13", "13"]
    other.close()


def test_a_stale_edit_stays_a_conflict_until_the_person_chooses(page: Page, browser, live_server):
    sign_up_and_start(page, live_server, "Black Maria", checks=False)
    tap_counts(page, (4, 3), {"QS": 0, "KS": 1, "AS": 2})
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator("#coming-h")).to_contain_text("Deal 2 — Ben deals")
    game_url = page.url
    page.get_by_role("link", name="Edit deal 1").tap()
    expect(page.get_by_role("heading", name="Change deal 1")).to_be_visible()
    edit_url = page.url
    other, second = second_phone(browser, live_server, edit_url)
    # The second phone changes deal 1 first.
    chip(second, "hearts-0", 5).tap()
    chip(second, "hearts-1", 2).tap()
    second.get_by_role("button", name="Save the change").tap()
    expect(second).to_have_url(game_url)
    # The first phone, changing the deal as it was, is told when it saves.
    chip(page, "hearts-0", 6).tap()
    chip(page, "hearts-1", 1).tap()
    page.get_by_role("button", name="Save the change").tap()
    conflict = page.locator("#entry-conflict .errors")
    expect(conflict).to_contain_text("Deal 1 was changed by someone else")
    frames(page)  # the edit page has no poll: its scripts have run
    expect(conflict).to_contain_text("Deal 1 was changed by someone else")
    expect(page.get_by_role("button", name="Save the change")).to_have_count(0)
    screenshot(page, "34-stale-edit")
    page.get_by_role("button", name="Save mine over theirs").tap()
    expect(page).to_have_url(game_url)
    assert totals(page) == ["19", "11", "13"]
    other.close()


def test_back_to_the_new_game_form_and_start_again_opens_the_same_game(page: Page, live_server):
    from games.models import Game

    sign_up_and_start(page, live_server, "Black Maria", checks=False)
    game_url = page.url
    page.go_back()
    expect(page.get_by_role("button", name="Start the game")).to_be_visible()
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#coming-h")).to_contain_text("Deal 1 — Alice deals")
    assert page.url == game_url
    assert Game.objects.count() == 1
