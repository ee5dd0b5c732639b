"""The image builds from wheels alone, on a server's x86_64 and a 64-bit
Raspberry Pi's aarch64 alike: every requirement has a wheel for both (or is
pure Python), for the image's Python, 3.13."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from deploy.production import ROOT

pytestmark = pytest.mark.container

# Debian 13's glibc is 2.41: any manylinux wheel up to it installs.
PLATFORMS = {
    "x86_64": ["manylinux_2_28_x86_64", "manylinux2014_x86_64"],
    "aarch64": ["manylinux_2_28_aarch64", "manylinux2014_aarch64"],
}


@pytest.mark.parametrize("machine", PLATFORMS)
def test_every_requirement_has_a_wheel_for(machine, tmp_path):
    platforms = [arg for tag in PLATFORMS[machine] for arg in ("--platform", tag)]
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed",
         "--only-binary=:all:", "--python-version", "3.13", "--implementation", "cp",
         *platforms, "--target", str(tmp_path / "target"), "--quiet",
         "--report", str(tmp_path / "report.json"), "-r", str(ROOT / "requirements.txt")],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    chosen = json.loads((tmp_path / "report.json").read_text())["install"]
    wheels = {item["metadata"]["name"].lower(): item["download_info"]["url"] for item in chosen}
    pinned = [
        line.split("==")[0].split("[")[0].lower()
        for line in (ROOT / "requirements.txt").read_text().splitlines()
        if "==" in line and not line.startswith("#")
    ]
    assert sorted(wheels) == sorted(set(pinned))
    for name, url in wheels.items():
        assert url.endswith(".whl"), f"{name} has no wheel: {url}"
        built_for = url.rsplit("/", 1)[1]
        assert machine in built_for or built_for.endswith("-none-any.whl"), built_for
