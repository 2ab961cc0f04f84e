"""The audit of what each Core Rules version changed (docs/core-rules-changes.md): every changed rule of a section
the engine models is classified, every behaviour change called modelled has its flipping disputes and the mutants
that kill it, and the committed table is what the script prints."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
import sqlite_utils

from rules_db import core_rules_audit
from scenarios import versions

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def steps(real_db):
    return core_rules_audit.audit(sqlite_utils.Database(real_db))


def _mutants() -> list:
    spec = importlib.util.spec_from_file_location("mutants_of_the_audit", ROOT / "tests" / "test_scenarios_mutants.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.MUTANTS


def test_every_changed_rule_of_a_modelled_section_is_classified(steps):
    assert [(step.old, step.new) for step in steps] == list(core_rules_audit.STEPS)
    for step in steps:
        assert step.changes, f"{step.old} -> {step.new}: no changed rule in a modelled section"
        unclassified = [change.key for change in step.changes if change.cls is None]
        assert not unclassified, f"{step.old} -> {step.new}: unclassified {unclassified[:20]}"


def test_the_modelled_sections_hold_the_rules_the_engine_cites(steps, real_db):
    """A section the stored replays cite a changed rule of is in the audit (the modelled sections are found, not
    listed by hand)."""
    cited = core_rules_audit.engine_citations(sqlite_utils.Database(real_db))
    for step in steps:
        audited = {change.new for change in step.changes} | {change.old for change in step.changes}
        assert cited[step.new] & audited, f"{step.new}: no cited rule among the changed rules audited"
    newest = steps[-1]
    assert {"423.1.a.2", "135.2.e.6.c", "323.11"} <= {change.new for change in newest.changes}


def test_every_entry_names_a_changed_rule_or_section_of_its_step(steps):
    """A stale or mistyped key would classify nothing: each must name what the lineage says changed."""
    entries = core_rules_audit.load_classification()
    for step in steps:
        entry = entries[(step.old, step.new)]
        keys = {change.key for change in step.changes}
        sections = {change.section for change in step.changes}
        assert not set(entry.get("rules") or {}) - keys, f"{step.old} -> {step.new}: unknown rule keys"
        assert not set(entry.get("sections") or {}) - sections, f"{step.old} -> {step.new}: unknown sections"


def test_every_modelled_change_has_its_disputes_and_mutants(steps):
    """Each behaviour called modelled is declared in versions.py; each dispute named for it is in the library and
    among those the suite runs against its mutants (one reading forced on every version), and both readings of a
    version step have a mutant. Every declared behaviour is named by the audit."""
    mutants: dict[str, dict[str, set[str]]] = {}
    for _, changes, positions in _mutants():
        for kind, name, mutation in changes:
            if kind == "behaviour":
                forced = mutation.__closure__[0].cell_contents if mutation.__closure__ else "?"
                mutants.setdefault(name, {}).setdefault(str(forced), set()).update(str(p) for p in positions)
    library = [path.name for path in (ROOT / "scenarios" / "library").glob("*.yaml")]
    named = set()
    for step in steps:
        for change in step.changes:
            if change.cls != "modelled":
                continue
            named.add(change.behaviour)
            behaviour = versions.BEHAVIOURS[change.behaviour]
            before, after = behaviour.under(step.old).choice, behaviour.under(step.new).choice
            assert before != after, f"{change.key}: {change.behaviour} reads the same under {step.old} and {step.new}"
            forced = mutants.get(change.behaviour, {})
            readings_forced = {behaviour.under(version).choice for version in forced}
            assert {before, after} <= readings_forced, (
                f"{change.behaviour}: a reading of {step.old} -> {step.new} has no mutant"
            )
            positions = set().union(*forced.values())
            for dispute in change.disputes:
                assert any(name.startswith(f"{dispute}-") for name in library), f"{dispute}: not in the library"
                assert dispute in positions or dispute.removeprefix("ruling-").lstrip("0") in positions, (
                    f"{change.key}: {dispute} is not run against the mutants of {change.behaviour}"
                )
    assert named == set(versions.BEHAVIOURS), f"behaviours the audit does not name: {set(versions.BEHAVIOURS) - named}"


def test_the_committed_table_is_what_the_script_prints(steps):
    committed = (ROOT / "docs" / "core-rules-changes.md").read_text(encoding="utf-8")
    assert committed == core_rules_audit.render(steps), (
        "docs/core-rules-changes.md is stale: python -m rules_db.core_rules_audit data/rules.db > "
        "docs/core-rules-changes.md"
    )


def test_a_malformed_entry_is_named(tmp_path):
    path = tmp_path / "changes.yaml"
    path.write_text(
        'steps:\n  - old: "2025-12-01"\n    new: "2026-06-18"\n    rules:\n'
        '      "323.1": {class: modelled, behaviour: no_such_behaviour, disputes: [dispute-1]}\n',
        encoding="utf-8",
    )
    with pytest.raises(core_rules_audit.AuditError, match=r"323\.1.*behaviour"):
        core_rules_audit.load_classification(path)
    path.write_text(
        'steps:\n  - old: "2025-12-01"\n    new: "2026-06-18"\n    sections:\n      "318": {class: outside}\n'
    )
    with pytest.raises(core_rules_audit.AuditError, match=r"318.*why"):
        core_rules_audit.load_classification(path)
