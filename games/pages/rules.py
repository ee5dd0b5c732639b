"""A ruleset in words: a line from its settings, what it makes for each number of
players, and the one warning when a number of deals doesn't go round evenly."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import engine


def uneven_deals(deals: int | str, players: int | str, *, count: int | None = None) -> str:
    """Said where deals are chosen (New game, the rules form) and after the start.

    The New game screen fills in ``{deals}`` and ``{players}`` as they change,
    from the sentence for one deal and the one for more (``count`` picks it).
    """
    return ngettext(
        "{deals} deal for {players} players: not everyone deals the same number of times.",
        "{deals} deals for {players} players: not everyone deals the same number of times.",
        deals if count is None else count,  # type: ignore[arg-type]
    ).format(deals=deals, players=players)


def the_end(rules: engine.Rules) -> str:
    """ "to 100", "to 100 or 12 deals", "12 deals"."""
    if rules.target is not None and rules.deals is not None:
        return ngettext(
            "to {target} or {deals} deal", "to {target} or {deals} deals", rules.deals
        ).format(target=rules.target, deals=rules.deals)
    if rules.target is not None:
        return _("to {target}").format(target=rules.target)
    return ngettext("{count} deal", "{count} deals", rules.deals).format(count=rules.deals)


def moon_words() -> dict[str, str]:
    """Each moon rule in a few words, as a ruleset's line says it."""
    return {
        "none": _("no moon"),
        "others": _("moon: the others add"),
        "self": _("moon: off the shooter"),
    }


def describe_rules(rules: engine.Rules) -> str:
    """A ruleset in a line, from its settings (so it never contradicts them).

    The deal total and the pass depend on the number of players: the game
    page says those for its own table.
    """
    values = [
        _("hearts at face value") if rules.hearts == "spot" else _("hearts 1 each"),
        *(
            f"{engine.card_label(code)} {value}".replace("-", "−")
            for code, value in (
                (engine.QUEEN_OF_SPADES, rules.queen_of_spades),
                (engine.KING_OF_SPADES, rules.king_of_spades),
                (engine.ACE_OF_SPADES, rules.ace_of_spades),
                (engine.JACK_OF_DIAMONDS, rules.jack_of_diamonds),
            )
            if value
        ),
    ]
    moon = moon_words()[rules.moon]
    passing = (
        _("pass to the right") if rules.pass_direction == "right" else _("pass in the Hearts cycle")
    )
    return " · ".join([", ".join(values), moon, the_end(rules), passing])


@dataclass(frozen=True)
class CountSummary:
    players: int
    deal_total: int
    moon_value: int
    removed: str
    pass_cards: int
    warning: str


def ruleset_summary(rules: engine.Rules) -> list[CountSummary]:
    """For each player count the rules can serve: deal total, moon, and warnings."""
    rows = []
    for n in engine.playable_counts(rules):
        warning = ""
        if rules.deals is not None and rules.deals % n:
            warning = uneven_deals(rules.deals, n)
        removed = engine.removed_cards(rules, n)
        rows.append(
            CountSummary(
                players=n,
                deal_total=engine.deal_total(rules, n),
                moon_value=engine.moon_value(rules, n),
                removed=" ".join(engine.card_label(c) for c in removed) or _("none"),
                pass_cards=engine.cards_passed(rules, n),
                warning=warning,
            )
        )
    return rows
