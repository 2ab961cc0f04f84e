"""The search: a question understood, retrieved, re-ranked and answered one page at a time, within its time
budget; the jump to a rule typed by number; the search form's options."""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Collection

from rules_db import queries
from rules_db.search import cited, retrieve, semantic
from rules_db.search.index_format import KINDS, PATH_SEPARATOR
from rules_db.search.rank import (
    _best_of_each_kind,
    _complete,
    _ConceptStems,
    _credit_rulings,
    _defined_keywords,
    _Matcher,
    _ranked,
    _Scored,
    _scored,
)
from rules_db.search.refine import refine_in_process
from rules_db.search.retrieve import (
    _count,
    _in_index_order,
    _numbered_rules,
    _Retrieval,
    _retrieval,
)
from rules_db.search.sections import with_sub_rules
from rules_db.search.snippets import _snippet
from rules_db.search.understand import Query, understand

PER_PAGE = 20
MAX_PAGE = 500
TIME_BUDGET = 2.0  # seconds of CPU a search may spend before it is interrupted
WAIT_BUDGET = 5 * TIME_BUDGET  # seconds on the clock, waits included: a search never holds a server thread longer


# A rule number typed on its own: "626.1.d", "rule 318", "318.", "E.1".
_NUMBER_QUERY = re.compile(
    r"^\s*(?:(?:rules?|step|§)\s*)?(?P<number>\d+(?:\.[0-9A-Za-z]+)*|[A-Za-z](?:\.[0-9A-Za-z]+)+)\.?\s*$", re.IGNORECASE
)


class SearchTooSlow(Exception):
    """The search ran past its time budget and was stopped."""


# ---------------------------------------------------------------- the search


def search(
    conn: sqlite3.Connection,
    text: str,
    game: str | None = None,
    version: str | None = None,
    kind: str | None = None,
    page: int = 1,
    per_page: int = PER_PAGE,
    rulebook: str | None = None,
    semantic: bool = True,
    refine: bool = False,
    hidden: Collection[tuple[str, int]] = (),
) -> dict:
    """Rules, rulings and cards answering ``text``, best first, one page of them.

    Rules come from the newest version of each rulebook unless ``version`` names one, and from
    every rulebook unless ``rulebook`` names one by its slug ("core", "tournament").
    Returns the page's ``results``, the ``total`` number of matches, the ``best`` rule,
    ruling and card (first page), what was understood of the question, and whether the semantic stage took part
    (``semantic``: its rows fused with the lexical ranking, see ``rules_db.search.semantic``; False: lexical only).
    ``refine``: the first results of the first page in the cross-encoder's refined order, computed here (a server asks
    ``rules_db.search.refine.Refiner`` instead, in bounded capacity). ``hidden``: (kind, id) of rows the search
    treats as absent from the database (the benchmark asks a question held by a ruling as one the documents do not
    hold: neither that ruling nor what it cites may answer it).
    """
    page = max(1, min(int(page or 1), MAX_PAGE))
    per_page = max(1, min(int(per_page or PER_PAGE), 100))
    kind = kind if kind in KINDS else None
    filters = {"game": game or None, "version": version or None, "kind": kind, "rulebook": rulebook or None}
    # The search's own CPU time (its thread's) is what is budgeted: on a loaded machine a search waits for the CPU,
    # and the wait (ten times its work at a load of 20) cut ordinary questions short. A hostile question still spends
    # it; a generous clock limit still bounds a search that waits on something else (a cold disk).
    deadline, clock_deadline = time.thread_time() + TIME_BUDGET, time.monotonic() + WAIT_BUDGET
    conn.set_progress_handler(lambda: time.thread_time() > deadline or time.monotonic() > clock_deadline, 10_000)
    try:
        result = _search(conn, text, filters, page, per_page, semantic, hidden)
    except sqlite3.OperationalError as error:
        if "interrupted" in str(error):
            raise SearchTooSlow(
                f"The search took more than {TIME_BUDGET:g} s of CPU (or {WAIT_BUDGET:g} s in all) and was stopped"
            ) from error
        raise
    finally:
        conn.set_progress_handler(None, 0)
    return refine_in_process(conn, result) if refine else result


def _search(
    conn: sqlite3.Connection,
    text: str,
    filters: dict,
    page: int,
    per_page: int,
    use_semantic: bool = True,
    hidden: Collection[tuple[str, int]] = (),
) -> dict:
    query = understand(conn, text, filters["game"])
    stage = semantic.state(conn) if use_semantic else semantic.State(False, None, "not asked for")
    result = {
        "query": _described(query),
        "total": 0,
        "page": page,
        "per_page": per_page,
        "results": [],
        "best": {},
        "semantic": stage.described(),
    }
    retrieval = _retrieval(conn, query, filters) if query.concepts else _Retrieval(None, None)
    numbered = _numbered_rules(conn, query.numbers, filters)
    nearest = semantic.dense(conn, query.text, filters) if stage.on else []
    hidden_rows = _row_ids(conn, hidden)
    nearest = [(row_id, cosine) for row_id, cosine in nearest if row_id not in hidden_rows]
    if retrieval.any is None and not numbered and not nearest:
        return result
    concepts, matcher = _ConceptStems(query), _Matcher(conn, query)
    total = _count(conn, retrieval.any, retrieval.rows) if retrieval.any else 0
    ranked = _ranked(conn, query, retrieval, total, concepts, matcher) if retrieval.any else []
    ranked = [item for item in ranked if item.document["id"] not in hidden_rows]
    if nearest:
        ranked, added = _fused(conn, query, ranked, nearest, concepts, filters)
        total += added
    if numbered:  # rules the question cites by number come first
        found = {item.document["id"] for item in ranked}
        ranked = _scored(conn, query, [(row_id, 0.0) for row_id in numbered], concepts) + [
            item for item in ranked if item.document["id"] not in numbered
        ]
        total += len(set(numbered) - found)
    start = (page - 1) * per_page
    shown = ranked[start : start + per_page]
    if len(shown) < per_page and start + len(shown) < total and retrieval.any:
        # Past the re-ranked rows every match follows, to the last one: in BM25 order, or the index's when many.
        seen = {item.document["id"] for item in ranked}
        skip = max(0, start - len(ranked))
        following = retrieve._candidates if total <= retrieve.SCORED_MATCHES else _in_index_order
        rows = following(conn, retrieval.any, retrieval.rows, skip + per_page - len(shown) + len(seen))
        tail = [row for row in rows if row[0] not in seen and row[0] not in hidden_rows][
            skip : skip + per_page - len(shown)
        ]
        shown += _scored(conn, query, tail, concepts)
    best = _best_of_each_kind(ranked) if page == 1 else []
    _complete(conn, shown + best)
    _credit_rulings(conn, shown + best)
    _defined_keywords(conn, shown + best)
    hits = {id(item): _hit(item, matcher) for item in [*shown, *best]}  # the best are often shown too
    sub_rules = with_sub_rules(conn, shown, concepts, matcher) if page == 1 else {}
    for item in [*shown, *best]:
        hits[id(item)]["also"] = sub_rules.get(id(item), [])
        hits[id(item)]["also_shows"] = [sub["id"] for sub in hits[id(item)]["also"]]
    result["total"] = total
    result["results"] = [hits[id(item)] for item in shown]
    result["best"] = {  # a copy: pages rewrite hits
        item.document["kind"]: {**hits[id(item)], "also": [dict(sub) for sub in hits[id(item)]["also"]]}
        for item in best
    }
    return result


def _fused(
    conn: sqlite3.Connection,
    query: Query,
    ranked: list[_Scored],
    nearest: list[tuple[int, float]],
    concepts: _ConceptStems,
    filters: dict,
) -> tuple[list[_Scored], int]:
    """The lexical ranking and the dense one fused (``semantic.fuse``), the rules the best-placed rulings cite lent
    their scores (``cited.lent_scores``), and how many rows the dense stage and the citations added."""
    by_id = {item.document["id"]: item for item in ranked}
    added = [row_id for row_id, _cosine in nearest if row_id not in by_id]
    lexical = [(item.document["id"], item.score) for item in ranked]
    for item in _scored(conn, query, [(row_id, 0.0) for row_id in added], concepts):
        by_id[item.document["id"]] = item
    cosines = dict(nearest)
    for row_id, item in by_id.items():
        if row_id in cosines:
            item.features["dense"] = cosines[row_id]
    rules = {row_id for row_id, item in by_id.items() if item.document["kind"] == "rule"}
    fused = semantic.fused_scores(lexical, nearest, rules=rules, rule_prior=semantic.RULE_PRIOR)
    order = semantic.in_fused_order(fused, [row_id for row_id, _ in lexical] + [row_id for row_id, _ in nearest])
    rulings = {
        row_id: by_id[row_id].document["ref_id"]
        for row_id in order
        if row_id in by_id and by_id[row_id].document["kind"] == "ruling"
    }
    lent = cited.lent_scores(conn, order, fused, rulings, filters)
    if lent:
        new = [row_id for row_id in lent if row_id not in by_id]
        for item in _scored(conn, query, [(row_id, 0.0) for row_id in new], concepts):
            by_id[item.document["id"]] = item
            fused[item.document["id"]] = semantic.RULE_PRIOR
            order.append(item.document["id"])
            added.append(item.document["id"])
        for row_id, score in lent.items():
            if row_id in by_id:
                fused[row_id] += score
                by_id[row_id].features["cited"] = score
        order = semantic.in_fused_order(fused, order)
    for row_id, item in by_id.items():
        item.features["fused"] = fused.get(row_id, 0.0)  # what the best ruling and card are measured by
    return [by_id[row_id] for row_id in order if row_id in by_id], len(added)


def _row_ids(conn: sqlite3.Connection, keys: Collection[tuple[str, int]]) -> set[int]:
    """The search_documents ids of (kind, id) keys."""
    return {
        row[0]
        for kind, ref_id in keys
        for row in conn.execute("select id from search_documents where kind = ? and ref_id = ?", [kind, ref_id])
    }


def _described(query: Query) -> dict:
    return {
        "searched": query.text,
        "concepts": [
            {"typed": c.typed, "forms": c.forms, "synonyms": c.expansions, "weight": round(c.weight, 2)}
            for c in query.concepts
        ],
        "rule_numbers": query.numbers,
        "ignored": query.ignored,
        "unknown": query.unknown,
        "corrections": [{"typed": typed, "meant": meant} for typed, meant in query.corrections],
        "renamed": query.renamed,
        "did_you_mean": _did_you_mean(query),
        "notices": query.notices,
        "card_ids": list(query.card_only),
    }


def _did_you_mean(query: Query) -> str | None:
    if not query.corrections:
        return None
    text = query.text
    for typed, meant in query.corrections:
        text = re.sub(rf"(?i)\b{re.escape(typed)}\b", meant, text)
    return text


def _hit(item: _Scored, matcher: _Matcher) -> dict:
    document = item.document
    return {
        "kind": document["kind"],
        "id": document["ref_id"],
        "game": document["game_id"],
        "rulebook": document["rulebook_url"],  # as rule URLs name it: None for the game's default rulebook
        "version": document["version"],
        "number": document["number"],
        "slug": document["slug"],
        "title": document["title"] or document["number"] or "",
        "heading_path": document["path"].split(PATH_SEPARATOR)
        if document["path"] and document["kind"] == "rule"
        else [],
        "snippet": _snippet(item, matcher),
        "score": round(item.score, 4),
        "features": {name: round(value, 3) for name, value in item.features.items()},
        **({"credit": document.get("credit")} if document["kind"] == "ruling" else {}),
        **({"defines": document.get("defines", [])} if document["kind"] == "rule" else {}),
    }


# ---------------------------------------------------------------- jumps and options


def jump_target(conn: sqlite3.Connection, query: str, game: str | None = None) -> tuple[list[dict], dict | None]:
    """For a query that is a rule number alone: the rules of that number (the newest version of each
    rulebook that has it), and the one to jump to when a single rulebook has it."""
    match = _NUMBER_QUERY.match(query or "")
    if match is None:
        return [], None
    newest: dict[tuple, dict] = {}
    for hit in queries.locate_rule(conn, match.group("number"), game):
        newest.setdefault((hit["game"], hit["rulebook"]), hit)
    hits = list(newest.values())
    return hits, hits[0] if len(hits) == 1 else None


def search_options(conn: sqlite3.Connection) -> dict:
    """Games, rulebooks, their versions and kinds of result for the search form's filters (read once per
    database: every search page shows them; the answer is shared, so read it, never change it)."""
    return queries.lookup_table(conn, ("search options",), lambda: _read_search_options(conn))


def _read_search_options(conn: sqlite3.Connection) -> dict:
    cursor = conn.execute("select id, name from games order by name")
    games = [{"id": row[0], "name": row[1]} for row in cursor.fetchall()]
    versions = [
        {"game": row[0], "version": row[1], "is_newest": row[2], "rulebook": row[3], "rulebook_title": row[4]}
        for row in conn.execute(
            """select d.game_id, d.version, d.is_newest, b.slug, b.title from documents d
            left join rulebooks b on b.id = d.rulebook_id where d.kind = 'rules'
            order by d.game_id, b.is_default desc, b.slug, coalesce(d.version_date, d.version) desc"""
        )
    ]
    # A slug several games share ("core") is named by itself; one game's own rulebook by its title.
    rulebooks = [
        {"slug": slug, "title": title if count == 1 else f"{slug.capitalize()} rules"}
        for slug, title, count in conn.execute(
            """select slug, min(title), count(*) from rulebooks group by slug
            order by max(is_default) desc, slug"""
        )
    ]
    return {"games": games, "versions": versions, "rulebooks": rulebooks, "kinds": list(KINDS)}
