"""A served worker renders one page of each kind before it answers judges.

A worker process's first page of a kind pays for what every later one reuses: the template compiled, the engine
and its card library loaded for a replay, search's vocabulary read, the database's pages read from the disk, the
replays' cited rules followed to the newest version. On a fresh server that made the first pages of each kind the
slowest by far (a first replay took 400 ms, a search or a rule 200 ms), so under 8 judges the slow tail of every
kind was a worker's first requests. ``before_serving`` holds the server's start (the ASGI lifespan's
``startup.complete``) until the worker has worked out what depends only on the database and is bounded by it (the
replays' citations translated, every rulebook version's outline, every pair of versions compared, every library
replay run by the engine) and asked for one page of each kind (``urls``) through Datasette's own client; what fails
is logged and the worker serves anyway. Only a server sends lifespan events, so an application built in a test
warms nothing; a server started with ``serve(warm_up=False)`` (the plugin's ``warm_up`` setting false, as the tests'
servers run) neither, and starts the replay sandbox's workers on its first replay instead of at startup.
"""

from __future__ import annotations

import gc
import logging

from datasette_plugins import replay_pages
from datasette_plugins.web import Paths, read, rules_database
from rules_db import queries
from rules_db.serve import PLUGIN

log = logging.getLogger(__name__)


def wanted(datasette) -> bool:
    """The plugin's ``warm_up`` setting: true unless a server is started with ``serve(warm_up=False)``."""
    return (datasette.plugin_config(PLUGIN) or {}).get("warm_up", True)


def before_serving(datasette, app):
    """ASGI middleware: the lifespan's startup completes once ``warm`` has run."""
    if not wanted(datasette):
        return app

    async def warmed_first(scope, receive, send):
        if scope["type"] != "lifespan":
            return await app(scope, receive, send)

        async def send_when_warm(message) -> None:
            if message["type"] == "lifespan.startup.complete":
                try:
                    await warm(datasette)
                except Exception:  # a warm-up is an optimisation: a database without our tables still serves
                    log.exception("warming up the worker failed")
            await send(message)

        return await app(scope, receive, send_when_warm)

    return warmed_first


async def warm(datasette) -> None:
    """What the pages read and depends only on the database worked out (each bounded by what its cache keeps), then
    one page of each kind asked once, the page cache keeping them like any other; then what the worker holds is
    frozen out of the garbage collector's passes."""
    database = await rules_database(datasette)
    for name, work in (
        ("translating the replays' citations", lambda: read(database, queries.translate_replay_citations)),
        ("outlining the rulebooks", lambda: read(database, queries.outline_every_rulebook)),
        ("comparing the versions", lambda: read(database, queries.compare_every_version_pair)),
        ("replaying the library", lambda: replay_pages.replay_library(database)),
    ):
        try:
            await work()
        except Exception:  # the pages work it out themselves
            log.exception("%s failed", name)
    for url in await urls(datasette):
        try:
            response = await datasette.client.get(url)
        except Exception:
            log.exception("warming up %s failed", url)
            continue
        if response.status_code >= 500:
            log.warning("warming up %s answered %s", url, response.status_code)
    # What the worker holds now lives as long as it serves; the collector's full passes walked all of it (the kept
    # replays' games, the outlines, the compiled templates), 50-90 ms in the middle of some judge's page. Frozen,
    # they are left out of every pass: only what the pages make from now on is looked at. The price, bounded by what
    # was warmed: a kept replay pushed out of its cache later is never collected (a game is a reference cycle), and
    # the replays this worker runs skip their hand-off to the collector (scenarios/collector.py, collector_paused).
    gc.collect()
    gc.freeze()


async def urls(datasette) -> list[str]:
    """A page of each kind the judges open, drawn from the database (``queries.page_samples``)."""
    database = await rules_database(datasette)
    sample = await read(database, queries.page_samples)
    paths = Paths(datasette, database.name)
    found = [paths.home(), paths.rulings_index(), paths.cards_index(), paths.replays_index()]
    if rule := sample["rule"]:
        found += [
            paths.rule(rule),
            paths.version_rule(rule["game"], rule["version"], rule["number"] + ".999.9", rule["rulebook"]),
            paths.rules_index(rule["game"]),
            paths.search(q=rule["number"]),
        ]
    if ruling := sample["ruling"]:
        found += [paths.ruling(ruling["id"]), paths.search(q=ruling["question"])]
    if card := sample["card"]:
        found.append(paths.card(card["slug"]))
    if keyword := sample["keyword"]:
        found.append(paths.keyword(keyword["game"], keyword["term"], keyword["version"]))
        found.append(paths.keyword_replays(keyword["game"], keyword["term"]))  # loads the engine's keywords
    if replay := sample["replay"]:
        found.append(paths.replay(replay["id"]))
    if diff := sample["diff"]:
        found.append(paths.diff(diff["game"], diff["old"], diff["new"], diff["rulebook"]))
    if infractions := sample["infractions"]:
        found.append(paths.infractions(infractions["game"]))
    return found
