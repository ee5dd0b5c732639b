"""Your account: the email, the password (changed or reset by email), deleting it."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

from games.models import Game, Membership, Table
from games.services.games import game_start
from tests.factories import builtin, text

PASSWORD = "a-long-pass-phrase"
NEW = "another-long-pass-phrase"


def signed_in(client: Client) -> bool:
    return client.get(reverse("home")).context["user"].is_authenticated


@pytest.fixture
def ann(owner):
    owner.email = "ann@example.com"
    owner.save()
    return owner


def test_the_account_page_saves_an_email_and_links_to_the_rest(client, ann):
    client.force_login(ann)
    page = text(client.get(reverse("account")))
    for name in ("password_change", "account_export", "account_delete"):
        assert f'href="{reverse(name)}"' in page
    client.post(reverse("account"), {"email": "ann@example.org"})
    ann.refresh_from_db()
    assert ann.email == "ann@example.org"
    response = client.post(reverse("account"), {"email": "not an address"})
    assert response.status_code == 422


def test_a_changed_password_signs_the_other_phones_out(ann):
    here, other = Client(), Client()
    for phone in (here, other):
        assert (
            phone.post(reverse("login"), {"username": "ann", "password": PASSWORD}).status_code
            == 302
        )
    response = here.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW},
    )
    assert response.url == reverse("account")
    assert signed_in(here) and not signed_in(other)
    wrong = here.post(
        reverse("password_change"),
        {"old_password": "wrong", "new_password1": NEW, "new_password2": NEW},
    )
    assert wrong.status_code == 200 and "incorrectly" in text(wrong)


def test_a_forgotten_password_is_reset_by_a_link_that_works_once(client, ann):
    response = client.post(reverse("password_reset"), {"email": "ann@example.com"})
    assert response.url == reverse("password_reset_done")
    (message,) = mail.outbox
    link = re.search(r"https?://[^/]+(/accounts/password/reset/\S+/)", message.body).group(1)
    page = client.get(link, follow=True)
    assert 'name="new_password1"' in text(page)
    form_url = page.redirect_chain[-1][0]
    done = client.post(form_url, {"new_password1": NEW, "new_password2": NEW})
    assert done.url == reverse("password_reset_complete")
    assert Client().post(reverse("login"), {"username": "ann", "password": NEW}).status_code == 302
    assert (
        Client().post(reverse("login"), {"username": "ann", "password": PASSWORD}).status_code
        == 200
    )
    # Used once: the same link is refused.
    again = client.get(link, follow=True)
    assert "has been used already" in text(again)
    # An unknown address says the same as a known one, and sends nothing.
    client.post(reverse("password_reset"), {"email": "nobody@example.com"})
    assert len(mail.outbox) == 1


def test_asking_for_resets_is_limited_per_address(client, ann):
    for _ in range(5):
        client.post(reverse("password_reset"), {"email": "ann@example.com"})
    response = client.post(reverse("password_reset"), {"email": "ann@example.com"})
    assert response.status_code == 429
    assert "Too many password resets" in text(response)
    assert len(mail.outbox) == 5


def test_deleting_the_account_says_what_goes_then_takes_its_tables(
    client, ann, member, table, players
):
    game_start(table=table, players=players, ruleset=builtin("Black Maria"), first_dealer=0)
    client.force_login(ann)
    page = text(client.get(reverse("account_delete")))
    assert table.name in page and "1 game" in page and member.get_username() in page
    refused = client.post(reverse("account_delete"), {"username": "someone"})
    assert refused.status_code == 422 and Table.objects.exists()
    response = client.post(reverse("account_delete"), {"username": "ann"})
    assert response.url == reverse("home")
    assert not get_user_model().objects.filter(username="ann").exists()
    assert not Table.objects.exists() and not Game.objects.exists()
    assert not Membership.objects.exists()
    assert not signed_in(client)


def test_the_login_page_renders(client, db):
    response = client.get(reverse("login"))
    assert response.status_code == 200
    assert "<h1>Sign in</h1>" in text(response)


def test_anonymous_visitors_are_sent_to_sign_in(client, moon_game):
    response = client.get(moon_game.get_absolute_url())
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


@pytest.mark.parametrize("taken", ["ann", "ANN", "Ann"])
def test_signing_up_with_a_username_someone_has_says_so(client, owner, taken):
    """A name in use, in any case: said in the person's words, nothing made (was a 500)."""
    response = client.post(
        reverse("signup"),
        {"username": taken, "password1": "long-pass-phrase-1", "password2": "long-pass-phrase-1"},
    )
    assert response.status_code == 200
    assert f"Someone has the username {taken} already: choose another." in text(response)
    assert get_user_model().objects.count() == 1
    nb = client.post(
        reverse("signup"),
        {"username": taken, "password1": "long-pass-phrase-1", "password2": "long-pass-phrase-1"},
        HTTP_ACCEPT_LANGUAGE="nb",
    )
    assert f"Noen har brukernavnet {taken} allerede: velg et annet." in text(nb)


def test_keeping_a_guests_scores_under_a_username_someone_has_says_so(client, owner):
    client.post(reverse("start"))
    response = client.post(
        reverse("keep"),
        {"username": "ANN", "password1": "long-pass-phrase-1", "password2": "long-pass-phrase-1"},
    )
    assert response.status_code in (200, 422)
    assert "Someone has the username ANN already: choose another." in text(response)
    assert not get_user_model().objects.filter(username="ANN").exists()


def test_signing_up_offers_an_email_and_keeps_it_for_a_forgotten_password(client, db):
    page = text(client.get(reverse("signup")))
    assert "Email (optional)" in page
    assert "Only to send you a link if you forget your password." in page
    data = {"password1": "long-pass-phrase-1", "password2": "long-pass-phrase-1"}
    made = client.post(reverse("signup"), {**data, "username": "bo", "email": "bo@example.com"})
    assert made.status_code == 302
    assert get_user_model().objects.get(username="bo").email == "bo@example.com"
    client.logout()
    assert client.post(reverse("signup"), {**data, "username": "cy"}).status_code == 302
    assert get_user_model().objects.get(username="cy").email == ""
    nb = text(Client(HTTP_ACCEPT_LANGUAGE="nb").get(reverse("signup")))
    assert "E-post (valgfritt)" in nb
    assert "Bare for å sende deg en lenke hvis du glemmer passordet." in nb
