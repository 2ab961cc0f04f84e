"""The dispute builder's pages: a dispute built with forms, one at a time, or typed as YAML.

* `/dispute`: a new dispute, built with forms (cards, places, numbers; then the actions the rules allow, one
  by one) or typed as YAML; the scenario travels in the URL (`?s=`, see `rules_db.replay_view.encode`).
  `/dispute/replay?s=` (replay_pages.py) replays it like a library replay; `/dispute/download?s=` gives the
  library file.

The scenario is edited by `rules_db.dispute`; the engine runs in the replay pages' sandbox service
(`replay_pages.run`). Nothing is written to the database.
"""

from __future__ import annotations

import asyncio
import json
import re
from urllib.parse import urlencode

from datasette.utils.asgi import Response

from datasette_plugins import replay_pages
from datasette_plugins.replay_drawing import Drawing, Marks, object_labels
from datasette_plugins.replay_pages import DISPUTE_SOURCE
from datasette_plugins.web import Paths, read, respond, rules_database, wants_json
from rules_db import dispute as builder
from rules_db import queries, replay_view
from rules_db.typed_actions import typed_action

ROUTE_PATTERNS = {
    "dispute": r"^/dispute(?P<format>\.json)?$",
    "dispute_download": r"^/dispute/download$",
}


async def dispute(datasette, request):
    database = await rules_database(datasette)
    token = request.args.get("s", "")
    yaml_error = None
    typed = None
    if request.method == "POST":
        form = await request.post_vars()
        typed = form.get("yaml", "")
        yaml_error = await asyncio.to_thread(builder.check_text, typed, DISPUTE_SOURCE)
        if yaml_error is None:
            return Response.redirect(Paths(datasette, "").dispute(replay_view.encode(typed)))
    judged_under = await read(database, lambda conn: queries.rules_versions(conn, replay_pages.GAME))
    new_dispute = builder.new_dispute(judged_under[-1]) if judged_under else builder.NEW_DISPUTE
    try:
        text = replay_view.decode(token) if token else new_dispute
    except ValueError as error:
        text, yaml_error = new_dispute, {"message": str(error), "line": None, "field": None}
    op = request.args.get("op")
    refusal = None
    if op and request.method != "POST":
        try:
            if op == "version" and request.args.get("version") not in judged_under:
                raise ValueError(f"the database holds no Core Rules {request.args.get('version')!r} to judge under")
            args = dict(request.args)
            if op == "pick":  # the objects ticked in a picker (`_picker`): the action they fill, tried as typed
                args["action"] = _picked(args.get("base", ""), args.get("slot", ""), request.args.getlist("pick"))
            changed, refusal = await _build(text, "act" if op == "pick" else op, args)
        except ValueError as error:
            yaml_error = {"message": str(error), "line": None, "field": None}
        else:
            if changed is not None:
                kept = {key: request.args[key] for key in _KEPT_FIELDS if op == "add" and request.args.get(key)}
                url = Paths(datasette, "").dispute(replay_view.encode(changed))
                return Response.redirect(
                    url + ("&" + urlencode(kept) if kept else "") + f"#{_SECTIONS.get(op, 'setup')}"
                )
    token = replay_view.encode(text)
    view, legal = await asyncio.gather(  # legal: the actions allowed now, the ones done, where the last began
        replay_pages.run("view", text, DISPUTE_SOURCE, deciding=False),  # the builder states its own verdict
        replay_pages.run("legal", text, DISPUTE_SOURCE),
    )
    if view.get("error") and yaml_error is None:
        yaml_error = view["error"]
    names = view.get("names", {})
    numbers = [n for s in view.get("steps", []) for n in s["rules"]] + _refusal_rules(refusal)
    numbers += [k["rule"] for k in builder.unit_keywords()]
    cards = [name["real"] or name["card"] for name in names.values()]
    version = view["scenario"]["rules_version"] if view.get("scenario") else replay_view.RULES_VERSION
    # a version the database lacks is shown as the one chosen, with the version the engine judges it as
    readings_of = view["scenario"]["readings_of"] if view.get("scenario") else version
    cited = await replay_pages.CITED.rules(database, replay_view.RULES_VERSION, version, numbers)
    slugs = await replay_pages.CITED.card_slugs(database, cards)
    card_list = await read(database, lambda conn: queries.engine_card_names(conn, replay_pages.GAME))
    paths = Paths(datasette, database.name)
    just_now = _since(view, legal)
    data = {
        "script_url": replay_pages.script_url(datasette),
        "problem_section": _problem_section(typed, op),
        # an action typed and refused, or not read, stays in its field to be mended
        "tried_action": request.args.get("action", "") if op == "act" and (refusal or yaml_error) else "",
        "text": typed if typed is not None else text,
        "lines": (typed if typed is not None else text).splitlines(),
        "yaml_error": yaml_error,
        "refusal": refusal,
        "refusal_rules": _refusal_rules(refusal),
        "judged_under": judged_under,  # the Core Rules versions a dispute may be judged under
        "version": version,
        "readings_of": readings_of,
        "view": view if not view.get("error") else None,
        "legal": legal,
        "legal_groups": _grouped(legal.get("actions", [])),
        # what the actions came to, and the steps of the last one: shown with the board and the actions allowed
        "verdict": builder.verdict(view) if legal.get("done") and not view.get("error") else None,
        "just_now": [step for step in just_now if _telling(step)],
        "just_now_steps": {"count": len(just_now), "first": just_now[0]["number"] if just_now else None},
        "keywords": builder.unit_keywords(),
        "defaults": {key: request.args.get(key, "") for key in _KEPT_FIELDS if not op},
        "document": builder.document(text),
        "cards": (modelled := builder.builder_cards()),
        "unmodelled": sorted(card_list - {card["real"] or card["name"] for card in modelled}),
        "cited": cited,
        "labels": (labels := object_labels(paths, names, slugs)),
        "mark": (mark := Marks(paths, labels, cited, replay_pages.CITED.links(database, paths))),
        "draw": Drawing(mark=mark, paths=paths),
        "token": token,
        "share_url": Paths(datasette, "").dispute(token),
        "replay_url": datasette.urls.path("dispute/replay") + "?" + urlencode({"s": token}),
        "download_url": datasette.urls.path("dispute/download") + "?" + urlencode({"s": token}),
        "build_url": lambda **params: datasette.urls.path("dispute") + "?" + urlencode({"s": token, **params}),
    }
    if wants_json(request):
        return Response.json(
            {k: data[k] for k in ("text", "yaml_error", "refusal", "view", "legal", "verdict")}, default=str
        )
    return await respond(datasette, request, database, "dispute.html", data)


def _since(view: dict, legal: dict) -> list[dict]:
    """The steps the last action made (``legal["since"]``: the first of them)."""
    return [step for step in view.get("steps", []) if legal.get("since") and step["number"] >= legal["since"]]


def _grouped(actions: list[dict]) -> list[dict]:
    """The actions allowed, those of one player doing one thing with one card or ability together (in the order
    the first of each came): a spell with many legal targets is one entry a judge opens, not dozens of buttons to
    scroll past; an "any number of" group (355.13) is a picker of the objects to tick (`_picker`)."""
    groups: dict[tuple, list[dict]] = {}
    for choice in actions:
        action = choice["action"]
        key = (action.get("do"), action.get("by"), action.get("card") or action.get("source"), action.get("ability"))
        groups.setdefault(key, []).append(choice)
    return [{"choices": group, "picker": _picker(group)} for group in groups.values()]


def _picker(group: list[dict]) -> dict | None:
    """For ways of one action that differ only in which objects fill one slot, several of them at once (an "any
    number of" group: 2^N ways for N objects): the action without that slot, the slot and the objects a judge may
    tick, in the order they first came. None for any other group."""
    slots = {slot for choice in group for slot in choice["action"].get("targets") or {}}
    if len(slots) != 1:
        return None
    (slot,) = slots
    base = {key: value for key, value in group[0]["action"].items() if key != "targets"}
    objects: dict[str, None] = {}
    for choice in group:
        action = dict(choice["action"])
        filled = (action.pop("targets", None) or {}).get(slot, [])
        if action != base or not isinstance(filled, list):
            return None
        objects.update(dict.fromkeys(filled))
    if max(len((choice["action"].get("targets") or {}).get(slot, [])) for choice in group) < 2:
        return None
    return {"base": json.dumps(base), "slot": slot, "objects": list(objects)}


def _picked(base: str, slot: str, ticked: list[str]) -> str:
    """The action a picker's form asks for: its base with the ticked objects in its slot (none ticked: the action
    without it), as the JSON a typed action may be."""
    action = json.loads(base)
    if not isinstance(action, dict) or not slot:
        raise ValueError("the picker's form names no action to fill: open the list of actions again")
    if ticked:
        action["targets"] = {slot: list(dict.fromkeys(ticked))}
    return json.dumps(action)


def _telling(step: dict) -> bool:
    """A step worth showing as what just happened: a choice, a score, or one that changed an object or a player
    (not the cleanups and checks that changed nothing, a replay's page shows them)."""
    changed = step.get("changed") or {}
    return step["kind"] in ("choice", "scoring") or bool(changed.get("objects") or changed.get("players"))


def _refusal_rules(refusal: dict | None) -> list[str]:
    """The rules a refusal cites: the one that forbids the action, then those its message names (``Refusal.also``)."""
    return [refusal["rule"], *refusal.get("also", [])] if refusal else []


# The section of the page each form opens it at (its anchor), where its problem is said too: an action (tried,
# undone, or everyone passing) at the board with what just happened and the actions allowed now; a card or a
# keyword added at that form, to add the next; the other forms at the setup.
_SECTIONS = {"act": "now", "pick": "now", "undo": "now", "pass_round": "now", "add": "add", "keyword": "add"}
_KEPT_FIELDS = ("player", "where", "card")  # the add form's choices, offered again for the next card


def _problem_section(typed: str | None, op: str | None) -> str:
    """Where the builder's page says a problem: in the section its form opens the page at (``_SECTIONS``; YAML
    typed: "yaml"), else at the top (a damaged link)."""
    if typed is not None:
        return "yaml"
    if op:
        return _SECTIONS.get(op, "setup")
    return "top"


async def _build(text: str, op: str, args: dict) -> tuple[str | None, dict | None]:
    """One builder form applied: (the new scenario text, None), or (None, the refusal) when the form adds an
    action the rules forbid. An action is tried by the engine before it is added."""
    if op == "pass_round":
        return await _everyone_passes(text), None
    if op != "act":
        return await asyncio.to_thread(builder.edit, text, DISPUTE_SOURCE, op, args), None
    tried = await replay_pages.run("attempt", text, DISPUTE_SOURCE, typed_action(args.get("action", "")))
    if tried.get("error"):
        raise ValueError(tried["error"]["message"])
    if tried.get("refused"):
        return None, tried["refused"]
    return await asyncio.to_thread(builder.edit, text, DISPUTE_SOURCE, "append", {"action": tried["action"]}), None


async def _everyone_passes(text: str) -> str:
    """Each player passes in turn while the rules offer a pass, one pass a player at most (all players passing in
    a row ends a showdown or resolves the Chain, 347.2): each pass is an action of the list, as if tapped."""
    players = len(builder.document(text).get("setup", {}).get("players") or {}) or 2
    passes = 0
    for _ in range(players):
        offered = await replay_pages.run("legal", text, DISPUTE_SOURCE)
        passing = next((a["action"] for a in offered.get("actions", []) if a["action"]["do"] == "pass"), None)
        if passing is None:
            break
        text = await asyncio.to_thread(builder.edit, text, DISPUTE_SOURCE, "append", {"action": passing})
        passes += 1
    if not passes:
        raise ValueError("Actions: no player may pass now (the list says what the rules allow)")
    return text


async def dispute_download(datasette, request):
    try:
        text = replay_view.decode(request.args.get("s", ""))
    except ValueError as error:
        return Response.text(str(error), status=400)
    name = builder.document(text).get("meta", {}).get("id") or "dispute"
    filename = re.sub(r"[^A-Za-z0-9_-]", "-", str(name))[:80] + ".yaml"
    return Response(
        text,
        content_type="application/yaml; charset=utf-8",
        headers={"content-disposition": f'attachment; filename="{filename}"'},
    )


VIEWS = {
    "dispute": dispute,
    "dispute_download": dispute_download,
}
