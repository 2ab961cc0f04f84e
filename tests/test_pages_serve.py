"""Serving: the Datasette metadata, and ``rules_db.serve.serve`` answering on a real port."""

from __future__ import annotations

import socket
import time

import pytest

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


@pytest.mark.slow  # a server process of its own, warming up: seconds of CPU
def test_serve_runs_datasette_with_the_pages(fixture_db, tmp_path):
    from servers import Server

    server = Server(fixture_db, tmp_path, warm_up=True)  # as `rules-db serve` runs it
    try:
        body = server.wait_until_ready("/rules/riftbound/443.1.e")
        assert "Deal Damage to each unit" in body
        assert '"is_mutable": false' in server.get("/-/databases.json")
    finally:
        server.stop()
    assert write_metadata(fixture_db).exists()


def _fresh_copy(fixture_db, tmp_path):
    """The fixture database, newer than every source, so ``rules-db serve`` does not rebuild it."""
    import os
    import shutil

    db = tmp_path / "rules.db"
    shutil.copy(fixture_db, db)
    future = time.time() + 10**6
    os.utime(db, (future, future))
    return db


def test_serve_on_the_local_network_prints_the_address_and_a_qr_code(fixture_db, tmp_path, monkeypatch):
    from click.testing import CliRunner

    from rules_db import serve as serving
    from rules_db.cli import cli

    started = []
    monkeypatch.setattr(serving, "serve", lambda *args, **options: started.append(options))
    monkeypatch.setattr(serving, "local_network_address", lambda: "192.168.1.20")
    db = _fresh_copy(fixture_db, tmp_path)
    result = CliRunner().invoke(cli, ["serve", "--db", str(db), "--host", "0.0.0.0", "--port", "8123"])
    assert result.exit_code == 0, result.output
    assert "open http://192.168.1.20:8123/ or scan" in result.output
    assert serving.qr_code("http://192.168.1.20:8123/") in result.output
    assert "On this machine: http://127.0.0.1:8123/" in result.output
    assert started == [{"host": "0.0.0.0", "port": 8123, "certificate": None, "workers": None}]

    local = CliRunner().invoke(cli, ["serve", "--db", str(db), "--workers", "1"])
    assert "Serving" in local.output and "scan" not in local.output and "█" not in local.output
    assert started[-1]["host"] == "127.0.0.1" and started[-1]["workers"] == 1
    unpaired = CliRunner().invoke(cli, ["serve", "--db", str(db), "--ssl-certfile", str(db)])
    assert unpaired.exit_code != 0 and "go together" in unpaired.output


def test_site_urls_and_the_qr_code():
    from rules_db.serve import qr_code, reachable_from_other_devices, site_urls

    assert site_urls("192.168.1.5", 80, https=True) == ["https://192.168.1.5:80/"]
    assert site_urls("::1", 8001) == ["http://[::1]:8001/"]
    assert site_urls("0.0.0.0", 8001)[-1] == "http://127.0.0.1:8001/"
    assert not reachable_from_other_devices("127.0.0.1") and reachable_from_other_devices("0.0.0.0")
    rows = qr_code("http://192.168.1.20:8001/").splitlines()
    # Two modules a character high: a square code is about twice as wide as it is tall, all of it blocks.
    assert 1.8 < len(rows[0]) / len(rows) < 2.2 and set("".join(rows)) <= set("█▀▄ ")
    assert qr_code("http://192.168.1.20:8001/") != qr_code("http://192.168.1.21:8001/")


def test_connections_are_accepted_with_nagle_off():
    """Every worker accepts on one socket made with TCP_NODELAY, which accepted connections inherit: a
    kept-alive connection then gets a response's body without waiting for the client's delayed ACK."""
    from rules_db.serve import listening_socket

    server = listening_socket("127.0.0.1", 0)
    server.listen()
    client = socket.create_connection(server.getsockname())
    accepted, _ = server.accept()
    try:
        assert server.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
        assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
        assert accepted.proto == socket.IPPROTO_TCP  # asyncio's transports keep Nagle off for it too
    finally:
        for open_socket in (accepted, client, server):
            open_socket.close()


def test_the_workers_sockets_share_the_connections_of_a_burst():
    """One socket shared by the workers gave every connection of a burst to the first worker woken (8 judges on one
    core): each worker now listens on its own socket of the port, and the kernel spreads the connections."""
    from rules_db.serve import listening_sockets

    sockets = listening_sockets("127.0.0.1", 0, 2)
    clients = []
    try:
        for sock in sockets:
            sock.listen()
            sock.setblocking(False)
        assert len({sock.getsockname() for sock in sockets}) == 1
        clients = [socket.create_connection(sockets[0].getsockname()) for _ in range(40)]
        accepted = [0, 0]
        deadline = time.monotonic() + 5
        while sum(accepted) < len(clients) and time.monotonic() < deadline:
            for index, sock in enumerate(sockets):
                try:
                    sock.accept()[0].close()
                    accepted[index] += 1
                except BlockingIOError:
                    time.sleep(0.001)
        assert sum(accepted) == 40 and min(accepted) > 0, accepted  # all on one socket: 1 chance in 2^39
        with pytest.raises(OSError, match="already answers"):
            listening_sockets("127.0.0.1", sockets[0].getsockname()[1], 2)  # as a plain bind would refuse it
    finally:
        for open_socket in clients + sockets:
            open_socket.close()


def test_a_worker_counts_as_serving_once_it_listens():
    """A worker's socket is bound before the worker warms up and listens after (uvicorn listens once the lifespan's
    startup completes): ``listening_on`` counts only the listening ones, so a caller can wait for every worker."""
    from rules_db.serve import listening_on, listening_sockets

    sockets = listening_sockets("127.0.0.1", 0, 2)
    port = sockets[0].getsockname()[1]
    try:
        counted = [listening_on(port)]
        for sock in sockets:
            sock.listen()
            counted.append(listening_on(port))
    finally:
        for sock in sockets:
            sock.close()
    if counted[0] is None:
        pytest.skip("no /proc/net/tcp to read here")
    assert counted == [0, 1, 2]
