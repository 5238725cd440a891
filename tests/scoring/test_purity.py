"""``scoring/`` stays pure and documented (the project's conventions: pure, explicit config objects, cited sections), checked with ``ast``."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

SCORING = Path(__file__).resolve().parents[2] / "scoring"
MODULES = sorted(SCORING.rglob("*.py"))
FORBIDDEN = {"asyncio", "redis", "starlette", "display", "time"}
PLUMBING = {"__init__.py", "errors.py", "model.py", "settings.py", "tournament.py"}
"""Modules without rules of their own (data shapes, errors, settings parsing, the per-machine
engine's plumbing); every other module holds rules, and its public functions, classes and methods
must cite the section they implement. A new rule module is covered without being listed."""
RULE_MODULES = sorted(str(p.relative_to(SCORING)) for p in MODULES if p.name not in PLUMBING)
CITATION = re.compile(
    r"EPC\s+2009,\s+(EPC\s+(Qualifying|Quarter-Finals|Semi-Finals|Finals|Classic|Country)"
    r"|UK\s+Pinball\s+Kids)"
    r"|UKPL\s+\d[A-G]|FWPL\s+\d"
)


def imported(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_the_package_is_found() -> None:
    found = set(RULE_MODULES)
    assert found >= {"ranking.py", "corrections.py", "machine_faults.py", "epc/qualifying.py"}
    assert found >= {"epc/country/match.py", "ukpl/games.py", "ukpl/region.py", "fwpl/games.py"}


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(SCORING)))
def test_no_io_or_clock_imports(path: Path) -> None:
    """scoring imports no asyncio, redis, starlette, display or time."""
    assert imported(ast.parse(path.read_text(encoding="utf-8"))) & FORBIDDEN == set()


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(SCORING)))
def test_no_module_level_mutable_globals(path: Path) -> None:
    """No module globals that can change; registries are read-only mappings."""
    mutable = (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        names = [ast.unparse(t) for t in targets if t is not None]
        if value is None or names == ["__all__"]:
            continue
        assert not isinstance(value, mutable), f"{path.name}: {names} is a mutable global"
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
            assert value.func.id not in {"list", "dict", "set"}, f"{path.name}: {names}"


def public_definitions(tree: ast.Module) -> list[tuple[str, ast.AST]]:
    found: list[tuple[str, ast.AST]] = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef) and not node.name.startswith("_"):
            found.append((node.name, node))
        if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            found.extend(
                (f"{node.name}.{item.name}", item)
                for item in node.body
                if isinstance(item, ast.FunctionDef) and not item.name.startswith("_")
            )
    return found


@pytest.mark.parametrize("name", RULE_MODULES)
def test_every_public_rule_definition_cites_its_section(name: str) -> None:
    """public rule functions give the rule section they implement."""
    tree = ast.parse((SCORING / name).read_text(encoding="utf-8"))
    missing = [
        qualname
        for qualname, node in public_definitions(tree)
        if not CITATION.search(ast.get_docstring(node) or "")  # type: ignore[arg-type]
    ]
    assert missing == []
