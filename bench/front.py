"""The benchmark through the front: Caddy (deploy/Caddyfile, as `make production`
runs it) in front of the benchmark's gunicorn (the phone's figures over it are
bench/phone.py's)."""

from __future__ import annotations

import os
import socket
import ssl
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
