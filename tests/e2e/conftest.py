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


# What the phone draws and how fast: the same on either database, so CI runs them
# once, on SQLite (.ci/run), and the rest of the browser tests on both.
SCREEN = {"test_seven_at_360.py", "test_languages_and_dark.py", "test_slow_phone.py"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.e2e)
            if Path(item.fspath).name in SCREEN:
                item.add_marker(pytest.mark.screen)


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
        "device_scale_factor": 3,
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


def screenshot(page, name: str, *, full_page: bool = True) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=full_page)


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
