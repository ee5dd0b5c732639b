"""Which backups to keep: the newest of each of the last 7 days and of each of
the last 4 weeks. Plain Python, so it is tested without a database."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path

DAILY = 7
WEEKLY = 4
# scorekeeper-2026-12-02T041500.dump (PostgreSQL) or .sqlite3 (SQLite)
NAME = re.compile(r"^scorekeeper-(\d{4}-\d{2}-\d{2}T\d{6})\.(dump|sqlite3)$")


def backup_name(at: datetime, suffix: str) -> str:
    return f"scorekeeper-{at:%Y-%m-%dT%H%M%S}.{suffix}"


def taken_at(path: Path) -> datetime | None:
    found = NAME.match(path.name)
    return datetime.strptime(found.group(1), "%Y-%m-%dT%H%M%S") if found else None


def to_keep(paths: Iterable[Path], *, daily: int = DAILY, weekly: int = WEEKLY) -> set[Path]:
    """The newest backup of each of the ``daily`` latest days that have one, then
    of each of the ``weekly`` weeks (ISO weeks) before those days; so a month
    back can be restored. Files not named as backups are never counted.

    >>> days = [Path(f"scorekeeper-2026-12-{d:02}T041500.dump") for d in range(1, 32)]
    >>> sorted(p.name[12:22] for p in to_keep(days))
    ['2026-12-06', '2026-12-13', '2026-12-20', '2026-12-25', '2026-12-26', '2026-12-27', \
'2026-12-28', '2026-12-29', '2026-12-30', '2026-12-31']
    """
    dated = sorted(((at, p) for p in paths if (at := taken_at(p)) is not None), reverse=True)
    keep: dict[object, Path] = {}
    for at, path in dated:  # newest first: the first seen of a day is its newest
        if len(keep) == daily:
            break
        keep.setdefault(at.date(), path)
    kept_weeks = {day.isocalendar()[:2] for day in keep}
    oldest = min(keep, default=None)
    weeks: dict[object, Path] = {}
    for at, path in dated:
        week = at.isocalendar()[:2]
        if (oldest is not None and at.date() >= oldest) or week in kept_weeks:
            continue
        if len(weeks) == weekly and week not in weeks:
            break
        weeks.setdefault(week, path)
    return set(keep.values()) | set(weeks.values())


def to_remove(paths: Iterable[Path], **limits: int) -> list[Path]:
    paths = list(paths)
    keep = to_keep(paths, **limits)
    return sorted(p for p in paths if taken_at(p) is not None and p not in keep)
