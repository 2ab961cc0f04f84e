"""The indexes a judge browses: the rule tree of each rulebook version, the lists of rulings,
cards and replays with their filters, and a game's bans. Each answers HTML or JSON like the other pages (``pages``).
"""

from __future__ import annotations

from datasette.utils.asgi import Response

from datasette_plugins import render
from datasette_plugins.request_limits import whole_number
from datasette_plugins.web import Paths, ask, not_found, respond, url_var
from rules_db import card_status, queries


def _arg(request, name: str) -> str | None:
    """A filter from the query string, None when absent or blank."""
    value = (request.args.get(name) or "").strip()
    return value or None


async def rule_tree(datasette, request):
    """Chapters, sections and top-level rules of a game's rules; ``?number=`` jumps to a rule of that version."""
    game, number = url_var(request, "game"), _arg(request, "number")
    version, rulebook = _arg(request, "version"), _arg(request, "rulebook")
    database, data = await ask(datasette, queries.rule_tree, game, version, rulebook, number is None)
    if data is None:
        what = (
            f"version {version} of {game}'s {rulebook or 'rules'}" if version else f"{rulebook or 'rules'} for {game}"
        )
        return await not_found(datasette, request, database, f"There are no {what}.")
    if number:
        paths = Paths(datasette, database.name)
        document = data["document"]
        return Response.redirect(
            paths.version_rule(game, document["version"], number.rstrip("."), document["rulebook"])
        )
    paths, document = Paths(datasette, database.name), data["document"]
    tree_html = render.outline(
        data["tree"],
        lambda number: paths.version_rule(game, document["version"], number, document["rulebook"]),
    )
    return await respond(datasette, request, database, "rule_tree.html", data, tree_html=tree_html)


async def rulings_index(datasette, request):
    order = "newest" if request.args.get("order") == "newest" else "position"
    filters = {name: _arg(request, name) for name in ("game", "document", "source", "category", "card", "rule")}
    database, data = await ask(
        datasette, queries.rulings_index, *filters.values(), order, whole_number(request, "page", 1)
    )
    return await respond(datasette, request, database, "rulings_index.html", data)


async def cards_index(datasette, request):
    filters = [_arg(request, name) for name in ("game", "name", "set", "type", "domain")]
    database, data = await ask(
        datasette,
        queries.cards_index,
        *filters,
        whole_number(request, "page", 1),
        _arg(request, "legality"),
        _arg(request, "format"),
    )
    return await respond(datasette, request, database, "cards_index.html", data)


async def bans(datasette, request):
    game = url_var(request, "game")
    database, data = await ask(datasette, card_status.bans_page, game)
    if data is None or not (data["formats"] or data["sets"]):
        return await not_found(datasette, request, database, f"No bans are known for {game}.")
    return await respond(datasette, request, database, "bans.html", data)


async def replays_index(datasette, request):
    database, data = await ask(
        datasette,
        queries.replays_index,
        _arg(request, "verdict"),
        whole_number(request, "ruling"),
        _arg(request, "tag"),
        whole_number(request, "page", 1),
    )
    return await respond(datasette, request, database, "replays_index.html", data)


VIEWS = {
    "rule_tree": rule_tree,
    "rulings_index": rulings_index,
    "cards_index": cards_index,
    "replays_index": replays_index,
    "bans": bans,
}
