"""``scoring/`` stays pure and documented (the project's conventions: pure, explicit config
objects, cited sections, seeded randomness), checked with ``ast`` on every module, so a new one
is covered without being listed."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

SCORING = Path(__file__).resolve().parents[2] / "scoring"
MODULES = sorted(SCORING.rglob("*.py"))
FORBIDDEN = {"asyncio", "redis", "starlette", "display", "time"}
PLUMBING = {"__init__.py", "errors.py", "model.py", "settings.py", "tournament.py"}
"""Top-level modules without rules of their own (data shapes, errors, settings parsing, the
per-machine engine's plumbing); every other module holds rules, and its public functions, classes
and methods must cite the section they implement."""
DOCUMENTS = {
    "epc": re.compile(
        r"EPC\s+2009,\s+(EPC\s+(Qualifying|Quarter-Finals|Semi-Finals|Finals|Classic|Country)"
        r"|UK\s+Pinball\s+Kids)"
    ),
    "ukpl": re.compile(r"UKPL\s+\d[A-G]"),
    "fwpl": re.compile(r"FWPL\s+\d"),
}
"""A competition's package cites its own rule document, in every module (plumbing included):
EPC 2009 and a section, UKPL rules 1A-7G, FWPL rules by number."""
CITATION = re.compile("|".join(f"({d.pattern})" for d in DOCUMENTS.values()))
"""Shared modules at the top level may cite any of the documents."""


def citation_for(path: Path) -> re.Pattern[str] | None:
    """The citation the public definitions of ``path`` must carry; None: it has no rules."""
    package = path.relative_to(SCORING).parts[0]
    if package in DOCUMENTS:
        return DOCUMENTS[package]
    return None if path.name in PLUMBING else CITATION


CITING = [p for p in MODULES if citation_for(p) is not None]


def imported(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_the_package_is_found() -> None:
    found = {str(p.relative_to(SCORING)) for p in CITING}
    assert found >= {"ranking.py", "corrections.py", "machine_faults.py", "epc/qualifying.py"}
    assert found >= {"epc/country/match.py", "ukpl/games.py", "ukpl/region.py", "fwpl/games.py"}
    assert found >= {"epc/errors.py", "fwpl/__init__.py", "ukpl/adjust.py", "epc/kids.py"}


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


@pytest.mark.parametrize("path", CITING, ids=lambda p: str(p.relative_to(SCORING)))
def test_every_public_rule_definition_cites_its_section(path: Path) -> None:
    """public rule functions, classes and methods give the section they implement, of their
    competition's own document (``DOCUMENTS``)."""
    citation = citation_for(path)
    assert citation is not None
    missing = [
        qualname
        for qualname, node in public_definitions(ast.parse(path.read_text(encoding="utf-8")))
        if not citation.search(ast.get_docstring(node) or "")  # type: ignore[arg-type]
    ]
    assert missing == []


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(SCORING)))
def test_randomness_only_from_a_seed(path: Path) -> None:
    """Draws (FWPL 5 and 6.5, EPC 2009 EPC Country groups) come from ``random.Random(seed)``,
    never from the module-level generator (``random.choice``, ``random.shuffle``...), so a
    replay of the log draws the same."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        value = node.value if isinstance(node, ast.Attribute) else None
        if isinstance(node, ast.Attribute) and isinstance(value, ast.Name) and value.id == "random":
            assert node.attr == "Random", f"{path.name}: random.{node.attr}"
        if isinstance(node, ast.ImportFrom) and node.module == "random":
            assert [a.name for a in node.names] == ["Random"], path.name
