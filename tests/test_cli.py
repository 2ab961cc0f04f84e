"""The rules-db commands beyond build: replay, diff, and serve's staleness check."""

from __future__ import annotations

import os
import re
from pathlib import Path

import sqlite_utils
import yaml
from click.testing import CliRunner

from rules_db import schema
from rules_db.cli import cli
from rules_db.sources import source_files, stale_reason
from scenarios import kernel, library_paths
from scenarios import schema as scenario_schema


def test_replay_prints_the_trace_with_citations():
    """A scenario judged under the engine's own version needs no database to translate its citations."""
    path = native_scenario()
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "verdict: MATCH" in result.output
    assert "[3" in result.output or "[4" in result.output  # steps carry rule numbers in brackets


def native_scenario():
    """The first scenario of the library judged under the engine's own Core Rules version."""
    return next(p for p in library_paths() if scenario_schema.load(p)[0].rules.core == kernel.RULES_VERSION)


def test_replay_exits_non_zero_and_shows_expected_against_computed(tmp_path):
    source = native_scenario()
    scenario = yaml.safe_load(source.read_text(encoding="utf-8"))
    unit, fields = next(iter(scenario["expect"].items()))
    fields["zone"] = "nowhere-at-all"
    scenario.pop("variants", None)
    broken = tmp_path / source.name
    broken.write_text(yaml.safe_dump(scenario, sort_keys=False), encoding="utf-8")
    result = CliRunner().invoke(cli, ["replay", str(broken)])
    assert result.exit_code == 1
    assert "expected 'nowhere-at-all'" in result.output and "computed" in result.output


def test_replay_of_a_file_replays_its_variants_and_fails_on_a_variant_that_differs(tmp_path):
    """A judge's file holds what-ifs: each is replayed after it, and one whose outcome differs fails the command."""
    source = next(  # judged under the engine's own version: no database needed to translate its citations
        p
        for p in library_paths()
        if (scenario := scenario_schema.load(p)[0]).variants and scenario.rules.core == kernel.RULES_VERSION
    )
    scenario = yaml.safe_load(source.read_text(encoding="utf-8"))
    variants = scenario["variants"]
    result = CliRunner().invoke(cli, ["replay", str(source)])
    assert result.exit_code == 0, result.output
    assert result.output.count("[variant: ") == len(variants)
    variant = variants[0]
    unit = next(iter(variant.get("expect") or scenario["expect"]))
    variant["expect"] = {**(variant.get("expect") or {}), unit: {"zone": "nowhere-at-all"}}
    broken = tmp_path / source.name
    broken.write_text(yaml.safe_dump(scenario, sort_keys=False), encoding="utf-8")
    result = CliRunner().invoke(cli, ["replay", str(broken)])
    assert result.exit_code == 1
    assert "expected 'nowhere-at-all'" in result.output


def test_replay_all_prints_a_table():
    result = CliRunner().invoke(cli, ["replay", "--all"])
    assert "ruling" in result.output.splitlines()[0] and "verdict" in result.output.splitlines()[0]
    assert f"of {len(library_paths())} scenarios match" in result.output
    # each row says the Core Rules version that judged it (scenarios/versions.py)
    judged = {line.split()[2] for line in result.output.splitlines()[1:-1]}
    assert {"2025-12-01", "2026-06-18"} <= judged


def test_replay_needs_a_file_or_all():
    result = CliRunner().invoke(cli, ["replay"])
    assert result.exit_code == 2 and "--all" in result.output


def _older(tmp_path):
    source = next(p for p in library_paths() if p.name.startswith("ruling-09-"))
    older = tmp_path / source.name
    older.write_text(source.read_text(encoding="utf-8").replace("meta:", 'rules: {core: "2025-06-02"}\nmeta:', 1))
    return older


def test_replay_of_another_version_prints_that_versions_numbers(tmp_path, real_db):
    result = CliRunner().invoke(cli, ["replay", "--db", str(real_db), str(_older(tmp_path))])
    assert result.exit_code == 0, result.output
    # cleanup steps: 323 of 1.4 (the engine's), a step of the flat Cleanup list 518-522 of 2025-06-02
    assert "Core Rules 2025-06-02" in result.output and re.search(r"\b5(1[89]|2[0-2])\]", result.output)
    assert "323]" not in result.output and "[323" not in result.output


def test_replay_in_the_engines_version_prints_no_number_of_another(tmp_path, real_db):
    """A step may cite a number of another version for that version's sake (the combat damage step skipped for want
    of defenders: 465.1, and 443.1.a of 2025-12-01); judged under 1.4 the trace prints the 1.4 number alone."""
    source = next(p for p in library_paths() if p.name.startswith("dispute-06-"))
    data = yaml.safe_load(source.read_text())
    data["rules"] = {"core": kernel.RULES_VERSION}
    path = tmp_path / source.name
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    result = CliRunner().invoke(cli, ["replay", "--db", str(real_db), str(path)])
    assert result.exit_code == 0, result.output
    skipped = [line for line in result.output.splitlines() if "no combat damage" in line]
    assert skipped and all(line.endswith("[465.1]") for line in skipped), skipped


def test_replay_of_another_version_without_a_database_says_what_is_missing(tmp_path):
    result = CliRunner().invoke(cli, ["replay", "--db", str(tmp_path / "none.db"), str(_older(tmp_path))])
    assert result.exit_code == 1 and "needs the database" in result.output and "rules-db build" in result.output


def test_a_runaway_replay_stops_with_its_limit(tmp_path):
    ruling = next(p for p in library_paths() if p.name.startswith("ruling-09-"))  # some 60 engine steps
    result = CliRunner().invoke(cli, ["replay", "--max-steps", "20", str(ruling)])
    assert result.exit_code == 1 and "max_steps" in result.output


def test_diff_prints_the_summary_and_writes_details(real_db, tmp_path):
    details = tmp_path / "diff.csv"
    result = CliRunner().invoke(
        cli, ["diff", "riftbound", "2025-06-02", "2025-12-01", "--db", str(real_db), "--details", str(details)]
    )
    assert result.exit_code == 0, result.output
    assert "moved" in result.output and "new" in result.output
    assert details.read_text(encoding="utf-8").count("\n") > 1000


def test_diff_names_the_known_versions_for_an_unknown_one(real_db, tmp_path):
    result = CliRunner().invoke(
        cli,
        ["diff", "riftbound", "1999-01-01", "2025-12-01", "--db", str(real_db), "--details", str(tmp_path / "x.csv")],
    )
    assert result.exit_code == 1 and "2025-06-02" in result.output


def test_serve_rebuilds_only_when_a_source_is_newer_or_a_table_is_missing(tmp_path):
    db_path = tmp_path / "rules ?#%20.db"  # characters a URI would read as its own
    assert stale_reason(db_path) == "it does not exist yet"
    schema.create(schema.bulk_loader(str(db_path)))
    newest = max(path.stat().st_mtime for path in source_files())
    os.utime(db_path, (newest + 10, newest + 10))
    assert stale_reason(db_path) is None
    os.utime(db_path, (newest - 10, newest - 10))
    assert "changed since it was built" in stale_reason(db_path)
    sqlite_utils.Database(db_path).execute("drop table rule_lineage_pairs")  # as a database built before it existed
    os.utime(db_path, (newest + 10, newest + 10))
    assert stale_reason(db_path) == "an older version built it (it has no table rule_lineage_pairs)"


def test_help_does_not_import_spacy():
    """Only the commands that tag text pay for spaCy's import (a second or more): `rules-db --help` does not."""
    import subprocess
    import sys

    code = "import sys, rules_db.cli; print(sorted(m for m in sys.modules if m.split('.')[0] == 'spacy'))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "[]\n"


def test_replay_knows_the_cards_read_from_their_text(real_db):
    """A dispute naming a card the engine reads from its text (Doran's Ring, not written by hand) replays from the
    command line as on the replay pages, with the database's readings."""
    dispute = (
        Path(__file__).parent
        / "data"
        / "read_card_disputes"
        / "read-20-dorans-ring-triggers-on-its-units-conquest.yaml"
    )
    result = CliRunner().invoke(cli, ["replay", "--db", str(real_db), str(dispute)])
    assert result.exit_code == 0, result.output
    assert "verdict: MATCH" in result.output and "Doran's Ring: When I conquer" in result.output
