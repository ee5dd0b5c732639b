"""Browser tests: Playwright driving Debian's Chromium at a phone's size."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.cache import cache

# pytest-playwright's event loop starts before the live server's database.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "test-output" / "screenshots"
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
TAKE_SCREENSHOTS = os.environ.get("SCREENSHOTS") == "1"
TAP_TARGETS = ", ".join(
    [
        "button",
        ".button",
        "select",
        "input:not([type=radio]):not([type=hidden]):not(.chip > input):not(.option > input)",
        ".option",  # a box and its words: the whole line is the target
        ".chip span",
        ".modes a",
        ".row a",
        ".actions a",
    ]
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def base_url() -> None:
    """Tests name the live server's address themselves (and this replaces
    pytest-base-url's fixture, which pytest 9 warns about)."""
    return None


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict) -> dict:
    return {
        **browser_context_args,
        "viewport": {"width": 390, "height": 844},
        "is_mobile": True,
        "has_touch": True,
        # A phone's screen has three pixels to a CSS pixel; the tests measure in
        # CSS pixels, and drawing nine times the pixels for no reader costs time.
        "device_scale_factor": 3 if TAKE_SCREENSHOTS else 1,
    }


@pytest.fixture(autouse=True)
def _live_database(transactional_db) -> None:
    """Every browser test talks to a live server, so needs committed data.

    The throttling counts live in the cache table, which a flush between tests
    leaves alone: each test starts with none.
    """
    cache.clear()


@pytest.fixture
def outside_requests(page, live_server) -> Iterator[list[str]]:
    """Every request the page makes to anywhere but the app itself."""
    seen: list[str] = []
    page.on(
        "request",
        lambda request: (
            seen.append(request.url)
            if not request.url.startswith((live_server.url, "data:"))
            else None
        ),
    )
    yield seen


def sign_in(page, live_server, username: str = "ann") -> None:
    """Sign in through the page, as a person would (the password the tests give everyone)."""
    page.goto(live_server.url + "/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "a-long-pass-phrase")
    page.locator("main button[type=submit]").click()  # in any language
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


def follow(link, *, touch: bool = True) -> None:
    """Tap a link (click, on a phone with no touch screen) and wait for the page it
    opens: a check straight after a bare tap can read the page being left."""
    with link.page.expect_navigation():
        link.tap() if touch else link.click()


def frames(page, count: int = 2) -> None:
    """Wait for the page to draw ``count`` frames: whatever a tap or an answer set
    off in its scripts has run and been drawn."""
    page.evaluate(
        """(count) => new Promise((done) => {
          const next = (left) => (left ? requestAnimationFrame(() => next(left - 1)) : done());
          next(count);
        })""",
        count,
    )


def until_settled(page) -> None:
    """Wait for the page's last script (htmx, loaded once the page has) and the
    frames after it: what the page's scripts do on their own has been done."""
    page.wait_for_function("() => window.htmx")
    frames(page)


def until_polled(page, times: int = 1) -> None:
    """Wait for the page's poll (every POLL_INTERVAL_MS) to have been answered
    ``times`` times and the answer drawn: what a poll would change has changed."""
    for _ in range(times):
        with page.expect_response(lambda response: "/live/" in response.url):
            pass
    frames(page)


def screenshot(page, name: str, *, full_page: bool = True) -> None:
    """A picture for a person to look at, made by `make screenshots` (SCREENSHOTS=1);
    an ordinary run takes none (a failing test's page is kept by --screenshot)."""
    if not TAKE_SCREENSHOTS:
        return
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=full_page, scale="css")


def axe_violations(page) -> list[str]:
    """Serious and critical accessibility violations, as readable lines."""
    # Evaluated through DevTools, not a <script> tag, so the page's strict CSP
    # stays on for everything the app itself loads.
    page.evaluate(AXE.read_text(encoding="utf-8") + "\n;0")
    result = page.evaluate("async () => await axe.run(document)")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — "
        + "; ".join(n["target"][0] for n in v["nodes"][:3])
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def layout_problems(page) -> list[str]:
    """Sideways scrolling, and tap targets under 44 px."""
    problems = []
    # A phone widens its layout to fit wide content (and shrinks the text), so
    # compare with the screen's width, not with the window's.
    width = page.evaluate("document.documentElement.scrollWidth")
    viewport = page.viewport_size["width"]
    if width > viewport:
        problems.append(f"the page is {width}px wide in a {viewport}px window")
    small = page.evaluate(
        """(targets) => [...document.querySelectorAll(targets)]
            .filter(e => e.offsetParent !== null && e.checkVisibility())
            .map(e => [e.outerHTML.slice(0, 80), e.getBoundingClientRect()])
            .filter(([_, r]) => r.height < 44 || r.width < 44)
            .map(([html, r]) => `${Math.round(r.width)}x${Math.round(r.height)} ${html}`)""",
        TAP_TARGETS,
    )
    problems.extend(small)
    problems.extend(cut_targets(page))
    return problems


def cut_targets(page) -> list[str]:
    """Buttons and links whose words run past their own edge (cut off on screen)."""
    return page.evaluate(
        """(targets) => [...document.querySelectorAll(targets)]
            .filter(e => e.offsetParent !== null && e.checkVisibility())
            .filter(e => e.scrollWidth > e.clientWidth + 1)
            .filter(e => getComputedStyle(e).overflow !== "hidden")
            .map(e => `${e.clientWidth}px holds ${e.scrollWidth}px: ${e.outerHTML.slice(0, 70)}`)
        """,
        "button, a.button",
    )


def check_page(page, name: str) -> None:
    """What every main screen must pass: screenshot, axe, layout."""
    screenshot(page, name)
    assert axe_violations(page) == [], name
    assert layout_problems(page) == [], name
