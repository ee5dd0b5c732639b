"""The files a club's server is set up with (deploy/): systemd checks every unit,
Caddy its Caddyfile, and none of them holds a secret."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from deploy.production import DEPLOY, ROOT

UNITS = sorted(DEPLOY.glob("*.service")) + sorted(DEPLOY.glob("*.timer"))


def installed(tmp_path: Path) -> Path:
    """The units as they are installed, with this checkout in place of /srv/scorekeeper
    (systemd checks that every command exists) and the example settings."""
    for unit in [*UNITS, DEPLOY / "caddy.service.d" / "scorekeeper.conf"]:
        text = unit.read_text().replace("/srv/scorekeeper", str(ROOT))
        text = text.replace(
            "/etc/scorekeeper/scorekeeper.env", str(DEPLOY / "scorekeeper.env.example")
        )
        text = text.replace("/etc/scorekeeper/front.env", str(DEPLOY / "front.env.example"))
        target = tmp_path / unit.relative_to(DEPLOY)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    # Debian's own caddy.service, which the drop-in changes.
    shutil.copy("/lib/systemd/system/caddy.service", tmp_path / "caddy.service")
    return tmp_path


@pytest.mark.tools  # Debian's caddy.service
@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="systemd's tools")
def test_systemd_finds_nothing_wrong_with_the_units(tmp_path):
    folder = installed(tmp_path)
    names = [str(folder / u.name) for u in UNITS] + [str(folder / "caddy.service")]
    env = {"SYSTEMD_UNIT_PATH": f"{folder}:", "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        ["systemd-analyze", "verify", *names], capture_output=True, text=True, env=env
    )
    said = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    assert done.returncode == 0 and said == [], said


def test_a_unit_systemd_would_refuse_is_seen(tmp_path):
    """The check above can fail: a misspelt key is reported."""
    folder = installed(tmp_path)
    unit = folder / "scorekeeper.service"
    unit.write_text(unit.read_text().replace("ExecReload=", "ExecRelaod="))
    done = subprocess.run(
        ["systemd-analyze", "verify", str(unit)], capture_output=True, text=True,
    )  # fmt: skip
    assert "Unknown key 'ExecRelaod'" in done.stderr


def test_the_timer_runs_the_daily_service_every_night():
    timer = (DEPLOY / "scorekeeper-daily.timer").read_text()
    assert "OnCalendar=*-*-* 04:15:00" in timer and "Persistent=true" in timer


def test_the_daily_job_backs_up_first_then_clears_and_keeps_the_backups_private():
    """A oneshot unit stops at its first failing command: a failing clear_guests
    ran first and skipped the night's backup. Nothing ran clearsessions."""
    daily = (DEPLOY / "scorekeeper-daily.service").read_text()
    commands = re.findall(r"^ExecStart=\S+ manage\.py (\w+)", daily, re.M)
    assert commands == ["backup", "clearsessions", "clear_guests", "clear_uploads"]
    assert "UMask=0077" in daily and "StateDirectoryMode=0700" in daily


@pytest.mark.tools
@pytest.mark.skipif(not shutil.which("caddy"), reason="Caddy (make production installs it)")
def test_caddy_reads_the_caddyfile_as_written():
    env = {
        "SCOREKEEPER_STATIC": "/srv/scorekeeper/staticfiles",
        "PATH": "/usr/bin:/bin",
        "HOME": "/tmp",
    }
    done = subprocess.run(
        ["caddy", "validate", "--config", str(DEPLOY / "Caddyfile"), "--adapter", "caddyfile"],
        capture_output=True, text=True, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    formatted = subprocess.run(
        ["caddy", "fmt", str(DEPLOY / "Caddyfile")], capture_output=True, text=True, check=True
    )
    assert formatted.stdout == (DEPLOY / "Caddyfile").read_text()


SECRETS = re.compile(
    r"(SECRET_KEY|PASSWORD|TOKEN)\s*=\s*[^\s#]+"  # a value given
    r"|postgres://[^:/@\s]+:[^@\s]+@"  # a password in a database's address
    r"|BEGIN [A-Z ]*PRIVATE KEY"
)


def test_nothing_in_deploy_holds_a_secret():
    for path in sorted(DEPLOY.rglob("*")):
        # The settings and units, not the code that makes a key on the machine.
        if path.is_file() and path.suffix not in (".py", ".pyc"):
            text = path.read_text()
            placeholder = "postgres://USER:PASSWORD@"  # the example's, in words
            found = [m.group(0) for m in SECRETS.finditer(text) if m.group(0) != placeholder]
            assert found == [], f"{path.relative_to(ROOT)}: {found}"
