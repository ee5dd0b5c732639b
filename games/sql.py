"""The few queries written as plain SQL: the ones every game page and poll runs.

Building them with the ORM cost more than running them (the access check:
about 1.7 ms to build, 0.6 ms to run on PostgreSQL). Each is the ORM query of
:mod:`games.access` written out once; ``tests/test_sql.py`` checks that both
give the same answer for the owner, a member, an outsider and a missing game.
Plain SQL that SQLite and PostgreSQL both read, with parameters.
"""

from __future__ import annotations

from django.db import connection

from games.models import Game, Membership, Ruleset, Table

_GAME, _TABLE, _RULESET, _MEMBER = (
    model._meta.db_table for model in (Game, Table, Ruleset, Membership)
)

# The access rule of games.access.user_may_see: the table's owner, or a member.
_MAY_SEE = f"""(t.owner_id = %(user)s OR EXISTS (
    SELECT 1 FROM {_MEMBER} m WHERE m.table_id = g.table_id AND m.user_id = %(user)s))"""

GAME_PAGE_KEY = f"""
SELECT g.version, t.last_entry_mode, t.name, g.note, r.notes
FROM {_GAME} g
JOIN {_TABLE} t ON t.id = g.table_id
LEFT JOIN {_RULESET} r ON r.id = g.ruleset_id
WHERE g.id = %(game)s AND {_MAY_SEE}
"""

GAME_VERSION = f"""
SELECT g.version
FROM {_GAME} g
JOIN {_TABLE} t ON t.id = g.table_id
WHERE g.id = %(game)s AND {_MAY_SEE}
"""


def _one(sql: str, **values: int) -> tuple | None:
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        return cursor.fetchone()


def game_page_key(*, game: int, user: int) -> tuple | None:
    """(version, the table's last entry mode, its name, the game's note, the rules' notes)."""
    return _one(GAME_PAGE_KEY, game=game, user=user)


def game_version(*, game: int, user: int) -> int | None:
    found = _one(GAME_VERSION, game=game, user=user)
    return None if found is None else found[0]
