"""Our static files (style sheets, the replay script, the icon) at URLs that carry their content's hash, served
with a year-long immutable cache: a phone opening page after page asks for them once, and a changed file has a
new URL, so nobody is left with an old one. (Datasette's own plugin static route sends no cache header, so a
browser asked again on every page.)
"""

from __future__ import annotations

import hashlib
import mimetypes
from functools import cache
from pathlib import Path

from datasette.utils.asgi import NotFound, Response

STATIC_DIR = Path(__file__).resolve().parent / "static"
ROUTE = r"^/-/judges-static/(?P<digest>[0-9a-f]{16})/(?P<name>[A-Za-z0-9_-]+\.[a-z]+)$"
_FOREVER = "public, max-age=31536000, immutable"


@cache
def _digest(name: str) -> str:
    """The file's content hash, read once per process (the files ship with the package)."""
    return hashlib.sha256((STATIC_DIR / name).read_bytes()).hexdigest()[:16]


def url(datasette, name: str) -> str:
    """The URL of our static file ``name`` (``judges.css``), naming its current content."""
    return datasette.urls.path(f"-/judges-static/{_digest(name)}/{name}")


async def static_file(datasette, request):
    name = request.url_vars["name"]
    if not (STATIC_DIR / name).is_file():
        raise NotFound(f"No static file {name}")
    if request.url_vars["digest"] != _digest(name):  # a page of an older release: the file as it is now
        return Response.redirect(url(datasette, name))
    content_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
    return Response(
        (STATIC_DIR / name).read_bytes(),
        content_type=content_type + ("; charset=utf-8" if content_type.startswith("text/") else ""),
        headers={"Cache-Control": _FOREVER},
    )


STYLE_SHEETS = ("judges.css", "replay.css")  # ours, linked by every page after Datasette's own
OTHER_FILES = ("replay.js", "offline.js", "icon.svg")  # the service worker keeps these too


def style_sheet_urls(datasette) -> list[str]:
    return [url(datasette, name) for name in STYLE_SHEETS]
