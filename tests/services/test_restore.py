"""A backup restores the same club: exported, imported into a new table, every
page's figures are the same; the same file imported twice adds nothing."""

from __future__ import annotations

import dataclasses
from datetime import date, timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.utils import timezone

from games import engine
from games.formats.writing import export_json
from games.models import ClubNight, Game, Table
from games.pages import clubnight as night
from games.pages.ladder import ladder, record, season_ladder
from games.services import clubnights
from games.services.deals import deal_delete, deal_record
from games.services.games import game_start
from games.services.imports import import_history
from games.services.tables import season_add
from tests.factories import builtin

START = timezone.now() - timedelta(days=40)


def play(table, players, winner: int, *, days: int):
    """A game of Hearts only (to 50) played ``days`` after START: ``winner`` takes nothing."""
    with time_machine.travel(START + timedelta(days=days), tick=False):
        game = game_start(
            table=table, players=players, ruleset=builtin("Hearts only"), first_dealer=0
        )
        scores = [0 if i == winner else 13 for i in range(len(players))]
        while not Game.objects.get(pk=game.pk).is_finished:
            deal_record(game=game, entry=engine.PointsEntry(tuple(scores)), by=None)
    return game


@pytest.fixture
def club(owner):
    table = Table.objects.create(name="Friday club", owner=owner)
    people = [table.players.create(name=n) for n in ("Ann", "Bo", "Cy", "Di")]
    first = play(table, people[:3], 0, days=1)
    play(table, people[1:], 1, days=2)
    play(table, [people[0], people[2], people[3]], 2, days=12)
    # The first game re-opened and finished again, last: rated after the others.
    with time_machine.travel(START + timedelta(days=20), tick=False):
        last = first.deals.order_by("-number").first()
        entry = last.get_entry()
        deal_delete(deal=last, by=owner)
        deal_record(game=first, entry=entry, by=owner)
    season_add(table=table, name="Autumn", starts=(START + timedelta(days=10)).date(),
               ends=(START + timedelta(days=25)).date())  # fmt: skip
    with time_machine.travel(START + timedelta(days=30), tick=False):
        evening = clubnights.evening_start(
            table=table, name="Club night", day=(START + timedelta(days=30)).date(),
            scoring="places", ruleset=builtin("Hearts only"), players=people[:3], by=owner,
        )  # fmt: skip
        clubnights.round_start(evening=evening, number=1, by=owner)
        game = evening.games.get()
        while not Game.objects.get(pk=game.pk).is_finished:
            deal_record(game=game, entry=engine.PointsEntry((13, 0, 13)), by=None)
    return table


def figures(table: Table) -> dict:
    """What the table page, the season's page, the players' pages and the club night show."""

    def plain(rows):
        return [{k: v for k, v in dataclasses.asdict(r).items() if k != "player"} for r in rows]

    evening = ClubNight.objects.get(table=table)
    return {
        "ladder": plain(ladder(table)),
        "seasons": {s.name: plain(season_ladder(table, s)) for s in table.seasons.all()},
        "players": {p.name: dataclasses.asdict(record(p)) for p in table.players.all()},
        "club night": plain(night.standings(evening, clubnights.rounds(evening))),
        "rounds": [
            [sorted(s.player.name for s in g.seats.all()) for g in r]
            for r in clubnights.rounds(evening)
        ],
        "games": sorted(
            (g.finished_at, g.started_at, tuple(g.seats.values_list("total", flat=True)))
            for g in table.games.all()
        ),
    }


def test_a_backup_restores_the_same_club_elsewhere(club, db):
    backup = export_json(club.games.order_by("started_at", "id"), club.seasons.all())
    # In file order the re-opened game comes first; its finish came last.
    assert backup["games"][0]["finished_at"] > backup["games"][2]["finished_at"]
    assert backup["seasons"] == [{"table": "Friday club", "name": "Autumn",
                                  "starts": backup["seasons"][0]["starts"],
                                  "ends": backup["seasons"][0]["ends"]}]  # fmt: skip
    elsewhere = get_user_model().objects.create_user("eve", password="a-long-pass-phrase")
    restored = Table.objects.create(name="Restored", owner=elsewhere)
    import_history(backup, owner=elsewhere, table=restored)
    before, after = figures(club), figures(restored)
    assert after == before
    assert before["ladder"] and before["seasons"]["Autumn"] and before["club night"]


def test_the_same_backup_imported_twice_adds_nothing(club, owner):
    backup = export_json(club.games.all(), club.seasons.all())
    into = Table.objects.create(name="Copy", owner=owner)
    first = import_history(backup, owner=owner, table=into)
    once = figures(into)
    again = import_history(backup, owner=owner, table=into)
    assert len(first) == 4 and again == [] and again.skipped == 4
    assert figures(into) == once and into.seasons.count() == 1
    # Back into the table it came from: every game is there already.
    assert import_history(backup, owner=owner).skipped == 4
    assert club.games.count() == 4


def test_a_season_in_the_file_overlapping_another_refuses_the_file(club, owner):
    from games.formats.reading import ImportRefused

    backup = export_json(club.games.all(), club.seasons.all())
    into = Table.objects.create(name="Copy", owner=owner)
    season_add(table=into, name="Late summer", starts=date(2000, 1, 1), ends=date(2100, 1, 1))
    with pytest.raises(ImportRefused, match="Season Autumn: Late summer runs from"):
        import_history(backup, owner=owner, table=into)
    assert not into.games.exists()
