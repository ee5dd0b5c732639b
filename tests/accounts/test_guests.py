"""The first page, starting a game with no account, keeping the scores, clearing guests."""

from __future__ import annotations

import io
import re
from datetime import timedelta
from urllib.parse import quote

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management import call_command
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.guests import PREFIX, clear_guests
from accounts.models import Guest
from games.models import Game, Table
from games.services.games import game_start
from tests.factories import FORMS, JUNK, builtin

NB = {"HTTP_ACCEPT_LANGUAGE": "nb"}


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


PASSWORD = "a-long-pass-phrase"


def table_form() -> dict:
    return {
        "name": "Our table",
        "players": "Ann\nBo\nCy",
        "default_ruleset": builtin("Black Maria").pk,
    }


def start(client):
    return client.post(reverse("start"))


def test_the_first_page_says_what_this_is_and_starts_a_game(client, db):
    page = text(client.get(reverse("home")))
    assert "A scorekeeper for Black Maria" in page
    assert "43, or 26 when only the hearts and the queen count" in page
    assert "Omnibus" in page and "no network" in page
    assert f'action="{reverse("start")}"' in page and "Start a game" in page
    assert f'href="{reverse("login")}"' in page and f'href="{reverse("signup")}"' in page
    nb = text(client.get(reverse("home"), **NB))
    assert "Start et spill" in nb


def first_game(client, **more):
    """The first game's one screen, sent: who plays and the rules, as it offers them."""
    form = {
        "new_players": "Ann, Bo, Cy",
        "first_dealer": "draw",
        "ruleset": builtin("Black Maria").pk,
        "end": "target",
        "target": "100",
        "moon": "others",
        "key": "first-key",
    }
    return client.post(reverse("game_new_first"), {**form, **more})


def test_start_a_game_asks_who_plays_and_the_rules_on_one_screen_and_starts_it(client, db):
    """It landed on New table (a name, rules, a box of names), and a game came a screen later."""
    response = start(client)
    assert response.url == reverse("game_new_first")
    guest = Guest.objects.get().user
    assert guest.get_username().startswith(PREFIX) and not guest.has_usable_password()
    page = text(client.get(reverse("game_new_first")))
    assert "Who is playing, and by which rules" in page and "Start the game" in page
    assert "Keep these scores" in page and "Sign out" not in page
    assert not Table.objects.exists()  # nothing is made by looking
    response = first_game(client)
    game = Game.objects.get()
    assert response.url == game.get_absolute_url()
    assert game.table.owner == guest and game.table.name == "Our table"
    assert [s.player.name for s in game.seats.order_by("number")] == ["Ann", "Bo", "Cy"]
    page = client.get(response.url).content.decode()
    settings = reverse("table_settings", args=[game.table.pk])
    assert re.search(rf'<h1>Our table</h1> <a href="{settings}">Rename the table</a>', page)
    assert '<li class="message' not in page  # said beside the name, not on a line of its own
    assert "Rename the table" not in text(client.get(response.url))  # said once
    # Sent again (Back, a double tap): the one game, the one table.
    assert first_game(client).url == game.get_absolute_url()
    assert (Table.objects.count(), Game.objects.count()) == (1, 1)


def test_a_first_game_refused_makes_no_table(client, db):
    start(client)
    response = first_game(client, new_players="Ann, Bo")
    assert response.status_code == 422 and "Choose 3 to 7 players (you chose 2)" in text(response)
    assert not Table.objects.exists()


def test_starting_as_a_guest_is_limited_as_sign_ups_are(client, db):
    from accounts.throttle import LIMITS

    for _ in range(LIMITS["guests"].count):
        start(client)
        client.logout()
    response = start(client)
    assert response.url == reverse("home")
    assert Guest.objects.count() == LIMITS["guests"].count
    assert "Too many new accounts from here today" in text(client.get(reverse("home")))


def test_keeping_the_scores_makes_an_ordinary_account_with_everything_in_it(client, db):
    start(client)
    client.post(
        reverse("table_new"),
        {
            "name": "Our table",
            "players": "Ann\nBo\nCy",
            "default_ruleset": builtin("Black Maria").pk,
        },
    )
    keep = reverse("keep")
    assert "Keep my scores" in text(client.get(keep))
    response = client.post(
        keep,
        {
            "username": "ann",
            "email": "ann@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.url == reverse("home")
    assert not Guest.objects.exists()
    user = get_user_model().objects.get(username="ann")
    assert user.email == "ann@example.com" and Table.objects.get().owner == user
    page = text(client.get(reverse("home")))  # this phone is still signed in
    assert "Our table" in page and "Sign out" in page and "Keep these scores" not in page
    client.logout()
    signed_in = client.post(reverse("login"), {"username": "ann", "password": PASSWORD})
    assert signed_in.status_code == 302
    # Kept once: the page is gone for an ordinary account.
    assert client.get(keep).url == reverse("home")


def test_a_username_can_not_pass_for_a_guest(client, db):
    response = client.post(
        reverse("signup"),
        {
            "username": "guest-abc",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert "start with “guest-”" in text(response)
    assert not get_user_model().objects.exists()


def test_guests_who_never_kept_their_scores_go_after_30_days_with_their_tables(client, db):
    with time_machine.travel(timezone.now() - timedelta(days=31), tick=False):
        start(client)
        old = Guest.objects.get().user
        table = Table.objects.create(name="Old", owner=old)
        players = [table.players.create(name=n) for n in ("A", "B", "C")]
        game_start(table=table, players=players, ruleset=builtin("Black Maria"), first_dealer=0)
    client.logout()
    start(client)  # a guest of today stays
    recent = Guest.objects.exclude(user=old).get().user
    assert clear_guests() == 1
    assert not get_user_model().objects.filter(pk=old.pk).exists()
    assert not Table.objects.filter(name="Old").exists() and not Game.objects.exists()
    assert get_user_model().objects.filter(pk=recent.pk).exists()
    # The daily command does the same, and says how many went.
    with time_machine.travel(timezone.now() + timedelta(days=31), tick=False):
        call_command("clear_guests", stdout=(out := io.StringIO()))
    assert "1 guest account(s) removed." in out.getvalue()


def test_a_guest_back_after_weeks_finds_their_scores_and_each_visit_keeps_them_30_days(client, db):
    """The scores were kept 30 days, but the guest's session (their only way back:
    a guest has no password) ended at Django's 14."""
    began = timezone.now()

    def on_day(day: float):
        return time_machine.travel(began + timedelta(days=day), tick=False)

    with on_day(0):
        start(client)
        guest = Guest.objects.get().user
        Table.objects.create(name="Hytta", owner=guest)
    for day in (29, 29 + 29):  # back on day 29, and 29 days after that
        with on_day(day):
            assert "Hytta" in text(client.get(reverse("home"))), day
            assert clear_guests() == 0
    assert Guest.objects.get().last_seen == began + timedelta(days=58)
    # 31 days without a visit: the session is over, and the daily job clears them.
    with on_day(58 + 31):
        assert "Hytta" not in text(client.get(reverse("home")))
        assert clear_guests() == 1
    assert not Table.objects.exists()


@pytest.mark.django_db
@settings(
    max_examples=15,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    data=FORMS.flatmap(
        lambda form: st.fixed_dictionaries({"uid": JUNK, "token": JUNK}).map(
            lambda link: {**form, **link}
        )
    )
)
def test_no_input_to_the_guest_pages_answers_5xx(client, data):
    """Starting, keeping and resetting a password, sent anything at all: never a 5xx."""
    with transaction.atomic():
        cache.clear()
        assert client.post(reverse("start"), data).status_code < 500
        assert client.get(reverse("keep")).status_code == 200
        response = client.post(reverse("keep"), data)
        assert response.status_code in (302, 422), response.status_code
        client.logout()
        # A forgotten password's pages, sent anything too.
        assert client.post(reverse("password_reset"), data).status_code < 500
        uid, token = (quote(str(data.get(k, k))[:40], safe="") or k for k in ("uid", "token"))
        confirm = f"/accounts/password/reset/{uid}/{token}/"
        assert client.get(confirm).status_code < 500
        assert client.post(confirm, data).status_code < 500
        transaction.set_rollback(True)
