"""The benchmark: ``make bench``.

Seeds a database (SQLite in a temporary folder, or the PostgreSQL that
DATABASE_URL names: give it a throw-away database), serves the app with
gunicorn as production would, and drives it over loopback from separate
client processes with a bounded number of requests and a time limit. For
each kind of request it reports throughput and p50/p95/p99 latency next to a
trivial view's, as a ratio, since absolute times on a shared machine drift.
Results go to bench/results.json and bench/results.md.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import re
import secrets
import socket
import subprocess
import sys
import tempfile
import threading
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
        ALLOWED_HOSTS=HOST,
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


def requests_for(kind: str, seed: dict, auth: dict, etag: str, connection: int):
    """(method, path, body, headers) for one request of ``kind``."""
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    signed = {"Cookie": auth["cookie"]}
    htmx = {**signed, **form, "HX-Request": "true", "X-CSRFToken": auth["csrf"]}
    game = seed["game"]
    if kind == "trivial view":
        return "GET", "/healthz", None, {}
    if kind == "game page (60 deals)":
        return "GET", f"/games/{game}/", None, signed
    if kind == "deal live check":
        body = "mode=counts&number=61&hearts-0=4&hearts-1=3&taker-QS=0&taker-KS=1&taker-AS=2"
        return "POST", f"/games/{game}/deals/check/", body, htmx
    if kind == "deal save":
        target = seed["save_games"][connection % len(seed["save_games"])]
        body = "mode=points&points-0=17&points-1=13&points-2=13"
        return "POST", f"/games/{target}/deals/", body, htmx
    if kind == "poll, unchanged (304)":
        return "GET", f"/watch/{seed['watch']}/live/", None, {"If-None-Match": etag}
    if kind == "poll, changed":
        return "GET", f"/watch/{seed['watch']}/live/", None, {}
    if kind == "statistics page":
        return "GET", f"/tables/{seed['stats_table']}/stats/", None, signed
    if kind == "table JSON export":
        return "GET", f"/tables/{seed['export_table']}/export.json", None, signed
    raise ValueError(kind)


KINDS = [
    "trivial view",
    "game page (60 deals)",
    "deal live check",
    "deal save",
    "poll, unchanged (304)",
    "poll, changed",
    "statistics page",
    "table JSON export",
]
EXPECTED = {"poll, unchanged (304)": 304}


def client_process(job: dict) -> dict:
    """One client process: a few connections in threads, each a bounded loop."""
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    deadline = time.monotonic() + job["seconds"]

    def connection(index: int) -> None:
        conn = http.client.HTTPConnection(HOST, job["port"], timeout=30)
        mine, problems = [], []
        for _ in range(job["per_connection"]):
            if time.monotonic() > deadline:
                break
            method, path, body, headers = requests_for(
                job["kind"], job["seed"], job["auth"], job["etag"], index
            )
            start = time.perf_counter()
            try:
                conn.request(method, path, body=body, headers=headers)
                response = conn.getresponse()
                response.read()
            except (OSError, http.client.HTTPException) as error:
                problems.append(type(error).__name__)
                conn.close()
                continue
            mine.append(time.perf_counter() - start)
            if response.status != EXPECTED.get(job["kind"], 200):
                problems.append(str(response.status))
        conn.close()
        with lock:
            latencies.extend(mine)
            errors.extend(problems)

    threads = [
        threading.Thread(target=connection, args=(job["first"] + i,)) for i in range(job["threads"])
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {"latencies": latencies, "errors": errors}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure(kind: str, args, port: int, seed: dict, auth: dict, etag: str) -> dict:
    processes = max(1, min(args.processes, args.connections))
    threads = args.connections // processes
    per_connection = max(1, args.requests // (processes * threads))
    jobs = [
        {
            "kind": kind,
            "port": port,
            "seed": seed,
            "auth": auth,
            "etag": etag,
            "threads": threads,
            "first": p * threads,
            "per_connection": per_connection,
            "seconds": args.seconds,
        }
        for p in range(processes)
    ]
    start = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        parts = pool.map(client_process, jobs)
    wall = time.perf_counter() - start
    latencies = [x for part in parts for x in part["latencies"]]
    errors = [x for part in parts for x in part["errors"]]
    return {
        "requests": len(latencies),
        "errors": len(errors),
        "error_kinds": sorted(set(errors)),
        "seconds": round(wall, 2),
        "rps": round(len(latencies) / wall, 1),
        "p50_ms": round(1000 * percentile(latencies, 0.50), 1),
        "p95_ms": round(1000 * percentile(latencies, 0.95), 1),
        "p99_ms": round(1000 * percentile(latencies, 0.99), 1),
    }


def markdown(results: dict) -> str:
    lines = [
        f"Benchmark on {results['machine']['cores']} cores, {results['machine']['database']}, "
        f"gunicorn {results['machine']['workers']} sync workers, "
        f"{results['machine']['connections']} connections.",
        "",
        "| request | req/s | vs trivial | p50 ms | p95 ms | p99 ms | errors |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for kind, row in results["kinds"].items():
        lines.append(
            f"| {kind} | {row['rps']} | {row['ratio']:.0%} | {row['p50_ms']} | "
            f"{row['p95_ms']} | {row['p99_ms']} | {row['errors']} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=1600, help="per kind (bounded)")
    parser.add_argument("--seconds", type=float, default=20, help="time limit per kind")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--processes", type=int, default=4, help="client processes")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--tables", type=int, default=20, help="tables to seed")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="scorekeeper-bench-") as tmp:
        database = os.environ.get("DATABASE_URL") or f"sqlite:///{tmp}/bench.sqlite3"
        env = server_env(database, f"{tmp}/static")
        print("Preparing the database and static files…", flush=True)
        manage(env, "migrate", "--noinput")
        manage(env, "createcachetable")
        manage(env, "collectstatic", "--noinput")
        started = time.perf_counter()
        seed = json.loads(
            subprocess.run(
                [sys.executable, "-m", "bench.seed", str(args.tables)],
                cwd=ROOT,
                env=env,
                check=True,
                capture_output=True,
                text=True,
            ).stdout
        )
        print(
            f"Seeded {seed['games']} games, {seed['deals']} deals "
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
                    "requests_per_kind": args.requests,
                    "python": sys.version.split()[0],
                },
                "kinds": {},
            }
            for kind in KINDS:
                row = measure(kind, args, port, seed, auth, etag)
                results["kinds"][kind] = row
                print(f"  {kind}: {row['rps']} req/s, p99 {row['p99_ms']} ms", flush=True)
            trivial = results["kinds"]["trivial view"]["rps"]
            for row in results["kinds"].values():
                row["ratio"] = round(row["rps"] / trivial, 3) if trivial else 0
    (ROOT / "bench" / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    table = markdown(results)
    (ROOT / "bench" / "results.md").write_text(table)
    print()
    print(table)
    failed = sum(row["errors"] for row in results["kinds"].values())
    if failed:
        print(f"{failed} requests failed or answered an unexpected status.")
        sys.exit(1)


if __name__ == "__main__":
    main()
