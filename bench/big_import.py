"""The biggest history file the web import takes: 500 games of 90 deals (about 2 MB).

``history_file(games, deals)`` makes one; ``bench/run.py`` times its import.
"""

from __future__ import annotations

import json

PLAYERS = ["Alice", "Ben", "Cara"]
# Black Maria's 43 a deal, shared so that nobody reaches a target (there is none).
DEALS = [(17, 13, 13), (13, 17, 13), (13, 13, 17), (10, 20, 13), (20, 10, 13), (6, 17, 20)]


def history_file(games: int = 500, deals: int = 90) -> bytes:
    from games.formats.writing import FORMAT  # after django.setup()

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


def main() -> None:
    """Time the import of the biggest file the web takes, as its confirmation runs it."""
    import time

    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from games.formats.reading import WEB_MOST_GAMES, read_history_file
    from games.models import Table
    from games.services.imports import import_history

    raw = history_file()
    owner = get_user_model().objects.create_user(f"big-import-{time.time_ns()}")
    table = Table.objects.create(owner=owner, name="Big import")
    started = time.perf_counter()
    games = import_history(
        read_history_file(raw), owner=owner, table=table, most_games=WEB_MOST_GAMES
    )
    seconds = time.perf_counter() - started
    print(json.dumps({"seconds": round(seconds, 2), "games": len(games), "bytes": len(raw)}))


if __name__ == "__main__":
    main()
