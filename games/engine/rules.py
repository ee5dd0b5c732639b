"""A table's rules (SPEC sections 1-5): the settings, their bounds and problems,
and what they make of the pack for a number of players (its values, the deal
total, the moon).

>>> rules = Rules()
>>> deal_total(rules, 3), moon_value(rules, 3)
(43, 43)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Literal

from games.engine.cards import (
    ACE_OF_SPADES,
    FULL_PACK,
    JACK_OF_DIAMONDS,
    KING_OF_SPADES,
    QUEEN_OF_SPADES,
    card_label,
    card_sort_key,
    is_card,
    spot_value,
)
from games.engine.words import Refusal, _, gettext_noop

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


@dataclass(frozen=True)
class Option:
    """One of the rules' settings, as every layer reads it: the history file
    (:meth:`Rules.from_dict`), the database's column (games/models.py) and the
    ruleset form (games/forms/rulesets.py) all follow from it. Its default is the
    :class:`Rules` field's.

    ``kind``: "choice" (one of ``choices``, each a value and its words), "whole" (a
    whole number, ``least`` or more when given) or "cards" (card codes). An
    ``optional`` one may be None (blank on the form). ``label`` and ``help`` are
    the form's words, marked for translation here and translated where shown.
    """

    label: str
    kind: Literal["choice", "whole", "cards"] = "whole"
    choices: tuple[tuple[str, str], ...] = ()
    least: int | None = 0
    optional: bool = False
    help: str = ""

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(value for value, _words in self.choices)


RULE_OPTIONS: dict[str, Option] = {
    "hearts": Option(
        gettext_noop("Hearts"),
        "choice",
        choices=(
            ("one", gettext_noop("one point each")),
            ("spot", gettext_noop("face value (spot hearts)")),
        ),
    ),
    "queen_of_spades": Option(gettext_noop("Q♠ (Black Maria)")),
    "king_of_spades": Option(gettext_noop("K♠")),
    "ace_of_spades": Option(gettext_noop("A♠")),
    "jack_of_diamonds": Option(gettext_noop("J♦ bonus (Omnibus, 0 or less)"), least=None),
    "moon": Option(
        gettext_noop("Shooting the moon"),
        "choice",
        choices=(
            ("none", gettext_noop("no moon")),
            ("others", gettext_noop("moon: the others add the moon value")),
            ("self", gettext_noop("moon: the shooter subtracts the moon value")),
        ),
    ),
    "target": Option(
        gettext_noop("Game ends at (points)"),
        optional=True,
        help=gettext_noop("Blank for no target."),
    ),
    "deals": Option(
        gettext_noop("or after this many deals"),
        optional=True,
        help=gettext_noop("Blank to play to the target."),
    ),
    "removed": Option(
        gettext_noop("Cards taken out"),
        "cards",
        optional=True,
        help=gettext_noop(
            "Blank for the usual ones (2♣ with three players…), or codes like 2C 2D."
        ),
    ),
    "pass_cards": Option(
        gettext_noop("Cards passed"),
        optional=True,
        help=gettext_noop("Blank: 3 with three or four players, 2 with more."),
    ),
    "pass_direction": Option(
        gettext_noop("Pass"),
        "choice",
        choices=(
            ("right", gettext_noop("to the right, every deal")),
            ("cycle", gettext_noop("Hearts cycle")),
        ),
    ),
}

MOON_OPTIONS = RULE_OPTIONS["moon"].values
HEART_OPTIONS = RULE_OPTIONS["hearts"].values
PASS_DIRECTIONS = RULE_OPTIONS["pass_direction"].values


class RulesError(Refusal):
    """Settings that cannot make a playable game; ``problems`` says why."""


@dataclass(frozen=True)
class Rules:
    """One table's settings (SPEC sections 1-5). Defaults are Black Maria; each
    setting but the name is described in :data:`RULE_OPTIONS`.

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

    @classmethod
    def of(cls, name: str, settings: Mapping[str, object]) -> Rules:
        """Rules named ``name`` from each option's value in ``settings`` (a ruleset's
        row, a form's values; card codes in any sequence), the default where missing."""
        values: dict[str, object] = {"name": name}
        for key, option in RULE_OPTIONS.items():
            if key in settings:
                value = settings[key]
                if option.kind == "cards" and value is not None:
                    value = tuple(value)  # type: ignore[arg-type]
                values[key] = value
        return cls(**values)  # type: ignore[arg-type]

    def to_dict(self) -> dict[str, object]:
        """The ``rules`` object of the history format."""
        found: dict[str, object] = {"name": self.name}
        for key, option in RULE_OPTIONS.items():
            value = getattr(self, key)
            found[key] = list(value) if option.kind == "cards" and value is not None else value
        return found

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

        for key, option in RULE_OPTIONS.items():
            value = data.get(key, getattr(defaults, key))
            setting = key.replace("_", " ")
            if option.kind == "choice" and value not in option.values:
                problems.append(
                    _("{setting} must be one of {options}").format(
                        setting=setting, options=", ".join(option.values)
                    )
                )
            elif (
                option.kind == "cards"
                and value is not None
                and (not isinstance(value, list) or not all(isinstance(c, str) for c in value))
            ):
                problems.append(
                    _("{setting} must be a list of card codes such as 2C").format(setting=setting)
                )
            elif option.kind == "whole" and not (
                _is_int(value) or (option.optional and value is None)
            ):
                if option.optional:
                    problems.append(
                        _("{setting} must be a whole number or null").format(setting=setting)
                    )
                else:
                    problems.append(_("{setting} must be a whole number").format(setting=setting))
            else:
                values[key] = value

        if problems:
            raise RulesError(problems)
        rules = cls.of(values.pop("name"), values)  # type: ignore[arg-type]
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


@lru_cache(maxsize=256)  # asked for every deal scored; rules are frozen
def hearts_in_pack(rules: Rules, players: int) -> tuple[str, ...]:
    return tuple(c for c in pack(rules, players) if c.endswith("H"))


@lru_cache(maxsize=256)  # asked for every deal scored; rules are frozen
def special_cards(rules: Rules, players: int) -> tuple[str, ...]:
    """The valued cards that are not hearts (Q♠, K♠, A♠, J♦ as the rules have them)."""
    return tuple(c for c in valued_cards(rules, players) if not c.endswith("H"))


@lru_cache(maxsize=256)  # asked for every deal scored; rules are frozen
def deal_total(rules: Rules, players: int) -> int:
    """The checksum: every valued card in the pack added up.

    >>> deal_total(Rules(), 6)
    42
    >>> deal_total(Rules(hearts="spot", queen_of_spades=25), 3)
    146
    """
    return sum(valued_cards(rules, players).values())


@lru_cache(maxsize=256)  # asked for every deal scored; rules are frozen
def moon_value(rules: Rules, players: int) -> int:
    """The positive values only: what shooting the moon is worth."""
    return sum(v for v in valued_cards(rules, players).values() if v > 0)


@lru_cache(maxsize=256)  # asked for every deal scored; rules are frozen
def bonus_value(rules: Rules, players: int) -> int:
    return sum(v for v in valued_cards(rules, players).values() if v < 0)


def playable_counts(rules: Rules) -> list[int]:
    """The numbers of players these rules deal for.

    >>> playable_counts(Rules())
    [3, 4, 5, 6, 7]
    """
    return [n for n in range(MIN_PLAYERS, MAX_PLAYERS + 1) if not rules_problems(rules, n)]
