"""The build takes documents in any order and any number (issue 35): each is stored after what it needs, the
same document given twice is stored once, folders are read, and a malformed folder document names its file and
line. A folder's links are never followed."""

from __future__ import annotations

import shutil
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from ingest.documents import BUNDLED, CORPUS_DIR
from ingest.errors import IngestError
from ingest.riftboundfaq import parse_path
from ingest.source import read_lines
from rules_db.build import build, in_build_order, specs_for
from rules_db.cli import cli

TOURNAMENT = CORPUS_DIR / "riftbound-tournament-rules-2026-07-16.txt"
CORE_1_4 = CORPUS_DIR / "riftbound-core-rules-2026-06-18.txt"
FAQ_FOLDER = CORPUS_DIR / "riftboundfaq-rulings"
SMALL = CORPUS_DIR / "pox-nora-rules.txt"

pytestmark = pytest.mark.usefixtures("spacy_loaded")


def _slugs(specs) -> list[str]:
    return [spec.slug for spec in specs]


def test_the_bundled_manifest_is_already_in_build_order():
    ordered, notes = in_build_order(list(BUNDLED))
    assert _slugs(ordered) == _slugs(BUNDLED) and notes == []


def test_a_rulebook_comes_after_its_games_default_rulebook_and_errata_after_cards_whatever_the_order_given():
    given = list(reversed(BUNDLED))
    ordered, _ = in_build_order(given)
    position = {slug: index for index, slug in enumerate(_slugs(ordered))}
    assert position["riftbound-tournament-rules-2026-07-16"] > max(
        position[spec.slug]
        for spec in BUNDLED
        if spec.kind == "rules" and spec.rulebook is None and spec.game == "riftbound"
    )
    assert position["riftbound-errata"] > position["riftbound-cards"]
    assert all(position["riftbound-qa-rulings"] > position[spec.slug] for spec in BUNDLED if spec.kind == "rules")


def test_the_same_document_twice_is_kept_once_with_a_note_and_two_texts_of_one_name_are_refused(tmp_path):
    ordered, notes = in_build_order(specs_for([SMALL, SMALL]))
    assert _slugs(ordered) == ["pox-nora-rules"] and notes == [f"{SMALL} was given twice: stored once"]
    other = tmp_path / SMALL.name
    other.write_text(SMALL.read_text(encoding="utf-8") + "\n9. An added rule.\n", encoding="utf-8")
    with pytest.raises(IngestError, match="one document named 'pox-nora-rules'"):
        in_build_order([*specs_for([SMALL]), replace(specs_for([SMALL])[0], source=other)])


def test_a_document_given_twice_on_the_command_line_is_built_once(tmp_path):
    result = CliRunner().invoke(cli, ["build", "--db", str(tmp_path / "x.db"), str(SMALL), str(SMALL)])
    assert result.exit_code == 0, result.output
    assert "given twice: stored once" in result.output
    assert sqlite3.connect(tmp_path / "x.db").execute("select count(*) from documents").fetchone() == (1,)


@pytest.mark.slow
def test_the_tournament_rules_alone_build_and_keep_their_references_into_the_core_rules_dangling(tmp_path):
    result = CliRunner().invoke(cli, ["build", "--db", str(tmp_path / "x.db"), str(TOURNAMENT)])
    assert result.exit_code == 0, result.output
    db = sqlite3.connect(tmp_path / "x.db")
    into_core = db.execute("select count(*) from rule_refs where status = 'dangling' and target_rulebook_id is null")
    assert into_core.fetchone()[0] > 0


@pytest.mark.slow
def test_the_tournament_rules_before_or_after_the_core_rules_give_the_same_database(tmp_path):
    first, second = tmp_path / "a.db", tmp_path / "b.db"
    build(first, specs_for([CORE_1_4, TOURNAMENT]))
    build(second, specs_for([TOURNAMENT, CORE_1_4]))
    dump = (
        "select from_rule_id, to_rule_id, target_number, status, target_rulebook_id, target_document_id from rule_refs"
    )
    rows = [sorted(sqlite3.connect(path).execute(dump).fetchall(), key=repr) for path in (first, second)]
    assert rows[0] == rows[1] and any(row[4] == "riftbound-core" for row in rows[0])


def test_a_rulings_folder_is_a_document_on_the_command_line(tmp_path):
    result = CliRunner().invoke(cli, ["build", "--db", str(tmp_path / "x.db"), str(FAQ_FOLDER)])
    assert result.exit_code == 0, result.output
    assert sqlite3.connect(tmp_path / "x.db").execute("select count(*) from rulings").fetchone()[0] > 100


def test_a_folder_of_documents_is_read_document_by_document_leaving_out_what_is_none(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    shutil.copy(SMALL, folder)
    (folder / "README.md").write_text("# What these files are\n", encoding="utf-8")
    assert _slugs(specs_for([folder])) == ["pox-nora-rules"]
    (tmp_path / "empty").mkdir()
    with pytest.raises(IngestError):
        specs_for([tmp_path / "empty"])


def _faq_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "faq"
    shutil.copytree(FAQ_FOLDER, folder)
    return folder


def test_a_link_in_a_rulings_folder_is_not_followed(tmp_path):
    folder = _faq_copy(tmp_path)
    outside = tmp_path / "secret.mdx"
    outside.write_text("---\ntitle: Secret\n---\n\n## Outside the corpus? [#outside]\n\nNot to be served.\n")
    (folder / "general-rules" / "secret.mdx").symlink_to(outside)
    (folder / "linked").symlink_to(tmp_path, target_is_directory=True)
    questions = [ruling.question for ruling in parse_path(folder).rulings]
    assert questions and not any("Outside the corpus" in question for question in questions)


@pytest.mark.parametrize(
    ("front_matter", "key"),
    [("authors: 5", "authors"), ("title: [a, b]", "title"), ("rulingRelations: [x]", "rulingRelations")],
)
def test_a_front_matter_key_of_the_wrong_shape_names_the_page_its_line_and_the_key(tmp_path, front_matter, key):
    folder = _faq_copy(tmp_path)
    page = folder / "general-rules" / "abilities.mdx"
    body = page.read_text(encoding="utf-8").split("\n---\n", 1)[1]
    page.write_text(f"---\ncreatedAt: 2026-01-25\n{front_matter}\n---\n{body}", encoding="utf-8")
    with pytest.raises(IngestError) as caught:
        parse_path(folder)
    assert Path(caught.value.path) == page and caught.value.line == 3 and repr(key) in str(caught.value)


@pytest.mark.parametrize(
    ("meta", "expected"),
    [('["index"]', "a JSON object"), ('{"pages": "index"}', "a list of page names"), ('{"title": "A\\ud800"}', "lone")],
)
def test_a_malformed_meta_json_names_its_file(tmp_path, meta, expected):
    folder = _faq_copy(tmp_path)
    (folder / "general-rules" / "meta.json").write_text(meta, encoding="utf-8")
    with pytest.raises(IngestError, match=expected) as caught:
        parse_path(folder)
    assert Path(caught.value.path) == folder / "general-rules" / "meta.json"


def test_lines_are_counted_at_newlines_only(tmp_path):
    text = tmp_path / "t.txt"
    text.write_bytes("one\x0cstill one\u2028and\x85one\r\ntwo\rthree\n".encode())
    assert read_lines(text) == ["one\x0cstill one\u2028and\x85one", "two", "three"]


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        children = (task / "children").read_text().split() if (task / "children").exists() else []
        found.extend(int(child) for child in children)
    return found


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.slow
def test_a_build_killed_with_sigkill_leaves_no_second_process_and_no_temporary_file(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    rules_db = Path(sys.executable).parent / "rules-db"
    builder = subprocess.Popen([str(rules_db), "build", "--db", str(tmp_path / "x.db"), str(TOURNAMENT)])
    deadline = time.monotonic() + 60
    while not _children(builder.pid) and time.monotonic() < deadline and builder.poll() is None:
        time.sleep(0.02)
    helpers = _children(builder.pid)
    assert helpers, "the build never started its second process"
    os.kill(builder.pid, signal.SIGKILL)
    builder.wait()
    deadline = time.monotonic() + 20
    while any(_alive(helper) for helper in helpers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(helper) for helper in helpers)
    assert not list(tmp_path.glob(".x.db.*")), "the killed build's temporary database is left behind"


def _build_cli(tmp_path: Path, db: Path):
    return CliRunner().invoke(cli, ["build", "--db", str(db), str(SMALL)])


def test_a_file_where_the_databases_folder_should_be_is_one_clear_line(tmp_path):
    (tmp_path / "afile").write_text("not a folder")
    result = _build_cli(tmp_path, tmp_path / "afile" / "x.db")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.output.strip().splitlines()[-1] == (
        f"Error: cannot write {tmp_path / 'afile' / 'x.db'}: a file stands where a folder should be "
        f"({tmp_path / 'afile'}); the previous database was kept"
    )


@pytest.mark.parametrize(
    ("failure", "reason"),
    [
        (sqlite3.OperationalError("database or disk is full"), "database or disk is full"),
        (PermissionError(13, "Permission denied", "data"), "Permission denied (data)"),
        (OSError(28, "No space left on device"), "No space left on device"),
    ],
)
def test_a_full_disk_or_a_read_only_folder_is_one_clear_line_and_the_old_database_is_kept(
    tmp_path, monkeypatch, failure, reason
):
    db = tmp_path / "x.db"
    assert _build_cli(tmp_path, db).exit_code == 0
    before = db.read_bytes()

    def fails(*args, **kwargs):
        raise failure

    monkeypatch.setattr("rules_db.build._Builder.run", fails)
    result = _build_cli(tmp_path, db)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"cannot write {db}: {reason}; the previous database was kept" in result.output
    assert db.read_bytes() == before and not list(tmp_path.glob(".x.db.*"))
