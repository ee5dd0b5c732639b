"""What only a real server shows: concurrent saves, and several app processes.

These run on PostgreSQL (``.ci/run`` runs the suite there); on SQLite they
are skipped, since its single writer can't show a race.
"""

from __future__ import annotations

import http.cookiejar
import os
import re
import secrets
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from django.contrib.auth.hashers import make_password
from django.db import connection, connections

from games import engine
from games.models import Deal, DealChange
from games.services.deals import deal_edit, deal_record
from games.services.errors import DealConflict
from games.services.sharing import watch_link_replace

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs PostgreSQL (DATABASE_URL); .ci/run runs it",
)


def race(*calls):
    """Run the calls at the same moment, each in its own thread and connection."""
    start = threading.Barrier(len(calls))
    results: list[object] = [None] * len(calls)

    def run(index, call):
        try:
            start.wait()
            results[index] = call()
        except Exception as error:
            results[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return results


@pytest.mark.django_db(transaction=True)
def test_two_phones_saving_the_same_deal_record_it_once(moon_game, owner, member):
    for _ in range(5):
        number = moon_game.deals.count() + 1
        results = race(
            lambda number=number: deal_record(
                game=moon_game, entry=engine.PointsEntry((17, 13, 13)), by=owner, number=number
            ),
            lambda number=number: deal_record(
                game=moon_game, entry=engine.PointsEntry((13, 17, 13)), by=member, number=number
            ),
        )
        recorded = [x for x in results if isinstance(x, Deal)]
        refused = [x for x in results if isinstance(x, DealConflict)]
        assert len(recorded) == 1, results
        assert len(refused) == 1, results
        assert refused[0].message.startswith(f"Deal {number} was just entered by ")
    assert list(moon_game.deals.values_list("number", flat=True).order_by("number")) == [
        1,
        2,
        3,
        4,
        5,
    ]
    assert DealChange.objects.count() == 5
    totals = [0, 0, 0]
    for deal in moon_game.deals.order_by("number"):
        totals = [t + s for t, s in zip(totals, deal.scores, strict=True)]
        assert deal.totals == totals


@pytest.mark.django_db(transaction=True)
def test_two_phones_starting_a_club_nights_round_start_it_once(table, players, owner, member):
    from datetime import date

    from games.models import Evening, Game, Ruleset
    from games.services.clubnights import evening_start, round_start

    here = players + [table.players.create(name=n) for n in ("Dan", "Eva", "Finn")]
    start = {
        "table": table,
        "name": "Friday",
        "day": date(2026, 12, 4),
        "scoring": "places",
        "ruleset": Ruleset.objects.get(table=None, name="Black Maria"),
        "players": here,
        "key": "the-same-form",
    }
    started = race(
        lambda: evening_start(**start, by=owner), lambda: evening_start(**start, by=member)
    )
    assert Evening.objects.count() == 1 and all(isinstance(x, Evening) for x in started), started
    evening = Evening.objects.get()
    results = race(
        lambda: round_start(evening=evening, number=1, by=owner),
        lambda: round_start(evening=evening, number=1, by=member),
    )
    assert sorted(results) == [False, True], results
    assert Game.objects.filter(evening=evening, round=1).count() == 2


@pytest.mark.django_db(transaction=True)
def test_two_phones_editing_the_same_deal_change_it_once(moon_game, owner, member):
    deal = deal_record(game=moon_game, entry=engine.PointsEntry((17, 13, 13)), by=owner)
    results = race(
        lambda: deal_edit(deal=deal, entry=engine.PointsEntry((13, 17, 13)), by=owner, version=1),
        lambda: deal_edit(deal=deal, entry=engine.PointsEntry((13, 13, 17)), by=member, version=1),
    )
    assert sum(isinstance(x, Deal) for x in results) == 1, results
    assert sum(isinstance(x, DealConflict) for x in results) == 1, results
    deal.refresh_from_db()
    assert deal.version == 2
    assert list(moon_game.seats.order_by("number").values_list("total", flat=True)) == deal.scores


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(port: int, seconds: float = 20) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(f"nothing listens on {port}")


class Browser:
    """A tiny cookie-keeping HTTP client for a server on 127.0.0.1."""

    def __init__(self):
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get(self, url: str) -> str:
        with self.opener.open(url, timeout=10) as response:
            return response.read().decode()

    def post(self, url: str, data: dict, referer: str) -> str:
        token = next(c.value for c in self.jar if c.name == "csrftoken")
        request = urllib.request.Request(
            url,
            data=urllib.parse.urlencode({**data, "csrfmiddlewaretoken": token}).encode(),
            headers={"Referer": referer},
        )
        with self.opener.open(request, timeout=10) as response:
            return response.read().decode()


@pytest.mark.django_db(transaction=True)
def test_a_deal_saved_through_one_app_process_shows_through_another(moon_game, owner, tmp_path):
    token = watch_link_replace(moon_game)
    # The app processes use the production password hashers, not the tests' fast one.
    owner.password = make_password("a-long-pass-phrase", hasher="pbkdf2_sha256")
    owner.save(update_fields=["password"])
    db = connection.settings_dict
    env = {
        **{k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"},
        "DJANGO_SETTINGS_MODULE": "scorekeeper.settings",
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "SESSION_COOKIE_SECURE": "0",
        "CSRF_COOKIE_SECURE": "0",
        "STATIC_ROOT": str(tmp_path / "static"),
    }
    env.pop("DEBUG", None)
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    ports = [free_port(), free_port()]
    log = (tmp_path / "gunicorn.log").open("w")
    servers = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "scorekeeper.wsgi",
                "-b",
                f"127.0.0.1:{port}",
                "-w",
                "1",
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=log,
        )
        for port in ports
    ]
    try:
        for port in ports:
            wait_for(port)
        a, b = (f"http://127.0.0.1:{port}" for port in ports)
        phone = Browser()
        phone.get(f"{a}/accounts/login/")
        phone.post(
            f"{a}/accounts/login/",
            {"username": "ann", "password": "a-long-pass-phrase"},
            referer=f"{a}/accounts/login/",
        )
        game_url = f"{a}/games/{moon_game.pk}/"
        phone.get(game_url)
        saved = phone.post(
            f"{a}/games/{moon_game.pk}/deals/",
            {"mode": "points", "number": "1", "points-0": "17", "points-1": "13", "points-2": "13"},
            referer=game_url,
        )
        assert "Deal 2 — Ben deals" in re.sub(r"\s+", " ", saved), saved[-3000:]
        watcher = Browser()
        page = re.sub(r"\s+", " ", watcher.get(f"{b}/watch/{token}/"))
        assert '<span class="points">17</span>' in page
        # The signed-in phone's session works on the other process too.
        page = re.sub(r"\s+", " ", phone.get(f"{b}/games/{moon_game.pk}/"))
        assert "Deal 2 — Ben deals" in page
    finally:
        for server in servers:
            server.terminate()
            server.wait(10)
        log.close()


@pytest.mark.django_db(transaction=True)
def test_tables_playing_at_once_lose_nothing():
    """A small run of the load test (``make load`` plays 50 tables)."""
    from bench import load

    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    summary, problems = load.run(url, tables=8, workers=3, max_deals=30, seconds=120, seed=11)
    assert problems == [], summary
    assert "8 tables" in summary
    # Deal 1 is edited on the way at most tables: the game page still offers it.
    assert int(re.search(r"(\d+) edits", summary).group(1)) > 0, summary


@pytest.mark.django_db(transaction=True)
def test_tables_lose_nothing_while_connections_are_cut_and_workers_killed():
    """The fault mode: every game still matches its clients' scoring, nothing doubled."""
    from bench import load

    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    # Faults more often than by default: a short run still meets both kinds (on a
    # slow day the games under faults last about a second after the sign-ins).
    summary, problems = load.run(
        url,
        tables=8,
        workers=2,
        max_deals=30,
        seconds=120,
        seed=12,
        faults=True,
        fault_every=(0.1, 0.2),
    )
    assert problems == [], summary
    cuts = int(re.search(r"(\d+) database connections cut", summary).group(1))
    kills = int(re.search(r"(\d+) workers killed", summary).group(1))
    assert cuts > 0 and kills > 0, summary


@pytest.mark.django_db(transaction=True)
def test_a_connection_the_database_cut_off_is_replaced_before_the_next_request():
    """Django's own health check: a cut connection never fails a request."""
    import psycopg

    wrapper = connections["default"]
    assert wrapper.settings_dict["CONN_HEALTH_CHECKS"]
    wrapper.ensure_connection()
    pid = wrapper.connection.info.backend_pid
    with psycopg.connect(**wrapper.get_connection_params(), autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
    # As Django does at the start of every request, straight after the last one.
    wrapper.close_if_unusable_or_obsolete()
    with wrapper.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)
    assert wrapper.connection.info.backend_pid != pid


@pytest.mark.django_db(transaction=True)
def test_values_past_32_bits_are_stored_as_they_are_or_refused(moon_game):
    """Client-side binding: a number too big for its column is an error, never wrapped."""
    from django.db import DataError, transaction

    from games.models import Seat

    seat = moon_game.seats.first()
    seat.total = 2**31 + 5
    with pytest.raises(DataError), transaction.atomic():
        seat.save(update_fields=["total"])
    assert Seat.objects.get(pk=seat.pk).total == 0


@pytest.mark.django_db(transaction=True)
def test_guests_starting_at_once_from_one_address_make_no_more_than_the_limit(live_server):
    """Twelve "Start a game" at the same moment, over HTTP from one address with
    five guests left of its day: five guests."""
    import http.client

    from django.middleware.csrf import _get_new_csrf_string
    from django.utils import timezone

    from accounts import throttle
    from accounts.models import AddressSlot, Guest

    left = 5
    taken = throttle.LIMITS["guests"].count - left
    AddressSlot.objects.bulk_create(
        AddressSlot(kind="guests", address="127.0.0.1", slot=n, taken_at=timezone.now())
        for n in range(taken)
    )
    host, port = live_server.url.removeprefix("http://").split(":")
    start = threading.Barrier(12)

    def post() -> int:
        csrf = _get_new_csrf_string()
        conn = http.client.HTTPConnection(host, int(port), timeout=30)
        headers = {"Cookie": f"csrftoken={csrf}", "X-CSRFToken": csrf, "Content-Length": "0"}
        start.wait()
        conn.request("POST", "/accounts/start/", headers=headers)
        status = conn.getresponse().status
        conn.close()
        return status

    answers: list[int] = []
    threads = [threading.Thread(target=lambda: answers.append(post())) for _ in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert answers.count(302) == 12, answers
    assert Guest.objects.count() == left


def previewed(owner, table):
    """The moon example uploaded to ``table`` and shown: (the import's URL, the phone
    signed in as ``owner``, the upload's key that confirms it)."""
    import json

    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client
    from django.urls import reverse

    from tests.factories import MOON_EXAMPLE

    url = reverse("table_import", args=[table.pk])
    phone = Client()
    phone.force_login(owner)
    file = SimpleUploadedFile("h.json", json.dumps(MOON_EXAMPLE).encode(), "application/json")
    page = phone.post(url, {"file": file}).content.decode()
    return url, phone, re.search(r'name="upload" value="([A-Za-z0-9_-]+)"', page).group(1)


@pytest.mark.django_db(transaction=True)
def test_one_import_confirmed_from_several_phones_at_once_imports_once(owner, table, players):
    """The same confirmation sent four times at once: one import; the others open it."""
    from django.test import Client

    from games.models import Game
    from tests.factories import MOON_EXAMPLE

    url, _, token = previewed(owner, table)

    def confirm():
        other = Client()
        other.force_login(owner)
        response = other.post(url, {"upload": token}, follow=True)
        return response.status_code, "imported already" in response.content.decode()

    answers = race(*[confirm] * 4)
    assert Game.objects.count() == len(MOON_EXAMPLE["games"]), answers
    assert all(status == 200 for status, _ in answers), answers
    assert sum(again for _, again in answers) == 3, answers


@pytest.mark.django_db(transaction=True)
def test_one_import_with_new_players_confirmed_four_times_at_once_answers_each(
    live_server, owner, table
):
    """Over HTTP, the file's players new to the table: every phone is answered (one
    answered 500 when two made the same new player), and the games are made once."""
    import http.client

    from django.urls import reverse

    from games.models import Game
    from tests.factories import MOON_EXAMPLE

    url, phone, token = previewed(owner, table)
    assert table.players.count() == 0
    host, port = live_server.url.removeprefix("http://").split(":")
    csrf = "c" * 32
    headers = {
        "Cookie": f"sessionid={phone.cookies['sessionid'].value}; csrftoken={csrf}",
        "Content-Type": "application/x-www-form-urlencoded",
    }
    body = urllib.parse.urlencode({"upload": token, "csrfmiddlewaretoken": csrf})
    start = threading.Barrier(4)

    def confirm() -> tuple[int, str]:
        conn = http.client.HTTPConnection(host, int(port), timeout=30)
        try:
            start.wait()
            conn.request("POST", url, body=body, headers=headers)
            response = conn.getresponse()
            response.read()
            return response.status, response.getheader("Location", "")
        finally:
            conn.close()

    answers = race(*[confirm] * 4)
    history = reverse("table_history", args=[table.pk])
    assert answers == [(302, history)] * 4, answers
    assert Game.objects.count() == len(MOON_EXAMPLE["games"])
    assert table.players.count() == 3


@pytest.mark.django_db(transaction=True)
def test_one_bg_stats_import_confirmed_from_several_phones_at_once_imports_once(owner, table):
    """The plays logged in BG Stats, their import sent four times at once: the
    plays are made once, their new players once, and every phone is answered."""
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client
    from django.urls import reverse

    from tests.formats.test_logged import BG_STATS

    url = reverse("table_import", args=[table.pk])
    phone = Client()
    phone.force_login(owner)
    page = phone.post(url, {"file": SimpleUploadedFile("e.json", BG_STATS)}).content.decode()
    token = re.search(r'name="upload" value="([A-Za-z0-9_-]+)"', page).group(1)
    ticked = re.findall(r'name="games" value="([^"]+)"[^>]*checked', page)
    sent = {"upload": token, "games": ticked, "shown": ticked, "step": "totals"}

    def confirm():
        other = Client()
        other.force_login(owner)
        response = other.post(url, sent, follow=True)
        return response.status_code, "imported already" in response.content.decode()

    answers = race(*[confirm] * 4)
    assert table.games.count() == 4 and table.players.count() == 4, answers
    assert all(status == 200 for status, _ in answers), answers
    assert sum(again for _, again in answers) == 3, answers


@pytest.mark.django_db(transaction=True)
def test_games_finishing_at_once_at_one_table_while_another_saves_all_land(table, players):
    """Each finish rates the table again and moves its chances on; none waits for a game
    another phone is saving into, so three at once all land and the ladder counts both."""
    from games.models import Game, Table
    from games.services.games import game_start
    from tests.factories import builtin

    games = [
        game_start(table=table, players=players, ruleset=builtin("Hearts only"), first_dealer=0)
        for _ in range(3)
    ]
    for game in games[:2]:  # one deal from the end: Cara at 39 of 50
        for _ in range(3):
            deal_record(game=game, entry=engine.PointsEntry((0, 13, 13)), by=None)
    before = Table.objects.get(pk=table.pk).chances_version
    results = race(
        lambda: deal_record(game=games[0], entry=engine.PointsEntry((0, 13, 13)), by=None),
        lambda: deal_record(game=games[1], entry=engine.PointsEntry((13, 0, 13)), by=None),
        lambda: deal_record(game=games[2], entry=engine.PointsEntry((0, 13, 13)), by=None),
    )
    assert not [r for r in results if isinstance(r, Exception)], results
    assert Game.objects.filter(status=Game.Status.FINISHED).count() == 2
    assert Table.objects.get(pk=table.pk).chances_version == before + 2
    from games.models import Standing

    assert sorted(Standing.objects.values_list("games", flat=True)) == [2, 2, 2]
