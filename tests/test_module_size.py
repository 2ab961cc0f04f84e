"""A module of the storage or the engine holds one idea a reader can keep in mind: at most 700 lines. A module that
grows past it is split along its ideas (ARCHITECTURE.md, "Where to change what"), not trimmed of its comments."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 700
# A module written by a program (scenarios/registry_types.py, one line per registered rule function) is an index
# read by mypy, not an idea a reader keeps in mind: it grows with the engine and is never split by hand.
WRITTEN = {ROOT / "scenarios" / "registry_types.py"}
MODULES = sorted(
    path for package in ("rules_db", "scenarios") for path in (ROOT / package).rglob("*.py") if path not in WRITTEN
)


def test_the_packages_have_modules():
    assert len(MODULES) > 50


@pytest.mark.parametrize("path", MODULES, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_module_is_over_the_limit(path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= LIMIT, f"{path.relative_to(ROOT)} has {lines} lines: split it along its ideas"
