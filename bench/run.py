"""The benchmark: ``make bench``.

The figure to watch is a club night's (bench/clubnight.py): the most phones
the server carries while each follows its game, against the trivial view in
the same run. The single requests' rates below explain a change in it.

Seeds a database (SQLite in a temporary folder, or the PostgreSQL that
DATABASE_URL names: give it a throw-away database), serves the app with
gunicorn as production would, and drives it over loopback with wrk (a load
generator in C, so the client takes little of the cores the server needs:
a Python client made the trivial view client-bound and every ratio look
better than it was), for a set time per kind of request with a bound on the
number of requests, after a second of warming up. For each kind it reports
throughput and p50/p95/p99 latency next to a trivial view's, as a ratio,
since absolute times on a shared machine drift. Results go to
bench/results.json and bench/results.md, with the time the biggest history
file the web takes (bench/big_import.py) needs to import, and the time a
BG Stats export of 2,000 plays takes to preview and import (bench/logged_import.py).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import secrets
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"  # loopback only


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def server_env(database_url: str, static_root: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "DJANGO_SETTINGS_MODULE")}
    env.update(
        DJANGO_SETTINGS_MODULE="scorekeeper.settings",
        DATABASE_URL=database_url,
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS=f"{HOST},localhost",
        # The front (bench/front.py) connects from loopback, as in production.
        TRUSTED_PROXIES=HOST,
        # Plain HTTP on loopback; a real deployment sits behind TLS.
        SECURE_SSL_REDIRECT="0",
        SESSION_COOKIE_SECURE="0",
        CSRF_COOKIE_SECURE="0",
        STATIC_ROOT=static_root,
    )
    return env


@contextmanager
def gunicorn(env: dict[str, str], workers: int, folder: str) -> Iterator[int]:
    """Serve the app as production would, on a free loopback port; yield the port."""
    port = free_port()
    command = [sys.executable, "-m", "gunicorn", "scorekeeper.wsgi"]
    command += ["-b", f"{HOST}:{port}", "-w", str(workers)]
    with open(Path(folder) / "gunicorn.log", "w") as log:
        server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log)
        try:
            for _ in range(100):
                try:
                    socket.create_connection((HOST, port), timeout=0.2).close()
                    break
                except OSError:
                    time.sleep(0.1)
            yield port
        finally:
            server.terminate()
            server.wait(10)


def manage(env: dict[str, str], *args: str) -> str:
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return result.stdout


class Session:
    """Cookies and CSRF token of one signed-in account."""

    def __init__(self, port: int, username: str, password: str):
        conn = http.client.HTTPConnection(HOST, port, timeout=30)
        conn.request("GET", "/accounts/login/")
        response = conn.getresponse()
        response.read()
        cookies = self._cookies(response)
        body = urllib.parse.urlencode(
            {
                "username": username,
                "password": password,
                "csrfmiddlewaretoken": cookies["csrftoken"],
            }
        )
        conn.request(
            "POST",
            "/accounts/login/",
            body=body,
            headers={
                "Content-Type": "application/x-www-form-urlencoded",
                "Cookie": f"csrftoken={cookies['csrftoken']}",
            },
        )
        response = conn.getresponse()
        response.read()
        cookies.update(self._cookies(response))
        if "sessionid" not in cookies:
            raise SystemExit("the benchmark could not sign in")
        self.csrf = cookies["csrftoken"]
        self.cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
        conn.close()

    @staticmethod
    def _cookies(response: http.client.HTTPResponse) -> dict[str, str]:
        found = {}
        for header in response.headers.get_all("Set-Cookie") or []:
            name, value = header.split(";", 1)[0].split("=", 1)
            found[name] = value
        return found


def requests_for(kind: str, seed: dict, auth: dict, etag: str):
    """(method, paths, body, headers) for ``kind``; requests go round the paths in turn."""
    # As a phone sends them: every request takes a compressed answer.
    plain = {"Accept-Encoding": "gzip"}
    signed = {**plain, "Cookie": auth["cookie"]}
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    htmx = {**signed, **form, "HX-Request": "true", "X-CSRFToken": auth["csrf"]}
    game = seed["game"]
    if kind == "trivial view":
        return "GET", ["/livez"], None, plain  # no query: /healthz asks the database
    if kind == "game page (60 deals)":
        return "GET", [f"/games/{game}/"], None, signed
    if kind == "deal save":
        # One game per request in turn (more games than connections), so saves
        # don't queue on one game's lock.
        body = "mode=points&points-0=17&points-1=13&points-2=13"
        return "POST", [f"/games/{g}/deals/" for g in seed["save_games"]], body, htmx
    if kind == "poll, unchanged (204)":
        return "GET", [f"/watch/{seed['watch']}/live/"], None, {**plain, "If-None-Match": etag}
    if kind == "poll, changed":
        return "GET", [f"/watch/{seed['watch']}/live/"], None, plain
    if kind == "statistics page":
        return "GET", [f"/tables/{seed['stats_table']}/stats/"], None, signed
    if kind == "table JSON export":
        return "GET", [f"/tables/{seed['export_table']}/export.json"], None, signed
    raise ValueError(kind)


KINDS = [
    "trivial view",
    "game page (60 deals)",
    "deal save",
    "poll, unchanged (204)",
    "poll, changed",
    "statistics page",
    "table JSON export",
]
EXPECTED = {"poll, unchanged (204)": 204}

# The load generator's script: requests round the paths; each thread counts
# answers with another status than expected and stops at its share of the
# request bound; the summary comes out as one JSON line.
WRK_SCRIPT = """
local method, paths, body, headers = %(method)s, %(paths)s, %(body)s, %(headers)s
local expected, limit = %(expected)d, %(limit)d
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  unexpected, answered, turn = 0, 0, 0
end

function request()
  turn = turn + 1
  return wrk.format(method, paths[(turn %% #paths) + 1], headers, body)
end

function response(status, headers, body)
  answered = answered + 1
  if status ~= expected then unexpected = unexpected + 1 end
  if answered >= limit then wrk.thread:stop() end
end

function done(summary, latency, requests)
  local bad = 0
  for _, thread in ipairs(threads) do bad = bad + thread:get("unexpected") end
  local e = summary.errors
  io.write(string.format(
    '\\n{"requests": %%d, "duration_us": %%d, "unexpected": %%d, "socket_errors": %%d, ' ..
    '"p50_us": %%d, "p95_us": %%d, "p99_us": %%d}\\n',
    summary.requests, summary.duration, bad, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(95), latency:percentile(99)))
end
"""


def lua(value) -> str:
    """A Lua literal for a string, a whole number, a list or a table of them, or nil."""
    if value is None:
        return "nil"
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, str):
        if not value.isascii():
            raise ValueError("plain ASCII only")
        return json.dumps(value)
    if isinstance(value, list):
        return "{" + ", ".join(lua(v) for v in value) + "}"
    return "{" + ", ".join(f"[{lua(k)}] = {lua(v)}" for k, v in value.items()) + "}"


def wrk(script: str, base: str, seconds: float, args, folder: str) -> dict:
    path = Path(folder) / "kind.lua"
    path.write_text(script)
    command = ["wrk", f"-t{args.threads}", f"-c{args.connections}", f"-d{max(1, round(seconds))}s"]
    command += ["--timeout", "10s", "-s", str(path), base + "/"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60)
    if result.returncode != 0:
        raise SystemExit(f"wrk failed: {result.stderr.strip()}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def measure(kind: str, args, base: str, seed: dict, auth: dict, etag: str, folder: str) -> dict:
    """``kind`` against ``base`` (gunicorn straight, or the front over HTTPS)."""
    method, paths, body, headers = requests_for(kind, seed, auth, etag)
    if base.startswith("https:"):
        headers = {**headers, "Origin": base}  # Django checks it over HTTPS
    values = {"method": lua(method), "paths": lua(paths), "body": lua(body)}
    values.update(headers=lua(headers), expected=EXPECTED.get(kind, 200))
    # Warm up first (each worker keeps pages and built SQL in its own memory).
    wrk(WRK_SCRIPT % {**values, "limit": 10**9}, base, 1, args, folder)
    limit = max(1, args.requests // args.threads)
    found = wrk(WRK_SCRIPT % {**values, "limit": limit}, base, args.seconds, args, folder)
    seconds = found["duration_us"] / 1e6
    return {
        "requests": found["requests"],
        "errors": found["unexpected"] + found["socket_errors"],
        # wrk runs for its whole time even if the bound stopped it sooner.
        "bounded": found["requests"] >= limit * args.threads,
        "seconds": round(seconds, 2),
        "rps": round(found["requests"] / seconds, 1),
        "p50_ms": round(found["p50_us"] / 1000, 1),
        "p95_ms": round(found["p95_us"] / 1000, 1),
        "p99_ms": round(found["p99_us"] / 1000, 1),
    }


def run_json(env: dict[str, str], module: str, *args: str) -> dict:
    """Run ``python -m module`` against the benchmark's database; what it prints, read."""
    done = subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(done.stdout)


def through_the_front(args, port: int, seed: dict, auth: dict, etag: str, tmp: str, straight):
    """Each kind again through Caddy over HTTPS, as a share of the same kind
    straight from gunicorn in this run; then the slow phone's cold game page
    over HTTP/2 through the front against HTTP/1.1 straight (bench/phone.py)."""
    from bench import front, phone

    found: dict = {"kinds": {}}
    with front.caddy(port, f"{tmp}/static", tmp) as https_port:
        base = f"https://localhost:{https_port}"
        for name, direct in straight.items():
            kind = name.split(" #")[0]
            if name != kind and not name.endswith(" #1"):
                continue  # one round through the front, next to the first straight
            row = measure(kind, args, base, seed, auth, etag, tmp)
            row["share_of_direct"] = round(row["rps"] / direct["rps"], 3) if direct["rps"] else 0
            found["kinds"][kind] = row
            print(f"  {kind}, through the front: {row['rps']} req/s", flush=True)
        sid = dict(part.split("=", 1) for part in auth["cookie"].split("; "))["sessionid"]
        cookie = {"name": "sessionid", "value": sid}
        found["phone"] = phone.figures(
            f"http://{HOST}:{port}", base, f"/games/{seed['game']}/",
            f"/watch/{seed['watch']}/", cookie, args.phone_runs,
        )  # fmt: skip
    return found


def markdown(results: dict) -> str:
    lines = [
        f"Benchmark on {results['machine']['cores']} cores, {results['machine']['database']}, "
        f"gunicorn {results['machine']['workers']} sync workers, "
        f"{results['machine']['connections']} connections from {results['machine']['client']}, "
        f"{results['machine']['seconds_per_kind']} s per kind.",
        "",
        "| request | req/s | vs trivial | p50 ms | p95 ms | p99 ms | errors |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for kind, row in results["kinds"].items():
        lines.append(
            f"| {kind} | {row['rps']} | {row['ratio']:.0%} | {row['p50_ms']} | "
            f"{row['p95_ms']} | {row['p99_ms']} | {row['errors']} |"
        )
    club = results.get("club_night")
    if club:
        lines += [
            "",
            f"**A club night**: {club['phones']} phones at {club['tables']} card tables "
            f"with the 95th percentile at or under {club['p95_goal_ms']} ms and nothing failed "
            f"({club['phones_per_1000_trivial_rps']} phones per 1,000 trivial requests a "
            f"second; the trivial view at {club['trivial_rps']} req/s)"
            + (", as many as were seeded" if club["limited_by_seed"] else "")
            + ".",
            "",
            "| card tables | phones | req/s | p50 ms | p95 ms | p99 ms | pages | polls 204 "
            "| polls 200 | deals | failed |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for s in club["steps"]:
            lines.append(
                f"| {s['tables']} | {s['phones']} | {s['rps']} | {s['p50_ms']} | {s['p95_ms']} "
                f"| {s['p99_ms']} | {s['pages']} | {s['polls_unchanged']} | "
                f"{s['polls_changed']} | {s['deals']} | {s['failed']} |"
            )
    front = results.get("front")
    if front:
        lines += [
            "",
            "Through the front (Caddy, HTTPS; wrk speaks HTTP/1.1 over TLS), as a share of "
            "the same request straight from gunicorn:",
            "",
            "| request | req/s | share of straight | p99 ms | errors |",
            "|---|---:|---:|---:|---:|",
        ]
        for kind, row in front["kinds"].items():
            lines.append(
                f"| {kind} | {row['rps']} | {row['share_of_direct']:.0%} | {row['p99_ms']} | "
                f"{row['errors']} |"
            )
        from bench import phone

        lines += phone.markdown(front["phone"])
    big = results.get("big_import")
    if big:
        lines += [
            "",
            f"Import of a {big['bytes'] / 1e6:.1f} MB history file ({big['games']} games of "
            f"90 deals, the web's limit): {big['seconds']} s.",
        ]
    logged = results.get("logged_import")
    if logged:
        lines += [
            "",
            f"A BG Stats export of {logged['plays']:,} plays of Hearts "
            f"({logged['bytes'] / 1e6:.1f} MB): preview {logged['preview_seconds']} s, "
            f"import {logged['import_seconds']} s.",
        ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=100_000, help="bound per kind")
    parser.add_argument("--seconds", type=float, default=5, help="time per kind")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--threads", type=int, default=1, help="load generator threads")
    parser.add_argument(
        "--only", action="append", choices=KINDS, help="only this kind (and the trivial view)"
    )
    parser.add_argument("--rounds", type=int, default=1, help="measure each kind this many times")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--tables", type=int, default=20, help="tables to seed")
    parser.add_argument("--no-front", action="store_true", help="gunicorn straight only")
    parser.add_argument("--phone-runs", type=int, default=3, help="phone runs each way")
    parser.add_argument(
        "--club-tables", type=int, default=400, help="card tables seeded for the club night"
    )
    parser.add_argument("--club-seconds", type=int, default=45, help="each club night run's length")
    parser.add_argument("--no-club-night", action="store_true", help="leave the club night out")
    parser.add_argument(
        "--club-night-only",
        action="store_true",
        help="the trivial view and the club night only",
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="scorekeeper-bench-") as tmp:
        database = os.environ.get("DATABASE_URL") or f"sqlite:///{tmp}/bench.sqlite3"
        env = server_env(database, f"{tmp}/static")
        print("Preparing the database and static files…", flush=True)
        manage(env, "migrate", "--noinput")
        manage(env, "collectstatic", "--noinput")
        started = time.perf_counter()
        seed = run_json(env, "bench.seed", str(args.tables))
        print(
            f"Seeded {seed['games']} games, {seed['deals']} deals "
            f"in {time.perf_counter() - started:.0f} s.",
            flush=True,
        )
        club = None
        if not args.no_club_night:
            started = time.perf_counter()
            club = run_json(env, "bench.club_seed", str(args.club_tables))
            print(
                f"Seeded a club night of {len(club['tables'])} card tables "
                f"in {time.perf_counter() - started:.0f} s.",
                flush=True,
            )
        with gunicorn(env, args.workers, tmp) as port:
            session = Session(port, "bench", "bench-pass-phrase")
            auth = {"cookie": session.cookie, "csrf": session.csrf}
            conn = http.client.HTTPConnection(HOST, port)
            conn.request("GET", f"/watch/{seed['watch']}/live/")
            response = conn.getresponse()
            response.read()
            etag = response.getheader("ETag")
            conn.close()
            results = {
                "machine": {
                    "cores": os.cpu_count(),
                    "database": re.sub(r"//[^@]*@", "//", database.split("?")[0]).split(":")[0],
                    "workers": args.workers,
                    "connections": args.connections,
                    "client": f"wrk, {args.threads} thread(s)",
                    "seconds_per_kind": args.seconds,
                    "requests_bound_per_kind": args.requests,
                    "python": sys.version.split()[0],
                },
                "kinds": {},
            }
            kinds = [k for k in KINDS if not args.only or k in args.only or k == KINDS[0]]
            if args.club_night_only:
                kinds = KINDS[:1]
            for round_ in range(args.rounds):
                for kind in kinds:
                    row = measure(kind, args, f"http://{HOST}:{port}", seed, auth, etag, tmp)
                    name = kind if args.rounds == 1 else f"{kind} #{round_ + 1}"
                    results["kinds"][name] = row
                    print(f"  {name}: {row['rps']} req/s, p99 {row['p99_ms']} ms", flush=True)
                    if row["bounded"]:
                        print("    (stopped at the request bound: throughput understated)")
            # Each share is of the trivial view measured in the same round.
            for name, row in results["kinds"].items():
                base = "trivial view" + name[len(name.split(" #")[0]) :]
                trivial = results["kinds"][base]["rps"]
                row["ratio"] = round(row["rps"] / trivial, 3) if trivial else 0
            if club is not None:
                from bench import clubnight, front

                # Through the front, as a club serves it: the phones' connections
                # stay open to Caddy, which hands gunicorn each request as it comes.
                with front.caddy(port, f"{tmp}/static", tmp) as https_port:
                    found = clubnight.capacity(
                        f"https://localhost:{https_port}", club["tables"], args.club_seconds, tmp
                    )
                trivial = results["kinds"][KINDS[0] if args.rounds == 1 else f"{KINDS[0]} #1"]
                found["trivial_rps"] = trivial["rps"]
                found["phones_per_1000_trivial_rps"] = round(
                    found["phones"] * 1000 / trivial["rps"], 1
                )
                results["club_night"] = found
            if not args.no_front and not args.club_night_only:
                results["front"] = through_the_front(
                    args, port, seed, auth, etag, tmp, results["kinds"]
                )
        if not args.club_night_only:
            # The biggest history file the web takes (500 games of 90 deals),
            # imported as its confirmation imports it, with the server stopped.
            results["big_import"] = run_json(env, "bench.big_import")
            # 2,000 plays logged in BG Stats, previewed and imported through the page.
            results["logged_import"] = run_json(env, "bench.logged_import")
    (ROOT / "bench" / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    table = markdown(results)
    (ROOT / "bench" / "results.md").write_text(table)
    print()
    print(table)
    rows = [*results["kinds"].values(), *results.get("front", {}).get("kinds", {}).values()]
    failed = sum(row["errors"] for row in rows)
    if failed:
        print(f"{failed} requests failed or answered an unexpected status.")
        sys.exit(1)


if __name__ == "__main__":
    main()
