"""An upgrade under load loses and doubles nothing: a phone saves a deal every
second while the new code is migrated and the workers reloaded, then while the
app is stopped and started again; every deal is there once afterwards."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
import uuid

import psycopg

from deploy import production
from tests.deploy.phones import Phone

PASSWORD = "a-long-pass-phrase"
DEALS = [(17, 13, 13), (13, 17, 13), (13, 13, 17), (10, 20, 13)]


def a_table_with_a_game(front, username: str) -> int:
    """An account with a game of three to 500 (no end in a few dozen deals)."""
    code = (
        "from django.contrib.auth import get_user_model\n"
        "from games.models import Ruleset, Table\n"
        "from games.services.games import game_start\n"
        f"user = get_user_model().objects.create_user({username!r}, password={PASSWORD!r})\n"
        "table = Table.objects.create(owner=user, name='Upgrade night')\n"
        "people = [table.players.create(name=n) for n in ('Ann', 'Bo', 'Cy')]\n"
        "rules = Ruleset.objects.create(table=table, name='Long', target=500)\n"
        "print(game_start(table=table, players=people, ruleset=rules, first_dealer=0).pk)\n"
    )
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=production.ROOT, env=front.env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return int(done.stdout.split()[-1])


def signed_in(front, username: str) -> Phone:
    phone = Phone(front)
    answer = phone.post("/accounts/login/", {"username": username, "password": PASSWORD})
    assert answer.status == 302, answer.text[:500]
    return phone


class SavingPhone(threading.Thread):
    """Saves the next deal every second, as the phone's queue sends a kept one:
    with its key, again with the same key until the app has it."""

    def __init__(self, phone: Phone, game: int):
        super().__init__(daemon=True)
        self.phone, self.game = phone, game
        self.sent: list[str] = []
        self.answers: list[int] = []
        self.retries = 0
        self.stopping = threading.Event()

    def save(self, number: int, key: str) -> None:
        points = DEALS[number % len(DEALS)]
        data = {"key": key, "number": str(number), "mode": "points"}
        data.update({f"points-{i}": str(p) for i, p in enumerate(points)})
        while True:
            try:
                answer = self.phone.post(f"/games/{self.game}/deals/queued/", data, timeout=20)
                self.answers.append(answer.status)
                if answer.status == 200:
                    said = json.loads(answer.body)
                    assert said["status"] == "recorded" and said["number"] == number, said
                    return
            except ConnectionError:
                self.answers.append(0)
            self.retries += 1
            time.sleep(0.5)

    def run(self) -> None:
        number = 0
        while not self.stopping.is_set():
            number += 1
            key = uuid.uuid4().hex
            self.save(number, key)
            self.sent.append(key)
            self.stopping.wait(1)


def deals(front, game: int) -> list[tuple[int, str]]:
    with psycopg.connect(front.env["DATABASE_URL"]) as db:
        return db.execute(
            "SELECT number, client_key FROM games_deal WHERE game_id = %s ORDER BY number", [game]
        ).fetchall()


def workers(front) -> set[int]:
    done = subprocess.run(
        ["ps", "-o", "pid=", "--ppid", str(front.gunicorn.pid)], capture_output=True, text=True
    )
    return {int(pid) for pid in done.stdout.split()}


def test_an_upgrade_while_a_phone_saves_every_second_loses_and_doubles_nothing(front):
    game = a_table_with_a_game(front, "upgrader")
    saving = SavingPhone(signed_in(front, "upgrader"), game)
    saving.start()
    time.sleep(3)
    before = workers(front)
    # The upgrade of docs/self-hosting.md: the new code in place, then migrations and static files
    # while the old workers still serve, then new workers (the old ones finish first).
    production.prepare(front.env)
    front.reload_app()
    for _ in range(100):
        time.sleep(0.2)
        now = workers(front)
        if now and not now & before and len(now) == len(before):
            break
    assert now and not now & before, (before, now)
    time.sleep(3)
    # A stop and a start (a crash, a reboot, a restart by hand): the front holds
    # what comes meanwhile until the app is back.
    front.restart_app(down_for=1)
    time.sleep(4)
    saving.stopping.set()
    saving.join(60)
    assert not saving.is_alive()
    saved = deals(front, game)
    assert len(saving.sent) >= 10
    assert [number for number, _ in saved] == list(range(1, len(saving.sent) + 1))
    assert [key for _, key in saved] == saving.sent  # each once, in order
    # Every save was answered by the app the first time: through the reload at
    # once, through the stop held by the front until the app was back.
    assert set(saving.answers) == {200} and saving.retries == 0, saving.answers
