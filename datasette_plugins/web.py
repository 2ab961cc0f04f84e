"""What every judges' page view shares: their URLs (`Paths`), the rules database and reading it, the request's
parts, and answering with a template or JSON (`respond`, `not_found`).

A view module (pages.py, indexes.py, replay_pages.py, dispute_pages.py...) imports these by their public names.
"""

from __future__ import annotations

import weakref
from functools import lru_cache
from pathlib import PurePosixPath
from urllib.parse import quote, unquote, urlencode

import jinja2
from datasette.utils.asgi import NotFound, Response

from datasette_plugins import render
from datasette_plugins.request_limits import whole_number
from rules_db import queries, schema

SEARCH_FILTERS = ("game", "rulebook", "version", "kind")

# Parts of the views' URL patterns. A game slug (lower-case letters, digits, hyphens) never names a table: the
# schema's names are excluded and every other table's has an underscore. So /rules/<table>/<row> stays
# Datasette's row page when the database itself is called "rules".
GAME = r"(?P<game>(?!(?:{})/)[a-z0-9][a-z0-9-]*)".format("|".join(sorted(schema.TABLES)))
FORMAT = r"(?P<format>\.json)?$"


class Paths:
    """URLs of the judges' pages, honouring Datasette's base_url.

    Each is a plain ``str``: Datasette's own URL strings look up ``dir(str)`` on every method call, which
    made escaping a page's hundreds of links the largest cost of rendering it."""

    def __init__(self, datasette, database_name: str):
        self.datasette = datasette
        self.database_name = database_name
        self.base_url = str(datasette.urls.path("/"))

    def _path(self, *parts: str | int) -> str:
        return self.base_url + "/".join([_quoted(str(part)) for part in parts])

    def home(self) -> str:
        return self.base_url

    def rule(self, row: dict) -> str:
        """A rule's permalink from a row carrying ``game``, ``version``, ``number`` and ``rulebook``
        (the slug, None for the game's default rulebook, whose URLs leave it out)."""
        return self.version_rule(row["game"], row["version"], row["number"], row.get("rulebook"))

    def version_rule(self, game: str, version: str, number: str, rulebook: str | None = None) -> str:
        return self._path("rules", game, *([rulebook] if rulebook else []), version, number)

    def keyword(self, game: str, term: str, version: str | None = None) -> str:
        return self._path("keywords", game, *([version] if version else []), term)

    def keyword_replays(self, game: str, term: str) -> str:
        """The library replays citing a keyword's rules."""
        return self._path("keyword-replays", game, term)

    def infractions(self, game: str) -> str:
        return self._path("infractions", game)

    def patch_notes(self, game: str, file: str) -> str:
        """The page of a version's patch notes (``file`` as ``effective_dates.patch_notes`` names it)."""
        return self._path("patch-notes", game, PurePosixPath(file).stem)

    def ruling(self, ruling_id: int) -> str:
        return self._path("rulings", ruling_id)

    def card(self, slug: str) -> str:
        return self._path("cards", slug)

    def replay(self, replay_id: str) -> str:
        return self._path("replays", replay_id)

    def dispute(self, token: str = "", anchor: str = "") -> str:
        """The dispute builder, holding the dispute a token encodes (``rules_db.replay_view.encode``)."""
        return self._path("dispute") + ("?" + urlencode({"s": token}) if token else "") + anchor

    def dispute_with(self, card: str, where: str | None = None) -> str:
        """A new dispute, its add form holding this card (an engine card's name) and where it goes."""
        return self._path("dispute") + "?" + urlencode({"card": card, **({"where": where} if where else {})}) + "#add"

    def diff(self, game: str, old: str, new: str, rulebook: str | None = None, **filters) -> str:
        query = urlencode({key: value for key, value in filters.items() if value})
        return self._path("diff", game, *([rulebook] if rulebook else []), old, new) + (f"?{query}" if query else "")

    def rules_index(self, game: str, version: str | None = None, rulebook: str | None = None) -> str:
        """The rule tree of a game's rulebook (its default one unless named): the newest version, or ``version``."""
        query = urlencode({key: value for key, value in (("rulebook", rulebook), ("version", version)) if value})
        return self._path("rules", game) + (f"?{query}" if query else "")

    def rulings_index(self, **filters) -> str:
        return self._index("rulings", filters)

    def bans(self, game: str) -> str:
        return self._path("bans", game)

    def cards_index(self, **filters) -> str:
        return self._index("cards", filters)

    def cards_read(self, **filters) -> str:
        """The cards the engine reads from their text, per set, and those it cannot read."""
        return self._index("cards-read", filters)

    def replays_index(self, **filters) -> str:
        return self._index("replays", filters)

    def _index(self, name: str, filters: dict) -> str:
        query = urlencode({key: value for key, value in filters.items() if value not in (None, "")})
        return self._path(name) + (f"?{query}" if query else "")

    def manifest(self) -> str:
        return str(self.datasette.urls.path("/manifest.webmanifest"))

    def service_worker(self) -> str:
        return str(self.datasette.urls.path("/sw.js"))

    def offline_pack(self, game: str) -> str:
        return self._path("offline", game)

    def search(self, **params) -> str:
        query = urlencode({key: value for key, value in params.items() if value})
        return str(self.datasette.urls.path("search")) + (f"?{query}" if query else "")

    def database(self) -> str:
        return str(self.datasette.urls.database(self.database_name))

    def table(self, table: str, **filters) -> str:
        query = urlencode(filters)
        return str(self.datasette.urls.table(self.database_name, table)) + (f"?{query}" if query else "")


@lru_cache(maxsize=8192)
def _quoted(part: str) -> str:
    """One segment of a path, percent-encoded. Kept: a page's links repeat the same games, versions, rulebooks and
    rule numbers, and quoting them anew was most of what a search answer cost outside the search."""
    return quote(part, safe="")


# Which attached database holds the rules, found once per Datasette instance.
_RULES_DATABASES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


async def rules_database(datasette):
    """The database holding the rules (the first one with a ``rules`` table)."""
    name = _RULES_DATABASES.get(datasette)
    if name in datasette.databases:
        return datasette.databases[name]
    for name, database in datasette.databases.items():
        if name != "_internal" and await database.table_exists("rules"):
            _RULES_DATABASES[datasette] = name
            return database
    raise NotFound("No rules database is attached")


# The licensed ruling sources each database credits in its pages' footer, read once (it is served read-only).
_CREDITS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


async def _credits(datasette, database) -> list[dict]:
    key = (database.name, database.path)
    held = _CREDITS.get(datasette)
    if held is None or held[0] != key:
        held = _CREDITS[datasette] = (key, await read(database, queries.licensed_sources))
    return held[1]


async def database_file(datasette) -> str | None:
    """The file of the rules database (None for one held in memory)."""
    return (await rules_database(datasette)).path


async def ask(datasette, question, *args):
    database = await rules_database(datasette)
    return database, await read(database, lambda conn: question(conn, *args))


async def read(database, reading):
    """``reading(conn)`` on Datasette's connection, in a thread of its pool, as one request
    (``queries.one_request``: the database's identity read once, not at every table it looks up)."""

    def in_one_request(conn):
        with queries.one_request(conn):
            return reading(conn)

    return await database.execute_fn(in_one_request)


def url_var(request, name: str) -> str | None:
    """A part of the path, percent-decoded (Datasette hands them over as received)."""
    value = request.url_vars.get(name)
    return None if value is None else unquote(value)


def page_number(request) -> int:
    """``?page=`` as a page number (the first when absent)."""
    return whole_number(request, "page", 1) or 1


def wants_json(request) -> bool:
    return bool(request.url_vars.get("format")) or request.args.get("_format") == "json"


async def respond(datasette, request, database, template: str, data: dict, status: int = 200, **extra):
    if wants_json(request):
        return Response.json(data, status=status, default=str)
    paths = Paths(datasette, database.name)
    json_url = request.path + ".json" + (f"?{request.query_string}" if request.query_string else "")
    args = request.args  # parsed from the query string at each use: once here
    context = {
        **data,
        **extra,
        "paths": paths,
        "render": render,
        "json_url": json_url,
        "search_query": args.get("q", ""),
        "search_filters": {name: args[name] for name in SEARCH_FILTERS if args.get(name)},
        "credits": await _credits(datasette, database),
    }
    html = await datasette.render_template(_template(datasette, f"judges_{template}"), context, request=request)
    return Response.html(html, status=status)


class _RenderedAtOnce(jinja2.Template):
    """A judges' page's template, rendered in one synchronous pass. Datasette renders its templates asynchronously
    (an async generator per template and block, every call awaited), and the judges' templates call nothing that
    waits: rendered at once they cost a quarter to a half less. The one coroutine function in Datasette's context,
    ``menu_links``, is awaited first."""

    async def render_async(self, *args, **kwargs) -> str:
        context = dict(*args, **kwargs)
        links = await context["menu_links"]()
        return self.render({**context, "menu_links": lambda: links})


_DICT_ATTRIBUTES = frozenset(dir(dict))


class _JudgesEnvironment(jinja2.Environment):
    """Jinja's environment, reading ``row.name`` of a page's data (plain dicts) as their key at once. Jinja looks for
    an attribute first, which a dict has only for its methods: every other name failed, with an exception, before its
    key was read, hundreds of times a page (a tenth of a search page's rendering). Same answers: a method's name
    (``.items``) is still the method."""

    def getattr(self, obj, attribute):
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


# The judges' templates, in a synchronous environment beside each Datasette's own (same loader, filters, globals).
_ENVIRONMENTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _template(datasette, name: str) -> jinja2.Template:
    environment = _ENVIRONMENTS.get(datasette)
    if environment is None:
        environment = _JudgesEnvironment(loader=datasette.jinja_env.loader, autoescape=True)
        environment.template_class = _RenderedAtOnce
        environment.filters.update(datasette.jinja_env.filters)
        environment.tests.update(datasette.jinja_env.tests)
        environment.globals.update(datasette.jinja_env.globals)
        _ENVIRONMENTS[datasette] = environment
    return environment.get_template(name)


def not_found(datasette, request, database, message: str, **data):
    return respond(datasette, request, database, "not_found.html", {"error": message, **data}, status=404)
