"""An import's deals and their changes, written as plain SQL: the one write the ORM
measurably can't do as well.

An import writes tens of thousands of rows; building ``bulk_create``'s statements
cost four times the writing. On PostgreSQL they go in by COPY, elsewhere as
multi-row inserts. ``tests/test_sql.py`` checks that both leave the rows
``bulk_create`` leaves. Every read, the access rule's included, is the ORM's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from django.db import connection
from django.utils import timezone

from games import engine
from games.models import Deal, DealChange


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
