"""The README and docs/ hold: every relative link and picture is there (anchors
too), every `make` target they name is the Makefile's, every command the README
shows is one the Makefile or manage.py knows, nothing points outside the
repository, and every setting the app and the front read is in
docs/configuration.md."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
from django.core.management import get_commands

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [
    ROOT / "README.md",
    ROOT / "CHANGELOG.md",
    ROOT / "SECURITY.md",
    *sorted((ROOT / "docs").glob("*.md")),
]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)|<img [^>]*src=\"([^\"]+)\"")
MAKE = re.compile(r"(?:`|^\s*)make ([a-z][a-z0-9-]*)", re.M)  # in code, not "make sure"
FENCE = re.compile(r"^```[a-z]*\n(.*?)^```", re.M | re.S)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = "".join(c for c in text if c in " -" or unicodedata.category(c)[0] in "LN")
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return {slug(h) for h in re.findall(r"^#+ (.+)$", text, re.M)}


def links(path: Path) -> list[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return [a or b for a, b in LINK.findall(text)]


def makefile_targets() -> set[str]:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    return {
        name
        for line in re.findall(r"^([a-z][a-z0-9 ./_-]*):(?!=)", text, re.M)
        for name in line.split()
    }


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.name)
def test_every_relative_link_and_picture_is_there(path):
    missing = []
    for link in links(path):
        if re.match(r"[a-z]+:", link):
            continue  # a web address
        target, _, anchor = link.partition("#")
        file = (path.parent / target).resolve() if target else path
        if ROOT not in file.parents and file != ROOT:
            missing.append(f"{link}: outside the repository")
        elif not file.exists():
            missing.append(f"{link}: no such file")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            missing.append(f"{link}: no heading #{anchor} in {file.name}")
    assert not missing, f"{path.name}: {missing}"


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.name)
def test_every_make_target_named_is_the_makefile_s(path):
    named = set(MAKE.findall(path.read_text(encoding="utf-8")))
    assert named <= makefile_targets(), named - makefile_targets()


def test_every_command_the_readme_shows_is_known():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = FENCE.findall(readme)
    assert blocks, "the README shows its commands in fenced blocks"
    commands = set(get_commands())
    unknown = []
    for block in blocks:
        for line in block.splitlines():
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            line = re.sub(r"^docker (?:compose )?exec (?:-it |-i |-T )?\S+ ", "", line)
            if match := re.fullmatch(r"make ([a-z-]+)(?: .*)?", line):
                known = match[1] in makefile_targets()
            elif match := re.fullmatch(r"(?:\.venv/bin/)?python3? manage\.py ([a-z_]+).*", line):
                known = match[1] in commands
            elif re.fullmatch(r"docker (build|run|compose up) .*", line):
                known = True  # what tests/container/ runs, with podman
            else:
                known = False
            if not known:
                unknown.append(line)
    assert not unknown, unknown


def test_the_readme_is_read_in_two_minutes():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 200


def test_nothing_points_outside_the_repository():
    for path in [*DOCUMENTS, *ROOT.glob("deploy/*"), ROOT / "Makefile"]:
        if path.is_file():
            assert "../shared" not in path.read_text(encoding="utf-8"), path


# --- Every setting read is documented --------------------------------------------


def settings_read() -> set[str]:
    """The environment variables settings.py, gunicorn and the Caddyfile read."""
    found = set()
    for name in ("scorekeeper/settings.py", "deploy/gunicorn.conf.py"):
        text = (ROOT / name).read_text(encoding="utf-8")
        found |= set(
            re.findall(r"(?:environ\.get|env_bool|env_int|env_list)\(\s*\"([A-Z_]+)\"", text)
        )
        for names in re.findall(r"for _gone in \(([^)]*)\)", text):
            found |= set(re.findall(r"\"([A-Z_]+)\"", names))
    caddyfile = (ROOT / "deploy/Caddyfile").read_text(encoding="utf-8")
    found |= set(re.findall(r"\{\$([A-Z_]+)", caddyfile))
    return found


def test_every_setting_the_app_and_the_front_read_is_in_the_configuration_document():
    read = settings_read()
    assert {"SECRET_KEY", "DATABASE_URL", "SCOREKEEPER_SITE", "WEB_CONCURRENCY"} <= read
    documented = set(
        re.findall(r"`([A-Z][A-Z_]+)`", (ROOT / "docs/configuration.md").read_text("utf-8"))
    )
    assert read <= documented, sorted(read - documented)


# --- What the docs say of the game is what the app does ---------------------------


def test_the_moon_values_in_the_rules_are_the_engine_s():
    from games.engine.rules import Rules, moon_value

    black_maria, hearts = Rules(), Rules(king_of_spades=0, ace_of_spades=0)
    text = (ROOT / "docs/rules.md").read_text(encoding="utf-8")
    normal = f"{moon_value(black_maria, 3)} in Black Maria"
    six = f"{moon_value(black_maria, 6)} and {moon_value(hearts, 6)} with six players"
    assert normal in text and six in text
    assert (moon_value(black_maria, 6), moon_value(hearts, 6)) == (42, 25)


def test_the_readme_s_first_picture_says_how_many_play():
    from tests.e2e.test_readme_pictures import NAMES

    words = {3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    alt = re.search(r'<img src="docs/images/game.png"[^>]* alt="([^"]+)"', readme).group(1)
    assert alt.startswith(f"A game of {words[len(NAMES)]} under way"), alt
