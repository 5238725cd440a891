"""The repository stands alone: a user's clone has nothing beside it, so no tracked file may name a
path outside the repository (a sibling folder, a build machine's absolute path), and every path the
README and the docs name must exist in the repository."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.utils import ROOT

# Spelled in pieces so this file does not match itself.
OUTSIDE = re.compile(
    "|".join(
        (
            r"\.\./" + "shared",
            "BACKGLASS_" + "SHARED",
            r"(?<![\w.])/(?:"
            + "|".join(("wo" + "rk", "ro" + "ot", "ho" + "me", "Us" + "ers"))
            + r")/",
            r"(?<![\w.])/(?:" + "|".join(("tm" + "p", "mn" + "t", "sr" + "v")) + r")/\w",
        )
    )
)
"""A sibling folder of the repository, or an absolute path that only exists on some machine."""

TOP = ("display", "scoring", "static", "templates", "tests", "docs", "bench", "scripts", "examples")
NAMED_PATH = re.compile(r"(?<![\w/.{<-])(?:" + "|".join(TOP) + r")/[\w./*-]*")
"""A repository path in prose: starts with a top-level folder, stops at a placeholder (``<name>``,
``{id}``), a space or punctuation."""
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
"""A relative markdown link target (``[text](docs/x.md#part)``)."""


def tracked_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    return [ROOT / name.decode() for name in listed if name]


def text_of(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
        return None  # binary, or deleted in the work tree


def documents() -> list[Path]:
    """README.md and every markdown file of the repository (docs/, bench/, examples/, tests/cases/)."""
    return sorted(p for p in tracked_files() if p.suffix == ".md")


def test_the_tracked_files_are_listed() -> None:
    files = tracked_files()
    assert ROOT / "README.md" in files and ROOT / "pyproject.toml" in files


def test_no_tracked_file_names_a_path_outside_the_repository() -> None:
    found = []
    for path in tracked_files():
        text = text_of(path)
        if text is None:
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            if OUTSIDE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:120]}")
    assert not found, "\n".join(found)


def test_the_outside_pattern_catches_what_it_should() -> None:
    """The guard above is only as good as its pattern: each of these must be caught, none of the
    innocent ones."""
    for bad in ("../" + "shared/rules", "/" + "work/main/x", "see /" + "home/ann/x", "/" + "tmp/x"):
        assert OUTSIDE.search(bad), bad
    for fine in ("docs/rules.md", "/usr/bin/env bash", "/t/{id}/display", "https://x.org/home/"):
        assert not OUTSIDE.search(fine), fine


def named_paths(document: Path) -> set[str]:
    """Repository paths a document names: relative links (resolved from the document's folder) and
    paths in the text starting at a top-level folder (from the repository's root)."""
    text = document.read_text(encoding="utf-8")
    names = set()
    for target in LINK.findall(text):
        if not re.match(r"[a-z]+:", target):  # not http:, mailto:
            names.add(str((document.parent / target).resolve().relative_to(ROOT)))
    for match in NAMED_PATH.findall(text):
        names.add(match.rstrip(".,:;"))
    return names


def exists(name: str) -> bool:
    """Whether ``name`` (a path or a glob) is in the repository, or is output git ignores on
    purpose (``bench/results/``, made by a run)."""
    if any(c in name for c in "*?["):
        return any(ROOT.glob(name))
    ignored = subprocess.run(["git", "check-ignore", "-q", name], cwd=ROOT).returncode == 0
    return (ROOT / name).exists() or ignored


@pytest.mark.parametrize("document", documents(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_path_a_document_names_exists(document: Path) -> None:
    missing = sorted(name for name in named_paths(document) if not exists(name))
    assert not missing, f"{document.relative_to(ROOT)} names paths that do not exist: {missing}"


def test_named_paths_finds_links_and_paths_in_prose(tmp_path: Path) -> None:
    doc = ROOT / "docs" / "architecture.md"
    names = named_paths(doc)
    assert names, "the architecture document names no paths at all"
    probe = "see [rules](rules.md#ukpl) and `display/app.py`, not /t/{id}/display or static/views/<v>.js"
    assert set(NAMED_PATH.findall(probe)) == {"display/app.py", "static/views/"}
    assert LINK.findall(probe) == ["rules.md"]
