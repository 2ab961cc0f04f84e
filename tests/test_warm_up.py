"""A served worker renders a page of each kind before its lifespan's startup completes (``datasette_plugins.warm_up``)."""

from __future__ import annotations

import asyncio
import sqlite3

from datasette.app import Datasette

from datasette_plugins import CACHE, warm_up
from rules_db.serve import PLUGIN, metadata


def _datasette(db_path) -> Datasette:
    return Datasette(immutables=[str(db_path)], metadata=metadata(db_path))


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
    messages: asyncio.Queue = asyncio.Queue()
    kept_at_startup = []

    async def send(message):
        if message["type"] == "lifespan.startup.complete":
            kept_at_startup.append(len(CACHE.pages))

    CACHE.pages.clear()
    await messages.put({"type": "lifespan.startup"})
    await messages.put({"type": "lifespan.shutdown"})
    await app({"type": "lifespan", "asgi": {"version": "3.0"}}, messages.get, send)
    kept_pages = [key[-2] for key in CACHE.pages]  # (file identity..., path, query)
    rule_url = next(url for url in await warm_up.urls(datasette) if url.startswith("/rules/") and "999" not in url)
    assert kept_at_startup and kept_at_startup[0] >= 8
    assert rule_url in kept_pages and "/" in kept_pages


async def test_an_application_that_receives_no_lifespan_renders_nothing_ahead(fixture_db):
    datasette = _datasette(fixture_db)
    CACHE.pages.clear()
    await datasette.client.get("/-/versions.json")
    assert not CACHE.pages


async def test_a_database_without_our_tables_still_completes_its_startup(tmp_path):
    plain = tmp_path / "plain.db"
    sqlite3.connect(plain).execute("create table notes (text)").connection.commit()
    app = Datasette(immutables=[str(plain)]).app()
    messages: asyncio.Queue = asyncio.Queue()
    sent = []

    async def send(message):
        sent.append(message["type"])

    await messages.put({"type": "lifespan.startup"})
    await messages.put({"type": "lifespan.shutdown"})
    await app({"type": "lifespan", "asgi": {"version": "3.0"}}, messages.get, send)
    assert "lifespan.startup.complete" in sent and "lifespan.startup.failed" not in sent


async def test_a_server_started_without_warm_up_renders_nothing_ahead(fixture_db):
    """``serve(warm_up=False)`` (the tests' servers): the plugin's ``warm_up`` setting false, the startup
    completes with no page rendered."""
    settings = metadata(fixture_db)
    settings["plugins"] = {PLUGIN: {"warm_up": False}}
    app = Datasette(immutables=[str(fixture_db)], metadata=settings).app()
    messages: asyncio.Queue = asyncio.Queue()
    sent = []

    async def send(message):
        sent.append(message["type"])

    CACHE.pages.clear()
    await messages.put({"type": "lifespan.startup"})
    await messages.put({"type": "lifespan.shutdown"})
    await app({"type": "lifespan", "asgi": {"version": "3.0"}}, messages.get, send)
    assert "lifespan.startup.complete" in sent and not CACHE.pages
