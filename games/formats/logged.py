"""Plays logged in other apps, read as result-only games: BG Stats and BoardGameGeek.

- **BG Stats** exports its whole log as one JSON file: ``players`` (``id``,
  ``name``), ``games`` (``id``, ``name``, ``bggId``) and ``plays`` (``uuid``,
  ``gameRefId``, ``playDate``, and ``playerScores``: ``playerRefId``,
  ``score``, ``winner``, ``startPlayer``, ``seatOrder``).
- **BoardGameGeek**'s play log is XML: ``<plays><play id date><item name
  objectid/><players><player name score win startposition/>…``.

Such a file holds every game its owner logs, so it is read as a list of games
with their plays; the person ticks which are this table's (:func:`suggested`
ticks Black Maria, Hearts and the like). The ticked games' plays become
result-only games as from the paper CSV: the lowest total wins. Each play keeps
a key from the file (BG Stats' ``uuid``, BoardGameGeek's play id), so the same
export brought twice, or a newer one holding the older plays, adds only what
is new.

A file that is not what these apps write is refused whole. A play of a ticked
game that can't be read (a score that is not a whole number, a player twice)
refuses the import, naming the play; the same play of a game not ticked is
never looked at. Plays without scores, plays the app keeps out of its own
statistics (BG Stats' ``ignored``, BoardGameGeek's ``nowinstats``), and plays
of a ticked game for fewer than 3 or more than 7 players are skipped and counted.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any
from xml.etree.ElementTree import Element, ParseError

import defusedxml.ElementTree as safe_xml
from defusedxml import DefusedXmlException
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from games import engine
from games.engine.names import NameRefused, clean_text, normalise_name, player_names
from games.formats.paper import result_game
from games.formats.reading import MOST_TOTAL, ImportRefused, read_history_file
from games.formats.writing import FORMAT

BG_STATS = "BG Stats"
BOARDGAMEGEEK = "BoardGameGeek"

# The games a table of ours plays, as other apps name them (any case, any part
# of the name: "Hearts (Omnibus)" too), and BoardGameGeek's own id for Hearts.
OUR_WORDS = ("black maria", "svarte maria", "black lady", "hearts", "hjerter", "omnibus")
OUR_BGG_IDS = {6887}

# Which built-in ruleset a logged game's plays get, by the first words its name holds.
HEARTS_ONLY = "Hearts only"
RULES_BY_NAME = (
    (("omnibus",), "Omnibus"),
    (("black maria", "svarte maria", "black lady"), "Black Maria"),
    (("hearts", "hjerter"), HEARTS_ONLY),
)
# A seat the file gives no name: BG Stats' anonymous player, in the languages it is
# used in here, and a blank name (BoardGameGeek's player without name or username).
UNNAMED = {"", "anonymous player", "anonymous", "anonym spiller", "anonym"}
MOST_SUMMED = 200  # characters of a score typed as a sum ("5+9+12")
_SUM = re.compile(r"[+-]?\d{1,7}(?:[+-]\d{1,7})*")
_TERM = re.compile(r"[+-]?\d+")

_KEY = re.compile(r"[A-Za-z0-9_-]{1,56}")  # with its "bgstats-"/"bgg-" a game key (64)
MOST_NAME_SHOWN = 80  # a game's name as the preview shows it
YEARS = (1970, 2100)  # a play's date, as far as anyone logs one


@dataclass(frozen=True)
class Seat:
    name: str
    total: int
    won: bool  # the file's own winner flag
    unnamed: bool = False  # the file gives the seat no name: a name of ours, off the ladder


@dataclass
class Play:
    """One logged play: its seats in seat order, or why it can't be read."""

    key: str
    game: str  # the :class:`LoggedGame`'s ref
    number: int  # its place in the file, counted from 1, as the person is told
    day: date | None
    at: datetime | None  # when it was played; None: the file says only the day
    seats: list[Seat] = field(default_factory=list)
    first: str = ""  # the start player, when the file names one
    unscored: bool = False
    ignored: bool = False  # kept out of the app's own statistics (BG Stats' "ignored")
    problem: str = ""  # why it can't be imported, said when its game is ticked
    listed: list[str] = field(default_factory=list)  # the players as the file names them
    unnamed: int = 0  # seats the file gives no name (BG Stats' "Anonymous player")
    quantity: int = 1  # BoardGameGeek's: the same play logged as several

    @property
    def fits(self) -> bool:
        return engine.MIN_PLAYERS <= len(self.seats) <= engine.MAX_PLAYERS

    @property
    def winners(self) -> list[str]:
        """The lowest total's players: who won by our rules."""
        lowest = min(seat.total for seat in self.seats)
        return [seat.name for seat in self.seats if seat.total == lowest]

    @property
    def flagged(self) -> list[str]:
        """Who the file says won."""
        return [seat.name for seat in self.seats if seat.won]

    @property
    def disagrees(self) -> bool:
        """The file names winners, and not the players with the lowest total."""
        return bool(self.flagged) and set(self.flagged) != set(self.winners)


@dataclass
class LoggedGame:
    ref: str
    name: str
    bgg_id: int | None
    plays: list[Play] = field(default_factory=list)

    @property
    def scored(self) -> int:
        """Plays with scores: those the preview counts beside the game's name."""
        return sum(1 for play in self.plays if not play.unscored)

    @property
    def ours(self) -> bool:
        named = normalise_name(self.name).casefold()
        return self.bgg_id in OUR_BGG_IDS or any(word in named for word in OUR_WORDS)

    @property
    def rules(self) -> str | None:
        """The built-in ruleset its plays are scored by, as its name says: Omnibus;
        Black Maria (Svarte Maria, Black Lady); Hearts (BoardGameGeek's Hearts too)
        counts hearts and the queen only. None: the name says nothing of ours."""
        named = normalise_name(self.name).casefold()
        for words, rules in RULES_BY_NAME:
            if any(word in named for word in words):
                return rules
        return HEARTS_ONLY if self.bgg_id in OUR_BGG_IDS else None


@dataclass
class LoggedFile:
    source: str  # BG_STATS or BOARDGAMEGEEK
    games: list[LoggedGame]

    def suggested(self) -> list[str]:
        return [game.ref for game in self.games if game.ours]


@dataclass
class Chosen:
    """The ticked games' plays: those to import, those that disagree with the
    file's winner flags (a play at the table already is never asked about again),
    and those skipped, counted."""

    plays: list[Play]
    disagreeing: list[Play]
    unscored: int
    unfit: int
    ignored: int = 0
    unnamed: int = 0  # plays with a seat the file gives no name, left out
    repeated: list[Play] = field(default_factory=list)  # logged as several, brought in once


def read_logged(raw: bytes) -> LoggedFile | None:
    """The plays in a BG Stats or BoardGameGeek file, or None when ``raw`` is
    neither (a history file of ours, a paper CSV); :class:`ImportRefused` when it
    is one of them but broken."""
    head = raw[:200].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"<"):
        return _read_boardgamegeek(raw)
    if not head.startswith(b"{"):
        return None
    data = read_history_file(raw)
    if not isinstance(data, dict) or "format" in data or "plays" not in data:
        return None
    return _read_bg_stats(data)


def chosen(
    logged: LoggedFile, ticked: Iterable[str], *, here: Iterable[str] = (), unnamed: bool = False
) -> Chosen:
    """The plays of the ticked games, in the order they were played; the first
    that can't be read refuses, naming it. ``here``: the keys of the games at the
    table already. ``unnamed``: bring in the plays with seats the file gives no
    name (each such seat a player of its own, off the ladder), else leave them out."""
    ticked, here = set(ticked), set(here)
    plays: list[Play] = []
    unscored = unfit = ignored = left_unnamed = 0
    for game in logged.games:
        if game.ref not in ticked:
            continue
        for play in game.plays:
            if play.ignored:
                ignored += 1
            elif play.unscored:
                unscored += 1
            elif play.problem:
                raise ImportRefused(_where(play, game, play.problem))
            elif not play.fits:
                unfit += 1
            elif play.unnamed and not unnamed:
                left_unnamed += 1
            else:
                plays.append(play)
    plays.sort(key=_played)
    disagreeing = [play for play in plays if play.disagrees and play.key not in here]
    repeated = [play for play in plays if play.quantity > 1]
    return Chosen(plays, disagreeing, unscored, unfit, ignored, left_unnamed, repeated)


def _played(play: Play) -> tuple:
    return (play.day, timezone.localtime(play.at).time() if play.at else time(20), play.number)


def logged_history(
    chosen_plays: Chosen,
    *,
    table: str,
    disagreeing: str = "totals",
    rules: dict[str, dict] | None = None,
) -> dict:
    """The chosen plays as a history file's result-only games. A play whose
    winner flags disagree with its totals goes by the totals (``"totals"``) or
    is left out (``"leave"``). ``rules``: each game's (by its ref) as a history
    file writes them; a game not in it is counted as Black Maria."""
    left_out = {id(play) for play in chosen_plays.disagreeing} if disagreeing == "leave" else set()
    games = []
    by_day: dict[date, int] = {}
    for play in chosen_plays.plays:
        by_day[play.day] = by_day.get(play.day, 0) + 1
        if id(play) in left_out:
            continue
        # A play logged by its day alone ends that evening, the day's plays in order.
        at = play.at or timezone.make_aware(
            datetime.combine(play.day, time(20)) + timedelta(minutes=by_day[play.day])
        )
        seats = [(seat.name, seat.total) for seat in play.seats]
        game = result_game(
            table,
            key=play.key,
            seats=seats,
            at=at,
            first=play.first,
            rules=(rules or {}).get(play.game),
        )
        if play.unnamed:
            game["unnamed"] = [seat.name for seat in play.seats if seat.unnamed]
        games.append(game)
    return {"format": FORMAT, "games": games}


def _where(play: Play, game: LoggedGame, reason: str) -> str:
    """A play as the person knows it: its day, game and players, as their app shows them."""
    day = date_format(play.day, "DATE_FORMAT") if play.day else _("an unknown day")
    players = ", ".join(play.listed[:7]) + (" …" if len(play.listed) > 7 else "")
    return _("The play of {day} ({game}: {players}): {reason}").format(
        day=day, game=game.name, players=players or _("no players"), reason=reason
    )


def _refuse(source: str, reason: str) -> ImportRefused:
    return ImportRefused(
        _("This is not a {source} export: {reason}").format(source=source, reason=reason)
    )


# BG Stats ------------------------------------------------------------------


def _read_bg_stats(data: dict) -> LoggedFile:
    players, games, plays = data.get("players"), data.get("games", []), data.get("plays")
    if not all(isinstance(part, list) for part in (players, games, plays)):
        raise _refuse(BG_STATS, _("its players, games and plays must be lists"))
    names: dict[Any, str] = {}
    for number, player in enumerate(players, start=1):
        if not isinstance(player, dict) or not _ref(player.get("id")):
            raise _refuse(
                BG_STATS, _("player {number} has no id").format(number=number)
            )  # fmt: skip
        name = player.get("name")
        anonymous = player.get("isAnonymous") is True
        names[player["id"]] = name if isinstance(name, str) and not anonymous else ""
    by_ref: dict[Any, LoggedGame] = {}
    for number, game in enumerate(games, start=1):
        if not isinstance(game, dict) or not _ref(game.get("id")):
            raise _refuse(BG_STATS, _("game {number} has no id").format(number=number))
        by_ref[game["id"]] = LoggedGame(
            ref=str(game["id"]),
            name=_game_name(game.get("name")),
            bgg_id=_bgg_id(game.get("bggId")),
        )
    seen: set[str] = set()
    for number, play in enumerate(plays, start=1):
        if (
            not isinstance(play, dict)
            or not _ref(ref := play.get("gameRefId"))
            or ref not in by_ref
        ):
            raise _refuse(
                BG_STATS,
                _("play {number} is of a game the file does not list").format(number=number),
            )
        game = by_ref[play["gameRefId"]]
        scores = play.get("playerScores")
        if not isinstance(scores, list) or not all(isinstance(s, dict) for s in scores):
            raise _refuse(BG_STATS, _("play {number} has no list of scores").format(number=number))
        key = _key("bgstats", play.get("uuid"), play)
        if key in seen:
            continue  # the same play twice in one file is one play
        seen.add(key)
        logged = Play(key=key, game=game.ref, number=number, **_when(play.get("playDate")))
        logged.ignored = play.get("ignored") is True
        seats = []
        for at, score in enumerate(scores):
            if not _ref(who := score.get("playerRefId")) or who not in names:
                logged.problem = _("a score is for a player the file does not list")
                break
            order = score.get("seatOrder")
            seats.append(
                (
                    order if isinstance(order, int) and not isinstance(order, bool) else None,
                    at,
                    names[who],
                    score.get("score"),
                    score.get("winner") is True,
                    score.get("startPlayer") is True,
                )
            )
        _fill(logged, seats)
        game.plays.append(logged)
    return LoggedFile(BG_STATS, list(by_ref.values()))


# BoardGameGeek ---------------------------------------------------------------


def _read_boardgamegeek(raw: bytes) -> LoggedFile:
    try:
        root = safe_xml.fromstring(raw)
    except ParseError as error:
        line, column = error.position
        raise _refuse(
            BOARDGAMEGEEK,
            _("its XML breaks off at line {line}, column {column}").format(
                line=line, column=column
            ),
        ) from None
    except (DefusedXmlException, ValueError):
        # Entities and DTDs (no play log holds them), or a character XML forbids.
        raise _refuse(BOARDGAMEGEEK, _("it holds XML a play log never does")) from None
    if root.tag != "plays":
        raise _refuse(BOARDGAMEGEEK, _("its XML must be a list of plays (<plays>)"))
    by_ref: dict[str, LoggedGame] = {}
    seen: set[str] = set()
    for number, play in enumerate(root.iter("play"), start=1):
        item = play.find("item")
        if item is None:
            raise _refuse(
                BOARDGAMEGEEK, _("play {number} does not name its game").format(number=number)
            )
        name = _game_name(item.get("name"))
        bgg_id = _bgg_id(item.get("objectid"))
        # A game BoardGameGeek does not list has no id of its own (0): its name is.
        ref = str(bgg_id) if bgg_id else "name-" + name
        game = by_ref.setdefault(ref, LoggedGame(ref=ref, name=name, bgg_id=bgg_id))
        key = _key("bgg", play.get("id"), _held(play))
        if key in seen:
            continue
        seen.add(key)
        logged = Play(key=key, game=game.ref, number=number, **_when(play.get("date")))
        logged.ignored = play.get("nowinstats") == "1"
        quantity = (play.get("quantity") or "1").strip()
        logged.quantity = int(quantity) if quantity.isdecimal() and len(quantity) < 6 else 1
        seats = []
        for at, player in enumerate(play.iterfind("players/player")):
            position = (player.get("startposition") or "").strip()
            seats.append(
                (
                    int(position) if position.isdecimal() and len(position) < 4 else None,
                    at,
                    player.get("name") or player.get("username") or "",
                    player.get("score"),
                    player.get("win") == "1",
                    position == "1",
                )
            )
        if play.get("incomplete") == "1":
            logged.unscored = True  # not played to its end: no final scores
        _fill(logged, seats)
        game.plays.append(logged)
    return LoggedFile(BOARDGAMEGEEK, list(by_ref.values()))


def _held(play: Element) -> dict:
    return {
        "date": play.get("date"),
        "game": item.get("objectid") if (item := play.find("item")) is not None else None,
        "players": [sorted(p.attrib.items()) for p in play.iterfind("players/player")],
    }


# Both ------------------------------------------------------------------------


def _ref(value: Any) -> bool:
    return isinstance(value, int | str) and not isinstance(value, bool) and len(str(value)) < 100


def _game_name(value: Any) -> str:
    name = normalise_name(value) if isinstance(value, str) else ""
    return name[:MOST_NAME_SHOWN] or _("a game without a name")


def _bgg_id(value: Any) -> int | None:
    if isinstance(value, str) and value.strip().isdecimal() and len(value.strip()) < 10:
        value = int(value.strip())
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _key(prefix: str, given: Any, play: Any) -> str:
    """The play's own id from the file; one made from what the play holds when
    the file gives none that a key can keep."""
    if isinstance(given, int) and not isinstance(given, bool):
        given = str(given)
    if isinstance(given, str) and _KEY.fullmatch(given):
        return f"{prefix}-{given}"
    held = json.dumps(play, sort_keys=True, ensure_ascii=False, default=str)
    return f"{prefix}-" + hashlib.sha256(held.encode("utf-8", "replace")).hexdigest()[:32]


def _when(value: Any) -> dict:
    """The play's day and time as the file writes them ("2024-03-15 20:30:00",
    or the day alone); a play whose date can't be read is dated None."""
    text = value.strip() if isinstance(value, str) else ""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return {"day": None, "at": None}
    if not YEARS[0] <= moment.year <= YEARS[1]:
        return {"day": None, "at": None}
    if len(text) <= 10:
        return {"day": moment.date(), "at": None}
    if moment.tzinfo is None:
        moment = timezone.make_aware(moment)
    return {"day": timezone.localtime(moment).date(), "at": moment}


def _fill(play: Play, seats: Sequence[tuple]) -> None:
    """The play's seats from (seat order, place in the file, name, score, won,
    started): in seat order where every seat has its own, else as listed."""
    orders = [seat[0] for seat in seats]
    if None not in orders and len(set(orders)) == len(orders):
        seats = sorted(seats)
    typed = [seat[2] if isinstance(seat[2], str) else "" for seat in seats]
    unnamed = [normalise_name(name).casefold() in UNNAMED for name in typed]
    play.listed = [
        _("unnamed") if blank else normalise_name(name)[:40]
        for name, blank in zip(typed, unnamed, strict=True)
    ]
    play.unnamed = sum(unnamed)
    if play.problem:
        return
    if play.day is None:
        play.problem = _("its date can't be read (write it as 2026-12-04)")
        return
    if not seats or any(_blank(seat[3]) for seat in seats):
        play.unscored = True  # scores not kept for every player: no result to import
        return
    # Each seat without a name is a player of its own: "Unnamed 1", "Unnamed 2".
    numbered = iter(range(1, len(seats) + 1))
    typed = [
        _("Unnamed {number}").format(number=next(numbered)) if blank else name
        for name, blank in zip(typed, unnamed, strict=True)
    ]
    try:
        names = player_names(typed)
    except NameRefused as refused:
        play.problem = refused.message
        return
    if len(names) < len(seats):
        play.problem = _("a player without a name")
        return
    totals = [_total(seat[3]) for seat in seats]
    for seat, total in zip(seats, totals, strict=True):
        if total is None:
            play.problem = _(
                "the score {value} is not a whole number, nor whole numbers added up (5+9+12)"
            ).format(value=repr(clean_text(str(seat[3]))[:20]))
            return
    play.seats = [
        Seat(name, total, seat[4], blank)
        for name, total, seat, blank in zip(names, totals, seats, unnamed, strict=True)
    ]
    play.first = next((name for name, seat in zip(names, seats, strict=True) if seat[5]), "")


def _blank(score: Any) -> bool:
    return score is None or (isinstance(score, str) and not score.strip())


def _total(score: Any) -> int | None:
    if isinstance(score, bool):
        return None
    if isinstance(score, float) and score.is_integer():
        score = int(score)
    if isinstance(score, str):
        # BG Stats keeps a score as it was typed, and shows its sum: "5+9+12", "-10+7+22".
        text = "".join(score.split()).replace("\u2212", "-")
        if text.endswith(".0"):
            text = text[:-2]
        if len(text) > MOST_SUMMED or not _SUM.fullmatch(text):
            return None
        score = sum(int(term) for term in _TERM.findall(text))
    if isinstance(score, int) and abs(score) <= MOST_TOTAL:
        return score
    return None
