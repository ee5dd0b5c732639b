"""Which backups are kept: 7 daily, then 4 weekly before them."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from backups.rotation import backup_name, to_keep, to_remove


def made(days: int, *, per_day: int = 1, start=datetime(2026, 10, 1, 4, 15)) -> list[Path]:
    return [
        Path(backup_name(start + timedelta(days=d, hours=h), "dump"))
        for d in range(days)
        for h in range(per_day)
    ]


def test_a_year_of_daily_backups_keeps_a_week_and_a_month():
    paths = made(365)
    kept = sorted(to_keep(paths))
    assert len(kept) == 11  # 7 days, and 4 weeks before them
    newest = [p.name for p in paths[-7:]]
    assert [p.name for p in kept[-7:]] == newest
    weekly = [datetime.strptime(p.name[12:29], "%Y-%m-%dT%H%M%S") for p in kept[:4]]
    assert len({w.isocalendar()[:2] for w in weekly}) == 4
    assert (weekly[-1] - weekly[0]).days <= 28
    assert set(to_remove(paths)) == set(paths) - set(kept)


def test_several_backups_a_day_keep_the_newest_of_each_day():
    paths = made(3, per_day=4)
    kept = to_keep(paths)
    assert len(kept) == 3
    assert all(p.name.endswith("T071500.dump") for p in kept)


def test_fewer_backups_than_the_rotation_holds_are_all_kept():
    paths = made(5)
    assert to_keep(paths) == set(paths) and to_remove(paths) == []


def test_other_files_in_the_folder_are_never_counted_nor_removed():
    others = [Path("notes.txt"), Path("scorekeeper-latest.dump"), Path("x.dump.partial")]
    paths = made(40) + others
    assert not set(others) & set(to_remove(paths))
    assert not set(others) & to_keep(paths)


def test_the_module_examples_hold():
    import doctest

    from backups import rotation

    assert doctest.testmod(rotation).failed == 0
