"""Phones through the front as a club serves it: HTTPS from Caddy's local authority
(trusted by the browser as a phone would be told to, never turned off), HTTP/2,
in English and Norwegian: sign up, a game, deals from two phones, the watch
link, the offline copy and a deal kept while the app restarts."""

from __future__ import annotations

import os
import re
import subprocess

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import CHROMIUM, screenshot
from tests.e2e.helpers import chip, first_dealer, totals

WORDS = {
    "en-GB": {
        "make account": "Make my account",
        "make table": "Make the table",
        "new game": "New game",
        "start": "Start the game",
        "save": "Save deal {n}",
        "share": "Share this game",
        "watch": "Make a watch link",
        "deal 2": "Deal 2 — Ben deals",
        "deal 5": "Deal 5 — Ben deals",
        "offline": r"^Offline — last updated \d\d:\d\d$",
        "waiting": "waiting to send",
    },
    "nb-NO": {
        "make account": "Lag kontoen min",
        "make table": "Lag bordet",
        "new game": "Nytt spill",
        "start": "Start spillet",
        "save": "Lagre giv {n}",
        "share": "Del dette spillet",
        "watch": "Lag en tilskuerlenke",
        "deal 2": "Giv 2 — Ben gir",
        "deal 5": "Giv 5 — Ben gir",
        "offline": r"^Frakoblet — sist oppdatert \d\d:\d\d$",
        "waiting": "venter på å bli sendt",
    },
}


@pytest.fixture(scope="module")
def trusting(browser_type, browser_type_launch_args, front, tmp_path_factory):
    """Chromium with the front's local authority among those it trusts (its own
    NSS store in a home of its own), as a club member installs it on a phone."""
    home = tmp_path_factory.mktemp("home")
    store = home / ".pki" / "nssdb"
    store.mkdir(parents=True)
    subprocess.run(["certutil", "-d", f"sql:{store}", "-N", "--empty-password"], check=True)
    subprocess.run(
        ["certutil", "-d", f"sql:{store}", "-A", "-t", "C,,", "-n", "scorekeeper-local",
         "-i", str(front.authority)],
        check=True,
    )  # fmt: skip
    browser = browser_type.launch(**{**browser_type_launch_args, "executable_path": CHROMIUM},
                                  env={**os.environ, "HOME": str(home)})  # fmt: skip
    yield browser
    browser.close()


def phone(browser, locale: str) -> Page:
    context = browser.new_context(
        viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True, locale=locale
    )
    return context.new_page()


def protocol(page: Page) -> str:
    return page.evaluate("performance.getEntriesByType('navigation')[0].nextHopProtocol")


def save_counts(page: Page, words: dict, number: int, hearts, takers) -> None:
    for seat, count in enumerate(hearts):
        chip(page, f"hearts-{seat}", count).tap()
    for card, seat in takers.items():
        chip(page, f"taker-{card}", seat).tap()
    page.get_by_role("button", name=words["save"].format(n=number)).tap()


@pytest.mark.parametrize("locale", ["en-GB", "nb-NO"])
def test_a_club_evening_through_the_front(trusting, front, locale):
    words = WORDS[locale]
    user = f"front-{locale.lower()}"
    page = phone(trusting, locale)
    page.goto(front.url + "/accounts/signup/")
    assert protocol(page) in ("h2", "h3")  # never HTTP/1.1 to a phone
    page.fill("#id_username", user)
    page.fill("#id_password1", "a-long-pass-phrase")
    page.fill("#id_password2", "a-long-pass-phrase")
    page.get_by_role("button", name=words["make account"]).tap()
    page.wait_for_url("**/tables/new/")
    page.fill("#id_name", "Friday club")
    page.fill("#id_players", "Alice\nBen\nCara")
    page.get_by_role("button", name=words["make table"]).tap()
    page.get_by_role("link", name=words["new game"]).tap()
    first_dealer(page, "Alice").tap()
    page.get_by_role("button", name=words["start"]).tap()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    game_url = page.url
    save_counts(page, words, 1, (4, 3), {"QS": 0, "KS": 1, "AS": 2})
    expect(page.locator("#coming-h")).to_contain_text(words["deal 2"])

    # A second phone signed in to the same account saves deal 2; the first follows.
    second = phone(trusting, locale)
    second.goto(front.url + "/accounts/login/")
    second.fill("#id_username", user)
    second.fill("#id_password", "a-long-pass-phrase")
    second.locator("main button[type=submit]").tap()
    second.wait_for_url(lambda url: "/accounts/login/" not in url)
    second.goto(game_url)
    save_counts(second, words, 2, (0, 13), {"QS": 2, "KS": 2, "AS": 2})
    expect(page.locator(".history tbody tr")).to_have_count(2, timeout=8000)
    assert totals(page) == ["17", "26", "43"]

    # The watch link, on a phone with no account.
    page.get_by_role("link", name=words["share"]).tap()
    page.get_by_role("button", name=words["watch"]).tap()
    watch_url = page.locator("#watch-url").input_value()
    assert watch_url.startswith(front.url + "/watch/")
    watcher = phone(trusting, locale)
    watcher.goto(watch_url)
    assert protocol(watcher) in ("h2", "h3")
    assert totals(watcher) == ["17", "26", "43"]

    # Offline at the table: the kept page opens, a deal waits, then is sent once.
    page.goto(game_url)
    page.evaluate("async () => await navigator.serviceWorker.ready")
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.context.set_offline(True)
    expect(page.locator("#offline-note")).to_have_text(re.compile(words["offline"]))
    save_counts(page, words, 3, (4, 3), {"QS": 0, "KS": 1, "AS": 2})
    expect(page.locator("#waiting-list li").first).to_contain_text(words["waiting"])
    page.context.set_offline(False)
    expect(page.locator("#waiting-list li")).to_have_count(0, timeout=10000)
    expect(watcher.locator(".history tbody tr")).to_have_count(3, timeout=8000)

    # The app restarts (an upgrade) as deal 4 is saved: the front holds the save
    # a while, then says so; the phone keeps the deal and sends it once it is back.
    front.stop_app()
    try:
        save_counts(page, words, 4, (4, 3), {"QS": 0, "KS": 1, "AS": 2})
        expect(page.locator("#waiting-list li").first).to_contain_text(
            words["waiting"], timeout=25_000
        )
        screenshot(page, f"80-front-kept-while-restarting-{locale}")
    finally:
        front.start_app()
    expect(page.locator("#waiting-list li")).to_have_count(0, timeout=30000)
    expect(watcher.locator(".history tbody tr")).to_have_count(4, timeout=8000)
    expect(watcher.locator("#coming-h")).to_contain_text(words["deal 5"])
    for each in (page, second, watcher):
        each.context.close()
