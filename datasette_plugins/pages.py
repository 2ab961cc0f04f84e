"""The judges' pages: one view per kind of page, each answering HTML or JSON.

A view asks ``rules_db.queries`` for the page's data (run on Datasette's own
connection through ``execute_fn``), then either returns that data as JSON
(``.json`` suffix or ``?_format=json``) or renders it with a template that extends
Datasette's ``base.html``. Text from the documents reaches the page only through
``render`` (sanitised, escaped, then our own links added).
"""

from __future__ import annotations

import asyncio
import datetime
import re
from urllib.parse import unquote

from datasette.utils.asgi import BadRequest, Response

from datasette_plugins import render
from datasette_plugins.web import (
    FORMAT,
    GAME,
    SEARCH_FILTERS,
    Paths,
    ask,
    not_found,
    page_number,
    read,
    respond,
    rules_database,
    url_var,
    wants_json,
)
from rules_db import dispute as builder
from rules_db import in_force, queries, schema
from rules_db import search as search_db
from rules_db.search import refine as search_refine
from rules_db.search.models import ModelUnavailable

# A rulebook slug in a URL (/rules/riftbound/tournament/2026-07-16/204.8): a word, never a version.
_RULEBOOK = r"(?P<rulebook>[a-z][a-z-]*)"

# The rule tree sits at /rules/<game>; /rules/<table> is still Datasette's table page.
_TREE_GAME = r"(?P<game>(?!(?:{})(?:[/.]|$))[a-z0-9][a-z0-9-]*)".format("|".join(sorted(schema.TABLES)))

# Search filters, kept on every new question (the header's search box carries them too).

ROUTE_PATTERNS = {
    "home": r"^/" + FORMAT,
    "search": r"^/search" + FORMAT,
    "rule": rf"^/rules/{GAME}/(?P<number>[^/]+?){FORMAT}",
    "versioned_rule": rf"^/rules/{GAME}/(?P<version>[^/]+)/(?P<number>[^/]+?){FORMAT}",
    "rulebook_rule": rf"^/rules/{GAME}/{_RULEBOOK}/(?P<version>[^/]+)/(?P<number>[^/]+?){FORMAT}",
    "keyword": rf"^/keywords/{GAME}/(?P<term>[^/]+?){FORMAT}",
    "versioned_keyword": rf"^/keywords/{GAME}/(?P<version>[^/]+)/(?P<term>[^/]+?){FORMAT}",
    "keyword_replays": rf"^/keyword-replays/{GAME}/(?P<term>[^/]+?){FORMAT}",
    "ruling": r"^/rulings/(?P<ruling_id>\d+)" + FORMAT,
    "card": r"^/cards/(?P<slug>[^/]+?)" + FORMAT,
    "infractions": rf"^/infractions/{GAME}{FORMAT}",
    "bans": rf"^/bans/{GAME}{FORMAT}",
    "diff": rf"^/diff/{GAME}/(?P<old>[^/]+)/(?P<new>[^/]+?){FORMAT}",
    "rulebook_diff": rf"^/diff/{GAME}/{_RULEBOOK}/(?P<old>[^/]+)/(?P<new>[^/]+?){FORMAT}",
    "rule_tree": rf"^/rules/{_TREE_GAME}{FORMAT}",
    "rulings_index": r"^/rulings" + FORMAT,
    "cards_index": r"^/cards" + FORMAT,
    "replays_index": r"^/replays" + FORMAT,
    "manifest": r"^/manifest\.webmanifest$",
    "service_worker": r"^/sw\.js$",
}


_ADDRESS_WORDS = 100  # characters of an address searched for on its error page


async def error_page(datasette, request, status: int, message: str, names_nothing: bool):
    """A page Datasette or a view could not answer, in the judges' look: the search box, a way home, and for an
    address that names nothing, its words searched (``/cards/zhonyas-hourglas`` offers "cards zhonyas hourglas").
    Any other request the server could not take (``?_sort=nope``) is "not understood", its words not searched."""
    database = await rules_database(datasette)
    words = " ".join(re.findall(r"[^\W_]+", unquote(request.path)))[:_ADDRESS_WORDS]
    data = {
        "error": message,
        "title": "Server error" if status >= 500 else "Not found" if names_nothing else "Not understood",
        "search_url": Paths(datasette, database.name).search(q=words) if names_nothing and words else None,
    }
    return await respond(datasette, request, database, "not_found.html", data, status=status)


# ---------------------------------------------------------------- views


def on_day(request) -> str | None:
    """The day a page is asked for (``?on=2026-05-01``: an earlier event's), if the query string gives one; any
    other value is a 400 that says what was expected."""
    value = (request.args.get("on") or "").strip()
    if not value:
        return None
    day = in_force.iso_date(value)
    if day is None:
        raise BadRequest(f"?on= takes a day written YYYY-MM-DD (2026-05-01), not {value[:20]!r}")
    return day


async def home(datasette, request):
    today = datetime.date.today().isoformat()
    database, data = await ask(datasette, queries.home, on_day(request) or today, today)
    return await respond(datasette, request, database, "home.html", data, search_autofocus=True)


async def rule(datasette, request):
    game, number = url_var(request, "game"), url_var(request, "number")
    version, rulebook = url_var(request, "version"), url_var(request, "rulebook")
    day, on = on_day(request), None
    if day and version is None:  # /rules/riftbound/359.3?on=2026-05-01: the version in force that day
        database = await rules_database(datasette)
        on = await read(database, lambda conn: {"day": day, "version": in_force.version_on(conn, game, day)})
        version = on["version"]["reading"]["version"] if on["version"] else None
    database, data = await ask(datasette, queries.rule_page, game, number, version, rulebook)
    if data is not None and on is not None:
        data["on"] = on
    if data is None:
        what = f"version {version} of {game}'s {rulebook or 'rules'}" if version else f"rules for the game {game}"
        return await not_found(datasette, request, database, f"There are no {what}.")
    paths = Paths(datasette, database.name)
    if data["rule"] is None:
        if not rulebook:  # /rules/riftbound/2025-06-02 or /rules/riftbound/tournament: that rule tree
            segments = [segment for segment in (version, number) if segment]
            tree = await read(database, lambda conn: queries.tree_named_by(conn, game, segments))
            if tree is not None:
                return Response.redirect(paths.rules_index(game, tree["version"], tree["rulebook"]))
        return await respond(datasette, request, database, "rule_not_found.html", data, status=404)
    text_html = render.linked(data["rule"]["raw_text"], _rule_links(paths, data))
    return await respond(
        datasette,
        request,
        database,
        "rule.html",
        data,
        text_html=text_html,
    )


def _rule_links(paths: Paths, data: dict) -> list[render.Link]:
    links = []
    for ref in data["references"]:
        printed = _printed_number(ref["target_number"], ref["raw_text"])
        if ref["id"] is not None and printed:
            links.append(
                render.Link(printed, paths.rule(ref), f"{ref['number']} {ref['heading'] or ''}".strip(), number=True)
            )
    context = [data["rule"]["text"] or "", *(ancestor["preview"] or "" for ancestor in data["breadcrumb"])]
    return (
        links
        + _mention_links(paths, data["mentions"], data["document"]["version"])
        + _symbol_links(paths, data["symbols"], context, data["document"]["version"])
    )


_LETTER_IN_BRACKETS = re.compile(r"\[[A-Z]\]")


def _symbol_links(paths: Paths, symbols: list[dict], context: list[str], version: str | None) -> list[render.Link]:
    """The symbols' shorthand the rules define (``queries.symbols``), glossed wherever a text prints it; none where
    the text's ``context`` (the rule and its section, a keyword's definition) prints a bracketed letter the rules do
    not define: it uses bracketed letters as variables ("formatted as “Replace [X] with [Y]”"), [Y] is not Order. A
    definition from another version than the text's ``version`` (one defining none) names its version."""
    defined = {symbol["shorthand"] for symbol in symbols}
    if any(letter not in defined for text in context for letter in _LETTER_IN_BRACKETS.findall(text)):
        return []
    return [
        render.Link(
            symbol["shorthand"],
            paths.rule(symbol),
            symbol["meaning"],
            defined_in=symbol["number"] + ("" if symbol["version"] == version else f" of {symbol['version']}"),
        )
        for symbol in symbols
    ]


def _printed_number(target: str, reference_text: str) -> str | None:
    """How the reference prints its target: the canonical number, or its tail when the document leaves
    out the section letter ("7.10" for D.7.10). None when not printed (the middle of "557 through 563")."""
    parts = target.split(".")
    for start in range(len(parts)):
        printed = ".".join(parts[start:])
        if re.search(render.Link(printed, "", number=True).pattern(), reference_text):
            return printed
    return None


def _mention_links(paths: Paths, mentions: list[dict], version: str | None = None) -> list[render.Link]:
    return [
        render.Link(
            mention["matched_text"],
            paths.keyword(mention["game"], mention["term"], version),
            f"Keyword: {mention['term']}",
        )
        for mention in mentions
        if mention["matched_text"]
    ]


async def keyword(datasette, request):
    game, term = url_var(request, "game"), url_var(request, "term")
    version = url_var(request, "version")
    database, data = await ask(datasette, queries.keyword_page, game, term, version, page_number(request))
    if data is None:
        return await _no_keyword(datasette, request, database, game, term, "rules")
    definition = [data["defining_rule"], *data["definition"]] if data["defining_rule"] else data["definition"]
    texts = [rule["raw_text"] for rule in definition]
    symbol_links = _symbol_links(Paths(datasette, database.name), data["symbols"], texts, data["keyword"]["version"])
    return await respond(datasette, request, database, "keyword.html", data, symbol_links=symbol_links)


async def keyword_replays(datasette, request):
    """The library replays citing a keyword's rules, and whether the engine plays it."""
    game, term = url_var(request, "game"), url_var(request, "term")
    database, data = await ask(datasette, queries.keyword_replays, game, term)
    if data is None:
        return await _no_keyword(datasette, request, database, game, term, "rules or the engine")
    return await respond(datasette, request, database, "keyword_replays.html", data)


async def _no_keyword(datasette, request, database, game: str, term: str, where: str):
    """The 404 of a keyword page, with a search for the term in that game."""
    search_url = Paths(datasette, database.name).search(q=term, game=game)
    return await not_found(
        datasette, request, database, f"No keyword “{term}” in {game}'s {where}.", search_url=search_url
    )


async def ruling(datasette, request):
    digits = url_var(request, "ruling_id")
    # A number no SQLite row id can be (over 2^63) names no ruling; it is not worth converting.
    ruling_id = int(digits) if len(digits) <= 18 else None
    database, data = await ask(datasette, queries.ruling_page, ruling_id)
    if data is None:
        every = {"href": Paths(datasette, database.name).rulings_index(), "label": "Every ruling"}
        return await not_found(datasette, request, database, f"No ruling number {digits[:40]}.", every=every)
    linker = render.Linker(_ruling_links(Paths(datasette, database.name), data), words_once=True)
    return await respond(datasette, request, database, "ruling.html", data, linker=linker)


def _ruling_links(paths: Paths, data: dict) -> list[render.Link]:
    """Cited rule numbers, keyword mentions and card names, as links inside the ruling's text."""
    links = [
        render.Link(
            citation["cited_number"], paths.rule(citation), f"{citation['number']} ({citation['version']})", number=True
        )
        for citation in data["citations"]
        if citation["id"] is not None and citation["how"] != "keyword"
    ]
    links += _mention_links(paths, data["mentions"])
    for card in data["cards"]:
        links += [render.Link(surface, paths.card(card["slug"]), card["name"]) for surface in card["surfaces"]]
    return links


async def card(datasette, request):
    slug = url_var(request, "slug")
    database, data = await ask(datasette, queries.card_page, slug)
    if data is None:
        return await _card_not_found(datasette, request, database, slug)
    if day := on_day(request):  # ?on=2026-05-01: the card's bans that day
        card_id = data["card"]["id"]
        data["on"] = await read(database, lambda conn: in_force.card_bans_on(conn, card_id, day))
    card = data["card"]
    card["current_text"] = card["current_text"] or card["ability_text"]
    # The printed wording against the current one, word by word: line breaks the errata added are no change
    # (the current text above keeps them). Printed in the current wording: nothing to show.
    printed, current = (" ".join((card[name] or "").split()) for name in ("ability_text", "current_text"))
    printed_diff = queries.diff_ops(printed, current) if printed and printed != current else []
    for erratum in data["errata"]:
        erratum["diff"] = queries.diff_ops(erratum["old_text"], erratum["new_text"]) if erratum["new_text"] else []
    for erratum in data["dated_errata"]:
        erratum["diff"] = queries.diff_ops(erratum["old_text"] or "", erratum["new_text"])
    # the engine's cards that are this one, for the dispute builder (a spell goes to its owner's hand, others to base)
    data["in_builder"] = [
        {"name": found["name"], "where": "hand" if found["kind"] == "spell" else None}
        for found in builder.builder_cards()
        if found["real"] == card["name"]
    ]
    paths = Paths(datasette, database.name)
    keyword_links = [
        render.Link(
            f"[{kw['term']}{'' if kw['value'] is None else ' ' + str(kw['value'])}]",
            paths.keyword(kw["game"], kw["keyword"], kw["keyword_version"]),
            kw["keyword"],
        )
        for kw in data["keywords"]
        if kw["keyword"]
    ]
    return await respond(
        datasette,
        request,
        database,
        "card.html",
        data,
        current_html=render.linked(card["current_text"], keyword_links, formatted=False),
        printed_diff=printed_diff,
    )


async def _card_not_found(datasette, request, database, slug: str):
    """A nickname or a card's name redirects to the card; a name several cards share (a champion's) lists
    them; anything else is a 404 with the nearest names."""
    paths = Paths(datasette, database.name)
    found = await read(database, lambda conn: queries.find_cards(conn, slug))
    if len(found["cards"]) == 1:
        target = paths.card(found["cards"][0]["slug"])
        return Response.redirect(target + (".json" if wants_json(request) else ""))
    choices = [
        {"href": paths.card(card["slug"]), "label": card["name"], "note": card.get("matched")}
        for card in found["cards"] or found["nearest"]
    ]
    message = f"“{slug}” names {len(found['cards'])} cards." if found["cards"] else f"No card “{slug}”."
    data = {
        "error": message,
        "choices": choices,
        "choices_heading": "Which one?" if found["cards"] else "Nearest names",
        "search_url": paths.search(q=slug.replace("-", " ")),
        **found,
    }
    # 300 Multiple Choices for a name several cards share, 404 for a name no card has.
    status = 300 if found["cards"] else 404
    return await respond(datasette, request, database, "not_found.html", data, status=status)


async def infractions(datasette, request):
    game = url_var(request, "game")
    database, data = await ask(datasette, queries.infractions_page, game, request.args.get("rulebook") or None)
    if data is None:
        return await not_found(datasette, request, database, f"No infractions are defined for {game}.")
    return await respond(datasette, request, database, "infractions.html", data)


def _rule_number(value: str | None) -> str | None:
    """A rule or section number as typed into a box: spaces, a trailing dot and a leading
    "rule" left out; None when empty. A value longer than any rule number is refused."""
    value = re.sub(r"^(?:rule|section)\s*", "", (value or "").strip(), flags=re.IGNORECASE).rstrip(".").strip()
    if len(value) > queries.LONGEST_RULE_NUMBER:
        raise BadRequest(f"No rule number is that long ({len(value)} characters)")
    return value or None


async def diff(datasette, request):
    game, old, new, rulebook = (url_var(request, name) for name in ("game", "old", "new", "rulebook"))
    kind = request.args.get("kind") or None
    section, rule = _rule_number(request.args.get("section")), _rule_number(request.args.get("rule"))
    show_renumbered = request.args.get("renumbered") == "1"
    page = page_number(request)
    database, data = await ask(
        datasette, queries.diff_page, game, old, new, kind, section, show_renumbered, page, rulebook, rule
    )
    if data is None:
        known = await read(database, lambda conn: queries.comparisons(conn, game))
        paths = Paths(datasette, database.name)
        message = f"{known['game_name']} has no {rulebook or 'rules'} versions {old} and {new} to compare."
        choices = [
            {
                "href": paths.diff(game, pair["old"], pair["new"], pair["rulebook"]),
                "label": f"{pair['rulebook_title']} {pair['old']} → {pair['new']}",
            }
            for pair in known["pairs"]
        ]
        return await not_found(
            datasette, request, database, message, choices=choices, choices_heading="The comparisons there are"
        )
    return await respond(datasette, request, database, "diff.html", data)


async def search(datasette, request):
    args = request.args  # parsed from the query string at each use: once here
    text = args.get("q", "").strip()
    filters = {name: args.get(name) or None for name in SEARCH_FILTERS}
    page = page_number(request)
    use_semantic = args.get("semantic") != "0"  # semantic=0: the lexical ranking alone
    database = await rules_database(datasette)
    paths = Paths(datasette, database.name)
    day = on_day(request)
    on = None
    if day and not filters["version"]:  # ?on=2026-05-01: the rules in force that day (rulings and cards are kept)
        on = await read(database, lambda conn: in_force.search_on(conn, day, filters["game"], filters["rulebook"]))
        filters["version"] = on["version"]["reading"]["version"] if on and on["version"] else None

    def run(conn):
        numbers, jump = search_db.jump_target(conn, text, filters["game"]) if text else ([], None)
        found = None
        if text and not jump:
            try:
                found = search_db.search(
                    conn,
                    text,
                    filters["game"],
                    filters["version"],
                    filters["kind"],
                    page,
                    rulebook=filters["rulebook"],
                    semantic=use_semantic,
                )
            except search_db.SearchTooSlow as error:
                found = {"error": f"{error}. Try a shorter question."}
        rulings = [
            hit
            for hit in [*(found or {}).get("results", []), *(found or {}).get("best", {}).values()]
            if hit["kind"] == "ruling"
        ]
        parts = queries.parts_of(conn, [hit["id"] for hit in rulings])
        answers = queries.answer_lines(conn, [hit["id"] for hit in rulings])
        for hit in rulings:
            hit["part_of"] = parts.get(hit["id"])
            hit["answer"] = answers.get(hit["id"], "")  # its answer in one line, under its question
        return numbers, jump, found, search_db.search_options(conn)

    numbers, jump, found, options = await read(database, run)
    if found and args.get("refine") == "1" and use_semantic:
        found["refine"] = await _refined(database, found)
    # No question, or a search stopped by its time budget (then only its error): a page of no results.
    found = {"total": 0, "results": [], "best": {}, "query": None, "page": page, "per_page": 0, **(found or {})}
    jump_to = paths.rule(jump) if jump else None
    cards = (found.get("query") or {}).get("card_ids") or []
    if not jump_to and len(cards) == 1 and found["results"] and found["results"][0]["kind"] == "card":
        jump_to = paths.card(found["results"][0]["slug"])  # a card's name (or nickname) typed alone
    if jump_to and not wants_json(request) and page == 1:
        return Response.redirect(jump_to)
    for hit in [*found["results"], *found["best"].values()]:
        hit["url"] = _hit_url(paths, hit)
        hit["keywords"] = [
            {"term": term, "url": paths.keyword(hit["game"], term, hit["version"])} for term in hit.get("defines", [])
        ]
        hit["snippet"] = render.highlighted(hit["snippet"])  # escaped, with <mark> around the matches
        for sub in hit.get("also", []):  # the sub-rules shown inside the result (rules_db.search.sections)
            sub["url"] = paths.version_rule(hit["game"], hit["version"], sub["number"], hit["rulebook"])
            sub["snippet"] = render.highlighted(sub["snippet"])
    per_page = found.get("per_page") or 1
    pages, _ = queries.page_in_range(found["total"], page, per_page)  # the page asked is shown, even past the end
    params = {"q": text, **filters}
    data = {
        "q": text,
        **filters,
        "jump_to": jump_to,
        "rule_numbers": numbers,
        "error": found.get("error"),
        "query": found.get("query"),
        "total": found["total"],
        "page": page,
        "per_page": per_page,
        "pages": pages,
        "previous": paths.search(**params, page=page - 1 if page > 2 else None) if page > 1 else None,
        "next": paths.search(**params, page=page + 1) if page < pages else None,
        "best": found["best"],
        "results": found["results"],
        "options": options,
        "semantic": found.get("semantic"),
        "refine": found.get("refine"),
        "on": on,
    }
    if data["query"] and data["query"]["did_you_mean"]:
        data["query"]["did_you_mean_url"] = paths.search(**{**params, "q": data["query"]["did_you_mean"]})
    game_names = {game["id"]: game["name"] for game in options["games"]}  # a hit names its game as the home page does
    return await respond(datasette, request, database, "search.html", data, game_names=game_names)


REFINER = search_refine.Refiner()  # bounded capacity for the refined orders of every request of this server


async def _refined(database, found: dict) -> str:
    """Put the first results of ``found`` in the cross-encoder's refined order, in ``REFINER``'s bounded capacity;
    what became of it: "refined", "busy" (the fused order stands), "off" (no cross-encoder) or "not needed". A request
    whose client leaves is cancelled by the server (``cancellation.cancel_on_disconnect``): its job is dropped."""
    if found.get("page", 1) != 1 or len(found["results"]) < 2:
        return "not needed"
    hits = found["results"][: search_refine.CANDIDATES]
    texts = await read(database, lambda conn: search_refine.candidate_texts(conn, hits))
    try:
        job = REFINER.submit(found["query"]["searched"], texts)
    except search_refine.RefineBusy:
        return "busy"
    try:
        logits = await asyncio.wrap_future(job.future)
    except asyncio.CancelledError:
        job.cancelled.set()
        job.future.cancel()
        raise
    except (ModelUnavailable, ImportError):
        return "off"
    search_refine.apply(found, logits)
    return "refined"


def _hit_url(paths: Paths, hit: dict) -> str:
    if hit["kind"] == "rule":
        return paths.rule(hit)
    if hit["kind"] == "ruling":
        return paths.ruling(hit["id"])
    return paths.card(hit["slug"])


VIEWS = {
    "home": home,
    "search": search,
    "rule": rule,
    "versioned_rule": rule,
    "rulebook_rule": rule,
    "keyword": keyword,
    "versioned_keyword": keyword,
    "keyword_replays": keyword_replays,
    "ruling": ruling,
    "card": card,
    "infractions": infractions,
    "diff": diff,
    "rulebook_diff": diff,
}
