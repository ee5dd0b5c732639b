"""What a watch link shows when it is pasted into a chat app: Open Graph and
Twitter card tags with the table's name, the score in words and the result's
picture. Only pages a watch link opens carry them; they say nothing that
page doesn't."""

from __future__ import annotations

from collections.abc import Sequence

from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.drawing.pictures import HEIGHT, WIDTH


def preview(request: HttpRequest, *, title: str, description: str, picture: str) -> dict:
    return {
        "title": title,
        "description": description,
        "image": request.build_absolute_uri(picture),
        "url": request.build_absolute_uri(request.path),
        "width": WIDTH,
        "height": HEIGHT,
    }


def game_said(board) -> str:
    """ "Ann wins: Ann 12 · Ben 45 · Cara 60", or "After 4 deals: …"."""
    totals = " · ".join(f"{s.name} {s.total}" for s in board.seats)
    if board.game.is_finished:
        return _("{names} won: {totals}").format(names=board.winners_text, totals=totals)
    count = board.deal_count
    return ngettext("After {count} deal: {totals}", "After {count} deals: {totals}", count).format(
        count=count, totals=totals
    )


def places_said(lines: Sequence[tuple[int | None, str, str]], heading: str) -> str:
    """ "Ladder: 1. Ann 1043 · 2. Ben 1010", from (place, name, figure)."""
    said = " · ".join(
        f"{place}. {name} {figure}" if place else f"{name} {figure}"
        for place, name, figure in lines
    )
    return f"{heading}: {said}" if said else heading
