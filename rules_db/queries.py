"""The questions the judges' pages ask of the database.

Every function takes an open ``sqlite3.Connection`` and returns plain data
(dicts and lists) that is both rendered by the Datasette pages and served as
their JSON. Rows that point at a rule carry ``game``, ``version`` and ``number``,
which together name the rule's permalink. ``CANNED_QUERIES`` holds the SQL the
Datasette metadata offers as canned queries.
"""

from __future__ import annotations

import bisect
import heapq
import json
import os
import re
import sqlite3
import threading
from collections import Counter, OrderedDict, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit

import sqlite_utils
from rapidfuzz import fuzz, process

from ingest.outline import natural_key
from rules_db import card_status, faqs, in_force, lineage_diff, lineage_store, versions
from rules_db.lineage import KINDS, word_diff
from rules_db.replays import CitationTranslator
from rules_db.store import slugify
from scenarios.versions import faq_parts, is_faq

# Rule references in lists: enough to name, link and preview a rule. ``rulebook`` is the slug a
# rule's URL carries: None for the game's default rulebook (/rules/riftbound/2025-12-01/336.1),
# else /rules/riftbound/tournament/2026-07-16/204.8.
_RULE_REF = """r.id, r.game_id as game, d.version, r.number, r.heading,
    substr(r.text, 1, 160) as preview, d.is_newest, r.document_id,
    (select case when b.is_default then null else b.slug end from rulebooks b where b.id = d.rulebook_id)
        as rulebook, (select b.title from rulebooks b where b.id = d.rulebook_id) as rulebook_title"""

# A rule number longer than this names no rule (the longest in the bundled documents has 11 characters).
LONGEST_RULE_NUMBER = 64

# Rows per page of a list; the version comparison's rows carry two texts and a word diff each.
PAGE_SIZE = 100
DIFF_PAGE_SIZE = 50
MENTIONS_PAGE_SIZE = 50


def _rows(conn: sqlite3.Connection, sql: str, params=()) -> list[dict]:
    cursor = conn.execute(sql, params)
    names = [column[0] for column in cursor.description]
    return [dict(zip(names, row)) for row in cursor.fetchall()]


def _row(conn: sqlite3.Connection, sql: str, params=()) -> dict | None:
    rows = _rows(conn, sql, params)
    return rows[0] if rows else None


# ---------------------------------------------------------------- home


# A ruling's question as lists show it: a sub-question (one the source asks under another, "Resolution Sequence")
# names nothing alone, so a list also gives the question it is part of (null for any other). A column of a query
# that names its rulings table ``g``, as every list of rulings here does.
_PART_OF = "(select question from rulings where id = g.parent_ruling_id) as part_of"


def parts_of(conn: sqlite3.Connection, ruling_ids: list[int]) -> dict[int, str]:
    """The question each sub-question among ``ruling_ids`` is part of (``_PART_OF``), for lists that do not read the
    rulings themselves (search hits)."""
    return dict(
        conn.execute(
            f"""select g.id, {_PART_OF} from json_each(?) w join rulings g on g.id = w.value
            where g.parent_ruling_id is not null""",
            [json.dumps(ruling_ids)],
        ).fetchall()
    )


def licensed_sources(conn: sqlite3.Connection) -> list[dict]:
    """The ruling sources shared under a licence (CC BY-SA: their text is credited wherever it is shown), each
    with its licence, the licence's URL, its site (where its rulings' pages are) and what it writes about itself
    (``notes``, from ``source_notes``: not rulings, shown with its credit)."""
    rows = _rows(
        conn,
        """select source, licence, licence_url, min(url) as url, json_group_array(distinct document_id) as documents
        from rulings where licence is not null and licence != '' group by source, licence, licence_url order by source""",
        [],
    )
    for row in rows:
        parts = urlsplit(row.pop("url") or "")
        row["site"] = f"{parts.scheme}://{parts.netloc}/" if parts.scheme and parts.netloc else None
        row["notes"] = _rows(
            conn,
            """select n.title, n.text, n.url from json_each(?) d join source_notes n on n.document_id = d.value
            order by n.document_id, n.position""",
            [row.pop("documents")],
        )
    return rows


def home(conn: sqlite3.Connection, day: str | None = None, today: str | None = None) -> dict:
    """Every game with its documents (every version) and what each holds; the game with most documents first.
    With ``day`` (ISO), each game whose versions are dated says what was in force that day (``in_force``);
    ``today`` is the day the page calls today."""
    games = _rows(
        conn, "select id, name from games order by (select count(*) from documents where game_id = games.id) desc, name"
    )
    documents = _rows(
        conn,
        """
        select d.id, d.game_id, d.title, d.version, d.version_label, d.version_date, d.kind, d.source_file,
            d.original_name, d.is_newest, d.coverage, d.written_against, d.rulebook_id, b.title as rulebook_title,
            case when b.is_default then null else b.slug end as rulebook, previous.version as diff_from,
            (select count(*) from rules where document_id = d.id) as rules,
            (select count(*) from keywords where document_id = d.id) as keywords,
            (select count(*) from rulings where document_id = d.id) as rulings,
            (select count(*) from infractions where document_id = d.id) as infractions,
            (select count(*) from parse_issues where document_id = d.id) as parse_issues,
            (select count(*) from skipped_lines where document_id = d.id) as skipped_lines
        from documents d left join rulebooks b on b.id = d.rulebook_id
        left join documents previous on previous.id = d.previous_id
        order by d.game_id, d.kind, b.is_default desc, b.slug, coalesce(d.version_date, d.version) desc""",
    )
    by_game = defaultdict(list)
    for document in documents:
        by_game[document["game_id"]].append(document)
    for game in games:
        game["documents"] = by_game[game["id"]]
        game["cards"] = conn.execute("select count(*) from cards where game_id = ?", [game["id"]]).fetchone()[0]
        game["errata"] = conn.execute(  # the text changes in force: not those a newer list replaces, nor FAQs
            "select count(*) from card_errata join cards on cards.id = card_errata.card_id where cards.game_id = ? "
            "and card_errata.new_text is not null and card_errata.superseded_by is null",
            [game["id"]],
        ).fetchone()[0]
        game["banned"] = conn.execute(
            "select count(distinct card_id) from bans where game_id = ? and format = 'Constructed'", [game["id"]]
        ).fetchone()[0]
        game["replays"] = conn.execute(
            "select count(*) from replays join documents on documents.id = replays.rules_document_id "
            "where documents.game_id = ?",
            [game["id"]],
        ).fetchone()[0]
        game["in_force"] = None
        if day and (in_force.listed_versions(conn, game["id"]) or in_force.faqs_on(conn, game["id"], "9999-12-31")):
            game["in_force"] = {**in_force.in_force_on(conn, game["id"], day), "is_today": day == today}
    return {"games": games, "day": day, "today": today}


# ---------------------------------------------------------------- rules


def _find_rule(conn: sqlite3.Connection, document_id: str, number: str) -> dict | None:
    return _row(conn, "select * from rules where document_id = ? and number = ?", [document_id, number]) or _row(
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
    page = {"game": _row(conn, "select id, name from games where id = ?", [game]), "document": document}
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
        "children": _rows(
            conn,
            f"""select {_RULE_REF} from rules r join documents d on d.id = r.document_id
            where r.parent_id = ? order by r.position""",
            [rule_id],
        ),
        "previous": _neighbour(conn, rule, before=True),
        "next": _neighbour(conn, rule, before=False),
        "references": with_newest(
            conn,
            _rows(
                conn,
                f"""select x.target_number, x.raw_text, x.status, {_RULE_REF}
            from rule_refs x left join rules r on r.id = x.to_rule_id
            left join documents d on d.id = r.document_id where x.from_rule_id = ? order by x.id""",
                [rule_id],
            ),
        ),
        "referenced_by": with_newest(
            conn,
            _rows(
                conn,
                f"""select distinct {_RULE_REF}, x.raw_text from rule_refs x
            join rules r on r.id = x.from_rule_id join documents d on d.id = r.document_id
            where x.to_rule_id = ? order by r.position""",
                [rule_id],
            ),
        ),
        "mentions": _rows(
            conn,
            """select distinct k.id as keyword_id, k.game_id as game, k.term, m.matched_text
            from keyword_mentions m join keywords k on k.id = m.keyword_id where m.rule_id = ?
            order by k.term, m.matched_text""",
            [rule_id],
        ),
        "keywords_defined": _rows(
            conn,
            """select id, game_id as game, term, kind from keywords
            where rule_id = ? order by term""",
            [rule_id],
        ),
        "rulings": _with_raw_texts(
            _rows(
                conn,
                f"""select g.id, g.question, {_PART_OF}, c.number, json_group_array(distinct c.raw_text) as raw_texts,
            c.how from ruling_citations c join rulings g on g.id = c.ruling_id where c.rule_id = ?
            group by g.id order by g.position""",
                [rule_id],
            )
        ),
        "replays": _rows(
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


def symbols(conn: sqlite3.Connection, game: str, document_id: str | None = None) -> list[dict]:
    """The shorthand a text of the game may print for its symbols (``[A]``, ``[E]``), each with what it stands for
    and the rule that defines it (a rule row): the definitions of the document the text is in, else those of the
    game's newest version that defines any (a ruling's or a card's text, an older version defining none)."""
    source = conn.execute(
        """select s.document_id from symbols s join documents d on d.id = s.document_id where s.game_id = ?
        order by s.document_id is ? desc, d.is_newest desc, d.version desc limit 1""",
        [game, document_id],
    ).fetchone()
    if source is None:
        return []
    return _rows(
        conn,
        f"""select s.shorthand, s.meaning, {_RULE_REF} from symbols s join rules r on r.id = s.rule_id
        join documents d on d.id = r.document_id where s.document_id = ? order by s.id""",
        [source[0]],
    )


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
        parent = _row(
            conn,
            f"""select {_RULE_REF}, r.parent_id from rules r
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
    return _row(
        conn,
        f"""select {_RULE_REF} from rules r join documents d on d.id = r.document_id
        where r.document_id = ? and r.position {comparison} ? order by r.position {order} limit 1""",
        [rule["document_id"], rule["position"]],
    )


def lineage(conn: sqlite3.Connection, rule_id: int) -> list[dict]:
    """The same rule in the other versions: its successors and predecessors.

    A rule removed in the next version, or new in this one, has a row without a rule
    (``id`` is None); ``other_version`` names the version either way.
    """
    return _rows(
        conn,
        f"""
        select 'successor' as direction, l.kind, l.similarity, other.version as other_version, {_RULE_REF}, r.text
        from rule_lineage l join documents other on other.id = l.to_document_id
        left join rules r on r.id = l.to_rule_id left join documents d on d.id = r.document_id
        where l.from_rule_id = :id
        union all
        select 'predecessor', l.kind, l.similarity, other.version, {_RULE_REF}, r.text
        from rule_lineage l join documents other on other.id = l.from_document_id
        left join rules r on r.id = l.from_rule_id left join documents d on d.id = r.document_id
        where l.to_rule_id = :id""",
        {"id": rule_id},
    )


def diff_ops(old: str | None, new: str | None) -> list[dict]:
    """The word diff (``lineage.word_diff``) as pages and their JSON show it: ``{"op", "text"}`` runs."""
    return [{"op": op, "text": text} for op, text in word_diff(old or "", new or "")]


def diff_page(
    conn: sqlite3.Connection,
    game: str,
    old_version: str,
    new_version: str,
    kind: str | None = None,
    section: str | None = None,
    show_renumbered: bool = False,
    page: int = 1,
    rulebook: str | None = None,
    rule: str | None = None,
) -> dict | None:
    """What changed between two versions of a rulebook (``rules_db.lineage_store.stored_diff_summary``; the game's
    default rulebook unless ``rulebook`` names another): the counts and sections of the whole comparison,
    and one page of its rows narrowed to one ``kind`` (every kind but "unchanged" when none is asked) and
    one ``section`` and one ``rule`` (its number in either version, with its sub-rules), each with a word-level
    diff when the text changed. Rules only renumbered (moved, same
    text) are left out unless ``show_renumbered``; ``renumbered_only`` counts them. None when either
    version does not exist."""
    try:
        summary = _diff_summary(conn, game, old_version, new_version, rulebook)
    except LookupError:
        return None
    selection = lineage_diff.DiffSelection(conn, summary, kind, section, show_renumbered, rule)
    pages, page = page_in_range(selection.total, page, DIFF_PAGE_SIZE)
    shown = [{**row} for row in selection.rows((page - 1) * DIFF_PAGE_SIZE, DIFF_PAGE_SIZE)]
    for row in shown:
        changed = row["old_text"] is not None and row["new_text"] is not None and row["old_text"] != row["new_text"]
        row["diff"] = diff_ops(row["old_text"], row["new_text"]) if changed else []
    return {
        **{key: value for key, value in summary.items() if key not in ("rows", "stored", "groups", "lineage_ids")},
        "patch_notes": in_force.patch_notes_between(
            conn, game, summary["old"]["version"], summary["new"]["version"], rulebook
        ),
        "game_name": _game_name(conn, game),
        "kinds": list(KINDS),
        "kind": kind,
        "section": section,
        "rule": rule,
        "show_renumbered": show_renumbered,
        "rows": shown,
        "total": selection.total,
        "renumbered_only": selection.renumbered,
        "page": page,
        "pages": pages,
    }


# What the pages read of a database that is served read-only is worked out once per database file (its path, size
# and time of change) and kept, in two caches, so that neither pushes out the other: answers that read a whole
# rulebook version or a pair of them (a version's outline, the comparison of two versions, a pair's citation
# translator), one per version a judge browses, at most ``_KEPT_ANSWERS_MAX`` per database, least recently used
# dropped first; and lookup tables (search's vocabulary and scoring rows, card names, the rulings sharing a rule, the
# lists' filter choices), which pages of every version read: a fixed few per database, each keyed by what it is and
# never by what a request typed (a request could then grow it without end), none dropped while the database is in
# use. Each cache holds the answers of the last ``_DATABASES_KEPT`` database files read (a test process reads many).
_KEPT_ANSWERS_MAX = 32
_DATABASES_KEPT = 4
_NOT_KEPT = object()


class _KeptPerDatabase:
    """Values computed once per database file and key, for the last ``_DATABASES_KEPT`` files; at most
    ``per_database`` per file, least recently used dropped first (None: every value kept). Shared by the server's
    threads."""

    def __init__(self, per_database: int | None):
        self.per_database = per_database
        self.databases: OrderedDict[tuple, OrderedDict[tuple, object]] = OrderedDict()  # least recently used first
        self.lock = threading.Lock()  # the server's threads read, reorder, evict and insert at once

    def get(self, conn: sqlite3.Connection, key: tuple, compute):
        """``compute()``, or its earlier answer for the same database file and ``key``. A connection in the middle
        of writing sees what the file does not hold yet: it gets an answer of its own."""
        identity = _database_identity(conn)
        if identity is None or conn.in_transaction:
            return compute()
        with self.lock:
            answers = self._answers(identity)
            kept = answers.get(key, _NOT_KEPT)
            if kept is not _NOT_KEPT:
                answers.move_to_end(key)
                return kept
        answer = compute()
        with self.lock:
            answers = self._answers(identity)
            while self.per_database is not None and len(answers) >= self.per_database:
                answers.popitem(last=False)  # the least recently used: a warm-up's answers stay while in use
            answers[key] = answer
        return answer

    def _answers(self, identity: tuple) -> OrderedDict[tuple, object]:
        """The answers kept for the database file ``identity``, now its most recently used (under the lock)."""
        answers = self.databases.get(identity)
        if answers is None:
            answers = self.databases[identity] = OrderedDict()
            while len(self.databases) > _DATABASES_KEPT:
                self.databases.popitem(last=False)
        self.databases.move_to_end(identity)
        return answers


_KEPT_ANSWERS = _KeptPerDatabase(_KEPT_ANSWERS_MAX)
_LOOKUP_TABLES = _KeptPerDatabase(None)


# The identity of the database a request reads, held on the thread running it (``one_request``).
_REQUEST = threading.local()


@contextmanager
def one_request(conn: sqlite3.Connection):
    """One request's reading of ``conn``: the identity of its database file, which every kept answer is keyed by,
    is read once here rather than at each look-up (a pragma and a file's stat, several times a search). The file
    does not change under a request that only reads. Within another request on the same connection, that one's."""
    outer = getattr(_REQUEST, "held", None)
    if outer is not None and outer[0] is conn:
        yield
        return
    _REQUEST.held = (conn, _read_database_identity(conn))
    try:
        yield
    finally:
        _REQUEST.held = outer


def _database_identity(conn: sqlite3.Connection) -> tuple | None:
    """``file_identity`` of the database ``conn`` reads: the one its request read (``one_request``), else read now."""
    held = getattr(_REQUEST, "held", None)
    return held[1] if held is not None and held[0] is conn else _read_database_identity(conn)


def _read_database_identity(conn: sqlite3.Connection) -> tuple | None:
    return file_identity(next((row[2] for row in conn.execute("pragma database_list") if row[1] == "main"), ""))


def file_identity(path: str | None) -> tuple | None:
    """A database file's path, size and time of change, the key of every answer kept for it: a rebuilt database
    (or another database in the same process) never gets an answer of the old one. None for a database held in
    memory, whose answers are never kept."""
    if not path:
        return None
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return (path, stat.st_size, stat.st_mtime_ns)


def once_per_database(conn: sqlite3.Connection, key: tuple, compute):
    """``compute()`` (an answer that reads a whole rulebook version or a pair of them), worked out once per database
    file and ``key``; at most ``_KEPT_ANSWERS_MAX`` kept."""
    return _KEPT_ANSWERS.get(conn, key, compute)


def lookup_table(conn: sqlite3.Connection, key: tuple, build):
    """``build()`` (a lookup table of the whole database, not of one version), built once per database file and
    ``key``, and kept while the database is open, apart from the answers browsing versions cycles through."""
    return _LOOKUP_TABLES.get(conn, key, build)


def _diff_summary(
    conn: sqlite3.Connection, game: str, old_version: str, new_version: str, rulebook: str | None
) -> dict:
    return once_per_database(
        conn,
        ("diff", game, rulebook, old_version, new_version),
        lambda: lineage_store.stored_diff_summary(conn, game, old_version, new_version, rulebook=rulebook),
    )


def comparisons(conn: sqlite3.Connection, game: str) -> dict:
    """The game's name and each pair of its rulebooks' versions the lineage compares, newest first: what a
    comparison that does not exist offers instead."""
    found = _rows(
        conn,
        """select o.version as old, n.version as new, b.title as rulebook_title,
            case when b.is_default then null else b.slug end as rulebook
        from rule_lineage_pairs l join documents o on o.id = l.from_document_id join documents n on n.id = l.to_document_id
        left join rulebooks b on b.id = n.rulebook_id where n.game_id = ? order by n.version desc""",
        [game],
    )
    return {"game_name": _game_name(conn, game), "pairs": found}


def _game_name(conn: sqlite3.Connection, game: str) -> str:
    """A game's name, or its id when the database does not know the game."""
    name = conn.execute("select name from games where id = ?", [game]).fetchone()
    return name[0] if name else game


def compare_every_version_pair(conn: sqlite3.Connection) -> None:
    """Each pair of versions the lineage links (``rule_lineage_pairs``) compared once (``_diff_summary``), for a server
    to do before it serves: a comparison's first page reads the counts of two whole rulebooks' changes and their
    sections (a few ms, more at 100 times the bundled rulebooks). At most a quarter of the answers kept per database."""
    pairs = conn.execute(
        """select o.game_id, case when b.is_default then null else b.slug end, o.version, n.version
        from rule_lineage_pairs l join documents o on o.id = l.from_document_id join documents n on n.id = l.to_document_id
        left join rulebooks b on b.id = n.rulebook_id order by n.is_newest desc, n.id limit ?""",
        [_KEPT_ANSWERS_MAX // 4],
    ).fetchall()
    for game, rulebook, old_version, new_version in pairs:
        _diff_summary(conn, game, old_version, new_version, rulebook)


def renumbered(conn: sqlite3.Connection, game: str, number: str, document_id: str) -> list[dict]:
    """Rules of ``document_id`` that rule ``number`` of the game's other versions became (or came from),
    followed through the lineage version by version (``rules_db.lineage_store.equivalents``)."""
    found: dict[int, dict] = {}
    for other in _rows(
        conn,
        """select r.id, r.number as other_number, d.version as other_version from rules r
        join documents d on d.id = r.document_id
        where r.game_id = ? and r.number = ? collate nocase and r.document_id != ?""",
        [game, number.rstrip("."), document_id],
    ):
        for equivalent_document, _version, equivalent_number, kind in lineage_store.equivalents(conn, other["id"]):
            if equivalent_document != document_id or kind == "ancestor":
                continue
            rule = _row(
                conn,
                f"""select {_RULE_REF} from rules r join documents d on d.id = r.document_id
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
        for rule in _rows(
            conn,
            f"""select {_RULE_REF} from rules r join documents d on d.id = r.document_id
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
    return _rows(
        conn,
        """select r.game_id as game, d.version, r.number, r.heading, d.is_newest,
            case when b.is_default then null else b.slug end as rulebook, b.title as rulebook_title
        from rules r join documents d on d.id = r.document_id left join rulebooks b on b.id = d.rulebook_id
        where r.number = ? collate nocase and d.kind = 'rules' and (? is null or r.game_id = ?)
        order by r.game_id, b.is_default desc, b.slug, d.is_newest desc, coalesce(d.version_date, d.version) desc""",
        [number.rstrip("."), game, game],
    )


# ---------------------------------------------------------------- infractions


def infractions_page(conn: sqlite3.Connection, game: str, rulebook: str | None = None) -> dict | None:
    """The infractions a game's rulebooks define with their penalties (the newest version of each
    rulebook that has any, or of the one named), grouped by category in rule order. None when the game
    has none."""
    documents = [
        document
        for document in versions.newest_documents(conn, game)
        if rulebook in (None, document["rulebook_slug"])
        and conn.execute("select 1 from infractions where document_id = ?", [document["id"]]).fetchone()
    ]
    if not documents:
        return None
    books = []
    for document in documents:
        rows = _rows(
            conn,
            f"""select i.name, i.penalty, i.category, {_RULE_REF} from infractions i
            join rules r on r.id = i.rule_id join documents d on d.id = r.document_id
            where i.document_id = ? order by r.position""",
            [document["id"]],
        )
        categories: list[dict] = []
        for row in rows:
            if not categories or categories[-1]["category"] != row["category"]:
                categories.append({"category": row["category"], "infractions": []})
            categories[-1]["infractions"].append(row)
        penalties = dict(Counter(row["penalty"] for row in rows))
        books.append({"document": document, "categories": categories, "penalties": penalties})
    return {"game": _row(conn, "select id, name from games where id = ?", [game]), "rulebooks": books}


# ---------------------------------------------------------------- keywords


def keyword_page(
    conn: sqlite3.Connection, game: str, term: str, version: str | None = None, page: int = 1
) -> dict | None:
    """A keyword in one version of its game's rules (the newest that defines it unless asked): its definition,
    and one page (``page``, ``MENTIONS_PAGE_SIZE`` a page) of the rules that mention it, each with the sentence that does."""
    keyword = _row(
        conn,
        """select k.*, d.version, g.name as game_name from keywords k
        left join documents d on d.id = k.document_id left join games g on g.id = k.game_id
        where k.game_id = ? and k.term = ? collate nocase and (? is null or d.version = ?)
        order by d.is_newest desc, d.version desc, k.id limit 1""",
        [game, term, version, version],
    )
    if keyword is None:
        return None
    keyword_id = keyword["id"]
    keyword["aliases"] = stored_aliases(keyword["aliases"])
    return {
        "keyword": keyword,
        "symbols": symbols(conn, game, keyword["document_id"]),
        "defining_rule": _row(
            conn,
            f"""select {_RULE_REF}, r.text, r.raw_text from rules r
            join documents d on d.id = r.document_id where r.id = ?""",
            [keyword["rule_id"]],
        ),
        "definition": definition(conn, keyword["rule_id"]),
        **_mentioning_rules(conn, keyword_id, page),
        "rulings": _rows(
            conn,
            f"""select g.id, g.question, {_PART_OF}, group_concat(distinct x.how) as how from (
                select ruling_id, 'mention' as how from keyword_mentions where keyword_id = ? and ruling_id is not null
                union all select ruling_id, 'citation' from ruling_citations where keyword_id = ?) x
            join rulings g on g.id = x.ruling_id group by g.id order by g.position""",
            [keyword_id, keyword_id],
        ),
        "cards": _rows(
            conn,
            """select c.name, c.slug, ck.value from card_keywords ck join cards c on c.id = ck.card_id
            where ck.keyword_id = ? order by c.name""",
            [keyword_id],
        ),
        "also_defined": _rows(
            conn,
            f"""select {_RULE_REF} from keywords k join rules r on r.id = k.rule_id
            join documents d on d.id = r.document_id where k.document_id = ? and k.term = ? collate nocase
            and k.id != ? order by r.position""",
            [keyword["document_id"], keyword["term"], keyword_id],
        ),
        "other_versions": _rows(
            conn,
            """select k.term, d.version, min(k.defining_number) as defining_number
            from keywords k join documents d on d.id = k.document_id where k.game_id = ? and k.term = ? collate nocase
            and k.document_id != ? group by d.id order by d.version desc""",
            [game, keyword["term"], keyword["document_id"]],
        ),
    }


DEFINITION_LIMIT = 40
# Where a sentence ends: . ! or ? (and any closing quote or bracket) before a space and a capital, or a line break.
_SENTENCE_END = re.compile(r"(?<=[.!?])(?<![A-Z]\.)[\"”’)\]]*\s+(?=[A-Z\"“(\[])|\n+")


def definition(conn: sqlite3.Connection, rule_id: int | None, limit: int = DEFINITION_LIMIT) -> list[dict]:
    """The rules that spell out what a defining rule defines: its sub-rules and, for a headed top-level rule
    of a rulebook numbered flat, the rules after it up to the next heading (Units, 139, is defined in 140-144),
    in document order, at most ``limit``."""
    rule = _row(conn, "select document_id, position, depth, heading from rules where id = ?", [rule_id])
    if rule is None:
        return []
    flat_section = rule["depth"] == 0 and rule["heading"] is not None
    end = conn.execute(
        """select min(position) from rules where document_id = ? and position > ? and depth <= ?
        and (? = 0 or heading is not null)""",
        [rule["document_id"], rule["position"], rule["depth"], flat_section],
    ).fetchone()[0]
    return _rows(
        conn,
        f"""select {_RULE_REF}, r.depth - ? as depth, r.raw_text from rules r join documents d on d.id = r.document_id
        where r.document_id = ? and r.position > ? and (? is null or r.position < ?) order by r.position limit ?""",
        [rule["depth"], rule["document_id"], rule["position"], end, end, limit],
    )


def _mentioning_rules(conn: sqlite3.Connection, keyword_id: int, page: int) -> dict:
    """One page of the rules mentioning a keyword (``rules``, with ``rules_total``, ``rules_page`` and
    ``rules_pages``), each with ``sentence``: the first whole sentence of its text holding a matched word."""
    listed = _paged(
        conn,
        f"""select {_RULE_REF}, r.text, replace(group_concat(distinct m.matched_text), ',', ', ') as matched
        from keyword_mentions m join rules r on r.id = m.rule_id join documents d on d.id = r.document_id
        where m.keyword_id = :keyword group by r.id""",
        "r.position",
        {"keyword": keyword_id},
        page,
        MENTIONS_PAGE_SIZE,
    )
    for row in listed["rows"]:
        words = [word for word in (row["matched"] or "").split(", ") if word]
        row["sentence"] = sentence_with(row.pop("text") or "", words)
    return {
        "rules": listed["rows"],
        "rules_total": listed["total"],
        "rules_page": listed["page"],
        "rules_pages": listed["pages"],
    }


def sentence_with(text: str, words: list[str]) -> str:
    """The first sentence of ``text`` holding one of ``words`` (whole words, any case); the text's first
    sentence when none does."""
    sentences = [sentence for sentence in _SENTENCE_END.split(text) if sentence.strip()]
    for sentence in sentences:
        if any(re.search(rf"(?<!\w){re.escape(word)}(?!\w)", sentence, re.IGNORECASE) for word in words):
            return sentence.strip()
    return sentences[0].strip() if sentences else ""


def stored_aliases(stored: str | None) -> list[str]:
    """Aliases as stored: a JSON list, or comma-separated text."""
    if not stored:
        return []
    try:
        aliases = json.loads(stored)
    except ValueError:
        aliases = stored.split(",")
    return [alias.strip() for alias in aliases if isinstance(alias, str) and alias.strip()]


# ---------------------------------------------------------------- rulings


def ruling_page(conn: sqlite3.Connection, ruling_id: int) -> dict | None:
    ruling = _row(
        conn,
        """select g.*, d.title as document_title, d.written_against, games.name as game_name,
            rd.version as rules_version, rd.version_label as rules_version_label, rd.is_newest as rules_is_newest,
            newest.version as newest_version, newest.version_label as newest_version_label
        from rulings g left join documents d on d.id = g.document_id left join games on games.id = g.game_id
        left join documents rd on rd.id = g.rules_document_id
        left join documents newest on newest.rulebook_id = rd.rulebook_id and newest.is_newest = 1
        where g.id = ?""",
        [ruling_id],
    )
    if ruling is None:
        return None
    return {
        "ruling": ruling,
        "parent": _row(conn, "select id, question from rulings where id = ?", [ruling["parent_ruling_id"]]),
        "sub_questions": _rows(
            conn, "select id, question, anchor from rulings where parent_ruling_id = ? order by position", [ruling_id]
        ),
        "source_related": _rows(
            conn,
            """select distinct g.id, g.question, g.page_title, x.target from ruling_relations x
            join rulings g on g.id = x.related_ruling_id where x.ruling_id = ? order by g.position""",
            [ruling_id],
        ),
        "sequence": ruling_sequence(conn, ruling_id),
        "nuances": _rows(
            conn, "select position, text from ruling_nuances where ruling_id = ? order by position", [ruling_id]
        ),
        "citations": citations(conn, ruling_id),
        "mentions": _rows(
            conn,
            """select distinct k.id as keyword_id, k.game_id as game, k.term, m.matched_text
            from keyword_mentions m join keywords k on k.id = m.keyword_id where m.ruling_id = ?
            order by k.term, m.matched_text""",
            [ruling_id],
        ),
        "cards": _cards_named(conn, ruling_id),
        "related": related_rulings(conn, ruling_id),
        "replays": _rows(conn, "select id, title, verdict from replays where ruling_id = ? order by id", [ruling_id]),
        "faq": faqs.article_of(conn, ruling["document_id"]),
    }


def _cards_named(conn: sqlite3.Connection, ruling_id: int) -> list[dict]:
    """The cards a ruling names, each with the names it goes by there."""
    cards = _rows(
        conn,
        """select c.id, c.name, c.slug from cards c
        where c.id in (select card_id from card_mentions where ruling_id = ?) order by c.name""",
        [ruling_id],
    )
    for card in cards:
        card["surfaces"] = [
            row["surface"]
            for row in _rows(
                conn,
                """select distinct surface from card_mentions
            where ruling_id = ? and card_id = ? order by surface""",
                [ruling_id, card["id"]],
            )
        ]
    return cards


def ruling_sequence(conn: sqlite3.Connection, ruling_id: int) -> list[dict]:
    """A ruling's Sequence, its steps grouped under their branch headers ('If Guardian Angel is chosen')."""
    return _branches(
        _rows(
            conn, "select branch, position, text from ruling_steps where ruling_id = ? order by position", [ruling_id]
        )
    )


def _branches(steps: list[dict]) -> list[dict]:
    """Steps grouped into consecutive runs under the same branch header, order kept."""
    groups: list[dict] = []
    for step in steps:
        if not groups or groups[-1]["branch"] != step["branch"]:
            groups.append({"branch": step["branch"], "steps": []})
        groups[-1]["steps"].append(step)
    return groups


def citations(conn: sqlite3.Connection, ruling_id: int) -> list[dict]:
    """A ruling's citations; ``stale`` when the cited version is not the newest, with its equivalent rules: in
    the newest version when stale (what it means today; the other older ones would only crowd it), else in every
    other version."""
    rows = _with_raw_texts(
        _rows(
            conn,
            f"""select min(c.id) as citation_id, c.number as cited_number,
            json_group_array(distinct c.raw_text) as raw_texts, c.how, c.written_against, cd.version as cited_version,
            coalesce(cd.is_newest, 1) = 0 as stale, c.keyword_id, {_RULE_REF}
        from ruling_citations c left join documents cd on cd.id = c.document_id
        left join rules r on r.id = c.rule_id left join documents d on d.id = r.document_id
        where c.ruling_id = ? group by c.number, c.document_id, c.how order by min(c.id)""",
            [ruling_id],
        )
    )
    found = equivalents_of(conn, [row["id"] for row in rows if row["id"] is not None])
    for row in rows:
        row["stale"] = bool(row["stale"])
        others = found.get(row["id"], [])
        row["equivalents"] = [other for other in others if other["is_newest"]] if row["stale"] else others
    return rows


def _with_raw_texts(rows: list[dict]) -> list[dict]:
    """Rows whose ``raw_texts`` (``json_group_array``: a ruling may cite one rule in several words) become lists."""
    for row in rows:
        row["raw_texts"] = json.loads(row["raw_texts"])
    return rows


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
        for rule in _rows(
            conn,
            f"""select {_RULE_REF} from json_each(?) w join rules r
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
    """Rows pointing at rules (``_RULE_REF``), each marked ``stale`` when its rule is in a version that is
    not the newest of its rulebook, with ``in_newest``: the same rule in the newest version (what the
    citation means today; the newest version lies ahead of a stale rule, so only the newer versions are walked)."""
    for row in rows:
        row["stale"] = row["id"] is not None and not row["is_newest"]
    later = equivalents_of(conn, [row["id"] for row in rows if row["stale"]], ("forward",))
    for row in rows:
        row["in_newest"] = [other for other in later[row["id"]] if other["is_newest"]] if row["stale"] else []
    return rows


@contextmanager
def _translator(
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
        _rows(
            conn,
            f"""select {_RULE_REF} from rules r join documents d on d.id = r.document_id
            where r.id in (select rule_id from replay_step_citations)""",
        ),
    )


def library_scenarios(conn: sqlite3.Connection, limit: int) -> list[dict]:
    """The first ``limit`` library replays that hold their scenario: id, file and the scenario's text."""
    return _rows(conn, "select id, file, scenario from replays where scenario is not null order by id limit ?", [limit])


def _translated_to_newest(conn: sqlite3.Connection, row: dict) -> list[dict]:
    """The rule of the newest version of its rulebook that a rule of an older one translates to (none or one)."""
    newest = versions.rules_document(conn, row["game"], None, row["rulebook"])
    if newest is None:
        return []
    with _translator(conn, row["game"], row["version"], newest["version"]) as translator:
        number = translator.direct(row["number"])
    found = number and _row(
        conn,
        f"select {_RULE_REF} from rules r join documents d on d.id = r.document_id "
        "where r.document_id = ? and r.number = ?",
        [newest["id"], number],
    )
    return [{**found, "is_newest": True, "kind": "translated"}] if found else []


# A rule, keyword or card that more rulings than this share relates nothing ("Unit" is in nearly every
# ruling): it is left out like a stop word, which also bounds the work of a ruling page whatever the corpus.
COMMON_THING = 500

_SHARED_BY = {
    "rule": "select distinct ruling_id from ruling_citations where rule_id = :target",
    "keyword": """select distinct m.ruling_id from keywords k join keyword_mentions m on m.keyword_id = k.id
        where k.game_id = :game and k.term = :target and m.ruling_id is not null""",
    "card": "select distinct ruling_id from card_mentions where card_id = :target",
}


def related_rulings(conn: sqlite3.Connection, ruling_id: int, limit: int = 8) -> list[dict]:
    """Rulings sharing cited rules, keywords or cards with this one, most shared first (then by their place in
    their documents). Each thing this ruling shares is looked up through its index (citations by rule, mentions
    by keyword and by card) once per database (``_rulings_sharing``), so the cost follows what the ruling cites,
    not how many rulings there are, and a page counts from memory what every ruling citing the same rule asked."""
    mine = conn.execute(
        """select 'rule ' || r.number, 'rule', c.rule_id, g.game_id from rulings g
            join ruling_citations c on c.ruling_id = g.id join rules r on r.id = c.rule_id where g.id = :id
        union select k.term, 'keyword', k.term, g.game_id from rulings g
            join keyword_mentions m on m.ruling_id = g.id join keywords k on k.id = m.keyword_id where g.id = :id
        union select c.name, 'card', c.id, g.game_id from rulings g
            join card_mentions m on m.ruling_id = g.id join cards c on c.id = m.card_id where g.id = :id""",
        {"id": ruling_id},
    ).fetchall()
    kept: dict[tuple, frozenset[int]] = lookup_table(conn, ("rulings sharing",), dict)
    things = [(thing, _rulings_sharing(conn, kept, kind, target, game)) for thing, kind, target, game in mine]
    counts: Counter[int] = Counter()
    for _thing, sharing in things:
        counts.update(sharing)
    counts.pop(ruling_id, None)
    position = lookup_table(
        conn, ("ruling positions",), lambda: dict(conn.execute("select id, coalesce(position, -1) from rulings"))
    )
    ranked = heapq.nsmallest(limit, counts, key=lambda other: (-counts[other], position[other], other))
    questions = dict(
        conn.execute(
            "select id, question from rulings where id in (select value from json_each(?))", [json.dumps(ranked)]
        )
    )
    return [
        {
            "id": other,
            "question": questions[other],
            "shared_count": counts[other],
            "shared": ", ".join(thing for thing, sharing in things if other in sharing),
        }
        for other in ranked
    ]


def _rulings_sharing(conn: sqlite3.Connection, kept: dict, kind: str, target, game: str) -> frozenset[int]:
    """The rulings that cite a rule, mention a keyword or name a card; none for a thing more than ``COMMON_THING``
    rulings share (a common thing's rulings stop at one more than that in SQL). ``kept``: the answers so far, for
    the database's lifetime."""
    key = (kind, target, game)
    if key not in kept:
        parameters = {"target": target, "game": game, "most": COMMON_THING + 1}
        found = [other for (other,) in conn.execute(f"{_SHARED_BY[kind]} limit :most", parameters)]
        kept[key] = frozenset(found if len(found) <= COMMON_THING else ())
    return kept[key]


# ---------------------------------------------------------------- cards and replays


def card_page(conn: sqlite3.Connection, slug: str) -> dict | None:
    card = _row(
        conn,
        """select cards.*, games.name as game_name from cards left join games on games.id = cards.game_id
        where slug = ?""",
        [slug],
    )
    if card is None:
        return None
    card_id = card["id"]
    return {
        "card": card,
        "aliases": [
            row["alias"]
            for row in _rows(conn, "select alias from card_aliases where card_id = ? order by alias", [card_id])
        ],
        "printings": _rows(
            conn, "select * from card_printings where card_id = ? order by card_set, collector_number", [card_id]
        ),
        "keywords": _rows(
            conn,
            """select ck.term, ck.value, k.term as keyword, k.game_id as game,
                d.version as keyword_version, k.defining_number
            from card_keywords ck left join keywords k on k.id = ck.keyword_id
            left join documents d on d.id = k.document_id where ck.card_id = ? order by ck.id""",
            [card_id],
        ),
        "errata": [
            {**erratum, "faqs": json.loads(erratum["faqs"] or "[]")}
            for erratum in _rows(
                conn,
                "select old_text, new_text, card_set, faqs from card_errata where card_id = ? order by id",
                [card_id],
            )
        ],
        "dated_errata": card_status.card_errata(conn, card_id),
        "bans": card_status.card_bans(conn, card_id),
        "sources": card_status.card_sources(conn, card_id),
        "rulings": _rows(
            conn,
            f"""select g.id, g.question, {_PART_OF}, group_concat(distinct m.surface) as surfaces
            from card_mentions m join rulings g on g.id = m.ruling_id where m.card_id = ? group by g.id
            order by g.position""",
            [card_id],
        ),
        "replays": _rows(
            conn,
            """select p.id, p.title, p.verdict, p.ruling_id from replays p
            where p.id in (select replay_id from replay_cards where card_id = ?) order by p.id""",
            [card_id],
        ),
    }


def find_cards(conn: sqlite3.Connection, text: str, nearest: int = 5) -> dict:
    """What a card address or a typed name means when it is no card's slug: ``cards``, the cards whose name
    or nickname it is (several for a champion's name), or else ``nearest``, the closest names (rapidfuzz)."""
    wanted = slugify(text)
    names, by_slug, choices = lookup_table(conn, ("card names",), lambda: _card_names(conn))
    matches = {row["slug"]: {"slug": row["slug"], "name": row["name"]} for row in by_slug.get(wanted, [])}
    if matches or not wanted:
        return {"cards": sorted(matches.values(), key=lambda card: card["name"]), "nearest": []}
    scored = process.extract(wanted.replace("-", " "), choices, scorer=fuzz.ratio, score_cutoff=60, limit=nearest * 4)
    closest: dict[str, dict] = {}
    for _text, score, index in scored:
        row = names[index]
        closest.setdefault(
            row["slug"], {"slug": row["slug"], "name": row["name"], "matched": row["matched"], "score": round(score, 1)}
        )
    return {"cards": [], "nearest": list(closest.values())[:nearest]}


def _card_names(conn: sqlite3.Connection) -> tuple[list[dict], dict[str, list[dict]], list[str]]:
    """Every card's name and nicknames (``matched``), by the slug each makes, and each as the words rapidfuzz
    compares (a slug's hyphens as spaces): worked out once per database, as slugging them all was most of the
    cost of an unknown card's page."""
    names = _rows(
        conn,
        """select slug, name, name as matched from cards
        union all select c.slug, c.name, a.alias from card_aliases a join cards c on c.id = a.card_id""",
    )
    slugs = [slugify(row["matched"]) for row in names]
    by_slug: dict[str, list[dict]] = defaultdict(list)
    for row, slug in zip(names, slugs):
        by_slug[slug].append(row)
    return names, dict(by_slug), [slug.replace("-", " ") for slug in slugs]


def replay_page(conn: sqlite3.Connection, replay_id: str, stored_steps: bool = True) -> dict | None:
    """A library replay: its row, the ruling's sequence, and the steps the build stored, each with the rules it
    cites as numbered in the newest version. Without ``stored_steps`` they are left out (None) unless the replay
    has no scenario (they are then all a page can show): a page that replays the scenario shows the engine's
    steps, and following the stored steps' citations to the newest version was most of its database work."""
    replay = _row(
        conn,
        """select p.*, g.question, d.version as rules_version, d.game_id as game from replays p
        left join rulings g on g.id = p.ruling_id left join documents d on d.id = p.rules_document_id
        where p.id = ?""",
        [replay_id],
    )
    if replay is None:
        return None
    sequence = ruling_sequence(conn, replay["ruling_id"]) if replay["ruling_id"] else []
    if not stored_steps and replay["scenario"] is not None:
        return {"replay": replay, "steps": None, "sequence": sequence}
    steps = _rows(conn, "select * from replay_steps where replay_id = ? order by position", [replay_id])
    cited = defaultdict(list)
    for citation in replay_citations_in_newest(
        conn,
        _rows(
            conn,
            f"""select c.step_id, c.number as cited_number, {_RULE_REF}
            from replay_step_citations c join replay_steps s on s.id = c.step_id
            left join rules r on r.id = c.rule_id left join documents d on d.id = r.document_id
            where s.replay_id = ? order by c.id""",
            [replay_id],
        ),
    ):
        cited[citation.pop("step_id")].append(citation)
    return {"replay": replay, "steps": _nest(steps, cited), "sequence": sequence}


def rules_versions(conn: sqlite3.Connection, game: str) -> list[str]:
    """The versions of the game's default rulebook (its Core Rules) the database holds, oldest first: those a
    dispute may be judged under."""
    return [document["version"] for document in versions.versions(conn, game)]


def cited_rules(
    conn: sqlite3.Connection, game: str, cited_version: str, version: str, numbers: list[str]
) -> dict[str, list[dict]]:
    """The rules a replay's steps cite, numbered in the engine's version (`cited_version`), as they are in the
    scenario's `version`: for each cited number, the rule rows (link fields and a short quote of the text) it
    corresponds to there; a number with no counterpart maps to no row."""
    try:
        with _translator(conn, game, cited_version, version) as translate:
            wanted = {number: translate([number]) for number in dict.fromkeys(numbers)}
    except LookupError:
        return {}
    document = versions.rules_document(conn, game, version)
    found = {
        row["number"]: row
        for row in _rows(
            conn,
            f"""select {_RULE_REF}, r.text from rules r join documents d on d.id = r.document_id
            where r.document_id = ? and r.number in (select value from json_each(?))""",
            [document["id"] if document else None, json.dumps(sorted({n for ns in wanted.values() for n in ns}))],
        )
    }
    for row in replay_citations_in_newest(conn, list(found.values())):
        row["quote"] = _quote(row.pop("text") or row["heading"] or "")
    rulings = faq_rulings(conn, game, [number for number in wanted if is_faq(number)])
    found.update(rulings)
    return {number: [found[n] for n in translated if n in found] for number, translated in wanted.items()}


def faq_rulings(conn: sqlite3.Connection, game: str, citations: list[str]) -> dict[str, dict]:
    """Each cited entry of an official FAQ (``faq:<date>#q<N>``, scenarios/versions.py) as a citation row: the
    ruling it names when the database holds it (the game's document of that version whose ruling has that
    anchor: ``ruling_id`` and a quote of its question), else the citation alone (shown as text, never a broken
    link)."""
    rows: dict[str, dict] = {}
    for citation in dict.fromkeys(citations):
        parts = faq_parts(citation)
        row = {"id": None, "number": citation, "faq": True, "ruling_id": None, "quote": ""}
        if parts is not None:
            found = conn.execute(
                "select g.id, g.question from rulings g join documents d on d.id = g.document_id "
                "where d.game_id = ? and d.version = ? and g.anchor = ? order by g.id limit 1",
                [game, *parts],
            ).fetchone()
            if found is not None:
                row["ruling_id"], row["quote"] = found[0], _quote(found[1] or "")
        rows[citation] = row
    return rows


def _quote(text: str, length: int = 220) -> str:
    """The start of a rule's text, cut at a word."""
    text = " ".join(text.split())
    return text if len(text) <= length else text[:length].rsplit(" ", 1)[0] + " …"


def card_slugs(conn: sqlite3.Connection, game: str, names: list[str]) -> dict[str, str]:
    """The card page (slug) of each of these card names that the card list holds."""
    rows = conn.execute(
        "select name, slug from cards where game_id = ? and name in (select value from json_each(?))",
        [game, json.dumps(sorted(set(names)))],
    )
    return dict(rows.fetchall())


def engine_card_names(conn: sqlite3.Connection, game: str) -> set[str]:
    """The card list's names (a dispute's card picker marks the ones the engine models)."""
    return {row[0] for row in conn.execute("select name from cards where game_id = ?", [game])}


def _nest(steps: list[dict], cited: dict) -> list[dict]:
    """Steps as a tree under their parent steps, in position order."""
    by_id = {step["id"]: {**step, "citations": cited.get(step["id"], []), "children": []} for step in steps}
    roots: list[dict] = []
    for step in by_id.values():
        parent = by_id.get(step["parent_step_id"])
        (parent["children"] if parent else roots).append(step)
    return roots


# ---------------------------------------------------------------- indexes (the lists judges browse)


def page_in_range(rows: int, page: int, size: int) -> tuple[int, int]:
    """(the number of pages of ``rows`` rows, ``size`` a page, and ``page`` brought within them)."""
    pages = max(1, -(-rows // size))
    return pages, min(max(1, page), pages)


def _paged(
    conn: sqlite3.Connection,
    sql: str,
    order: str,
    params: dict,
    page: int,
    size: int = PAGE_SIZE,
    details: str | None = None,
) -> dict:
    """One page of a query's rows in ``order`` (an ORDER BY list), with the total and the number of pages (page
    numbers start at 1). The total counts the unordered query: SQLite then folds it into the count and leaves
    out its columns (an ordered one is computed whole, every correlated subquery of every row: 20 ms, not 0.4).
    ``details`` adds the columns that cost a subquery per row, for the rows shown only (a query of their ``id``
    and those columns, for the ids in the JSON list ``:_ids``): in the page's query they were computed for every
    row before sorting."""
    total = conn.execute(f"select count(*) from ({sql})", params).fetchone()[0]
    pages, page = page_in_range(total, page, size)
    rows = _rows(
        conn,
        f"{sql} order by {order} limit :_limit offset :_offset",
        {**params, "_limit": size, "_offset": (page - 1) * size},
    )
    if details:
        found = {
            row["id"]: row for row in _rows(conn, details, {**params, "_ids": json.dumps([r["id"] for r in rows])})
        }
        rows = [{**row, **found[row["id"]]} for row in rows]
    return {"total": total, "page": page, "pages": pages, "rows": rows}


def rule_tree(
    conn: sqlite3.Connection,
    game: str,
    version: str | None = None,
    rulebook: str | None = None,
    with_tree: bool = True,
) -> dict | None:
    """The outline of one version of a rulebook (the game's default rulebook unless ``rulebook`` names
    another; its newest version unless ``version`` names one), or None when there is none: chapters,
    sections and top-level rules, with the headed sub-rules under their parents. Without ``with_tree``,
    only which document that is."""
    document = versions.rules_document(conn, game, version, rulebook)
    if document is None or not with_tree:
        return document and {"document": document}
    rules, tree = _kept_outline(conn, document["id"])
    return {
        "game": _row(conn, "select id, name from games where id = ?", [game]),
        "document": document,
        "versions": [
            {key: other[key] for key in ("version", "version_label", "is_newest", "rulebook")}
            for other in reversed(versions.versions(conn, game, rulebook))
        ],
        "rulebooks": [
            {"slug": None if book["is_default"] else book["slug"], "title": book["title"]}
            for book in versions.rulebooks(conn, game)
        ],
        "rules": rules,
        "tree": tree,
    }


def outline_every_rulebook(conn: sqlite3.Connection) -> None:
    """Every rulebook version's outline worked out once, for a server to do before it serves: a rule tree's first
    page read and arranged its thousands of rules (8-30 ms). At most half the answers kept per database, so that
    a corpus of many versions does not push out what the other pages keep."""
    for (document_id,) in conn.execute(
        "select id from documents where kind = 'rules' order by is_newest desc, id limit ?", [_KEPT_ANSWERS_MAX // 2]
    ).fetchall():
        _kept_outline(conn, document_id)


def _kept_outline(conn: sqlite3.Connection, document_id: str) -> tuple[int, list[dict]]:
    return once_per_database(conn, ("outline", document_id), lambda: _document_outline(conn, document_id))


def _document_outline(conn: sqlite3.Connection, document_id: str) -> tuple[int, list[dict]]:
    """How many rules a document has, and its outline (``outline``)."""
    rules = _rows(
        conn,
        """select id, number, parent_id, depth, heading,
            case when heading is null and depth = 0 then substr(text, 1, 120) end as preview
        from rules where document_id = ? order by position""",
        [document_id],
    )
    return len(rules), outline(rules)


def tree_named_by(conn: sqlite3.Connection, game: str, segments: list[str]) -> dict | None:
    """When a rule address names no rule but a rulebook or a version (/rules/riftbound/2025-06-02,
    /rules/riftbound/tournament), the rulebook and version whose rule tree it means; else None."""
    *rulebook, last = segments
    slug = rulebook[0] if rulebook else None
    book = versions.rulebook(conn, game, last) if slug is None else None
    if book is not None and not versions.rules_document(conn, game, last):
        return {"rulebook": None if book["is_default"] else last, "version": None}
    document = versions.rules_document(conn, game, last, slug)
    if document is None:
        return None
    return {"rulebook": document["rulebook"], "version": None if document["is_newest"] else document["version"]}


def outline(rules: list[dict]) -> list[dict]:
    """Rules in document order as a tree of the rules a reader navigates by: every top-level rule and
    every rule with a heading. Top-level rules nest by rank (``_outline_rank``), so a rulebook numbered
    flat (101, 102, 103 under the heading of 101) still reads as chapters and sections; a headed sub-rule
    sits under its nearest shown ancestor. Each node counts its direct sub-rules (``sub_rules``)."""
    sub_rules = Counter(rule["parent_id"] for rule in rules)
    parent_of = {rule["id"]: rule["parent_id"] for rule in rules}
    nodes: dict[int, dict] = {}
    roots: list[dict] = []
    open_top: list[tuple[int, dict]] = []  # (rank, node) of the top-level rules still open
    for rule in rules:
        if rule["depth"] and not rule["heading"]:
            continue
        node = nodes[rule["id"]] = {
            "number": rule["number"],
            "heading": rule["heading"],
            "preview": None if rule["heading"] else rule["preview"],
            "sub_rules": sub_rules[rule["id"]],
            "children": [],
        }
        if rule["depth"] == 0:
            rank = _outline_rank(rule)
            while open_top and open_top[-1][0] >= rank:
                open_top.pop()
            (open_top[-1][1]["children"] if open_top else roots).append(node)
            open_top.append((rank, node))
            continue
        ancestor = parent_of[rule["id"]]
        while ancestor is not None and ancestor not in nodes:
            ancestor = parent_of.get(ancestor)
        (nodes[ancestor]["children"] if ancestor is not None else roots).append(node)
    return roots


def _outline_rank(rule: dict) -> int:
    """0 for a chapter (a headed hundred: 100, 300 in a rulebook numbered in hundreds), 1 for a section
    (any other headed top-level rule), 2 for a top-level rule without a heading."""
    if not rule["heading"]:
        return 2
    number = rule["number"]
    return 0 if number.isdigit() and len(number) >= 3 and int(number) % 100 == 0 else 1


def rulings_index(
    conn: sqlite3.Connection,
    game: str | None = None,
    document: str | None = None,
    source: str | None = None,
    category: str | None = None,
    card: str | None = None,
    rule: str | None = None,
    order: str = "position",
    page: int = 1,
) -> dict:
    """Rulings narrowed by game, document, source (who wrote them), category, a card they name (slug, name
    or nickname) and a rule they cite (a number, with its sub-rules); in source order, or newest first
    (``order="newest"``: by date where the source gives one, else later documents and positions first)."""
    params = {
        "game": game,
        "document": document,
        "source": source,
        "category": category,
        "card": card,
        "rule": (rule or "").strip().rstrip(".") or None,
    }
    order_by = (
        "g.created_at is null, g.created_at desc, d.version desc, g.position desc"
        if order == "newest"
        else "d.title, d.version, g.position"
    )
    sql = f"""
        select g.id, g.question, {_PART_OF}, g.position, g.game_id as game, d.id as document, d.title as document_title,
            g.source, g.category, g.created_at
        from rulings g join documents d on d.id = g.document_id
        where (:game is null or g.game_id = :game) and (:document is null or g.document_id = :document)
          and (:source is null or g.source = :source) and (:category is null or g.category = :category)
          and (:card is null or g.id in (select m.ruling_id from card_mentions m join cards c on c.id = m.card_id
              where c.slug = :card or c.name = :card collate nocase
                 or c.id in (select card_id from card_aliases where alias = :card collate nocase)))
          and (:rule is null or g.id in (select ruling_id from ruling_citations
              where number = :rule collate nocase or number like :rule || '.%'))"""
    return {
        **_paged(conn, sql, order_by, params, page, details=_RULING_DETAILS),
        "filters": {**params, "order": order},
        "options": lookup_table(conn, ("rulings index options",), lambda: _rulings_options(conn)),
    }


# What the rulings list shows of each ruling beside its own columns: the rules it cites, the cards it names.
_RULING_DETAILS = """select g.id,
    (select group_concat(number, ', ') from (select distinct number from ruling_citations
        where ruling_id = g.id and how = 'explicit' order by id)) as cited,
    (select group_concat(name, ', ') from (select distinct c.name from card_mentions m
        join cards c on c.id = m.card_id where m.ruling_id = g.id order by c.name)) as cards
    from rulings g where g.id in (select value from json_each(:_ids))"""


def _rulings_options(conn: sqlite3.Connection) -> dict:
    """The choices of the rulings list's filters (the same for every request: kept per database)."""
    return {
        "games": _rows(conn, "select id, name from games where id in (select game_id from rulings) order by name"),
        "documents": _rows(
            conn,
            """select d.id, d.title, d.version, count(*) as rulings from rulings g
            join documents d on d.id = g.document_id group by d.id order by d.title""",
        ),
        "sources": _distinct_values(conn, "rulings", "source"),
        "categories": _distinct_values(conn, "rulings", "category"),
        "cards": _rows(
            conn,
            """select c.slug, c.name, count(distinct m.ruling_id) as rulings from card_mentions m
            join cards c on c.id = m.card_id group by c.id order by c.name""",
        ),
    }


def cards_index(
    conn: sqlite3.Connection,
    game: str | None = None,
    name: str | None = None,
    card_set: str | None = None,
    card_type: str | None = None,
    domain: str | None = None,
    page: int = 1,
    legality: str | None = None,
    format_name: str | None = None,
) -> dict:
    """Cards by name, narrowed by game, a piece of their name or of a nickname, set, type, domain and legality
    ('banned' or 'legal' in a format: Constructed unless ``format_name`` says 2v2)."""
    legality = legality if legality in ("banned", "legal") else None
    format_name = format_name if format_name in card_status.FORMATS else None
    params = {
        "game": game,
        "name": (name or "").strip() or None,
        "set": card_set,
        "type": card_type,
        "domain": domain,
        "legality": legality,
        "format": format_name,
    }
    sql = f"""
        select c.id, c.name, c.slug, c.game_id as game, c.card_type, c.domain, c.energy, c.might, c.power,
            c.in_card_list, substr(coalesce(c.current_text, c.ability_text), 1, 140) as preview
        from cards c
        where (:game is null or c.game_id = :game) and (:type is null or c.card_type = :type)
          and (:domain is null or ', ' || c.domain || ', ' like '%, ' || :domain || ', %')
          and (:set is null or c.id in (select card_id from card_printings where card_set = :set))
          and (:legality is null or (:legality = 'banned') = {_BANNED}
              and (:legality = 'banned' or c.in_card_list = 1))
          and (:name is null or c.name like '%' || :name || '%'
              or c.id in (select card_id from card_aliases where alias like '%' || :name || '%'))"""
    return {
        **_paged(conn, sql, "c.name collate nocase", params, page, details=_CARD_DETAILS),
        "filters": params,
        "options": lookup_table(conn, ("cards index options",), lambda: _cards_options(conn)),
    }


# What the cards list shows of each card beside its own columns: whether it has errata, how many rulings name it,
# which of its nicknames match the name asked for.
_BANNED = card_status.banned_sql("c.id", "coalesce(:format, 'Constructed')")
_CARD_DETAILS = """select c.id,
    exists (select 1 from card_errata where card_id = c.id and new_text is not null) as has_errata,
    (select group_concat(distinct format) from bans where card_id = c.id) as banned_in,
    (select count(distinct ruling_id) from card_mentions where card_id = c.id) as rulings,
    (select group_concat(alias, ', ') from card_aliases a where a.card_id = c.id and :name is not null
        and a.alias like '%' || :name || '%') as matched_aliases
    from cards c where c.id in (select value from json_each(:_ids))"""


def _distinct_values(conn: sqlite3.Connection, table: str, column: str) -> list:
    """The values a column holds (not null), sorted: the choices of a list's filter on it."""
    return [
        row[0] for row in conn.execute(f"select distinct {column} from {table} where {column} is not null order by 1")
    ]


def _cards_options(conn: sqlite3.Connection) -> dict:
    """The choices of the cards list's filters (the same for every request: kept per database)."""
    domains = {
        domain
        for (joined,) in conn.execute("select distinct domain from cards where domain is not null")
        for domain in joined.split(", ")
        if domain
    }
    return {
        "games": _rows(conn, "select id, name from games where id in (select game_id from cards) order by name"),
        "sets": _distinct_values(conn, "card_printings", "card_set"),
        "types": _distinct_values(conn, "cards", "card_type"),
        "domains": sorted(domains),
    }


def replays_index(
    conn: sqlite3.Connection,
    verdict: str | None = None,
    ruling: int | None = None,
    tag: str | None = None,
    page: int = 1,
) -> dict:
    """Scenario replays, narrowed by verdict, the ruling they replay and a tag, in ruling order."""
    params = {"verdict": verdict, "ruling": ruling, "tag": tag}
    sql = """
        select p.id, p.title, p.verdict, p.ruling_id, g.question, p.step_count, p.tags, d.version as rules_version,
            p.disagreement is not null as disagrees
        from replays p left join rulings g on g.id = p.ruling_id left join documents d on d.id = p.rules_document_id
        where (:verdict is null or p.verdict = :verdict) and (:ruling is null or p.ruling_id = :ruling)
          and (:tag is null or exists (select 1 from json_each(coalesce(p.tags, '[]')) where value = :tag))"""
    listed = _paged(conn, sql, "g.position, p.id", params, page)
    for row in listed["rows"]:
        row["tags"] = json.loads(row["tags"] or "[]")
        row["disagrees"] = bool(row["disagrees"])
    return {
        **listed,
        "filters": params,
        "options": lookup_table(conn, ("replays index options",), lambda: _replays_options(conn)),
    }


def _replays_options(conn: sqlite3.Connection) -> dict:
    """The choices of the replays list's filters (the same for every request: kept per database)."""
    return {
        "verdicts": _distinct_values(conn, "replays", "verdict"),
        "tags": [
            row[0]
            for row in conn.execute(
                "select distinct value from replays, json_each(coalesce(replays.tags, '[]')) order by 1"
            )
        ],
    }


def page_samples(conn: sqlite3.Connection) -> dict:
    """One of each thing a judges' page shows, the first in the database's order (None where there is none): what
    a server asks for once before it serves, so that a judge's first page does not pay for loading what every
    page of its kind needs. ``question``: a ruling's question, as a judge would type one into search."""
    return {
        "rule": _row(
            conn,
            f"select {_RULE_REF} from rules r join documents d on d.id = r.document_id where d.is_newest "
            "order by r.id limit 1",
        ),
        "ruling": _row(conn, "select id, question from rulings order by id limit 1"),
        "card": _row(conn, "select slug from cards order by id limit 1"),
        "keyword": _row(
            conn,
            """select k.game_id as game, d.version, k.term from keywords k join documents d on d.id = k.document_id
            order by k.id limit 1""",
        ),
        "replay": _row(conn, "select id from replays where scenario is not null order by id limit 1"),
        "diff": _row(
            conn,
            """select o.game_id as game, o.version as old, n.version as new,
                (select case when b.is_default then null else b.slug end from rulebooks b where b.id = n.rulebook_id)
                    as rulebook
            from rule_lineage_pairs l join documents o on o.id = l.from_document_id
            join documents n on n.id = l.to_document_id order by l.id limit 1""",
        ),
        "infractions": _row(
            conn, "select d.game_id as game from infractions i join documents d on d.id = i.document_id limit 1"
        ),
    }


# ---------------------------------------------------------------- canned queries (Datasette metadata)

CANNED_QUERIES: dict[str, dict] = {
    "rulings_citing_rule": {
        "title": "Rulings citing a rule",
        "description": "Rulings that cite a rule number (or any rule under it), in any version.",
        "sql": """select g.id as ruling_id, g.question, c.number, c.raw_text, c.how, d.version as cited_version
from ruling_citations c join rulings g on g.id = c.ruling_id left join documents d on d.id = c.document_id
where c.number = :number or c.number like :number || '.%'
order by g.position""",
    },
    "rules_mentioning_keyword": {
        "title": "Rules mentioning a keyword",
        "description": "Every rule that mentions a keyword (matched on lemmas: 'recalled' mentions Recall).",
        "sql": """select k.game_id as game, k.term, d.version, r.number, m.matched_text, r.text
from keyword_mentions m join keywords k on k.id = m.keyword_id join rules r on r.id = m.rule_id
join documents d on d.id = r.document_id
where k.term = :term collate nocase
order by k.game_id, d.version desc, r.position""",
    },
    "dangling_references": {
        "title": "Dangling references",
        "description": "Cross-references whose target rule does not exist in the same document.",
        "sql": """select d.id as document, r.number as from_number, x.target_number, x.raw_text
from rule_refs x join rules r on r.id = x.from_rule_id join documents d on d.id = x.document_id
where x.status = 'dangling'
order by d.id, r.position""",
    },
    "stale_citations": {
        "title": "Stale citations",
        "description": "Citations (from rulings and from replay steps) into a rules version that is not the newest.",
        "sql": """select 'ruling' as source, g.id as source_id, g.question as context, c.number,
    d.version as cited_version
from ruling_citations c join rulings g on g.id = c.ruling_id join documents d on d.id = c.document_id
where d.is_newest = 0
union all
select 'replay', s.replay_id, s.summary, c.number, d.version
from replay_step_citations c join replay_steps s on s.id = c.step_id join rules r on r.id = c.rule_id
join documents d on d.id = r.document_id
where d.is_newest = 0
order by source, source_id""",
    },
}
