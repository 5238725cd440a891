"""Check every exact pin in pyproject.toml against PyPI's project pages.

For each ``name==version`` pin: is it the newest release, and does PyPI list vulnerabilities for the
newest release? PyPI's project JSON (``/pypi/<name>/json``) reports vulnerabilities of the newest
release only, so a pin that *is* the newest is checked by it, and an older pin is reported for a
person to look at. This complements ``pip-audit``, whose per-version lookups
(``/pypi/<name>/<version>/json``) some networks (package-registry proxies) do not serve.

Exit code 1 when PyPI lists a vulnerability for a pinned version; 0 otherwise (an unreachable PyPI is
reported, not failed: CI must not go red because a registry is down).
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

import httpx

PIN = re.compile(r"^\s*([A-Za-z0-9_.\-]+)(\[[^\]]*\])?==([^;\s]+)")


def pins(pyproject: Path) -> list[tuple[str, str]]:
    """Every ``name==version`` in the project's dependencies and optional dependencies."""
    project = tomllib.loads(pyproject.read_text())["project"]
    lines = list(project.get("dependencies", []))
    for extra in project.get("optional-dependencies", {}).values():
        lines += extra
    found = []
    for line in lines:
        match = PIN.match(line)
        if match:
            found.append((match.group(1), match.group(3)))
    return found


def main() -> int:
    root = Path(__file__).resolve().parent.parent
    vulnerable, behind, unreachable = [], [], []
    with httpx.Client(timeout=10) as client:
        for name, version in pins(root / "pyproject.toml"):
            try:
                answer = client.get(f"https://pypi.org/pypi/{name}/json")
                answer.raise_for_status()
            except httpx.HTTPError as exc:
                unreachable.append(f"{name} ({exc.__class__.__name__})")
                continue
            data = answer.json()
            newest = data["info"]["version"]
            if version != newest:
                behind.append(f"{name}=={version} (newest {newest})")
            elif data.get("vulnerabilities"):
                ids = ", ".join(v["id"] for v in data["vulnerabilities"])
                vulnerable.append(f"{name}=={version}: {ids}")
    checked = len(pins(root / "pyproject.toml")) - len(unreachable)
    print(f"pins checked against PyPI: {checked}; newest and no advisory listed: "
          f"{checked - len(behind) - len(vulnerable)}")  # fmt: skip
    for line in behind:
        print(f"  older than the newest release (check its advisories by hand): {line}")
    for line in unreachable:
        print(f"  PyPI did not answer for {line}")
    for line in vulnerable:
        print(f"  VULNERABLE: {line}")
    return 1 if vulnerable else 0


if __name__ == "__main__":
    sys.exit(main())
