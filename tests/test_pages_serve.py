"""Serving: the Datasette metadata, and ``rules_db.serve.serve`` answering on a real port."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request

from rules_db import schema
from rules_db.queries import CANNED_QUERIES
from rules_db.serve import metadata, write_metadata


def test_metadata_describes_tables_documents_search_facets_and_queries(fixture_db):
    meta = metadata(fixture_db)
    database = meta["databases"]["rules"]
    assert set(database["tables"]) == set(schema.TABLES)
    assert database["tables"]["rulings"]["description"] == schema.describe("rulings")
    for table in schema.SEARCHABLE:
        assert database["tables"][table]["fts_table"] == f"{table}_fts"
        assert database["tables"][table]["fts_pk"] == "id"
    assert database["tables"]["rules"]["facets"] == ["game_id", "document_id", "section"]
    assert (
        set(database["queries"])
        == set(CANNED_QUERIES)
        == {"rulings_citing_rule", "rules_mentioning_keyword", "dangling_references", "stale_citations"}
    )
    for source in ["corpus/riftbound-core-rules-2025-06-02.txt", "corpus/riftbound-qa-rulings.txt"]:
        assert source in meta["description_html"] and source in database["source"]
    assert "2025-06-02" in meta["description_html"]


def test_metadata_escapes_document_titles(tmp_path, fixture_db):
    import shutil

    import sqlite_utils

    copy = tmp_path / "copy.db"
    shutil.copy(fixture_db, copy)
    sqlite_utils.Database(copy)["documents"].update("riftbound-qa-rulings", {"title": "<script>x</script>"})
    assert "<script>" not in metadata(copy)["description_html"]


def test_serve_runs_datasette_with_the_pages(fixture_db, tmp_path):
    port = _free_port()
    code = f"from rules_db.serve import serve; serve({str(fixture_db)!r}, port={port})"
    server = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        body = _wait_for(f"http://127.0.0.1:{port}/rules/riftbound/443.1.e", server)
        assert "Deal Damage to each unit" in body
        settings = _wait_for(f"http://127.0.0.1:{port}/-/databases.json", server)
        assert '"is_mutable": false' in settings
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert write_metadata(fixture_db).exists()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_for(url: str, server: subprocess.Popen, timeout: float = 30) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert server.poll() is None, server.stderr.read().decode()[-2000:]
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                return response.read().decode()
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"nothing answered at {url}")
