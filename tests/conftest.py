from __future__ import annotations

import re
from collections import Counter
from importlib import import_module

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.utils import translation

from games.models import Player, Table
from games.services.games import game_start
from tests.factories import builtin

# Fixtures that reach a database: a test with none of them needs no database, so
# it runs once (on SQLite) and not again on PostgreSQL (.ci/run).
DATABASE_FIXTURES = {
    "db",
    "transactional_db",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
    "live_server",
}


# The tests that share the production stack (the `front` fixture), named by
# module: pytest-xdist schedules by test id alone (its xdist_group marks no longer
# reach the scheduler under pytest 9.2), and these run in one worker, so the
# stack starts once a run.
FRONT_MODULES = (
    "tests/deploy/test_front.py",
    "tests/deploy/test_upgrade.py",
    "tests/e2e/test_through_the_front.py",
)


@pytest.hookimpl(optionalhook=True)  # a run without pytest-xdist (-p no:xdist) has no such hook
def pytest_xdist_make_scheduler(config, log):
    """The load spread over the workers test by test, but the front's tests together."""
    from xdist.scheduler import LoadScopeScheduling

    class FrontTogether(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return "front" if nodeid.startswith(FRONT_MODULES) else nodeid

    if config.getvalue("dist") in ("load", "loadgroup"):
        # In the order collected, not the biggest group first: pytest-django runs the
        # tests in a transaction before those that empty the database (a flush, after
        # which the built-in rulesets are gone until a test puts them back).
        config.option.loadscopereorder = False
        return FrontTogether(config, log)
    return None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        # The front serves a PostgreSQL database of its own.
        if item.get_closest_marker("django_db") is None and not (
            (DATABASE_FIXTURES | {"front"}) & set(item.fixturenames)
        ):
            item.add_marker(pytest.mark.nodb)
        if "front" in item.fixturenames and not item.nodeid.startswith(FRONT_MODULES):
            raise pytest.UsageError(f"{item.nodeid} uses the front: add it to FRONT_MODULES")
        if item.nodeid.startswith(FRONT_MODULES):
            item.add_marker(pytest.mark.tools)  # Caddy


@pytest.fixture
def budget(record_property):
    """Hold a figure (bytes, requests, queries) to its budget, and say it at the
    run's end (pytest_terminal_summary) whether it passes or not."""

    def check(what: str, measured: int, most: int) -> None:
        record_property("budget", (what, measured, most))
        assert measured <= most, f"{what}: {measured:,} over its budget of {most:,}"

    return check


def pytest_terminal_summary(terminalreporter) -> None:
    figures = sorted(
        value
        for reports in terminalreporter.stats.values()
        for report in reports
        if getattr(report, "when", None) == "call"
        for name, value in getattr(report, "user_properties", ())
        if name == "budget"
    )
    if figures:
        terminalreporter.section("budgets")
        for what, measured, most in figures:
            terminalreporter.line(f"{what}: {measured:,} of {most:,}")


@pytest.fixture(autouse=True)
def _language_back():
    """A request in Norwegian leaves it active in the thread: the next test starts in English."""
    yield
    translation.deactivate()


# An id given twice in one page: a label, an aria reference or a fragment link
# finds the first only (the table page once had two id="id_name").
ID = re.compile(r"""<[^>]*?\sid=["']([^"']+)["']""")


def ids_given_twice(html: str) -> list[str]:
    counts = Counter(ID.findall(html))
    return sorted(name for name, count in counts.items() if count > 1)


@pytest.fixture(autouse=True)
def _no_id_twice(monkeypatch) -> None:
    """Every page the suite renders through the test client gives each id once."""
    from django.test import Client

    asked = Client.request

    def request(self, **fields):
        response = asked(self, **fields)
        html = response.get("Content-Type", "").startswith("text/html")
        if html and not response.streaming and not response.has_header("Content-Encoding"):
            twice = ids_given_twice(response.content.decode(errors="replace"))
            assert not twice, f"{fields.get('PATH_INFO')}: ids given twice: {twice}"
        return response

    monkeypatch.setattr(Client, "request", request)


@pytest.fixture(autouse=True)
def _empty_process_cache() -> None:
    """The per-process cache outlives each test's database: start each test without it."""
    caches["local"].clear()


@pytest.fixture(autouse=True)
def _builtin_rulesets_back(request) -> None:
    """Transactional tests start from an emptied database: put the built-ins back."""
    marker = request.node.get_closest_marker("django_db")
    transactional = marker is not None and marker.kwargs.get("transaction", False)
    if transactional or "transactional_db" in request.fixturenames:
        request.getfixturevalue("transactional_db")
        migration = import_module("games.migrations.0002_builtin_rulesets")
        migration.create_builtin(apps, None)


@pytest.fixture
def owner(db):
    return get_user_model().objects.create_user("ann", password="a-long-pass-phrase")


@pytest.fixture
def outsider(db):
    return get_user_model().objects.create_user("olaf", password="a-long-pass-phrase")


@pytest.fixture
def table(owner):
    return Table.objects.create(name="Friday club", owner=owner)


@pytest.fixture
def players(table):
    return [Player.objects.create(table=table, name=n) for n in ("Alice", "Ben", "Cara")]


@pytest.fixture
def moon_game(table, players, owner):
    """Alice, Ben and Cara, Black Maria with moon to the others; Alice deals first."""
    return game_start(
        table=table,
        players=players,
        ruleset=builtin("Black Maria, moon to the others"),
        first_dealer=0,
        by=owner,
    )


@pytest.fixture
def member(table):
    from games.models import Membership

    user = get_user_model().objects.create_user("mo", password="a-long-pass-phrase")
    Membership.objects.create(table=table, user=user)
    return user


@pytest.fixture
def client_owner(client, owner):
    client.force_login(owner)
    return client


@pytest.fixture
def client_outsider(client, outsider):
    client.force_login(outsider)
    return client


@pytest.fixture(scope="session")
def front(tmp_path_factory):
    """The production stack (deploy/production.py: gunicorn, and Caddy in front over
    HTTPS and HTTP/2 with its local authority) on free ports and a database of its
    own, as a club's server runs it. On PostgreSQL only (.ci/run's second run)."""
    import os
    import socket

    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("the front serves PostgreSQL, as a club's server does (.ci/run)")
    from deploy import production

    def free_port() -> int:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            return s.getsockname()[1]

    db = connection.settings_dict
    name = f"scorekeeper_front_{os.getpid()}"
    server = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
    state = tmp_path_factory.mktemp("production")
    with production.stack(
        state=state,
        database_url=f"{server}/{name}",
        https_port=free_port(),
        http_port=free_port(),
        app=f"127.0.0.1:{free_port()}",
        # Two workers whatever the cores: the same stack on any machine. Requests
        # held 10 s while the app restarts, as on a server: an app starting on a
        # machine busy with the other tests took over 5 s (a 503 in the upgrade test).
        extra_env={"WEB_CONCURRENCY": "2", "SCOREKEEPER_UPSTREAM_WAIT": "10s"},
    ) as running:
        yield running
    import psycopg

    with psycopg.connect(f"{server}/postgres", autocommit=True) as pg:
        pg.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
