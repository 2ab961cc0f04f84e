"""The same rule in the other versions of its rulebook: a cited rule followed through the lineage
(``equivalents``, ``with_newest``) and a replay's citations translated to the newest version through the one
translator of citations (``replay_citations_in_newest``). Shared by the rule, ruling and replay pages."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import sqlite_utils

from rules_db import lineage_store, versions
from rules_db.queries.common import RULE_REF, select_all, select_one
from rules_db.queries.kept import lookup_table, once_per_database
from rules_db.replays import CitationTranslator


def equivalents(
    conn: sqlite3.Connection, rule_id: int, directions: tuple[str, ...] = ("forward", "backward")
) -> list[dict]:
    """The same rule in every other version of its rulebook (or only the newer ones: ``directions``), oldest
    first, followed through the lineage step by step (``rules_db.lineage_store.equivalents``). ``kind`` is the
    lineage kind, or "ancestor" for a rule new in its version, given its nearest ancestor's equivalent instead."""
    return equivalents_of(conn, [rule_id], directions)[rule_id]


def equivalents_of(
    conn: sqlite3.Connection, rule_ids: list[int], directions: tuple[str, ...] = ("forward", "backward")
) -> dict[int, list[dict]]:
    """``equivalents`` of each rule. Each rule's are kept for the database's lifetime (it is served read-only):
    rulings cite the same rules. The kept answers are looked up once for all the rows of a page."""
    kept: dict[tuple, list[dict]] = lookup_table(conn, ("equivalents",), dict)
    for rule_id in rule_ids:
        if (rule_id, directions) not in kept:
            kept[(rule_id, directions)] = _equivalents(conn, rule_id, directions)
    return {rule_id: [dict(rule) for rule in kept[(rule_id, directions)]] for rule_id in rule_ids}


def _equivalents(conn: sqlite3.Connection, rule_id: int, directions: tuple[str, ...]) -> list[dict]:
    found = lineage_store.equivalents(conn, rule_id, directions)
    if not found:
        return []
    wanted = json.dumps([[document_id, number] for document_id, _version, number, _kind in found])
    rules = {
        (rule["document_id"], rule["number"]): rule
        for rule in select_all(
            conn,
            f"""select {RULE_REF} from json_each(?) w join rules r
            on r.document_id = json_extract(w.value, '$[0]') and r.number = json_extract(w.value, '$[1]')
            join documents d on d.id = r.document_id""",
            [wanted],
        )
    }
    return [
        {**rule, "is_newest": bool(rule["is_newest"]), "kind": kind}
        for document_id, _version, number, kind in found
        if (rule := rules.get((document_id, number))) is not None
    ]


def with_newest(conn: sqlite3.Connection, rows: list[dict]) -> list[dict]:
    """Rows pointing at rules (``RULE_REF``), each marked ``stale`` when its rule is in a version that is
    not the newest of its rulebook, with ``in_newest``: the same rule in the newest version (what the
    citation means today; the newest version lies ahead of a stale rule, so only the newer versions are walked)."""
    for row in rows:
        row["stale"] = row["id"] is not None and not row["is_newest"]
    later = equivalents_of(conn, [row["id"] for row in rows if row["stale"]], ("forward",))
    for row in rows:
        row["in_newest"] = [other for other in later[row["id"]] if other["is_newest"]] if row["stale"] else []
    return rows


@contextmanager
def lent_translator(
    conn: sqlite3.Connection, game: str, from_version: str, to_version: str
) -> Iterator[CitationTranslator]:
    """The translator of citations between two versions, kept per database (reading the older version's outline
    is most of its cost, and it remembers what it translated), lent to one request at a time and reading through
    that request's connection (each translator has its lock: requests for other versions do not wait). LookupError
    when the database lacks either version."""
    translator, lent = once_per_database(
        conn,
        ("citation translator", game, from_version, to_version),
        lambda: (CitationTranslator(sqlite_utils.Database(conn), game, from_version, to_version), threading.Lock()),
    )
    with lent:
        translator.db = sqlite_utils.Database(conn)
        yield translator


def replay_citations_in_newest(conn: sqlite3.Connection, rows: list[dict]) -> list[dict]:
    """What `with_newest` does for the rules a replay's steps cite, through the one translator of citations
    (`CitationTranslator`): a rule the newest version removed has nothing like it there, rather than its
    nearest ancestor, which says something else."""
    # Translating walks the lineage: each cited rule's counterpart is kept for the database's lifetime (it is
    # served read-only), so a replay page reads what the replays citing the same rules before it found.
    kept: dict[int, list[dict]] = lookup_table(conn, ("replay citations in newest",), dict)
    for row in rows:
        row["stale"] = row["id"] is not None and not row["is_newest"]
        if row["stale"] and row["id"] not in kept:
            kept[row["id"]] = _translated_to_newest(conn, row)
        row["in_newest"] = [dict(other) for other in kept[row["id"]]] if row["stale"] else []
    return rows


def translate_replay_citations(conn: sqlite3.Connection) -> None:
    """Every rule the stored replays cite followed to the newest version of its rulebook, once, for a server to
    do before it serves: a replay page reads what it finds (``replay_citations_in_newest`` keeps it for the
    database's lifetime), and translating a replay's rules there took a first replay page 20-50 ms. Bounded by
    the rules the library cites, not by its replays."""
    replay_citations_in_newest(
        conn,
        select_all(
            conn,
            f"""select {RULE_REF} from rules r join documents d on d.id = r.document_id
            where r.id in (select rule_id from replay_step_citations)""",
        ),
    )


def _translated_to_newest(conn: sqlite3.Connection, row: dict) -> list[dict]:
    """The rule of the newest version of its rulebook that a rule of an older one translates to (none or one)."""
    newest = versions.rules_document(conn, row["game"], None, row["rulebook"])
    if newest is None:
        return []
    with lent_translator(conn, row["game"], row["version"], newest["version"]) as translator:
        number = translator.direct(row["number"])
    found = number and select_one(
        conn,
        f"select {RULE_REF} from rules r join documents d on d.id = r.document_id "
        "where r.document_id = ? and r.number = ?",
        [newest["id"], number],
    )
    return [{**found, "is_newest": True, "kind": "translated"}] if found else []
