"""The layers' import contracts (pyproject.toml, ARCHITECTURE.md) catch a forbidden import, and the
dependencies in pyproject.toml are exactly the third-party packages the layers import.

``make lint`` runs ``lint-imports`` on the project. These tests run it on a copy of
the project: the copy as it is keeps every contract, and the copy with one import
added from each layer to each layer it must not import breaks exactly those.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
CONFIG = PYPROJECT["tool"]["importlinter"]
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


def _source_file(project: Path, module: str) -> Path:
    """The file of a module, or the ``__init__.py`` of a package (where an import added to it adds no module)."""
    path = project.joinpath(*module.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def test_a_forbidden_import_breaks_its_contract(project_copy):
    """A layer importing one it must not: a module of its own added to it (``_probe_imports_...``); a module named
    by a contract importing what it must not: the import added to that module."""
    chains, probed = [], set()
    for _, source, target in FORBIDDEN:
        if source in CONFIG["root_packages"]:
            (project_copy / source / f"_probe_imports_{target}.py").write_text(f"import {target}\n", encoding="utf-8")
            chains.append(f"{source}._probe_imports_{target} -> {target}")
            probed.add(source)
        else:
            with _source_file(project_copy, source).open("a", encoding="utf-8") as module:
                module.write(f"\nimport {target}  # noqa\n")
            chains.append(f"{source} -> {target}")
    result = _lint_imports(project_copy)
    assert result.returncode != 0
    # An exhaustive layers contract also breaks where a probe module is added: it names every module of its package.
    unplaced = {c["name"] for c in LAYERED if c.get("exhaustive") and set(c["containers"]) & probed}
    broken = {name for name, _, _ in FORBIDDEN} | unplaced
    assert f"Contracts: {len(CONFIG['contracts']) - len(broken)} kept, {len(broken)} broken." in result.stdout
    for name in broken:
        assert f"{name} BROKEN" in result.stdout
    for chain in chains:
        assert chain in result.stdout, chain


INDEPENDENT = [contract for contract in CONFIG["contracts"] if contract["type"] == "independence"]


def _independent_modules(project: Path, patterns: list[str]) -> list[str]:
    """The modules an independence contract names, its ``package.*`` patterns expanded to the package's modules."""
    found = []
    for pattern in patterns:
        if not pattern.endswith(".*"):
            found.append(pattern)
            continue
        package = pattern[:-2]
        folder = project.joinpath(*package.split("."))
        found += [f"{package}.{p.stem}" for p in sorted(folder.glob("*.py")) if p.stem != "__init__"]
    return found


def test_the_engine_rule_modules_and_the_page_queries_are_independent():
    """The engine's rule modules plug into the kernel and never import each other (scenarios/README.md); nor do
    the page kinds' query modules (rules_db/queries), which share only what common modules hold."""
    assert {tuple(contract["modules"]) for contract in INDEPENDENT} >= {("scenarios.rules.*",)}
    assert any(module.startswith("rules_db.queries.") for contract in INDEPENDENT for module in contract["modules"])


@pytest.mark.parametrize("contract", INDEPENDENT, ids=[contract["name"] for contract in INDEPENDENT])
def test_a_module_importing_an_independent_sibling_breaks_its_contract(project_copy, contract):
    modules = _independent_modules(project_copy, contract["modules"])
    assert len(modules) >= 2
    first, last = modules[0], modules[-1]
    with project_copy.joinpath(*first.split(".")).with_suffix(".py").open("a", encoding="utf-8") as module:
        module.write(f"\nimport {last}  # noqa\n")
    result = _lint_imports(project_copy)
    assert result.returncode != 0
    assert f"{contract['name']} BROKEN" in result.stdout
    assert f"{first} -> {last}" in result.stdout


LAYERED = [contract for contract in CONFIG["contracts"] if contract["type"] == "layers"]


def test_rules_db_and_scenarios_are_layered_inside():
    assert {container for contract in LAYERED for container in contract["containers"]} >= {"rules_db", "scenarios"}


@pytest.mark.parametrize("contract", LAYERED, ids=[contract["name"] for contract in LAYERED])
def test_a_module_importing_a_tier_above_breaks_its_layers(project_copy, contract):
    """The first module of the lowest tier importing the first of the highest: an import back up."""
    (container,) = contract["containers"]
    top = contract["layers"][0].replace("|", ":").split(":")[0].strip()
    bottom = contract["layers"][-1].replace("|", ":").split(":")[0].strip()
    low, high = f"{container}.{bottom}", f"{container}.{top}"
    with _source_file(project_copy, low).open("a", encoding="utf-8") as module:
        module.write(f"\nimport {high}  # noqa\n")
    result = _lint_imports(project_copy)
    assert result.returncode != 0
    assert f"{contract['name']} BROKEN" in result.stdout
    assert f"{low} -> {high}" in result.stdout


def _distribution(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_dependencies_are_declared_exactly_as_imported():
    layers = set(CONFIG["root_packages"])
    imported = set()
    for package in layers:
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    imported |= {alias.name.split(".")[0] for alias in node.names}
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    imported.add(node.module.split(".")[0])
    third_party = imported - layers - set(sys.stdlib_module_names)
    providers = packages_distributions()
    assert not third_party - set(providers), "imported, but installed by no distribution"
    used = {_distribution(dist) for module in third_party for dist in providers[module]}
    declared = {
        _distribution(re.match(r"[A-Za-z0-9._-]+", spec).group()) for spec in PYPROJECT["project"]["dependencies"]
    }
    assert used - declared == set(), "imported but not declared in pyproject.toml"
    assert declared - used == set(), "declared but never imported"
