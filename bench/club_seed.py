"""Seed a club night for the benchmark; print what its phones need as JSON.

``python -m bench.club_seed TABLES``, with the server's settings in the
environment. Clubs of ten card tables, each club with a history of finished
games (so its games show chances and its ladder has ranks) and a club night
whose first round is under way: at each card table a game of 3 to 7 players
(in turn) with a few deals played. Every phone is a session of its own,
made here (signing in hashes a password, which is not what a club night
measures); each game has a watch link, each club night a big screen's link.
The deals the phones will enter are made by the rules engine, in each of the
three ways of entering in turn, for the deal numbers to come.
"""

from __future__ import annotations

import json
import random
import secrets
import string
import sys
from datetime import date

import django

from bench.seed import deal_form, random_game
from games import engine

TABLES_A_CLUB = 10
SIZES = (3, 4, 5, 6, 7)
FIRST = [
    "Alice", "Ben", "Cara", "Dan", "Eva", "Finn", "Gro", "Hans", "Ida", "Jon",
    "Kari", "Lars", "Mia", "Nils", "Ola", "Per", "Rita", "Sven", "Tone", "Ulf",
]  # fmt: skip
LAST = "ABCDEFGHJKLMNPRST"
# Long enough that the benchmark's deals never end a game.
RULES = {"name": "Black Maria", "target": None, "deals": 40}
DEALS_AHEAD = 30
MODES = ("points", "counts", "cards")


def deal_posted(rules: engine.Rules, players: int, rng: random.Random, mode: str) -> str:
    """A deal as a phone posts it in ``mode``, as one form-encoded body."""
    cards: list[list[str]] = [[] for _ in range(players)]
    shooter = rng.randrange(players) if rng.random() < 0.05 else None
    for card in engine.valued_cards(rules, players):
        cards[shooter if shooter is not None else rng.randrange(players)].append(card)
    fields = deal_form(rules, [str(n) for n in range(players)], cards, mode)
    return "&".join(f"{k}={v}" for k, v in fields.items())


def session_for(user) -> str:
    """A signed-in session of ``user``'s, as signing in leaves it."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.utils.module_loading import import_string

    store = import_string(settings.SESSION_ENGINE + ".SessionStore")()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return store.session_key


def main() -> None:
    django.setup()
    from django.contrib.auth import get_user_model

    from games.models import Evening, Game, Ruleset
    from games.services.deals import deal_record
    from games.services.games import game_start
    from games.services.imports import import_history
    from games.services.sharing import watch_link_replace

    rng = random.Random(1912)
    wanted = int(sys.argv[1])
    users = get_user_model().objects
    black_maria = Ruleset.objects.get(table=None, name="Black Maria")
    csrf = "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(32))
    tables: list[dict] = []
    for club in range((wanted + TABLES_A_CLUB - 1) // TABLES_A_CLUB):
        owner = users.create_user(f"club{club + 1}", password=secrets.token_urlsafe())
        name = f"Club {club + 1}"
        people = [f"{f} {last}." for last in LAST for f in FIRST][: TABLES_A_CLUB * max(SIZES)]
        history = []
        for _ in range(12):
            size = rng.choice(SIZES)
            rules = dict(RULES, target=100, deals=None)
            history.append(random_game(rng, name, rng.sample(people[:20], size), rules, 0, True))
        made = import_history({"format": "blackmaria-scores/1", "games": history}, owner=owner)
        table = made[0].table
        evening = Evening.objects.create(
            table=table, name="Thursday", date=date.today(), ruleset=black_maria
        )
        screen = watch_link_replace(evening)
        seated = 0
        for n in range(min(TABLES_A_CLUB, wanted - len(tables))):
            size = SIZES[(len(tables)) % len(SIZES)]
            names = people[seated : seated + size]
            seated += size
            players = [table.players.get_or_create(name=p)[0] for p in names]
            game = game_start(
                table=table,
                players=players,
                ruleset=black_maria,
                first_dealer=0,
                rules=engine.Rules.from_dict(RULES),
                by=owner,
                evening=evening,
                round=1,
            )
            rules = engine.resolve(engine.Rules.from_dict(RULES), size)
            for _ in range(rng.randint(1, 6)):
                cards: list[list[str]] = [[] for _ in range(size)]
                for card in engine.valued_cards(rules, size):
                    cards[rng.randrange(size)].append(card)
                entry = engine.CardsEntry(tuple(tuple(c) for c in cards))
                deal_record(game=game, entry=entry, by=owner)
            played = game.deals.count()
            deals = {
                str(number): deal_posted(rules, size, rng, MODES[number % 3])
                for number in range(played + 1, played + 1 + DEALS_AHEAD)
            }
            tables.append(
                {
                    "game": game.pk,
                    "club": club,
                    "number": played + 1,
                    "deals": deals,
                    "watch": watch_link_replace(game),
                    "screen": screen if n == 0 else None,
                    "sessions": [session_for(owner) for _ in range(size)],
                    "csrf": csrf,
                }
            )
        evening.present.set(table.players.filter(name__in=people[:seated]))
    print(json.dumps({"tables": tables, "games": Game.objects.count()}))


if __name__ == "__main__":
    main()
