"""A phone passed to another person at the table: nothing of the last person is
sent or shown. Ann keeps a deal with no signal and half-enters the next, signs
out; Ben signs in on the same phone and opens the game."""

from __future__ import annotations

import json

from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from games.models import Deal, Membership, Player, Ruleset, Table
from games.services.games import game_start
from tests.e2e.conftest import axe_violations, layout_problems, screenshot, sign_in
from tests.e2e.helpers import chip, tap_counts

KEPT = """async () => await new Promise((done) => {
  const request = indexedDB.open("scorekeeper", 1);
  request.onupgradeneeded = () => request.result.createObjectStore("deals", { keyPath: "key" });
  request.onsuccess = () => {
    const db = request.result;
    const all = db.transaction("deals").objectStore("deals").getAll();
    all.onsuccess = () => { db.close(); done(all.result); };
  };
})"""
DRAFTS = "() => Object.keys(localStorage).filter((key) => key.startsWith('scorekeeper-draft-'))"


def a_game_of_ann_and_ben():
    users = get_user_model().objects
    ann = users.create_user("ann", password="a-long-pass-phrase")
    ben = users.create_user("ben", password="a-long-pass-phrase")
    table = Table.objects.create(name="Friday club", owner=ann)
    Membership.objects.create(table=table, user=ben)
    players = [Player.objects.create(table=table, name=n) for n in ("Alice", "Ben", "Cara")]
    rules = Ruleset.objects.get(table=None, name="Black Maria")
    return game_start(table=table, players=players, ruleset=rules, first_dealer=0, by=ann), ann


def ann_keeps_a_deal_and_half_another(page: Page, live_server, game) -> None:
    sign_in(page, live_server, "ann")
    page.goto(live_server.url + game.get_absolute_url())
    page.evaluate("async () => await navigator.serviceWorker.ready")
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.context.set_offline(True)
    tap_counts(page, (4, 3), {"QS": 0, "KS": 1, "AS": 2})
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator("#waiting-list li")).to_contain_text("Deal 1 — waiting to send")
    chip(page, "hearts-0", 5).tap()  # half of deal 2: a draft
    page.wait_for_function(f"() => ({DRAFTS})().length === 1")
    # The signal back, but the deal not through yet (a weak one): still waiting.
    page.route("**/deals/queued/", lambda route: route.abort())
    page.context.set_offline(False)


def test_signing_out_asks_about_waiting_deals_and_leaves_nothing_for_the_next_person(
    page: Page, live_server
):
    game, _ = a_game_of_ann_and_ben()
    page.set_viewport_size({"width": 360, "height": 640})
    ann_keeps_a_deal_and_half_another(page, live_server, game)
    assert len(page.evaluate(KEPT)) == 1

    page.get_by_role("button", name="Sign out ann").tap()
    asked = page.get_by_role("dialog")
    expect(asked).to_contain_text("Deals kept on this phone are still waiting to send.")
    send_first = asked.get_by_role("link", name="Send them first")
    assert send_first.get_attribute("href") == game.get_absolute_url()
    assert axe_violations(page) == [] and layout_problems(page) == []
    screenshot(page, "a1-sign-out-asks-first", full_page=False)
    asked.get_by_role("button", name="Throw them away and sign out").tap()
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()

    page.unroute("**/deals/queued/")
    sign_in(page, live_server, "ben")
    page.goto(live_server.url + game.get_absolute_url())
    expect(page.locator("#entry-h")).to_have_text("Enter deal 1")
    expect(page.locator("#entry input[type=radio]:checked")).to_have_count(0)
    expect(page.locator("#waiting")).to_be_hidden()
    assert page.evaluate(KEPT) == [] and page.evaluate(DRAFTS) == []
    assert Deal.objects.count() == 0


def test_a_deal_another_person_kept_is_never_sent_as_this_ones(page: Page, live_server):
    """An older tab, or a phone that ran no script when signing out, still holds
    Ann's deal: Ben's page says whose it is and sends nothing; the server would
    refuse it too (tests/views/test_deals_kept_on_a_phone.py)."""
    game, ann = a_game_of_ann_and_ben()
    sign_in(page, live_server, "ben")
    page.goto(live_server.url + game.get_absolute_url())
    expect(page.locator("#entry-h")).to_have_text("Enter deal 1")
    item = {
        "key": "ann-s-deal",
        "game": str(game.pk),
        "url": f"/games/{game.pk}/deals/queued/",
        "number": 1,
        "mode": "points",
        "fields": [["mode", "points"], ["points-0", "17"], ["points-1", "13"], ["points-2", "13"]],
        "status": "waiting",
        "created": 0,
        "by": {"id": ann.pk, "name": "ann"},
    }
    page.evaluate(
        """(item) => new Promise((done) => {
          const request = indexedDB.open("scorekeeper", 1);
          request.onupgradeneeded = () =>
            request.result.createObjectStore("deals", { keyPath: "key" });
          request.onsuccess = () => {
            const tx = request.result.transaction("deals", "readwrite");
            tx.objectStore("deals").put(item);
            tx.oncomplete = () => { request.result.close(); done(); };
          };
        })""",
        json.loads(json.dumps(item)),
    )
    page.reload()
    expect(page.locator("#waiting-list li")).to_contain_text(
        "kept by ann: sign in as ann to send it"
    )
    assert Deal.objects.count() == 0
