"""A database file changed under a running server is answered with a clear 503, not with errors.

The server opens the database immutable: SQLite then trusts that nothing changes it, and the pages kept rendered
(``page_cache``) trust the same. A file rewritten in place while served made every page a 500 ("database disk
image is malformed") until a restart; a file replaced by another (a rebuild's rename) would mix connections
opened on the old file with connections opened on the new one. ``watched`` notes each served file's identity
(device, inode, size, modification time) as the server starts, and from then on a request that finds it changed
is answered 503 with what to do, until the server is restarted on the new file.
"""

from __future__ import annotations

import json
import os
import time

CHECK_EVERY = 0.5  # seconds between two looks at the files: a stat each, far below a page's cost
SERVED_ANYWAY = ("/-/static", "/-/judges-static")  # files of the site itself, not of the database


def identity(path: str) -> tuple[int, int, int, int] | None:
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns


class Watch:
    """The identities of the served database files, as first seen, and whether one has changed since."""

    def __init__(self, datasette) -> None:
        self.paths = [database.path for database in datasette.databases.values() if database.path]
        self.first = {path: identity(path) for path in self.paths}
        self.changed: str | None = None
        self.looked = time.monotonic()

    def changed_file(self) -> str | None:
        """The first served file found changed, or None; looked at every ``CHECK_EVERY`` seconds at most."""
        if self.changed is not None:
            return self.changed
        now = time.monotonic()
        if now - self.looked < CHECK_EVERY:
            return None
        self.looked = now
        self.changed = next((path for path in self.paths if identity(path) != self.first[path]), None)
        return self.changed


def watched(datasette, app):
    """ASGI middleware: once a served file has changed, every request but the site's own static files is a 503."""
    watch = Watch(datasette)

    async def middleware(scope, receive, send):
        if scope["type"] == "http" and not scope["path"].startswith(SERVED_ANYWAY):
            changed = watch.changed_file()
            if changed is not None:
                return await _unavailable(scope, send, os.path.basename(changed))
        return await app(scope, receive, send)

    return middleware


async def _unavailable(scope, send, name: str) -> None:
    message = (
        f"The database {name} changed on disk while this server was running. "
        "Restart the server (rules-db serve) to serve the new one."
    )
    if scope["path"].endswith(".json"):
        body, kind = json.dumps({"ok": False, "error": message, "status": 503}).encode(), b"application/json"
    else:
        body, kind = message.encode(), b"text/plain; charset=utf-8"
    headers = [(b"content-type", kind), (b"content-length", str(len(body)).encode()), (b"retry-after", b"60")]
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": body})
