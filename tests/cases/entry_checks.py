"""The cases of ``entry_checks.json``: entries as a phone sends them, in every
mode and variant, with what the engine answers.

The file is the one both checks are held to: pytest runs every case through
the engine (``tests/engine/test_entry_checks.py``) and Node's test runner through
the phone's check (``tests/js/check.test.mjs``). After a change to the
engine's words or rules, write it again and read the difference::

    .venv/bin/python -m tests.cases.entry_checks
"""

from __future__ import annotations

import json
from pathlib import Path

FILE = Path(__file__).with_name("entry_checks.json")

NAMES = ["Alice", "Ben", "Cara", "Dag", "Eli", "Frida", "Gro"]

TABLES: dict[str, dict] = {
    "black-maria": {"rules": {"moon": "others"}, "players": 3},
    "black-maria-no-moon": {"rules": {"moon": "none"}, "players": 3},
    "black-maria-five": {"rules": {"moon": "others"}, "players": 5},
    "hearts-only": {
        "rules": {"name": "Hearts", "king_of_spades": 0, "ace_of_spades": 0, "moon": "others"},
        "players": 4,
    },
    "omnibus-moon-self": {
        "rules": {"name": "Omnibus", "jack_of_diamonds": -10, "moon": "self"},
        "players": 4,
    },
    "spot-hearts": {"rules": {"name": "Spot", "hearts": "spot", "moon": "others"}, "players": 6},
    "seven": {"rules": {"moon": "others"}, "players": 7},
}


def _counts(hearts: list, **takers: int) -> dict[str, str]:
    fields = {f"hearts-{s}": str(h) for s, h in enumerate(hearts) if h is not None}
    fields.update({f"taker-{code}": str(seat) for code, seat in takers.items()})
    return fields


def _points(*points) -> dict[str, str]:
    return {f"points-{s}": str(p) for s, p in enumerate(points) if p is not None}


def _cards(**takers: int) -> dict[str, str]:
    return {f"taker-{code}": str(seat) for code, seat in takers.items()}


HEARTS = ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH"]


def _all_hearts(seat: int) -> dict[str, int]:
    return dict.fromkeys(HEARTS, seat)


CASES: list[tuple[str, str, str, dict[str, str]]] = [
    # (what it shows, table, mode, fields)
    ("a blank counts entry", "black-maria", "counts", {}),
    (
        "counts, one player still to enter: the rest filled in",
        "black-maria",
        "counts",
        _counts([4, 3, None], QS=0, KS=1, AS=2),
    ),
    ("counts that add up", "black-maria", "counts", _counts([4, 3, 6], QS=0, KS=1, AS=2)),
    ("counts one heart short", "black-maria", "counts", _counts([4, 3, 5], QS=0, KS=1, AS=2)),
    (
        "too many hearts already, before the last player",
        "black-maria",
        "counts",
        _counts([10, 10, None]),
    ),
    ("too many hearts: the rest can't be filled", "black-maria", "counts", _counts([13, 1, None])),
    ("counts with a card nobody took yet", "black-maria", "counts", _counts([4, 3, 6], QS=0)),
    (
        "counts, a moon: all hearts and spades to one",
        "black-maria",
        "counts",
        _counts([0, 0, 13], QS=2, KS=2, AS=2),
    ),
    (
        "counts, no moon rule: a sweep is just points",
        "black-maria-no-moon",
        "counts",
        _counts([0, 0, 13], QS=2, KS=2, AS=2),
    ),
    (
        "counts typed by a script, not a number",
        "black-maria",
        "counts",
        {"hearts-0": "x4", "hearts-1": "3", "hearts-2": "6"},
    ),
    (
        "counts with a negative count",
        "black-maria",
        "counts",
        {
            "hearts-0": "-1",
            "hearts-1": "7",
            "hearts-2": "7",
            "taker-QS": "0",
            "taker-KS": "0",
            "taker-AS": "0",
        },
    ),
    (
        "a taker who is not at the table is not a taker",
        "black-maria",
        "counts",
        _counts([4, 3, 6], QS=5, KS=1, AS=2),
    ),
    ("points that add up", "black-maria", "points", _points(13, 17, 13)),
    ("points, the last filled in as the rest", "black-maria", "points", _points(20, 10, None)),
    ("points that don't add up", "black-maria", "points", _points(20, 10, 10)),
    ("points that add up but no deal gives", "black-maria", "points", _points(-5, 24, 24)),
    (
        "points with a minus written as a sign",
        "omnibus-moon-self",
        "points",
        _points("−10", 20, 13, 10),
    ),
    ("points still to enter", "black-maria", "points", _points(13)),
    ("points not a number", "black-maria", "points", _points("1.5", 20, 22)),
    ("points, a moon in points", "black-maria", "points", _points(0, 43, 0)),
    ("points: 5,000 digits is no number", "black-maria", "points", _points("9" * 5000, 1, None)),
    ("cards: nothing taken yet", "black-maria", "cards", {}),
    ("cards: some taken", "black-maria", "cards", _cards(QS=1, AH=0, **{"2H": 2})),
    (
        "cards: every card given",
        "black-maria",
        "cards",
        _cards(QS=0, KS=1, AS=2, **{h: i % 3 for i, h in enumerate(HEARTS)}),
    ),
    ("cards: a moon", "black-maria", "cards", _cards(QS=1, KS=1, AS=1, **_all_hearts(1))),
    (
        "five players: counts with the 2♣ and 2♦ out",
        "black-maria-five",
        "counts",
        _counts([3, 3, 3, 2, None], QS=4, KS=3, AS=2),
    ),
    ("hearts only: counts", "hearts-only", "counts", _counts([6, 0, 7, 0], QS=1)),
    ("hearts only: a moon", "hearts-only", "counts", _counts([0, 13, 0, 0], QS=1)),
    ("hearts only: points no deal gives", "hearts-only", "points", _points(7, 7, 6, 6)),
    (
        "Omnibus: counts with the jack of diamonds",
        "omnibus-moon-self",
        "counts",
        _counts([5, 5, 3, 0], QS=0, KS=1, AS=2, JD=3),
    ),
    (
        "Omnibus: the jack still to give",
        "omnibus-moon-self",
        "counts",
        _counts([5, 5, 3, 0], QS=0, KS=1, AS=2),
    ),
    (
        "Omnibus: a moon off the shooter, with the jack",
        "omnibus-moon-self",
        "counts",
        _counts([13, 0, 0, 0], QS=0, KS=0, AS=0, JD=0),
    ),
    (
        "Omnibus: a moon off the shooter, the jack elsewhere",
        "omnibus-moon-self",
        "points",
        _points(43, -10, 0, 0),
    ),
    ("Omnibus: points no deal gives", "omnibus-moon-self", "points", _points(-20, 30, 10, 13)),
    (
        "spot hearts: cards",
        "spot-hearts",
        "cards",
        _cards(QS=0, KS=1, AS=2, **{h: i % 6 for i, h in enumerate(HEARTS) if h != "2H"}),
    ),
    (
        "spot hearts: a moon",
        "spot-hearts",
        "cards",
        _cards(QS=3, KS=3, AS=3, **{h: 3 for h in HEARTS if h != "2H"}),
    ),
    (
        "spot hearts: points a deal gives",
        "spot-hearts",
        "points",
        _points(14, 13, 12, 11, 10, None),
    ),
    ("spot hearts: points no deal gives", "spot-hearts", "points", _points(1, 1, 1, 1, 1, 127)),
    ("spot hearts: the 2♥ is out", "spot-hearts", "cards", _cards(**{"2H": 0})),
    (
        "seven players: counts",
        "seven",
        "counts",
        _counts([2, 2, 2, 2, 2, 2, None], QS=6, KS=5, AS=4),
    ),
    ("seven players: points", "seven", "points", _points(-1, 3, 3, 3, 3, 3, None)),
]


def table_config(name: str) -> dict:
    from games import engine
    from games.pages.phone import check_config

    table = TABLES[name]
    rules = engine.resolve(engine.Rules.from_dict(table["rules"]), table["players"])
    return check_config(rules, NAMES[: table["players"]])


def engine_answer(table: str, mode: str, fields: dict[str, str]) -> dict:
    """What the server says of an entry, in the shape the phone's check answers in."""
    from django.utils.text import capfirst

    from games import engine
    from games.forms.deals import DealForm
    from games.pages.entry import still_to_enter

    config = table_config(table)
    rules = engine.resolve(engine.Rules.from_dict(TABLES[table]["rules"]), TABLES[table]["players"])
    names = config["names"]
    form = DealForm({**fields, "mode": mode}, rules=rules, names=names)
    form.is_valid()
    entry = form.entry
    check = entry.check()
    result = check.result
    return {
        "counted": check.counted,
        "total": check.total,
        "valid": check.valid,
        "problems": [capfirst(p) for p in check.wrong],
        "toEnter": "" if check.valid else still_to_enter(check, names, mode),
        "raw": list(result.raw) if result else None,
        "scores": list(result.scores) if result else None,
        "moonText": engine.moon_summary(names, result, rules) if result else None,
        "filled": entry.filled,
        "filledValue": None
        if entry.filled is None
        else int((entry.hearts if mode == "counts" else entry.points)[entry.filled]),
        "taken": [
            {"name": name, "cards": [c.code for c in cards], "points": points}
            for name, cards, points in entry.taken()
        ],
    }


def build() -> dict:
    return {
        "tables": {name: table_config(name) for name in TABLES},
        "cases": [
            {
                "name": what,
                "table": table,
                "mode": mode,
                "fields": fields,
                "expect": engine_answer(table, mode, fields),
            }
            for what, table, mode, fields in CASES
        ],
    }


def text(data: dict) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


if __name__ == "__main__":
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    django.setup()
    from django.utils import translation

    with translation.override("en"):
        FILE.write_text(text(build()), encoding="utf-8")
    print(f"wrote {FILE}")
