"""The biggest history file the web import takes: 500 games of 90 deals (about 2 MB).

``history_file(games, deals)`` makes one; ``bench/run.py`` times its import.
"""

from __future__ import annotations

import json

from games.formats.writing import FORMAT

PLAYERS = ["Alice", "Ben", "Cara"]
# Black Maria's 43 a deal, shared so that nobody reaches a target (there is none).
DEALS = [(17, 13, 13), (13, 17, 13), (13, 13, 17), (10, 20, 13), (20, 10, 13), (6, 17, 20)]


def history_file(games: int = 500, deals: int = 90) -> bytes:
    rules = {"name": "Ninety deals", "target": None, "deals": deals}
    data = {
        "format": FORMAT,
        "games": [
            {
                "table": "Club",
                "players": PLAYERS,
                "first_dealer": PLAYERS[number % 3],
                "rules": rules,
                "deals": [
                    {"points": dict(zip(PLAYERS, DEALS[(number + d) % len(DEALS)], strict=True))}
                    for d in range(deals)
                ],
            }
            for number in range(games)
        ],
    }
    return json.dumps(data, separators=(",", ":")).encode()
