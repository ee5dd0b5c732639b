"""Writing the history file: JSON (format 1) and CSV, streamed game by game."""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Max, QuerySet
from django.utils.translation import gettext as _

from games import engine
from games.models import Deal, Game, Season, Seat

FORMAT = "blackmaria-scores/1"


@dataclass(frozen=True)
class GameRecord:
    """One game as plain rows: what an export reads, without model instances."""

    pk: int
    key: str
    table: str
    rules: dict[str, Any]
    first_dealer: int
    status: str
    result_only: bool
    started_at: Any
    finished_at: Any
    names: list[str]
    totals: list[int]
    winners: list[str]
    # (number, mode, entry, raw, scores, moon_seat, totals)
    deals: list[tuple]
    # The club night it was played at ({"key", "name", "date", "scoring"}) and its round.
    evening: dict[str, Any] | None = None
    round: int | None = None
    unnamed: list[str] = field(default_factory=list)  # seats logged without a name


EXPORT_CHUNK = 200


def game_records(games: QuerySet[Game]) -> Iterator[GameRecord]:
    """The games in order, read 200 at a time in three queries each."""
    ids = list(games.values_list("pk", flat=True))
    for start in range(0, len(ids), EXPORT_CHUNK):
        chunk = ids[start : start + EXPORT_CHUNK]
        rows = {
            row["pk"]: row
            for row in Game.objects.filter(pk__in=chunk).values(
                "pk",
                "key",
                "table__name",
                "rules",
                "first_dealer",
                "status",
                "result_only",
                "started_at",
                "finished_at",
                "round",
                "evening_id",
                "evening__name",
                "evening__date",
                "evening__scoring",
            )
        }
        seats: dict[int, list[tuple]] = {pk: [] for pk in chunk}
        for game_id, *seat in (
            Seat.objects.filter(game_id__in=chunk)
            .order_by("game_id", "number")
            .values_list("game_id", "player__name", "total", "is_winner", "player__unnamed")
        ):
            seats[game_id].append(seat)
        deals: dict[int, list[tuple]] = {pk: [] for pk in chunk}
        for game_id, *deal in (
            Deal.objects.filter(game_id__in=chunk)
            .order_by("game_id", "number")
            .values_list(
                "game_id", "number", "mode", "entry", "raw", "scores", "moon_seat", "totals"
            )
        ):
            deals[game_id].append(tuple(deal))
        for pk in chunk:
            row = rows[pk]
            yield GameRecord(
                pk=pk,
                key=row["key"],
                table=row["table__name"],
                rules=row["rules"],
                first_dealer=row["first_dealer"],
                status=row["status"],
                result_only=row["result_only"],
                started_at=row["started_at"],
                finished_at=row["finished_at"],
                names=[name for name, *_ in seats[pk]],
                totals=[total for _, total, *_ in seats[pk]],
                winners=[name for name, _, won, _ in seats[pk] if won],
                unnamed=[name for name, *_, unnamed in seats[pk] if unnamed],
                deals=deals[pk],
                evening=None
                if row["evening_id"] is None
                else {
                    "key": f"evening-{row['evening_id']}",
                    "name": row["evening__name"],
                    "date": row["evening__date"].isoformat(),
                    "scoring": row["evening__scoring"],
                },
                round=row["round"],
            )


def _by_name(names: Sequence[str], values: Sequence[Any]) -> dict[str, Any]:
    return dict(zip(names, values, strict=True))


def entry_to_json(mode: str, data: Any, names: Sequence[str]) -> dict[str, Any]:
    """A stored entry as the history format's ``cards``/``counts``/``points`` object."""
    if mode == "cards":
        return {"cards": _by_name(names, [list(c) for c in data])}
    if mode == "counts":
        return {
            "counts": {
                name: {"hearts": hearts, "cards": list(cards)}
                for name, hearts, cards in zip(names, data["hearts"], data["cards"], strict=True)
            }
        }
    return {"points": _by_name(names, list(data))}


def game_to_json(game: GameRecord) -> dict[str, Any]:
    names = game.names
    rules = engine.Rules.from_dict(game.rules)
    players = len(names)
    deals = [
        {
            **entry_to_json(mode, entry, names),
            "number": number,
            "dealer": names[engine.dealer(game.first_dealer, players, number)],
            "leader": names[engine.leader(game.first_dealer, players, number)],
            "raw": _by_name(names, raw),
            "scores": _by_name(names, scores),
            "moon": None if moon is None else names[moon],
            "totals": _by_name(names, totals),
        }
        for number, mode, entry, raw, scores, moon, totals in game.deals
    ]
    finished = game.status == Game.Status.FINISHED
    evening = {"evening": game.evening, "round": game.round} if game.evening else {}
    return {
        "key": game.key,
        "table": game.table,
        "players": names,
        "first_dealer": names[game.first_dealer],
        "rules": rules.to_dict(),
        "deals": deals,
        "status": game.status,
        "totals": _by_name(names, game.totals),
        "winners": game.winners,
        "deal_total": engine.deal_total(rules, players),
        "moon_value": engine.moon_value(rules, players),
        "next_dealer": None
        if finished
        else names[engine.dealer(game.first_dealer, players, len(deals) + 1)],
        "started_at": game.started_at.isoformat(),
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        **evening,
        **({"result_only": True} if game.result_only else {}),
        **({"unnamed": game.unnamed} if game.unnamed else {}),
    }


def iter_json(games: QuerySet[Game], seasons: QuerySet[Season] | None = None) -> Iterator[str]:
    """The history file, a game at a time, so a big export never sits in memory.

    A table's or an account's backup carries its ``seasons`` too (a game's
    download does not): a restored club shows the same seasons' ladders.
    """
    yield f'{{"format": "{FORMAT}", "games": ['
    separator = "\n"
    for game in game_records(games):
        yield separator + json.dumps(game_to_json(game), ensure_ascii=False)
        separator = ",\n"
    yield "\n]"
    if seasons is not None:
        kept = [
            {"table": s.table.name, "name": s.name, "starts": s.starts.isoformat(),
             "ends": s.ends.isoformat()}
            for s in seasons.select_related("table").order_by("table_id", "starts")
        ]  # fmt: skip
        yield ', "seasons": ' + json.dumps(kept, ensure_ascii=False)
    yield "}\n"


def export_json(games: QuerySet[Game], seasons: QuerySet[Season] | None = None) -> dict[str, Any]:
    return json.loads("".join(iter_json(games, seasons)))


def export_csv_rows(games: QuerySet[Game]) -> Iterator[list[str | int]]:
    """One row per deal, after a header row.

    With one game the columns are named after its players; with several
    (whose players differ) they are numbered by seat, and each row names its
    players in the ``seat N`` columns.
    """
    single = games.count() == 1
    if single:
        names = [s.player.name for s in games.get().seats.select_related("player")]
        header: list[str | int] = [_("game"), _("table"), _("evening"), _("round")]
        header += [_("deal"), _("dealer")]
        header += [_("{name} points").format(name=n) for n in names]
        header += [_("moon")]
        header += [_("{name} total").format(name=n) for n in names]
        yield header
    else:
        widest = Seat.objects.filter(game__in=games).aggregate(m=Max("number"))["m"]
        width = engine.MIN_PLAYERS if widest is None else widest + 1
        header = [_("game"), _("table"), _("evening"), _("round"), _("deal"), _("dealer")]
        header += [_("seat {number}").format(number=i) for i in range(1, width + 1)]
        header += [_("seat {number} points").format(number=i) for i in range(1, width + 1)]
        header += [_("moon")]
        header += [_("seat {number} total").format(number=i) for i in range(1, width + 1)]
        yield header
    for game in game_records(games):
        names = game.names
        pad = [] if single else [""] * (width - len(names))
        for number, _mode, _entry, _raw, scores, moon, totals in game.deals:
            row: list[str | int] = [
                game.pk,
                game.table,
                game.evening["name"] if game.evening else "",
                game.round or "",
                number,
                names[engine.dealer(game.first_dealer, len(names), number)],
            ]
            if not single:
                row += names + pad
            row += list(scores) + pad
            row += ["" if moon is None else names[moon]]
            row += list(totals) + pad
            yield row


class _Line:
    """A file-like object that hands back what csv.writer writes."""

    def write(self, value: str) -> str:
        return value


def iter_csv(games: QuerySet[Game]) -> Iterator[str]:
    writer = csv.writer(_Line())
    for row in export_csv_rows(games):
        yield writer.writerow([_csv_safe(v) for v in row])


# A cell a spreadsheet could read as a formula: one starting with = + - @ (or
# a tab or return before them), or one where such a sign follows a character a
# spreadsheet may split cells on (Norwegian Excel splits on ";").
_FORMULA_START = re.compile(r"^[=+\-@\t\r]")


_FORMULA_AFTER_SPLIT = re.compile(r"([;,\t|]\s*)(?=[=+\-@])")


def _csv_safe(value: str | int) -> str | int:
    """Text stays text when the file opens in a spreadsheet: such signs get a ' before them.

    >>> _csv_safe("=SUM(A1)"), _csv_safe("a;=1+1"), _csv_safe("Anne-Marie"), _csv_safe(-3)
    ("'=SUM(A1)", "a;'=1+1", 'Anne-Marie', -3)
    """
    if not isinstance(value, str):
        return value
    value = _FORMULA_AFTER_SPLIT.sub(r"\1'", value)
    return "'" + value if _FORMULA_START.match(value) else value
