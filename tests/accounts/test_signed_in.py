"""Who is signed in: Django's own sessions and sign-in, as they come."""

from __future__ import annotations

from datetime import timedelta

import time_machine
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone


def signed_in_as(client: Client) -> str | None:
    user = client.get("/").context["user"]  # the first page, whoever asks
    return user.get_username() if user.is_authenticated else None


def test_signing_in_with_a_password_keeps_the_person_signed_in(client, owner):
    response = client.post(
        "/accounts/login/", {"username": "ann", "password": "a-long-pass-phrase"}
    )
    assert response.status_code == 302
    assert signed_in_as(client) == "ann"


def test_an_expired_or_unknown_session_signs_nobody_in(client, owner, settings):
    client.force_login(owner)
    assert signed_in_as(client) == "ann"
    with time_machine.travel(timezone.now() + timedelta(seconds=settings.SESSION_COOKIE_AGE + 1)):
        assert signed_in_as(client) is None
    other = Client()
    other.cookies["sessionid"] = "x" * 32
    assert signed_in_as(other) is None


def test_a_deactivated_or_deleted_account_is_signed_out(client, owner, outsider):
    client.force_login(owner)
    owner.is_active = False
    owner.save()
    assert signed_in_as(client) is None
    client.force_login(outsider)
    assert signed_in_as(client) == "olaf"
    outsider.delete()
    assert signed_in_as(client) is None


def test_a_new_password_signs_out_the_other_phones(client, owner):
    client.force_login(owner)
    owner.set_password("another-long-pass-phrase")
    owner.save()
    assert signed_in_as(client) is None


def test_a_session_is_kept_in_the_database_and_read_through_the_shared_cache(client, owner):
    from django.core.cache import caches

    client.force_login(owner)
    key = client.cookies["sessionid"].value
    assert Session.objects.filter(session_key=key).exists()
    caches["sessions"].clear()  # the cache lost it (culled, restarted): the database has it
    assert signed_in_as(client) == "ann"


def test_signing_out_removes_the_session(client, owner):
    client.force_login(owner)
    assert Session.objects.count() == 1
    client.post("/accounts/logout/")
    assert not Session.objects.exists()
