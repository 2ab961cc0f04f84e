"""The replay pages: a library replay or a dispute typed in, the board at every step, what-ifs.

* `/replays/<id>`: a library replay. `?step=N` shows the board after step N (0: the starting board), `?variant=`
  one of the scenario's variants, `?path=...&value=...` a what-if (one input of the scenario changed): both runs
  side by side, their outcomes and the first step where they diverge.
* `/dispute/replay?s=`: a dispute built in the dispute builder (dispute_pages.py), the scenario in the URL
  (`rules_db.replay_view.encode`), replayed like a library replay.

The engine runs in the sandbox (rules_db.sandbox) through `rules_db.replay_view.Replays`, in a thread, so the
event loop keeps serving other pages (`run`, which the dispute builder's pages use too). Nothing is written to
the database.
"""

from __future__ import annotations

import asyncio
import re
import sys
from collections import OrderedDict
from functools import cache
from typing import Any
from urllib.parse import urlencode

from datasette.utils.asgi import Response

from datasette_plugins import assets
from datasette_plugins.replay_drawing import Drawing, Marks, object_labels
from datasette_plugins.web import Paths, not_found, read, respond, rules_database, url_var, wants_json
from rules_db import dispute, queries, replay_view, typed_actions

GAME = "riftbound"  # the game the engine plays
DISPUTE_SOURCE = "your dispute"  # how errors name a scenario typed into the page (never a file of the server)
_PATH = re.compile(r"^[A-Za-z0-9_.#-]{1,200}$")

KEPT = ("replay", "dispute_replay")  # pages the page cache may keep (GET only; a failed replay answers 503)

ROUTE_PATTERNS = {
    "replay": r"^/replays/(?P<replay_id>[^/]+?)(?P<format>\.json)?$",
    "dispute_replay": r"^/dispute/replay(?P<format>\.json)?$",
}


@cache
def service() -> replay_view.Replays:
    return replay_view.Replays()


async def run(method: str, *args, **kwargs) -> dict:
    """A call to the replay service, in a thread: the event loop keeps answering other pages."""
    return await asyncio.to_thread(getattr(service(), method), *args, **kwargs)


# ---------------------------------------------------------------- replays


async def replay(datasette, request):
    replay_id = url_var(request, "replay_id")
    database = await rules_database(datasette)
    # The steps as the build stored them are part of the page's JSON; its HTML shows the engine's.
    stored = await read(database, lambda conn: queries.replay_page(conn, replay_id, wants_json(request)))
    if stored is None:
        every = {"href": Paths(datasette, database.name).replays_index(), "label": "Every replay"}
        return await not_found(datasette, request, database, f"No replay “{replay_id}”.", every=every)
    row = stored["replay"]
    paths = Paths(datasette, database.name)
    return await _replay_page(
        datasette,
        request,
        database,
        text=row["scenario"],
        source=_library_source(row),
        base=paths.replay(replay_id),
        keep={},
        extra={
            "replay": row,
            "steps": stored["steps"],
            "sequence": stored["sequence"],
            "copy_url": _copy_url(datasette, row),
        },
        trusted=True,
    )


def _copy_url(datasette, row: dict) -> str | None:
    """The dispute builder holding a copy of a library replay's scenario, for a judge to edit (none when the
    scenario is not stored or too long for an address)."""
    token = replay_view.encode(row["scenario"]) if row["scenario"] else ""
    return Paths(datasette, "").dispute(token) if token and len(token) <= replay_view.MAX_URL_TOKEN else None


def _library_source(row: dict) -> str:
    """How errors name a library replay's scenario: its file's name (never the server's path to it)."""
    return (row["file"] or row["id"]).rsplit("/", 1)[-1]


async def replay_library(database) -> None:
    """Every library replay (as ruled) replayed once and kept (``Replays``), the whole library: a server's
    worker does this before it serves (``warm_up``), so that a judge's first view of a replay does not wait for its
    YAML to be parsed and checked and the engine to run (half of that page's CPU, 8 ms)."""
    for row in await read(database, lambda conn: queries.library_scenarios(conn, service().library_size)):
        await run("view", row["scenario"], _library_source(row), trusted=True, boards=_boards(True, 0))


async def dispute_replay(datasette, request):
    database = await rules_database(datasette)
    try:
        text = replay_view.decode(request.args.get("s", ""))
    except ValueError as error:
        problem = {"message": str(error), "line": None, "field": None}
        page = {"replay": None, "view": None, "error": problem, "script_url": script_url(datasette)}
        return await respond(datasette, request, database, "replay.html", page, status=400)
    return await _replay_page(
        datasette,
        request,
        database,
        text=text,
        source=DISPUTE_SOURCE,
        base=datasette.urls.path("dispute/replay"),
        keep={"s": request.args.get("s", "")},
        extra={"replay": None, "dispute_url": Paths(datasette, "").dispute(request.args.get("s", ""))},
    )


async def _replay_page(datasette, request, database, *, text, source, base, keep, extra, trusted=False):
    """A replay's page: the alternatives (as ruled, each variant), the board at the chosen step, the steps in
    words, the outcome, the what-if forms and, when one is asked, the what-if beside the original. ``trusted``:
    the scenario is the library's (``Replays.view``); a what-if of it is not."""
    paths = Paths(datasette, database.name)
    variant = request.args.get("variant") or None
    if text is None:  # a replay stored without its scenario: only its steps, as stored
        page = {**extra, "view": None, "script_url": script_url(datasette)}
        return await respond(datasette, request, database, "replay.html", page)
    # A library replay's page reads only the boards of the step it shows; its JSON and a what-if read every one.
    lazy = trusted and not wants_json(request) and not request.args.get("path")
    asked = _step_number(request.args.get("step"), sys.maxsize, None)
    original = await _view(text, source, variant, trusted, _boards(lazy, asked))
    if original.get("error"):
        page = {**extra, "view": original, "error": original["error"], "script_url": script_url(datasette)}
        return await respond(datasette, request, database, "replay.html", page, status=_status(original))
    try:
        changes = _what_if_change(request.args, original)
    except ValueError as error:
        changes, what_if_error = None, str(error)
    else:
        what_if_error = None
    shown, comparison, status = original, None, 200
    if changes:
        shown = await run("view", text, source, variant, changes)
        if shown.get("error"):
            what_if_error, status, shown = shown["error"]["message"], _status(shown), original
            changes = None
        else:
            comparison = replay_view.compare(original, shown)
    step = _step_number(request.args.get("step"), len(shown["steps"]), comparison)
    if lazy and step != asked:  # a step past the last: the last one's boards
        original = shown = await _view(text, source, variant, trusted, _boards(lazy, step))
    scenario = shown["scenario"]
    numbers = [n for view in (original, shown) for s in view["steps"] for n in s["rules"]]
    cards = [name["real"] or name["card"] for view in (original, shown) for name in view["names"].values()]
    cited = await CITED.rules(database, scenario["cited_version"], scenario["rules_version"], numbers)
    slugs = await CITED.card_slugs(database, cards)
    as_ruled = {**keep, **({"variant": variant} if variant else {})}  # the replay without a what-if
    state = {**as_ruled, **_change_params(changes)}
    page = {
        **extra,
        "script_url": script_url(datasette),
        "view": shown,
        "original": original if changes else None,
        "comparison": comparison,
        "what_if_error": what_if_error,
        "step": step,
        "cited": cited,
        "labels": (labels := object_labels(paths, {**original["names"], **shown["names"]}, slugs)),
        "mark": (mark := Marks(paths, labels, cited, CITED.links(database, paths))),
        "nav": (nav := _nav(base, state, step, len(shown["steps"]), keep, scenario["variants"], variant)),
        "draw": Drawing(mark=mark, paths=paths, nav=nav),
        "state": state,
        "keep": keep,
        "variant": variant,
        "change_words": _change_words(changes, original) if changes else None,
        "what_if_links": _what_if_links(base, as_ruled, original),
        "deciding": _deciding(base, as_ruled, original, nav),
        # a dispute states no outcome: what its actions came to, as the dispute builder says it
        "came_to": dispute.verdict(original) if not original["outcome"] and not lazy else None,
    }
    if wants_json(request):
        return Response.json(_json(page), status=status, default=str)
    return await respond(datasette, request, database, "replay.html", page, status=status)


async def _view(text: str, source: str, variant: str | None, trusted: bool, boards: list[int] | None) -> dict:
    """A replay's view: a library replay kept already read here, on the event loop, anything else in a thread."""
    kept = service().kept_view(text, source, variant, boards=boards) if trusted else None
    return kept if kept is not None else await run("view", text, source, variant, trusted=trusted, boards=boards)


def _boards(lazy: bool, step: int) -> list[int] | None:
    """The boards a replay page asks the view for: those of the step shown, or (None) every one."""
    return replay_view.shown_boards(step) if lazy else None


def _status(view: dict) -> int:
    """503 when a replay failed for a passing reason (the server busy, a deadline under load): the page cache
    keeps no such page; 200 for a scenario's own error, which is the page's answer."""
    return 503 if view["error"].get("transient") else 200


def script_url(datasette) -> str:
    return assets.url(datasette, "replay.js")


def _json(page: dict) -> dict:
    """The page's data as JSON: the view (with a board for every step), the comparison, the step shown."""
    keys = (
        "replay",
        "steps",
        "sequence",
        "view",
        "original",
        "comparison",
        "step",
        "cited",
        "labels",
        "variant",
        "what_if_error",
        "deciding",
    )
    return {key: page.get(key) for key in keys}


def _step_number(raw: str | None, count: int, comparison: dict | None) -> int:
    if raw is None and comparison and comparison["marked"]:
        return comparison["marked"]
    try:
        return max(0, min(int(raw or 0), count))
    except ValueError:
        return 0


def _nav(base: str, state: dict, step: int, count: int, keep: dict, variants: list[dict], variant) -> dict:
    as_ruled = {**keep, **({"variant": variant} if variant else {})}

    def at(number: int, **params) -> str:
        query = urlencode({**params, **({"step": number} if number else {})})
        return base + (f"?{query}" if query else "") + "#board"

    return {
        "step": lambda number: at(number, **state),
        "prev": at(step - 1, **state) if step > 0 else None,
        "next": at(step + 1, **state) if step < count else None,
        "first": at(0, **state),
        "last": at(count, **state),
        "permalink": at(step, **state),
        "original": at(0, **as_ruled),
        "original_step": lambda number: at(number, **as_ruled),
        "alternatives": [{"id": None, "title": "As ruled", "url": at(0, **keep)}]
        + [{"id": v["id"], "title": v["title"], "url": at(0, **keep, variant=v["id"])} for v in variants],
        "form_action": base + "#compare",
    }


class CitedRules:
    """What replay pages look up in the database, kept per database file (``queries.file_identity``): the rules
    that replay steps cite, by cited number (a what-if cites mostly what its original does, and following a rule
    of an older version to the newest one walks the lineage), and the card pages of the engine's cards, by name
    (every replay page names a few of the same cards); each is looked up once per server process."""

    def __init__(self, size: int = 20_000):
        self.size = size
        self.kept: OrderedDict[tuple, Any] = OrderedDict()
        self._links: OrderedDict[tuple, dict] = OrderedDict()

    def links(self, database, paths: Paths) -> dict:
        """The cited rules' links as HTML (``Marks.cite``), kept per database file and site URL: a rule's link is
        the same on every replay page citing it, and making them was a fifth of a replay page's CPU."""
        scope = (queries.file_identity(database.path) or database.name, paths.base_url)
        kept = self._links.setdefault(scope, {})
        self._links.move_to_end(scope)
        while len(self._links) > 4:  # a server serves one database; the tests build many
            self._links.popitem(last=False)
        if len(kept) > self.size:
            kept.clear()
        return kept

    async def rules(self, database, cited_version: str, version: str, numbers: list[str]) -> dict[str, list[dict]]:
        def look_up(conn, missing: list[str]) -> dict | None:
            return queries.cited_rules(conn, GAME, cited_version, version, missing) or None

        rows = await self._kept_or_read(database, ("rules", cited_version, version), numbers, look_up)
        # None: the versions cannot be placed, so nothing is linked (and nothing kept)
        return {} if rows is None else {number: found or [] for number, found in rows.items()}

    async def card_slugs(self, database, names: list[str]) -> dict[str, str]:
        """The card page (slug) of each of these card names that the card list holds (``queries.card_slugs``)."""
        rows = await self._kept_or_read(
            database, ("card slugs",), names, lambda conn, missing: queries.card_slugs(conn, GAME, missing)
        )
        return {name: slug for name, slug in (rows or {}).items() if slug}

    async def _kept_or_read(self, database, scope: tuple, keys: list[str], look_up) -> dict | None:
        """Each key's value in ``scope``, read (``look_up(conn, missing)``: a mapping, or None when it finds
        nothing to keep) only for the keys not kept; a key the mapping lacks is kept as None."""
        scope = (queries.file_identity(database.path) or database.name, *scope)
        wanted = list(dict.fromkeys(keys))
        missing = [key for key in wanted if (*scope, key) not in self.kept]
        if missing:
            found = await read(database, lambda conn: look_up(conn, missing))
            if found is None:
                return None
            for key in missing:
                self.kept[(*scope, key)] = found.get(key)
        rows = {}
        for key in wanted:
            self.kept.move_to_end((*scope, key))
            rows[key] = self.kept[(*scope, key)]
        while len(self.kept) > self.size:
            self.kept.popitem(last=False)
        return rows


CITED = CitedRules()


# ---------------------------------------------------------------- what-ifs


def _what_if_change(args, original: dict) -> list[dict] | None:
    """The change a what-if form asks for, as [{path, value}]; None when none is asked. Compound forms (an extra
    unit, a keyword) are put together here, so their canonical URL is a plain path and value."""
    path = args.get("path", "").strip()
    if not path:
        return None
    if not _PATH.match(path):
        raise ValueError(f"the what-if names no input of this scenario: {path[:80]!r}")
    if args.get("add_card"):
        taken = set(original["names"])  # of len(taken) + 1 ids, one is free: the ids are never used up
        unit = {"id": next(f"extra{n}" for n in range(1, len(taken) + 2) if f"extra{n}" not in taken)}
        unit["card"] = args["add_card"]
        if args.get("add_might", "").strip():
            unit["might"] = typed_actions.parse_value(args["add_might"])
        if ".battlefields." in path:
            unit["controller"] = args.get("add_controller") or original["inputs"]["turn_player"]
        return [{"path": path.removesuffix(".-") + ".-", "value": unit}]
    if args.get("keyword"):
        path = f"{path}.{args['keyword']}"
        return [{"path": path, "value": typed_actions.parse_value(args.get("value") or "1")}]
    return [{"path": path, "value": typed_actions.parse_value(args.get("value", ""))}]


def _what_if_links(base: str, state: dict, original: dict) -> dict:
    """What-ifs one tap away: each answered question answered otherwise, and each other player's turn."""

    def url(path: str, value) -> str:
        return _what_if_url(base, state, {"path": path, "value": value})

    inputs = original["inputs"]
    return {
        "choices": [
            {**choice, "options": [{**alt, "url": url(choice["path"], alt["value"])} for alt in choice["alternatives"]]}
            for choice in inputs["choices"]
        ],
        "turns": [
            {"player": player, "url": url("setup.turn.player", player)}
            for player in inputs["players"]
            if player != inputs["turn_player"]
        ],
    }


def _deciding(base: str, state: dict, original: dict, nav: dict) -> list[dict]:
    """The steps that decide the outcome (rules_db.verdict), each with its link and the what-ifs that flip it, in
    words and linked."""
    found = []
    for decided in original.get("decided") or []:
        number = decided["number"]
        if not 0 < number <= len(original["steps"]):
            continue
        step = original["steps"][number - 1]
        flips = [
            {
                "words": _change_words([change], original),
                "url": _what_if_url(base, state, change),
            }
            for change in decided["flips"]
        ]
        found.append(
            {
                "number": number,
                "url": nav["step"](number),
                "words": step["words"],
                "rules": step["rules"],
                "flips": flips,
            }
        )
    return found


def _what_if_url(base: str, as_ruled: dict, change: dict) -> str:
    """The what-if's page: the replay as ruled with one input changed, opened at the comparison."""
    return base + "?" + urlencode({**as_ruled, **_change_params([change])}) + "#compare"


def _change_params(changes: list[dict] | None) -> dict:
    if not changes:
        return {}
    return {"path": changes[0]["path"], "value": replay_view.flow(changes[0]["value"])}


def _change_words(changes: list[dict], original: dict) -> str:
    """The what-if in a sentence: the input (a unit's field, an action's answer, the turn) and its new value."""
    path, value = changes[0]["path"], changes[0]["value"]
    inputs = original["inputs"]
    for unit in inputs["units"]:
        if path.startswith(unit["path"] + "."):
            name = original["names"][unit["id"]]
            return f"{name['card']} ({name['owner']}) {_unit_field_words(path[len(unit['path']) + 1 :], value)}"
    if path == "setup.turn.player":
        return f"it is {value}'s turn"
    if path.startswith("actions.") and path.endswith(".pick"):
        return f"action {int(path.split('.')[1]) + 1} is answered {replay_view.flow(value)}"
    if path.endswith(".-") and isinstance(value, dict):
        return f"an extra {value.get('card')} at {_location_words(path.removesuffix('.-'), original)}"
    return f"{path} = {replay_view.flow(value)}"


_STATES = {"exhausted": "exhausted", "stunned": "stunned", "buff": "buffed"}  # a unit's yes-or-no fields, as said


def _unit_field_words(field: str, value) -> str:
    """A unit's input changed, said of the unit ("had Might 9", "were not exhausted", "had Assault 2")."""
    if field == "might":
        return f"had Might {replay_view.flow(value)}"
    if field == "damage":
        return f"had {replay_view.flow(value)} damage"
    if field in _STATES and isinstance(value, bool):
        return f"were {'' if value else 'not '}{_STATES[field]}"
    if field.startswith("keywords."):
        return f"had {field.removeprefix('keywords.')} {replay_view.flow(value)}"
    return f"{field.replace('.', ' ')} = {replay_view.flow(value)}"


def _location_words(path: str, original: dict) -> str:
    """Where an extra unit goes, as the what-if form names it ("A's base", a battlefield's card), not its path."""
    for location in original["inputs"]["locations"]:
        if location["path"] == path:
            return location.get("label") or original["names"][location["object"]]["card"]
    return path


VIEWS = {
    "replay": replay,
    "dispute_replay": dispute_replay,
}
