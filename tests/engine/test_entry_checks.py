"""The engine against the cases the phone's check is held to (tests/cases/)."""

import json

import pytest
from django.utils import translation

from tests.cases import entry_checks

DATA = json.loads(entry_checks.FILE.read_text(encoding="utf-8"))


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.mark.parametrize("case", DATA["cases"], ids=[c["name"] for c in DATA["cases"]])
def test_the_engine_answers_each_case_as_the_file_says(case):
    assert entry_checks.engine_answer(case["table"], case["mode"], case["fields"]) == case["expect"]


@pytest.mark.parametrize("name", sorted(entry_checks.TABLES))
def test_the_phone_is_handed_what_the_file_holds(name):
    """The page hands the phone's check the same settings and words as the file does."""
    assert entry_checks.table_config(name) == DATA["tables"][name]


def test_the_file_is_written_from_the_cases_as_they_stand():
    assert entry_checks.text(entry_checks.build()) == entry_checks.FILE.read_text(encoding="utf-8")


def test_every_mode_and_variant_has_valid_and_invalid_cases():
    cases = DATA["cases"]
    for mode in ("cards", "counts", "points"):
        assert {c["expect"]["valid"] for c in cases if c["mode"] == mode} == {True, False}
    for table in entry_checks.TABLES:
        assert any(c["expect"]["valid"] for c in cases if c["table"] == table), table
    assert {c["table"] for c in cases if c["expect"]["moonText"]} >= {
        "black-maria",
        "hearts-only",
        "omnibus-moon-self",
        "spot-hearts",
    }
