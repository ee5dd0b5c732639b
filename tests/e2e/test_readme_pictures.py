"""The README's three pictures, taken from the app itself with seeded data: a game
under way, a deal being entered, and a table's ladder. Every run checks the three
screens as it checks every screen; `make screenshots` (SCREENSHOTS=1) also writes
them to docs/images/, so they can be made again whenever the pages change."""

from __future__ import annotations

from pathlib import Path

from django.contrib.auth import get_user_model
from playwright.sync_api import Browser, expect

from games import engine
from games.models import Game, Player, Table
from games.services.deals import deal_record
from games.services.games import game_start
from games.services.ladder import rerate
from tests.e2e.conftest import TAKE_SCREENSHOTS, check_page, sign_in
from tests.e2e.helpers import chip, choose_mode, phone
from tests.factories import builtin

DOCS_IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images"
NAMES = ["Åse", "Bjørn", "Cecilie", "Tom"]
# Black Maria for four: Q♠ 13, K♠ 10, A♠ 7 and 13 hearts, 43 a deal. Each deal one
# player takes nothing, one the queen, one the king and ace with three hearts, one
# ten hearts; who takes what turns round, so games are won by different people.
SHAPE = (0, 13, 20, 10)


def deal(turn: int) -> engine.PointsEntry:
    return engine.PointsEntry(tuple(SHAPE[(seat + turn) % 4] for seat in range(4)))


def seed() -> tuple[Table, Game]:
    user = get_user_model().objects.create_user("ann", password="a-long-pass-phrase")
    table = Table.objects.create(name="Friday club", owner=user)
    players = [Player.objects.create(table=table, name=name) for name in NAMES]
    rules = builtin("Black Maria")
    for number in range(7):
        game = game_start(table=table, players=players, ruleset=rules, first_dealer=number % 4)
        turn = number
        while not Game.objects.get(pk=game.pk).is_finished:
            deal_record(game=game, entry=deal(turn % 4 if turn % 3 else number % 4), by=user)
            turn += 1
    rerate(table)
    game = game_start(table=table, players=players, ruleset=rules, first_dealer=1)
    for turn in (2, 0, 3):
        deal_record(game=game, entry=deal(turn), by=user)
    return table, game


def picture(page, name: str) -> None:
    """The phone's screen as a person sees it, for the README."""
    if TAKE_SCREENSHOTS:
        DOCS_IMAGES.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(DOCS_IMAGES / f"{name}.png"), scale="css")


def test_the_readme_s_pictures(browser: Browser, live_server):
    table, game = seed()
    page = phone(browser, locale="en-GB")
    sign_in(page, live_server)

    page.goto(f"{live_server.url}{game.get_absolute_url()}")
    expect(page.locator(".total .chance").first).to_be_visible()
    check_page(page, "readme-game")
    picture(page, "game")

    choose_mode(page, "Counts")
    for seat, hearts in enumerate((4, 3, 2)):
        chip(page, f"hearts-{seat}", hearts).tap()
    chip(page, "taker-QS", 1).tap()
    chip(page, "taker-KS", 2).tap()
    expect(page.locator(".tally").first).to_contain_text("of 43")
    page.locator("#entry").scroll_into_view_if_needed()
    page.evaluate("window.scrollBy(0, 80)")
    picture(page, "entry")

    page.goto(f"{live_server.url}{table.get_absolute_url()}")
    expect(page.locator("#ladder-h")).to_be_visible()
    check_page(page, "readme-ladder")
    page.locator("#ladder-h").scroll_into_view_if_needed()
    picture(page, "ladder")
    page.context.close()
