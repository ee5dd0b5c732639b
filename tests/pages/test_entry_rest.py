"""What Save records that nobody entered is said beside it: the rest filled in."""

from __future__ import annotations

from django.utils import translation

from games import engine
from games.forms.deals import DealForm
from games.pages.entry import DealEntry, rest_said
from tests.cases.entry_checks import NAMES, TABLES


def entry(mode: str, fields: dict[str, str]) -> DealEntry:
    table = TABLES["black-maria"]
    rules = engine.resolve(engine.Rules.from_dict(table["rules"]), table["players"])
    form = DealForm({**fields, "mode": mode}, rules=rules, names=NAMES[:3])
    form.is_valid()
    return form.entry


def test_a_count_filled_in_is_said_with_its_plural():
    cards = {"taker-QS": "0", "taker-KS": "1", "taker-AS": "2"}
    assert rest_said(entry("counts", {"hearts-0": "4", "hearts-1": "3", **cards})) == (
        "The rest to Cara: 6 hearts"
    )
    assert rest_said(entry("counts", {"hearts-0": "12", "hearts-1": "0", **cards})) == (
        "The rest to Cara: 1 heart"
    )
    with translation.override("nb"):
        said = rest_said(entry("counts", {"hearts-1": "12", "hearts-2": "0", **cards}))
    assert said == "Resten til Alice: 1 hjerte"


def test_points_filled_in_are_said_and_nothing_when_all_were_entered():
    assert rest_said(entry("points", {"points-0": "17", "points-1": "13"})) == (
        "The rest to Cara: 13"
    )
    assert rest_said(entry("points", {"points-0": "17", "points-1": "13", "points-2": "13"})) == ""
    assert rest_said(entry("points", {"points-0": "17"})) == ""  # two left: nothing filled
