"""`make production`: on this machine, the stack a club's server runs.

PostgreSQL (the database made if missing), migrations, static files,
gunicorn with a worker per core, and Caddy in front on
https://localhost:8443 with its own local certificate authority; Ctrl-C
stops it all and leaves the data (the database, and ``.production/``: the
secret key, Caddy's authority, the static files). The browser tests of the
front start the same stack through :func:`stack`.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
DATABASE_URL = "postgres://postgres@127.0.0.1:5432/scorekeeper"


@dataclass
class Stack:
    """A running stack: where the phones go, and what runs it."""

    url: str  # https://localhost:8443
    https_port: int
    app: str  # gunicorn's host:port, behind the front only
    env: dict[str, str]
    state: Path
    gunicorn: subprocess.Popen
    caddy: subprocess.Popen
    log: object  # where both write

    @property
    def authority(self) -> Path:
        return authority(self.state)

    def reload_app(self) -> None:
        """What an upgrade does once the new code is in place and migrated: new
        workers on it, the old ones finishing what they answer (gunicorn's HUP)."""
        self.gunicorn.send_signal(signal.SIGHUP)

    def stop_app(self) -> None:
        """The app stopped (its requests finished); the front stays up."""
        stop(self.gunicorn)

    def start_app(self) -> None:
        self.gunicorn = start_app(self.env, self.log)

    def restart_app(self, *, down_for: float = 0) -> None:
        """Stopped and started again, as after a crash or a reboot: the front holds
        what comes meanwhile (SCOREKEEPER_UPSTREAM_WAIT) until the app is back."""
        self.stop_app()
        time.sleep(down_for)
        self.start_app()


def say(line: str) -> None:
    print(line, flush=True)


def apt_install(*packages: str) -> None:
    say(f"Installing {', '.join(packages)} (apt-get)…")
    subprocess.run(["apt-get", "update", "-qq"], check=True)
    subprocess.run(
        ["apt-get", "install", "-y", "-qq", *packages],
        check=True,
        env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"},
        stdout=subprocess.DEVNULL,
    )


def ensure_caddy() -> None:
    if not shutil.which("caddy"):
        apt_install("caddy")
    # Debian's package starts its own Caddy on port 80 with a page of its own; the
    # stack runs its own from deploy/Caddyfile.


def ensure_postgresql(url: str) -> None:
    """A PostgreSQL server answering at ``url``'s host (started, or installed and
    started, when it is this machine), and ``url``'s database made if missing."""
    parts = urllib.parse.urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 5432
    if not _listening(host, port) and host in ("127.0.0.1", "localhost", "::1"):
        clusters = Path("/etc/postgresql")
        if not clusters.is_dir() or not any(clusters.iterdir()):
            apt_install("postgresql")
        version = sorted(clusters.iterdir())[0].name
        say(f"Starting PostgreSQL {version}…")
        subprocess.run(
            ["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", "start"], check=False
        )
        for _ in range(60):
            if _listening(host, port):
                break
            time.sleep(0.5)
    import psycopg

    name = parts.path.lstrip("/")
    server = urllib.parse.urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(server, autocommit=True) as db:
        if not db.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            say(f"Making the database {name}…")
            db.execute(f'CREATE DATABASE "{name}"')


def _listening(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


def secret_key(state: Path) -> str:
    """Made once and kept in the state folder (never in the repository)."""
    path = state / "secret_key"
    if not path.exists():
        state.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


def front_env(*, state: Path, https_port: int, http_port: int, app: str, static: Path) -> dict:
    """What the front reads (deploy/front.env on a server): where it serves, with
    which certificate, and where the app and the static files are."""
    return {
        "SCOREKEEPER_SITE": f"localhost:{https_port}",
        "SCOREKEEPER_TLS": "internal",
        "SCOREKEEPER_HTTPS_PORT": str(https_port),
        "SCOREKEEPER_HTTP_PORT": str(http_port),
        "SCOREKEEPER_APP": app,
        "SCOREKEEPER_STATIC": str(static),
        "SCOREKEEPER_CADDY_ADMIN": f"unix/{state / 'caddy-admin.sock'}",
        # Caddy keeps its local authority and certificates here, not in ~/.local.
        "XDG_DATA_HOME": str(state / "caddy" / "data"),
        "XDG_CONFIG_HOME": str(state / "caddy" / "config"),
    }


def authority(state: Path) -> Path:
    """The root certificate of the front's local authority, for phones to trust."""
    return state / "caddy" / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"


def stack_env(*, state: Path, database_url: str, https_port: int, http_port: int, app: str):
    """The environment both the app and the front read (deploy/scorekeeper.env and
    deploy/front.env on a server)."""
    # Nothing of the shell running it that would change the app (a test run's own flags).
    unsafe = ("DEBUG", "DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE")
    env = {k: v for k, v in os.environ.items() if k not in unsafe}
    env.update(
        DJANGO_SETTINGS_MODULE="scorekeeper.settings",
        SECRET_KEY=secret_key(state),
        DATABASE_URL=database_url,
        ALLOWED_HOSTS="localhost",
        # Caddy on this machine is the front: it connects from loopback.
        TRUSTED_PROXIES="127.0.0.1,::1",
        STATIC_ROOT=str(state / "static"),
        BACKUP_DIR=str(state / "backups"),
    )
    env.update(front_env(state=state, https_port=https_port, http_port=http_port, app=app,
                         static=state / "static"))  # fmt: skip
    return env


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True)


def prepare(env: dict[str, str]) -> None:
    """What every start and every upgrade does before the workers take requests."""
    manage(env, "migrate", "--noinput", "-v0")  # the cache tables too
    manage(env, "collectstatic", "--noinput", "-v0")
    manage(env, "check", "--deploy", "--fail-level", "WARNING")


def start_app(env: dict[str, str], log) -> subprocess.Popen:
    command = [sys.executable, "-m", "gunicorn", "-c", str(DEPLOY / "gunicorn.conf.py")]
    return subprocess.Popen(
        [*command, "scorekeeper.wsgi"], cwd=ROOT, env=env, stdout=log, stderr=log,
        start_new_session=True,
    )  # fmt: skip


def start_front(env: dict[str, str], log) -> subprocess.Popen:
    command = ["caddy", "run", "--config", str(DEPLOY / "Caddyfile"), "--adapter", "caddyfile"]
    return subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=log, stderr=log, start_new_session=True
    )


def wait_until_serving(stack: Stack, seconds: float = 60) -> None:
    """The front answers the app's health check over HTTPS."""
    import ssl
    import urllib.request

    context = (
        ssl.create_default_context(cafile=str(stack.authority))
        if stack.authority.exists()
        else None
    )
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for process in (stack.gunicorn, stack.caddy):
            if process.poll() is not None:
                raise RuntimeError(f"{process.args[0]} stopped (exit {process.returncode})")
        if context is None and stack.authority.exists():
            context = ssl.create_default_context(cafile=str(stack.authority))
        if context is not None:
            try:
                with urllib.request.urlopen(stack.url + "/healthz", timeout=2, context=context):
                    return
            except OSError:
                pass
        time.sleep(0.2)
    raise TimeoutError(f"nothing answered at {stack.url}")


def stop(process: subprocess.Popen, seconds: float = 30) -> None:
    if process.poll() is None:
        process.terminate()  # both stop gracefully on TERM
        try:
            process.wait(seconds)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextmanager
def stack(
    *,
    state: Path = ROOT / ".production",
    database_url: str = DATABASE_URL,
    https_port: int = 8443,
    http_port: int = 8080,
    app: str = "127.0.0.1:8000",
    extra_env: dict[str, str] | None = None,
) -> Iterator[Stack]:
    """The whole stack, running until the block ends; the data stays."""
    ensure_caddy()
    ensure_postgresql(database_url)
    state.mkdir(parents=True, exist_ok=True)
    env = stack_env(state=state, database_url=database_url, https_port=https_port,
                    http_port=http_port, app=app)  # fmt: skip
    env.update(extra_env or {})
    prepare(env)
    with open(state / "stack.log", "a") as log:
        gunicorn = start_app(env, log)
        caddy = start_front(env, log)
        running = Stack(
            f"https://localhost:{https_port}", https_port, app, env, state, gunicorn, caddy, log
        )
        try:
            wait_until_serving(running)
            yield running
        finally:
            # The front first, so nothing new reaches the app while it finishes.
            stop(running.caddy)
            stop(running.gunicorn)


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def main() -> None:
    url = os.environ.get("DATABASE_URL") or DATABASE_URL
    # Ctrl-C (and a TERM from a service manager) stop the front first, then the app.
    signal.signal(signal.SIGINT, _interrupt)
    signal.signal(signal.SIGTERM, _interrupt)
    with stack(database_url=url) as running:
        say("")
        say(f"Serving {running.url} (HTTPS, HTTP/2 and HTTP/3) through Caddy, the app behind it")
        say(f"  on {running.app} with gunicorn; the database: {url.rsplit('@', 1)[-1]}.")
        say(
            f"  A phone trusts the certificate once its authority is installed: {running.authority}"
        )
        say(f"  Logs: {running.state / 'stack.log'}. Ctrl-C stops it all; the data stays.")
        try:
            while running.gunicorn.poll() is None and running.caddy.poll() is None:
                time.sleep(0.5)
            say("A part of the stack stopped: see the log. Stopping the rest.")
        except KeyboardInterrupt:
            say("Stopping…")
    say("Stopped. The data is kept: make production starts it again.")


if __name__ == "__main__":
    main()
