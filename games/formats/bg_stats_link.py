"""A finished game sent to BG Stats, the way BG Stats takes plays from other apps
and websites: a link to ``createPlay.html`` carrying the play as JSON. On a phone
with BG Stats the link opens its import dialog (nothing is logged unseen); it
matches our game and players to its own once and remembers them by their
``source…Id``. The play's id is the game's key, so a game sent twice is one play.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import quote

from django.utils.text import slugify

from games.engine.turns import leader

CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html"
SOURCE_NAME = "Black Maria scorekeeper"
# The name BG Stats knows a game by, and its BoardGameGeek entry where there is one
# (Hearts only is Hearts; Black Maria and Omnibus have none of their own there).
BG_STATS_GAMES = {"Hearts only": ("Hearts", 6887)}


@dataclass(frozen=True)
class PlayedSeat:
    player: int  # our player's id: BG Stats matches it to its player once
    name: str
    total: int
    winner: bool


def play_data(
    *,
    key: str,
    rules: str,
    seats: Sequence[PlayedSeat],
    first_dealer: int,
    started_at: datetime,
    finished_at: datetime | None,
    result_only: bool,
) -> dict:
    """The play as BG Stats' ``createPlay`` reads it: the lowest total wins."""
    name, bgg_id = BG_STATS_GAMES.get(rules, (rules, None))
    ended = finished_at or started_at
    ranks = sorted({seat.total for seat in seats})
    first_leader = None if result_only else leader(first_dealer, len(seats), 1)
    data = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": key,
        # The moment it ended, in UTC: BG Stats shows it in the phone's own time.
        "playDate": ended.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S"),
        "game": {
            "name": name,
            "sourceGameId": slugify(rules) or "rules",
            "highestWins": False,
            "noPoints": False,
            **({"bggId": bgg_id} if bgg_id else {}),
        },
        "players": [
            {
                "name": seat.name,
                "sourcePlayerId": f"player-{seat.player}",
                "score": seat.total,
                "winner": seat.winner,
                "rank": ranks.index(seat.total) + 1,
                "startPlayer": number == first_leader,
            }
            for number, seat in enumerate(seats)
        ],
    }
    if finished_at and not result_only:
        data["durationMin"] = max(1, round((finished_at - started_at).total_seconds() / 60))
    return data


def play_link(**play) -> str:
    """The link that hands the play to BG Stats (see :func:`play_data`)."""
    text = json.dumps(play_data(**play), ensure_ascii=False, separators=(",", ":"))
    return f"{CREATE_PLAY}?data={quote(text, safe='')}"
