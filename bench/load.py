"""The load test: many tables play whole games at once, and nothing is lost.

``make load`` (``python -m bench.load --tables 50``). Against gunicorn with
several workers on the database DATABASE_URL names (PostgreSQL; give it a
throw-away database), N simulated tables each sign in, make a table, start a
game and play it to the end over HTTP: deals in all three entry modes, some
edits, and a watcher polling the watch link. Every client scores its own game
with the rules engine; at the end each game's export is compared with that:
any lost, doubled or wrong deal, or any 5xx answer, fails the run. Bounded in
count and time; it talks to 127.0.0.1 only.

``--faults`` (``make load LOAD_ARGS=--faults``) also cuts the app's database
connections and kills a gunicorn worker, in turn, every second or two. The
clients then do what phones do: sign in again, and send a deal again with its
key (a deal sent twice is recorded once). A request in flight when a fault
strikes may fail; any 5xx that did not overlap a fault fails the run (a cut
connection must never fail the request after it), and so does anything lost
or doubled.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import signal
import sys
import tempfile
import threading
import time
import urllib.parse
from dataclasses import dataclass, field

from bench.run import HOST, Session, gunicorn, manage, server_env
from bench.seed import deal_form
from games import engine

RULES = engine.resolve(engine.Rules(name="Black Maria, moon to the others", moon="others"), 3)
NAMES = ["Alice", "Ben", "Cara"]
PASSWORD = "load-pass-phrase"


@dataclass
class Outcome:
    table: int
    game: int | None = None
    deals: int = 0
    edits: int = 0
    polls: int = 0
    retries: int = 0
    statuses: dict[int, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    # (start, end) of every request answered 5xx, to hold against the faults' times.
    server_errors: list[tuple[float, float]] = field(default_factory=list)


ATTEMPTS = 8
SIGN_IN_SECONDS = 60


class Client:
    """One phone: a signed-in session talking to the server, trying again as a phone does."""

    def __init__(self, port: int, username: str, outcome: Outcome):
        self.port = port
        self.username = username
        self.outcome = outcome
        self.session = self._sign_in()
        self.conn = http.client.HTTPConnection(HOST, port, timeout=30)

    def _sign_in(self) -> Session:
        # Signing in hashes the password for most of a second; faults every half
        # second strike many tries in flight. A person tries again until it works.
        give_up = time.monotonic() + SIGN_IN_SECONDS
        attempt = 0
        while time.monotonic() < give_up:
            try:
                return Session(self.port, self.username, PASSWORD)
            except (OSError, http.client.HTTPException, SystemExit):
                self.outcome.retries += 1
                attempt += 1
                time.sleep(min(0.2 * attempt, 1.0))
        raise RuntimeError(f"{self.username} could not sign in in {SIGN_IN_SECONDS} s")

    def request(self, method: str, path: str, form: dict | None = None, htmx=False):
        """Send, and send again after a dropped connection or a 5xx (forms carry their keys)."""
        for attempt in range(ATTEMPTS):
            headers = {"Cookie": self.session.cookie}
            body = None
            if form is not None:
                fields = {**form, "csrfmiddlewaretoken": self.session.csrf}
                body = urllib.parse.urlencode(fields, doseq=True)
                headers["Content-Type"] = "application/x-www-form-urlencoded"
            if htmx:
                headers.update({"HX-Request": "true", "X-CSRFToken": self.session.csrf})
            started = time.monotonic()
            try:
                self.conn.request(method, path, body=body, headers=headers)
                response = self.conn.getresponse()
                data = response.read().decode()
            except (OSError, http.client.HTTPException):
                self.conn.close()
                self.outcome.retries += 1
                time.sleep(0.1 * (attempt + 1))
                continue
            status = response.status
            self.outcome.statuses[status] = self.outcome.statuses.get(status, 0) + 1
            if status >= 500:
                self.outcome.server_errors.append((started, time.monotonic()))
                self.outcome.retries += 1
                time.sleep(0.1 * (attempt + 1))
                continue
            if status == 302 and "/accounts/login/" in response.getheader("Location", ""):
                self.session = self._sign_in()  # signed out: sign in again, then resend
                self.outcome.retries += 1
                continue
            return status, response.getheader("Location", ""), data
        raise RuntimeError(f"{method} {path}: no answer after {ATTEMPTS} tries")


def honest_deal(rng: random.Random):
    """A random way the valued cards fell, in a random entry mode."""
    cards = [[] for _ in NAMES]
    shooter = rng.randrange(3) if rng.random() < 0.08 else None
    for card in engine.valued_cards(RULES, 3):
        cards[shooter if shooter is not None else rng.randrange(3)].append(card)
    entry = engine.CardsEntry(tuple(tuple(c) for c in cards))
    form = deal_form(RULES, NAMES, cards, rng.choice(["counts", "cards", "points"]))
    return entry, form


def play(
    port: int, index: int, seed: int, max_deals: int, deadline: float, signed_in=lambda: None
) -> Outcome:
    outcome = Outcome(table=index)
    rng = random.Random(seed + index)
    phone = Client(port, f"load{index}", outcome)
    signed_in()
    # The form needs a ruleset id: read the choices from the page.
    _, _, page = phone.request("GET", "/tables/new/")
    ruleset = re.search(r'<option value="(\d+)"[^>]*>Black Maria, moon to the others<', page)
    _, location, _ = phone.request(
        "POST",
        "/tables/new/",
        {
            "name": f"Load table {index}",
            "players": "\n".join(NAMES),
            "default_ruleset": ruleset.group(1),
        },
    )
    table = int(re.search(r"/tables/(\d+)/", location).group(1))
    _, _, page = phone.request("GET", f"/tables/{table}/games/new/")
    seats = re.findall(r'name="players" value="(\d+)"[^>]*><span>(Alice|Ben|Cara)</span>', page)
    ids = {name: pk for pk, name in seats}
    # The form's key: sent again after a lost answer, it opens the game it started.
    key = re.search(r'name="key" value="([^"]+)"', page).group(1)
    form = {
        "players": [ids[n] for n in NAMES],  # in seat order
        "first_dealer": ids[NAMES[0]],
        "ruleset": ruleset.group(1),
        "end": "target",
        "target": "100",
        "moon": "others",
        "key": key,
    }
    _, location, _ = phone.request("POST", f"/tables/{table}/games/new/", form)
    game = int(re.search(r"/games/(\d+)/", location).group(1))
    outcome.game = game
    phone.request("POST", f"/games/{game}/watch-link/", {"action": "new"})
    _, _, page = phone.request("GET", f"/games/{game}/share/")
    token = re.search(r"/watch/([\w-]+)/", page).group(1)

    stop = threading.Event()
    watcher = threading.Thread(target=watch, args=(port, token, outcome, stop, deadline))
    watcher.start()
    entries: list[engine.Entry] = []
    try:
        while len(entries) < max_deals and time.monotonic() < deadline:
            state = engine.score_game(RULES, NAMES, 0, entries)
            if state.finished:
                break
            entry, form = honest_deal(rng)
            form["number"] = str(len(entries) + 1)
            form["key"] = f"table-{index}-deal-{len(entries) + 1}"
            status, _, _ = phone.request("POST", f"/games/{game}/deals/", form, htmx=True)
            if status != 200:
                outcome.problems.append(f"deal {len(entries) + 1}: status {status}")
                break
            entries.append(entry)
            outcome.deals += 1
            if len(entries) == 3 and rng.random() < 0.7:
                # Change deal 1 on the way: the client re-scores too.
                _, _, page = phone.request("GET", f"/games/{game}/")
                deal_id = re.search(
                    r'href="/deals/(\d+)/edit/"><span class="sr-only">Edit deal 1<', page
                )
                new_entry, new_form = honest_deal(rng)
                trial = [new_entry, *entries[1:]]
                try:
                    engine.score_game(RULES, NAMES, 0, trial)
                    allowed = True
                except engine.GameError:  # it would end the game early: the server refuses it too
                    allowed = False
                if deal_id and allowed:
                    new_form["version"] = "1"
                    status, _, _ = phone.request(
                        "POST", f"/deals/{deal_id.group(1)}/edit/", new_form
                    )
                    if status == 302 or (status == 409 and edited(phone, game, trial)):
                        # (409 after a resend: the first try went in, its answer was lost.)
                        entries = trial
                        outcome.edits += 1
    finally:
        stop.set()
        watcher.join(30)
    outcome.problems.extend(compare(phone, game, entries))
    return outcome


def edited(phone: Client, game: int, trial: list[engine.Entry]) -> bool:
    """Whether deal 1 as stored is the changed one."""
    _, _, body = phone.request("GET", f"/games/{game}/export.json")
    stored = json.loads(body)["games"][0]["deals"][0]["scores"]
    return [stored[n] for n in NAMES] == list(engine.score_deal(RULES, NAMES, trial[0]).scores)


def watch(port: int, token: str, outcome: Outcome, stop: threading.Event, deadline: float):
    """A second phone on the watch link, polling as the page does (faster)."""
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    etag = ""
    while not stop.is_set() and time.monotonic() < deadline:
        try:
            conn.request("GET", f"/watch/{token}/live/", headers={"If-None-Match": etag})
            started = time.monotonic()
            response = conn.getresponse()
            response.read()
        except (OSError, http.client.HTTPException):
            conn.close()
            stop.wait(0.1)
            continue
        if response.status >= 500:
            outcome.server_errors.append((started, time.monotonic()))
        outcome.polls += 1
        outcome.statuses[response.status] = outcome.statuses.get(response.status, 0) + 1
        etag = response.getheader("ETag", etag)
        stop.wait(0.5)
    conn.close()


def compare(phone: Client, game: int, entries: list[engine.Entry]) -> list[str]:
    """The server's record of the game against the client's own scoring."""
    expected = engine.score_game(RULES, NAMES, 0, entries)
    _, _, body = phone.request("GET", f"/games/{game}/export.json")
    stored = json.loads(body)["games"][0]
    problems = []
    if len(stored["deals"]) != len(expected.deals):
        problems.append(
            f"game {game}: {len(stored['deals'])} deals stored, {len(expected.deals)} played"
        )
    for mine, theirs in zip(expected.deals, stored["deals"], strict=False):
        if [theirs["scores"][n] for n in NAMES] != list(mine.result.scores) or [
            theirs["totals"][n] for n in NAMES
        ] != list(mine.totals):
            problems.append(f"game {game}, deal {mine.number}: stored scores differ")
    finished = stored["status"] == "finished"
    if finished != expected.finished:
        problems.append(f"game {game}: finished is {finished}, expected {expected.finished}")
    return problems


# The app's connections name themselves, so that only they are cut.
APP_NAME = "scorekeeper-load"


def cut_connections(database_url: str) -> int:
    """End the app's connections to its database, as a database restart would."""
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND application_name = %s",
            [APP_NAME],
        ).fetchall()
    return len(rows)


def gunicorn_workers(port: int) -> list[int]:
    """The worker processes of the gunicorn serving ``port`` (not its master)."""
    bound = f"{HOST}:{port}".encode()
    found: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                command = f.read()
            with open(f"/proc/{entry}/stat") as f:
                parent = int(f.read().rsplit(")", 1)[1].split()[1])
        except OSError:
            continue
        if b"gunicorn" in command and bound in command:
            found[int(entry)] = parent
    return [pid for pid, parent in found.items() if parent in found]


def make_faults(
    database_url: str,
    port: int,
    stop: threading.Event,
    log: list,
    every: tuple[float, float],
    ready: threading.Event,
) -> None:
    """Every second or two (``every``), in turn: cut the database connections, or kill a
    worker; from when every table has signed in (``ready``): signing in hashes the
    password for a second or more, and on a slow day faults every half second left
    none of them the time to finish, so the games under faults were never played."""
    ready.wait(SIGN_IN_SECONDS)
    rng = random.Random(1)
    turn = 0
    # The first strikes at once: on a quick day the games under faults last less
    # than a second, and both kinds must meet them.
    wait = 0.0
    while not stop.wait(wait):
        wait = rng.uniform(*every)
        at = time.monotonic()
        if turn % 2 == 0:
            log.append(("connections cut", at, cut_connections(database_url)))
        else:
            workers = gunicorn_workers(port)
            if not workers:
                continue  # all of them being started again: a kill's turn waits for one
            os.kill(rng.choice(workers), signal.SIGKILL)
            log.append(("worker killed", at, 1))
        turn += 1


def run(
    database_url: str,
    *,
    tables: int,
    workers: int,
    max_deals: int,
    seconds: float,
    seed: int,
    faults: bool = False,
    fault_every: tuple[float, float] = (1.0, 2.0),
):
    """Play the tables against a fresh server; return (summary, problems)."""
    with tempfile.TemporaryDirectory(prefix="scorekeeper-load-") as tmp:
        joiner = "&" if "?" in database_url else "?"
        env = server_env(f"{database_url}{joiner}application_name={APP_NAME}", f"{tmp}/static")
        manage(env, "migrate", "--noinput")
        manage(env, "collectstatic", "--noinput")
        code = (
            "from django.contrib.auth import get_user_model as g\n"
            f"for i in range({tables}):\n"
            "    u, _ = g().objects.get_or_create(username=f'load{i}')\n"
            f"    u.set_password('{PASSWORD}'); u.save()\n"
        )
        manage(env, "shell", "-c", code)
        with gunicorn(env, workers, tmp) as port:
            started = time.monotonic()
            deadline = started + seconds
            outcomes: list[Outcome] = [Outcome(table=i) for i in range(tables)]

            everyone_in = threading.Event()
            signed_in = []
            counting = threading.Lock()

            def one_more_signed_in() -> None:
                with counting:
                    signed_in.append(1)
                    if len(signed_in) == tables:
                        everyone_in.set()

            def play_one(i: int) -> None:
                try:
                    outcomes[i] = play(port, i, seed, max_deals, deadline, one_more_signed_in)
                except Exception as error:
                    outcomes[i].problems.append(f"table {i}: {type(error).__name__}: {error}")

            threads = [threading.Thread(target=play_one, args=(i,)) for i in range(tables)]
            stop_faults = threading.Event()
            fault_log: list[tuple[str, float, int]] = []
            fault_maker = threading.Thread(
                target=make_faults,
                args=(database_url, port, stop_faults, fault_log, fault_every, everyone_in),
            )
            if faults:
                fault_maker.start()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(seconds + 60)
            stop_faults.set()
            if faults:
                fault_maker.join(30)
            elapsed = time.monotonic() - started
    statuses: dict[int, int] = {}
    for outcome in outcomes:
        for status, count in outcome.statuses.items():
            statuses[status] = statuses.get(status, 0) + count
    problems = [p for o in outcomes for p in o.problems]
    problems += [f"table {o.table}: no deal was played" for o in outcomes if o.deals == 0]
    # A 5xx may only come from a request in flight when a fault struck it.
    strikes = [at for _, at, _ in fault_log]
    errors = [e for o in outcomes for e in o.server_errors]
    unexplained = [
        (start, end)
        for start, end in errors
        if not any(start - 0.05 <= at <= end + 0.05 for at in strikes)
    ]
    if unexplained:
        problems.append(f"{len(unexplained)} answers were server errors (5xx) outside any fault")
    summary = (
        f"{tables} tables, {sum(o.deals for o in outcomes)} deals, "
        f"{sum(o.edits for o in outcomes)} edits, {sum(o.polls for o in outcomes)} polls "
        f"in {elapsed:.1f} s; answers by status: {dict(sorted(statuses.items()))}"
    )
    if faults:
        cuts = sum(n for kind, _, n in fault_log if kind == "connections cut")
        kills = sum(1 for kind, _, _ in fault_log if kind == "worker killed")
        summary += (
            f"; faults: {cuts} database connections cut, {kills} workers killed; "
            f"{sum(o.retries for o in outcomes)} requests sent again, "
            f"{len(errors)} 5xx while a fault struck"
        )
    return summary, problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--max-deals", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=300, help="time limit")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--faults", action="store_true", help="cut database connections and kill workers"
    )
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        raise SystemExit("Set DATABASE_URL to a throw-away PostgreSQL database.")
    summary, problems = run(
        os.environ["DATABASE_URL"],
        tables=args.tables,
        workers=args.workers,
        max_deals=args.max_deals,
        seconds=args.seconds,
        seed=args.seed,
        faults=args.faults,
    )
    print(summary)
    if problems:
        for problem in problems[:20]:
            print("  " + problem)
        print(f"FAILED: {len(problems)} problems.")
        sys.exit(1)
    print("Every game matches the clients' own scoring: nothing lost, doubled or wrong.")


if __name__ == "__main__":
    main()
