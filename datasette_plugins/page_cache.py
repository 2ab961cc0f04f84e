"""Rendered judges' pages kept in memory, per server process.

The database is read-only while it is served (Datasette's immutable mode), so a judges' page is a
function of its address alone: the second judge opening the home page, a list or a rule tree, and
the service worker fetching a page again to keep its copy fresh, get the page already rendered. The
key holds the database file's path, size and time of change, so a rebuilt database (or, in the tests,
another database in the same process) never answers with a page of the old one. A visitor with a
session (Datasette's actor or messages cookies) always gets a page of their own.
"""

from __future__ import annotations

import datetime
from collections import OrderedDict
from functools import wraps

from datasette.utils.asgi import Response

from rules_db import queries

PAGES_KEPT = 500
_PERSONAL_COOKIES = ("ds_actor", "ds_messages")


class PageCache:
    """The last ``size`` pages the views answered, least recently used dropped first."""

    def __init__(self, size: int = PAGES_KEPT):
        self.size = size
        self.pages: OrderedDict[tuple, tuple] = OrderedDict()

    def wrap(self, view, database_file):
        """``view`` answering from the cache when it can; ``database_file(datasette)`` is the served file."""

        @wraps(view)
        async def cached_view(datasette, request):
            if any(name in request.cookies for name in _PERSONAL_COOKIES):
                return await view(datasette, request)
            identity = queries.file_identity(await database_file(datasette))
            if identity is None:
                return await view(datasette, request)
            # the day too: a page saying what is in force today (the home page) is rendered anew the next day
            key = (*identity, datetime.date.today().isoformat(), request.path, request.query_string)
            kept = self.pages.get(key)
            if kept is not None:
                self.pages.move_to_end(key)
                body, status, headers, content_type = kept
                return Response(body, status=status, headers=dict(headers), content_type=content_type)
            response = await view(datasette, request)
            if response.status < 500 and not response._set_cookie_headers:
                self.pages[key] = (response.body, response.status, dict(response.headers), response.content_type)
                while len(self.pages) > self.size:
                    self.pages.popitem(last=False)
            return response

        return cached_view
