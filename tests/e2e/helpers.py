"""What the browser tests do at the table, shared: tap a chip, start a game, read the totals."""

from __future__ import annotations

from playwright.sync_api import Browser, Locator, Page, expect

from tests.e2e.conftest import check_page, follow, layout_problems, screenshot


class Taps:
    """Counts every tap and key press a person makes."""

    def __init__(self, page: Page):
        self.page = page
        self.count = 0

    def tap(self, locator: Locator) -> None:
        locator.tap()
        self.count += 1

    def follow(self, link: Locator) -> None:
        follow(link)
        self.count += 1

    def type(self, locator: Locator, text: str) -> None:
        locator.tap()
        self.page.keyboard.type(text)
        self.count += 1 + len(text)


# Words whose letters land on two lines: a name or a number broken mid-way.
BROKEN_WORDS = """() => {
  const broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.offsetParent === null || el.closest(".sr-only, svg, textarea, option")) continue;
    if (el.getBoundingClientRect().width <= 1) continue; // hidden but read out
    for (const word of node.data.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0);
      const lines = new Set(rects.map((r) => Math.round(r.bottom)));
      if (lines.size > 1) broken.push(word[0]);
    }
  }
  return broken;
}"""


# A part of the page scrolled sideways inside itself hides what it holds.
HIDDEN_SIDEWAYS = """() => [...document.querySelectorAll("body *")]
  .filter((el) => el.offsetParent !== null && el.clientWidth > 1)
  .filter((el) => el.scrollWidth > el.clientWidth + 1)
  .filter((el) => getComputedStyle(el).overflowX !== "visible")
  .filter((el) => !el.matches(".sr-only, select, input, .chip span"))
  .map((el) => `${el.localName}.${el.className} ${el.scrollWidth}px in ${el.clientWidth}px`)"""


def phone(browser: Browser, **options) -> Page:
    """Another phone at 360×640, touch first, in a context of its own (``options``: its
    locale, its colour scheme)."""
    return screen(browser, 360, 640, **options)


def screen(browser: Browser, width: int, height: int, *, touch: bool = True, **options) -> Page:
    """A screen of this size in a context of its own: a phone or a tablet (touch), a
    laptop or a TV (``touch=False``)."""
    context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=touch, has_touch=touch, **options
    )
    return context.new_page()


def chip(page: Page, name: str, value: int | str) -> Locator:
    return page.locator(f'label.chip:has(input[name="{name}"][value="{value}"])')


def choose_mode(page: Page, name: str) -> None:
    """Tap a way of entering the deal, and wait for its entry: a check straight
    after can pass on the entry being replaced, and a tap land on it."""
    page.locator("nav.modes").get_by_role("link", name=name).tap()
    expect(page.locator("nav.modes a[aria-current]")).to_have_text(name)


def tap_counts(page: Page, hearts: tuple[int, int], takers: dict[str, int]) -> None:
    """Tap two players' hearts (the third is filled in) and who took each spade."""
    for seat, count in enumerate(hearts):
        chip(page, f"hearts-{seat}", count).tap()
    rest = 13 - sum(hearts)
    expect(page.locator(f'input[name="hearts-2"][value="{rest}"]')).to_be_checked()
    for card, seat in takers.items():
        chip(page, f"taker-{card}", seat).tap()


def totals(page: Page) -> list[str]:
    return page.locator(".totals .points").all_inner_texts()


def open_choices(page: Page) -> None:
    """Unfold New game's rules and first dealer (folded so Start is on the first screen)."""
    choices = page.locator("details.folded")
    if choices.get_attribute("open") is None:
        choices.locator("summary").click()


def first_dealer(page: Page, name: str) -> Locator:
    """The New game screen's choice of who deals first, unfolded."""
    open_choices(page)
    return page.locator("fieldset:has(input[name=first_dealer]) label.chip", has_text=name)


def sign_up_and_start(page: Page, live_server, ruleset: str, *, checks: bool = True) -> None:
    """Sign up, make a table of Alice, Ben and Cara, start a game; Alice deals."""

    def check(name: str) -> None:
        if checks:
            check_page(page, name)

    page.goto(live_server.url + "/accounts/signup/")
    check("01-sign-up")
    page.fill("#id_username", "ann")
    page.fill("#id_password1", "a-long-pass-phrase")
    page.fill("#id_password2", "a-long-pass-phrase")
    page.get_by_role("button", name="Make my account").click()
    expect(page.get_by_role("heading", name="New table")).to_be_visible()
    check("02-new-table")
    page.fill("#id_name", "Friday club")
    page.fill("#id_players", "Alice\nBen\nCara")
    page.select_option("#id_default_ruleset", label=ruleset)
    page.get_by_role("button", name="Make the table").click()
    expect(page.get_by_role("heading", name="Friday club")).to_be_visible()
    check("03-table")
    follow(page.get_by_role("link", name="New game"), touch=False)
    check("04-new-game")
    first_dealer(page, "Alice").click()  # also with no touch screen, no script
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#coming-h")).to_have_text("Deal 1 — Alice deals, Ben leads")
    expect(page.locator(".passes-box summary")).to_have_text("Pass 3 cards to the right")


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


def misfits(page: Page, name: str) -> list[str]:
    screenshot(page, name)
    return [f"{name}: {p}" for p in layout_problems(page) + page.evaluate(HIDDEN_SIDEWAYS)] + [
        f"{name}: broken {w}" for w in page.evaluate(BROKEN_WORDS)
    ]
