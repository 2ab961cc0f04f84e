"""Datasette plugin: the judges' pages (rule, keyword, ruling, card, replay, search, home), the
indexes they browse (rule tree, rulings, cards, replays) and what keeps them working offline.

Registered through the ``datasette`` entry point in pyproject.toml. The URL patterns and page
views are in ``pages``, the replay pages (which run the engine) in ``replay_pages``, the index
views in ``indexes``, the web app manifest and service worker in ``offline``, our static files
(named by their content, cached for a year) in ``assets``, the rendered pages kept in memory in
``page_cache``, a served worker's first page of each kind rendered before it serves in ``warm_up``,
the safe rendering of document text in ``render``, the SQL in ``rules_db.queries``; templates extend
Datasette's ``base.html``.
"""

from __future__ import annotations

from datasette import hookimpl

from datasette_plugins import (
    assets,
    cancellation,
    card_reading_pages,
    database_watch,
    dispute_pages,
    errors,
    in_force_pages,
    indexes,
    offline,
    pages,
    render,
    replay_pages,
    request_limits,
    warm_up,
)
from datasette_plugins.page_cache import PageCache
from datasette_plugins.raw_tables import render_cell
from datasette_plugins.web import database_file
from rules_db import guard

__all__ = [
    "register_routes",
    "extra_css_urls",
    "startup",
    "skip_csrf",
    "render_cell",
    "prepare_connection",
    "asgi_wrapper",
    "handle_exception",
    "prepare_jinja2_environment",
]
handle_exception = errors.handle_exception

ROUTE_PATTERNS = {
    **pages.ROUTE_PATTERNS,
    **replay_pages.ROUTE_PATTERNS,
    **dispute_pages.ROUTE_PATTERNS,
    **in_force_pages.ROUTE_PATTERNS,
    **offline.ROUTE_PATTERNS,
    **card_reading_pages.ROUTE_PATTERNS,
}
VIEWS = {
    **pages.VIEWS,
    **indexes.VIEWS,
    **offline.views(ROUTE_PATTERNS),
    **replay_pages.VIEWS,
    **dispute_pages.VIEWS,
    **in_force_pages.VIEWS,
    **card_reading_pages.VIEWS,
}
# Pages kept rendered (page_cache): all but the search (whose answers may end early under load), the small
# offline files and the dispute builder (it answers a POST too); a replay page is kept, a slow or failed replay
# answers 5xx and is not.
KEPT = set(pages.VIEWS) - {"search"} | set(indexes.VIEWS) | set(replay_pages.KEPT) | set(in_force_pages.VIEWS)
CACHE = PageCache()


@hookimpl
def register_routes(datasette):
    return [(errors.INTROSPECTION_ROUTE, errors.introspection), (assets.ROUTE, assets.static_file)] + [
        (pattern, CACHE.wrap(VIEWS[name], database_file) if name in KEPT else VIEWS[name])
        for name, pattern in ROUTE_PATTERNS.items()
    ]


@hookimpl
def prepare_jinja2_environment(env, datasette):
    """The links to rules the templates call, made in Python (``render.TEMPLATE_GLOBALS``), and the one way a date
    is shown (``render.date``; ``render.dates`` for those in a message); a message shown alone as a sentence
    (``render.sentence``)."""
    env.globals.update(render.TEMPLATE_GLOBALS)
    env.filters["date"] = render.date
    env.filters["dates"] = render.dates
    env.filters["sentence"] = render.sentence


@hookimpl
def extra_css_urls(datasette):
    return assets.style_sheet_urls(datasette)


@hookimpl
def prepare_connection(conn):
    """Every connection bounded: SQLite's limits and an authorizer (``rules_db.guard``); one opened by a thread of
    the pool is interrupted when its request's client leaves (``cancellation``)."""
    guard.harden(conn)
    cancellation.adopt(conn)


@hookimpl
def asgi_wrapper(datasette):
    """A request past a limit (its method, length, parameters, body) is answered before any view reads it
    (``request_limits``), and every request with a 503 once the database file has changed under the server
    (``database_watch``); a request whose client disconnects is cancelled, and its SQLite work interrupted
    (``cancellation``); a server's worker renders a page of each kind before it serves (``warm_up``)."""
    cancellation.install(datasette)
    return lambda app: request_limits.bounded(
        database_watch.watched(datasette, warm_up.before_serving(datasette, cancellation.cancel_on_disconnect(app)))
    )


@hookimpl
def startup(datasette):
    """Spawn the replay sandbox's workers now, so the first replay page does not wait for them; a server started
    without its warm-up (``serve(warm_up=False)``, as the tests' servers are) spawns them on its first replay."""
    if warm_up.wanted(datasette):
        replay_pages.service().sandbox.start()


@hookimpl
def skip_csrf(datasette, scope):
    """The dispute page takes a scenario's YAML by POST (it can be longer than a URL) and only renders it:
    nothing is written anywhere, so there is no request to forge."""
    return scope["type"] == "http" and scope["path"] == datasette.urls.path("dispute")
