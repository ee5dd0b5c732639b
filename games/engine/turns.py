"""Turn order: who deals, who leads, and where the pass goes."""

from __future__ import annotations

from typing import Literal

from games.engine.rules import Rules, cards_passed


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
