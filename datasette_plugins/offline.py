"""What makes the judges' site an installable web app that keeps working without a network: the web
app manifest and the service worker (``static/sw.js``).

The worker is served from the site's root (``/sw.js``) rather than from Datasette's plugin static
folder, because a service worker only controls the pages under its own path. It is told the URL
patterns of the judges' pages (the server's own, from ``pages.ROUTE_PATTERNS``) so that it keeps a copy
of exactly those pages, and the style sheets every page links.
"""

from __future__ import annotations

import hashlib
import json

from datasette.utils.asgi import Response

from datasette_plugins import assets
from datasette_plugins.pages import ROUTE_PATTERNS
from datasette_plugins.web import Paths

# Pages the worker keeps: every judges' page (the manifest and the worker itself are not pages).
KEPT_PAGES = [name for name in ROUTE_PATTERNS if name not in ("manifest", "service_worker")]
MAX_KEPT_PAGES = 300
# How long a page may take from the network before the kept copy is shown instead.
PATIENCE_MS = 4000


def _js_pattern(pattern: str) -> str:
    """A Python route pattern as a JavaScript regular expression (named groups are spelled differently)."""
    return pattern.replace("(?P<", "(?<")


def style_sheets(datasette) -> list[str]:
    """The style sheets every page links, as the pages link them (Datasette's, with its hash, and ours)."""
    return [f"{datasette.urls.static('app.css')}?{datasette.app_css_hash()}", *assets.style_sheet_urls(datasette)]


def worker_script(datasette) -> str:
    source = (assets.STATIC_DIR / "sw.js").read_text(encoding="utf-8")
    sheets = style_sheets(datasette)
    style = (assets.STATIC_DIR / "judges.css").read_text(encoding="utf-8")
    version = hashlib.sha256("\n".join([source, style, *sheets]).encode()).hexdigest()
    config = {
        "root": datasette.urls.path("/"),
        "patterns": [_js_pattern(ROUTE_PATTERNS[name]) for name in KEPT_PAGES],
        "assets": sheets,
        "version": version[:16],
        "max_pages": MAX_KEPT_PAGES,
        "patience_ms": PATIENCE_MS,
    }
    return source.replace("__CONFIG__", json.dumps(config))


async def service_worker(datasette, request):
    return Response(
        worker_script(datasette),
        content_type="text/javascript; charset=utf-8",
        headers={"Service-Worker-Allowed": datasette.urls.path("/"), "Cache-Control": "no-cache"},
    )


async def manifest(datasette, request):
    paths = Paths(datasette, None)
    icon = assets.url(datasette, "icon.svg")
    return Response(
        json.dumps(
            {
                "name": "Judges' rules, rulings and cards",
                "short_name": "Judges",
                "description": "Every rule, ruling, card and keyword, with the disputed sequences replayed.",
                "start_url": paths.home(),
                "scope": paths.home(),
                "display": "standalone",
                "background_color": "#F8FAFB",
                "theme_color": "#276890",
                "icons": [{"src": icon, "sizes": "any", "type": "image/svg+xml", "purpose": "any"}],
            }
        ),
        content_type="application/manifest+json",
    )


VIEWS = {"manifest": manifest, "service_worker": service_worker}
