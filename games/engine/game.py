"""A whole game: every deal scored in order, the end and the winners."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.engine.entries import Entry
from games.engine.rules import MOST_DEALS, Rules
from games.engine.scoring import DealResult, check_deal
from games.engine.turns import dealer, leader
from games.engine.words import DEAL_PROBLEM, Refusal, _, gettext_noop, join_names, ngettext

TOO_MANY_DEALS = gettext_noop("a game holds at most {most} deals: start a new game")


class GameError(Refusal):
    """A sequence of deals that breaks the game's rules; ``problems`` say why."""

    def __init__(self, problems: Sequence[str], deal: int | None = None):
        super().__init__(problems)
        self.deal = deal


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
        reason = ngettext(
            "the {deals} deal of the game is played",
            "the {deals} deals of the game are played",
            rules.deals or 0,
        ).format(deals=rules.deals)
    return _(
        "the game would end after deal {ended_after} ({reason}), but {recorded} deals are recorded"
    ).format(ended_after=ended_after, reason=reason, recorded=recorded)
