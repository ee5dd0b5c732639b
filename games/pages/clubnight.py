"""What a club night's pages show: its live part (the draw, the rounds with each
game's chances, the standings), and the words for the ways it may split."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import engine
from games.engine import clubnight
from games.models import Evening, Game, Seat
from games.pages import chances as during
from games.pages.ladder import chances as ladder_chances
from games.selectors import clubnights as clubnights_read
from games.selectors.games import evening_etag


@dataclass(frozen=True)
class StandingLine:
    place: int
    name: str
    player: int
    games: int
    wins: int
    points: int
    score: str  # as shown: "2½", "87 %", or "" before a first deal


def standings(evening: Evening, played: list[list[Game]]) -> list[StandingLine]:
    names = {p.pk: p.name for p in evening.present.all()}
    results = []
    for round_ in played:
        for game in round_:
            seats = list(game.seats.all())
            for seat in seats:
                names.setdefault(seat.player_id, seat.player.name)
            rules = game.get_rules()
            results.append(
                clubnight.Result(
                    totals=[(seat.player_id, seat.total) for seat in seats],
                    deals=game.deal_count,
                    deal_total=engine.deal_total(rules, len(seats)),
                    finished=game.is_finished,
                )
            )
    # Everyone here is on the table from the start, before their first deal.
    results.append(
        clubnight.Result([(pk, 0) for pk in names], deals=0, deal_total=0, finished=False)
    )
    return [
        StandingLine(
            place=line.place,
            name=names[line.person],
            player=line.person,
            games=line.games,
            wins=line.wins,
            points=line.points,
            score=_shown(line.score, evening.scoring),
        )
        for line in clubnight.standings(results, evening.scoring)
    ]


def _shown(score, scoring: str) -> str:
    if score is None:
        return ""
    if scoring == Evening.Scoring.SHARE:
        return _("{percent}%").format(percent=round(score))
    whole, half = divmod(score * 2, 2)
    if half and not whole:
        return "½"  # half a point, as a club writes it (not "0½")
    return f"{int(whole)}{'½' if half else ''}"


def sizes_label(sizes) -> str:
    """ "2 games: 4 + 3", "1 game of 7"."""
    if len(sizes) == 1:
        return _("1 game of {players}").format(players=sizes[0])
    return ngettext("{count} game: {sizes}", "{count} games: {sizes}", len(sizes)).format(
        count=len(sizes), sizes=" + ".join(str(s) for s in sizes)
    )


def sizes_value(sizes) -> str:
    return "+".join(str(s) for s in sizes)


def board_context(evening: Evening, *, readonly: bool) -> dict:
    """What the evening's live part shows: the draw, the rounds (each game with its
    players' chances, where the table shows them) and the standings."""
    # The version first, then what it stands for: read after, a deal saved in between
    # was counted in the version but not shown, and every poll answered 204 to it.
    poll_etag = evening_etag(clubnights_read.evening_version(evening), readonly=readonly)
    played = clubnights_read.rounds(evening)
    proposal = []
    if evening.proposal:
        # On the big screen too: where to sit in the coming round.
        names = {p.pk: p.name for p in evening.present.all()}
        proposal = [[names.get(pk, "?") for pk in game] for game in evening.proposal]
    splits = clubnights_read.splits_for(evening, len(names)) if proposal and not readonly else []
    chosen = tuple(len(game) for game in evening.proposal or [])
    return {
        "evening": evening,
        "readonly": readonly,
        "rounds": [
            (number, [(game, game_lines(game)) for game in round_])
            for number, round_ in enumerate(played, start=1)
        ][::-1],
        "next_round": len(played) + 1,
        "round_over": clubnights_read.round_over(played),
        "proposal": proposal,
        "splits": [(sizes_value(s), sizes_label(s), s == chosen) for s in splits],
        "standings": standings(evening, played),
        "poll_etag": poll_etag,
    }


@dataclass(frozen=True)
class EveningSeat:
    """A player on a game's card of the club night."""

    name: str
    total: int
    winner: bool
    chance: str | None = None  # of winning from here, where the table shows chances
    chance_short: str | None = None  # the same in a narrow card ("<1%")


def game_lines(game: Game) -> list[EveningSeat]:
    """A game's players by total, the lowest (the leader) first, each with their
    chance of winning from here beside them."""
    seats = list(game.seats.all())
    said = game_chances(game, seats)
    lines = [
        EveningSeat(
            seat.player.name,
            seat.total,
            seat.is_winner,
            None if chance is None else during.percent_text(chance),
            None if chance is None else during.percent_short(chance),
        )
        for seat, chance in zip(seats, said, strict=True)
    ]
    return sorted(lines, key=lambda line: line.total)  # seat order among equals


def game_chances(game: Game, seats: list[Seat]) -> list[float | None]:
    """Each seat's chance in a game under way, where its table shows them: before
    the first deal from the ladder (none while everyone's is the same), after it
    from the totals now."""
    nothing: list[float | None] = [None] * len(seats)
    if game.is_finished or not game.table.show_chances:
        return nothing
    if not game.deal_count:
        before = ladder_chances([seat.player for seat in seats])
        percents = {round(chance * 100) for chance in before}
        return nothing if len(percents) == 1 else list(before)
    totals = [seat.total for seat in seats]
    players = [seat.player_id for seat in seats]
    return list(during.chances_now(game, players, totals, game.deal_count))
