"""The rules the scorekeeper scores by: Black Maria and its Hearts relatives.

No Django anywhere in this package: plain data and pure functions, so the
whole of the scoring can be tested fast and reasoned about on its own.
Players are addressed by seat index (0 for seat 1, clockwise); their names
are passed in only so that messages can speak the players' language.

The rules by section, each a module: ``words`` (the messages), ``cards``
(the pack), ``rules`` (the settings and what they make of the pack),
``entries`` (reading an entered deal), ``scoring`` (a deal's scores and the
moon), ``turns`` (dealer, leader, pass) and ``game`` (a whole game and its
end). They are gathered here, so callers write ``engine.score_deal``. Beside
them, not gathered: ``ratings`` (the ladder's maths), ``clubnight`` (the
split and seating of a club night, its standings) and ``chart`` (the score
chart's geometry).

>>> rules = Rules()
>>> deal_total(rules, 3), moon_value(rules, 3)
(43, 43)
>>> score_deal(rules, ["Alice", "Ben", "Cara"], PointsEntry((17, 13, 13))).scores
(17, 13, 13)
"""

from games.engine.cards import (
    ACE_OF_SPADES,
    FULL_PACK,
    HEARTS,
    JACK_OF_DIAMONDS,
    KING_OF_SPADES,
    QUEEN_OF_SPADES,
    RANK_NAMES,
    RANKS,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    SUITS,
    card_label,
    card_name,
    card_sort_key,
    is_card,
    spot_value,
)
from games.engine.entries import (
    ENTRY_MODES,
    CardsEntry,
    CountsEntry,
    Entry,
    PointsEntry,
    entry_from_data,
    points_feasible,
)
from games.engine.game import GameError, GameState, ScoredDeal, game_over, score_game, winners
from games.engine.rules import (
    DEFAULT_REMOVED,
    HEART_OPTIONS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MOON_OPTIONS,
    MOST_CARD_POINTS,
    MOST_DEALS,
    MOST_TARGET,
    PASS_DIRECTIONS,
    Rules,
    RulesError,
    bonus_value,
    card_value,
    cards_each,
    cards_passed,
    deal_total,
    hearts_in_pack,
    moon_value,
    pack,
    playable_counts,
    removed_cards,
    resolve,
    rules_problems,
    special_cards,
    valued_cards,
)
from games.engine.scoring import (
    DealCheck,
    DealResult,
    InvalidDeal,
    check_deal,
    moon_summary,
    score_deal,
)
from games.engine.turns import PassDirection, dealer, leader, pass_direction, pass_receiver
from games.engine.words import (
    AND,
    DEAL_PROBLEM,
    HEARTS_NOT_WHOLE,
    HEARTS_SUM,
    INFEASIBLE,
    INFEASIBLE_CARDS,
    MOON_OTHERS,
    MOON_SELF,
    NOBODY_TOOK,
    POINTS_NOT_WHOLE,
    POINTS_SUM,
    gettext_noop,
    join_names,
    use_translation,
    without_deal_number,
)

__all__ = [
    "ACE_OF_SPADES",
    "AND",
    "DEAL_PROBLEM",
    "DEFAULT_REMOVED",
    "ENTRY_MODES",
    "FULL_PACK",
    "HEARTS",
    "HEARTS_NOT_WHOLE",
    "HEARTS_SUM",
    "HEART_OPTIONS",
    "INFEASIBLE",
    "INFEASIBLE_CARDS",
    "JACK_OF_DIAMONDS",
    "KING_OF_SPADES",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "MOON_OPTIONS",
    "MOON_OTHERS",
    "MOON_SELF",
    "MOST_CARD_POINTS",
    "MOST_DEALS",
    "MOST_TARGET",
    "NOBODY_TOOK",
    "PASS_DIRECTIONS",
    "POINTS_NOT_WHOLE",
    "POINTS_SUM",
    "QUEEN_OF_SPADES",
    "RANKS",
    "RANK_NAMES",
    "SUITS",
    "SUIT_NAMES",
    "SUIT_SYMBOLS",
    "CardsEntry",
    "CountsEntry",
    "DealCheck",
    "DealResult",
    "Entry",
    "GameError",
    "GameState",
    "InvalidDeal",
    "PassDirection",
    "PointsEntry",
    "Rules",
    "RulesError",
    "ScoredDeal",
    "bonus_value",
    "card_label",
    "card_name",
    "card_sort_key",
    "card_value",
    "cards_each",
    "cards_passed",
    "check_deal",
    "deal_total",
    "dealer",
    "entry_from_data",
    "game_over",
    "gettext_noop",
    "hearts_in_pack",
    "is_card",
    "join_names",
    "leader",
    "moon_summary",
    "moon_value",
    "pack",
    "pass_direction",
    "pass_receiver",
    "playable_counts",
    "points_feasible",
    "removed_cards",
    "resolve",
    "rules_problems",
    "score_deal",
    "score_game",
    "special_cards",
    "spot_value",
    "use_translation",
    "valued_cards",
    "winners",
    "without_deal_number",
]
