"""The image and compose file as a self-hoster starts them (README, docs/self-hosting.md):
built from the Dockerfile on a base made here (scripts/container-setup), run with
nothing but a volume, then the whole stack with `compose up` over HTTPS. A guest
plays through HTTP; every deal outlives a restart; a backup is made and restores."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import time
import tomllib
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest

from deploy.production import ROOT
from tests.deploy.phones import Phone

pytestmark = pytest.mark.container

IMAGE = "localhost/scorekeeper:latest"
DEALS = [(17, 13, 13), (13, 17, 13), (13, 13, 17)]


@dataclass
class Served:
    """Where a phone reaches the app: what tests/deploy/phones.py needs of a front."""

    url: str
    https_port: int
    authority: Path


def podman(*args: str, timeout: float = 120, check: bool = True, **kwargs):
    done = subprocess.run(
        ["podman", *args], capture_output=True, text=True, timeout=timeout, **kwargs
    )
    if check and done.returncode != 0:
        raise AssertionError(f"podman {' '.join(args)}: {done.stdout}{done.stderr}")
    return done


def say(line: str) -> None:
    print(line, flush=True)


@pytest.fixture(scope="module")
def images():
    """Both targets built as a user's build would build them."""
    started = time.monotonic()
    subprocess.run([str(ROOT / "scripts" / "container-build")], cwd=ROOT, check=True, timeout=900)
    size = int(podman("image", "inspect", IMAGE, "--format", "{{.Size}}").stdout)
    say(f"\nImage built in {time.monotonic() - started:.0f} s; its size: {size / 1e6:.0f} MB")
    return IMAGE


def settings_version() -> str:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def until_healthy(name: str, started: float, limit: float = 90) -> float:
    """Seconds from ``started`` until the image's own HEALTHCHECK passes."""
    while time.monotonic() - started < limit:
        if podman("healthcheck", "run", name, check=False).returncode == 0:
            return time.monotonic() - started
        time.sleep(0.25)
    logs = podman("logs", name, check=False)
    raise AssertionError(f"{name} not healthy in {limit} s:\n{logs.stdout}{logs.stderr}")


def deals_in(container: str) -> int:
    code = "from games.models import Deal; print(Deal.objects.count())"
    said = podman("exec", container, "python", "manage.py", "shell", "--no-imports", "-c", code)
    return int(said.stdout)


def guest_plays(served: Served, deals: int) -> tuple[Phone, str]:
    """A guest starts a game of Black Maria and saves ``deals`` deals: their phone,
    and the game's path."""
    phone = Phone(served)
    start = phone.post("/accounts/start/")
    assert start.status == 302 and start.headers["location"] == "/games/new/", start.text[:300]
    form = phone.get("/games/new/").text
    rules = re.search(r'<option value="(\d+)"[^>]*>\s*Black Maria\s*<', form).group(1)
    made = phone.post(
        "/games/new/",
        {"new_players": "Åse, Bjørn, Kåre", "first_dealer": "draw", "ruleset": rules,
         "end": "target", "target": "500", "moon": "others", "key": uuid.uuid4().hex},
    )  # fmt: skip
    assert made.status == 302, made.text[:500]
    game = made.headers["location"]
    for number in range(1, deals + 1):
        points = DEALS[number % len(DEALS)]
        data = {"key": uuid.uuid4().hex, "number": str(number), "mode": "points"}
        data.update({f"points-{i}": str(p) for i, p in enumerate(points)})
        saved = phone.post(f"{game}deals/queued/", data)
        assert saved.status == 200 and b'"recorded"' in saved.body, saved.text[:300]
    page = phone.get(game)
    assert page.status == 200 and "Bjørn" in page.text
    return phone, game


@pytest.fixture
def volume():
    name = f"scorekeeper-test-{uuid.uuid4().hex[:8]}"
    yield name
    podman("volume", "rm", "-f", name, check=False)


def test_one_command_with_only_a_volume(images, volume):
    """README: `docker run -d -p 8000:8000 -v scorekeeper:/data scorekeeper`, nothing else."""
    name, port = volume, free_port()
    started = time.monotonic()
    podman("run", "-d", "--name", name, "-p", f"127.0.0.1:{port}:8000", "-v", f"{volume}:/data",
           images)  # fmt: skip
    try:
        say(f"Start to healthy (migrations on a new volume): {until_healthy(name, started):.1f} s")
        said = podman("image", "inspect", images, "--format", "{{json .Labels}}").stdout
        labels = json.loads(said)
        assert labels["org.opencontainers.image.licenses"] == "BSD-3-Clause"
        assert labels["org.opencontainers.image.version"] == settings_version()
        # Not root, and the secret key made on the first start, kept in the volume.
        assert podman("exec", name, "id", "-u").stdout.strip() != "0"
        user = podman("inspect", name, "--format", "{{.Config.User}}").stdout.strip()
        assert user == "scorekeeper"
        key = podman("exec", name, "stat", "-c", "%a %U", "/data/secret_key").stdout.split()
        assert key == ["600", "scorekeeper"]

        served = Served(f"http://localhost:{port}", port, Path(os.environ.get(
            "SSL_CERT_FILE", "/etc/ssl/certs/ca-certificates.crt")))  # fmt: skip
        phone, game = guest_plays(served, 3)
        assert deals_in(name) == 3

        # A forged Host: the app's own 400, not a crash.
        forged = Phone(served).get("/", headers={"Host": "evil.example"})
        assert forged.status == 400 and "ALLOWED_HOSTS" in forged.text
        assert '<meta name="viewport"' in forged.text

        # Stopped as the container runtime stops it (SIGTERM): gunicorn's graceful exit.
        podman("stop", "--time", "40", name)
        stopped = podman("inspect", name, "--format", "{{.State.ExitCode}}").stdout.strip()
        assert stopped == "0"
        assert "Shutting down: Master" in podman("logs", name).stderr
        started = time.monotonic()
        podman("start", name)
        say(f"Restart to healthy: {until_healthy(name, started):.1f} s")
        assert deals_in(name) == 3
        # The guest is still signed in: the key their session is signed with was kept.
        assert phone.get(game).status == 200

        # Any management command by `exec`: a backup into the volume, restored later.
        made = podman("exec", name, "python", "manage.py", "backup").stdout
        backup = re.search(r"Backed up to (\S+)\.", made).group(1)
        assert backup.startswith("/data/backups/")
        guest_plays(served, 1)
        assert deals_in(name) == 4
        # The history in by standard input, as `docker exec -i NAME … import_games -`.
        podman("exec", "-e", "DJANGO_SUPERUSER_PASSWORD=a-long-pass-phrase", name, "python",
               "manage.py", "createsuperuser", "--noinput", "--username", "owner",
               "--email", "owner@example.org")  # fmt: skip
        history = podman("exec", name, "python", "manage.py", "export_games").stdout
        podman("exec", "-i", name, "python", "manage.py", "import_games", "-", input=history)
        assert deals_in(name) == 8

        # Restore: the app stopped, the backup put back by a one-off container.
        podman("stop", name)
        podman("run", "--rm", "-v", f"{volume}:/data", images,
               "python", "manage.py", "restore", "--noinput", backup)  # fmt: skip
        podman("start", name)
        until_healthy(name, time.monotonic())
        assert deals_in(name) == 3
    finally:
        podman("rm", "-f", "--time", "5", name, check=False)


COMPOSE = [str(ROOT / ".venv" / "bin" / "podman-compose"), "-p", "scorekeeper-test"]


def compose(*args: str, timeout: float = 300, **settings: str) -> subprocess.CompletedProcess:
    """podman-compose with what a club's .env would set, and nothing else of ours."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
    env.update(settings)
    done = subprocess.run(
        [*COMPOSE, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done


@pytest.fixture
def stack(images, tmp_path, request):
    """`compose up`: with nothing set, https://localhost on ports 80 and 443; or
    with the server's address as its site, as on a LAN with no domain."""
    settings = getattr(request, "param", {})
    compose("down", "-v", timeout=120)  # what a run cut short left
    for port in (80, 443):
        with socket.socket() as s:
            assert s.connect_ex(("127.0.0.1", port)) != 0, f"port {port} is taken on this machine"
    started = time.monotonic()
    compose("up", "-d", **settings)
    try:
        say(f"compose up to healthy: {until_healthy('scorekeeper-test_app_1', started):.1f} s")
        authority = tmp_path / "root.crt"
        for _ in range(40):
            kept = "scorekeeper-test_front_1:/data/caddy/pki/authorities/local/root.crt"
            got = podman("cp", kept, str(authority), check=False)
            if got.returncode == 0:
                break
            time.sleep(0.25)
        yield Served(f"https://{settings.get('SCOREKEEPER_SITE', 'localhost')}", 443, authority)
    finally:
        compose("down", "-v", timeout=120)


def test_compose_up_serves_over_https_and_keeps_every_game(stack):
    phone = Phone(stack)
    home = phone.get("/")
    assert home.status == 200 and home.version == "2"
    assert home.headers["strict-transport-security"] == "max-age=31536000; includeSubDomains"
    assert "Secure" in home.headers["set-cookie"]
    # Plain HTTP goes to HTTPS; a Host that is not the site's never reaches the app.
    plain = subprocess.run(["curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}",
                            "http://localhost/"], capture_output=True, text=True)  # fmt: skip
    assert plain.stdout == "308"
    forged = phone.get("/", headers={"Host": "evil.example"})
    assert (
        forged.status < 500 and not forged.body and "content-security-policy" not in forged.headers
    )

    phone, game = guest_plays(stack, 3)
    assert deals_in("scorekeeper-test_app_1") == 3

    # The daily job's work, now: a backup in its own volume, beside the clean-ups.
    said = podman("exec", "scorekeeper-test_daily_1", "python", "manage.py", "daily").stdout
    assert "Backed up to /backups/" in said and "uploaded file(s) forgotten" in said
    listed = podman("exec", "scorekeeper-test_daily_1", "ls", "/backups").stdout.split()
    assert len(listed) == 1 and listed[0].endswith(".sqlite3")

    # The whole stack down and up again (a reboot, an upgrade): every deal is there.
    compose("down")
    compose("up", "-d")
    until_healthy("scorekeeper-test_app_1", time.monotonic())
    assert deals_in("scorekeeper-test_app_1") == 3
    assert phone.get(game).status == 200  # the guest's phone is still signed in


@pytest.mark.parametrize("stack", [{"SCOREKEEPER_SITE": "127.0.0.1"}], indirect=True)
def test_compose_on_a_lan_serves_the_server_s_address(stack):
    """A phone that opens https://192.168.1.20 sends no name in its TLS greeting:
    the front still serves it, with a certificate for the address."""
    phone = Phone(stack)
    home = phone.get("/")
    assert home.status == 200 and home.version == "2"
    guest_plays(stack, 1)
