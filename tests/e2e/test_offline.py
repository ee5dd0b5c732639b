"""No network at the table: the game opens, deals are kept, then sent once."""

from __future__ import annotations

import re
import threading
import time
from urllib.parse import urlsplit

import pytest
from django.core.signals import request_started
from playwright.sync_api import Page, expect

from games.models import Deal
from tests.e2e.conftest import check_page, until_polled
from tests.e2e.helpers import chip, choose_mode, second_phone, sign_up_and_start, tap_counts


def type_points(page: Page, *points: int) -> None:
    for seat, value in enumerate(points):
        page.locator(f"#points-input-{seat}").fill(str(value))
    page.locator(f"#points-input-{len(points) - 1}").dispatch_event("change")


def until_the_worker_looks_after(page: Page) -> None:
    """Wait for the service worker, then open the page again under it."""
    scope = page.evaluate("async () => (await navigator.serviceWorker.ready).scope")
    assert scope.endswith("/") and scope.count("/") == 3  # the whole site
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


KEPT_HERE = """async () => !!(await caches.match(location.pathname))"""


def test_a_weak_signal_shows_the_kept_game_in_a_few_seconds_then_the_live_one(
    page: Page, live_server
):
    """A venue's Wi-Fi that holds connections and passes nothing: the server, not
    the browser, stops answering (context.set_offline can still let a request out).
    The service worker waited for the network with no limit: 15 s of nothing."""
    sign_up_and_start(page, live_server, "Black Maria", checks=False)
    until_the_worker_looks_after(page)
    for _ in range(50):  # the page under the worker is kept, a moment after it loads
        if page.evaluate(KEPT_HERE):
            break
        page.wait_for_timeout(100)
    game = urlsplit(page.url).path
    signal = threading.Event()

    def held(environ, **kwargs):
        if environ["PATH_INFO"].startswith(game):  # the page and its poll
            signal.wait(30)

    request_started.connect(held)
    try:
        started = time.monotonic()
        page.goto(page.url)
        took = time.monotonic() - started
        assert took < 5, f"{took:.1f} s"
        expect(page.locator("#offline-note")).to_have_text(
            re.compile(r"^Offline — last updated \d\d:\d\d$")
        )
        expect(page.locator("#coming-h")).to_contain_text("Deal 1")
    finally:
        signal.set()
        request_started.disconnect(held)
    # The signal back: the next poll answers, and the page is live again.
    expect(page.locator("#offline-note")).to_be_hidden(timeout=10_000)


def test_two_deals_entered_offline_wait_then_are_recorded_once(page: Page, live_server):
    sign_up_and_start(page, live_server, "Black Maria", checks=False)
    until_the_worker_looks_after(page)
    page.context.set_offline(True)
    expect(page.locator("#offline-note")).to_have_text(
        re.compile(r"^Offline — last updated \d\d:\d\d$")
    )

    # The phone checks the deal itself, in the server's words.
    tap_counts(page, (4, 3), {"QS": 0, "KS": 1})
    expect(page.locator("#entry-said .to-enter")).to_have_text("Still to enter: who took A♠.")
    expect(page.locator("#entry-check .tally")).to_have_text("36 of 43")
    expect(page.get_by_role("button", name="Save deal 1")).to_be_disabled()
    chip(page, "taker-AS", 2).tap()
    expect(page.locator("#entry-check .tally")).to_have_text("43 of 43")
    page.get_by_role("button", name="Save deal 1").tap()
    waiting = page.locator("#waiting-list li")
    expect(waiting).to_have_count(1)
    expect(waiting.first).to_contain_text("Deal 1 — waiting to send")

    # Deal 2, also offline: the turn moves on with it.
    expect(page.locator("#entry-h")).to_have_text("Enter deal 2")
    expect(page.locator("#coming-h")).to_have_text("Deal 2 — Ben deals, Cara leads")
    expect(page.locator(".passes li")).to_have_text(["Alice → Cara", "Ben → Alice", "Cara → Ben"])
    tap_counts(page, (5, 2), {"QS": 1, "KS": 0, "AS": 2})
    page.get_by_role("button", name="Save deal 2").tap()
    expect(waiting).to_have_count(2)
    expect(waiting.nth(1)).to_contain_text("Deal 2 — waiting to send")
    check_page(page, "80-offline-two-waiting")

    # Opened again with no network: the kept page, still marked, still waiting,
    # and the server never asked.
    asked = []
    request_started.connect(receiver := lambda environ, **kw: asked.append(environ["PATH_INFO"]))
    page.reload()
    expect(page.locator("#offline-note")).to_contain_text("Offline — last updated")
    expect(waiting).to_have_count(2)
    expect(page.locator(".totals .points")).to_have_text(["0", "0", "0"])
    expect(page.locator("#entry-h")).to_have_text("Enter deal 3")  # after the kept ones
    request_started.disconnect(receiver)
    # Chromium may check the worker for an update after a reload, and DevTools'
    # offline mode doesn't cover that check: it is the browser's, not the page's.
    assert [path for path in asked if path != "/sw.js"] == []
    assert Deal.objects.count() == 0

    page.context.set_offline(False)
    expect(page.locator("#waiting")).to_be_hidden(timeout=10_000)
    expect(page.locator("#offline-note")).to_be_hidden()
    expect(page.locator(".history tbody tr")).to_have_count(2, timeout=10_000)
    # Alice 4♥ Q♠ 17, Ben 3♥ K♠ 13, Cara 6♥ A♠ 13; then Alice 5♥ K♠ 15, Ben 2♥ Q♠ 15, Cara 13.
    expect(page.locator("#coming-h")).to_contain_text("Deal 3")
    expect(page.locator(".totals .points")).to_have_text(["32", "28", "26"])
    deals = list(Deal.objects.order_by("number").values_list("number", "scores", "client_key"))
    assert [(n, s) for n, s, _ in deals] == [(1, [17, 13, 13]), (2, [15, 15, 13])]
    assert all(key for _, _, key in deals)
    expect(page.locator("#entry-h")).to_have_text("Enter deal 3")


def test_a_deal_entered_elsewhere_meanwhile_is_shown_beside_mine_to_choose(
    page: Page, browser, live_server
):
    sign_up_and_start(page, live_server, "Black Maria", checks=False)
    game_url = page.url
    until_the_worker_looks_after(page)
    page.context.set_offline(True)
    tap_counts(page, (4, 3), {"QS": 0, "KS": 1, "AS": 2})
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator("#waiting-list li")).to_have_count(1)

    # Meanwhile another phone, online, enters deal 1 otherwise.
    other, second = second_phone(browser, live_server, game_url)
    tap_counts(second, (5, 2), {"QS": 1, "KS": 0, "AS": 2})
    second.get_by_role("button", name="Save deal 1").tap()
    expect(second.locator("#coming-h")).to_contain_text("Deal 2")
    other.close()

    page.context.set_offline(False)
    kept = page.locator("#waiting-list > li")
    expect(kept).to_contain_text(
        "Deal 1 — entered meanwhile by ann: which one stands?", timeout=10_000
    )
    expect(kept).to_contain_text("Theirs: Alice 15, Ben 15, Cara 13")
    expect(kept).to_contain_text("Yours: Alice 17, Ben 13, Cara 13")
    check_page(page, "81-offline-conflict")
    assert Deal.objects.count() == 1

    page.get_by_role("button", name="Enter mine as the next deal").tap()
    expect(page.locator("#waiting")).to_be_hidden(timeout=10_000)
    expect(page.locator(".history tbody tr")).to_have_count(2, timeout=10_000)
    deals = list(Deal.objects.order_by("number").values_list("number", "scores"))
    assert deals == [(1, [15, 15, 13]), (2, [17, 13, 13])]
    expect(page.locator(".totals .points")).to_have_text(["32", "28", "26"])


# What a phone running an older copy of the page might have kept: a deal whose
# check knew only the sum. The server's judgement is what counts.
SPOIL_KEPT_DEALS = """async () => {
  const db = await new Promise((ok, fail) => {
    const opening = indexedDB.open("scorekeeper", 1);
    opening.onsuccess = () => ok(opening.result);
    opening.onerror = () => fail(opening.error);
  });
  const tx = db.transaction("deals", "readwrite");
  const deals = tx.objectStore("deals");
  const items = await new Promise((ok) => {
    const all = deals.getAll();
    all.onsuccess = () => ok(all.result);
  });
  const spoilt = { "points-0": "-5", "points-1": "24", "points-2": "24" };
  for (const item of items) {
    item.fields = item.fields.map(([name, value]) => [name, spoilt[name] ?? value]);
    deals.put(item);
  }
  await new Promise((ok) => (tx.oncomplete = ok));
  db.close();
}"""


def test_a_kept_deal_the_server_refuses_comes_back_with_its_reason_to_edit(page: Page, live_server):
    sign_up_and_start(page, live_server, "Black Maria", checks=False)
    until_the_worker_looks_after(page)
    choose_mode(page, "Points")
    expect(page.locator("#points-input-0")).to_be_visible()
    page.context.set_offline(True)
    type_points(page, 13, 17, 13)
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator("#waiting-list > li")).to_contain_text("Deal 1 — waiting to send")
    page.evaluate(SPOIL_KEPT_DEALS)

    page.context.set_offline(False)
    kept = page.locator("#waiting-list > li")
    expect(kept).to_contain_text(
        "not recorded: No way of taking the cards gives Alice -5 / Ben 24 / Cara 24",
        timeout=10_000,
    )
    assert Deal.objects.count() == 0
    expect(page.locator("#entry-h")).to_have_text("Enter deal 1")
    check_page(page, "82-offline-refused")

    # Back into the form, where the phone's check says the same; corrected, saved as usual.
    page.get_by_role("button", name="Edit").tap()
    expect(page.locator("#waiting")).to_be_hidden()
    expect(page.locator("#points-input-0")).to_have_value("-5")
    expect(page.locator("#entry-said .problems")).to_contain_text("No way of taking the cards")
    expect(page.get_by_role("button", name="Save deal 1")).to_be_disabled()
    type_points(page, 13, 17, 13)
    expect(page.get_by_role("button", name="Save deal 1")).to_be_enabled()
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator(".history tbody tr")).to_have_count(1, timeout=10_000)
    assert list(Deal.objects.values_list("scores", flat=True)) == [[13, 17, 13]]


def test_the_phone_checks_a_deal_in_the_servers_own_words(page: Page, live_server):
    """Offline, the phone's check of counts and cards says what the server would."""
    from games.forms.deals import DealForm
    from games.models import Game
    from games.pages.entry import still_to_enter

    sign_up_and_start(page, live_server, "Black Maria", checks=False)
    until_the_worker_looks_after(page)
    game = Game.objects.get()
    rules, names = game.get_rules(), ["Alice", "Ben", "Cara"]

    def server_says(mode: str, fields: dict[str, str]) -> tuple[list[str], str, str]:
        form = DealForm({**fields, "mode": mode}, rules=rules, names=names)
        form.is_valid()
        check = form.entry.check()
        wrong = [p[0].upper() + p[1:] for p in check.wrong]
        return wrong, still_to_enter(check, names, mode), f"{check.counted} of {check.total}"

    page.context.set_offline(True)
    cases = [
        {"hearts-0": "4", "hearts-1": "3", "hearts-2": "5", "taker-QS": "0"},
        {"hearts-0": "4", "taker-KS": "1"},
        {"hearts-0": "6", "hearts-1": "7", "taker-QS": "2", "taker-KS": "2", "taker-AS": "2"},
    ]
    for fields in cases:
        # Each case from a blank form: the half-entered one before is not kept (its
        # draft, written in idle time, is written before it is cleared).
        page.evaluate("() => new Promise((done) => requestIdleCallback(done, {timeout: 2000}))")
        page.evaluate("() => localStorage.clear()")
        page.reload()
        for name, value in fields.items():
            chip(page, name, value).tap()
        problems, to_enter, tally = server_says("counts", fields)
        expect(page.locator("#entry-check .tally")).to_have_text(tally)
        expect(page.locator("#entry-said .problems li")).to_have_text(problems)
        expect(page.locator("#entry-said .to-enter")).to_have_text([to_enter] if to_enter else [])

    # Cards: the same, with every valued card to give.
    page.context.set_offline(False)
    choose_mode(page, "Cards")
    expect(page.locator('input[name="taker-2H"]').first).to_be_attached()
    page.context.set_offline(True)
    fields = {"taker-QS": "1", "taker-AH": "0", "taker-2H": "2"}
    for name, value in fields.items():
        chip(page, name, value).tap()
    problems, to_enter, tally = server_says("cards", fields)
    expect(page.locator("#entry-check .tally")).to_have_text(tally)
    expect(page.locator("#entry-said .problems li")).to_have_text(problems)
    expect(page.locator("#entry-said .to-enter")).to_have_text(to_enter)


def test_an_idle_game_page_is_not_fetched_again_by_its_polls(page: Page, live_server):
    """Polls keep the kept copy fresh only when the game moves on."""
    sign_up_and_start(page, live_server, "Black Maria", checks=False)
    until_the_worker_looks_after(page)
    path = page.url.removeprefix(live_server.url)
    asked = []
    request_started.connect(receiver := lambda environ, **kw: asked.append(environ["PATH_INFO"]))
    try:
        until_polled(page, 2)
        assert path not in asked
        tap_counts(page, (4, 3), {"QS": 0, "KS": 1, "AS": 2})
        page.get_by_role("button", name="Save deal 1").tap()
        expect(page.locator(".history tbody tr")).to_have_count(1)
        until_polled(page, 3)
        assert 1 <= asked.count(path) <= 2  # kept again once the game moved on
    finally:
        request_started.disconnect(receiver)


SENT_AGAIN_KEEPS_THE_BUTTONS = """async () => {
  const lock = "scorekeeper-send-" + document.getElementById("game-body").dataset.game;
  const button = document.querySelector("#waiting-list .choices button");
  await navigator.locks.request(lock, () => {});  // any send under way is done
  window.dispatchEvent(new Event("online"));
  await navigator.locks.request(lock, () => {});  // and so is the one it starts
  return button.isConnected;
}"""
MINE = [(17, 13, 13), (15, 15, 13), (20, 10, 13)]
THEIRS = (13, 17, 13)


@pytest.mark.parametrize(
    ("choice", "expected"),
    [
        ("Keep theirs", [THEIRS, MINE[1], MINE[2]]),
        ("Replace theirs with mine", MINE),
        ("Enter mine as the next deal", [THEIRS, *MINE]),
    ],
)
def test_three_kept_deals_a_conflict_on_the_first_and_each_choice_keeps_every_deal_once(
    page: Page, browser, live_server, choice, expected
):
    sign_up_and_start(page, live_server, "Black Maria", checks=False)
    game_url = page.url
    page.goto(game_url + "?mode=points")
    until_the_worker_looks_after(page)
    expect(page.locator("#points-input-0")).to_be_visible()
    page.context.set_offline(True)
    for number, points in enumerate(MINE, start=1):
        type_points(page, *points)
        page.get_by_role("button", name=f"Save deal {number}").tap()
        expect(page.locator("#waiting-list > li")).to_have_count(number)
        # The blank form after a kept deal can't be saved until it adds up.
        expect(page.get_by_role("button", name=f"Save deal {number + 1}")).to_be_disabled()

    other, second = second_phone(browser, live_server, game_url)
    choose_mode(second, "Points")
    type_points(second, *THEIRS)
    second.get_by_role("button", name="Save deal 1").tap()
    expect(second.locator("#coming-h")).to_contain_text("Deal 2")
    other.close()

    page.context.set_offline(False)
    kept = page.locator("#waiting-list > li")
    expect(kept.first).to_contain_text("Deal 1 — entered meanwhile by ann", timeout=10_000)
    expect(kept).to_have_count(3)
    # A send (here the network coming back again; every 15 s a retry) leaves the choices
    # as they are: drawn anew, a tap landing meanwhile was lost and the deals waited.
    assert page.evaluate(SENT_AGAIN_KEEPS_THE_BUTTONS)
    page.get_by_role("button", name=choice).tap()
    # Every later kept deal goes in after it: no conflict with the phone's own deals.
    expect(page.locator("#waiting")).to_be_hidden(timeout=10_000)
    expect(page.locator(".history tbody tr")).to_have_count(len(expected), timeout=10_000)
    export = page.request.get(game_url + "export.json").json()
    recorded = [
        tuple(d["points"].values()) if "points" in d else None for d in export["games"][0]["deals"]
    ]
    assert recorded == expected
    assert [d["number"] for d in export["games"][0]["deals"]] == list(range(1, len(expected) + 1))


def test_a_tap_just_before_leaving_the_page_is_kept(page: Page, live_server):
    """The draft waits for idle time; a phone that never has any before the page is
    left (a reload, another app) still keeps the last tap."""
    page.add_init_script("window.requestIdleCallback = () => 0;")  # idle time never comes
    sign_up_and_start(page, live_server, "Black Maria", checks=False)
    chip(page, "hearts-0", "4").tap()
    expect(page.locator("#entry-check .tally")).to_have_text("4 of 43")
    page.reload()
    expect(page.locator("#entry-check .tally")).to_have_text("4 of 43")
