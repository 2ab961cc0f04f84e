"""Errors answered without a traceback, a file path or a 30 KB log entry.

Datasette's own exception handler prints every exception with its local variables (a 404 too) and answers an
unknown sort column (``?_sort=nope``) or a number past Python's 4,300 digits with a 500 that echoes the error.
``handle_exception`` wraps that handler and replaces its answer: what the request named that does not exist is
a 404, a malformed request a 400, with Datasette's message cut short; anything else is a 500 that says only
that the server failed, and the log gets one line. ``INTROSPECTION_ROUTE`` answers Datasette's pages that list
the databases and the plugins without the server's file paths (the database's, the plugins' folders).
"""

from __future__ import annotations

import logging
import sqlite3

from datasette import Response, hookimpl
from datasette.utils.asgi import Base400, NotFound
from datasette.views.base import DatasetteError

from datasette_plugins import pages

log = logging.getLogger(__name__)

MAX_MESSAGE = 200  # characters of an error message shown (a request can echo 5,000 digits)
SERVER_FAILED = "The server could not answer this page; it has been logged."
INTROSPECTION_ROUTE = r"^/-/(?P<listing>databases|plugins)(?:\.json)?$"
_PATHS = {"path", "static_path", "templates_path"}
# How SQLite words a query past one of its limits.
_PAST_A_LIMIT = ("too big", "too complex", "too large", "too many", "tree is too large", "depth")


def _client_error(exception: BaseException) -> int | None:
    """The status of an error the request caused, or None for the server's own failure."""
    if isinstance(exception, Base400):
        return exception.status
    if isinstance(exception, DatasetteError):  # Datasette's word for a bad request ("Cannot sort table by x")
        return exception.status if exception.status < 500 else 404
    if _number_too_large(exception):
        return 404  # a number no row can have
    if isinstance(exception, sqlite3.DataError) or any(word in str(exception) for word in _PAST_A_LIMIT):
        return 400  # a request past one of SQLite's limits (rules_db.guard)
    return None


def _number_too_large(exception: BaseException) -> bool:
    return isinstance(exception, OverflowError) or "integer string conversion" in str(exception)


@hookimpl(hookwrapper=True)
def handle_exception(datasette, request, exception):
    outcome = yield
    status = _client_error(exception)
    if status is None:
        status = 500
        log.error("%s %s: %s: %s", request.method, request.path[:200], type(exception).__name__, str(exception)[:500])
        message = SERVER_FAILED
    elif _number_too_large(exception):
        message = "No row has a number that large."
    elif isinstance(exception, NotFound):  # Datasette's words name its own parts ("Database not found")
        message = f"Nothing is at the address {request.path[:MAX_MESSAGE]}."
    else:
        message = str(exception.args[0] if exception.args else exception)[:MAX_MESSAGE]
    names_nothing = isinstance(exception, NotFound) or _number_too_large(exception)
    outcome.force_result([_responder(datasette, request, status, message, names_nothing)])


def _responder(datasette, request, status: int, message: str, names_nothing: bool):
    async def respond() -> Response:
        info = {"ok": False, "error": message, "status": status, "title": None}
        if request.path.endswith(".json") or request.args.get("_format") == "json":  # one shape for every client
            return Response.json(info, status=status)
        try:
            return await pages.error_page(datasette, request, status, message, names_nothing)
        except NotFound:  # no rules database is attached: Datasette's own look
            pass
        except Exception as failure:  # what failed the page fails its error page too: Datasette's look, one log line
            what = f"{type(failure).__name__}: {str(failure)[:500]}"
            log.error("the error page of %s %s failed: %s", request.method, request.path[:200], what)
        template = datasette.jinja_env.select_template([f"{status}.html", "error.html"])
        context = {**info, "urls": datasette.urls, "app_css_hash": datasette.app_css_hash(), "menu_links": list}
        return Response.html(await template.render_async(context), status=status)

    return respond


async def introspection(datasette, request):
    """``/-/databases`` and ``/-/plugins`` as Datasette lists them (as JSON), less every file path."""
    if request.url_vars["listing"] == "databases":
        listing = datasette._connected_databases()
    else:
        listing = datasette._plugins(request)
    return Response.json([{key: value for key, value in item.items() if key not in _PATHS} for item in listing])
