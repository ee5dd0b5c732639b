"""The chances from here on a 360 px phone: seven players with long names and negative
totals, in Norwegian and dark, beside the totals, then over the finished game and in its
result picture."""

from __future__ import annotations

import re

from django.contrib.auth import get_user_model
from django.urls import reverse
from playwright.sync_api import Browser, expect

from games import engine
from games.models import Game, Player, Table
from games.services.deals import deal_record
from games.services.games import game_start
from tests.e2e.conftest import check_page, sign_in
from tests.e2e.helpers import choose_mode, phone
from tests.factories import builtin, play_hearts
from tests.views.test_pictures import read

SEVEN = [
    "Åsmund Bjørnstad-Kvåle",
    "Marie-Louise Kristiansen",
    "Bartholomew Fitzgerald",
    "Cecilie Østergaard",
    "Henrietta Wolstenholme",
    "Jean-Baptiste Lefèvre",
    "Siri Tveitereid",
]
# Omnibus for seven: 13 hearts, Q♠ 13, K♠ 10, A♠ 7 and J♦ −10, 33 a deal. Åsmund takes
# every positive card but a heart in the first deal (not a moon); then the others share
# them and the jack in turn, and he takes nothing until someone passes 100.
FIRST = (42, -9, 0, 0, 0, 0, 0)
SHARES = (13, 10, -3, 5, 4, 4)


def later(number: int) -> tuple[int, ...]:
    turn = number % 6
    return (0, *SHARES[turn:], *SHARES[:turn])


def test_the_chances_fit_a_phone_under_the_totals_over_the_game_and_in_its_picture(
    browser: Browser, live_server
):
    user = get_user_model().objects.create_user("ann", password="a-long-pass-phrase")
    table = Table.objects.create(name="Torsdagsklubben", owner=user)
    players = [Player.objects.create(table=table, name=name) for name in SEVEN]
    game = game_start(table=table, players=players, ruleset=builtin("Omnibus"), first_dealer=0)
    deal_record(game=game, entry=engine.PointsEntry(FIRST), by=user)
    deal_record(game=game, entry=engine.PointsEntry(later(1)), by=user)

    page = phone(browser, locale="nb-NO", color_scheme="dark")
    sign_in(page, live_server)
    page.goto(f"{live_server.url}{game.get_absolute_url()}")
    line = page.locator(".total .chance")
    expect(line).to_have_count(7)
    expect(line.first.locator(".sr-only")).to_have_text("Vinnersjanse herfra: under 1 %")
    expect(line.first.locator(".chance-short")).to_have_text("<1 %")  # 360 px: no room for words
    expect(line.first.locator(".chance-long")).to_be_hidden()
    totals = page.locator(".total .points").all_inner_texts()
    assert any(re.fullmatch(r"[-−]\d+", t.strip()) for t in totals), totals  # Bartholomew's −3
    check_page(page, "47-chances-from-here-nb-dark")

    # A deal saved on the phone: the chances shown stay through the save, and the poll
    # that follows it brings the chances after the new deal.
    before = line.all_inner_texts()
    choose_mode(page, "Poeng")
    for seat, points in enumerate(later(2)):
        page.locator(f'input[name="points-{seat}"]').fill(str(points))
    page.get_by_role("button", name="Lagre giv 3").tap()
    # The save's answer is the fresh form for deal 4 (Åsmund's 42 was his total before).
    expect(page.get_by_role("button", name="Lagre giv 4")).to_be_visible()
    expect(page.locator(".total .points").first).to_have_text("42")
    expect(line).not_to_have_text(before)
    expect(line).to_have_count(7)
    assert Game.objects.get(pk=game.pk).deals.count() == 3

    number = 3
    while not Game.objects.get(pk=game.pk).is_finished:
        deal_record(game=game, entry=engine.PointsEntry(later(number)), by=user)
        number += 1
    page.reload()
    chart = page.locator("figure.chart", has_text="Hver spillers vinnersjanse, giv for giv")
    expect(chart).to_be_visible()
    assert chart.locator("polyline").count() == 7
    chart.scroll_into_view_if_needed()
    check_page(page, "47-chances-over-the-game-nb-dark")

    picture = page.request.get(
        f"{live_server.url}/games/{game.pk}/picture.png", headers={"Accept-Language": "nb"}
    )
    assert picture.ok, picture.status
    said = read(picture.body())
    assert re.search(r"vant fra (under )?\d+ ?% etter giv 1\.", said), said
    page.context.close()


def test_the_chances_said_against_what_happened_fit_a_phone(browser: Browser, live_server):
    """The table's own calibration on its Statistics: bands of chances said, how often
    they came true, and how many times; drawn with no script, in Norwegian and dark."""
    user = get_user_model().objects.create_user("ann", password="a-long-pass-phrase")
    table = Table.objects.create(name="Torsdagsklubben", owner=user)
    players = [Player.objects.create(table=table, name=name) for name in SEVEN[:3]]
    for number in range(6):
        play_hearts(table, players, winner=number % 3, days=number)
    page = phone(browser, locale="nb-NO", color_scheme="dark")
    sign_in(page, live_server)
    page.goto(f"{live_server.url}{reverse('table_stats', args=[table.pk])}")
    drawing = page.locator("figure.reliability")
    expect(drawing.locator("h3")).to_have_text("Sagt mot skjedd")
    expect(drawing.locator("svg")).to_be_visible()
    rows = drawing.locator(".said-happened tbody tr")
    assert rows.count() >= 2
    assert re.fullmatch(r"\d+–\d+", rows.first.locator("th").inner_text().strip())
    bars = drawing.locator("svg text.count").all_text_contents()
    times = [row.split("\t")[-1] for row in rows.all_inner_texts()]
    assert [int(t) for t in bars] == [int(t) for t in times]  # the drawing says the table's
    drawing.scroll_into_view_if_needed()
    check_page(page, "50-said-against-happened-nb-dark")
    page.context.close()
