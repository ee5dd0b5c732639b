"""The layout shows the design, and stays so: each rule here fails on the first import
or line that breaks it (docs/architecture.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from games import engine
from games.engine import clubnight
from games.models import Deal, Evening, Ruleset

ROOT = Path(__file__).resolve().parent.parent
CODE = [
    path
    for folder in ("games", "accounts", "backups", "scorekeeper")
    for path in sorted((ROOT / folder).rglob("*.py"))
    if "migrations" not in path.parts
]


def imports(path: Path) -> list[str]:
    """Every module ``path`` imports, anywhere in it (inside functions too)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found += [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
    return found


def module(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def test_the_engine_imports_no_django():
    for path in (ROOT / "games" / "engine").rglob("*.py"):
        bad = [m for m in imports(path) if m.split(".")[0] == "django" or m == "games.models"]
        assert not bad, f"{module(path)} imports {bad}"
        inside = [m for m in imports(path) if m.startswith("games.") and "engine" not in m]
        assert not inside, f"{module(path)} imports {inside}: the engine stands alone"


def test_accounts_know_nothing_of_games():
    """games depends on accounts (is this a guest?), never the other way."""
    for path in (ROOT / "accounts").rglob("*.py"):
        if "migrations" in path.parts:
            continue
        bad = [m for m in imports(path) if m.split(".")[0] == "games"]
        assert not bad, f"{module(path)} imports {bad}"


def test_no_view_module_imports_another():
    """Views share only whole answers (games/views/responses.py); what a page shows
    is shared through games/pages/."""
    for path in (ROOT / "games" / "views").glob("*.py"):
        bad = [
            m
            for m in imports(path)
            if m.startswith("games.views") and not m.startswith("games.views.responses")
        ]
        assert not bad, f"{module(path)} imports {bad}: shared parts go in games/pages/"


def test_the_engine_pages_and_formats_never_reach_for_the_services_or_views():
    """Reading never writes: only views (and commands) call services."""
    for folder in ("engine", "pages", "formats"):
        for path in (ROOT / "games" / folder).rglob("*.py"):
            bad = [m for m in imports(path) if m.startswith(("games.services", "games.views"))]
            assert not bad, f"{module(path)} imports {bad}"
    for path in (ROOT / "games" / "services").rglob("*.py"):
        bad = [m for m in imports(path) if m.startswith(("games.views", "games.pages"))]
        assert not bad, f"{module(path)} imports {bad}: services don't depend on pages"


# From the bottom up: a module may import its own layer and those below it, never one
# above. The engine is below everything (tested above); a deal saved walks down them:
# view -> access -> form -> service -> engine, and back up through a page builder.
LAYERS = [
    ("games.models", "games.selectors", "games.formats", "games.sql"),
    ("games.access", "games.services"),
    ("games.pages", "games.drawing", "games.templatetags"),
    ("games.forms",),
    ("games.views", "games.urls"),
]


def layer(name: str) -> int | None:
    for number, members in enumerate(LAYERS):
        if any(name == m or name.startswith(m + ".") for m in members):
            return number
    return None


def test_no_module_imports_a_layer_above_its_own():
    """Nothing reaches up: the access rule, the reads and the writes know no page,
    form or view; a page knows no form or view; a form knows no view."""
    climbs = []
    for path in CODE:
        own = layer(module(path))
        if own is None:
            continue
        for name in imports(path):
            other = layer(name)
            if other is not None and other > own:
                climbs.append(f"{module(path)} imports {name}")
    assert not climbs, climbs


WRITES = {"save", "delete", "update", "create", "bulk_create", "bulk_update", "get_or_create"}


@pytest.mark.parametrize("folder", ["views", "pages", "forms", "formats"])
def test_only_services_write(folder):
    """A view reads, calls a service and renders; nothing outside services writes a row."""
    for path in (ROOT / "games" / folder).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in WRITES
                # dict.update and a ModelForm's save(commit=False) build, not write
                and not (node.func.attr == "update" and not _on_a_queryset(node))
                and not any(k.arg == "commit" for k in node.keywords)
                and not _on_the_cache(node)
                and not _an_image_encoded(node)
            ):
                raise AssertionError(f"{module(path)}:{node.lineno} writes: .{node.func.attr}()")


# What builds a query. ``values``, ``get`` and ``count`` are left out: dictionaries and
# lists have them too; and ``all``, which reads what a selector prefetched.
QUERIES = {
    "objects", "filter", "exclude", "order_by", "select_related", "prefetch_related",
    "values_list", "aggregate", "annotate", "distinct", "only", "defer", "first", "last",
    "exists",
}  # fmt: skip


@pytest.mark.parametrize("folder", ["views", "pages", "forms", "drawing", "templatetags"])
def test_only_selectors_and_the_access_rule_read(folder):
    """A read is found in one guess: the access rule's in games/access.py, every other
    in games/selectors/ (the files' in games/formats/). A view, a form, a page builder
    or a drawing asks them and builds no query of its own."""
    for path in (ROOT / "games" / folder).rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in QUERIES:
                template_filter = isinstance(node.value, ast.Name) and node.value.id == "register"
                assert template_filter, f"{module(path)}:{node.lineno} reads: .{node.attr}"
            if _a_querysets_count_or_get(node):
                raise AssertionError(f"{module(path)}:{node.lineno} reads: .{node.func.attr}()")
        # QuerySet only, to say what a function takes.
        allowed = {"django.db.models", "django.db.models.QuerySet"}
        bad = [m for m in imports(path) if m.startswith("django.db") and m not in allowed]
        assert not bad, f"{module(path)} imports {bad}: reads go in games/selectors/"


def _a_querysets_count_or_get(node: ast.AST) -> bool:
    """``.count()`` with nothing to count (a list's takes a value), ``.get(pk=...)``
    with only keywords (a dictionary's takes a key)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return False
    if node.func.attr == "count":
        return not node.args
    return node.func.attr == "get" and bool(node.keywords) and not node.args


def _an_image_encoded(node: ast.Call) -> bool:
    """Pillow's ``image.save(buffer, "PNG")``: bytes in memory, not a row."""
    return any(isinstance(a, ast.Constant) and a.value == "PNG" for a in node.args)


def _on_the_cache(node: ast.Call) -> bool:
    value = node.func.value  # type: ignore[attr-defined]
    return isinstance(value, ast.Name) and value.id in {"cache", "caches"}


def _on_a_queryset(node: ast.Call) -> bool:
    value = node.func.value  # type: ignore[attr-defined]
    return isinstance(value, ast.Call) or (
        isinstance(value, ast.Attribute) and value.attr == "objects"
    )


def test_no_module_is_over_600_lines():
    for path in CODE + sorted((ROOT / "static" / "js").glob("*.js")):
        count = len(path.read_text().splitlines())
        assert count <= 600, f"{module(path)} has {count} lines"


def test_the_rule_options_are_the_engines():
    """Each of the rules' settings is declared once (engine.RULE_OPTIONS): the
    ruleset's columns and the form's fields, with their defaults, follow from it."""
    from dataclasses import fields

    from games.forms.rulesets import RulesetForm

    assert set(engine.RULE_OPTIONS) == {f.name for f in fields(engine.Rules)} - {"name"}
    form = RulesetForm()
    for name, option in engine.RULE_OPTIONS.items():
        column = Ruleset._meta.get_field(name)
        default = getattr(engine.Rules(), name)
        assert (column.default if column.has_default() else None) == default, name
        assert column.null == option.optional, name
        assert [value for value, _ in column.choices or []] == list(option.values), name
        assert name in form.fields, name
        assert form.fields[name].required == (not option.optional and option.kind != "cards")
    assert tuple(Deal.Mode.values) == engine.ENTRY_MODES
    assert tuple(Evening.Scoring.values) == (clubnight.PLACES, clubnight.SHARE)


def test_each_view_module_has_its_test_file():
    """Tests mirror the code: what a view module answers is tested beside its name."""
    # responses.py answers no URL of its own: the table's views test its pages.
    answering = (ROOT / "games" / "views").glob("*.py")
    views = {p.stem for p in answering if p.stem not in {"__init__", "responses"}}
    tested = {p.stem.removeprefix("test_") for p in (ROOT / "tests" / "views").glob("test_*.py")}
    assert views <= tested, f"no tests/views/test_<name>.py for {sorted(views - tested)}"


def test_no_template_line_is_over_160_characters():
    """Templates read as the code does (ruff holds Python to 100; djLint lints them: make lint)."""
    long = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "templates").rglob("*.html"))
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if len(line) > 160
    ]
    assert long == [], long
