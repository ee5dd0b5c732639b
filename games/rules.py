"""The rules the scorekeeper scores by: Black Maria and its Hearts relatives.

No Django here: plain data and pure functions, so the whole of the scoring can
be tested fast and reasoned about on its own. Players are addressed by seat
index (0 for seat 1, clockwise); their names are passed in only so that
messages can speak the players' language.

>>> rules = Rules()
>>> deal_total(rules, 3), moon_value(rules, 3)
(43, 43)
>>> names = ["Alice", "Ben", "Cara"]
>>> result = score_deal(rules, names, PointsEntry((17, 13, 13)))
>>> result.scores
(17, 13, 13)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Literal

# --- Words ------------------------------------------------------------------
# The engine speaks through ``_`` and ``pgettext``: as written (English) here,
# in the person's language once the web app installs its translation
# (games/apps.py). Messages are templates, filled with ``str.format``, so a
# phone checking a deal on its own (no network) can give exactly the same ones.


def gettext_noop(message: str) -> str:
    """Marks a message for translation where it is defined; translated where used."""
    return message


def _as_written(context: str, message: str) -> str:
    return message


_translate: Callable[[str], str] = gettext_noop
_translate_in_context: Callable[[str, str], str] = _as_written


def use_translation(gettext: Callable[[str], str], pgettext_: Callable[[str, str], str]) -> None:
    """Speak through these (Django's gettext and pgettext in the web app)."""
    global _translate, _translate_in_context
    _translate, _translate_in_context = gettext, pgettext_


def _(message: str) -> str:
    return _translate(message)


def pgettext(context: str, message: str) -> str:
    return _translate_in_context(context, message)


HEARTS_NOT_WHOLE = gettext_noop("{name}'s hearts must be a whole number, 0 or more")
HEARTS_SUM = gettext_noop("hearts add up to {counted}, the pack has {hearts}")
NOBODY_TOOK = gettext_noop("nobody has taken {cards} yet")
POINTS_NOT_WHOLE = gettext_noop("{names}: points must be whole numbers")
POINTS_SUM = gettext_noop("points add up to {counted}, the deal total is {total}")
AND = gettext_noop("{first} and {last}")
DEAL_PROBLEM = gettext_noop("deal {number}: {problem}")
INFEASIBLE = gettext_noop("no way of taking the cards gives {points}")
INFEASIBLE_CARDS = gettext_noop("no way of taking the cards gives {points}: check who took {cards}")
MOON_OTHERS = gettext_noop("{shooter} shoots the moon: {shooter} scores 0, {others} +{moon} each")
MOON_SELF = gettext_noop("{shooter} shoots the moon: {shooter} −{moon}, {others} 0")


def without_deal_number(problem: str, number: int) -> str:
    """A game's refusal as said of the deal being entered: without "deal 4: "."""
    prefix = _(DEAL_PROBLEM).format(number=number, problem="")
    return problem.removeprefix(prefix)


# --- Cards ------------------------------------------------------------------

SUITS = ("C", "D", "H", "S")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_NAMES = {
    "C": gettext_noop("clubs"),
    "D": gettext_noop("diamonds"),
    "H": gettext_noop("hearts"),
    "S": gettext_noop("spades"),
}
RANK_NAMES = {
    "J": gettext_noop("jack"),
    "Q": gettext_noop("queen"),
    "K": gettext_noop("king"),
    "A": gettext_noop("ace"),
}
FULL_PACK = tuple(rank + suit for suit in SUITS for rank in RANKS)

QUEEN_OF_SPADES = "QS"
KING_OF_SPADES = "KS"
ACE_OF_SPADES = "AS"
JACK_OF_DIAMONDS = "JD"
HEARTS = tuple(rank + "H" for rank in RANKS)

MIN_PLAYERS = 3
MAX_PLAYERS = 7

# Bounds no table would ever reach, so that every total fits its column.
MOST_CARD_POINTS = 1000  # Q♠ K♠ A♠ at most this, J♦ at least minus this
MOST_TARGET = 10_000
MOST_DEALS = 500  # in a game, whether it ends by a number of deals or not

DEFAULT_REMOVED: dict[int, tuple[str, ...]] = {
    3: ("2C",),
    4: (),
    5: ("2C", "2D"),
    6: ("2C", "2D", "2S", "2H"),
    7: ("2C", "2D", "2S"),
}

MOON_OPTIONS = ("none", "others", "self")
HEART_OPTIONS = ("one", "spot")
PASS_DIRECTIONS = ("right", "cycle")
ENTRY_MODES = ("cards", "counts", "points")


def is_card(code: str) -> bool:
    return isinstance(code, str) and code in _CARD_SET


_CARD_SET = frozenset(FULL_PACK)


def card_label(code: str) -> str:
    """Short label with the suit symbol: ``QS`` -> ``Q♠`` (``D♠`` in Norwegian)."""
    return _rank_letter(code[:-1]) + SUIT_SYMBOLS[code[-1]]


def _rank_letter(rank: str) -> str:
    """The court cards' letters differ by language (J Q K A; Kn D K E in Norwegian)."""
    if rank == "J":
        return pgettext("card rank letter: jack", "J")
    if rank == "Q":
        return pgettext("card rank letter: queen", "Q")
    if rank == "K":
        return pgettext("card rank letter: king", "K")
    if rank == "A":
        return pgettext("card rank letter: ace", "A")
    return rank


def card_name(code: str) -> str:
    """Words for screen readers: ``QS`` -> ``queen of spades``."""
    rank = code[:-1]
    rank_name = _(RANK_NAMES[rank]) if rank in RANK_NAMES else rank
    return _("{rank} of {suit}").format(rank=rank_name, suit=_(SUIT_NAMES[code[-1]]))


def card_sort_key(code: str) -> tuple[int, int]:
    return SUITS.index(code[-1]), RANKS.index(code[:-1])


def spot_value(code: str) -> int:
    """Face value of a heart under spot hearts: 2-10, J 11, Q 12, K 13, A 14."""
    return RANKS.index(code[:-1]) + 2


def join_names(names: Sequence[str]) -> str:
    """``["Ann", "Bo", "Cy"]`` -> ``"Ann, Bo and Cy"``."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return _(AND).format(first=", ".join(names[:-1]), last=names[-1])


# --- Rules ------------------------------------------------------------------


class RulesError(ValueError):
    """Settings that cannot make a playable game; ``problems`` says why."""

    def __init__(self, problems: Sequence[str]):
        self.problems = list(problems)
        super().__init__("; ".join(self.problems))


@dataclass(frozen=True)
class Rules:
    """One table's settings (SPEC sections 1-5). Defaults are Black Maria.

    ``removed`` and ``pass_cards`` of ``None`` mean "the default for the
    number of players"; :func:`resolve` fills them in for one game.
    """

    name: str = "Black Maria"
    hearts: Literal["one", "spot"] = "one"
    queen_of_spades: int = 13
    king_of_spades: int = 10
    ace_of_spades: int = 7
    jack_of_diamonds: int = 0
    moon: Literal["none", "others", "self"] = "none"
    target: int | None = 100
    deals: int | None = None
    removed: tuple[str, ...] | None = None
    pass_cards: int | None = None
    pass_direction: Literal["right", "cycle"] = "right"

    def to_dict(self) -> dict[str, object]:
        """The ``rules`` object of the history format."""
        return {
            "name": self.name,
            "hearts": self.hearts,
            "queen_of_spades": self.queen_of_spades,
            "king_of_spades": self.king_of_spades,
            "ace_of_spades": self.ace_of_spades,
            "jack_of_diamonds": self.jack_of_diamonds,
            "moon": self.moon,
            "target": self.target,
            "deals": self.deals,
            "removed": None if self.removed is None else list(self.removed),
            "pass_cards": self.pass_cards,
            "pass_direction": self.pass_direction,
        }

    @classmethod
    def from_dict(cls, data: object) -> Rules:
        """Read a ``rules`` object; missing keys take the Black Maria default.

        Raises :class:`RulesError` naming every bad value.
        """
        if data is None:
            data = {}
        if not isinstance(data, dict):
            raise RulesError([_("the rules must be an object of settings")])
        problems: list[str] = []
        values: dict[str, object] = {}
        defaults = cls()

        name = data.get("name", defaults.name)
        if not isinstance(name, str) or not name.strip():
            problems.append(_("the ruleset's name must be some text"))
        else:
            values["name"] = name.strip()

        for key, options in (
            ("hearts", HEART_OPTIONS),
            ("moon", MOON_OPTIONS),
            ("pass_direction", PASS_DIRECTIONS),
        ):
            value = data.get(key, getattr(defaults, key))
            if value not in options:
                problems.append(
                    _("{setting} must be one of {options}").format(
                        setting=key.replace("_", " "), options=", ".join(options)
                    )
                )
            else:
                values[key] = value

        for key in ("queen_of_spades", "king_of_spades", "ace_of_spades", "jack_of_diamonds"):
            value = data.get(key, getattr(defaults, key))
            if not _is_int(value):
                problems.append(
                    _("{setting} must be a whole number").format(setting=key.replace("_", " "))
                )
            else:
                values[key] = value

        for key in ("target", "deals"):
            value = data.get(key, getattr(defaults, key))
            if value is not None and not _is_int(value):
                problems.append(_("{setting} must be a whole number or null").format(setting=key))
            else:
                values[key] = value

        removed = data.get("removed")
        if removed is not None:
            if not isinstance(removed, list) or not all(isinstance(c, str) for c in removed):
                problems.append(_("removed must be a list of card codes such as 2C"))
            else:
                values["removed"] = tuple(removed)

        pass_cards = data.get("pass_cards")
        if pass_cards is not None and not _is_int(pass_cards):
            problems.append(_("pass cards must be a whole number"))
        else:
            values["pass_cards"] = pass_cards

        if problems:
            raise RulesError(problems)
        rules = cls(**values)  # type: ignore[arg-type]
        rule_problems = rules_problems(rules)
        if rule_problems:
            raise RulesError(rule_problems)
        return rules


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def rules_problems(rules: Rules, players: int | None = None) -> list[str]:
    """Why these settings can't make a game (empty when they can).

    With ``players`` given, the pack and the pass are checked for that count.
    """
    problems: list[str] = []
    if rules.hearts not in HEART_OPTIONS:
        problems.append(_("hearts must count one point each or their face value"))
    if rules.moon not in MOON_OPTIONS:
        problems.append(_("the moon rule must be none, others or self"))
    if rules.pass_direction not in PASS_DIRECTIONS:
        problems.append(_("the pass must go to the right or follow the Hearts cycle"))
    for code, value in (
        (QUEEN_OF_SPADES, rules.queen_of_spades),
        (KING_OF_SPADES, rules.king_of_spades),
        (ACE_OF_SPADES, rules.ace_of_spades),
    ):
        if value < 0:
            problems.append(
                _("{card} can't be worth less than 0 (it is {value})").format(
                    card=card_label(code), value=value
                )
            )
        elif value > MOST_CARD_POINTS:
            problems.append(
                _("{card} can be worth at most {most} (it is {value})").format(
                    card=card_label(code), most=MOST_CARD_POINTS, value=value
                )
            )
    if rules.jack_of_diamonds > 0:
        problems.append(
            _("{card} is a bonus card: it must be worth 0 or less (it is {value})").format(
                card=card_label(JACK_OF_DIAMONDS), value=rules.jack_of_diamonds
            )
        )
    elif rules.jack_of_diamonds < -MOST_CARD_POINTS:
        problems.append(
            _("{card} can take off at most {most} (it is {value})").format(
                card=card_label(JACK_OF_DIAMONDS),
                most=MOST_CARD_POINTS,
                value=rules.jack_of_diamonds,
            )
        )
    if rules.target is None and rules.deals is None:
        problems.append(_("the game needs an end: a target score, a number of deals, or both"))
    if rules.target is not None and not 1 <= rules.target <= MOST_TARGET:
        problems.append(
            _("the target must be from 1 to {most} (it is {value})").format(
                most=MOST_TARGET, value=rules.target
            )
        )
    if rules.deals is not None and not 1 <= rules.deals <= MOST_DEALS:
        problems.append(
            _("the number of deals must be from 1 to {most} (it is {value})").format(
                most=MOST_DEALS, value=rules.deals
            )
        )
    if rules.removed is not None:
        bad = [c for c in rules.removed if not is_card(c)]
        if bad:
            problems.append(
                _("{codes} are not cards (write them like 2C, 10H)").format(
                    codes=", ".join(map(repr, bad))
                )
            )
        elif len(set(rules.removed)) != len(rules.removed):
            problems.append(_("a removed card is named twice"))
    if rules.removed is not None and len(rules.removed) > 52 - MIN_PLAYERS:
        problems.append(
            _("with {removed} cards taken out, too few are left to deal").format(
                removed=len(rules.removed)
            )
        )
    if rules.pass_cards is not None and rules.pass_cards < 0:
        problems.append(
            _("the number of cards passed can't be negative (it is {value})").format(
                value=rules.pass_cards
            )
        )
    if players is not None and not problems:
        problems.extend(_player_count_problems(rules, players))
    return problems


def _player_count_problems(rules: Rules, players: int) -> list[str]:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        return [
            _("the game is for {least} to {most} players, not {players}").format(
                least=MIN_PLAYERS, most=MAX_PLAYERS, players=players
            )
        ]
    problems = []
    removed = removed_cards(rules, players)
    cards = 52 - len(removed)
    if cards % players:
        problems.append(
            _(
                "with {removed} cards removed, {cards} cards don't deal out equally "
                "to {players} players"
            ).format(removed=len(removed), cards=cards, players=players)
        )
    elif rules.pass_cards is not None and rules.pass_cards > cards // players:
        problems.append(
            _("{players} players hold {cards} cards each, so they can't pass {passed}").format(
                players=players, cards=cards // players, passed=rules.pass_cards
            )
        )
    if not problems and cards == 0:
        problems.append(_("every card is taken out, so there is nothing to deal"))
    elif moon_value(rules, players) == 0:
        problems.append(
            _("no card left in the pack is worth points, so a game could never be scored")
        )
    return problems


def resolve(rules: Rules, players: int) -> Rules:
    """The rules for one game: removed cards and pass size fixed for its count.

    Raises :class:`RulesError` when the settings can't make that game.
    """
    problems = rules_problems(rules, players)
    if problems:
        raise RulesError(problems)
    return replace(
        rules,
        removed=removed_cards(rules, players),
        pass_cards=cards_passed(rules, players),
    )


def removed_cards(rules: Rules, players: int) -> tuple[str, ...]:
    if rules.removed is not None:
        return tuple(sorted(rules.removed, key=card_sort_key))
    return DEFAULT_REMOVED[players]


def cards_passed(rules: Rules, players: int) -> int:
    if rules.pass_cards is not None:
        return rules.pass_cards
    return 3 if players <= 4 else 2


@lru_cache(maxsize=256)
def pack(rules: Rules, players: int) -> tuple[str, ...]:
    removed = set(removed_cards(rules, players))
    return tuple(c for c in FULL_PACK if c not in removed)


def cards_each(rules: Rules, players: int) -> int:
    return len(pack(rules, players)) // players


def card_value(rules: Rules, code: str) -> int:
    """What one card is worth under these rules (0 for an ordinary card)."""
    if code.endswith("H"):
        return spot_value(code) if rules.hearts == "spot" else 1
    return {
        QUEEN_OF_SPADES: rules.queen_of_spades,
        KING_OF_SPADES: rules.king_of_spades,
        ACE_OF_SPADES: rules.ace_of_spades,
        JACK_OF_DIAMONDS: rules.jack_of_diamonds,
    }.get(code, 0)


def valued_cards(rules: Rules, players: int) -> dict[str, int]:
    """Every card in the pack that is worth something, with its value."""
    return dict(_valued_cards(rules, players))


@lru_cache(maxsize=256)
def _valued_cards(rules: Rules, players: int) -> tuple[tuple[str, int], ...]:
    # Rules are frozen, so the same settings always give the same cards;
    # scoring a game asks this for every deal.
    return tuple(
        (code, value) for code in pack(rules, players) if (value := card_value(rules, code)) != 0
    )


def hearts_in_pack(rules: Rules, players: int) -> tuple[str, ...]:
    return tuple(c for c in pack(rules, players) if c.endswith("H"))


def special_cards(rules: Rules, players: int) -> tuple[str, ...]:
    """The valued cards that are not hearts (Q♠, K♠, A♠, J♦ as the rules have them)."""
    return tuple(c for c in valued_cards(rules, players) if not c.endswith("H"))


def deal_total(rules: Rules, players: int) -> int:
    """The checksum: every valued card in the pack added up.

    >>> deal_total(Rules(), 6)
    42
    >>> deal_total(Rules(hearts="spot", queen_of_spades=25), 3)
    146
    """
    return sum(valued_cards(rules, players).values())


def moon_value(rules: Rules, players: int) -> int:
    """The positive values only: what shooting the moon is worth."""
    return sum(v for v in valued_cards(rules, players).values() if v > 0)


def bonus_value(rules: Rules, players: int) -> int:
    return sum(v for v in valued_cards(rules, players).values() if v < 0)


# --- Entries ----------------------------------------------------------------


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


class InvalidDeal(ValueError):
    """An entry that can't be scored; ``problems`` name what is wrong."""

    def __init__(self, problems: Sequence[str]):
        self.problems = list(problems)
        super().__init__("; ".join(self.problems))


@dataclass(frozen=True)
class DealResult:
    raw: tuple[int, ...]
    scores: tuple[int, ...]
    moon: int | None  # seat of the shooter when a moon was scored


@dataclass(frozen=True)
class DealCheck:
    """The live check while entering: "37 of 43" and what is still wrong."""

    counted: int
    total: int
    problems: tuple[str, ...]
    result: DealResult | None

    @property
    def valid(self) -> bool:
        return self.result is not None


def check_deal(rules: Rules, names: Sequence[str], entry: Entry) -> DealCheck:
    """Validate and score an entry without raising."""
    players = len(names)
    total = deal_total(rules, players)
    if entry.mode == "cards":
        counted, problems, raw = _check_cards(rules, names, entry)
    elif entry.mode == "counts":
        counted, problems, raw = _check_counts(rules, names, entry)
    else:
        counted, problems, raw = _check_points(rules, names, entry)
    if problems or raw is None:
        return DealCheck(counted, total, tuple(problems), None)
    # With no moon rule a clean sweep is just points: no moon is scored.
    shooter = None if rules.moon == "none" else _moon_shooter(rules, players, entry, raw)
    scores = _apply_moon(rules, players, raw, shooter)
    return DealCheck(counted, total, (), DealResult(tuple(raw), tuple(scores), shooter))


def score_deal(rules: Rules, names: Sequence[str], entry: Entry) -> DealResult:
    """Score a valid entry, or raise :class:`InvalidDeal` naming the problems."""
    check = check_deal(rules, names, entry)
    if check.result is None:
        raise InvalidDeal(check.problems)
    return check.result


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


def _missing_cards_problem(missing: Sequence[str]) -> list[str]:
    if not missing:
        return []
    labels = [card_label(c) for c in sorted(missing, key=card_sort_key)]
    return [_(NOBODY_TOOK).format(cards=join_names(labels))]


def _check_cards(
    rules: Rules, names: Sequence[str], entry: CardsEntry
) -> tuple[int, list[str], list[int] | None]:
    players = len(names)
    problems = _seat_count_problem(names, len(entry.cards), "cards")
    if problems:
        return 0, problems, None
    owners, problems = _card_takers(rules, names, entry.cards, allow_hearts=True)
    values = valued_cards(rules, players)
    raw = [0] * players
    for code, seat in owners.items():
        raw[seat] += values.get(code, 0)
    counted = sum(raw)
    problems += _missing_cards_problem([c for c in values if c not in owners])
    return counted, problems, None if problems else raw


def _check_counts(
    rules: Rules, names: Sequence[str], entry: CountsEntry
) -> tuple[int, list[str], list[int] | None]:
    players = len(names)
    if rules.hearts != "one":
        return (
            0,
            [_("hearts count their face value here: enter the cards or the points instead")],
            None,
        )
    problems = _seat_count_problem(names, len(entry.hearts), "hearts")
    problems += _seat_count_problem(names, len(entry.cards), "cards")
    if problems:
        return 0, problems, None
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
    problems += _missing_cards_problem(
        [c for c in special_cards(rules, players) if c not in owners]
    )
    return sum(raw), problems, None if problems else raw


def _check_points(
    rules: Rules, names: Sequence[str], entry: PointsEntry
) -> tuple[int, list[str], list[int] | None]:
    players = len(names)
    problems = _seat_count_problem(names, len(entry.points), "points")
    if problems:
        return 0, problems, None
    bad = [names[s] for s, p in enumerate(entry.points) if not _is_int(p)]
    if bad:
        return 0, [_(POINTS_NOT_WHOLE).format(names=join_names(bad))], None
    counted = sum(entry.points)
    total = deal_total(rules, players)
    if counted != total:
        return counted, [_(POINTS_SUM).format(counted=counted, total=total)], None
    if not points_feasible(rules, players, entry.points):
        return counted, [_infeasible_message(rules, names, entry.points)], None
    return counted, [], list(entry.points)


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


def _moon_shooter(rules: Rules, players: int, entry: Entry, raw: Sequence[int]) -> int | None:
    """The seat that took every positive card, if any."""
    moon = moon_value(rules, players)
    if moon <= 0:
        return None
    bonus = bonus_value(rules, players)
    if entry.mode == "points":
        # Recognised when one player holds the whole moon value (plus the bonus
        # if they may have it) and everyone else 0 (or the bonus).
        for seat, points in enumerate(raw):
            if points in (moon, moon + bonus) and all(
                p in (0, bonus) for s, p in enumerate(raw) if s != seat
            ):
                return seat
        return None
    positive = {c for c, v in valued_cards(rules, players).items() if v > 0}
    for seat in range(players):
        if entry.mode == "cards":
            taken = set(entry.cards[seat])
            if positive <= taken:
                return seat
        else:
            positive_specials = {c for c in positive if not c.endswith("H")}
            hearts = len(hearts_in_pack(rules, players))
            if entry.hearts[seat] == hearts and positive_specials <= set(entry.cards[seat]):
                return seat
    return None


def _apply_moon(rules: Rules, players: int, raw: Sequence[int], shooter: int | None) -> list[int]:
    if shooter is None or rules.moon == "none":
        return list(raw)
    moon = moon_value(rules, players)
    scores = []
    for seat, points in enumerate(raw):
        if seat == shooter:
            # The bonus card, if the shooter took it, still counts.
            kept = points - moon
            scores.append(kept if rules.moon == "others" else kept - moon)
        else:
            scores.append(points + moon if rules.moon == "others" else points)
    return scores


def moon_summary(names: Sequence[str], result: DealResult, rules: Rules) -> str | None:
    """ "Cara shoots the moon: Cara scores 0, Alice and Ben +43 each", or None without a moon."""
    if result.moon is None:
        return None
    shooter = names[result.moon]
    moon = moon_value(rules, len(names))
    others = [n for s, n in enumerate(names) if s != result.moon]
    # Says what the shooter scores, so the "43" taken is never read as theirs.
    if rules.moon == "others":
        return _(MOON_OTHERS).format(shooter=shooter, moon=moon, others=join_names(others))
    return _(MOON_SELF).format(shooter=shooter, moon=moon, others=join_names(others))


# --- Turn order -------------------------------------------------------------


def dealer(first_dealer: int, players: int, number: int) -> int:
    """Seat of the dealer of deal ``number`` (1-based): the deal moves left."""
    return (first_dealer + number - 1) % players


def leader(first_dealer: int, players: int, number: int) -> int:
    """The player to the dealer's left leads the first trick."""
    return (dealer(first_dealer, players, number) + 1) % players


PassDirection = Literal["right", "left", "across", "hold"]


def pass_direction(rules: Rules, players: int, number: int) -> PassDirection:
    """Where the pass goes in deal ``number``.

    Black Maria always passes right; the Hearts cycle goes left, right,
    across (with an even count), hold.
    """
    if rules.pass_direction == "right":
        return "right"
    cycle: tuple[PassDirection, ...] = (
        ("left", "right", "across", "hold") if players % 2 == 0 else ("left", "right", "hold")
    )
    return cycle[(number - 1) % len(cycle)]


def pass_receiver(rules: Rules, players: int, number: int, seat: int) -> int | None:
    """The seat that receives ``seat``'s pass in deal ``number`` (None: hold)."""
    direction = pass_direction(rules, players, number)
    if direction == "hold" or cards_passed(rules, players) == 0:
        return None
    step = {"left": 1, "right": -1, "across": players // 2}[direction]
    return (seat + step) % players


# --- Whole games ------------------------------------------------------------


TOO_MANY_DEALS = gettext_noop("a game holds at most {most} deals: start a new game")


class GameError(ValueError):
    """A sequence of deals that breaks the game's rules; ``problems`` say why."""

    def __init__(self, problems: Sequence[str], deal: int | None = None):
        self.problems = list(problems)
        self.deal = deal
        super().__init__("; ".join(self.problems))


@dataclass(frozen=True)
class ScoredDeal:
    number: int
    dealer: int
    leader: int
    result: DealResult
    totals: tuple[int, ...]


@dataclass(frozen=True)
class GameState:
    deals: tuple[ScoredDeal, ...]
    totals: tuple[int, ...]
    finished: bool
    winners: tuple[int, ...]
    next_number: int | None  # None once finished

    def next_dealer(self, first_dealer: int, players: int) -> int | None:
        if self.next_number is None:
            return None
        return dealer(first_dealer, players, self.next_number)


def game_over(rules: Rules, totals: Sequence[int], deals_played: int) -> bool:
    """The end rule: a target reached or passed, or the fixed deals all played."""
    if rules.target is not None and any(t >= rules.target for t in totals):
        return True
    return rules.deals is not None and deals_played >= rules.deals


def winners(totals: Sequence[int]) -> tuple[int, ...]:
    """Everyone tied on the lowest total shares the win."""
    best = min(totals)
    return tuple(s for s, t in enumerate(totals) if t == best)


def score_game(
    rules: Rules,
    names: Sequence[str],
    first_dealer: int,
    entries: Sequence[Entry],
    *,
    played: int = 0,
    totals_before: Sequence[int] | None = None,
) -> GameState:
    """Score every deal in order and decide whether the game is over.

    ``played`` deals may already be scored, leaving ``totals_before``: then
    ``entries`` are the deals after them, and only those are checked (the
    returned state lists only them). Raises :class:`GameError` when a deal is
    invalid (``deal`` is its number) or when the game would end before its
    last recorded deal.
    """
    players = len(names)
    totals = list(totals_before) if totals_before is not None else [0] * players
    scored: list[ScoredDeal] = []
    if played + len(entries) > MOST_DEALS:
        raise GameError(
            [_(TOO_MANY_DEALS).format(most=MOST_DEALS)],
            deal=min(played + len(entries), MOST_DEALS + 1),
        )
    for number, entry in enumerate(entries, start=played + 1):
        if number > 1 and game_over(rules, totals, number - 1):
            raise GameError(
                [_ended_early_message(rules, names, totals, number - 1, played + len(entries))]
            )
        check = check_deal(rules, names, entry)
        if check.result is None:
            raise GameError(
                [_(DEAL_PROBLEM).format(number=number, problem=p) for p in check.problems],
                deal=number,
            )
        totals = [t + s for t, s in zip(totals, check.result.scores, strict=True)]
        scored.append(
            ScoredDeal(
                number=number,
                dealer=dealer(first_dealer, players, number),
                leader=leader(first_dealer, players, number),
                result=check.result,
                totals=tuple(totals),
            )
        )
    count = played + len(scored)
    finished = count > 0 and game_over(rules, totals, count)
    return GameState(
        deals=tuple(scored),
        totals=tuple(totals),
        finished=finished,
        winners=winners(totals) if finished else (),
        next_number=None if finished else count + 1,
    )


def _ended_early_message(
    rules: Rules, names: Sequence[str], totals: Sequence[int], ended_after: int, recorded: int
) -> str:
    if rules.target is not None and any(t >= rules.target for t in totals):
        over = [
            _("{name} has {total}").format(name=n, total=t)
            for n, t in zip(names, totals, strict=True)
            if t >= rules.target
        ]
        reason = _("{players}, reaching the target of {target}").format(
            players=join_names(over), target=rules.target
        )
    else:
        reason = _("the {deals} deals of the game are played").format(deals=rules.deals)
    return _(
        "the game would end after deal {ended_after} ({reason}), but {recorded} deals are recorded"
    ).format(ended_after=ended_after, reason=reason, recorded=recorded)
