"""Cross-links computed once every document is stored: keyword mentions (by
lemma, with spaCy) and the rules each ruling cites."""

from __future__ import annotations

import json
from collections import defaultdict

import sqlite_utils

from ingest.lemmas import LemmaMatcher
from rules_db import versions


def _keyword_matcher(db: sqlite_utils.Database, document_id: str) -> tuple[LemmaMatcher | None, dict[str, int]]:
    phrases: dict[str, list[str]] = defaultdict(list)
    ids: dict[str, int] = {}
    for row in db.query("select id, term, aliases from keywords where document_id = ? order by id", [document_id]):
        key = str(row["id"])
        ids[key] = row["id"]
        phrases[key] = [row["term"], *json.loads(row["aliases"] or "[]")]
    return (LemmaMatcher(phrases) if phrases else None), ids


def link_rule_keywords(db: sqlite_utils.Database, document_id: str) -> int:
    """keyword_mentions from every rule of a rulebook to the keywords that rulebook defines."""
    matcher, _ = _keyword_matcher(db, document_id)
    if matcher is None:
        return 0
    rules = list(db.query("select id, text from rules where document_id = ? order by id", [document_id]))
    rows = [
        {"keyword_id": int(match.key), "rule_id": rule["id"], "ruling_id": None, "matched_text": match.text}
        for rule, matches in zip(rules, matcher.find_many(rule["text"] for rule in rules))
        for match in matches
    ]
    db.table("keyword_mentions").insert_all(rows)
    return len(rows)


def ruling_texts(db: sqlite_utils.Database, ruling_id: int) -> str:
    parts = [
        row["text"]
        for row in db.query(
            "select question || '\n' || ruling as text from rulings where id = ? "
            "union all select text from (select text from ruling_steps where ruling_id = ? order by position) "
            "union all select text from (select text from ruling_nuances where ruling_id = ? order by position)",
            [ruling_id, ruling_id, ruling_id],
        )
    ]
    return "\n".join(parts)


def link_rulings(db: sqlite_utils.Database, document_id: str, explicit: dict[int, list[tuple[str, str]]]) -> dict:
    """Keyword mentions and citations of every ruling in a rulings document.

    Rulings cite the rules version they were written against (documents.written_against):
    a number is looked up in that version only, never in another. A keyword
    mention is also a citation of the keyword's defining rule, marked 'keyword'.
    ``explicit`` maps a ruling id to its (number, raw text) citations.
    """
    document = db.table("documents").get(document_id)
    found = versions.rules_document(db, document["game_id"], document["written_against"])
    target = found["id"] if found else None
    rulings = list(db.query("select id from rulings where document_id = ? order by position", [document_id]))
    citations: list[dict] = []
    mentions: list[dict] = []
    for ruling in rulings:
        for number, raw_text in explicit.get(ruling["id"], []):
            rule = _rule(db, target, number)
            citations.append(
                {
                    "ruling_id": ruling["id"],
                    "rule_id": rule,
                    "number": number,
                    "raw_text": raw_text,
                    "how": "explicit",
                    "keyword_id": None,
                    "document_id": target,
                    "written_against": document["written_against"],
                }
            )
    if target is not None:
        matcher, _ = _keyword_matcher(db, target)
        matched = matcher.find_many(ruling_texts(db, ruling["id"]) for ruling in rulings) if matcher else []
        for ruling, matches in zip(rulings, matched):
            mentions.extend(
                {"keyword_id": int(match.key), "rule_id": None, "ruling_id": ruling["id"], "matched_text": match.text}
                for match in matches
            )
        distinctive = _distinctive_keywords(matched, len(rulings))
        for ruling, matches in zip(rulings, matched):
            for key, surface in _first_mentions(matches).items():
                if key not in distinctive:
                    continue
                keyword = db.table("keywords").get(int(key))
                citations.append(
                    {
                        "ruling_id": ruling["id"],
                        "rule_id": keyword["rule_id"],
                        "number": keyword["defining_number"],
                        "raw_text": surface,
                        "how": "keyword",
                        "keyword_id": keyword["id"],
                        "document_id": target,
                        "written_against": document["written_against"],
                    }
                )
    db.table("ruling_citations").insert_all(citations)
    db.table("keyword_mentions").insert_all(mentions)
    return {
        "citations": len(citations),
        "explicit citations": sum(c["how"] == "explicit" for c in citations),
        "unresolved citations": sum(c["rule_id"] is None for c in citations),
        "keyword mentions": len(mentions),
    }


def _first_mentions(matches) -> dict[str, str]:
    first: dict[str, str] = {}
    for match in matches:
        first.setdefault(match.key, match.text)
    return first


def _distinctive_keywords(found: list[list], ruling_count: int) -> set[str]:
    """Keywords that say something about a ruling: named in at most a third of
    them. "Unit" is in nearly every ruling; citing its rule from each would
    bury the citations that matter (a stop-word cut, as in tf-idf)."""
    counts: dict[str, int] = defaultdict(int)
    for matches in found:
        for key in {match.key for match in matches}:
            counts[key] += 1
    return {key for key, count in counts.items() if count <= max(1, ruling_count // 3)}


def _rule(db: sqlite_utils.Database, document_id: str | None, number: str) -> int | None:
    if document_id is None:
        return None
    row = next(db.query("select id from rules where document_id = ? and number = ?", [document_id, number]), None)
    return row["id"] if row else None
