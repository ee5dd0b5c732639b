"""Every screen a club looks at, at the sizes it has: the phone, the tablet, the laptop
and the TV across the room; light and dark, English and Norwegian.

A page fails if it scrolls sideways, if text spills out of a bordered box, or (on the
TV) if the totals and standings can't be read from across the room.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Browser

from games.models import Player, Ruleset, Table
from games.services.games import game_start
from games.services.sharing import watch_link_replace
from tests.e2e.conftest import TAKE_SCREENSHOTS, axe_violations, screenshot, sign_in
from tests.e2e.helpers import HIDDEN_SIDEWAYS, phone, screen
from tests.e2e.seven import NAMES, seven_at_a_table

SIZES = {
    "phone": (360, 640),
    "tablet": (768, 1024),
    "laptop": (1366, 768),
    "tv": (1920, 1080),
}
# Every combination for a person to look at; a light English and a dark Norwegian run
# of each size otherwise (the other two differ only in words or in colours).
LOOKS = (
    [("en-GB", "light"), ("en-GB", "dark"), ("nb-NO", "light"), ("nb-NO", "dark")]
    if TAKE_SCREENSHOTS
    else [("en-GB", "light"), ("nb-NO", "dark")]
)
# Read from 4 m on a 55-inch TV: the totals and standings as a sign, the rest as print.
TV_TOTALS_PX = 80
TV_SMALLEST_PX = 24

# Text outside the bordered box it is in: each word's lines against the box's edges.
SPILLED = """() => {
  const bordered = (el) => {
    const s = getComputedStyle(el);
    return parseFloat(s.borderLeftWidth) > 0 && parseFloat(s.borderRightWidth) > 0
      && s.borderLeftStyle !== "none" && s.borderRightStyle !== "none";
  };
  // Cut on purpose (a name ended with "…", a region that scrolls): not spilled.
  const clipped = (el, box) => {
    for (let at = el; at; at = at.parentElement) {
      if (getComputedStyle(at).overflowX !== "visible") return true;
      if (at === box) return false;
    }
    return false;
  };
  const spilled = [];
  for (const box of document.querySelectorAll("body *")) {
    if (!bordered(box) || !box.checkVisibility()) continue;
    if (box.matches("input, select, textarea")) continue;
    const edge = box.getBoundingClientRect();
    const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!node.data.trim() || !el.checkVisibility() || el.closest(".sr-only, svg")) continue;
      if (clipped(el, box)) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const r of range.getClientRects()) {
        if (r.width === 0) continue;
        if (r.left < edge.left - 1 || r.right > edge.right + 1
            || r.top < edge.top - 1 || r.bottom > edge.bottom + 1) {
          const text = node.data.trim().slice(0, 30);
          spilled.push(`"${text}" out of ${box.localName}.${box.className}`);
          break;
        }
      }
    }
  }
  return [...new Set(spilled)];
}"""

# The smallest type a person reads on the page (hidden and screen-reader text aside).
SMALLEST_TEXT = """() => {
  let smallest = [1000, ""];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.data.trim() || !el.checkVisibility() || el.closest(".sr-only, .skip, svg")) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < smallest[0]) smallest = [size, node.data.trim().slice(0, 30)];
  }
  return smallest;
}"""

BIGGEST_OF = """(selector) => Math.min(...[...document.querySelectorAll(selector)]
  .filter((el) => el.checkVisibility())
  .map((el) => parseFloat(getComputedStyle(el).fontSize)))"""


@pytest.fixture
def club(transactional_db):
    """The seven's table, a game of four about to be dealt, and a table with no game."""
    user, table, game, finished = seven_at_a_table()
    four = game_start(
        table=table,
        players=list(table.players.filter(name__in=NAMES[:4]).order_by("pk")),
        ruleset=Ruleset.objects.get(table=None, name="Black Maria"),
        first_dealer=0,
        by=user,
    )
    empty = Table.objects.create(name="Torsdagsgjengen", owner=user)
    for name in NAMES[:4]:
        Player.objects.create(table=empty, name=name)
    evening = table.evenings.get()
    pages = {
        "game": game.get_absolute_url(),
        "game-fresh": four.get_absolute_url(),
        "game-fresh-cards": four.get_absolute_url() + "?mode=cards",
        "game-finished": finished.get_absolute_url(),
        "table": table.get_absolute_url(),
        "history": reverse("table_history", args=[table.pk]),
        "stats": reverse("table_stats", args=[table.pk]),
        "stats-empty": reverse("table_stats", args=[empty.pk]),
        "settings": reverse("table_settings", args=[table.pk]),
        "evening": evening.get_absolute_url(),
        "player": reverse("player_detail", args=[table.players.get(name="Kristoffer").pk]),
    }
    tv = {
        "big-screen": reverse("watch_evening", args=[evening.watch_token]),
        "watch": reverse("watch_game", args=[watch_link_replace(game)]),
        "watch-finished": reverse("watch_game", args=[watch_link_replace(finished)]),
    }
    return pages, tv


@pytest.mark.parametrize("size", SIZES)
def test_every_screen_fits_at_every_size(browser: Browser, live_server, club, size):
    pages, tv = club
    width, height = SIZES[size]
    problems = []
    for locale, scheme in LOOKS:
        touch = size in ("phone", "tablet")
        page = screen(browser, width, height, touch=touch, locale=locale, color_scheme=scheme)
        sign_in(page, live_server)
        for name, url in {**pages, **tv}.items():
            page.goto(live_server.url + url)
            shown = f"{name}-{size}-{locale}-{scheme}"
            screenshot(page, f"s-{shown}", full_page=size != "tv")
            if page.evaluate("document.documentElement.scrollWidth") > width:
                problems.append(f"{shown}: scrolls sideways")
            problems += [f"{shown}: {p}" for p in page.evaluate(HIDDEN_SIDEWAYS)]
            problems += [f"{shown}: {p}" for p in page.evaluate(SPILLED)]
            if size == "tv" and name in tv:
                problems += tv_problems(page, shown)
            if size != "phone":  # the phone's are checked with its other tests
                problems += [f"{shown}: {v}" for v in axe_violations(page)]
        page.context.close()
    assert problems == [], "\n".join(problems)


def tv_problems(page, shown: str) -> list[str]:
    """Totals and standings as a sign, nothing read under 24 px, on one screen."""
    problems = []
    big = page.evaluate(BIGGEST_OF, ".totals .points, .standing-score")
    if big < TV_TOTALS_PX:
        problems.append(f"{shown}: totals of {big}px")
    size, text = page.evaluate(SMALLEST_TEXT)
    if size < TV_SMALLEST_PX:
        problems.append(f"{shown}: {text!r} at {size}px")
    if page.evaluate("document.documentElement.scrollHeight") > SIZES["tv"][1]:
        problems.append(f"{shown}: runs below the screen")
    return problems


def test_the_tv_pages_on_a_phone_stay_as_they_are(browser: Browser, live_server, club):
    """The big screen's TV layout is for a wide screen: a phone keeps its column."""
    _, tv = club
    page = phone(browser)
    page.goto(live_server.url + tv["watch"])
    assert page.evaluate(BIGGEST_OF, ".totals .points") < 40
    page.context.close()
