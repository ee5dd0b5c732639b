"""The few queries written as plain SQL: the ones every game page, poll and save runs.

Building them with the ORM cost more than running them (the access check:
about 1.7 ms to build, 0.6 ms to run on PostgreSQL). Each is the ORM query of
:mod:`games.access` written out once; ``tests/test_sql.py`` checks that both
give the same answer for the owner, a member, an outsider and a missing game.
The seats' totals a save writes are the ORM's ``bulk_update`` written out
(building its CASE expressions cost 0.9 ms a save, running it 0.3 ms); the
test checks both leave the same rows. An import's deals and their changes
are written the same way (``insert_deals``), and tested against
``bulk_create``. Plain SQL that SQLite and PostgreSQL both read, with
parameters.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from django.db import connection
from django.utils import timezone

from games import engine
from games.models import Deal, DealChange, Game, Membership, Player, Ruleset, Seat, Table

_GAME, _TABLE, _RULESET, _MEMBER, _DEAL, _SEAT, _PLAYER = (
    model._meta.db_table for model in (Game, Table, Ruleset, Membership, Deal, Seat, Player)
)

# The access rule of games.access.user_may_see (the table's owner, or a
# member), as a value of the game's row. Scalar subqueries on primary keys
# rather than joins: PostgreSQL plans them in about half the time, and with
# parameters bound in the client it plans every query it runs.
_MAY_SEE = f"""(SELECT t.owner_id = %(user)s OR EXISTS (
    SELECT 1 FROM {_MEMBER} m WHERE m.table_id = t.id AND m.user_id = %(user)s)
  FROM {_TABLE} t WHERE t.id = g.table_id)"""

GAME_PAGE_KEY = f"""
SELECT g.version,
  (SELECT t.last_entry_mode FROM {_TABLE} t WHERE t.id = g.table_id),
  (SELECT t.chances_version FROM {_TABLE} t WHERE t.id = g.table_id),
  {_MAY_SEE}
FROM {_GAME} g WHERE g.id = %(game)s
"""

GAME_VERSION = f"""
SELECT g.version,
  (SELECT t.chances_version FROM {_TABLE} t WHERE t.id = g.table_id),
  {_MAY_SEE}
FROM {_GAME} g WHERE g.id = %(game)s
"""


# What a deal save needs, in two statements: the game (read first: seats are
# only ever as new as the version or newer, and a newer version is seen under
# the lock), then its seats with their players.
SAVE_GAME = f"""
SELECT g.id, g.table_id, g.ruleset_id, g.rules, g.first_dealer, g.status, g.result_only,
  g.version,
  (SELECT t.last_entry_mode FROM {_TABLE} t WHERE t.id = g.table_id),
  (SELECT t.show_chances FROM {_TABLE} t WHERE t.id = g.table_id),
  (SELECT t.chances_version FROM {_TABLE} t WHERE t.id = g.table_id),
  COALESCE((SELECT MAX(d.number) FROM {_DEAL} d WHERE d.game_id = g.id), 0),
  {_MAY_SEE}
FROM {_GAME} g WHERE g.id = %(game)s
"""

SAVE_SEATS = f"""
SELECT s.id, s.game_id, s.player_id, s.number, s.total, s.is_winner, p.table_id, p.name
FROM {_SEAT} s JOIN {_PLAYER} p ON p.id = s.player_id
WHERE s.game_id = %(game)s ORDER BY s.number
"""

# In the model's order of fields, as Model.from_db reads them.
GAME_FIELDS = [
    "id", "table_id", "ruleset_id", "rules", "first_dealer", "status", "result_only", "version"
]  # fmt: skip
SEAT_FIELDS = ["id", "game_id", "player_id", "number", "total", "is_winner"]
PLAYER_FIELDS = ["id", "table_id", "name"]


def game_for_save(*, game: int, user: int) -> tuple[Game, list[Seat], int] | None:
    """The game (the fields a save uses), its seats with their players, and the deals played.

    None when there is no such game or the user may not see it.
    """
    found = _seen(SAVE_GAME, game=game, user=user)
    if found is None:
        return None
    # The table's too: the answer shows the chances from here, where the table shows them.
    *values, last_entry_mode, show_chances, chances_version, played = found
    rules = Game._meta.get_field("rules")
    values[3] = rules.from_db_value(values[3], None, connection)
    values[6] = bool(values[6])  # SQLite answers 0 or 1
    loaded = Game.from_db(connection.alias, GAME_FIELDS, values)
    loaded.table = Table.from_db(
        connection.alias,
        ["id", "last_entry_mode", "show_chances", "chances_version"],
        [loaded.table_id, last_entry_mode, bool(show_chances), chances_version],
    )
    with connection.cursor() as cursor:
        cursor.execute(SAVE_SEATS, {"game": game})
        rows = cursor.fetchall()
    seats = []
    for row in rows:
        seat = Seat.from_db(connection.alias, SEAT_FIELDS, [*row[:5], bool(row[5])])
        seat.player = Player.from_db(connection.alias, PLAYER_FIELDS, [row[2], row[6], row[7]])
        seat.game = loaded
        seats.append(seat)
    return loaded, seats, played


def _seen(sql: str, **values: int) -> tuple | None:
    """The row without its last column (may the user see it?), if they may."""
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        row = cursor.fetchone()
    return None if row is None or not row[-1] else tuple(row[:-1])


GAME_BY_OWN_LINK = f"SELECT g.id, g.version FROM {_GAME} g WHERE g.watch_token = %(token)s"


def game_by_own_link(*, token: str) -> tuple[int, int] | None:
    """(id, version) of the game whose own watch link this is: its poll's one query."""
    with connection.cursor() as cursor:
        cursor.execute(GAME_BY_OWN_LINK, {"token": token})
        return cursor.fetchone()


def game_page_key(*, game: int, user: int) -> tuple | None:
    """(version, the table's last entry mode, the table's chances version): what a kept
    game page is kept by."""
    return _seen(GAME_PAGE_KEY, game=game, user=user)


def game_version(*, game: int, user: int) -> tuple[int, int] | None:
    """(version, the table's chances version): what a member's poll compares."""
    found = _seen(GAME_VERSION, game=game, user=user)
    return None if found is None else (found[0], found[1])


def seat_totals(seats: Sequence[Seat]) -> None:
    """Write each seat's ``total`` and ``is_winner``: ``bulk_update(seats, [those])``."""
    if not seats:
        return
    cases = " ".join(["WHEN %s THEN %s"] * len(seats))
    sql = (
        f"UPDATE {_SEAT} SET total = CAST(CASE id {cases} END AS integer), "
        f"is_winner = CAST(CASE id {cases} END AS boolean) "
        f"WHERE id IN ({', '.join(['%s'] * len(seats))})"
    )
    params = [value for seat in seats for value in (seat.pk, seat.total)]
    params += [value for seat in seats for value in (seat.pk, bool(seat.is_winner))]
    params += [seat.pk for seat in seats]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def _insert(model, rows: Sequence[dict]) -> None:
    """``model.objects.bulk_create`` of these rows (dicts of column values), as
    plain multi-row inserts: for an import's tens of thousands, the ORM's
    building of its statements cost four times the writing."""
    if not rows:
        return
    columns = list(rows[0])
    names = ", ".join(connection.ops.quote_name(c) for c in columns)
    if connection.vendor == "postgresql":
        # PostgreSQL's own way in for many rows: COPY, streamed.
        with connection.cursor() as cursor:
            copy_sql = f"COPY {model._meta.db_table} ({names}) FROM STDIN"
            with cursor.cursor.copy(copy_sql) as copy:
                for row in rows:
                    copy.write_row([row[c] for c in columns])
        return
    one = "(" + ", ".join(["%s"] * len(columns)) + ")"
    # Within what both databases bind in one statement (SQLite: 999 at least).
    batch = max(1, 999 // len(columns))
    with connection.cursor() as cursor:
        for start in range(0, len(rows), batch):
            part = rows[start : start + batch]
            values = ", ".join([one] * len(part))
            cursor.execute(
                f"INSERT INTO {model._meta.db_table} ({names}) VALUES {values}",
                [row[c] for row in part for c in columns],
            )


class NewDeal(NamedTuple):
    """A deal an import writes: its game, its entry and the engine's score of it."""

    game: int
    mode: str
    entry: object
    scored: engine.ScoredDeal


def insert_deals(deals: Sequence[NewDeal], changes_by) -> None:
    """Write new deals and a "recorded" change each, as ``bulk_create`` would.

    ``changes_by`` is who the changes are by (the importer). The deals' ids
    are read back (one query) for their changes.
    """
    if not deals:
        return
    ops = connection.ops
    now = ops.adapt_datetimefield_value(timezone.now())
    json = ops.adapt_json_value
    _insert(
        Deal,
        [
            {
                "game_id": d.game,
                "number": d.scored.number,
                "mode": d.mode,
                "entry": json(d.entry, None),
                "raw": json(list(d.scored.result.raw), None),
                "scores": json(list(d.scored.result.scores), None),
                "totals": json(list(d.scored.totals), None),
                "moon_seat": d.scored.result.moon,
                "entered_by_id": None,
                "entered_at": now,
                "updated_at": now,
                "version": 1,
                "client_key": "",
            }
            for d in deals
        ],
    )
    games = {d.game for d in deals}
    ids = {
        (game, number): pk
        for game, number, pk in Deal.objects.filter(game_id__in=games).values_list(
            "game_id", "number", "pk"
        )
    }
    by = getattr(changes_by, "pk", None)
    _insert(
        DealChange,
        [
            {
                "game_id": d.game,
                "deal_id": ids[d.game, d.scored.number],
                "number": d.scored.number,
                "action": DealChange.Action.RECORDED,
                "by_id": by,
                "at": now,
                "before": None,
                "after": json(
                    {
                        "mode": d.mode,
                        "entry": d.entry,
                        "scores": list(d.scored.result.scores),
                        "imported": True,
                    },
                    None,
                ),
            }
            for d in deals
        ],
    )
