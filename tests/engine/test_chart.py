"""The running-totals chart."""

from __future__ import annotations

import doctest
import re

from django.urls import reverse

from games import engine
from games.engine import chart as c
from games.services.deals import deal_record
from tests.factories import DEAL_1, DEAL_2, DEAL_3


def test_the_module_examples_hold():
    assert doctest.testmod(c).failed == 0


def test_each_player_has_a_line_from_zero_through_every_total():
    chart = c.score_chart(
        ["A", "B", "C"], [(17, 20, 6), (60, 63, 6), (88, 65, 19)], 100, [None, 2, None]
    )
    assert len(chart.lines) == 3
    assert all(len(line.points.split()) == 4 for line in chart.lines)
    # Lowest is best and the y axis goes up: Alice's 88 is drawn above Cara's 19.
    assert chart.lines[0].end_y < chart.lines[2].end_y
    assert chart.target_y is not None and chart.target_y < chart.lines[0].end_y
    assert [m.label for m in chart.moons] == ["Deal 2: C shoots the moon"]


def test_the_axis_fits_the_totals_while_the_target_is_far_off():
    """Early in a game to 100 the lines crowded the bottom fifth of an axis to 100."""
    early = c.score_chart(["A", "B", "C"], [(10, 20, 13), (16, 37, 33)], 100, [None, None])
    assert early.target_y is None and early.target == 100  # named at the top edge
    assert max(int(t.label) for t in early.y_ticks) < 100
    tops = [float(line.points.split()[-1].split(",")[1]) for line in early.lines]
    assert min(tops) < c.TOP + (c.HEIGHT - c.TOP - c.BOTTOM) / 4  # the leader near the top
    late = c.score_chart(["A", "B", "C"], [(40, 20, 13), (76, 37, 33)], 100, [None, None])
    assert late.target_y is not None  # within reach: drawn where it is


def test_seven_players_get_seven_colours_and_seven_dash_patterns():
    chart = c.score_chart(list("ABCDEFG"), [(1, 2, 3, 4, 5, 6, 7)], 100, [None])
    assert len({line.colour for line in chart.lines}) == 7
    assert len({line.dash for line in chart.lines}) == 7


def test_negative_totals_and_no_target_fit_the_chart():
    chart = c.score_chart(["A", "B", "C"], [(-43, 0, 0), (-30, 13, 30)], None, [0, None])
    ys = [float(p.split(",")[1]) for line in chart.lines for p in line.points.split()]
    assert all(c.TOP <= y <= c.HEIGHT - c.BOTTOM for y in ys)
    assert chart.target_y is None
    assert any(t.label.startswith("-") for t in chart.y_ticks)


def test_a_hundred_and_twenty_deals_keep_a_few_readable_ticks():
    totals = [(n, 2 * n, 3 * n) for n in range(1, 121)]
    chart = c.score_chart(["A", "B", "C"], totals, None, [None] * 120)
    assert len(chart.x_ticks) <= 9
    assert len(chart.y_ticks) <= 8
    xs = [float(p.split(",")[0]) for p in chart.lines[0].points.split()]
    assert xs == sorted(xs)
    assert max(xs) <= c.WIDTH - c.RIGHT


def test_the_game_page_draws_the_chart_with_a_legend(client, owner, moon_game):
    for entry in (DEAL_1, DEAL_2, DEAL_3):
        deal_record(game=moon_game, entry=entry, by=owner)
    client.force_login(owner)
    page = client.get(moon_game.get_absolute_url()).content.decode()
    assert len(re.findall(r'<polyline class="series"', page)) == 3
    assert 'class="moon-mark"' in page
    assert "target 100" in page
    assert "Running totals over 3 deals; now Alice 88, Ben 65, Cara 19." in page
    assert page.count('class="swatch"') == 4  # three players and the moon


def test_the_chart_escapes_names(client, owner, moon_game, players):
    players[0].name = "<b>Al</b>"
    players[0].save()
    deal_record(game=moon_game, entry=engine.PointsEntry((17, 13, 13)), by=owner)
    client.force_login(owner)
    page = client.get(reverse("game_detail", args=[moon_game.pk])).content.decode()
    assert "<b>Al</b>" not in page
