"""Who is signed in: the session and its user read in one query, checked as Django would."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from games.backends import ModelBackend
from games.models import Session


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


def test_the_session_and_its_user_are_read_in_one_query(client, owner):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.post("/accounts/login/", {"username": "ann", "password": "a-long-pass-phrase"})
    assert Session.objects.get().account == owner
    with CaptureQueriesContext(connection) as captured:
        assert signed_in_as(client) == "ann"
    reads = [q["sql"] for q in captured.captured_queries]
    assert "auth_user" in reads[0] and "session" in reads[0]
    assert not any(sql.startswith('SELECT "auth_user"') for sql in reads)


def test_a_session_saved_with_another_account_still_signs_in_its_own_user(client, owner, outsider):
    client.force_login(owner)
    Session.objects.update(account=outsider)  # whatever the column says...
    assert signed_in_as(client) == "ann"  # ...the session's own user it is


def test_signing_out_or_deleting_the_account_removes_its_sessions(client, owner, outsider):
    client.force_login(owner)
    other = Client()
    other.force_login(outsider)
    assert Session.objects.filter(account=owner).count() == 1
    client.post("/accounts/logout/")
    assert not Session.objects.filter(account=owner).exists()
    outsider.delete()
    assert not Session.objects.exists()
