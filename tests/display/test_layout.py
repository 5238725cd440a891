"""The layout keeps its promises (docs/architecture.md, "The tree"): a core that names no format,
one package per competition with the same shape, pure parts that import no I/O framework, every
declared display view with its script, and tests for every competition."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from display import competitions
from display.cli.offline import offline_formats
from display.competitions import RegistryError, load_packages

ROOT = Path(__file__).resolve().parents[2]
DISPLAY = ROOT / "display"
PACKAGES = DISPLAY / "competitions"
CORE_TOP = {"__init__", "__main__", "app", "errors", "security", "services", "settings", "types"}
"""The only modules at the top of display/; everything else lives in a package of its job."""
EDGE = {"api", "pages", "routes", "corrections", "schemas", "imports", "demo", "offline"}
"""A competition's edge modules (HTTP, command line) and ``season_links`` (asyncio): the rest is
its pure part."""
NOT_PURE = {"starlette", "redis", "pydantic", "uvicorn", "httpx", "click", "websockets"}


def module_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


def constants(path: Path) -> set[str]:
    """Every string constant of a module (docstrings too: a format named in prose is fine, and
    is not a whole constant)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    }


def imported(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_display_has_a_handful_of_top_level_modules() -> None:
    assert {p.stem for p in DISPLAY.glob("*.py")} == CORE_TOP


FORMAT_NAMES = {*competitions.formats(), *offline_formats()}
CORE = [p for p in module_files(DISPLAY) if PACKAGES not in p.parents]


def test_the_registry_knows_every_format() -> None:
    assert len(FORMAT_NAMES) >= 8 and "ukpl-season" in FORMAT_NAMES


@pytest.mark.parametrize("path", CORE, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_core_names_no_format(path: Path) -> None:
    """Outside display/competitions/ no module holds a format's name or imports a competition's
    package: it asks the registry."""
    assert constants(path) & FORMAT_NAMES == set()
    own = {f"display.competitions.{p.name}" for p in PACKAGES.iterdir() if p.is_dir()}
    reached = {m for m in imported(path) for pkg in own if m == pkg or m.startswith(pkg + ".")}
    assert reached == set()


def test_the_core_guard_catches_a_format_name(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text('KIND = "ukpl-meeting"\nfrom display.competitions.fwpl import kind\n')
    assert constants(probe) & FORMAT_NAMES == {"ukpl-meeting"}
    assert "display.competitions.fwpl.kind" in imported(probe)


NAMES = [p.name for p in sorted(PACKAGES.iterdir()) if (p / "__init__.py").exists()]


def test_every_package_is_registered() -> None:
    assert sorted(competitions.COMPETITIONS) == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_every_competition_package_has_the_same_shape(name: str) -> None:
    declared = next(c for c in competitions.registered() if c.name == name)
    assert (PACKAGES / name / "kind.py").is_file()
    assert declared.formats, f"{name} runs no format"
    module, _, attribute = declared.routes.partition(":")
    assert module == f"display.competitions.{name}.routes" and attribute == "routes"
    assert (PACKAGES / name / "routes.py").is_file()


@pytest.mark.parametrize(
    "path",
    [p for p in module_files(PACKAGES) if p.stem not in EDGE | {"season_links"}],
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_the_pure_part_of_a_competition_imports_no_io_framework(path: Path) -> None:
    tops = {name.split(".")[0] for name in imported(path)}
    assert tops & (NOT_PURE | {"asyncio"}) == set()
    assert not {m for m in imported(path) if m.split(".")[-1] in EDGE and "competitions" in m}


def test_loading_every_competition_loads_no_web_framework() -> None:
    """The declarations and kinds, imported alone, pull in no HTTP or Redis library (the routes
    are named by import path and imported by create_app only)."""
    code = (
        "import sys, display.competitions as c; c.registered()\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {sorted(NOT_PURE)!r}))"
    )
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


def test_a_format_claimed_twice_is_refused() -> None:
    with pytest.raises(RegistryError, match="claimed by machines and machines"):
        load_packages(("machines", "machines"))
    assert len(load_packages(competitions.COMPETITIONS)) == len(NAMES)


def test_every_declared_display_view_has_its_script_and_styles() -> None:
    scripts = competitions.view_scripts()
    shipped = {
        str(p.relative_to(ROOT / "static"))
        for p in (ROOT / "static").glob("competitions/*/views/*.js")
    }
    assert set(scripts.values()) == shipped
    for style in competitions.view_styles():
        assert (ROOT / "static" / style).is_file(), style
    for c in competitions.registered():
        for fmt, views in c.display_views.items():
            assert fmt in c.formats
            assert set(views) <= {"machines", "standings", "queue", *scripts}, (c.name, fmt)


@pytest.mark.parametrize("name", NAMES)
def test_every_competition_has_its_tests(name: str) -> None:
    folder = ROOT / "tests" / "display" / "competitions" / name
    assert len(list(folder.glob("test_*.py"))) >= 1, f"no tests in {folder}"


def test_reason_required_is_the_union_of_the_competitions() -> None:
    union = frozenset().union(*(c.reason_required for c in competitions.registered()))
    assert competitions.reason_required() == union
    assert {"score_corrected", "game_corrected", "record_voided", "fault_replay"} <= union
