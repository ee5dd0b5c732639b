"""The screen stays on while a game is open at the table (Screen Wake Lock): it
slept between deals, and the person unlocked the phone to enter the next one."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.e2e.conftest import layout_problems, screenshot
from tests.e2e.helpers import choose_mode, sign_up_and_start

# The phone's Wake Lock, recorded: headless Chromium has none that holds a screen.
RECORDED_WAKE_LOCK = """
window.__wakeLock = [];
Object.defineProperty(navigator, "wakeLock", { configurable: true, value: {
  request(type) {
    window.__wakeLock.push("request " + type);
    const lock = new EventTarget();
    lock.release = () => {
      window.__wakeLock.push("release");
      lock.dispatchEvent(new Event("release"));
      return Promise.resolve();
    };
    return Promise.resolve(lock);
  },
}});
"""


def said(page: Page) -> list[str]:
    return page.evaluate("window.__wakeLock")


def test_the_screen_is_kept_on_during_the_game_until_it_ends_or_is_turned_off(
    page: Page, live_server
):
    page.add_init_script(RECORDED_WAKE_LOCK)
    page.set_viewport_size({"width": 360, "height": 640})
    sign_up_and_start(page, live_server, "Black Maria", checks=False)
    box = page.get_by_label("Keep the screen on during the game")
    expect(box).to_be_checked()
    page.wait_for_function("() => window.__wakeLock.length === 1")
    assert said(page) == ["request screen"]
    assert layout_problems(page) == []
    screenshot(page, "a2-screen-kept-on")
    # Turned off on this phone: let go, and not taken on the next visit.
    box.tap()
    page.wait_for_function("() => window.__wakeLock.length === 2")
    assert said(page)[-1] == "release"
    page.reload()
    expect(page.get_by_label("Keep the screen on during the game")).not_to_be_checked()
    assert said(page) == []
    # On again, then the game ends: nothing left to enter, the screen may sleep.
    page.get_by_label("Keep the screen on during the game").tap()
    page.wait_for_function("() => window.__wakeLock.length === 1")
    choose_mode(page, "Points")
    for number in (1, 2, 3):  # Alice takes everything three times: 129, over the 100
        for seat, points in enumerate((43, 0, 0)):
            page.locator(f"#points-input-{seat}").fill(str(points))
        page.get_by_role("button", name=f"Save deal {number}").tap()
        expect(page.locator(".history tbody tr")).to_have_count(number)
    expect(page.locator(".winner")).to_be_visible()
    page.wait_for_function("() => window.__wakeLock.includes('release')")
    assert said(page) == ["request screen", "release"]


def test_where_the_phone_cannot_keep_the_screen_on_nothing_is_offered(browser, live_server):
    context = browser.new_context(viewport={"width": 360, "height": 640})
    context.add_init_script("delete Navigator.prototype.wakeLock; delete navigator.wakeLock;")
    page = context.new_page()
    sign_up_and_start(page, live_server, "Black Maria", checks=False)
    expect(page.locator("#keep-awake")).to_be_hidden()
    context.close()
