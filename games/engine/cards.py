"""The pack: suits, ranks, card codes (``QS``) and how a card is written and read out."""

from __future__ import annotations

from games.engine.words import _, gettext_noop, pgettext

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
