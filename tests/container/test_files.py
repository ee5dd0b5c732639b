"""What the container files promise, read without building anything (the build
and the run are tests/container/test_image.py's, in their own stage)."""

from __future__ import annotations

import re
import tomllib

import yaml

from deploy.production import ROOT


def compose_file() -> dict:
    return yaml.safe_load((ROOT / "compose.yaml").read_text())


def test_the_image_s_version_label_is_the_release():
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert set(re.findall(r"^ARG VERSION=(\S+)$", dockerfile, re.M)) == {version}


def test_the_app_s_port_is_published_nowhere_in_compose():
    """compose.yaml believes the front from any private address (TRUSTED_PROXIES): only
    because nothing but the stack's own network reaches the app."""
    services = compose_file()["services"]
    assert "ports" not in services["app"] and "ports" not in services["daily"]
    trusted = services["app"]["environment"]["TRUSTED_PROXIES"].split(",")
    assert trusted == ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"]
    assert set(services["front"]["ports"]) == {
        "${SCOREKEEPER_HTTP_PORT:-80}:${SCOREKEEPER_HTTP_PORT:-80}",
        "${SCOREKEEPER_HTTPS_PORT:-443}:${SCOREKEEPER_HTTPS_PORT:-443}",
        "${SCOREKEEPER_HTTPS_PORT:-443}:${SCOREKEEPER_HTTPS_PORT:-443}/udp",
    }


def test_the_daily_job_backs_up_into_its_own_volume():
    services = compose_file()["services"]
    assert services["daily"]["command"][:3] == ["python", "manage.py", "daily"]
    assert "backups:/backups" in services["app"]["volumes"]
    assert services["app"]["environment"]["BACKUP_DIR"] == "/backups"


def test_the_image_holds_the_app_and_none_of_the_tests():
    ignored = (ROOT / ".dockerignore").read_text().splitlines()
    first_kept = next(i for i, line in enumerate(ignored) if line.startswith("!"))
    assert "*" in ignored[:first_kept]  # everything out, then what the app needs
    kept = {line[1:] for line in ignored if line.startswith("!")}
    assert "tests" not in kept and "bench" not in kept and "requirements-dev.txt" not in kept
    assert {"manage.py", "pyproject.toml", "requirements.txt", "games", "deploy"} <= kept


def test_a_build_with_no_target_makes_the_app():
    """`docker build -t scorekeeper .` (the README's) builds the last stage."""
    stages = re.findall(r"^FROM \S+ AS (\w+)$", (ROOT / "Dockerfile").read_text(), re.M)
    assert stages[-1] == "app" and "front" in stages


def make_prerequisites(target: str) -> set[str]:
    text = (ROOT / "Makefile").read_text()
    line = re.search(rf"^{re.escape(target)}:(?!=)(.*)$", text, re.M).group(1)
    return set(line.split())


def test_make_production_starts_what_it_connects_to():
    """It connects to PostgreSQL as postgres@127.0.0.1 with no password: only the
    postgres target makes that work on a stock server (scripts/postgres-up)."""
    assert {"postgres", "caddy"} <= make_prerequisites("production")


def test_make_run_installs_the_app_s_libraries_only():
    assert make_prerequisites("run") == {"$(VENV)/.app-installed"}
    recipe = r"^\$\(VENV\)/\.app-installed:.*\n\t(.*)$"
    app = re.search(recipe, (ROOT / "Makefile").read_text(), re.M)
    assert "-r requirements.txt" in app.group(1)


def test_hsts_is_the_app_s_alone():
    """The front sent its own, with preload, whatever SECURE_HSTS_* said."""
    assert "Strict-Transport-Security" not in (ROOT / "deploy/Caddyfile").read_text()
