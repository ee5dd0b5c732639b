"""A BG Stats export of 2,000 plays of Hearts among 200 of another game (1.2 MB).

``bg_stats_file(plays)`` makes one; ``bench/run.py`` times its preview and its
import, as the web runs them.
"""

from __future__ import annotations

import json
import uuid

PLAYERS = ["Åse", "Bjørn", "Kåre", "Sølvi", "Tor", "Unni", "Vidar"]


def bg_stats_file(plays: int = 2200) -> bytes:
    """Plays of Hearts for 3 to 7 players, every eleventh of another game."""
    players = [{"id": n + 1, "name": name} for n, name in enumerate(PLAYERS)]
    games = [
        {"id": 1, "name": "Hearts", "bggId": 6887, "highestWins": False},
        {"id": 2, "name": "Carcassonne", "bggId": 822, "highestWins": True},
    ]
    logged = []
    for number in range(plays):
        seated = 3 + number % 5
        day, minute = divmod(number, 4)
        logged.append(
            {
                "uuid": str(uuid.UUID(int=number + 1)),
                "gameRefId": 2 if number % 11 == 10 else 1,
                "playDate": f"{2015 + day // 360}-{1 + day % 360 // 30:02d}-"
                f"{1 + day % 30 if day % 30 < 28 else 28:02d} 20:{minute * 10:02d}:00",
                "ignored": False,
                "playerScores": [
                    {
                        "playerRefId": seat + 1,
                        "score": str((number * 7 + seat * 13) % 60),
                        "winner": False,
                        "startPlayer": seat == 0,
                        "seatOrder": seat,
                    }
                    for seat in range(seated)
                ],
            }
        )
    data = {"players": players, "games": games, "plays": logged}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


def main() -> None:
    """Time the preview and the import of 2,000 plays, as the web runs them."""
    import re
    import time

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client

    from games.models import Table

    raw = bg_stats_file()
    owner = get_user_model().objects.create_user(f"logged-import-{time.time_ns()}")
    table = Table.objects.create(owner=owner, name="Logged import")
    client = Client(SERVER_NAME="127.0.0.1")
    client.force_login(owner)
    url = f"/tables/{table.pk}/import/"
    started = time.perf_counter()
    page = client.post(url, {"file": SimpleUploadedFile("export.json", raw)})
    preview = time.perf_counter() - started
    text = page.content.decode()
    token = re.search(r'name="upload" value="([^"]+)"', text).group(1)
    ticked = re.findall(r'name="games" value="([^"]+)"[^>]*checked', text)
    started = time.perf_counter()
    done = client.post(url, {"upload": token, "games": ticked, "shown": ticked, "step": "totals"})
    imported = time.perf_counter() - started
    assert done.status_code == 302, done.status_code
    print(
        json.dumps(
            {
                "preview_seconds": round(preview, 2),
                "import_seconds": round(imported, 2),
                "plays": table.games.count(),
                "bytes": len(raw),
            }
        )
    )


if __name__ == "__main__":
    main()
