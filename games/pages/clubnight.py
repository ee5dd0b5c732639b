"""What a club night's pages show: the standings."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from games import engine
from games.engine import clubnight
from games.models import ClubNight, Game


@dataclass(frozen=True)
class StandingLine:
    place: int
    name: str
    player: int
    games: int
    wins: int
    points: int
    score: str  # as shown: "2½", "87 %", or "" before a first deal


def standings(evening: ClubNight, played: list[list[Game]]) -> list[StandingLine]:
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
    if scoring == ClubNight.Scoring.SHARE:
        return _("{percent}%").format(percent=round(score))
    whole, half = divmod(score * 2, 2)
    if half and not whole:
        return "½"  # half a point, as a club writes it (not "0½")
    return f"{int(whole)}{'½' if half else ''}"
