"""The rule page: a rule with its neighbours, references, rulings, lineage and history; for a number no rule has,
the nearest rules and the versions that have it."""

from __future__ import annotations

import bisect
import sqlite3

from ingest.outline import natural_key
from rules_db import faqs, lineage_store, versions
from rules_db.queries.common import PART_OF, RULE_REF, diff_ops, select_all, select_one, symbols, with_raw_texts
from rules_db.queries.equivalents import equivalents, with_newest
from rules_db.queries.kept import once_per_database

# A rule number longer than this names no rule (the longest in the bundled documents has 11 characters).
LONGEST_RULE_NUMBER = 64


def _find_rule(conn: sqlite3.Connection, document_id: str, number: str) -> dict | None:
    return select_one(
        conn, "select * from rules where document_id = ? and number = ?", [document_id, number]
    ) or select_one(
        conn,
        "select * from rules where document_id = ? and number = ? collate nocase",
        [document_id, number.rstrip(".")],
    )


def rule_page(
    conn: sqlite3.Connection, game: str, number: str, version: str | None = None, rulebook: str | None = None
) -> dict | None:
    """Everything the rule page shows, or None when the game, rulebook or version does not exist.

    ``version`` and ``rulebook`` are the URL's segments (``rules_db.versions.resolve_path``): a version
    of the default rulebook, a rulebook's slug (its newest version), or both.
    An existing document without that number gives ``{"rule": None, ...}`` with the
    nearest rules and the versions that do have the number.
    """
    document = versions.resolve_path(conn, game, *((rulebook, version) if rulebook else (version,)))
    if document is None:
        return None
    page = {"game": select_one(conn, "select id, name from games where id = ?", [game]), "document": document}
    rule = _find_rule(conn, document["id"], number)
    if rule is None and len(number) > LONGEST_RULE_NUMBER:  # no rule, and nothing near it worth a look
        return {**page, "rule": None, "number": number, "nearest": [], "elsewhere": [], "renumbered": []}
    if rule is None:
        return {
            **page,
            "rule": None,
            "number": number,
            "nearest": nearest_rules(conn, document["id"], number),
            "elsewhere": [hit for hit in locate_rule(conn, number, game) if hit["version"] != document["version"]],
            "renumbered": renumbered(conn, game, number, document["id"]),
        }
    rule_id = rule["id"]
    return {
        **page,
        "rule": rule,
        "breadcrumb": _ancestors(conn, rule),
        "children": select_all(
            conn,
            f"""select {RULE_REF} from rules r join documents d on d.id = r.document_id
            where r.parent_id = ? order by r.position""",
            [rule_id],
        ),
        "previous": _neighbour(conn, rule, before=True),
        "next": _neighbour(conn, rule, before=False),
        "references": with_newest(
            conn,
            select_all(
                conn,
                f"""select x.target_number, x.raw_text, x.status, {RULE_REF}
            from rule_refs x left join rules r on r.id = x.to_rule_id
            left join documents d on d.id = r.document_id where x.from_rule_id = ? order by x.id""",
                [rule_id],
            ),
        ),
        "referenced_by": with_newest(
            conn,
            select_all(
                conn,
                f"""select distinct {RULE_REF}, x.raw_text from rule_refs x
            join rules r on r.id = x.from_rule_id join documents d on d.id = r.document_id
            where x.to_rule_id = ? order by r.position""",
                [rule_id],
            ),
        ),
        "mentions": select_all(
            conn,
            """select distinct k.id as keyword_id, k.game_id as game, k.term, m.matched_text
            from keyword_mentions m join keywords k on k.id = m.keyword_id where m.rule_id = ?
            order by k.term, m.matched_text""",
            [rule_id],
        ),
        "keywords_defined": select_all(
            conn,
            """select id, game_id as game, term, kind from keywords
            where rule_id = ? order by term""",
            [rule_id],
        ),
        "rulings": with_raw_texts(
            select_all(
                conn,
                f"""select g.id, g.question, {PART_OF}, c.number, json_group_array(distinct c.raw_text) as raw_texts,
            c.how from ruling_citations c join rulings g on g.id = c.ruling_id where c.rule_id = ?
            group by g.id order by g.position""",
                [rule_id],
            )
        ),
        "replays": select_all(
            conn,
            """select p.id, p.title, p.verdict from replays p where p.id in (
            select s.replay_id from replay_step_citations c join replay_steps s on s.id = c.step_id
            where c.rule_id = ?) order by p.id""",
            [rule_id],
        ),
        "symbols": symbols(conn, game, document["id"]),
        "clarified_by": faqs.clarifications(conn, rule_id),
        "lineage": lineage(conn, rule_id),
        "history": _with_diffs(lineage_store.history(conn, rule_id)),
        "in_newest": []
        if document["is_newest"]
        else [row for row in equivalents(conn, rule_id, ("forward",)) if row["is_newest"]],
    }


def _with_diffs(history: list[dict]) -> list[dict]:
    """History events with ``diff``: the word diff from the text before the event to the text after it."""
    for before, event in zip([None, *history], history):
        changed = before is not None and event["text"] is not None and before["text"] != event["text"]
        event["diff"] = diff_ops(before["text"], event["text"]) if changed and before else []
    return history


def _ancestors(conn: sqlite3.Connection, rule: dict) -> list[dict]:
    """The rule's ancestors, root first."""
    chain: list[dict] = []
    parent_id = rule["parent_id"]
    while parent_id is not None and len(chain) < 50:  # bounded, should bad data ever hold a cycle
        parent = select_one(
            conn,
            f"""select {RULE_REF}, r.parent_id from rules r
            join documents d on d.id = r.document_id where r.id = ?""",
            [parent_id],
        )
        if parent is None:
            break
        chain.append(parent)
        parent_id = parent.pop("parent_id")
    return chain[::-1]


def _neighbour(conn: sqlite3.Connection, rule: dict, *, before: bool) -> dict | None:
    comparison, order = ("<", "desc") if before else (">", "asc")
    return select_one(
        conn,
        f"""select {RULE_REF} from rules r join documents d on d.id = r.document_id
        where r.document_id = ? and r.position {comparison} ? order by r.position {order} limit 1""",
        [rule["document_id"], rule["position"]],
    )


def lineage(conn: sqlite3.Connection, rule_id: int) -> list[dict]:
    """The same rule in the other versions: its successors and predecessors.

    A rule removed in the next version, or new in this one, has a row without a rule
    (``id`` is None); ``other_version`` names the version either way.
    """
    return select_all(
        conn,
        f"""
        select 'successor' as direction, l.kind, l.similarity, other.version as other_version, {RULE_REF}, r.text
        from rule_lineage l join documents other on other.id = l.to_document_id
        left join rules r on r.id = l.to_rule_id left join documents d on d.id = r.document_id
        where l.from_rule_id = :id
        union all
        select 'predecessor', l.kind, l.similarity, other.version, {RULE_REF}, r.text
        from rule_lineage l join documents other on other.id = l.from_document_id
        left join rules r on r.id = l.from_rule_id left join documents d on d.id = r.document_id
        where l.to_rule_id = :id""",
        {"id": rule_id},
    )


def renumbered(conn: sqlite3.Connection, game: str, number: str, document_id: str) -> list[dict]:
    """Rules of ``document_id`` that rule ``number`` of the game's other versions became (or came from),
    followed through the lineage version by version (``rules_db.lineage_store.equivalents``)."""
    found: dict[int, dict] = {}
    for other in select_all(
        conn,
        """select r.id, r.number as other_number, d.version as other_version from rules r
        join documents d on d.id = r.document_id
        where r.game_id = ? and r.number = ? collate nocase and r.document_id != ?""",
        [game, number.rstrip("."), document_id],
    ):
        for equivalent_document, _version, equivalent_number, kind in lineage_store.equivalents(conn, other["id"]):
            if equivalent_document != document_id or kind == "ancestor":
                continue
            rule = select_one(
                conn,
                f"""select {RULE_REF} from rules r join documents d on d.id = r.document_id
                where r.document_id = ? and r.number = ?""",
                [document_id, equivalent_number],
            )
            if rule is not None:
                found.setdefault(
                    rule["id"],
                    {
                        **rule,
                        "other_number": other["other_number"],
                        "other_version": other["other_version"],
                        "kind": kind,
                    },
                )
    return list(found.values())


def nearest_rules(conn: sqlite3.Connection, document_id: str, number: str, around: int = 3) -> list[dict]:
    """Existing rules closest to a missing number: its nearest existing ancestor and its neighbours in order.
    Rules are in number order in their document, so a binary search finds the place (a few keys computed)."""
    numbers, known = once_per_database(conn, ("rule numbers", document_id), lambda: _rule_numbers(conn, document_id))
    at = bisect.bisect_left(numbers, natural_key(number), key=natural_key)
    chosen = numbers[max(0, at - around) : at + around]
    prefix = number.rstrip(".").lower()
    while "." in prefix:
        prefix = prefix.rsplit(".", 1)[0]
        if prefix in known:
            if known[prefix] not in chosen:
                chosen.insert(0, known[prefix])
            break
    rules = {
        rule["number"]: rule
        for rule in select_all(
            conn,
            f"""select {RULE_REF} from rules r join documents d on d.id = r.document_id
            where r.document_id = ? and r.number in ({", ".join("?" for _ in chosen)})""",
            [document_id, *chosen],
        )
    }
    return [rules[found] for found in chosen if found in rules]


def _rule_numbers(conn: sqlite3.Connection, document_id: str) -> tuple[list[str], dict[str, str]]:
    """A document's rule numbers in order, and each by its lower-case spelling."""
    rows = conn.execute("select number from rules where document_id = ? order by position", [document_id])
    numbers = [row[0] for row in rows]
    return numbers, {number.lower(): number for number in numbers}


def locate_rule(conn: sqlite3.Connection, number: str, game: str | None = None) -> list[dict]:
    """Every rules version that has this number, newest first within each game."""
    return select_all(
        conn,
        """select r.game_id as game, d.version, r.number, r.heading, d.is_newest,
            case when b.is_default then null else b.slug end as rulebook, b.title as rulebook_title
        from rules r join documents d on d.id = r.document_id left join rulebooks b on b.id = d.rulebook_id
        where r.number = ? collate nocase and d.kind = 'rules' and (? is null or r.game_id = ?)
        order by r.game_id, b.is_default desc, b.slug, d.is_newest desc, coalesce(d.version_date, d.version) desc""",
        [number.rstrip("."), game, game],
    )
