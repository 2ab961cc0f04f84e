"""The version lineage for the command line: what ``rules-db diff`` and ``rules-db build`` print."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import sqlite_utils

from rules_db.lineage import KINDS
from rules_db.lineage_store import diff_summary


def diff_command_output(
    db: sqlite_utils.Database, game: str, old: str, new: str, details_path: str | Path, rulebook: str | None = None
) -> str:
    """What ``rules-db diff GAME OLD NEW`` prints; writes every row to ``details_path``
    (JSON when it ends in .json, CSV otherwise)."""
    summary = diff_summary(db, game, old, new, rulebook=rulebook)
    details_path = Path(details_path)
    if details_path.suffix.lower() == ".json":
        details_path.write_text(json.dumps(summary, indent=2, ensure_ascii=False), encoding="utf-8")
    else:
        details_path.write_text(_csv(summary["rows"]), encoding="utf-8")
    lines = [
        f"{summary['rulebook_title']} {old} -> {new}: {summary['old']['rules']} rules -> {summary['new']['rules']} rules, "
        f"{summary['old_rules_accounted']:.1%} of the {old} rules have a successor or are marked removed"
    ]
    lines += [f"  {kind:<10}{summary['counts'][kind]:>6}" for kind in KINDS]
    lines.append("Sections that changed most:")
    lines += [
        f"  {section['version']} {section['number']} {section['heading']}: {section['changed']} changed "
        f"({', '.join(f'{n} {kind}' for kind, n in section['counts'].items())})"
        for section in summary["sections"]
    ]
    lines.append(f"{len(summary['rows'])} rows written to {details_path}")
    return "\n".join(lines)


def _csv(details: list[dict]) -> str:
    columns = [
        "kind",
        "old",
        "new",
        "similarity",
        "section_version",
        "section",
        "section_heading",
        "old_text",
        "new_text",
    ]
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns, extrasaction="ignore")
    writer.writeheader()
    writer.writerows(details)
    return buffer.getvalue()
