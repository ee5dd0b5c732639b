"""What users type never runs: every text field, through the pages, in a browser."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.e2e.conftest import follow, until_settled
from tests.e2e.helpers import open_choices, tap_counts

SCRIPT = "<script>alert('table')</script>"
IMG = "<img src=x onerror=alert('player')>"
SVG = "<svg onload=alert('rules')>"


def injected(page: Page) -> list[str]:
    """Elements that only exist if typed text was taken as HTML."""
    return page.evaluate(
        """() => [
            ...[...document.scripts].filter(s => !s.src).map(s => 'inline script'),
            ...[...document.querySelectorAll('img[onerror], svg[onload]')].map(e => e.outerHTML),
        ]"""
    )


def test_script_typed_anywhere_never_runs(page: Page, live_server):
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)

    page.goto(live_server.url + "/accounts/signup/")
    page.fill("#id_username", "ann")
    page.fill("#id_password1", "a-long-pass-phrase")
    page.fill("#id_password2", "a-long-pass-phrase")
    page.get_by_role("button", name="Make my account").click()
    page.fill("#id_name", SCRIPT)
    page.fill("#id_players", f"{IMG}\n{SCRIPT}\nCara")
    page.get_by_role("button", name="Make the table").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(SCRIPT)

    page.get_by_role("link", name="Settings").click()
    page.get_by_role("link", name="Adapt Black Maria", exact=True).click()
    page.fill("#id_name", SVG)
    page.fill("#id_notes", SCRIPT + IMG)
    page.get_by_role("button", name="Save the rules").click()
    page.select_option("#default-ruleset", label=SVG)
    page.get_by_role("button", name="Use these rules").click()
    page.get_by_role("link", name=f"Back to {SCRIPT}").click()

    page.get_by_role("link", name="New game").click()
    open_choices(page)
    page.locator("[data-dealers] label.chip").nth(1).click()  # the first seat
    page.get_by_role("button", name="Start the game").click()
    tap_counts(page, (4, 3), {"QS": 0, "KS": 1, "AS": 2})
    page.get_by_role("button", name="Save deal 1").click()
    expect(page.locator(".history tbody tr")).to_have_count(1)
    game_url = page.url

    page.get_by_role("link", name="Share this game").click()
    page.get_by_role("button", name="Make a watch link").click()
    watch_url = page.locator("#watch-url").input_value()
    for url in (
        live_server.url + "/",
        game_url,
        game_url + "changes/",
        watch_url,
        page.url,
    ):
        page.goto(url)
        until_settled(page)
        assert injected(page) == [], url
    page.goto(game_url)
    follow(page.get_by_role("link", name=SCRIPT), touch=False)  # the table page
    until_settled(page)
    assert injected(page) == []
    follow(page.get_by_role("link", name="Settings"), touch=False)
    until_settled(page)
    assert injected(page) == []
    assert dialogs == []
    # Escaping, not only the Content Security Policy, kept it inert: nothing was refused.
    assert [e for e in errors if "Content Security Policy" in e] == []
