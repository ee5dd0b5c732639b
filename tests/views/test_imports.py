"""Importing in the app: a history file, and the plays logged in BG Stats or on
BoardGameGeek, each seen before anything is saved."""

from __future__ import annotations

import html
import io
import json
import re
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Game, KeptUpload
from tests.factories import MOON_EXAMPLE, SPEC_EXAMPLE
from tests.formats.test_logged import BG_STATS, BGG


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


@pytest.fixture
def signed_in(client, owner):
    client.force_login(owner)
    return client


def upload(data: dict) -> SimpleUploadedFile:
    return SimpleUploadedFile("history.json", json.dumps(data).encode(), "application/json")


def test_import_shows_what_a_file_holds_then_imports_it_all(signed_in, table, players):
    url = reverse("table_import", args=[table.pk])
    page = text(
        signed_in.post(
            url,
            {
                "file": upload(
                    {**SPEC_EXAMPLE, "games": [*SPEC_EXAMPLE["games"], *MOON_EXAMPLE["games"]]}
                )
            },
        )
    )
    assert "The file holds 2 games, 6 deals" in page
    assert "Every player already plays at Friday club." in page
    assert "Alice 51, Ben 39, Cara 39" in page
    assert not Game.objects.exists()
    page = signed_in.post(url, {"file": upload(MOON_EXAMPLE)}).content.decode()
    # The confirm step sends a key, not the file: the file waits on the server.
    kept = re.search(r'name="upload" value="([A-Za-z0-9_-]+)"', page).group(1)
    assert (
        "Alice" not in re.search(r"<form method=\"post\" class=\"stack\">.*?</form>", page, re.S)[0]
    )
    response = signed_in.post(url, {"upload": kept})
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.table == table
    assert list(game.seats.order_by("number").values_list("total", flat=True)) == [88, 65, 19]
    # A key imports once: sent again (Back, a double tap) it opens what it made.
    again = signed_in.post(url, {"upload": kept}, follow=True)
    assert again.redirect_chain[-1][0] == reverse("table_history", args=[table.pk])
    assert "This file is imported already: its games are here." in text(again)
    assert Game.objects.count() == 1
    # An unknown key imports nothing.
    unknown = signed_in.post(url, {"upload": "not-a-kept-file"})
    assert unknown.status_code == 422 and "no longer kept" in text(unknown)


def test_a_kept_file_survives_a_full_cache_and_goes_after_its_time(signed_in, table, players):
    """It sat in the default cache (300 entries, shared with pictures and chances),
    which culls the first third of its keys in sort order when full."""
    import time_machine
    from django.core.cache import cache
    from django.core.management import call_command

    url = reverse("table_import", args=[table.pk])
    page = signed_in.post(url, {"file": upload(MOON_EXAMPLE)}).content.decode()
    kept = re.search(r'name="upload" value="([A-Za-z0-9_-]+)"', page).group(1)
    for n in range(400):  # keys that sort after "upload:": culled last
        cache.set(f"zz-filler-{n:03}", n)
    assert signed_in.post(url, {"upload": kept}).status_code == 302
    assert Game.objects.count() == 1
    # One never confirmed is gone after 30 minutes, and the daily job clears it away.
    page = signed_in.post(url, {"file": upload(SPEC_EXAMPLE)}).content.decode()
    later = re.search(r'name="upload" value="([A-Za-z0-9_-]+)"', page).group(1)
    with time_machine.travel(timezone.now() + timedelta(minutes=31)):
        assert "no longer kept" in text(signed_in.post(url, {"upload": later}))
        call_command("clear_uploads", stdout=io.StringIO())
    assert not KeptUpload.objects.exists()


def test_a_kept_file_is_only_for_the_person_who_sent_it(signed_in, table, players, member):
    from django.test import Client

    url = reverse("table_import", args=[table.pk])
    page = signed_in.post(url, {"file": upload(MOON_EXAMPLE)}).content.decode()
    kept = re.search(r'name="upload" value="([A-Za-z0-9_-]+)"', page).group(1)
    other = Client()
    other.force_login(member)
    assert "no longer kept" in text(other.post(url, {"upload": kept}))
    assert not Game.objects.exists()


def test_import_names_new_players(signed_in, table):
    data = json.loads(json.dumps(MOON_EXAMPLE))
    data["games"][0]["players"][2] = "Dora"
    data["games"][0]["first_dealer"] = "Ben"
    for deal in data["games"][0]["deals"]:
        deal["points"]["Dora"] = deal["points"].pop("Cara")
    page = text(signed_in.post(reverse("table_import", args=[table.pk]), {"file": upload(data)}))
    assert "New players at Friday club: Alice, Ben, Dora." in page


def test_an_invalid_file_is_refused_with_the_reason_and_nothing_saved(signed_in, table):
    bad = json.loads(json.dumps(MOON_EXAMPLE))
    bad["games"][0]["deals"][1]["points"]["Cara"] = 42
    response = signed_in.post(reverse("table_import", args=[table.pk]), {"file": upload(bad)})
    assert response.status_code == 422
    assert (
        "Nothing was imported. Game 1 (Alice&#x27;s kitchen), deal 2: points add up to 42"
        in text(response)
    )
    response = signed_in.post(
        reverse("table_import", args=[table.pk]),
        {"file": SimpleUploadedFile("x.json", b"not json")},
    )
    assert "This file is not a history file" in text(response)
    assert not Game.objects.exists()


@pytest.mark.parametrize("char", ["\u0000", "\u200b", "\u0007"])
def test_a_rules_name_no_database_keeps_is_refused_at_the_preview(signed_in, table, char):
    """NUL (PostgreSQL keeps none) or a control in a setting: refused, named (was a 500).

    A lone surrogate is refused with the whole file already: it is not text.
    """
    data = json.loads(json.dumps(MOON_EXAMPLE))
    data["games"][0]["rules"]["name"] = "Black" + char + "Maria"
    response = signed_in.post(reverse("table_import", args=[table.pk]), {"file": upload(data)})
    assert response.status_code == 422
    said = f"the rules' name holds a character that can't be kept (U+{ord(char):04X})"
    page = html.unescape(text(response))
    assert f"Nothing was imported. Game 1 (Alice's kitchen): {said}" in page
    assert not Game.objects.exists()
    assert not re.search(r'name="upload" value="[^"]+"', page)  # nothing kept to confirm


# --- Plays logged in BG Stats and on BoardGameGeek -------------------------------------------


def logged_file(raw: bytes, name: str = "BGStatsExport.json") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, raw, "application/octet-stream")


def shown(client, table, raw=BG_STATS, name="BGStatsExport.json", **headers):
    """The preview of a logged file, and what its page sends back."""
    page = client.post(
        reverse("table_import", args=[table.pk]), {"file": logged_file(raw, name)}, **headers
    )
    token = re.search(r'name="upload" value="([A-Za-z0-9_-]+)"', page.content.decode()).group(1)
    ticked = re.findall(r'name="games" value="([^"]+)"[^>]*checked', page.content.decode())
    return page, {"upload": token, "games": ticked, "shown": ticked}


def test_a_bg_stats_export_is_shown_with_our_games_ticked_and_its_plays_listed(signed_in, table):
    page, sent = shown(signed_in, table)
    said = html.unescape(text(page))
    assert page.status_code == 200 and sent["games"] == ["1", "3"]
    assert "Which of the games in this BG Stats file are played at Friday club?" in said
    assert "Hearts · BoardGameGeek 6887 · 4 plays with scores" in said
    assert "Ticket to Ride · BoardGameGeek 9209 · 1 play with scores" in said
    assert "The games ticked hold 4 plays" in said
    assert "New players at Friday club: Bjørn, Kåre, Sølvi, Åse." in said
    assert "Åse 12, Bjørn 31, Kåre 57" in said
    assert "1 play without scores is left out." in said
    assert "1 play for fewer than 3 or more than 7 players is left out." in said
    assert "keeps out of its statistics" not in said  # none is
    # The play whose winner flag disagrees with its totals: named, and nothing imports
    # until the person chooses (no plain Import).
    assert "BG Stats names another winner than the lowest total in 1 play" in said
    assert "BG Stats: Kåre won. By the totals: Bjørn." in said
    assert 'value="import"' not in said
    assert not Game.objects.exists()


def test_nothing_imports_until_the_person_chooses_then_once(signed_in, table):
    url = reverse("table_import", args=[table.pk])
    _page, sent = shown(signed_in, table)
    refused = signed_in.post(url, {**sent, "step": "import"})
    assert refused.status_code == 422
    assert "Choose what to do with the plays whose winners differ." in text(refused)
    assert not Game.objects.exists()
    made = signed_in.post(url, {**sent, "step": "leave"}, follow=True)
    assert "Imported 3 games into Friday club." in text(made)
    assert table.games.filter(result_only=True).count() == 3
    # Sent again (Back, a double tap): imported once.
    again = signed_in.post(url, {**sent, "step": "totals"}, follow=True)
    assert "This file is imported already" in text(again) and table.games.count() == 3
    # The same file again, by the totals: only the play left out comes in.
    _page, sent = shown(signed_in, table)
    assert "3 games of the file are at this table already" in text(_page)
    made = signed_in.post(url, {**sent, "step": "totals"}, follow=True)
    assert "Imported 1 game into Friday club." in text(made) and table.games.count() == 4


def test_changed_ticks_show_their_plays_before_anything_imports(signed_in, table):
    url = reverse("table_import", args=[table.pk])
    _page, sent = shown(signed_in, table)
    # Svarte Maria unticked, then Import tapped without showing: its plays are shown first.
    page = signed_in.post(url, {**sent, "games": ["1"], "step": "totals"})
    said = html.unescape(text(page))
    assert page.status_code == 200 and not Game.objects.exists()
    assert "These are the plays of the games now ticked: import when they are right." in said
    assert "The games ticked hold 3 plays" in said
    # Ticket to Ride ticked: its play can't be read, so it says which, and the ticks stay.
    page = signed_in.post(url, {**sent, "games": ["1", "2"], "step": "show"})
    said = html.unescape(text(page))
    assert page.status_code == 422
    assert (
        "The play of 15 Mar 2024 (Ticket to Ride: Åse, Bjørn, Sølvi): the score '12.5' is not "
        "a whole number" in said
    )
    assert 'name="games" value="2"' in said and not Game.objects.exists()
    # Nothing ticked: nothing to import.
    page = signed_in.post(url, {**sent, "games": [], "shown": [], "step": "import"})
    assert page.status_code == 422 and "Tick a game with plays to import." in text(page)


def test_a_boardgamegeek_play_log_imports_through_the_same_preview(signed_in, table):
    url = reverse("table_import", args=[table.pk])
    page, sent = shown(signed_in, table, BGG, "plays.xml")
    said = html.unescape(text(page))
    assert "Which of the games in this BoardGameGeek file are played at Friday club?" in said
    assert sent["games"] == ["6887", "name-Black Maria"]
    assert "1 play without scores is left out." in said  # the one logged incomplete
    made = signed_in.post(url, {**sent, "step": "import"}, follow=True)
    assert "Imported 3 games into Friday club." in text(made)


def test_the_logged_preview_in_norwegian(signed_in, table):
    page, _sent = shown(signed_in, table, HTTP_ACCEPT_LANGUAGE="nb")
    said = html.unescape(text(page))
    assert "Hvilke av spillene i denne BG Stats-fila spilles ved Friday club?" in said
    assert "Hearts · BoardGameGeek 6887 · 4 partier med poeng" in said
    assert "BG Stats: Kåre vant. Etter summene: Bjørn." in said


def test_a_logged_file_is_only_for_the_person_who_sent_it(signed_in, table, member):
    _page, sent = shown(signed_in, table)
    other = Client()
    other.force_login(member)
    response = other.post(reverse("table_import", args=[table.pk]), {**sent, "step": "totals"})
    assert response.status_code == 422 and "no longer kept" in text(response)
    assert not Game.objects.exists()


def test_an_outsider_can_t_reach_a_table_s_logged_import(client, outsider, signed_in, table):
    _page, sent = shown(signed_in, table)
    client.force_login(outsider)
    response = client.post(reverse("table_import", args=[table.pk]), {**sent, "step": "totals"})
    assert response.status_code == 404 and not Game.objects.exists()


@pytest.mark.django_db
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    values=st.dictionaries(
        st.sampled_from(["upload", "games", "shown", "step", "rules_0", "rules_2", "unnamed"]),
        st.lists(st.text(max_size=30), max_size=3),
        max_size=5,
    )
)
def test_junk_sent_to_the_logged_step_gets_words_and_changes_nothing(signed_in, table, values):
    _page, sent = shown(signed_in, table)
    data = {**sent, **values}
    data.setdefault("step", ["totals"])
    before = Game.objects.count()  # the examples share the database
    response = signed_in.post(reverse("table_import", args=[table.pk]), data)
    assert response.status_code in (200, 302, 400, 422)
    if response.status_code != 302:
        assert Game.objects.count() == before
