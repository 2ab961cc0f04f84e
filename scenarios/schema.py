"""Scenario files: loading with errors that name the file, the line and the field, and documents changed (variants,
what-ifs asked from a page).

A document is read by `scenarios.yaml_reading` (safe on hostile input, every node's line kept), validated against
the model of `scenarios.scenario_model`, then checked whole by `scenarios.document_checks`; the first problem is
raised as a `ScenarioError` naming its line and field. The names other modules use are importable from here.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

from pydantic import ValidationError

from scenarios import problem_words
from scenarios.collector import collector_paused
from scenarios.document_checks import entry_ids, problems
from scenarios.scenario_model import Action, Change, Scenario, Setup, UnitSetup, Variant
from scenarios.yaml_reading import (
    FILE_LIMITS,
    PAGE_LIMITS,
    Limits,
    Loader,
    ScenarioError,
    line_for,
    load_text,
    parse_text,
)

# What callers use, wherever it lives: the model's classes, the reading's limits and error, the loading below.
__all__ = [
    "FILE_LIMITS",
    "PAGE_LIMITS",
    "Action",
    "Change",
    "Limits",
    "Loader",
    "Scenario",
    "ScenarioError",
    "Setup",
    "UnitSetup",
    "Variant",
    "entry_ids",
    "load",
    "load_text",
    "parse",
    "parse_text",
    "validate",
    "variant_document",
    "with_changes",
]


def parse(content: bytes | str, source="scenario", limits: Limits = PAGE_LIMITS) -> tuple[Scenario, dict]:
    """A scenario from its text (typed into a page, say): validated like a file, under `limits`."""
    data, lines = parse_text(content, source, limits)
    return validate(data, lines, source), data


def validate(data: dict, lines: Mapping[tuple, int], source) -> Scenario:
    """The scenario model of a parsed document, with every check a scenario must pass; the first problem is
    raised as a ScenarioError naming its line and field."""
    try:
        scenario = Scenario.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        loc = tuple(p for p in first["loc"] if not (isinstance(p, str) and p.startswith("function-")))
        field = ".".join(str(p) for p in loc) or "(document)"
        raise ScenarioError(source, line_for(lines, loc), field, problem_words.sentence(first, loc)) from None
    for loc, message in problems(scenario):
        raise ScenarioError(source, line_for(lines, loc), ".".join(map(str, loc)), message)
    return scenario


def load(path: Path) -> tuple[Scenario, dict]:
    """The validated scenario and its raw document; each file is parsed once and reused while unchanged."""
    stat = Path(path).stat()
    return _load(Path(path), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=2048)  # the whole library (324 files) and more: a smaller cache, read in order, misses every time
def _load(path: Path, mtime: int, size: int) -> tuple[Scenario, dict]:
    with collector_paused():  # all it builds is kept with the scenario: the collector's passes would free nothing
        data, lines = load_text(path)
        return validate(data, lines, path), data


# -- changed documents: variants, and a what-if asked from a page -----------------------------------------------


def with_changes(data: dict, changes: list[Change], source, where: str = "change") -> dict:
    """A copy of a scenario document with some inputs changed. A path names an input by its keys and list
    positions (`setup.battlefields.0.units.0.might`); `-` as the last part appends to a list
    (`setup.players.A.base.-`), and a missing mapping key on the way is created (`...keywords.Tank`)."""
    changed = copy.deepcopy(data)
    for change in changes:
        try:
            _set_path(changed, change.path, change.value)
        except (KeyError, IndexError, TypeError, ValueError) as error:
            raise ScenarioError(source, None, f"{where}.path", f"no input {change.path!r} ({error})") from None
    return changed


def variant_document(data: dict, variant: Variant, source) -> dict:
    """The document a variant replays: its changes made, its expectations in place of the scenario's. The
    scenario's checkpoints expect the original's course: a variant keeps only those its changes set."""
    changed = with_changes(data, variant.changes, source, f"variants.{variant.id}.change")
    changed["expect"] = variant.expect
    if not any(change.path.split(".")[0] == "checkpoints" for change in variant.changes):
        changed["checkpoints"] = []
    changed.pop("variants", None)
    return changed


def _set_path(data, dotted: str, value) -> None:
    parts = [int(p) if p.isdigit() else p for p in dotted.split(".")]
    target = data
    for part, following in zip(parts, parts[1:]):
        if isinstance(target, dict) and part not in target and not isinstance(following, int):
            target[part] = [] if following == "-" else {}  # appended to: a list the document left out
        target = target[part]
    last = parts[-1]
    if isinstance(target, dict):
        target[last] = value
    elif isinstance(target, list) and last == "-":
        target.append(value)
    elif isinstance(target, list) and isinstance(last, int):
        target[last] = value
    else:
        raise TypeError(f"{last!r} does not name a place in {type(target).__name__}")
