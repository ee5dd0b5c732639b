"""Reading the history file: every game checked, and the whole file refused
with the game, the deal and the reason on any error."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from itertools import accumulate
from typing import Any

from django.utils.translation import gettext as _

from games import engine
from games.engine.names import NameRefused, clean_text, name_key, normalise_name, player_names
from games.formats.writing import FORMAT
from games.models import TABLE_NAME_MAX_LENGTH, Evening


class ImportRefused(Exception):
    """A file that can't be imported; nothing was saved."""

    def __init__(self, message: str):
        self.message = message
        super().__init__(message)


# A history file is never nested deeper than this (format 1 needs 5 levels).
MOST_DEPTH = 20


# Games in one file imported through a web page (a backup on the command line
# may hold more); deals per game are bounded by the rules (rules.MOST_DEALS).
WEB_MOST_GAMES = 500


_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def read_history_file(raw: bytes) -> Any:
    """The JSON document in ``raw``, or :class:`ImportRefused` saying why it can't be read.

    Checked for depth before parsing (deep nesting would exhaust Python's
    recursion) and for text that can't be stored (a lone surrogate).
    """
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ImportRefused(_("This file is not a history file (it is not JSON text).")) from None
    brackets = re.sub(r"[^\[\]{}]", "", _JSON_STRING.sub("", text))
    depth = max(accumulate(1 if c in "[{" else -1 for c in brackets), default=0)
    if depth > MOST_DEPTH:
        raise ImportRefused(
            _("This file is not a history file: it is nested {depth} levels deep.").format(
                depth=depth
            )
        )
    if not text.strip():
        raise ImportRefused(_("The file is empty."))
    try:
        data = json.loads(text)
        # Every text in it must be storable: "\ud800" alone is JSON, but not text.
        json.dumps(data, ensure_ascii=False).encode()
    except json.JSONDecodeError as error:
        # Cut short: it stops mid-text (a string never closed) or before its brackets close.
        if error.msg.startswith("Unterminated string") or error.pos >= len(text.rstrip()):
            raise ImportRefused(_broken_off(text, error)) from None
        raise ImportRefused(_("This file is not a history file (it is not JSON text).")) from None
    except (ValueError, UnicodeEncodeError):
        # ValueError: not JSON, or a number thousands of digits long.
        raise ImportRefused(_("This file is not a history file (it is not JSON text).")) from None
    return data


def _broken_off(text: str, error: json.JSONDecodeError) -> str:
    """A JSON file that stops before its end: cut short in saving, copying or sending."""
    line = text.rstrip().count("\n") + 1
    if '"playerScores"' in text or '"gameRefId"' in text:
        return _(
            "This BG Stats export breaks off at line {line}: it was not saved whole. "
            "Export it from BG Stats again and choose the new file."
        ).format(line=line)
    return _(
        "This file breaks off at line {line}: it was not saved whole. "
        "Export it again and choose the new file."
    ).format(line=line)


@dataclass(frozen=True)
class ParsedGame:
    table: str
    names: tuple[str, ...]
    first_dealer: int
    rules: engine.Rules
    entries: tuple[engine.Entry, ...]
    state: engine.GameState
    # The club night and round it was played in, when the file says.
    evening: ParsedEvening | None = None
    round: int | None = None
    # The game's own key (from the file, or made from what it holds) and when
    # it started and ended, when the file says: the ladder rates in that order.
    key: str = ""
    started_at: datetime | None = None
    finished_at: datetime | None = None
    # Kept on paper: the final totals, no deals (format 1 files before it have none).
    result_only: bool = False
    # Seats another app logged without a name: players of their own, off the ladder.
    unnamed: tuple[str, ...] = ()


@dataclass(frozen=True)
class ParsedEvening:
    key: str
    name: str
    date: date
    scoring: str


def parse_history(data: Any, *, most_games: int | None = None) -> list[ParsedGame]:
    """Check a whole file; raise :class:`ImportRefused` naming game, deal and reason."""
    if not isinstance(data, dict):
        raise ImportRefused(_("The file is not a scorekeeper history (expected a JSON object)."))
    if data.get("format") != FORMAT:
        raise ImportRefused(
            _("The file's format is {found}; this app reads {expected}.").format(
                found=repr(data.get("format")), expected=repr(FORMAT)
            )
        )
    games = data.get("games")
    if not isinstance(games, list):
        raise ImportRefused(_("The file has no list of games."))
    # A result-only game is a row of totals, not a game's deals: ten times as many.
    played = [g for g in games if not (isinstance(g, dict) and g.get("result_only") is True)]
    if most_games is not None and len(played) > most_games:
        raise ImportRefused(
            _(
                "The file holds {count} games; at most {most} can be imported at once here. "
                "Import it on the command line, or export fewer games."
            ).format(count=len(played), most=most_games)
        )
    if most_games is not None and len(games) - len(played) > most_games * 10:
        raise ImportRefused(
            _(
                "The file holds {count} results; at most {most} can be imported at once here."
            ).format(count=len(games) - len(played), most=most_games * 10)
        )
    return [_parse_game(index, game) for index, game in enumerate(games, start=1)]


@dataclass(frozen=True)
class ParsedSeason:
    table: str | None  # None: the table the file is imported into
    name: str
    starts: date
    ends: date


def parse_seasons(data: Any) -> list[ParsedSeason]:
    """A backup's seasons (optional: a file without them has none)."""
    seasons = data.get("seasons", []) if isinstance(data, dict) else []
    if not isinstance(seasons, list):
        raise ImportRefused(_("The file's seasons must be a list."))
    parsed = []
    for index, season in enumerate(seasons, start=1):
        where = _("Season {number}").format(number=index)
        try:
            name = normalise_name(season["name"])
            starts, ends = date.fromisoformat(season["starts"]), date.fromisoformat(season["ends"])
            table = season.get("table")
            if not name or len(name) > 80 or ends < starts or not isinstance(table, str | None):
                raise ValueError
        except (TypeError, KeyError, ValueError, AttributeError):
            raise ImportRefused(
                _("{where}: a season needs a name and dates written like 2026-12-04, the end "
                  "on or after the start").format(where=where)
            ) from None  # fmt: skip
        parsed.append(ParsedSeason(normalise_name(table) if table else None, name, starts, ends))
    return parsed


def _parse_game(index: int, data: Any) -> ParsedGame:
    def refuse(reason: str, deal: int | None = None) -> ImportRefused:
        table = data.get("table") if isinstance(data, dict) else None
        if isinstance(table, str):
            where = _("Game {number} ({table})").format(number=index, table=table)
        else:
            where = _("Game {number}").format(number=index)
        if deal is not None:
            where = _("{game}, deal {number}").format(game=where, number=deal)
        return ImportRefused(_("{where}: {reason}").format(where=where, reason=reason))

    if not isinstance(data, dict):
        raise refuse(_("a game must be an object"))
    table = data.get("table")
    if not isinstance(table, str) or not normalise_name(table):
        raise refuse(_("the table's name is missing"))
    table = normalise_name(table)
    if len(table) > TABLE_NAME_MAX_LENGTH:
        raise refuse(
            _("the table's name is longer than {most} characters").format(
                most=TABLE_NAME_MAX_LENGTH
            )
        )
    names = data.get("players")
    if not isinstance(names, list) or not all(
        isinstance(n, str) and normalise_name(n) for n in names
    ):
        raise refuse(_("players must be a list of names"))
    try:
        names = player_names(names)
    except NameRefused as refused:
        raise refuse(refused.message) from None
    keys = [name_key(n) for n in names]
    if not engine.MIN_PLAYERS <= len(names) <= engine.MAX_PLAYERS:
        raise refuse(
            _("the game is for {least} to {most} players, not {players}").format(
                least=engine.MIN_PLAYERS, most=engine.MAX_PLAYERS, players=len(names)
            )
        )
    result_only = data.get("result_only", False)
    if not isinstance(result_only, bool):
        raise refuse(_("result_only must be true or false"))
    first = data.get("first_dealer", names[0] if result_only else None)
    if not isinstance(first, str) or name_key(first) not in keys:
        raise refuse(
            _("the first dealer {name} is not one of the players").format(name=repr(first))
        )
    first = names[keys.index(name_key(first))]
    unstorable = _unstorable(data.get("rules"))
    if unstorable:
        raise refuse(
            _("the rules' {field} holds a character that can't be kept ({char})").format(
                field=unstorable[0], char=unstorable[1]
            )
        )
    try:
        rules = engine.resolve(engine.Rules.from_dict(data.get("rules")), len(names))
    except engine.RulesError as error:
        raise refuse(_("rules: {problems}").format(problems="; ".join(error.problems))) from None
    deals = data.get("deals", [])
    if not isinstance(deals, list):
        raise refuse(_("deals must be a list"))
    if len(deals) > engine.MOST_DEALS:
        raise refuse(
            _("the game has {count} deals; a game holds at most {most}").format(
                count=len(deals), most=engine.MOST_DEALS
            )
        )
    entries = []
    keys = {name_key(n): n for n in names}  # once a game, not once a deal
    for number, deal in enumerate(deals, start=1):
        try:
            entries.append(_parse_entry(deal, names, keys))
        except ValueError as error:
            raise refuse(str(error), number) from None
    try:
        if result_only:
            if entries:
                raise refuse(_("a result-only game has no deals"))
            state = _result(data.get("totals"), names, refuse)
        else:
            state = engine.score_game(rules, names, names.index(first), entries)
    except engine.GameError as error:
        reason = "; ".join(error.problems)
        if error.deal is not None:
            reason = "; ".join(engine.without_deal_number(p, error.deal) for p in error.problems)
        raise refuse(reason, error.deal) from None
    unnamed = data.get("unnamed", [])
    if not isinstance(unnamed, list) or not all(
        isinstance(n, str) and name_key(n) in keys for n in unnamed
    ):
        raise refuse(_("unnamed must be a list of the game's players"))
    evening, round_ = _parse_evening(data, refuse)
    started_at, finished_at = (_time(data, name, refuse) for name in ("started_at", "finished_at"))
    return ParsedGame(
        table.strip(),
        tuple(names),
        names.index(first),
        rules,
        tuple(entries),
        state,
        evening,
        round_,
        key=_game_key(index, data, names, first, rules, entries, refuse),
        started_at=started_at,
        finished_at=finished_at if state.finished else None,
        result_only=result_only,
        unnamed=tuple(keys[name_key(n)] for n in unnamed),
    )


MOST_TOTAL = 1_000_000  # far beyond any game, short of what a database column holds


def _result(totals: Any, names: Sequence[str], refuse) -> engine.GameState:
    """A result-only game's final totals, a whole number for each player: it is over."""
    if not isinstance(totals, dict):
        raise refuse(_("a result-only game needs its totals, a number for each player"))
    by_key = {name_key(str(name)): total for name, total in totals.items()}
    shown = []
    for name in names:
        total = by_key.get(name_key(name))
        if isinstance(total, bool) or not isinstance(total, int) or abs(total) > MOST_TOTAL:
            raise refuse(_("{name}'s total must be a whole number").format(name=name))
        shown.append(total)
    return engine.GameState(
        deals=(),
        totals=tuple(shown),
        finished=True,
        winners=engine.winners(shown),
        next_number=None,
    )


_KEY = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _game_key(index: int, data: dict, names, first: str, rules, entries, refuse) -> str:
    """The game's key as the file gives it; for a file written before games had
    keys, one made from the game itself and its place in the file, so the same
    file imports it once too (and two games alike in it are two games)."""
    key = data.get("key")
    if key is not None:
        if not isinstance(key, str) or not _KEY.fullmatch(key):
            raise refuse(_("the game's key must be up to 64 letters, digits, - or _"))
        return key
    held = {
        "players": list(names),
        "first_dealer": first,
        "rules": rules.to_dict(),
        "deals": [[e.mode, e.to_data()] for e in entries],
        **({"totals": data.get("totals")} if data.get("result_only") is True else {}),
        "started_at": data.get("started_at"),
        "place": index,
    }
    made = json.dumps(held, sort_keys=True, ensure_ascii=False).encode()
    return "file-" + hashlib.sha256(made).hexdigest()[:32]


def _time(data: dict, name: str, refuse) -> datetime | None:
    value = data.get(name)
    if value is None:
        return None
    try:
        moment = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise refuse(
            _("{name} must be a time written like 2026-12-04T20:15:00+00:00").format(name=name)
        ) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _unstorable(rules: Any) -> tuple[str, str] | None:
    """The first setting whose text holds a character no database keeps (NUL, a lone
    surrogate) or nobody types (a control, a zero-width one): (setting, U+XXXX)."""
    if not isinstance(rules, dict):
        return None
    for key, value in rules.items():
        if isinstance(value, str) and clean_text(value) != value:
            bad = next(c for c in value if clean_text(c) != c)
            return str(key).replace("_", " "), f"U+{ord(bad):04X}"
    return None


def _parse_evening(data: dict, refuse) -> tuple[ParsedEvening | None, int | None]:
    """The game's club night and round (optional keys: a file without them imports)."""
    evening = data.get("evening")
    if evening is None:
        return None, None
    if not isinstance(evening, dict):
        raise refuse(_("the evening must be an object"))
    name = evening.get("name")
    name = normalise_name(name) if isinstance(name, str) else ""
    if not name or len(name) > 80:
        raise refuse(_("the evening needs a name of at most 80 characters"))
    try:
        day = date.fromisoformat(evening.get("date"))
    except (TypeError, ValueError):
        raise refuse(_("the evening's date must be written like 2026-12-04")) from None
    scoring = evening.get("scoring", Evening.Scoring.PLACES)
    if scoring not in Evening.Scoring.values:
        raise refuse(
            _("the evening's scoring must be one of {choices}").format(
                choices=", ".join(Evening.Scoring.values)
            )
        )
    key = evening.get("key")
    if not isinstance(key, str) or not key or len(key) > 100:
        key = f"{name}|{day}|{scoring}"
    round_ = data.get("round")
    if round_ is not None and (
        isinstance(round_, bool) or not isinstance(round_, int) or not 1 <= round_ <= 999
    ):
        raise refuse(_("the round must be a whole number from 1 to 999"))
    return ParsedEvening(key, name, day, scoring), round_


def _parse_entry(deal: Any, names: Sequence[str], keys: dict[str, str]) -> engine.Entry:
    if not isinstance(deal, dict):
        raise ValueError(_("a deal must be an object"))
    modes = [m for m in engine.ENTRY_MODES if m in deal]
    if len(modes) != 1:
        raise ValueError(_("a deal must have exactly one of cards, counts or points"))
    mode = modes[0]
    body = deal[mode]
    if not isinstance(body, dict):
        raise ValueError(
            _("{mode} must map each player's name to what they took").format(mode=mode)
        )
    unknown = [k for k in body if not isinstance(k, str) or name_key(k) not in keys]
    if unknown:
        raise ValueError(
            _("{names} is not playing in this game").format(
                names=engine.join_names([repr(k) for k in unknown])
            )
        )
    body = {keys[name_key(k)]: v for k, v in body.items()}
    missing = [n for n in names if n not in body]
    if missing:
        raise ValueError(
            _("{names} missing from the deal").format(names=engine.join_names(missing))
        )
    if mode == "cards":
        per_seat = [_card_list(body[n], n) for n in names]
        return engine.CardsEntry(tuple(per_seat))
    if mode == "counts":
        hearts, cards = [], []
        for n in names:
            item = body[n]
            if not isinstance(item, dict):
                raise ValueError(_("{name}'s counts must have hearts and cards").format(name=n))
            count = item.get("hearts", 0)
            if not isinstance(count, int) or isinstance(count, bool):
                raise ValueError(_("{name}'s hearts must be a whole number").format(name=n))
            hearts.append(count)
            cards.append(_card_list(item.get("cards", []), n))
        return engine.CountsEntry(tuple(hearts), tuple(cards))
    points = []
    for n in names:
        value = body[n]
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(_("{name}'s points must be a whole number").format(name=n))
        points.append(value)
    return engine.PointsEntry(tuple(points))


def _card_list(value: Any, name: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise ValueError(
            _("{name}'s cards must be a list of card codes such as QS").format(name=name)
        )
    return tuple(c.strip().upper() for c in value)
