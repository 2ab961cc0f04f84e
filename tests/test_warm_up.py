"""A served worker renders a page of each kind before its lifespan's startup completes (``datasette_plugins.warm_up``)."""

from __future__ import annotations

import asyncio
import gc
import shutil
import sqlite3
from pathlib import Path

from datasette.app import Datasette

from datasette_plugins import CACHE, replay_pages, warm_up
from rules_db import lineage_store, queries, replay_view
from rules_db.sandbox import Sandbox
from rules_db.serve import PLUGIN, metadata

PROJECT = Path(__file__).resolve().parent.parent


def _datasette(db_path) -> Datasette:
    return Datasette(immutables=[str(db_path)], metadata=metadata(db_path))


async def _start_and_stop(app, send) -> None:
    """The ASGI lifespan as a server runs it: startup (where the warm-up runs), then shutdown."""
    messages: asyncio.Queue = asyncio.Queue()
    await messages.put({"type": "lifespan.startup"})
    await messages.put({"type": "lifespan.shutdown"})
    await app({"type": "lifespan", "asgi": {"version": "3.0"}}, messages.get, send)


async def test_a_page_of_each_kind_answers(fixture_db):
    datasette = _datasette(fixture_db)
    urls = await warm_up.urls(datasette)
    kinds = {url.split("?")[0].strip("/").split("/")[0] for url in urls}
    assert {
        "",
        "rules",
        "rulings",
        "cards",
        "keywords",
        "keyword-replays",
        "replays",
        "diff",
        "search",
    } <= kinds  # infractions: where the database has any
    statuses = {url: (await datasette.client.get(url)).status_code for url in urls}
    assert all(status in (200, 302, 404) for status in statuses.values()), statuses
    assert sum(status == 404 for status in statuses.values()) == 1  # the missing rule, and only it


async def test_the_lifespan_startup_completes_once_the_pages_are_rendered(fixture_db):
    datasette = _datasette(fixture_db)
    app = datasette.app()
    kept_at_startup = []

    async def send(message):
        if message["type"] == "lifespan.startup.complete":
            kept_at_startup.append(len(CACHE.pages))

    CACHE.pages.clear()
    gc.unfreeze()
    try:
        await _start_and_stop(app, send)
        frozen = gc.get_freeze_count()
    finally:
        gc.unfreeze()  # the rest of the test run collects as it did
    kept_pages = [key[-2] for key in CACHE.pages]  # (file identity..., path, query)
    rule_url = next(url for url in await warm_up.urls(datasette) if url.startswith("/rules/") and "999" not in url)
    assert kept_at_startup and kept_at_startup[0] >= 8
    assert rule_url in kept_pages and "/" in kept_pages
    assert frozen > 10_000  # what the worker holds, out of the collector's full passes


async def test_a_warmed_worker_serves_replays_rule_trees_and_comparisons_from_what_it_kept(
    fixture_db, tmp_path, monkeypatch
):
    """Every library replay run by the engine, every rulebook version outlined and every pair of versions compared
    before the startup completes: a judge's first replay page runs no engine, a rule tree of any version outlines
    nothing, a comparison counts nothing."""
    db_path = tmp_path / "rules.db"
    shutil.copy(fixture_db, db_path)
    library = sorted((PROJECT / "scenarios" / "library").glob("*.yaml"))[:2]
    connection = sqlite3.connect(db_path)
    for path in library:  # two: the warm-up's page of each kind opens one
        connection.execute(
            """insert into replays (id, title, file, rules_document_id, verdict, scenario)
            select ?, title, ?, rules_document_id, verdict, ? from replays limit 1""",
            [path.stem, path.name, path.read_text(encoding="utf-8")],
        )
    replays = [row[0] for row in connection.execute("select id from replays where scenario is not null")]
    trees = connection.execute(
        "select d.game_id, d.version, b.slug from documents d join rulebooks b on b.id = d.rulebook_id "
        "where d.kind = 'rules'"
    ).fetchall()
    comparisons = connection.execute(
        """select distinct o.game_id, o.version, n.version from rule_lineage l
        join documents o on o.id = l.from_document_id join documents n on n.id = l.to_document_id"""
    ).fetchall()
    connection.commit()
    connection.close()
    assert replays and len(trees) > 1 and comparisons
    datasette = _datasette(db_path)
    replay_pages.service()._cache.clear()  # nothing kept by an earlier test of this process

    async def send(message):
        pass

    try:
        await _start_and_stop(datasette.app(), send)
    finally:
        gc.unfreeze()  # the rest of the test run collects as it did
    CACHE.pages.clear()
    worked_out = []
    monkeypatch.setattr(replay_view, "replayed_view", lambda *args, **kwargs: worked_out.append(args))
    monkeypatch.setattr(queries.tree, "_document_outline", lambda *args: worked_out.append(args))
    monkeypatch.setattr(lineage_store, "stored_diff_summary", lambda *args, **kwargs: worked_out.append(args))
    pages = [f"/replays/{replay_id}" for replay_id in replays]
    pages += [f"/rules/{game}?version={version}&rulebook={rulebook}" for game, version, rulebook in trees]
    pages += [f"/diff/{game}/{old}/{new}" for game, old, new in comparisons]
    statuses = {url: (await datasette.client.get(url)).status_code for url in pages}
    assert set(statuses.values()) == {200}, statuses
    assert not worked_out


async def test_an_application_that_receives_no_lifespan_renders_nothing_ahead(fixture_db):
    datasette = _datasette(fixture_db)
    CACHE.pages.clear()
    await datasette.client.get("/-/versions.json")
    assert not CACHE.pages


async def test_a_database_without_our_tables_still_completes_its_startup(tmp_path):
    plain = tmp_path / "plain.db"
    sqlite3.connect(plain).execute("create table notes (text)").connection.commit()
    app = Datasette(immutables=[str(plain)]).app()
    sent = []

    async def send(message):
        sent.append(message["type"])

    await _start_and_stop(app, send)
    assert "lifespan.startup.complete" in sent and "lifespan.startup.failed" not in sent


async def test_a_server_started_without_warm_up_renders_nothing_ahead(fixture_db):
    """``serve(warm_up=False)`` (the tests' servers): the plugin's ``warm_up`` setting false, the startup
    completes with no page rendered."""
    settings = metadata(fixture_db)
    settings["plugins"] = {PLUGIN: {"warm_up": False}}
    app = Datasette(immutables=[str(fixture_db)], metadata=settings).app()
    sent = []

    async def send(message):
        sent.append(message["type"])

    CACHE.pages.clear()
    await _start_and_stop(app, send)
    assert "lifespan.startup.complete" in sent and not CACHE.pages


class _CountedSandbox(Sandbox):
    """A sandbox that counts the calls to start its workers, and starts none."""

    def __init__(self):
        super().__init__("rules_db.replay_worker")
        self.starts = 0

    def start(self) -> None:
        self.starts += 1


async def test_the_replay_sandbox_starts_with_the_server_unless_it_serves_without_warm_up(fixture_db, monkeypatch):
    """A judges' server spawns the sandbox's workers at startup, so the first replay page does not wait for them;
    one started with ``serve(warm_up=False)`` (the tests' servers) spawns them on its first replay (``Sandbox.call``
    starts them), as most of its tests replay nothing."""
    for warm, starts in ((True, 1), (False, 0)):
        sandbox = _CountedSandbox()
        monkeypatch.setattr(replay_pages, "service", lambda sandbox=sandbox: replay_view.Replays(sandbox))
        settings = metadata(fixture_db)
        settings["plugins"] = {PLUGIN: {"warm_up": warm}}
        await Datasette(immutables=[str(fixture_db)], metadata=settings).invoke_startup()
        assert sandbox.starts == starts, f"warm_up={warm}"
