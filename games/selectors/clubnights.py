"""A club night as its pages read it (its rounds, the ways it may split), and the
version its polls compare."""

from __future__ import annotations

from collections import Counter

from django.db.models import Count, Max, Sum

from games import engine
from games.engine import clubnight
from games.models import Evening, Game, Seat, Table


def evening_version(evening: Evening) -> str:
    """What the evening's live pages show, as one string that changes when any of it does."""
    games = evening.games.aggregate(n=Count("pk"), v=Sum("version"))
    # The table's chances too: the big screen shows them for the games under way.
    chances = evening.table.chances_version
    return f"{evening.pk}.{evening.version}.{games['n']}.{games['v'] or 0}.{chances}"


def present(evening: Evening) -> set[int]:
    """The players marked present."""
    return set(evening.present.values_list("pk", flat=True))


def usual_size(table: Table, rules: engine.Rules) -> int:
    """How many usually play at this table: the commonest size of its last games.

    A table with no games yet: three for Black Maria (the spades carry
    points), four for the Hearts games.
    """
    sizes = Counter(
        Seat.objects.filter(game__in=table.games.order_by("-started_at")[:30].values("pk"))
        .values("game")
        .annotate(n=Count("pk"))
        .values_list("n", flat=True)
    )
    if sizes:
        return sizes.most_common(1)[0][0]
    return 3 if rules.king_of_spades or rules.ace_of_spades else 4


def evening_rules(evening: Evening) -> engine.Rules:
    return evening.ruleset.to_rules() if evening.ruleset else engine.Rules()


def splits_for(evening: Evening, present: int) -> list[tuple[int, ...]]:
    rules = evening_rules(evening)
    return clubnight.splits(
        present, usual_size(evening.table, rules), engine.playable_counts(rules)
    )


def rounds(evening: Evening) -> list[list[Game]]:
    """The evening's games by round (first round first), each with seats and players."""
    games = (
        evening.games.annotate(deal_count=Count("deals"))
        .select_related("table")
        .prefetch_related("seats__player")
        .order_by("round", "id")
    )
    by_round: dict[int, list[Game]] = {}
    for game in games:
        by_round.setdefault(game.round or 0, []).append(game)
    return [by_round[n] for n in sorted(by_round)]


def next_round(evening: Evening) -> int:
    return (evening.games.aggregate(n=Max("round"))["n"] or 0) + 1


def round_over(played: list[list[Game]]) -> bool:
    return not played or all(game.is_finished for game in played[-1])
