"""Numbers inside drawings are coordinates, never words: every chart parses in both languages."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import engine
from games.services.deals import deal_record

NUMBER_ATTRIBUTES = re.compile(r'\s(x|y|x1|x2|y1|y2|cx|cy|r|dy|width|height)="([^"]*)"')
POINTS = re.compile(r'\spoints="([^"]*)"')
VIEWBOX = re.compile(r'\sviewBox="([^"]*)"')


def svg_numbers(page: str) -> int:
    """Every coordinate of every drawing on the page, each read as a number."""
    drawings = re.findall(r"<svg.*?</svg>", page, re.S)
    assert drawings
    seen = 0
    for svg in drawings:
        for _, value in NUMBER_ATTRIBUTES.findall(svg):
            float(value.removesuffix("%"))
            seen += 1
        for value in POINTS.findall(svg) + VIEWBOX.findall(svg):
            for number in re.split(r"[ ,]+", value.strip()):
                float(number)
                seen += 1
    return seen


@pytest.mark.parametrize("language", ["en", "nb"])
def test_the_game_chart_and_the_rating_chart_parse_in_both_languages(
    moon_game, owner, players, language
):
    for points in [(17, 13, 13), (10, 20, 13), (6, 17, 20)]:
        deal_record(game=moon_game, entry=engine.PointsEntry(points), by=owner)
    phone = Client(HTTP_ACCEPT_LANGUAGE=language)
    phone.force_login(owner)
    page = phone.get(moon_game.get_absolute_url()).content.decode()
    assert 'class="series"' in page
    assert svg_numbers(page) > 20
    # Totals of 33-50 and a target of 100: the axis fits the totals, and the target,
    # far above them, is named at the top edge rather than drawn.
    assert '<line class="target"' not in page
    assert re.search(r'class="axis target-label"[^>]*>[^<]*100[^<]*↑', page)
    # The player's page: the rating chart, once a game of theirs is finished.
    while not moon_game.__class__.objects.get(pk=moon_game.pk).is_finished:
        deal_record(game=moon_game, entry=engine.PointsEntry((43, 0, 0)), by=owner)
    player_page = phone.get(f"/players/{players[0].pk}/").content.decode()
    assert svg_numbers(player_page) > 5
