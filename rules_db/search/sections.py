"""The answer inside its section: when a rule that heads others (a section's rule, a keyword's definition) is a
result, the sub-rules under it that best match the question are shown inline, their matches highlighted, so the judge
reads the answering sentence without opening the rule (/search.json: ``also_shows``, the sub-rules' ids in the order
shown, and ``also``, each with its number and snippet).

A sub-rule is shown when its own text (not the heading it shares with its section) holds some of the question; they come by whether they hold the rarest concept any
of them holds, then by how much of the question's weight they hold (the concepts' IDF weights, as the ranking counts
them), then in document order.
"""

from __future__ import annotations

import sqlite3

from rules_db.search.index_format import EXAMPLE_TAG, STEM_TAGS
from rules_db.search.rank import _ConceptStems, _Matcher, _Scored, _scoring_rows
from rules_db.search.snippets import _snippet

BODY_TAG = STEM_TAGS[-1]  # a rule's own text (see index_format.FIELDS)
ALSO_SHOWN = 2  # sub-rules shown under a result
RESULTS_WITH_SECTIONS = 5  # the first results of a page that may show theirs
SUB_RULES_READ = 400  # sub-rules of one rule read at most


def with_sub_rules(conn: sqlite3.Connection, items: list[_Scored], concepts: _ConceptStems, matcher: _Matcher) -> dict:
    """id(item) -> the sub-rules shown under it ({id, number, snippet}), for the first rule results that head some."""
    out: dict[int, list[dict]] = {}
    for item in items[:RESULTS_WITH_SECTIONS]:
        document = item.document
        if document["kind"] != "rule" or not document.get("number"):
            continue
        sub_rules = _best_sub_rules(conn, document, concepts)
        if sub_rules:
            out[id(item)] = [
                {
                    "id": sub["ref_id"],
                    "number": sub["number"],
                    "snippet": _snippet(_Scored(sub, rank=0.0), matcher),
                }
                for sub in sub_rules
            ]
    return out


def _best_sub_rules(conn: sqlite3.Connection, parent: dict, concepts: _ConceptStems) -> list[dict]:
    rows = conn.execute(
        """select id, kind, ref_id, game_id, document_id, rulebook, rulebook_url, version, number, slug, title, terms,
        path, body from search_documents where document_id = ? and number > ? and number < ? and kind = 'rule'
        order by position limit ?""",
        # "443." < every number under 443 < "443/" ("/" follows "." in code points): a range of the index
        [parent["document_id"], parent["number"] + ".", parent["number"] + "/", SUB_RULES_READ],
    )
    names = [column[0] for column in rows.description]
    subs = [dict(zip(names, row)) for row in rows.fetchall()]
    if not subs:
        return []
    scoring = _scoring_rows(conn, [sub["id"] for sub in subs])
    held = []
    for order, sub in enumerate(subs):
        row = scoring.get(sub["id"])
        if row is None:
            continue
        # Its own text, not the heading every sub-rule of the section shares.
        found = concepts.matched(row.stems, row.game_id, 1.0).found
        credits: dict[int, float] = {}
        for tag in (BODY_TAG, EXAMPLE_TAG):
            for index, credit in found.get(tag, {}).items():
                credits[index] = max(credits.get(index, 0.0), credit)
        if not credits:
            continue
        held.append(
            (sub, set(credits), sum(concepts.weights[index] * credit for index, credit in credits.items()), order)
        )
    if not held:
        return []
    weights = concepts.weights
    rarest = max((index for _sub, indexes, _cov, _order in held for index in indexes), key=lambda i: weights[i])
    held.sort(key=lambda entry: (rarest not in entry[1], -entry[2], entry[3]))
    return [sub for sub, _indexes, _coverage, _order in held[:ALSO_SHOWN]]
