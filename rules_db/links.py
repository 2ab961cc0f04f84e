"""Cross-links computed once every document is stored: keyword mentions (by
lemma, with spaCy) and the rules each ruling cites."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable

import numpy as np
import sqlite_utils

from ingest.lemmas import LemmaMatch, find_phrases
from rules_db import in_force, lineage, store, versions

# A citation with the rule's text quoted is read by that text when the version it names is not stored: the rule of
# the text read in its place whose text the quote matches as the lineage matches a rule that is its gap's best
# candidate (``lineage.MUTUAL_TEXT``), clearly ahead of every other rule.
QUOTE_MARGIN = 5  # points (0-100) the quoted rule must lead the next best by


def keyword_phrases(db: sqlite_utils.Database, document_id: str) -> dict[str, list[str]]:
    """Each keyword a rules document defines, by its id as text: its term and aliases."""
    return {
        str(row["id"]): [row["term"], *json.loads(row["aliases"] or "[]")]
        for row in db.query("select id, term, aliases from keywords where document_id = ? order by id", [document_id])
    }


def rule_texts(db: sqlite_utils.Database, document_id: str) -> list[tuple[int, str]]:
    """Each rule of a rules document, in id order: its id and text."""
    return db.execute("select id, text from rules where document_id = ? order by id", [document_id]).fetchall()


def link_rule_keywords(db: sqlite_utils.Database, found: Iterable[tuple[int, list[LemmaMatch]]]) -> int:
    """keyword_mentions from rules to the keywords their rulebook defines: ``found``, each rule's id and its
    matches of those keywords (``find_phrases`` over ``keyword_phrases`` and ``rule_texts``; the build runs
    it in its second process)."""
    rows = [
        {"keyword_id": int(match.key), "rule_id": rule_id, "ruling_id": None, "matched_text": match.text}
        for rule_id, matches in found
        for match in matches
    ]
    store.insert_rows(db, "keyword_mentions", rows)
    return len(rows)


def ruling_texts(db: sqlite_utils.Database, document_id: str) -> dict[int, str]:
    """Each ruling of a rulings document as one text: question, answer, steps and nuances, in order."""
    parts: dict[int, list[str]] = defaultdict(list)
    for ruling_id, text, _part, _position in db.execute(
        "select id, question || '\n' || ruling, 0, 0 from rulings where document_id = :document "
        "union all select s.ruling_id, s.text, 1, s.position from ruling_steps s join rulings r on r.id = s.ruling_id "
        "where r.document_id = :document "
        "union all select n.ruling_id, n.text, 2, n.position from ruling_nuances n join rulings r on r.id = n.ruling_id "
        "where r.document_id = :document order by 1, 3, 4",
        {"document": document_id},
    ).fetchall():
        parts[ruling_id].append(text)
    return {ruling_id: "\n".join(texts) for ruling_id, texts in parts.items()}


# For each rules version a rulings document's rulings were written against (by how they name it): that
# version's rules document, or None, the rulings written against it, in order, and, when the document is another
# version's text read in its place (``in_force.version_on``: a stand-in or an earlier text), the label of the
# version that is not stored.
VersionGroups = list[tuple[str | None, str | None, list[dict], str | None]]


def _by_version(db: sqlite_utils.Database, document_id: str) -> VersionGroups:
    document = db.table("documents").get(document_id)
    by_version: dict[str | None, list[dict]] = defaultdict(list)
    for ruling in db.query(
        "select id, position, reviewed_version from rulings where document_id = ? order by position", [document_id]
    ):
        by_version[ruling["reviewed_version"]].append(ruling)
    groups: VersionGroups = []
    for version, group in by_version.items():
        found = versions.rules_document(db, document["game_id"], version) if version else None
        not_stored = None
        day = in_force.iso_date(version)
        if found is None and day:  # a dated article: the rules in force that day
            found, not_stored = _in_force_on(db, document, day)
        groups.append((version, found["id"] if found else None, group, not_stored))
    return groups


def _in_force_on(db: sqlite_utils.Database, document: dict, day: str) -> tuple[dict | None, str | None]:
    """The rules document a ruling dated ``day`` cites (``in_force.version_on``), and the label of the version in
    force when that document is not it but read in its place; the rulings document says which version it cites
    (``written_against``: its label)."""
    found = in_force.version_on(db, document["game_id"], day)
    if found is None:
        return None, None
    db.table("documents").update(document["id"], {"written_against": found["label"]})
    return found["reading"], None if found["stored"] else found["label"]


def ruling_keyword_searches(
    db: sqlite_utils.Database, document_id: str
) -> dict[str | None, tuple[dict[str, list[str]], list[str]]]:
    """What ``link_rulings`` looks for in a rulings document: for each rules version its rulings were written
    against and the database holds, the keyword phrases of that version and the texts of those rulings
    (``find_phrases``' arguments: plain data, which a second process can take)."""
    return _keyword_searches(db, document_id, _by_version(db, document_id))


def _keyword_searches(
    db: sqlite_utils.Database, document_id: str, groups: VersionGroups
) -> dict[str | None, tuple[dict[str, list[str]], list[str]]]:
    texts = ruling_texts(db, document_id)
    return {
        version: (keyword_phrases(db, target), [texts[ruling["id"]] for ruling in group])
        for version, target, group, _not_stored in groups
        if target is not None
    }


def find_ruling_keywords(
    searches: dict[str | None, tuple[dict[str, list[str]], list[str]]],
) -> dict[str | None, list[list[LemmaMatch]]]:
    """Each ``ruling_keyword_searches`` version's matches, ruling by ruling."""
    return {version: find_phrases(phrases, texts) for version, (phrases, texts) in searches.items()}


def link_rulings(
    db: sqlite_utils.Database,
    document_id: str,
    explicit: dict[int, list[tuple[str, ...]]],
    found: dict[str | None, list[list[LemmaMatch]]] | None = None,
) -> dict:
    """Keyword mentions and citations of every ruling in a rulings document.

    A ruling cites the rules version it was written against (``rulings.reviewed_version``, a
    version of the game's default rulebook named by version, label or date: "2025-12-01", "1.4");
    ``rulings.rules_document_id`` is set to it here, and a number is looked up in that version
    only, never in another; when that version is not stored and another text is read in its place, a number
    whose rule the ruling quotes is read by the quoted text there (``read_quoted``). A keyword mention is also a citation of the keyword's defining rule,
    marked 'keyword'. ``explicit`` maps a ruling id to its (number, raw text[, quote]) citations; ``found``, if given,
    is ``find_ruling_keywords`` over ``ruling_keyword_searches`` (a build finds them in its second process).
    """
    groups = _by_version(db, document_id)
    if found is None:
        found = find_ruling_keywords(_keyword_searches(db, document_id, groups))
    citations: list[dict] = []
    mentions: list[dict] = []
    unresolved: list[str] = []
    read_by_quote: list[str] = []
    missing_versions: list[str] = []
    for version, target, group, not_stored in groups:
        if version and target is None:
            missing_versions.append(f"{version} (cited by {len(group)} rulings)")
        db.execute(
            f"update rulings set rules_document_id = ? where id in ({', '.join('?' for _ in group)})",
            [target, *(ruling["id"] for ruling in group)],
        )
        numbers = store.rule_ids(db, target)
        cited: list[tuple] = [(ruling, *citation) for ruling in group for citation in explicit.get(ruling["id"], [])]
        quoted = read_quoted(db, target, cited, numbers) if not_stored and target else {}
        for number, rule in quoted.items():
            read_by_quote.append(f"{number} ({not_stored}) as {rule[1]} of {target}")
        for ruling, number, raw_text, *_quote in cited:
            rule_id = quoted[number][0] if number in quoted else numbers.get(number)
            citations.append(_citation(ruling["id"], rule_id, number, raw_text, "explicit", None, target, version))
            if rule_id is None:
                where = f"{version} rules" if not not_stored else f"{target} text read for {not_stored}, not stored"
                unresolved.append(f"{number} in ruling {ruling['position']} (not in the {where})")
        if target is not None:
            citations_by_keyword, found_mentions = _keyword_citations(db, target, group, found[version], version)
            citations += citations_by_keyword
            mentions += found_mentions
    store.insert_rows(db, "ruling_citations", citations)
    store.insert_rows(db, "keyword_mentions", mentions)
    return {
        "citations": len(citations),
        "explicit citations": sum(c["how"] == "explicit" for c in citations),
        "unresolved citations": unresolved,
        "citations read by their quoted text": read_by_quote,
        "rules versions not in the database": missing_versions,
        "keyword mentions": len(mentions),
    }


def read_quoted(
    db: sqlite_utils.Database, target: str, cited: list[tuple], numbers: dict[str, int]
) -> dict[str, tuple[int, str]]:
    """The rule of ``target`` (the text read in place of a version that is not stored) that each number these
    citations quote means, by the quoted text, where that differs from the rule the number names there: the
    version not stored may number it otherwise (Core Rules 1.3's 467 is 1.4's 472). ``cited``: (ruling, number,
    raw text, quote) rows; a number is read by every quote of it in the document (the same number of the same
    version means one rule). A number whose own rule there matches its quote, or that is not quoted, or whose
    quote matches no rule surely, is left to its number. Returns number -> (rule id, rule number)."""
    quotes: dict[str, list[str]] = defaultdict(list)
    for _ruling, number, _raw, *quote in cited:
        if quote and quote[0]:
            quotes[number].append(lineage.normalise(quote[0]))
    if not quotes:
        return {}
    rules = db.execute(
        "select id, number, coalesce(nullif(text, ''), heading, '') from rules where document_id = ? order by position",
        [target],
    ).fetchall()
    if len(rules) < 2:
        return {}
    texts = [lineage.normalise(text) for _id, _number, text in rules]
    words = np.array([len(text.split()) for text in texts])
    position = {number: index for index, (_id, number, _text) in enumerate(rules)}
    read: dict[str, tuple[int, str]] = {}
    for number, said in quotes.items():
        scores = lineage.text_similarity(said, texts, np.array([len(text.split()) for text in said]), words)
        best_scores = scores.max(axis=0)
        best, second = np.argsort(-best_scores, kind="stable")[:2]
        own = position.get(number) if number in numbers else None
        if own is not None and best_scores[own] >= lineage.MUTUAL_TEXT:
            continue  # the number's own rule is the text quoted
        score = best_scores[best]
        if score >= lineage.MUTUAL_TEXT and score - best_scores[second] >= QUOTE_MARGIN and best != own:
            read[number] = (rules[best][0], rules[best][1])
    return read


def _keyword_citations(
    db: sqlite_utils.Database, target: str, rulings: list[dict], found: list[list[LemmaMatch]], version: str | None
) -> tuple[list[dict], list[dict]]:
    """Keyword mentions of these rulings (``found``: each one's matches of the keywords of the rules document
    ``target``), and a citation of the defining rule for each keyword that is distinctive among them."""
    if not found:
        return [], []
    mentions = [
        {"keyword_id": int(match.key), "rule_id": None, "ruling_id": ruling["id"], "matched_text": match.text}
        for ruling, matches in zip(rulings, found)
        for match in matches
    ]
    distinctive = _distinctive_keywords(found, len(rulings))
    keywords = {
        str(row["id"]): row
        for row in db.query("select id, rule_id, defining_number from keywords where document_id = ?", [target])
    }
    citations = []
    for ruling, matches in zip(rulings, found):
        for key, surface in _first_mentions(matches).items():
            if key in distinctive:
                keyword = keywords[key]
                citations.append(
                    _citation(
                        ruling["id"],
                        keyword["rule_id"],
                        keyword["defining_number"],
                        surface,
                        "keyword",
                        keyword["id"],
                        target,
                        version,
                    )
                )
    return citations, mentions


def _citation(
    ruling_id: int,
    rule_id: int | None,
    number: str,
    raw_text: str,
    how: str,
    keyword_id: int | None,
    document_id: str | None,
    version: str | None,
) -> dict:
    return {
        "ruling_id": ruling_id,
        "rule_id": rule_id,
        "number": number,
        "raw_text": raw_text,
        "how": how,
        "keyword_id": keyword_id,
        "document_id": document_id,
        "written_against": version,
    }


def link_relations(db: sqlite_utils.Database, document_id: str, related: dict[int, list[str]]) -> dict:
    """ruling_relations from each ruling to the rulings its source relates it to. A target names a
    page (``/cards/baron-nashor``: each question on that page) or a question on it
    (``/general-rules/playing-cards#play-definition``); one that names nothing in the document is
    kept with no related ruling and reported."""
    by_page: dict[str, list[dict]] = defaultdict(list)
    for row in db.query(
        "select id, page, anchor, parent_ruling_id from rulings where document_id = ? order by position", [document_id]
    ):
        by_page[row["page"]].append(row)
    rows, unknown = [], []
    for ruling_id, targets in related.items():
        for target in targets:
            page, _, anchor = target.strip("/").partition("#")
            named = [
                row["id"]
                for row in by_page.get(page, [])
                if (row["anchor"] == anchor if anchor else row["parent_ruling_id"] is None) and row["id"] != ruling_id
            ]
            if not named:
                unknown.append(target)
            rows += [
                {"ruling_id": ruling_id, "related_ruling_id": other, "target": target} for other in named or [None]
            ]
    db.table("ruling_relations").insert_all(rows)
    return {
        "ruling relations": sum(row["related_ruling_id"] is not None for row in rows),
        "relations to nothing": unknown,
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
