"""A result as a picture for the group chat: a finished game, a club night's
standings, the ladder. 1200×630 (what chat apps and Open Graph previews
show), drawn on the server with Pillow in the fonts the project ships
(games/fonts: DejaVu Sans, which has ♠ ★ ½ and every letter of a Nordic
name), and kept by what it shows, so a second request draws nothing.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import NamedTuple

from django.core.cache import caches
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from PIL import Image, ImageDraw, ImageFont

from games.models import Evening, Game, Table, builtin_words
from games.pages import chances
from games.pages.ladder import ladder
from games.selectors import games as games_read
from games.selectors import ladder as ladder_read

WIDTH, HEIGHT = 1200, 630
FONTS = Path(__file__).resolve().parent.parent / "fonts"
PAPER, INK, MUTED, GREEN, GOLD, LINE = (
    "#fffdf8",
    "#1a1a1a",
    "#555555",
    "#0b5d3b",
    "#d4a017",
    "#d6d0c4",
)
KEPT_FOR = 7 * 24 * 3600  # kept by what it shows: a change makes another key


@dataclass(frozen=True)
class Line:
    place: str  # "1.", or "" where places are not the point
    name: str
    figure: str  # a total, a score, a rating
    winner: bool = False


@dataclass(frozen=True)
class Picture:
    title: str  # the table's name
    subtitle: str  # what and when: "Black Maria · 2 December 2026"
    lines: Sequence[Line]
    note: str = ""  # under the lines: "Lowest total wins"


@cache
def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(
        str(FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")), size
    )


def _fitted(draw: ImageDraw.ImageDraw, text: str, font, width: int) -> str:
    """The text, cut with an ellipsis where it is wider than ``width``."""
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def draw(picture: Picture) -> bytes:
    """The picture as a PNG."""
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    pen = ImageDraw.Draw(image)
    pen.rectangle((0, 0, WIDTH, 150), fill=GREEN)
    small, heading = _font(30), "♠ " + picture.title
    # A long name a size smaller before it is cut.
    size = next(
        (s for s in (60, 52, 44) if pen.textlength(heading, font=_font(s, True)) <= 1080), 44
    )
    title = _font(size, bold=True)
    top = 28 + (60 - size) // 2
    pen.text((60, top), _fitted(pen, heading, title, WIDTH - 120), font=title, fill="#ffffff")
    pen.text(
        (64, 100), _fitted(pen, picture.subtitle, small, WIDTH - 120), font=small, fill="#e6f4ea"
    )
    lines = list(picture.lines)[:7]
    step = min(62, (HEIGHT - 150 - 70) // max(1, len(lines)))
    size = min(44, step - 14)
    name_font, figure_font = _font(size), _font(size, bold=True)
    y = 150 + (HEIGHT - 150 - 50 - step * len(lines)) // 2
    for line in lines:
        if line.winner:
            pen.rounded_rectangle(
                (44, y - 4, WIDTH - 44, y + step - 8), radius=12, outline=GOLD, width=4
            )
        pen.text((70, y + 2), line.place, font=figure_font, fill=MUTED)
        mark = "★ " if line.winner else ""
        figure_width = pen.textlength(line.figure, font=figure_font)
        room = WIDTH - 70 - 170 - figure_width - 40
        pen.text(
            (170, y + 2),
            _fitted(pen, mark + line.name, name_font, int(room)),
            font=name_font,
            fill=INK,
        )
        pen.text((WIDTH - 70 - figure_width, y + 2), line.figure, font=figure_font, fill=INK)
        y += step
    if picture.note:
        pen.text(
            (60, HEIGHT - 48),
            _fitted(pen, picture.note, _font(24), WIDTH - 120),
            font=_font(24),
            fill=MUTED,
        )
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


class KeptPicture(NamedTuple):
    """A picture by what it shows (in the page's language): its ETag is known
    before it is drawn or read, so a phone that has it is answered 304."""

    key: str
    picture: Callable[[], Picture]

    @property
    def etag(self) -> str:
        return f'"{self.key.removeprefix("picture:")[:40]}"'

    def png(self) -> bytes:
        """The PNG kept under its key, drawn once."""
        cache = caches["default"]
        png = cache.get(self.key)
        if png is None:
            png = draw(self.picture())
            cache.set(self.key, png, KEPT_FOR)
        return png


def kept_picture(shows: str, picture: Callable[[], Picture]) -> KeptPicture:
    key = "picture:" + hashlib.sha256(f"{shows}:{get_language()}".encode()).hexdigest()
    return KeptPicture(key, picture)


def _places(totals: Sequence[int], lowest_wins: bool = True) -> list[int]:
    ordered = sorted(totals) if lowest_wins else sorted(totals, reverse=True)
    return [ordered.index(total) + 1 for total in totals]


def game_picture(game: Game) -> KeptPicture:
    """A game: its players by total, lowest first, the winner marked."""

    def picture() -> Picture:
        seats = games_read.seats_of(game, by_total=True)
        places = _places([s.total for s in seats])
        when = timezone.localtime(game.finished_at or game.started_at)
        said = _("finished") if game.is_finished else _("in progress")
        return Picture(
            title=game.table.name,
            subtitle=f"{builtin_words(game.get_rules().name)} · {date_format(when, 'DATE_FORMAT')}"
            f" · {said}",
            lines=[
                Line(f"{place}.", s.player.name, str(s.total), s.is_winner)
                for place, s in zip(places, seats, strict=True)
            ],
            note=" ".join(filter(None, [_comeback(game), _("The lowest total wins.")])),
        )

    return kept_picture(f"game:{game.pk}:{game.version}:{game.table.name}", picture)


def _comeback(game: Game) -> str:
    """ "Åse won from 9% after deal 4.", where the table shows chances and a winner came back."""
    if not game.is_finished or game.result_only or not game.table.show_chances:
        return ""
    seats = games_read.seats_of(game)
    back = chances.comeback(
        [s.player.name for s in seats],
        [s.number for s in seats if s.is_winner],
        chances.game_said(game),
    )
    if back is None:
        return ""
    return _("{name} won from {chance} after deal {deal}.").format(
        name=back.name, chance=back.said, deal=back.deal
    )


def evening_picture(
    evening: Evening, standings: Callable[[], Sequence], version: str
) -> KeptPicture:
    """A club night's standings as they are."""

    def picture() -> Picture:
        return Picture(
            title=evening.table.name,
            subtitle=f"{evening.name} · {date_format(evening.date, 'DATE_FORMAT')}",
            lines=[
                Line(
                    f"{line.place}." if line.score else "",
                    line.name,
                    line.score or "–",
                    line.place == 1 and bool(line.score),
                )
                for line in standings()
            ],
            note=_("Standings of the club night."),
        )

    return kept_picture(f"evening:{evening.pk}:{version}:{evening.table.name}", picture)


def ladder_picture(table: Table) -> KeptPicture:
    """The ladder's ranked players, best first; before anyone is ranked, who is on the
    way there, by the games they have finished (a new table's watch link shows it)."""
    latest = ladder_read.latest_rating(table)

    def picture() -> Picture:
        rungs = ladder(table)
        last = ladder_read.last_result_at(table)
        after = date_format(timezone.localtime(last), "DATE_FORMAT") if last else ""
        lines = [Line(f"{r.place}.", r.name, str(r.rating), r.place == 1) for r in rungs.ranked]
        note = _("Everyone starts at 1000.")
        if not lines:
            lines = [Line("", r.name, f"{r.games}/{rungs.games_to_rank}") for r in rungs.unranked]
            note = ngettext(
                "A player is ranked after {count} finished game.",
                "A player is ranked after {count} finished games.",
                rungs.games_to_rank,
            ).format(count=rungs.games_to_rank)
        return Picture(
            title=table.name,
            subtitle=" · ".join(filter(None, [_("Ladder"), after])),
            lines=lines,
            note=note,
        )

    return kept_picture(f"ladder:{table.pk}:{latest}:{table.name}", picture)
