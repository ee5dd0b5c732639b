"""No input breaks the server: every form and endpoint, sent what a person or a script can send.

Each case found once answering 500 is here by name; then Hypothesis posts
arbitrary text, numbers, huge and empty values to every URL of the access
matrix, as the owner (who may do the most), and checks that nothing answers
5xx and that a refusal (4xx) changed nothing.
"""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.db import transaction
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.factories import FORMS, MATRIX, World, database_snapshot


@pytest.fixture
def world(owner, member, table, players, moon_game):
    return World(owner, member, table, players, moon_game)


@pytest.fixture
def phone(client, owner):
    client.force_login(owner)
    return client


def refused_without_change(phone: Client, method: str, url: str, data: dict, **headers) -> int:
    before = database_snapshot()
    response = getattr(phone, method)(url, data, **headers)
    assert response.status_code < 500, (url, data)
    if 400 <= response.status_code < 500:
        assert database_snapshot() == before, (url, data, response.status_code)
    return response.status_code


# --- Each case once seen answering 500 -------------------------------------------------

UNICODE_DIGIT = "²"
POINTS = {"mode": "points", "points-0": "17", "points-1": "13", "points-2": "13"}
CARDS = {"mode": "cards", "taker-QS": "0", "taker-KS": "1", "taker-AS": "2"}


@pytest.mark.parametrize(
    ("name", "args", "data"),
    [
        ("deal_new", "game", {**CARDS, "taker-QS": UNICODE_DIGIT}),
        ("deal_new", "game", {**POINTS, "number": UNICODE_DIGIT}),
        ("deal_new", "game", {"mode": "counts", "hearts-0": UNICODE_DIGIT, "hearts-1": "3"}),
        ("deal_edit", "deal", {"mode": "counts", "hearts-0": UNICODE_DIGIT}),
        ("deal_edit", "deal", {**POINTS, "version": UNICODE_DIGIT}),
        ("deal_delete", "deal", {"version": UNICODE_DIGIT}),
        ("player_link", "player", {"user": UNICODE_DIGIT}),
        ("table_default_ruleset", "table", {"ruleset": UNICODE_DIGIT}),
        ("deal_new", "game", {**POINTS, "number": "0"}),
        ("deal_queued", "game", {**POINTS, "number": "0", "key": "k"}),
        ("deal_new", "game", {**POINTS, "points-0": "9" * 5000}),
        ("deal_edit", "deal", {**POINTS, "points-1": "-" + "9" * 5000}),
        ("deal_queued", "game", {**POINTS, "number": "2", "key": "k", "points-2": "9" * 5000}),
        ("ruleset_new", "table", {"name": "X", "queen_of_spades": "٣", "target": "9" * 5000}),
    ],
)
def test_a_value_once_seen_answering_500_is_refused_in_words(phone, world, name, args, data):
    obj = {"game": world.game, "deal": world.deal, "player": world.player, "table": world.table}
    url = reverse(name, args=[obj[args].pk])
    status = refused_without_change(phone, "post", url, data)
    assert status in (200, 302, 400, 409, 422)


def test_a_unicode_digit_in_a_query_is_refused_in_words(phone, world):
    url = reverse("ruleset_new", args=[world.table.pk]) + "?from=" + UNICODE_DIGIT
    response = phone.get(url)
    assert response.status_code == 400
    assert "could not be read (from)" in response.content.decode()


@pytest.mark.parametrize(
    "path",
    [
        "/watch/%00/",
        "/watch/a%00b/live/",
        "/watch/%ED%A0%80/",
        "/watch/tables/%00/games/1/",
        "/invites/%00/",
        "/games/99999999999999999999999/",
        "/deals/99999999999999999999999/edit/",
    ],
)
def test_nul_surrogates_and_huge_ids_in_a_path_are_not_found(phone, world, path):
    assert phone.get(path).status_code == 404


def test_nul_in_a_search_is_ignored(phone, world):
    url = reverse("table_history", args=[world.table.pk])
    assert phone.get(url, {"player": "A\x00lice"}).status_code == 200


# --- Anything at all, everywhere -------------------------------------------------------------

URL_CASES = [(name, method) for name, (methods, _, _) in MATRIX.items() for method in methods]


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "method"), URL_CASES, ids=[f"{n}-{m}" for n, m in URL_CASES])
@settings(
    max_examples=6,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=FORMS, htmx=st.booleans())
def test_no_input_answers_5xx_or_writes_when_refused(phone, world, name, method, data, htmx):
    url = reverse(name, args=MATRIX[name][1](world))
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    with transaction.atomic():
        caches["local"].clear()
        refused_without_change(phone, method, url, data, **headers)
        transaction.set_rollback(True)
