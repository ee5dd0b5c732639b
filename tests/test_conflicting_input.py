"""Valid but conflicting input: a name that is already there written another way,
and every name at its limit, wherever a name is typed or read. Each gives one
result and a clear message, never a second player for one person.

(The same form or key from several requests at once, against PostgreSQL, is
in tests/test_postgres.py; the same file twice in tests/services/test_restore.py.)
"""

from __future__ import annotations

import json
import unicodedata

import pytest
from django.db import transaction
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.names import MOST_NAME, name_key
from games.formats.reading import ImportRefused
from games.models import Game, Player
from games.services.imports import import_history
from tests.factories import MOON_EXAMPLE, builtin, text

WAYS = {
    "upper": str.upper,
    "lower": str.lower,
    "swapped": str.swapcase,
    "padded": lambda s: f"  {s}\t",
    "spaced": lambda s: s.replace(" ", "   "),
    "wide": lambda s: "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in s),
    "decomposed": lambda s: unicodedata.normalize("NFD", s),
    "invisible": lambda s: s[:1] + "\u200b" + s[1:],
}
NAMES = ["Alice", "Anne Marie", "José", "Ærlig Åse", "A" * MOST_NAME]


@st.composite
def lookalikes(draw) -> tuple[str, str]:
    """A name and the same name written another way (one to three ways at once)."""
    name = draw(st.sampled_from(NAMES))
    written = name
    for way in draw(st.lists(st.sampled_from(sorted(WAYS)), min_size=1, max_size=3)):
        written = WAYS[way](written)
    return name, written


EXAMPLES = settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture
def phone(client, owner):
    client.force_login(owner)
    return client


def one_each(table) -> None:
    keys = list(table.players.values_list("name_key", flat=True))
    assert len(keys) == len(set(keys)), keys


@EXAMPLES
@given(pair=lookalikes())
def test_a_player_added_again_written_another_way_is_refused(phone, table, pair):
    name, written = pair
    with transaction.atomic():
        table.players.create(name=name)
        response = phone.post(reverse("player_add", args=[table.pk]), {"name": written})
        assert response.status_code == 422
        assert f"{name} already plays at this table." in text(response)
        assert table.players.count() == 1
        transaction.set_rollback(True)


@EXAMPLES
@given(pair=lookalikes())
def test_a_new_table_listing_one_person_twice_is_refused(phone, pair):
    name, written = pair
    with transaction.atomic():
        data = {"name": "Club", "players": f"{name}\n{written}\nBo", "default_ruleset": 1}
        data["default_ruleset"] = builtin("Black Maria").pk
        response = phone.post(reverse("table_new"), data)
        assert response.status_code == 200
        assert "the same player written two ways" in text(response)
        assert not Player.objects.exists()
        transaction.set_rollback(True)


@EXAMPLES
@given(pair=lookalikes())
def test_a_new_player_typed_for_a_game_who_plays_here_is_that_player(phone, table, pair):
    name, written = pair
    with transaction.atomic():
        known = [table.players.create(name=n) for n in (name, "Bo", "Cy")]
        form = phone.get(reverse("game_new", args=[table.pk])).content.decode()
        key = form.split('name="key" value="')[1].split('"')[0]
        response = phone.post(
            reverse("game_new", args=[table.pk]),
            {
                "players": [known[1].pk, known[2].pk],
                "new_players": written,
                "first_dealer": "draw",
                "ruleset": builtin("Black Maria").pk,
                "end": "target",
                "target": "100",
                "moon": "none",
                "key": key,
            },
        )
        assert response.status_code == 302, text(response)[:300]
        game = Game.objects.get()
        assert sorted(s.player_id for s in game.seats.all()) == sorted(p.pk for p in known)
        assert table.players.count() == 3
        one_each(table)
        transaction.set_rollback(True)


@EXAMPLES
@given(pair=lookalikes())
def test_a_file_naming_one_person_two_ways_is_refused_and_one_way_is_that_player(
    owner, table, pair
):
    name, written = pair
    with transaction.atomic():
        data = json.loads(json.dumps(MOON_EXAMPLE))
        game = data["games"][0]
        points = [list(deal["points"].values()) for deal in game["deals"]]

        def seat(players: list[str]) -> None:
            game["players"], game["first_dealer"] = players, players[0]
            for deal, values in zip(game["deals"], points, strict=True):
                deal["points"] = dict(zip(players, values, strict=True))

        seat([name, written, "Cara"])
        with pytest.raises(ImportRefused, match="the same player written two ways"):
            import_history(data, owner=owner, table=table)
        assert not Player.objects.exists()
        # Written one way in the file, while the table has the other: the same person.
        table.players.create(name=name)
        seat([written, "Ben", "Cara"])
        import_history(data, owner=owner, table=table)
        assert table.players.filter(name_key=name_key(name)).count() == 1
        one_each(table)
        transaction.set_rollback(True)


@pytest.mark.parametrize("length", [MOST_NAME, MOST_NAME + 1])
def test_every_name_field_at_its_limit_and_one_over(phone, table, length):
    """40 characters are a name; 41 are refused in the same words everywhere."""
    name = "B" * length
    said = f"“{'B' * 20}…” is too long: a name has at most {MOST_NAME} characters."
    posts = [
        (reverse("player_add", args=[table.pk]), {"name": name}),
        (reverse("table_new"), {"name": "Club", "players": name,
                                "default_ruleset": builtin("Black Maria").pk}),
    ]  # fmt: skip
    for url, data in posts:
        page = text(phone.post(url, data))
        assert (said in page.replace("&#x27;", "'")) == (length > MOST_NAME), url
    assert Player.objects.filter(name=name).exists() == (length == MOST_NAME)
