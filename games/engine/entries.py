"""Reading an entered deal: the three ways of entering it (cards, counts,
points) and what each says, or what is wrong with it, in players' words."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from games.engine.cards import card_label, card_sort_key, is_card
from games.engine.rules import (
    Rules,
    _is_int,
    card_value,
    deal_total,
    hearts_in_pack,
    pack,
    removed_cards,
    special_cards,
    valued_cards,
)
from games.engine.words import (
    HEARTS_NOT_WHOLE,
    HEARTS_SUM,
    INFEASIBLE,
    INFEASIBLE_CARDS,
    NOBODY_TOOK,
    POINTS_NOT_WHOLE,
    POINTS_SUM,
    _,
    gettext_noop,
    join_names,
)

ENTRY_MODES = ("cards", "counts", "points")


@dataclass(frozen=True)
class CardsEntry:
    """For each seat, the valued cards that player took."""

    cards: tuple[tuple[str, ...], ...]
    mode: Literal["cards"] = field(default="cards", init=False)

    def to_data(self) -> list[list[str]]:
        return [list(c) for c in self.cards]


@dataclass(frozen=True)
class CountsEntry:
    """For each seat, the number of hearts and the valued non-heart cards."""

    hearts: tuple[int, ...]
    cards: tuple[tuple[str, ...], ...]
    mode: Literal["counts"] = field(default="counts", init=False)

    def to_data(self) -> dict[str, list]:
        return {"hearts": list(self.hearts), "cards": [list(c) for c in self.cards]}


@dataclass(frozen=True)
class PointsEntry:
    """For each seat, the raw points counted on paper."""

    points: tuple[int, ...]
    mode: Literal["points"] = field(default="points", init=False)

    def to_data(self) -> list[int]:
        return list(self.points)


Entry = CardsEntry | CountsEntry | PointsEntry


def entry_from_data(mode: str, data: object) -> Entry:
    """Rebuild an entry from what :meth:`to_data` stored."""
    if mode == "cards":
        return CardsEntry(tuple(tuple(c) for c in data))  # type: ignore[union-attr]
    if mode == "counts":
        return CountsEntry(
            tuple(data["hearts"]),  # type: ignore[index]
            tuple(tuple(c) for c in data["cards"]),  # type: ignore[index]
        )
    if mode == "points":
        return PointsEntry(tuple(data))  # type: ignore[arg-type]
    raise ValueError(f"unknown entry mode {mode!r}")


SEAT_COUNT = {
    "cards": gettext_noop("cards are given for {given} players, but {players} are playing"),
    "hearts": gettext_noop("hearts are given for {given} players, but {players} are playing"),
    "points": gettext_noop("points are given for {given} players, but {players} are playing"),
}


def _seat_count_problem(names: Sequence[str], given: int, what: str) -> list[str]:
    if given != len(names):
        return [_(SEAT_COUNT[what]).format(given=given, players=len(names))]
    return []


def _card_takers(
    rules: Rules,
    names: Sequence[str],
    per_seat: Sequence[Iterable[str]],
    *,
    allow_hearts: bool,
) -> tuple[dict[str, int], list[str]]:
    """Who took each named card, and problems with the naming."""
    players = len(names)
    in_pack = set(pack(rules, players))
    removed = removed_cards(rules, players)
    takers: dict[str, list[int]] = {}
    problems: list[str] = []
    for seat, cards in enumerate(per_seat):
        for code in cards:
            if not is_card(code):
                problems.append(
                    _("{code} given to {name} is not a card").format(
                        code=repr(code), name=names[seat]
                    )
                )
                continue
            if code not in in_pack:
                message = (
                    _("{card} is not in the pack: {cards} are taken out for {players} players")
                    if len(removed) > 1
                    else _("{card} is not in the pack for {players} players")
                )
                problems.append(
                    message.format(
                        card=card_label(code),
                        cards=join_names([card_label(c) for c in removed]),
                        players=players,
                    )
                )
                continue
            if not allow_hearts and code.endswith("H"):
                problems.append(
                    _("{card} is a heart: count it in {name}'s hearts").format(
                        card=card_label(code), name=names[seat]
                    )
                )
                continue
            takers.setdefault(code, []).append(seat)
    owners: dict[str, int] = {}
    for code in sorted(takers, key=card_sort_key):
        seats = takers[code]
        if len(seats) > 1:
            if len(set(seats)) == 1:
                problems.append(
                    _("{card} is given to {name} twice").format(
                        card=card_label(code), name=names[seats[0]]
                    )
                )
            else:
                who = join_names([names[s] for s in dict.fromkeys(seats)])
                problems.append(
                    _("{card} is given to both {names}").format(card=card_label(code), names=who)
                )
        # A doubled card is reported once, as doubled, not also as missing.
        owners[code] = seats[0]
    return owners, problems


def missing_cards_problem(missing: Sequence[str]) -> list[str]:
    """ "nobody has taken A♠ yet": what a save of an unfinished entry is refused for."""
    if not missing:
        return []
    labels = [card_label(c) for c in sorted(missing, key=card_sort_key)]
    return [_(NOBODY_TOOK).format(cards=join_names(labels))]


# What a reader finds: the count so far, what can't be right, the cards nobody has
# taken yet, and the raw points once the entry is whole and right.
Reading = tuple[int, list[str], list[str], list[int] | None]


def read_cards(rules: Rules, names: Sequence[str], entry: CardsEntry) -> Reading:
    players = len(names)
    problems = _seat_count_problem(names, len(entry.cards), "cards")
    if problems:
        return 0, problems, [], None
    owners, problems = _card_takers(rules, names, entry.cards, allow_hearts=True)
    values = valued_cards(rules, players)
    raw = [0] * players
    for code, seat in owners.items():
        raw[seat] += values.get(code, 0)
    missing = [c for c in values if c not in owners]
    return sum(raw), problems, missing, None if problems or missing else raw


def read_counts(rules: Rules, names: Sequence[str], entry: CountsEntry) -> Reading:
    players = len(names)
    if rules.hearts != "one":
        return (
            0,
            [_("hearts count their face value here: enter the cards or the points instead")],
            [],
            None,
        )
    problems = _seat_count_problem(names, len(entry.hearts), "hearts")
    problems += _seat_count_problem(names, len(entry.cards), "cards")
    if problems:
        return 0, problems, [], None
    raw = [0] * players
    heart_value = 1
    for seat, count in enumerate(entry.hearts):
        if not _is_int(count) or count < 0:
            problems.append(_(HEARTS_NOT_WHOLE).format(name=names[seat]))
        else:
            raw[seat] += count * heart_value
    hearts = len(hearts_in_pack(rules, players))
    counted_hearts = sum(raw)
    if not problems and counted_hearts != hearts:
        problems.append(_(HEARTS_SUM).format(counted=counted_hearts, hearts=hearts))
    owners, card_problems = _card_takers(rules, names, entry.cards, allow_hearts=False)
    problems += card_problems
    values = valued_cards(rules, players)
    for code, seat in owners.items():
        raw[seat] += values.get(code, 0)
    missing = [c for c in special_cards(rules, players) if c not in owners]
    return sum(raw), problems, missing, None if problems or missing else raw


def read_points(rules: Rules, names: Sequence[str], entry: PointsEntry) -> Reading:
    players = len(names)
    problems = _seat_count_problem(names, len(entry.points), "points")
    if problems:
        return 0, problems, [], None
    bad = [names[s] for s, p in enumerate(entry.points) if not _is_int(p)]
    if bad:
        return 0, [_(POINTS_NOT_WHOLE).format(names=join_names(bad))], [], None
    counted = sum(entry.points)
    total = deal_total(rules, players)
    if counted != total:
        return counted, [_(POINTS_SUM).format(counted=counted, total=total)], [], None
    if not points_feasible(rules, players, entry.points):
        return counted, [_infeasible_message(rules, names, entry.points)], [], None
    return counted, [], [], list(entry.points)


def _infeasible_message(rules: Rules, names: Sequence[str], points: Sequence[int]) -> str:
    shown = " / ".join(f"{n} {p}" for n, p in zip(names, points, strict=True))
    specials = special_cards(rules, len(names))
    positive = [c for c in specials if card_value(rules, c) > 0]
    if positive:
        cards = join_names([card_label(c) for c in positive])
        return _(INFEASIBLE_CARDS).format(points=shown, cards=cards)
    return _(INFEASIBLE).format(points=shown)


def points_feasible(rules: Rules, players: int, points: Sequence[int]) -> bool:
    """Could some way of dealing out the valued cards give exactly these points?

    >>> points_feasible(Rules(), 3, (12, 12, 19))
    True
    >>> points_feasible(Rules(), 4, (11, 11, 11, 10))
    False
    """
    return _feasible(rules, players, tuple(points))


@lru_cache(maxsize=4096)  # a table's deals come out the same way again and again
def _feasible(rules: Rules, players: int, points: tuple[int, ...]) -> bool:
    specials = special_cards(rules, players)
    values = valued_cards(rules, players)
    heart_values = tuple(sorted((values[c] for c in hearts_in_pack(rules, players)), reverse=True))
    for owners in itertools.product(range(players), repeat=len(specials)):
        need = list(points)
        for code, seat in zip(specials, owners, strict=True):
            need[seat] -= values[code]
        if any(n < 0 for n in need):
            continue
        if rules.hearts == "one":
            if sum(need) == len(heart_values):
                return True
        elif _hearts_can_make(heart_values, tuple(sorted(need, reverse=True))):
            return True
    return False


@lru_cache(maxsize=4096)
def _hearts_can_make(hearts: tuple[int, ...], need: tuple[int, ...]) -> bool:
    """Can the heart values be split so that seat i gets exactly ``need[i]``?

    Depth-first over the hearts, largest first; needs are kept sorted so that
    seats with equal needs are tried once.
    """
    if not hearts:
        return all(n == 0 for n in need)
    if sum(need) != sum(hearts):
        return False
    first, rest = hearts[0], hearts[1:]
    tried: set[int] = set()
    for i, n in enumerate(need):
        if n >= first and n not in tried:
            tried.add(n)
            new_need = list(need)
            new_need[i] -= first
            if _hearts_can_make(rest, tuple(sorted(new_need, reverse=True))):
                return True
    return False
