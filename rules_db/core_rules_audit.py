"""The audit of what each Core Rules version changed in the sections the engine models (docs/core-rules-changes.md).

The changed rules come from the stored lineage (``lineage_store.diff_summary``: edited, split, merged, removed and
new rules, each with its section); a section is *modelled* when the engine cites one of its rules, in either
version: a rule a stored replay of the library cites, or one a behaviour of ``scenarios/versions.py`` names. Each
changed rule of a modelled section is classified by hand in ``docs/core-rules-changes.yaml``:

* ``wording``: the same behaviour in other words (also found automatically: the texts are the same once rule
  numbers, case and punctuation are set aside);
* ``modelled``: a behaviour change the engine follows, named by its ``scenarios/versions.py`` behaviour, with the
  dispute that flips with the version;
* ``behaviour``: a behaviour change inside the engine's scope it does not model yet (``why``);
* ``outside``: outside the engine's scope (``why``: a mechanic, game mode or card kind it has no vocabulary for).

A rule is classified by its own entry (keyed by its number in the newer version, or ``<old number> removed``), else
by its section's entry, else automatically as wording. ``python -m rules_db.core_rules_audit`` prints the table.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import sqlite_utils
import yaml

from rules_db.lineage import CHANGED_KINDS
from rules_db.lineage_store import diff_summary
from scenarios import versions as engine_versions

CLASSIFICATION = Path(__file__).resolve().parent.parent / "docs" / "core-rules-changes.yaml"
CLASSES = ("wording", "modelled", "behaviour", "outside")
STEPS = (("2025-06-02", "2025-12-01"), ("2025-12-01", "2026-06-18"))
GAME = "riftbound"


class AuditError(ValueError):
    """The classification file is malformed (names the file and the entry)."""


@dataclass
class Change:
    """One changed rule of a modelled section, and how it is classified."""

    kind: str
    old: str | None
    new: str | None
    section: str
    heading: str
    old_text: str
    new_text: str
    cls: str | None = None
    how: str = ""  # "rule", "section" or "automatic": where the class came from
    behaviour: str = ""
    disputes: tuple[str, ...] = ()
    why: str = ""

    @property
    def key(self) -> str:
        return self.new if self.new is not None else f"{self.old} removed"


@dataclass
class Step:
    old: str
    new: str
    changes: list[Change] = field(default_factory=list)
    sections: list[tuple[str, str]] = field(default_factory=list)

    def counts(self) -> Counter:
        return Counter(change.cls or "unclassified" for change in self.changes)


def engine_citations(db: sqlite_utils.Database) -> dict[str, set[str]]:
    """The rule numbers the engine cites, per Core Rules version: every rule a stored replay cites, and every
    rule a behaviour of scenarios/versions.py names."""
    cited: dict[str, set[str]] = {}
    for version, number in db.execute(
        "select distinct d.version, r.number from replay_step_citations c join rules r on r.id = c.rule_id "
        "join documents d on d.id = r.document_id"
    ).fetchall():
        cited.setdefault(version, set()).add(number)
    for behaviour in engine_versions.BEHAVIOURS.values():
        for reading in behaviour.readings:
            cited.setdefault(reading.version, set()).update(reading.rules)
    return cited


def _normalised(text: str | None) -> str:
    text = re.sub(r"\b\d{3}(?:\.[0-9a-z]+)*\.?", "#", (text or "").lower())
    return " ".join(re.sub(r"[^a-z#]+", " ", text).split())


def load_classification(path: Path = CLASSIFICATION) -> dict:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as error:
        raise AuditError(f"{path}: not YAML ({error})") from None
    steps = {}
    for index, step in enumerate(data.get("steps") or []):
        where = f"{path}: steps[{index}]"
        if not isinstance(step, dict) or {"old", "new"} - set(step):
            raise AuditError(f"{where}: a step names its old and new versions")
        for part in ("rules", "sections"):
            for key, entry in (step.get(part) or {}).items():
                _check_entry(f"{where}.{part}[{key!r}]", entry)
        steps[(str(step["old"]), str(step["new"]))] = step
    return steps


def _check_entry(where: str, entry) -> None:
    if not isinstance(entry, dict) or entry.get("class") not in CLASSES:
        raise AuditError(f"{where}: 'class' is one of {', '.join(CLASSES)}")
    if entry["class"] == "modelled":
        if entry.get("behaviour") not in engine_versions.BEHAVIOURS:
            raise AuditError(f"{where}: a modelled change names its behaviour in scenarios/versions.py")
        disputes = entry.get("disputes")
        if not isinstance(disputes, list) or not disputes or not all(isinstance(d, str) for d in disputes):
            raise AuditError(f"{where}: a modelled change names the disputes that flip with the version ('disputes')")
    elif entry["class"] != "wording" and not entry.get("why"):
        raise AuditError(f"{where}: say why ('why')")


def audit_step(db: sqlite_utils.Database, old: str, new: str, cited: dict[str, set[str]], entries: dict) -> Step:
    """The changed rules of the modelled sections between two versions, classified."""
    rows = diff_summary(db, GAME, old, new)["rows"]
    old_cited, new_cited = cited.get(old, set()), cited.get(new, set())
    modelled = {row["section"] for row in rows if row["old"] in old_cited or row["new"] in new_cited}
    step = Step(old, new)
    headings: dict[str, str] = {}
    for row in rows:
        if row["section"] not in modelled or row["kind"] not in CHANGED_KINDS:
            continue
        headings[row["section"]] = row["section_heading"]
        change = Change(
            row["kind"],
            row["old"],
            row["new"],
            row["section"],
            row["section_heading"],
            row["old_text"] or "",
            row["new_text"] or "",
        )
        _classify(change, entries)
        step.changes.append(change)
    step.sections = sorted(headings.items(), key=lambda item: _number_key(item[0]))
    return step


def _classify(change: Change, entries: dict) -> None:
    entry, how = (entries.get("rules") or {}).get(change.key), "rule"
    if entry is None:
        entry, how = (entries.get("sections") or {}).get(change.section), "section"
    if entry is None and change.kind == "edited" and _normalised(change.old_text) == _normalised(change.new_text):
        entry, how = (
            {"class": "wording", "why": "same text once rule numbers, case and punctuation are set aside"},
            ("automatic"),
        )
    if entry is None:
        return
    change.cls, change.how = entry["class"], how
    change.behaviour, change.disputes = entry.get("behaviour", ""), tuple(entry.get("disputes", ()))
    change.why = entry.get("why", "")


def _number_key(number: str) -> tuple:
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"[.]", number))


def audit(db: sqlite_utils.Database, path: Path = CLASSIFICATION) -> list[Step]:
    entries = load_classification(path)
    cited = engine_citations(db)
    return [audit_step(db, old, new, cited, entries.get((old, new), {})) for old, new in STEPS]


def _cell(text: str, limit: int = 160) -> str:
    text = " ".join(text.split()).replace("|", "\\|")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def render(steps: list[Step]) -> str:
    """The Markdown table a judge reads."""
    lines = [
        "# What the Core Rules changed in the sections the engine models",
        "",
        "Generated by `python -m rules_db.core_rules_audit` from the stored lineage of a built database and the",
        "hand-kept classification `docs/core-rules-changes.yaml`; do not edit by hand. A section is modelled when",
        "the engine cites one of its rules (a library replay, or a behaviour of `scenarios/versions.py`). Classes:",
        "**wording** (the same behaviour in other words), **modelled** (a behaviour change the engine follows: its",
        "`versions.py` behaviour, a dispute with a variant under the other version that flips, and the mutants of",
        "`tests/test_scenarios_mutants.py` that read one version everywhere), **behaviour** (a behaviour change in",
        "scope not modelled yet), **outside** (outside the engine's scope, and why).",
        "",
        "| step | changed rules | wording | behaviour changes | of them modelled | outside the scope | unclassified |",
        "|---|---|---|---|---|---|---|",
    ]
    for step in steps:
        counts = step.counts()
        behaviours = counts["modelled"] + counts["behaviour"]
        lines.append(
            f"| {step.old} → {step.new} | {len(step.changes)} | {counts['wording']} | {behaviours} | "
            f"{counts['modelled']} | {counts['outside']} | {counts['unclassified']} |"
        )
    lines.append("")
    modelled: dict[str, set[str]] = {}
    for change in (c for step in steps for c in step.changes if c.cls == "modelled"):
        modelled.setdefault(change.behaviour, set()).update(change.disputes)
    if modelled:
        lines += [
            "Behaviours modelled (`scenarios/versions.py`), with each version's reading and the disputes that flip:",
            "",
        ]
        for behaviour, disputes in sorted(modelled.items()):
            declared = engine_versions.BEHAVIOURS[behaviour]
            readings = "; ".join(f"{r.version}: {r.choice} ({', '.join(r.rules)})" for r in declared.readings)
            lines.append(
                f"- `{behaviour}` ({', '.join(sorted(disputes))}): {_cell(declared.question, 1000)} {readings}"
            )
        lines.append("")
    for step in steps:
        lines += [f"## {step.old} → {step.new}", ""]
        by_section: dict[str, list[Change]] = {}
        for change in step.changes:
            by_section.setdefault(change.section, []).append(change)
        for section, heading in step.sections:
            changes = by_section[section]
            lines += [
                f"### {section} {_cell(heading, 80)} ({len(changes)} changed)",
                "",
                "| rule | kind | class | why / behaviour | was | is |",
                "|---|---|---|---|---|---|",
            ]
            for change in changes:
                number = f"{change.old or '–'} → {change.new or '–'}"
                note = f"`{change.behaviour}`" if change.cls == "modelled" else change.why
                if change.how == "section":
                    note = f"(section) {note}"
                lines.append(
                    f"| {number} | {change.kind} | {change.cls or '**unclassified**'} | {_cell(note, 200)} | "
                    f"{_cell(change.old_text)} | {_cell(change.new_text)} |"
                )
            lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = argv if argv is not None else sys.argv[1:]
    db_path = args[0] if args else "data/rules.db"
    sys.stdout.write(render(audit(sqlite_utils.Database(db_path))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
