"""``scoring/fwpl/`` stays pure and documented (the project's conventions: pure, explicit config objects, cited sections), checked with
``ast``: the rules of ``tests/scoring/test_purity.py`` (which covers every rule module of
``scoring/``) with the FWPL citation, on every module here (errors and ``__init__`` included), plus:
randomness only through a seeded ``random.Random``."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[3] / "scoring" / "fwpl"
MODULES = sorted(PACKAGE.glob("*.py"))
FORBIDDEN = {"asyncio", "redis", "starlette", "display", "time"}
CITATION = re.compile(r"FWPL \d")


def parse(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def test_the_package_is_found() -> None:
    names = {p.name for p in MODULES}
    assert {"__init__.py", "games.py", "night.py", "season.py", "playoffs.py"} <= names


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_no_io_or_clock_imports(path: Path) -> None:
    """scoring imports no asyncio, redis, starlette, display or time."""
    names: set[str] = set()
    for node in ast.walk(parse(path)):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    assert names & FORBIDDEN == set()


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_randomness_only_from_a_seed(path: Path) -> None:
    """FWPL 5 and 6.5 need random draws; they come from ``random.Random(seed)``, never from the
    module-level generator (``random.choice``, ``random.shuffle``...), so a replay is identical."""
    for node in ast.walk(parse(path)):
        value = node.value if isinstance(node, ast.Attribute) else None
        if isinstance(node, ast.Attribute) and isinstance(value, ast.Name) and value.id == "random":
            assert node.attr == "Random", f"{path.name}: random.{node.attr}"
        if isinstance(node, ast.ImportFrom) and node.module == "random":
            assert [a.name for a in node.names] == ["Random"], path.name


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_no_module_level_mutable_globals(path: Path) -> None:
    """No module globals that can change; tables are tuples or read-only mappings."""
    mutable = (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)
    for node in parse(path).body:
        value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        names = [ast.unparse(t) for t in targets if t is not None]
        if value is None or names == ["__all__"]:
            continue
        assert not isinstance(value, mutable), f"{path.name}: {names} is a mutable global"
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
            assert value.func.id not in {"list", "dict", "set"}, f"{path.name}: {names}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_every_public_definition_cites_its_section(path: Path) -> None:
    """public rule functions, classes and methods give the FWPL section."""
    missing = []
    for node in parse(path).body:
        if not isinstance(node, ast.FunctionDef | ast.ClassDef) or node.name.startswith("_"):
            continue
        members = [node]
        if isinstance(node, ast.ClassDef):
            members += [
                item
                for item in node.body
                if isinstance(item, ast.FunctionDef) and not item.name.startswith("_")
            ]
        missing += [m.name for m in members if not CITATION.search(ast.get_docstring(m) or "")]
    assert missing == []
