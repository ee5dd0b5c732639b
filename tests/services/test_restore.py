"""A backup restores the same club: exported, imported into a new table, every
page's figures are the same; the same file imported twice adds nothing."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth import get_user_model

from games.formats.writing import export_json
from games.models import Table
from games.services.imports import import_history
from games.services.tables import season_add
from tests.factories import club_figures as figures
from tests.factories import make_club


@pytest.fixture
def club(owner):
    return make_club(owner)


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
