"""Seed a realistic database for the benchmark; print what the driver needs as JSON.

Tables of 3-7 players, finished and running games of 5-60 deals, a mix of
rulesets and of the three entry modes, all made with the rules engine and
saved through the history importer (so every score is the engine's).
Run by ``bench/run.py`` with the server's settings in the environment.
"""

from __future__ import annotations

import json
import random
import sys

import django

# The rules engine imports no Django: safe before django.setup().
from games.engine import MOST_DEALS


def random_deal(rules, names, rng, mode):
    from games import engine

    players = len(names)
    cards = [[] for _ in names]
    for card in engine.valued_cards(rules, players):
        cards[rng.randrange(players)].append(card)
    if mode == "cards":
        return {"cards": dict(zip(names, cards, strict=True))}, cards
    if mode == "counts" and rules.hearts == "one":
        return {
            "counts": {
                name: {
                    "hearts": sum(1 for c in taken if c.endswith("H")),
                    "cards": [c for c in taken if not c.endswith("H")],
                }
                for name, taken in zip(names, cards, strict=True)
            }
        }, cards
    raw = [sum(engine.card_value(rules, c) for c in taken) for taken in cards]
    return {"points": dict(zip(names, raw, strict=True))}, cards


def deal_form(rules, names, cards, mode: str) -> dict[str, str]:
    """The fields a phone posts for a deal whose valued cards fell so (a list per
    seat), entered in ``mode`` (games/forms/deals.py)."""
    from games import engine

    form = {"mode": mode}
    if mode == "points":
        entry = engine.CardsEntry(tuple(tuple(c) for c in cards))
        raw = engine.score_deal(rules, names, entry).raw
        form.update({f"points-{s}": str(p) for s, p in enumerate(raw)})
        return form
    for seat, taken in enumerate(cards):
        for card in taken:
            if mode == "cards" or not card.endswith("H"):
                form[f"taker-{card}"] = str(seat)
        if mode == "counts":
            form[f"hearts-{seat}"] = str(sum(1 for c in taken if c.endswith("H")))
    return form


def random_game(rng, table, names, rules_dict, deals, finish):
    """Deals until the game ends (``finish``) or ``deals`` are played."""
    from games import engine

    rules = engine.resolve(engine.Rules.from_dict(rules_dict), len(names))
    entries, played = [], []
    totals = [0] * len(names)
    while True:
        mode = rng.choice(["counts", "cards", "points"])
        data, cards = random_deal(rules, names, rng, mode)
        entry = engine.CardsEntry(tuple(tuple(c) for c in cards))
        scores = engine.score_deal(rules, names, entry).scores
        totals = [t + s for t, s in zip(totals, scores, strict=True)]
        entries.append(data)
        played.append(entry)
        over = engine.game_over(rules, totals, len(entries))
        if over or (not finish and len(entries) >= deals):
            if over and not finish:
                entries.pop()  # keep it running
            break
    return {
        "table": table,
        "players": names,
        "first_dealer": rng.choice(names),
        "rules": rules_dict,
        "deals": entries,
    }


NAMES = [
    "Alice", "Ben", "Cara", "Dan", "Eva", "Finn", "Gro", "Hans",
    "Ida", "Jon", "Kari", "Lars", "Mia", "Nils", "Ola", "Per",
]  # fmt: skip
RULES = [
    {"name": "Black Maria"},
    {"name": "Black Maria, moon to the others", "moon": "others"},
    {"name": "Black Maria, moon off the shooter", "moon": "self"},
    {
        "name": "Hearts only",
        "king_of_spades": 0,
        "ace_of_spades": 0,
        "moon": "others",
        "target": 50,
    },
    {"name": "Spot hearts", "hearts": "spot", "queen_of_spades": 25, "target": 500},
    {"name": "Omnibus", "jack_of_diamonds": -10},
]
# As long as a game may be: the save benchmark adds deals to these.
NEVER_ENDS = {"name": "Black Maria, long", "target": None, "deals": MOST_DEALS}


def main() -> None:
    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection

    from games.models import Game, Table
    from games.services.imports import import_history
    from games.services.sharing import watch_link_replace

    rng = random.Random(2026)
    tables = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    users = get_user_model().objects
    user = users.filter(username="bench").first() or users.create_user(
        "bench", password="bench-pass-phrase"
    )
    games = []
    for t in range(tables):
        names = rng.sample(NAMES, rng.randint(3, 7))
        table = f"Table {t + 1}"
        for _ in range(rng.randint(2, 4)):
            rules = dict(rng.choice(RULES))
            if rng.random() < 0.3:
                rules.update(target=None, deals=rng.randint(5, 60))
            games.append(random_game(rng, table, names, rules, rng.randint(5, 60), finish=True))
        games.append(random_game(rng, table, names, rng.choice(RULES), rng.randint(5, 20), False))
    # The game page measured: three players, 60 deals, still running.
    games.append(random_game(rng, "Big game", ["Alice", "Ben", "Cara"], NEVER_ENDS, 60, False))
    # Games to save deals into: one per connection, so saves don't queue on one row.
    for n in range(64):
        games.append(random_game(rng, f"Saves {n}", ["Ann", "Bo", "Cy"], NEVER_ENDS, 5, False))
    import_history({"format": "blackmaria-scores/1", "games": games}, owner=user)
    # As a database in use would be: statistics gathered, nothing left for
    # the background vacuum to do while the benchmark measures.
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE" if connection.vendor == "postgresql" else "ANALYZE")

    big = Game.objects.get(table__name="Big game")
    stats_table = Table.objects.filter(name__startswith="Table ").order_by("-id").first()
    print(
        json.dumps(
            {
                "game": big.pk,
                "watch": watch_link_replace(big),
                "save_games": list(
                    Game.objects.filter(table__name__startswith="Saves ")
                    .order_by("pk")
                    .values_list("pk", flat=True)
                ),
                "stats_table": stats_table.pk,
                "export_table": stats_table.pk,
                "games": Game.objects.count(),
                "deals": sum(len(g["deals"]) for g in games),
            }
        )
    )


if __name__ == "__main__":
    main()
