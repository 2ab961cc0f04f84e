"""What makes the judges' site an installable web app that keeps working without a network: the web
app manifest, the service worker (``static/sw.js``) and a game's offline pack (``/offline/<game>``).

The worker is served from the site's root (``/sw.js``) rather than from Datasette's plugin static
folder, because a service worker only controls the pages under its own path. It is told the URL
patterns of every judges' page (the plugin's routes, replay pages and the dispute builder included:
``views(ROUTE_PATTERNS)``) so that it keeps a copy of exactly those pages, and our static files.

The offline pack page lists every page a judge may open at an event (``rules_db.offline_pack``: every
rule of every version, keyword, ruling, card and replay of a game, and the pages that lead to them), with
its pages counted and its size measured (`_measure`); its script (``static/offline.js``) fetches them
all into a cache of their own, showing its progress, and the worker answers from it with no network.
"""

from __future__ import annotations

import hashlib
import json
import os
import weakref
from contextvars import ContextVar
from html.parser import HTMLParser
from urllib.parse import urljoin

from datasette.utils.asgi import NotFound, Response

from datasette_plugins import assets
from datasette_plugins.web import FORMAT, GAME, Paths, read, respond, rules_database, url_var, wants_json
from rules_db import offline_pack

ROUTE_PATTERNS = {"offline_pack": rf"^/offline/{GAME}{FORMAT}"}
# Routes that are not pages to keep: the manifest, the worker itself, a file to download.
NOT_PAGES = ("manifest", "service_worker", "dispute_download")
MAX_KEPT_PAGES = 300
# How long a page may take from the network before the kept copy is shown instead.
PATIENCE_MS = 4000


def _js_pattern(pattern: str) -> str:
    """A Python route pattern as a JavaScript regular expression (named groups are spelled differently)."""
    return pattern.replace("(?P<", "(?<")


def style_sheets(datasette) -> list[str]:
    """The style sheets every page links, as the pages link them (Datasette's, with its hash, and ours)."""
    return [f"{datasette.urls.static('app.css')}?{datasette.app_css_hash()}", *assets.style_sheet_urls(datasette)]


def kept_assets(datasette) -> list[str]:
    """What the worker keeps at install: the style sheets, and our other static files (the replay's and the
    pack's scripts, the icon), each at its content's URL."""
    return [*style_sheets(datasette), *(assets.url(datasette, name) for name in assets.OTHER_FILES)]


def worker_script(datasette, route_patterns: dict[str, str]) -> str:
    source = (assets.STATIC_DIR / "sw.js").read_text(encoding="utf-8")
    kept = kept_assets(datasette)
    version = hashlib.sha256("\n".join([source, *kept]).encode()).hexdigest()
    config = {
        "root": datasette.urls.path("/"),
        "patterns": [_js_pattern(pattern) for name, pattern in route_patterns.items() if name not in NOT_PAGES],
        "assets": kept,
        "static": datasette.urls.path("-/judges-static/"),
        "version": version[:16],
        "max_pages": MAX_KEPT_PAGES,
        "patience_ms": PATIENCE_MS,
    }
    return source.replace("__CONFIG__", json.dumps(config))


async def service_worker(datasette, request, route_patterns: dict[str, str]):
    return Response(
        worker_script(datasette, route_patterns),
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


# ---------------------------------------------------------------- a game's offline pack

SAMPLES = 40  # pages of a part rendered to estimate its size (spread evenly over it): within 5% on the real pack
_MEASURES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_MEASURING: ContextVar[bool] = ContextVar("measuring_a_pack", default=False)


# What the pack's script follows on a page of a part, as it finds them: a list's next page, a replay's next step.
NEXT_PAGE = "nav.pages a[rel=next], nav.pager a[rel=next]"
NEXT_STEP = "a[rel=next]"


def pack_parts(datasette, paths: Paths, contents: dict) -> list[dict]:
    """The pack's parts, each a list of page URLs (``follow``: the links its script follows on them as well): the
    pages that lead to the others (the lists page by page, the comparisons of consecutive versions, patch notes),
    the rules in force, older versions of the rules, keywords, rulings, cards, replays, and, left out unless chosen
    (``chosen``: it is large), every step of every replay. Each URL is one the pages link to (a rule's permalink
    names its version; rulings link a keyword by its term alone, the newest version's page)."""
    game = contents["game"]
    newest = [book for book in contents["rulebooks"] if book["is_newest"]]
    older = [book for book in contents["rulebooks"] if not book["is_newest"]]
    leading = [
        paths.home(),
        paths.offline_pack(game),
        *(paths.rules_index(game, rulebook=book["rulebook"]) for book in newest),
        *(paths.rules_index(game, book["version"], book["rulebook"]) for book in contents["rulebooks"]),
        paths.rulings_index(game=game),
        *(paths.rulings_index(document=document) for document in contents["rulings_documents"]),
        paths.cards_index(game=game),
        *(paths.diff(game, pair["old"], pair["new"], pair["rulebook"]) for pair in contents["comparisons"]),
        *(paths.patch_notes(game, notes) for notes in contents["patch_notes"]),
    ]
    if contents["replays"]:
        leading += [paths.replays_index(), *(paths.replays_index(tag=tag) for tag in contents["replay_tags"])]
        leading.append(str(datasette.urls.path("dispute")))
    if contents["has_bans"]:
        leading.append(paths.bans(game))
    if contents["has_infractions"]:
        leading.append(paths.infractions(game))
    rule = lambda row: paths.version_rule(game, row["version"], row["number"], row["rulebook"])  # noqa: E731
    named = lambda books: ", ".join(f"{book['title']} {book['label'] or book['version']}" for book in books)  # noqa: E731
    keywords = [paths.keyword(game, row["term"], row["version"]) for row in contents["keywords"]] + [
        paths.keyword(game, row["term"]) for row in contents["keywords"] if row["is_newest"] and not row["rulebook"]
    ]
    replays = contents["replays"]
    parts = [
        ("leading", "Home, rule trees, lists, comparisons and the dispute builder", leading, NEXT_PAGE),
        (
            "rules",
            f"Rules in force: {named(newest)}",
            [rule(row) for row in contents["rules"] if row["is_newest"]],
            None,
        ),
        (
            "older_rules",
            f"Older rules: {named(older)}",
            [rule(row) for row in contents["rules"] if not row["is_newest"]],
            None,
        ),
        ("keywords", "Keywords", keywords, NEXT_PAGE),
        ("rulings", "Rulings", [paths.ruling(ruling) for ruling in contents["rulings"]], None),
        ("cards", "Cards", [paths.card(slug) for slug in contents["cards"]], None),
        ("replays", "Replays", [paths.replay(replay["id"]) for replay in replays], None),
        (
            "replay_steps",
            "Every step of every replay",
            [paths.replay(replay["id"]) + "?step=1" for replay in replays if replay["step_count"]],
            NEXT_STEP,
        ),
    ]
    steps = sum(replay["step_count"] or 0 for replay in replays)
    return [
        {
            "id": part,
            "label": label,
            "urls": (unique := list(dict.fromkeys(urls))),
            "follow": follow,
            "chosen": follow != NEXT_STEP,  # every step of every replay is ten times the rest: asked for
            # the pages it holds (a list's next pages are counted when it is measured, `_measure`)
            "pages": steps if follow == NEXT_STEP else len(unique),
        }
        for part, label, urls, follow in parts
        if urls
    ]


async def _measure(datasette, part: dict) -> tuple[int, int]:
    """(pages, bytes) of a part, as the pack's script will keep it. A part whose lists it follows page by page
    (``NEXT_PAGE``) is walked the same way, every page rendered: exact. Another holds a known number of pages (its
    URLs; every replay's steps), their size estimated from ``SAMPLES`` of its URLs spread evenly over it."""
    if part["follow"] == NEXT_PAGE:
        sizes = await _walked(datasette, part["urls"])
        return len(sizes), sum(sizes)
    urls, count = part["urls"], min(SAMPLES, len(part["urls"]))
    picked = sorted({round(i * (len(urls) - 1) / max(1, count - 1)) for i in range(count)})
    sizes = []
    for index in picked:
        response = await datasette.client.get(urls[index])
        if response.status_code == 200:
            sizes.append(len(response.content))
    return part["pages"], round(sum(sizes) / len(sizes) * part["pages"]) if sizes else 0


async def _walked(datasette, urls: list[str]) -> list[int]:
    """The size of every page the pack's script keeps from ``urls``: each, and the next pages its pager links
    (each page once), as ``static/offline.js`` follows them."""
    queue, seen, sizes = list(urls), set(urls), []
    while queue:
        url = queue.pop()
        response = await datasette.client.get(url)
        if response.status_code != 200:
            continue
        sizes.append(len(response.content))
        following = _next_page(response.text)
        if following:
            following = urljoin(url, following).partition("#")[0]
            if following not in seen:
                seen.add(following)
                queue.append(following)
    return sizes


class _Pager(HTMLParser):
    """The first ``NEXT_PAGE`` link of a page: an ``a rel=next`` inside a ``nav`` of class pages or pager."""

    def __init__(self) -> None:
        super().__init__()
        self.inside, self.found = False, None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        named = dict(attrs)
        if tag == "nav":
            self.inside = bool({"pages", "pager"} & set((named.get("class") or "").split()))
        elif tag == "a" and self.inside and self.found is None and "next" in (named.get("rel") or "").split():
            self.found = named.get("href")

    def handle_endtag(self, tag: str) -> None:
        if tag == "nav":
            self.inside = False


def _next_page(html: str) -> str | None:
    pager = _Pager()
    pager.feed(html)
    return pager.found


async def _measures(datasette, database, game: str, parts: list[dict]) -> dict[str, tuple[int, int]]:
    """Each part's (pages, bytes), measured once per database file and game (the database is read-only). The
    pack page is one of its own pages: rendered while it is measured, it says no sizes rather than measure again."""
    if _MEASURING.get():
        return {part["id"]: (part["pages"], 0) for part in parts}
    stat = os.stat(database.path) if database.path else None
    key = (database.path, stat and (stat.st_size, stat.st_mtime_ns), game)
    held = _MEASURES.setdefault(datasette, {})
    if key not in held:
        measuring = _MEASURING.set(True)  # seen by the pages rendered for it (Datasette's client: the same task)
        try:
            held[key] = {part["id"]: await _measure(datasette, part) for part in parts}
        finally:
            _MEASURING.reset(measuring)
    return held[key]


async def pack(datasette, request):
    game = url_var(request, "game")
    database = await rules_database(datasette)
    contents = await read(database, lambda conn: offline_pack.pack_contents(conn, game))
    if contents is None:
        raise NotFound(f"No game “{game}”.")
    paths = Paths(datasette, database.name)
    parts = pack_parts(datasette, paths, contents)
    measures = await _measures(datasette, database, game, parts)
    for part in parts:
        part["pages"], part["bytes"] = measures[part["id"]]
    data = {
        "game": game,
        "name": contents["name"],
        "cache": f"judges-pack-{game}",
        "pages": sum(part["pages"] for part in parts if part["chosen"]),
        "bytes": sum(part["bytes"] for part in parts if part["chosen"]),
        "parts": parts if wants_json(request) else [{k: v for k, v in part.items() if k != "urls"} for part in parts],
    }
    return await respond(
        datasette, request, database, "offline_pack.html", data, script_url=assets.url(datasette, "offline.js")
    )


def views(route_patterns: dict[str, str]) -> dict:
    """The views of this module, the worker told the plugin's every route (``route_patterns``)."""

    async def worker(datasette, request):
        return await service_worker(datasette, request, route_patterns)

    return {"manifest": manifest, "service_worker": worker, "offline_pack": pack}
