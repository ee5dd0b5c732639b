"""The running-totals chart: geometry only, drawn as SVG by a template.

No Django here: its words come through the engine's (games/engine/words.py).
Colours are the Okabe-Ito set, which stays distinguishable
for the common kinds of colour blindness, and every line also has its own
dash pattern, so colour is never the only way to tell players apart.

>>> chart = score_chart(["Ann", "Bo", "Cy"], [(17, 20, 6), (60, 63, 6)], 100, [None, 2])
>>> [line.name for line in chart.lines], len(chart.moons)
(['Ann', 'Bo', 'Cy'], 1)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from games.engine.words import _, ngettext

WIDTH = 320
HEIGHT = 200
LEFT, RIGHT, TOP, BOTTOM = 34, 10, 10, 22

# Okabe & Ito (2008): black, orange, blue, bluish green, vermillion, reddish purple, sky blue.
COLOURS = ("#000000", "#E69F00", "#0072B2", "#009E73", "#D55E00", "#CC79A7", "#56B4E9")
DASHES = ("", "7 3", "2 3", "9 3 2 3", "4 2", "12 4", "5 2 1 2")
# Where every chart's plot sits in its box.
FRAME = {
    "width": WIDTH,
    "height": HEIGHT,
    "left": LEFT,
    "right": WIDTH - RIGHT,
    "top": TOP,
    "bottom": HEIGHT - BOTTOM,
}


@dataclass(frozen=True)
class Line:
    name: str
    colour: str
    dash: str
    points: str  # "x,y x,y …" for an SVG polyline
    end_x: float
    end_y: float


@dataclass(frozen=True)
class Tick:
    position: float
    label: str


@dataclass(frozen=True)
class Moon:
    x: float
    y: float
    colour: str
    label: str


@dataclass(frozen=True)
class Frame:
    """A drawing's size and its plot's edges, in the SVG's own units."""

    width: int
    height: int
    left: int
    right: float
    top: int
    bottom: float


@dataclass(frozen=True)
class Chart(Frame):
    lines: list[Line]
    x_ticks: list[Tick]
    y_ticks: list[Tick]
    zero_y: float
    target_y: float | None
    target: int | None
    moons: list[Moon]
    summary: str


def _nice_step(span: float, count: int) -> int:
    """A round step (1, 2, 5, 10, 20, 50, …) giving about ``count`` ticks."""
    raw = max(span / max(count, 1), 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= factor * magnitude:
            return int(factor * magnitude)
    return int(10 * magnitude)


def _lines(names: Sequence[str], paths: Sequence[Sequence[tuple[float, float]]]) -> list[Line]:
    """One line a player, each in its own colour and dash."""
    return [
        Line(
            name=name,
            colour=COLOURS[seat % len(COLOURS)],
            dash=DASHES[seat % len(DASHES)],
            points=" ".join(f"{px},{py}" for px, py in path),
            end_x=path[-1][0],
            end_y=path[-1][1],
        )
        for seat, (name, path) in enumerate(zip(names, paths, strict=True))
    ]


def score_chart(
    names: Sequence[str],
    totals: Sequence[Sequence[int]],
    target: int | None,
    moons: Sequence[int | None],
) -> Chart:
    """Lines from 0 through each player's total after every deal."""
    deals = len(totals)
    values = [0, *(t for row in totals for t in row)]
    low, high = min(values), max(values)
    # The target on the axis only while the lines would still fill the plot: early in
    # a game to 100 they crowded the bottom fifth. Far off, it is named at the top edge.
    target_in_sight = target is not None and target - high <= max(high - low, 10) / 2
    if target_in_sight:
        high = max(high, target)
    if high == low:
        high = low + 10
    step = _nice_step(high - low, 5)
    low = math.floor(low / step) * step
    high = math.ceil(high / step) * step
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM

    def x(deal: int) -> float:
        return round(LEFT + plot_w * deal / max(deals, 1), 1)

    def y(value: float) -> float:
        return round(TOP + plot_h * (high - value) / (high - low), 1)

    lines = _lines(
        names,
        [
            [(x(0), y(0))] + [(x(d + 1), y(row[seat])) for d, row in enumerate(totals)]
            for seat in range(len(names))
        ],
    )
    x_step = max(1, math.ceil(deals / 8))
    x_ticks = [Tick(x(d), str(d)) for d in range(0, deals + 1, x_step)]
    y_ticks = [Tick(y(v), str(v)) for v in range(low, high + 1, step)]
    moon_marks = [
        Moon(
            x(d + 1),
            y(totals[d][seat]),
            COLOURS[seat % len(COLOURS)],
            _("Deal {number}: {name} shoots the moon").format(number=d + 1, name=names[seat]),
        )
        for d, seat in enumerate(moons)
        if seat is not None
    ]
    if deals:
        last = ", ".join(f"{n} {t}" for n, t in zip(names, totals[-1], strict=True))
        summary = ngettext(
            "Running totals over {count} deal; now {totals}.",
            "Running totals over {count} deals; now {totals}.",
            deals,
        ).format(count=deals, totals=last)
    else:
        summary = _("No deals yet.")
    return Chart(
        **FRAME,
        lines=lines,
        x_ticks=x_ticks,
        y_ticks=y_ticks,
        zero_y=y(0),
        target_y=y(target) if target_in_sight else None,
        target=target,
        moons=moon_marks,
        summary=summary,
    )


def chance_chart(names: Sequence[str], percents: Sequence[Sequence[int]]) -> Chart:
    """Each player's chance of winning, in percent, before the first deal and after each."""
    deals = len(percents) - 1
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM

    def x(deal: int) -> float:
        return round(LEFT + plot_w * deal / max(deals, 1), 1)

    def y(value: float) -> float:
        return round(TOP + plot_h * (100 - value) / 100, 1)

    lines = _lines(
        names,
        [[(x(d), y(row[seat])) for d, row in enumerate(percents)] for seat in range(len(names))],
    )
    x_step = max(1, math.ceil(deals / 8))
    first = ", ".join(f"{n} {p}%" for n, p in zip(names, percents[0], strict=True))
    summary = ngettext(
        "Each player's chance of winning over {count} deal; before it {chances}.",
        "Each player's chance of winning over {count} deals; before the first {chances}.",
        deals,
    ).format(count=deals, chances=first)
    return Chart(
        **FRAME,
        lines=lines,
        x_ticks=[Tick(x(d), str(d)) for d in range(0, deals + 1, x_step)],
        y_ticks=[Tick(y(v), f"{v}%") for v in range(0, 101, 25)],
        zero_y=y(0),
        target_y=None,
        target=None,
        moons=[],
        summary=summary,
    )


@dataclass(frozen=True)
class Bar:
    x: float
    width: float
    top: float  # how often it happened
    height: float
    said_y: float  # the chances said in the band, on average
    middle: float
    count_y: float
    cases: int
    label: str  # "20–30%: said 24%, happened 18%, 51 times"


@dataclass(frozen=True)
class Reliability(Frame):
    """Chances said against what happened: a bar a band, how often those players
    won; across it a mark at what was said; the diagonal is where they agree."""

    bars: list[Bar]
    x_ticks: list[Tick]
    y_ticks: list[Tick]
    summary: str


def reliability_chart(bands: Sequence) -> Reliability:
    """``bands``: the engine's :class:`~games.engine.chances.Band` s, ten of them
    (0–10%, …, 90–100%); a band nobody was given has no bar."""
    # Room on the right for the "100%" under the axis, and above for a count over a
    # bar that reaches 100%.
    right, top = RIGHT + 12, TOP + 12
    plot_w = WIDTH - LEFT - right
    plot_h = HEIGHT - top - BOTTOM

    def x(percent: float) -> float:
        return round(LEFT + plot_w * percent / 100, 1)

    def y(percent: float) -> float:
        return round(top + plot_h * (100 - percent) / 100, 1)

    step = plot_w / max(len(bands), 1)
    bars = []
    for band in bands:
        if not band.cases:
            continue
        happened, said = band.happened * 100, band.said_mean * 100
        left = x(band.low) + 2
        bars.append(
            Bar(
                x=round(left, 1),
                width=round(step - 4, 1),
                top=y(happened),
                height=round(y(0) - y(happened), 1),
                said_y=y(said),
                middle=round(left + (step - 4) / 2, 1),
                count_y=round(min(y(happened), y(said)) - 3, 1),
                cases=band.cases,
                label=ngettext(
                    "{low}–{high}%: said {said}%, happened {happened}%, {count} time",
                    "{low}–{high}%: said {said}%, happened {happened}%, {count} times",
                    band.cases,
                ).format(
                    low=band.low,
                    high=band.low + 10,
                    said=round(said),
                    happened=round(happened),
                    count=band.cases,
                ),
            )
        )
    cases = sum(band.cases for band in bands)
    summary = ngettext(
        "The chances said during games against how often it happened, over {count} chance.",
        "The chances said during games against how often it happened, over {count} chances.",
        cases,
    ).format(count=cases)
    return Reliability(
        **{**FRAME, "right": WIDTH - right, "top": top},
        bars=bars,
        x_ticks=[Tick(x(v), f"{v}%") for v in range(0, 101, 20)],
        y_ticks=[Tick(y(v), f"{v}%") for v in range(0, 101, 25)],
        summary=summary,
    )
