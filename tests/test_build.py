"""The build: atomic swap, identical rebuilds, clear errors on bad input, nothing lost.

Only the one-or-two-processes test builds the Riftbound rules (which replays the scenario
library); the others read the session's real database or build small documents.
"""

from __future__ import annotations

import gc
import hashlib
import shutil
import sqlite3
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import sqlite_utils
from click.testing import CliRunner

import rules_db.build
from ingest.documents import CORPUS_DIR
from ingest.lemmas import load_tokenizer
from ingest.source import read_lines
from rules_db import guard, schema
from rules_db.build import BuildFailed, build, specs_for
from rules_db.cli import cli

RULINGS = CORPUS_DIR / "riftbound-qa-rulings.txt"
RULES_2025_12 = CORPUS_DIR / "riftbound-core-rules-2025-12-01.txt"
RULES_2025_06 = CORPUS_DIR / "riftbound-core-rules-2025-06-02.txt"
RULES_1_4 = CORPUS_DIR / "riftbound-core-rules-2026-06-18.txt"  # the engine's own numbers: every replay cites it
# Two small rulebooks of games without scenarios: a build of them takes half a second.
SMALL, OTHER_SMALL = CORPUS_DIR / "pox-nora-rules.txt", CORPUS_DIR / "rush-of-ikorr-comprehensive-rules-1.1.txt"

pytestmark = pytest.mark.usefixtures("spacy_loaded")  # the builds' second processes start with spaCy loaded


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _content(path: Path) -> list[str]:
    return list(sqlite_utils.Database(path).conn.iterdump())


@pytest.fixture(scope="module")
def small_build(tmp_path_factory) -> Path:
    """A database built from SMALL alone, once: the tests copy it as the database a failed build must keep."""
    path = tmp_path_factory.mktemp("small") / "rules.db"
    build(path, specs_for([SMALL]))
    return path


@pytest.mark.slow
def test_building_in_one_process_or_two_gives_identical_content(tmp_path):
    """Three versions (their lineage), rulings and the scenario replays: the second process computes the
    lineage and the replays, and every row comes out the same as when one process does it all."""
    first, second = tmp_path / "a.db", tmp_path / "b.db"
    build(first, specs_for([RULES_2025_06, RULES_2025_12, RULES_1_4, RULINGS]), processes=1)
    build(second, specs_for([RULES_2025_06, RULES_2025_12, RULES_1_4, RULINGS]), processes=2)
    assert _content(first) == _content(second)
    lineage = sqlite_utils.Database(second)["rule_lineage"]
    assert lineage.count > 1000 and lineage.count_where("kind != 'unchanged'") > 0
    assert sqlite_utils.Database(second)["replays"].count > 0


def test_a_build_failing_midway_leaves_the_previous_database_untouched(tmp_path, monkeypatch, small_build):
    db_path = Path(shutil.copy(small_build, tmp_path / "rules.db"))
    before = _sha(db_path)

    def explode(db):
        raise RuntimeError("injected failure while indexing")

    monkeypatch.setattr(schema, "enable_search", explode)
    with pytest.raises(RuntimeError, match="injected"):
        build(db_path, specs_for([SMALL, OTHER_SMALL]))
    assert _sha(db_path) == before
    assert [path.name for path in tmp_path.iterdir()] == ["rules.db"], "the temporary database was not removed"


_HELPER_NOTE: list[Path] = []  # where the helper process writes whether its collector runs (set before it forks)


def _load_tokenizer_noting_the_collector() -> None:
    _HELPER_NOTE[0].write_text(str(gc.isenabled()))
    load_tokenizer()


def test_the_collector_is_paused_while_a_build_runs_and_resumed_after_even_a_failed_build(tmp_path, monkeypatch):
    """A build's processes' collectors would walk heaps that only grow (everything stays alive until the database
    is written): both are paused for the build, and the calling process gets its back however the build ends."""
    indexing = schema.enable_search
    collecting_while_indexing = []

    def watched(db):
        collecting_while_indexing.append(gc.isenabled())
        indexing(db)

    monkeypatch.setattr(schema, "enable_search", watched)
    monkeypatch.setattr(rules_db.build, "load_tokenizer", _load_tokenizer_noting_the_collector)
    monkeypatch.setattr(sys.modules[__name__], "_HELPER_NOTE", [tmp_path / "helper collecting"])
    build(tmp_path / "built.db", specs_for([SMALL]), processes=2)
    assert collecting_while_indexing == [False] and gc.isenabled()
    assert (tmp_path / "helper collecting").read_text() == "False"

    def explode(db):
        raise RuntimeError("injected failure while indexing")

    monkeypatch.setattr(schema, "enable_search", explode)
    with pytest.raises(RuntimeError, match="injected"):
        build(tmp_path / "failed.db", specs_for([SMALL]))
    assert gc.isenabled()


def test_rulings_cite_the_version_they_were_written_against(real_db):
    """The real database holds older and newer versions than the rulings were written against."""
    db = sqlite_utils.Database(real_db)
    explicit = list(
        db.query(
            "select c.number, r.number as rule_number, r.document_id from ruling_citations c "
            "join rules r on r.id = c.rule_id join rulings g on g.id = c.ruling_id "
            "where c.how = 'explicit' and g.document_id = 'riftbound-qa-rulings'"
        )
    )
    assert len(explicit) == 4
    assert {row["document_id"] for row in explicit} == {"riftbound-core-rules-2025-12-01"}
    assert all(row["number"] == row["rule_number"] for row in explicit)


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(
    "name, data, message",
    [
        (
            "riftbound-core-rules-2025-06-02.txt",
            b"Riftbound Core Rules\n\nLast Updated: 2026-01-01\n\nJust prose.\n",
            "riftbound-core-rules-2025-06-02.txt",
        ),
        ("riftbound-qa-rulings.txt", b"", "empty"),
        (
            "riftbound-qa-rulings.txt",
            b"When a unit dies, what happens?\nRuling: It dies.\n\xff\xfe\n",
            ":3: expected UTF-8",
        ),
        (
            "riftbound-qa-rulings.txt",
            b"When a unit dies, what happens?\nRuling: It dies.\nWhen a unit moves, what then?\nNuances:\n- none\n",
            ":4: expected a 'Ruling:' line",
        ),
    ],
)
def test_bad_input_names_the_file_and_line_and_loses_nothing_else(tmp_path, name, data, message, small_build):
    bad = _write(tmp_path / name, data)
    db_path = Path(shutil.copy(small_build, tmp_path / "rules.db"))
    before = _sha(db_path)
    with pytest.raises(BuildFailed) as failure:
        build(db_path, specs_for([SMALL, bad]))
    assert message in str(failure.value) and name in str(failure.value)
    assert _sha(db_path) == before
    good = [report for report in failure.value.result.reports if not report.error]
    assert [report.spec.slug for report in good] == ["pox-nora-rules"]
    assert good[0].counts["rules"] > 50

    result = build(db_path, specs_for([SMALL, bad]), keep_going=True)
    assert len(result.failed) == 1
    db = sqlite_utils.Database(db_path)
    assert db["rules"].count == good[0].counts["rules"]


def test_cli_reports_a_missing_file(tmp_path):
    result = CliRunner().invoke(cli, ["build", "--db", str(tmp_path / "x.db"), str(tmp_path / "nowhere.txt")])
    assert result.exit_code != 0
    assert "nowhere.txt" in result.output and "no such file" in result.output
    assert not (tmp_path / "x.db").exists()


def test_cli_rejects_a_file_in_no_known_format(tmp_path):
    odd = _write(tmp_path / "notes.txt", b"Shopping list\n- eggs\n")
    result = CliRunner().invoke(cli, ["build", "--db", str(tmp_path / "x.db"), str(odd)])
    assert result.exit_code != 0
    assert "notes.txt" in result.output and "known formats" in result.output


def test_cli_prints_a_summary_per_document(real_build):
    """``real_build`` is the session's ``rules-db build`` of the bundled documents."""
    assert real_build.returncode == 0, real_build.stderr[-2000:]
    lines = real_build.stdout.splitlines()
    summary = {line.split(":")[0]: line for line in lines if not line.startswith(" ")}
    rules = summary["riftbound-core-rules-2025-12-01"]
    for figure in ("rules", "keywords", "cross-references", "dangling references", "lines skipped", "coverage"):
        assert figure in rules
    rulings = summary["riftbound-qa-rulings"]
    for figure in ("50 entries", "161 steps", "111 nuances", "citations"):
        assert figure in rulings
    assert "2381 rules" in summary["riftbound-core-rules-2026-06-18"]
    assert "935 rules" in summary["riftbound-tournament-rules-2026-07-16"]
    assert "32 infractions" in summary["riftbound-tournament-rules-2026-07-16"]
    faq = summary["riftboundfaq-rulings"]
    assert (
        "175 entries, 4 notes about the source" in faq
        and "0 unresolved citations" in faq
        and "cards not in the card list" in faq
    )
    # Temporal Breach, an Unleashed card, was known only from the rulings until the gallery of every set came.
    assert "0 cards not in the card list" in faq
    gallery = summary["riftbound-card-gallery-2026-07-20"]
    assert "933 cards, 389 cards new, 544 cards also in an earlier list, 1176 printings, 512 printings new" in gallery
    assert "2 tokens (not cards)" in gallery
    assert "63 errata, 63 errata dated, 63 errata linked, 0 errata unmatched" in summary["riftbound-errata-2026-08-17"]
    assert "2 dates disagreeing with another source" in summary["riftbound-sets-and-bans-2026-09-27"]
    assert any(line.startswith("  lineage from 2025-12-01:") for line in lines)


@pytest.mark.slow
def test_cli_builds_new_versions_given_by_file_each_the_newest_of_its_rulebook(tmp_path):
    """A Core Rules version and a Tournament Rules version under names the manifest does not know:
    recognised by their outline, dated by their text, each the newest of its own rulebook. The
    Tournament Rules are dated after every Core Rules version and still are not the newest Core Rules."""
    received = tmp_path / "CRD-vendetta.txt"
    shutil.copy(CORPUS_DIR / "riftbound-core-rules-2026-06-18.txt", received)
    tournament = tmp_path / "TR.txt"
    lines = read_lines(CORPUS_DIR / "riftbound-tournament-rules-2026-07-16.txt")
    tournament.write_text("\n".join([lines[0], "Last Updated 1/15/2027", *lines[2:]]), encoding="utf-8")
    result = CliRunner().invoke(cli, ["build", "--db", str(tmp_path / "x.db"), str(received), str(tournament)])
    assert result.exit_code == 0, result.output
    assert "CRD-vendetta: 2381 rules" in result.output and "TR: 935 rules" in result.output
    db = sqlite_utils.Database(tmp_path / "x.db")
    documents = {row["id"]: row for row in db.query("select * from documents")}
    core, rules = documents["CRD-vendetta"], documents["TR"]
    assert (core["version"], core["rulebook_id"], core["is_newest"]) == ("2026-06-18", "riftbound-core", 1)
    assert (rules["version"], rules["rulebook_id"], rules["is_newest"]) == ("2027-01-15", "riftbound-tournament", 1)
    assert db["rule_lineage"].count == 0  # one version of each rulebook: nothing to link, and never across them


def test_an_unknown_file_in_a_known_format_is_recognised(tmp_path):
    copy = tmp_path / "riftbound-core-rules-2026-01-01.txt"
    shutil.copy(RULES_2025_12, copy)
    (spec,) = specs_for([copy])
    assert spec.format == "riftbound" and spec.game == "riftbound"
    assert spec.version == "2025-12-01"  # from its "Last Updated:" line


def test_the_read_only_connection_opens_a_path_holding_uri_characters_and_writes_nothing(tmp_path):
    folder = tmp_path / "a?b#c%20d"  # each a URI's character, here the file's
    folder.mkdir()
    path = folder / "rules.db"
    sqlite_utils.Database(path)["notes"].insert({"text": "kept"})
    connection = guard.read_only(path)
    assert connection.execute("select text from notes").fetchall() == [("kept",)]
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        connection.execute("insert into notes (text) values ('lost')")


def test_the_read_only_connection_serves_other_threads_only_when_asked(tmp_path):
    path = tmp_path / "rules.db"
    sqlite_utils.Database(path)["notes"].insert({"text": "kept"})

    def count_in_another_thread(connection: sqlite3.Connection) -> int:
        with ThreadPoolExecutor(1) as pool:
            return pool.submit(lambda: connection.execute("select count(*) from notes").fetchone()[0]).result()

    assert count_in_another_thread(guard.read_only(path, check_same_thread=False)) == 1
    with pytest.raises(sqlite3.ProgrammingError, match="thread"):
        count_in_another_thread(guard.read_only(path))


_BUILD_THEN_LEAVE_A_CYCLE = """
import os, sys
from rules_db.build import build, specs_for
from rules_db.cli import cli

if sys.argv[3] == "command":
    cli(["build", "--db", sys.argv[1], sys.argv[2]], standalone_mode=False)
else:
    build(sys.argv[1], specs_for([sys.argv[2]]))


class Cycle:
    def __del__(self, write=os.write):
        write(1, b"collected at exit")


cycle = Cycle()
cycle.itself = cycle
del cycle
"""


@pytest.mark.slow  # fresh processes, whose helpers import spaCy
@pytest.mark.parametrize("built_by,collected", [("command", False), ("library", True)])
def test_only_the_build_command_leaves_its_heap_to_the_system_at_exit(tmp_path, built_by, collected):
    """The interpreter's last collection would walk and free a build's whole heap after the database is written:
    the `rules-db build` command's process exits without it, so garbage it leaves is never collected (its
    finalizer never runs); a process calling `build` as a library (a test, a benchmark) still collects at exit."""
    finished = subprocess.run(
        [sys.executable, "-c", _BUILD_THEN_LEAVE_A_CYCLE, str(tmp_path / "rules.db"), str(SMALL), built_by],
        capture_output=True,
        text=True,
        check=True,
    )
    assert (tmp_path / "rules.db").exists()
    assert ("collected at exit" in finished.stdout) is collected
