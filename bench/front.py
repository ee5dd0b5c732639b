"""The benchmark through the front: Caddy (deploy/Caddyfile, as `make production`
runs it) in front of the benchmark's gunicorn, and the slow phone's cold game
page over HTTP/2 through it against HTTP/1.1 straight from gunicorn."""

from __future__ import annotations

import os
import socket
import ssl
import statistics
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from deploy import production

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


@contextmanager
def caddy(app_port: int, static: str, folder: str) -> Iterator[int]:
    """The front on a free port with its local authority; yields the HTTPS port."""
    state = Path(folder) / "front"
    port = free_port()
    env = {**os.environ}
    env.update(production.front_env(state=state, https_port=port, http_port=free_port(),
                                    app=f"{HOST}:{app_port}", static=Path(static)))  # fmt: skip
    env["SCOREKEEPER_LOG_LEVEL"] = "ERROR"  # not a line a request while measuring
    state.mkdir(parents=True, exist_ok=True)
    with open(state / "caddy.log", "w") as log:
        front = production.start_front(env, log)
        try:
            end = time.monotonic() + 30
            while time.monotonic() < end:
                ca = production.authority(state)
                if ca.exists():
                    context = ssl.create_default_context(cafile=str(ca))
                    try:
                        urllib.request.urlopen(f"https://localhost:{port}/healthz", context=context)
                        break
                    except OSError:
                        pass
                time.sleep(0.2)
            else:
                raise SystemExit("the front did not start: see " + str(state / "caddy.log"))
            yield port
        finally:
            production.stop(front)


# The slow-phone test's throttling (tests/e2e/test_slow_phone.py): a mid-range
# phone on slow 4G, nothing cached.
THROTTLING = {"cpu": 4, "latency_ms": 150, "down_bps": 1_600_000, "up_bps": 750_000}


def cold_page_ms(base: str, path: str, cookie: dict[str, str], runs: int) -> list[float]:
    """From the tap on a link to the game page's entry checked and ready, cold."""
    from playwright.sync_api import sync_playwright

    found = []
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
            args=["--no-sandbox", "--disable-gpu", "--no-first-run"],
        )
        try:
            for _ in range(runs):
                context = browser.new_context(
                    viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True,
                    ignore_https_errors=True,  # a measurement: the tests trust the authority
                )  # fmt: skip
                context.add_cookies([{**cookie, "url": base}])
                page = context.new_page()
                cdp = context.new_cdp_session(page)
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": THROTTLING["cpu"]})
                cdp.send("Network.enable")
                cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
                cdp.send("Network.emulateNetworkConditions", {
                    "offline": False, "latency": THROTTLING["latency_ms"],
                    "downloadThroughput": THROTTLING["down_bps"] / 8,
                    "uploadThroughput": THROTTLING["up_bps"] / 8,
                })  # fmt: skip
                started = time.perf_counter()
                page.goto(base + path, wait_until="commit")
                page.locator("#entry-check .tally").wait_for()
                found.append((time.perf_counter() - started) * 1000)
                protocol = page.evaluate(
                    "performance.getEntriesByType('navigation')[0].nextHopProtocol"
                )
                context.close()
                found[-1] = (found[-1], protocol)
        finally:
            browser.close()
    return found


def phone_rows(direct: str, front: str, path: str, cookie: dict[str, str], runs: int) -> dict:
    """The cold page in turns, over HTTP/1.1 straight and over HTTP/2 through the front."""
    straight, through = [], []
    for _ in range(runs):
        straight += cold_page_ms(direct, path, cookie, 1)
        through += cold_page_ms(front, path, cookie, 1)
    row = {}
    for name, runs_ in (("HTTP/1.1, straight", straight), ("through the front", through)):
        row[name] = {
            "protocol": runs_[0][1],
            "median_ms": round(statistics.median(ms for ms, _ in runs_)),
            "runs_ms": [round(ms) for ms, _ in runs_],
        }
    return row
