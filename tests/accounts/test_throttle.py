"""Sign-in and sign-up limits, with the clock moved to each window's edge."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts import throttle
from accounts.models import AddressSlot

START = dt.datetime(2026, 12, 1, 20, 0, tzinfo=dt.UTC)
PASSWORD = "a-long-pass-phrase"


def sign_in(client: Client, username: str, password: str, url: str | None = None):
    return client.post(url or reverse("login"), {"username": username, "password": password})


def fail_five_times(client: Client, username: str = "ann", url: str | None = None) -> None:
    for _ in range(throttle.FAILURES_PER_ACCOUNT):
        sign_in(client, username, "wrong", url)


def test_five_failures_pause_the_account_for_fifteen_minutes_after_the_last(client, owner):
    with time_machine.travel(START, tick=False) as clock:
        fail_five_times(client)
        clock.shift(dt.timedelta(minutes=14, seconds=50))
        response = sign_in(client, "ann", PASSWORD)
        assert response.status_code == 429
        assert "signing in is paused for 15 minutes" in response.content.decode()
        assert "_auth_user_id" not in client.session
        # That try (while paused) counts too: the pause runs from it.
        clock.shift(dt.timedelta(minutes=14, seconds=50))
        assert sign_in(client, "ann", PASSWORD).status_code == 429
        clock.shift(dt.timedelta(minutes=15, seconds=20))
        assert sign_in(client, "ann", PASSWORD).status_code == 302
        assert client.session["_auth_user_id"] == str(owner.pk)


def test_a_username_written_another_way_counts_against_the_same_account(client, owner):
    get_user_model().objects.create_user("pab", password=PASSWORD)
    with time_machine.travel(START, tick=False):
        for written in ("ｐａｂ", "PAB", "pab ", "Pab", "ｐａｂ"):
            sign_in(client, written, "wrong")
        assert sign_in(client, "pab", PASSWORD).status_code == 429
        # Somebody else's account from the same address is not paused.
        assert sign_in(Client(), "ann", PASSWORD).status_code == 302


def test_the_admins_sign_in_is_paused_too(client, db):
    get_user_model().objects.create_superuser("boss", password=PASSWORD)
    admin_login = reverse("admin:login")
    with time_machine.travel(START, tick=False):
        fail_five_times(client, "boss", admin_login)
        response = sign_in(client, "boss", PASSWORD, admin_login)
        assert response.status_code == 429
        assert "_auth_user_id" not in client.session
        # And our own sign-in page for the same account, from the same address.
        assert sign_in(Client(), "boss", PASSWORD).status_code == 429


def test_failures_are_counted_in_the_database_once_each(client, owner):
    from axes.models import AccessAttempt

    fail_five_times(client)
    attempt = AccessAttempt.objects.get()
    assert attempt.username == "ann" and attempt.failures_since_start == 5


def signup(client: Client, username: str):
    return client.post(
        reverse("signup"),
        {
            "username": username,
            "password1": "long-pass-phrase-1",
            "password2": "long-pass-phrase-1",
        },
    )


def start_a_game(client: Client):
    return client.post(reverse("start"))


@pytest.mark.django_db
def test_a_club_of_forty_on_one_wifi_all_get_in_and_a_script_stops_at_sixty_a_day():
    """A new club's first evening on the venue's one address: twelve signing up
    and three starting a game met "Too many new accounts" from the sixth on."""
    with time_machine.travel(START, tick=False) as clock:
        for i in range(40):  # the club, over an evening
            assert signup(Client(), f"member{i}").status_code == 302
            assert start_a_game(Client()).url == reverse("game_new_first")
            clock.shift(dt.timedelta(minutes=3))
        for i in range(40, 60):  # a script goes on from the same address
            assert signup(Client(), f"bot{i}").status_code == 302
        response = signup(Client(), "bot60")
        assert response.status_code == 429
        assert "one network may make 60 a day" in response.content.decode()
        no = signup(Client(HTTP_ACCEPT_LANGUAGE="nb"), "bot61").content.decode()
        assert "ett nettverk kan lage 60 om dagen" in no
        # A day after the first, that one has left the window: one more may come.
        clock.move_to(START + dt.timedelta(days=1, seconds=30))
        assert signup(Client(), "tomorrow").status_code == 302
        assert signup(Client(), "later").status_code == 429
    assert not get_user_model().objects.filter(username__in=["bot60", "later"]).exists()
    assert AddressSlot.objects.filter(kind="signups").count() == 60


@pytest.mark.django_db
def test_guests_have_their_own_sixty_a_day():
    with time_machine.travel(START, tick=False):
        for _ in range(60):
            assert start_a_game(Client()).url == reverse("game_new_first")
        refused = start_a_game(Client())
        assert refused.url == reverse("home")  # told why there
        assert signup(Client(), "ann").status_code == 302  # signing up is counted apart


@pytest.mark.django_db
def test_ipv6_phones_are_counted_by_their_network_not_each_address():
    """An IPv6 phone can take a fresh address at will: a /64 is one network."""
    with time_machine.travel(START, tick=False):
        for n in range(60):
            phone = Client(REMOTE_ADDR=f"2001:db8:1:2::{n + 1:x}")
            assert signup(phone, f"v6-{n}").status_code == 302
        assert signup(Client(REMOTE_ADDR="2001:db8:1:2:ffff::9"), "more").status_code == 429
        assert signup(Client(REMOTE_ADDR="2001:db8:1:3::1"), "next").status_code == 302
    assert set(AddressSlot.objects.values_list("address", flat=True)) == {
        "2001:db8:1:2::/64",
        "2001:db8:1:3::/64",
    }


@pytest.mark.django_db
def test_behind_the_front_throttling_counts_per_phone(settings):
    """From the front (TRUSTED_PROXIES) the last hop it appended is the phone; from
    anyone else X-Forwarded-For is forged and changes nothing."""
    settings.TRUSTED_PROXIES = ["10.0.0.1", "::1"]
    forged = {"HTTP_X_FORWARDED_FOR": "6.6.6.6, 203.0.113.9"}
    for n in range(3):
        assert signup(Client(REMOTE_ADDR="10.0.0.1", **forged), f"ok{n}").status_code == 302
    assert AddressSlot.objects.filter(address="203.0.113.9").count() == 3
    # Another phone behind the front is counted apart.
    other = {"HTTP_X_FORWARDED_FOR": "203.0.113.10"}
    assert signup(Client(REMOTE_ADDR="10.0.0.1", **other), "other").status_code == 302
    # A phone that reaches the app directly can't pass as another.
    direct = Client(REMOTE_ADDR="192.0.2.5", HTTP_X_FORWARDED_FOR="198.51.100.1")
    assert signup(direct, "direct").status_code == 302
    assert not AddressSlot.objects.filter(address="198.51.100.1").exists()
    assert AddressSlot.objects.filter(address="192.0.2.5").count() == 1


def test_https_is_believed_from_the_front_only(rf, settings):
    from scorekeeper.middleware import forwarded_by_the_front_only

    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    seen = forwarded_by_the_front_only(lambda request: request)
    from_front = seen(rf.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_PROTO="https"))
    assert from_front.is_secure()
    forged = seen(rf.get("/", REMOTE_ADDR="192.0.2.5", HTTP_X_FORWARDED_PROTO="https"))
    assert not forged.is_secure()
    assert "HTTP_X_FORWARDED_PROTO" not in forged.META


def test_a_request_without_an_address_still_signs_in(owner):
    """Behind a proxy on a unix socket REMOTE_ADDR may be empty: sign-in must not fail."""
    client = Client(REMOTE_ADDR="")
    assert sign_in(client, "ann", PASSWORD).status_code == 302
    assert sign_in(Client(REMOTE_ADDR=""), "ann", "wrong").status_code == 200


def test_guessing_across_many_usernames_pauses_the_address(client, owner):
    """Password spraying: one guess each for many accounts counts against the address."""
    with time_machine.travel(START, tick=False) as clock:
        for i in range(throttle.FAILURES_PER_ADDRESS):
            assert sign_in(client, f"someone{i}", "Summer2026!").status_code == 200
            clock.shift(dt.timedelta(seconds=30))
        # Even the right password for a real account is not checked from here now.
        response = sign_in(client, "ann", PASSWORD)
        assert response.status_code == 429
        assert "signing in is paused for 15 minutes" in response.content.decode()
        assert "_auth_user_id" not in client.session
        # Another address signs in as ever.
        elsewhere = Client(REMOTE_ADDR="192.0.2.77")
        assert sign_in(elsewhere, "ann", PASSWORD).status_code == 302
        # 15 minutes after the last try (the paused one counts too), the pause is over.
        clock.shift(dt.timedelta(minutes=15, seconds=30))
        assert sign_in(client, "ann", PASSWORD).status_code == 302


def test_a_person_mistyping_their_own_password_is_not_paused_for_the_address(client, owner):
    with time_machine.travel(START, tick=False) as clock:
        for _ in range(3):
            for _ in range(throttle.FAILURES_PER_ACCOUNT - 1):
                sign_in(client, "ann", "wrong")
                clock.shift(dt.timedelta(seconds=20))
            assert sign_in(client, "ann", PASSWORD).status_code == 302
            client.logout()
        assert not throttle.address_paused(client.get(reverse("login")).wsgi_request)
