"""The layers' import contracts (pyproject.toml, ARCHITECTURE.md) catch a forbidden import.

``make lint`` runs ``lint-imports`` on the project. These tests run it on a copy of
the project: the copy as it is keeps every contract, and the copy with one import
added from each layer to each layer it must not import breaks exactly those.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
FORBIDDEN = [
    (contract["name"], source, target)
    for contract in CONFIG["contracts"]
    if contract["type"] == "forbidden"
    for source in contract["source_modules"]
    for target in contract["forbidden_modules"]
]


def _lint_imports(folder: Path) -> subprocess.CompletedProcess:
    command = Path(sys.executable).parent / "lint-imports"
    return subprocess.run(
        [str(command), "--no-cache", "--config", str(folder / "pyproject.toml")],
        capture_output=True,
        text=True,
        cwd=folder,
        env={"PYTHONPATH": str(folder), "PATH": "/usr/bin:/bin"},
    )


@pytest.fixture
def project_copy(tmp_path: Path) -> Path:
    """The layers' Python files and the contracts, copied to a folder of their own."""
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    for package in CONFIG["root_packages"]:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__", "corpus"))
    return tmp_path


def test_every_layer_is_bound_by_a_contract():
    """The house rules: ingest and scenarios import no other layer, the web only rules_db."""
    forbidden: dict[str, set[str]] = {}
    for _, source, target in FORBIDDEN:
        forbidden.setdefault(source, set()).add(target)
    layers = set(CONFIG["root_packages"])
    assert forbidden["ingest"] == layers - {"ingest"}
    assert forbidden["scenarios"] == layers - {"scenarios"}
    assert forbidden["datasette_plugins"] == layers - {"datasette_plugins", "rules_db"}
    assert forbidden["rules_db"] == {"datasette_plugins"}


def test_the_project_keeps_its_contracts(project_copy):
    result = _lint_imports(project_copy)
    assert result.returncode == 0, result.stdout[-3000:]
    assert f"Contracts: {len(CONFIG['contracts'])} kept, 0 broken." in result.stdout


def test_a_forbidden_import_breaks_its_contract(project_copy):
    for _, source, target in FORBIDDEN:
        probe = project_copy / source / f"_probe_imports_{target}.py"
        probe.write_text(f"import {target}\n", encoding="utf-8")
    result = _lint_imports(project_copy)
    assert result.returncode != 0
    broken = {name for name, _, _ in FORBIDDEN}
    assert f"Contracts: {len(CONFIG['contracts']) - len(broken)} kept, {len(broken)} broken." in result.stdout
    for name, source, target in FORBIDDEN:
        assert f"{name} BROKEN" in result.stdout
        assert f"{source}._probe_imports_{target} -> {target}" in result.stdout, (source, target)
