"""Test data and builders shared by the suite."""

from __future__ import annotations

import dataclasses
import re
from datetime import date, timedelta

import time_machine
from django.utils import timezone
from hypothesis import strategies as st

from games import engine
from games.formats.writing import FORMAT
from games.models import (
    Deal,
    DealChange,
    Evening,
    Game,
    Invite,
    Membership,
    Player,
    Ruleset,
    Season,
    Seat,
    Table,
)
from games.pages import clubnight as night
from games.pages.ladder import ladder, record, season_ladder
from games.selectors import clubnights as clubnights_read
from games.services import clubnights
from games.services.clubnights import evening_start
from games.services.deals import deal_delete, deal_record
from games.services.games import game_start
from games.services.sharing import watch_link_replace
from games.services.tables import season_add


def builtin(name: str) -> Ruleset:
    return Ruleset.objects.get(table=None, name=name)


HEARTS = [rank + "H" for rank in engine.RANKS]


DEAL_1 = engine.CountsEntry((4, 3, 6), (("QS",), ("KS", "AS"), ()))


DEAL_2 = engine.CardsEntry(((), (), ("QS", "KS", "AS", *HEARTS)))


DEAL_3 = engine.CardsEntry((("QS", "KS", *HEARTS[0:5]), tuple(HEARTS[5:7]), ("AS", *HEARTS[7:13])))


def game_snapshot(game: Game) -> tuple:
    """Everything a deal write may touch, to check that a refusal touched nothing."""
    game.refresh_from_db()
    return (
        game.status,
        game.version,
        game.finished_at,
        list(Seat.objects.filter(game=game).order_by("number").values_list("total", "is_winner")),
        list(
            Deal.objects.filter(game=game)
            .order_by("number")
            .values_list("number", "mode", "entry", "scores", "totals", "version")
        ),
    )


# Results kept on paper, as a Norwegian spreadsheet saves them: a row a player a game.
PAPER_NOTEBOOK = """dato;spill;spiller;sum
04.12.2025;1;Åse;23
04.12.2025;1;Bjørn;61
04.12.2025;1;Cecilie;102
04.12.2025;2;Åse;88
04.12.2025;2;Bjørn;12
04.12.2025;2;Cecilie;40
04.12.2025;2;Dag;−5
"""

SPEC_EXAMPLE = {
    "format": "blackmaria-scores/1",
    "games": [
        {
            "table": "Friday club",
            "players": ["Alice", "Ben", "Cara"],
            "first_dealer": "Alice",
            "rules": {
                "name": "Black Maria",
                "hearts": "one",
                "queen_of_spades": 13,
                "king_of_spades": 10,
                "ace_of_spades": 7,
                "jack_of_diamonds": 0,
                "moon": "none",
                "target": 100,
                "deals": None,
                "removed": ["2C"],
                "pass_cards": 3,
                "pass_direction": "right",
            },
            "deals": [
                {
                    "cards": {
                        "Alice": ["QS", "2H", "3H", "4H", "5H"],
                        "Ben": ["KS", "6H", "7H", "8H"],
                        "Cara": ["AS", "9H", "10H", "JH", "QH", "KH", "AH"],
                    }
                },
                {
                    "counts": {
                        "Alice": {"hearts": 4, "cards": ["QS"]},
                        "Ben": {"hearts": 3, "cards": ["KS"]},
                        "Cara": {"hearts": 6, "cards": ["AS"]},
                    }
                },
                {"points": {"Alice": 17, "Ben": 13, "Cara": 13}},
            ],
        }
    ],
}


MOON_EXAMPLE = {
    "format": FORMAT,
    "games": [
        {
            "table": "Alice's kitchen",
            "players": ["Alice", "Ben", "Cara"],
            "first_dealer": "Ben",
            "rules": {"name": "Black Maria, moon to the others", "moon": "others"},
            "deals": [
                {"points": {"Alice": 17, "Ben": 20, "Cara": 6}},
                {"points": {"Alice": 0, "Ben": 0, "Cara": 43}},
                {"points": {"Alice": 28, "Ben": 2, "Cara": 13}},
            ],
        }
    ],
}


def make_games(table, players, count: int, deals_each: int) -> None:
    """Many finished-looking games, fast: rows written directly."""
    rules = engine.resolve(engine.Rules(target=None, deals=deals_each), 3).to_dict()
    entry = engine.PointsEntry((17, 13, 13))
    for _ in range(count):
        game = Game.objects.create(
            table=table, rules=rules, first_dealer=0, status=Game.Status.FINISHED
        )
        Seat.objects.bulk_create(
            Seat(game=game, player=p, number=i, total=v * deals_each)
            for i, (p, v) in enumerate(zip(players, (17, 13, 13), strict=True))
        )
        Deal.objects.bulk_create(
            Deal(
                game=game,
                number=n,
                mode="points",
                entry=entry.to_data(),
                raw=[17, 13, 13],
                scores=[17, 13, 13],
                totals=[17 * n, 13 * n, 13 * n],
            )
            for n in range(1, deals_each + 1)
        )


MODELS = (
    Table,
    Player,
    Ruleset,
    Game,
    Seat,
    Deal,
    DealChange,
    Membership,
    Invite,
    Season,
    Evening,
)

OK = "ok"  # the answer POSTED names (GET: 200)

LOGIN = "login"  # redirect to sign in

DENIED = 403

HIDDEN = 404

PUBLIC = {
    "home",  # the first page for someone not signed in (tests/accounts/test_guests.py)
    "start",
    "keep",
    "password_reset",
    "password_reset_done",
    "password_reset_confirm",
    "password_reset_complete",
    "login",
    "logout",
    "signup",
    "health",
    "alive",
    "manifest",
    "service_worker",
    "offline",
    "language",
}

OWNER_ONLY = {
    OK: ("owner",),
    DENIED: ("member",),
    HIDDEN: ("outsider",),
    LOGIN: ("anon", "watcher"),
}

MEMBERS = {OK: ("owner", "member"), HIDDEN: ("outsider",), LOGIN: ("anon", "watcher")}

SIGNED_IN = {OK: ("owner", "member", "outsider"), LOGIN: ("anon", "watcher")}

WATCHERS = {OK: ("owner", "member", "outsider", "anon", "watcher")}

FIELDS = [
    "mode", "number", "key", "version", "resolve", "name", "players", "default_ruleset",
    "ruleset", "first_dealer", "confirm", "user", "username", "action", "note", "upload",
    "language", "next", "from", "deal", "player", "page", "start", "end", "hearts",
    "queen_of_spades", "king_of_spades", "ace_of_spades", "jack_of_diamonds", "target",
    "deals", "removed", "pass_cards", "pass_direction", "notes", "password", "password1",
    "password2", "new_players", "moon", "email", "sizes", "round", "scoring", "step", "games",
    "shown",
    *[f"{kind}-{seat}" for kind in ("points", "hearts") for seat in range(8)],
    *[f"seat_{seat}" for seat in range(8)],
    *[f"taker-{card}" for card in ("QS", "KS", "AS", "JD", "2H", "10H", "AH", "ZZ")],
]  # fmt: skip


def database_snapshot() -> list:
    """Every row the app writes, as it stands."""
    return [list(model.objects.order_by("pk").values()) for model in MODELS]


# name: (methods, URL arguments, who may)
MATRIX = {
    "table_new": (["get", "post"], lambda w: [], SIGNED_IN),
    "game_new_first": (["get", "post"], lambda w: [], SIGNED_IN),
    "table_detail": (["get"], lambda w: [w.table.pk], MEMBERS),
    "player_add": (["post"], lambda w: [w.table.pk], MEMBERS),
    "player_rename": (["get", "post"], lambda w: [w.player.pk], MEMBERS),
    "player_link": (["post"], lambda w: [w.player.pk], OWNER_ONLY),
    "player_detail": (["get"], lambda w: [w.player.pk], MEMBERS),
    "season_new": (["post"], lambda w: [w.table.pk], OWNER_ONLY),
    "season_delete": (["post"], lambda w: [w.table.pk, w.season.pk], OWNER_ONLY),
    "table_default_ruleset": (["post"], lambda w: [w.table.pk], OWNER_ONLY),
    "table_chances": (["post"], lambda w: [w.table.pk], OWNER_ONLY),
    "ruleset_new": (["get", "post"], lambda w: [w.table.pk], OWNER_ONLY),
    "ruleset_preview": (["post"], lambda w: [w.table.pk], OWNER_ONLY),
    "ruleset_edit": (["get", "post"], lambda w: [w.table.pk, w.ruleset.pk], OWNER_ONLY),
    "table_settings": (["get", "post"], lambda w: [w.table.pk], OWNER_ONLY),
    "table_delete": (["post"], lambda w: [w.table.pk], OWNER_ONLY),
    "member_new": (["post"], lambda w: [w.table.pk], OWNER_ONLY),
    "member_remove": (["post"], lambda w: [w.table.pk, w.membership.pk], OWNER_ONLY),
    "invite_new": (["post"], lambda w: [w.table.pk], OWNER_ONLY),
    "table_watch_link": (["post"], lambda w: [w.table.pk], OWNER_ONLY),
    "invite_accept": (["get"], lambda w: [w.invite.token], SIGNED_IN),
    "game_new": (["get", "post"], lambda w: [w.table.pk], MEMBERS),
    "game_detail": (["get"], lambda w: [w.game.pk], MEMBERS),
    "game_live": (["get"], lambda w: [w.game.pk], MEMBERS),
    "game_share": (["get"], lambda w: [w.game.pk], MEMBERS),
    "game_watch_link": (["post"], lambda w: [w.game.pk], OWNER_ONLY),
    "game_changes": (["get"], lambda w: [w.game.pk], MEMBERS),
    "game_delete": (["get", "post"], lambda w: [w.game.pk], OWNER_ONLY),
    "game_rematch": (["post"], lambda w: [w.game.pk], MEMBERS),
    "deal_new": (["post"], lambda w: [w.game.pk], MEMBERS),
    "deal_queued": (["post"], lambda w: [w.game.pk], MEMBERS),
    "deal_edit": (["get", "post"], lambda w: [w.deal.pk], MEMBERS),
    "deal_delete": (["get", "post"], lambda w: [w.deal.pk], MEMBERS),
    "watch_game": (["get"], lambda w: [w.game.watch_token], WATCHERS),
    "watch_game_live": (["get"], lambda w: [w.game.watch_token], WATCHERS),
    "watch_table": (["get"], lambda w: [w.table.watch_token], WATCHERS),
    "watch_table_game": (["get"], lambda w: [w.table.watch_token, w.game.pk], WATCHERS),
    "watch_table_game_live": (["get"], lambda w: [w.table.watch_token, w.game.pk], WATCHERS),
    "evening_new": (["get", "post"], lambda w: [w.table.pk], MEMBERS),
    "evening_detail": (["get"], lambda w: [w.evening.pk], MEMBERS),
    "evening_live": (["get"], lambda w: [w.evening.pk], MEMBERS),
    "evening_draw": (["post"], lambda w: [w.evening.pk], MEMBERS),
    "evening_round": (["post"], lambda w: [w.evening.pk], MEMBERS),
    "evening_present": (["post"], lambda w: [w.evening.pk], MEMBERS),
    "evening_watch_link": (["post"], lambda w: [w.evening.pk], MEMBERS),
    "evening_delete": (["post"], lambda w: [w.evening.pk], OWNER_ONLY),
    "watch_evening": (["get"], lambda w: [w.evening.watch_token], WATCHERS),
    "watch_evening_live": (["get"], lambda w: [w.evening.watch_token], WATCHERS),
    "game_picture": (["get"], lambda w: [w.game.pk], MEMBERS),
    "evening_picture": (["get"], lambda w: [w.evening.pk], MEMBERS),
    "ladder_picture": (["get"], lambda w: [w.table.pk], MEMBERS),
    "watch_game_picture": (["get"], lambda w: [w.game.watch_token], WATCHERS),
    "watch_table_game_picture": (["get"], lambda w: [w.table.watch_token, w.game.pk], WATCHERS),
    "watch_ladder_picture": (["get"], lambda w: [w.table.watch_token], WATCHERS),
    "watch_evening_picture": (["get"], lambda w: [w.evening.watch_token], WATCHERS),
    "account_export": (["get"], lambda w: [], SIGNED_IN),
    "account": (["get", "post"], lambda w: [], SIGNED_IN),
    "account_delete": (["get", "post"], lambda w: [], SIGNED_IN),
    "password_change": (["get", "post"], lambda w: [], SIGNED_IN),
    "my_stats": (["get"], lambda w: [], SIGNED_IN),
    "table_history": (["get"], lambda w: [w.table.pk], MEMBERS),
    "table_stats": (["get"], lambda w: [w.table.pk], MEMBERS),
    "table_import": (["get", "post"], lambda w: [w.table.pk], MEMBERS),
    "game_note": (["post"], lambda w: [w.game.pk], MEMBERS),
    "game_print": (["get"], lambda w: [w.game.pk], MEMBERS),
    "table_export": (["get"], lambda w: [w.table.pk, "json"], MEMBERS),
    "game_export": (["get"], lambda w: [w.game.pk, "csv"], MEMBERS),
    "watch_game_export": (["get"], lambda w: [w.game.watch_token, "csv"], WATCHERS),
    "watch_table_game_export": (
        ["get"],
        lambda w: [w.table.watch_token, w.game.pk, "json"],
        WATCHERS,
    ),
}


class World:
    def __init__(self, owner, member, table, players, game):
        self.owner, self.member, self.table, self.player, self.game = (
            owner,
            member,
            table,
            players[0],
            game,
        )
        self.ruleset = Ruleset.objects.create(table=table, name="House", moon="others")
        self.membership = table.memberships.get()
        self.deal = deal_record(game=game, entry=DEAL_1, by=owner)
        self.invite = Invite.objects.create(table=table, created_by=owner)
        self.season = Season.objects.create(
            table=table, name="Autumn", starts=date(2026, 9, 1), ends=date(2026, 11, 30)
        )
        watch_link_replace(game)
        watch_link_replace(table)
        self.evening = evening_start(
            table=table,
            name="Friday",
            day=date(2026, 12, 4),
            scoring="places",
            ruleset=Ruleset.objects.get(table=None, name="Black Maria"),
            players=players,
        )
        watch_link_replace(self.evening)


JUNK = st.one_of(
    st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=30),
    st.sampled_from(["", "0", "-1", "1", "2", "²", "٣", "−3", "9" * 5000, "9" * 20, "\x00", " "]),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
)


FORMS = st.dictionaries(
    keys=st.one_of(st.sampled_from(FIELDS), st.text(max_size=8)), values=JUNK, max_size=10
)


HX = {"HTTP_HX_REQUEST": "true"}


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


# --- A club, and every figure its pages show (a backup must restore them) ---

START = timezone.now() - timedelta(days=40)


def play_hearts(table, players, winner: int, *, days: int):
    """A game of Hearts only (to 50) played ``days`` after START: ``winner`` takes nothing."""
    with time_machine.travel(START + timedelta(days=days), tick=False):
        game = game_start(
            table=table, players=players, ruleset=builtin("Hearts only"), first_dealer=0
        )
        scores = [0 if i == winner else 13 for i in range(len(players))]
        while not Game.objects.get(pk=game.pk).is_finished:
            deal_record(game=game, entry=engine.PointsEntry(tuple(scores)), by=None)
    return game


def make_club(owner) -> Table:
    """A club's table: games re-opened and finished again, a season and a club night."""
    table = Table.objects.create(name="Friday club", owner=owner)
    people = [table.players.create(name=n) for n in ("Ann", "Bo", "Cy", "Di")]
    first = play_hearts(table, people[:3], 0, days=1)
    play_hearts(table, people[1:], 1, days=2)
    play_hearts(table, [people[0], people[2], people[3]], 2, days=12)
    # The first game re-opened and finished again, last: rated after the others.
    with time_machine.travel(START + timedelta(days=20), tick=False):
        last = first.deals.order_by("-number").first()
        entry = last.get_entry()
        deal_delete(deal=last, by=owner)
        deal_record(game=first, entry=entry, by=owner)
    season_add(table=table, name="Autumn", starts=(START + timedelta(days=10)).date(),
               ends=(START + timedelta(days=25)).date())  # fmt: skip
    with time_machine.travel(START + timedelta(days=30), tick=False):
        evening = clubnights.evening_start(
            table=table, name="Club night", day=(START + timedelta(days=30)).date(),
            scoring="places", ruleset=builtin("Hearts only"), players=people[:3], by=owner,
        )  # fmt: skip
        clubnights.round_start(evening=evening, number=1, by=owner)
        game = evening.games.get()
        while not Game.objects.get(pk=game.pk).is_finished:
            deal_record(game=game, entry=engine.PointsEntry((13, 0, 13)), by=None)
    return table


def club_figures(table: Table) -> dict:
    """What the table page, the season's page, the players' pages and the club night show."""

    def plain(rows):
        return [{k: v for k, v in dataclasses.asdict(r).items() if k != "player"} for r in rows]

    evening = Evening.objects.get(table=table)
    return {
        "ladder": plain(ladder(table)),
        "seasons": {s.name: plain(season_ladder(table, s)) for s in table.seasons.all()},
        "players": {p.name: dataclasses.asdict(record(p)) for p in table.players.all()},
        "club night": plain(night.standings(evening, clubnights_read.rounds(evening))),
        "rounds": [
            [sorted(s.player.name for s in g.seats.all()) for g in r]
            for r in clubnights_read.rounds(evening)
        ],
        "games": sorted(
            (g.finished_at, g.started_at, tuple(g.seats.values_list("total", flat=True)))
            for g in table.games.all()
        ),
    }
