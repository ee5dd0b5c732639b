"""A club's first night on its own server: what a new self-hoster meets before
anyone plays. Every error page is the app's own, in the person's language; a
forged Host is a 400; the health check says when the database is gone; a
backup says what to fix; a private club can close the door to strangers."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import OperationalError, connection
from django.test import Client, override_settings
from django.urls import include, path, reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from backups.management.commands.daily import STEPS, next_run, parse_time

NB = {"HTTP_ACCEPT_LANGUAGE": "nb-NO,nb;q=0.9"}


def boom(request):
    raise RuntimeError("a bug")


# This module is its own URLconf for the 500 test: Django finds handler500 in it.
urlpatterns = [path("boom/", boom), path("", include("scorekeeper.urls"))]
handler500 = "scorekeeper.errors.server_error"


def styled(page: str) -> bool:
    """The site around the words: a phone's viewport, the stylesheet, a way back."""
    return '<meta name="viewport"' in page and "/static/css/app" in page and 'href="/"' in page


FORGED = ["evil.example", "scores.example.org:99999", "bad host", "x" * 300]


@pytest.mark.parametrize("host", FORGED)
def test_a_forged_host_is_a_400_in_the_app_s_own_page(client, db, host):
    response = client.get("/", HTTP_HOST=host)
    assert response.status_code == 400
    page = response.content.decode()
    assert styled(page) and "Wrong address" in page and "ALLOWED_HOSTS" in page


def test_a_forged_host_is_refused_in_norwegian_to_a_norwegian_phone(client, db):
    response = client.get("/", HTTP_HOST="evil.example", HTTP_ACCEPT_LANGUAGE="no")
    page = response.content.decode()
    assert response.status_code == 400 and '<html lang="nb">' in page
    assert "Feil adresse" in page


def test_the_404_page_is_the_app_s_own_in_the_person_s_language(client, db):
    response = client.get("/no/such/page/", **NB)
    page = response.content.decode()
    assert response.status_code == 404 and styled(page)
    assert "Fant ikke siden" in page and '<html lang="nb">' in page
    english = client.get("/no/where/").content.decode()
    assert "There is no such page here, or it is not yours to see" in english


def test_the_404_page_keeps_the_language_chosen_on_the_page(client, db):
    client.cookies["django_language"] = "nb"
    page = client.get("/no/such/page/").content.decode()
    assert "Fant ikke siden" in page


def test_an_outsider_gets_the_same_404_as_for_what_is_not_there(client_outsider, moon_game):
    theirs = client_outsider.get(reverse("game_detail", args=[moon_game.pk]))
    gone = client_outsider.get(reverse("game_detail", args=[999999]))
    assert theirs.status_code == gone.status_code == 404
    said = [re.search(r"<main.*</main>", r.content.decode(), re.S)[0] for r in (theirs, gone)]
    assert said[0] == said[1] and "Not found" in said[0]


@override_settings(ROOT_URLCONF=__name__)
def test_the_500_page_is_the_app_s_own_and_says_what_may_be_lost(db):
    client = Client(raise_request_exception=False)
    response = client.get("/boom/", **NB)
    page = response.content.decode()
    assert response.status_code == 500 and styled(page)
    assert "Noe gikk galt" in page


def test_the_403_page_is_the_app_s_own(rf, db):
    from django.core.exceptions import PermissionDenied

    from scorekeeper.errors import forbidden

    request = rf.get("/", **NB)
    response = forbidden(request, PermissionDenied())
    assert response.status_code == 403 and "Ikke tillatt" in response.content.decode()


def test_health_answers_ok_with_the_release(client, db, settings):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.content.decode() == f"ok {settings.VERSION}"


def test_health_answers_503_when_the_database_does_not(client, db, monkeypatch):
    def gone(*args, **kwargs):
        raise OperationalError("connection refused")

    with monkeypatch.context() as patched:  # undone before the database is put back
        patched.setattr(connection, "cursor", gone)
        response = client.get("/healthz")
    assert response.status_code == 503 and b"database" in response.content


def test_alive_asks_nothing_of_the_database(client, db, django_assert_num_queries):
    """The benchmark's trivial view: its figure must not move with the database."""
    with django_assert_num_queries(0):
        response = client.get("/livez")
    assert response.status_code == 200 and response.content.startswith(b"alive ")


def test_health_is_never_sent_to_https(client, db, settings):
    """The container's health check asks the app itself, over plain HTTP."""
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/healthz").status_code == 200
    assert client.get("/").status_code == 301


def a_folder_that_can_t_be_made(tmp_path):
    """Under a file: refused to root too (the tests may run as root)."""
    (tmp_path / "a-file").write_text("")
    return tmp_path / "a-file" / "backups"


def test_a_backup_into_a_folder_it_can_t_make_says_what_to_fix(transactional_db, tmp_path):
    with pytest.raises(CommandError) as refused:
        call_command("backup", to=a_folder_that_can_t_be_made(tmp_path))
    said = str(refused.value)
    assert said.startswith("No backup was made:") and "writable by this user" in said
    assert "\n" not in said


def test_a_backup_makes_its_own_folder(transactional_db, tmp_path, capsys):
    call_command("backup", to=tmp_path / "new" / "backups")
    assert len(list((tmp_path / "new" / "backups").iterdir())) == 1


def test_the_daily_job_backs_up_first_and_clears_the_rest(
    transactional_db, tmp_path, settings, capsys
):
    settings.BACKUP_DIR = tmp_path
    call_command("daily")
    said = capsys.readouterr().out
    assert STEPS[0] == "backup" and said.index("Backed up to") < said.index("forgotten")
    assert len(list(tmp_path.iterdir())) == 1


def test_the_daily_job_goes_on_past_a_step_that_fails(transactional_db, tmp_path, settings, capsys):
    settings.BACKUP_DIR = a_folder_that_can_t_be_made(tmp_path)
    with pytest.raises(CommandError, match="did not finish"):
        call_command("daily")
    said = capsys.readouterr()
    assert "backup failed" in said.err and "uploaded file(s) forgotten" in said.out


def test_the_daily_job_runs_at_the_time_it_is_given():
    from datetime import datetime
    from zoneinfo import ZoneInfo

    oslo = ZoneInfo("Europe/Oslo")
    evening = datetime(2026, 12, 7, 22, 0, tzinfo=oslo)
    assert next_run(evening, *parse_time("04:00")) == datetime(2026, 12, 8, 4, 0, tzinfo=oslo)
    night = datetime(2026, 12, 8, 3, 0, tzinfo=oslo)
    assert next_run(night, *parse_time("04:00")) == datetime(2026, 12, 8, 4, 0, tzinfo=oslo)
    with pytest.raises(CommandError, match="HH:MM"):
        parse_time("4am")


def test_a_private_club_closes_the_door_to_strangers(client, db, settings):
    settings.SIGNUPS_OPEN = False
    home = client.get("/").content.decode()
    assert reverse("signup") not in home and reverse("start") not in home
    assert "ask the club for an account" in home
    assert reverse("signup") not in client.get(reverse("login")).content.decode()
    assert client.get(reverse("signup")).status_code == 404
    assert client.post(reverse("signup"), {"username": "x"}).status_code == 404
    assert client.post(reverse("start")).status_code == 404
    from django.contrib.auth import get_user_model

    assert not get_user_model().objects.exists()


def test_an_open_club_lets_strangers_in(client, db):
    home = client.get("/").content.decode()
    assert reverse("signup") in home and reverse("start") in home


def test_a_front_that_is_not_trusted_is_named_in_the_log(client, db, settings, caplog):
    """Behind a front with TRUSTED_PROXIES empty, forms are refused (the phone says
    https, the app sees http): the log says what to set, once per front."""
    from scorekeeper.middleware import _say_the_front_is_not_trusted

    _say_the_front_is_not_trusted.cache_clear()
    settings.TRUSTED_PROXIES = []
    for _ in range(3):
        client.get("/", HTTP_X_FORWARDED_PROTO="https", REMOTE_ADDR="10.89.0.5")
    said = [r.getMessage() for r in caplog.records if "TRUSTED_PROXIES" in r.getMessage()]
    assert len(said) == 1 and "set TRUSTED_PROXIES=10.89.0.5" in said[0]
    caplog.clear()
    client.get("/", REMOTE_ADDR="10.89.0.6")  # a phone straight to the app: nothing said
    assert not caplog.records


@given(
    host=st.text(min_size=0, max_size=300),
    language=st.text(min_size=0, max_size=200),
)
@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_no_host_or_language_header_breaks_an_error_page(client, db, host, language):
    """Whatever a scanner sends as Host and Accept-Language, the answer is the app's
    own page, never a 500."""
    headers = {"HTTP_ACCEPT_LANGUAGE": language}
    if host:
        headers["HTTP_HOST"] = host
    try:
        response = client.get("/no/such/page/", **headers)
    except UnicodeEncodeError:
        return  # no HTTP client could send it: headers are bytes of Latin-1
    assert response.status_code in (400, 404)
