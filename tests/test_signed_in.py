"""Who is signed in: the session and the user, read with prepared queries, as Django would."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from games.backends import ModelBackend


def signed_in_as(client: Client) -> str | None:
    response = client.get("/")
    return None if response.status_code == 302 else response.context["user"].get_username()


def test_signing_in_with_a_password_keeps_the_person_signed_in(client, owner):
    response = client.post(
        "/accounts/login/", {"username": "ann", "password": "a-long-pass-phrase"}
    )
    assert response.status_code == 302
    assert signed_in_as(client) == "ann"
    assert client.session["_auth_user_backend"] == "games.backends.ModelBackend"


def test_an_expired_or_unknown_session_signs_nobody_in(client, owner):
    client.force_login(owner)
    assert signed_in_as(client) == "ann"
    Session.objects.update(expire_date=timezone.now() - timedelta(seconds=1))
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


def test_the_user_read_is_the_orms(owner):
    user = ModelBackend().get_user(str(owner.pk))
    orm = get_user_model().objects.get(pk=owner.pk)
    assert user == orm and user.password == orm.password
    assert user.date_joined == orm.date_joined and user.is_active
    assert ModelBackend().get_user(str(owner.pk + 1000)) is None
