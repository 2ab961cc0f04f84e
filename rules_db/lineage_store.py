"""The version lineage in the database: storing it, and reading it back.

``rules_db/lineage.py`` computes which rule of one version became which rule of the next; this
module keeps that correspondence in ``rule_lineage`` for each consecutive pair of versions of a
rulebook (the chain of ``documents.previous_id``), relinks the chain when a version arrives
between two others, and answers the questions a judge asks of it: a rule's whole history
(``history``), the same rule in every other version (``equivalents``), and what changed between
any two versions (``diff_summary``, composed over the versions between them).
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

import sqlite_utils

from ingest.outline import natural_key
from rules_db import store, versions
from rules_db.lineage import CHANGED_KINDS, KINDS, LineageRow, RuleRow, compose, compute_lineage

Connection = sqlite_utils.Database | sqlite3.Connection


def document_rules(db: sqlite_utils.Database, document_id: str) -> list[RuleRow]:
    return [
        RuleRow.from_mapping(row)
        for row in db.query(
            "select id, number, parent_number, heading, text from rules where document_id = ? order by position",
            [document_id],
        )
    ]


def store_lineage(db: sqlite_utils.Database, game_id: str) -> dict[tuple[str, str], Counter]:
    """Link each consecutive pair of versions of each of the game's rulebooks (the order of
    ``documents.previous_id``): pairs already stored are kept, missing pairs are computed, and rows
    of pairs that are no longer consecutive (a version was added between them) are deleted. Returns
    the rows per kind for each pair computed, keyed by (old, new) document id."""
    figures: dict[tuple[str, str], Counter] = {}
    for pair in pairs_to_link(db, game_id):
        rows = compute_lineage(pair.old_rules, pair.new_rules)
        figures[(pair.old_document_id, pair.new_document_id)] = store_pair(db, pair, rows)
    return figures


@dataclass
class VersionPair:
    """Two consecutive versions of a rulebook and their rules, in document order: what ``compute_lineage``
    matches (plain data: the build sends it to its second process) and ``store_pair`` stores."""

    old_document_id: str
    new_document_id: str
    old_rules: list[RuleRow]
    new_rules: list[RuleRow]


def pairs_to_link(db: sqlite_utils.Database, game_id: str) -> list[VersionPair]:
    """The consecutive pairs of versions of the game's rulebooks whose lineage is not stored yet; the stored
    rows of pairs that are no longer consecutive (a version was added between them) are deleted."""
    pairs, rules = [], {}  # a middle version's rules, read once for both of its pairs

    def rules_of(document_id: str) -> list:
        if document_id not in rules:
            rules[document_id] = document_rules(db, document_id)
        return rules[document_id]

    for book in versions.rulebooks(db, game_id):
        documents = versions.versions(db, game_id, book["slug"])
        chain = {(older["id"], newer["id"]) for older, newer in zip(documents, documents[1:])}
        stored = {
            (row["from_document_id"], row["to_document_id"])
            for row in db.query(
                "select from_document_id, to_document_id from rule_lineage_pairs l "
                "join documents d on d.id = l.to_document_id where d.rulebook_id = ?",
                [book["id"]],
            )
        }
        for pair in stored - chain:
            for table in ("rule_lineage", "rule_lineage_pairs", "rule_lineage_counts"):
                db.execute(f"delete from {table} where from_document_id = ? and to_document_id = ?", list(pair))
        pairs += [
            VersionPair(older["id"], newer["id"], rules_of(older["id"]), rules_of(newer["id"]))
            for older, newer in zip(documents, documents[1:])
            if (older["id"], newer["id"]) not in stored
        ]
    return pairs


def store_pair(db: sqlite_utils.Database, pair: VersionPair, rows: list[LineageRow]) -> Counter:
    """The pair's rows, each with what the diff page pages on: the section it counts in (``_Sections``)
    and whether the rule was only renumbered (moved, same text); numbered in one run, and counted per kind and
    section (``_store_pair_counts``)."""
    first_id = store.next_id(db, "rule_lineage")
    stored = [
        {
            "id": first_id + index,
            "from_document_id": pair.old_document_id,
            "to_document_id": pair.new_document_id,
            "from_rule_id": old_rule.id if old_rule else None,
            "to_rule_id": new_rule.id if new_rule else None,
            "kind": row.kind,
            "similarity": row.similarity,
            "section_rule_id": section_rule.id,
            "renumbered": int(
                _only_renumbered(row.kind, old_rule.text if old_rule else None, new_rule.text if new_rule else None)
            ),
        }
        for index, (row, old_rule, new_rule, _, section_rule) in enumerate(
            _with_rules(rows, pair.old_rules, pair.new_rules)
        )
    ]
    store.insert_rows(db, "rule_lineage", stored)
    _store_pair_counts(db, pair, stored)
    return Counter(row.kind for row in rows)


def _store_pair_counts(db: sqlite_utils.Database, pair: VersionPair, stored: list[dict]) -> None:
    """What the diff page shows of the whole pair, counted once here rather than over every row at its first
    request (a fifth of a second at 100 times the bundled rulebooks): ``rule_lineage_pairs``, and the rows per kind
    and section, with the rules only renumbered among them (``rule_lineage_counts``)."""
    ends = {"from_document_id": pair.old_document_id, "to_document_id": pair.new_document_id}
    store.insert_rows(
        db,
        "rule_lineage_pairs",
        [
            {
                **ends,
                "old_rules": len(pair.old_rules),
                "new_rules": len(pair.new_rules),
                "old_rules_accounted": len({row["from_rule_id"] for row in stored} - {None}),
                "first_lineage_id": stored[0]["id"] if stored else None,
                "last_lineage_id": stored[-1]["id"] if stored else None,
            }
        ],
    )
    rows: Counter = Counter()
    renumbered: Counter = Counter()
    for row in stored:
        group = (row["kind"], row["section_rule_id"])
        rows[group] += 1
        renumbered[group] += row["renumbered"]
    store.insert_rows(
        db,
        "rule_lineage_counts",
        (
            {**ends, "kind": kind, "section_rule_id": section, "rows": count, "renumbered": renumbered[kind, section]}
            for (kind, section), count in rows.items()
        ),
    )


def _only_renumbered(kind: str, old_text: str | None, new_text: str | None) -> bool:
    """A rule that moved to another number with its text unchanged (the diff hides these unless asked)."""
    return kind == "moved" and old_text is not None and old_text == new_text


def _wanted(kind: str | None, section: str | None, row_kind: str, row_section: str | None) -> bool:
    """A diff row (or group of rows) of the ``kind`` asked for (every kind but "unchanged" when none) and in
    the ``section`` asked for (any when none)."""
    return (row_kind == kind if kind else row_kind != "unchanged") and section in (None, row_section)


def equivalents(
    db: Connection, rule_id: int, directions: tuple[str, ...] = ("forward", "backward")
) -> list[tuple[str, str, str, str]]:
    """The same rule in the game's other versions: ``(document_id, version, number, kind)``,
    oldest version first, following the lineage transitively (forwards to newer
    versions, backwards to older ones). A rule that is new (or removed) in the next
    step has no equivalent of its own there; the nearest ancestor's equivalent is
    given instead, with kind ``"ancestor"`` (443.1.e is new in 2025-12-01, and sits
    under 443.1, which was 626.1). ``directions=("forward",)`` gives only the newer versions."""
    conn = versions.connection(db)
    found: dict[int, str] = {}
    for direction in directions:
        found.update(_walk(conn, rule_id, direction))
    if not found:
        return []
    placeholders = ", ".join("?" for _ in found)
    rows = conn.execute(
        f"select rules.id, rules.document_id, documents.version, rules.number from rules "
        f"join documents on documents.id = rules.document_id where rules.id in ({placeholders})",
        list(found),
    ).fetchall()
    result = [(document_id, version, number, found[rule]) for rule, document_id, version, number in rows]
    return sorted(result, key=lambda item: (natural_key(item[1]), natural_key(item[2])))


def _walk(conn: sqlite3.Connection, rule_id: int, direction: str) -> dict[int, str]:
    """Rules reached from ``rule_id`` one version step at a time in one direction, with the kind of
    the step that reached them; a step with no counterpart falls back to the nearest ancestor's,
    and whatever is reached through an ancestor stays an "ancestor" equivalent."""
    here, there = ("from_rule_id", "to_rule_id") if direction == "forward" else ("to_rule_id", "from_rule_id")
    found: dict[int, str] = {}
    frontier = [rule_id]
    while frontier:
        step: dict[int, str] = {}
        for current in frontier:
            reached = _step(conn, current, here, there) or _ancestor_step(conn, current, here, there)
            if found.get(current) == "ancestor":
                reached = dict.fromkeys(reached, "ancestor")
            step.update(reached)
        frontier = [rule for rule in step if rule not in found and rule != rule_id]
        found.update({rule: kind for rule, kind in step.items() if rule != rule_id})
    return found


def _step(conn: sqlite3.Connection, rule_id: int, here: str, there: str) -> dict[int, str]:
    return dict(
        conn.execute(f"select {there}, kind from rule_lineage where {here} = ? and {there} is not null", [rule_id])
    )


def _ancestor_step(conn: sqlite3.Connection, rule_id: int, here: str, there: str) -> dict[int, str]:
    """Only for a rule the lineage marks as having no counterpart (new or removed)."""
    if conn.execute(f"select 1 from rule_lineage where {here} = ? and {there} is null", [rule_id]).fetchone() is None:
        return {}
    parent = _parent(conn, rule_id)
    while parent is not None:
        step = _step(conn, parent, here, there)
        if step:
            return {rule: "ancestor" for rule in step}
        parent = _parent(conn, parent)
    return {}


def _parent(conn: sqlite3.Connection, rule_id: int) -> int | None:
    found = conn.execute("select parent_id from rules where id = ?", [rule_id]).fetchone()
    return found[0] if found else None


def diff_summary(
    db: Connection,
    game: str,
    old_version: str,
    new_version: str,
    top_sections: int = 10,
    rulebook: str | None = None,
) -> dict:
    """Counts per kind, the sections that changed most, and every row with both texts, between any
    two versions of a rulebook (the game's default one unless named; see ``rows_between``)."""
    db = _database(db)
    old_document, new_document = (
        _rules_document(db, game, version, rulebook) for version in (old_version, new_version)
    )
    old_rules, new_rules = document_rules(db, old_document["id"]), document_rules(db, new_document["id"])
    rows = rows_between(db, old_document, new_document, old_rules, new_rules)
    details = _details(rows, old_rules, new_rules, (old_version, new_version))
    sections: dict[tuple, Counter] = defaultdict(Counter)
    for detail in details:
        sections[(detail["section_version"], detail["section"], detail["section_heading"])][detail["kind"]] += 1
    return {
        **_overview(game, old_document, new_document, (old_version, new_version), (len(old_rules), len(new_rules))),
        "counts": _all_kinds(Counter(row.kind for row in rows)),
        "old_rules_accounted": _share(len({row.old for row in rows if row.old is not None}), len(old_rules)),
        "sections": _changed_sections(sections)[:top_sections],
        "rows": details,
    }


def stored_diff_summary(
    db: Connection, game: str, old_version: str, new_version: str, top_sections: int = 10, rulebook: str | None = None
) -> dict:
    """``diff_summary`` without its rows, from what the build counted (``rule_lineage_pairs`` and
    ``rule_lineage_counts``) when the two versions are consecutive (``stored`` true: ``DiffSelection`` pages the rows in
    SQL), else the whole ``diff_summary``."""
    db = _database(db)
    old_document, new_document = (
        _rules_document(db, game, version, rulebook) for version in (old_version, new_version)
    )
    pair = {"old": old_document["id"], "new": new_document["id"]}
    figures = _pair_figures(db, pair) if new_document["previous_id"] == old_document["id"] else None
    if figures is None:
        return {**diff_summary(db, game, old_version, new_version, top_sections, rulebook), "stored": False}
    groups = db.execute(
        "select kind, section_rule_id, rows, renumbered from rule_lineage_counts "
        "where from_document_id = :old and to_document_id = :new order by kind, section_rule_id",
        pair,
    ).fetchall()
    names = _section_names(db, list({group[1] for group in groups}), old_document["id"], (old_version, new_version))
    counts: Counter = Counter()
    sections: dict[tuple, Counter] = defaultdict(Counter)
    for kind, section_id, count, _ in groups:
        counts[kind] += count
        sections[names[section_id]][kind] += count
    return {
        **_overview(
            game, old_document, new_document, (old_version, new_version), (figures["old_rules"], figures["new_rules"])
        ),
        "counts": _all_kinds(counts),
        "old_rules_accounted": _share(figures["old_rules_accounted"], figures["old_rules"]),
        "sections": _changed_sections(sections)[:top_sections],
        "stored": True,
        # (kind, section number, rows, rows only renumbered): what every page of the diff counts
        "groups": [(kind, names[section_id][1], count, renumbered) for kind, section_id, count, renumbered in groups],
        "lineage_ids": (figures["first_lineage_id"], figures["last_lineage_id"]),
    }


def _pair_figures(db: sqlite_utils.Database, pair: dict) -> dict | None:
    """The pair's row of ``rule_lineage_pairs``; None for a pair the lineage does not link."""
    return next(
        db.query("select * from rule_lineage_pairs where from_document_id = :old and to_document_id = :new", pair),
        None,
    )


def _section_names(
    db: sqlite_utils.Database, section_ids: list[int], old_document_id: str, versions_shown: tuple[str, str]
) -> dict[int, tuple[str, str, str]]:
    """(version, number, heading) of each section rule, the version as the diff was asked for."""
    return {
        rule_id: (versions_shown[document_id != old_document_id], number, heading)
        for rule_id, document_id, number, heading in db.execute(
            "select r.id, r.document_id, r.number, coalesce(nullif(r.heading, ''), r.text) "
            "from json_each(?) w join rules r on r.id = w.value",
            [json.dumps(section_ids)],
        ).fetchall()
    }


def _overview(game: str, old: dict, new: dict, versions_shown: tuple[str, str], sizes: tuple[int, int]) -> dict:
    return {
        "game": game,
        "rulebook": old["rulebook"],
        "rulebook_title": old["rulebook_title"],
        "old": {"document_id": old["id"], "version": versions_shown[0], "rules": sizes[0]},
        "new": {"document_id": new["id"], "version": versions_shown[1], "rules": sizes[1]},
    }


def _all_kinds(counts: Counter) -> dict[str, int]:
    return {kind: counts[kind] for kind in KINDS}


def _share(accounted: int, total: int) -> float:
    return accounted / total if total else 1.0


def rows_between(
    db: sqlite_utils.Database,
    old_document: dict,
    new_document: dict,
    old_rules: list[RuleRow],
    new_rules: list[RuleRow],
) -> list[LineageRow]:
    """The correspondence between two versions of one rulebook (whose rules the caller has read): stored for
    consecutive versions, composed over the stored steps for versions further apart, computed when the chain
    between them is not stored."""
    chain = versions.versions(db, old_document["game_id"], old_document["rulebook_slug"])
    ids = [document["id"] for document in chain]
    start, stop = ids.index(old_document["id"]), ids.index(new_document["id"])
    steps = [_stored_rows(db, older, newer) for older, newer in zip(ids[start:stop], ids[start + 1 : stop + 1])]
    if stop <= start or not all(steps):
        return compute_lineage(old_rules, new_rules)
    if len(steps) == 1:
        return steps[0]
    return compose(steps, old_rules, new_rules)


def history(db: Connection, rule_id: int) -> list[dict]:
    """A rule's whole history across the versions of its rulebook, oldest first, like a per-rule
    trace: where it was created (or that it is in the first version), then one event per later
    version, what happened to it there (unchanged, moved, edited, split, merged, removed) with its
    number before and after. Where a rule has several predecessors or successors (a merge, a
    split), the trace follows the closest text and names the others in ``also``."""
    db = _database(db)
    rule = _history_rule(db, rule_id)
    if rule is None:
        return []
    earlier: list[dict] = []
    current = rule
    while (step := _best_step(db, current["id"], backwards=True)) is not None:
        previous = _history_rule(db, step["other_id"])
        assert previous is not None, "rule_lineage points at stored rules"
        earlier.insert(0, _event(step, previous, current))
        current = previous
    first = current
    created = next(
        db.query("select from_document_id from rule_lineage where to_rule_id = ? and kind = 'new'", [first["id"]]),
        None,
    )
    start = {**_ref(first), "event": "created" if created else "first version", "from_number": None, "also": []}
    if created:
        start["reused"] = _reused_number(db, first, created["from_document_id"])
    later: list[dict] = []
    current = rule
    while (step := _best_step(db, current["id"], backwards=False)) is not None:
        if step["other_id"] is None:
            later.append(
                {
                    **_ref(current),
                    "id": None,
                    "version": step["version"],
                    "document_id": step["document_id"],
                    "number": None,
                    "text": None,
                    "event": "removed",
                    "from_number": current["number"],
                    "also": [],
                }
            )
            break
        following = _history_rule(db, step["other_id"])
        assert following is not None, "rule_lineage points at stored rules"
        later.append(_event(step, current, following))
        current = following
    return [start, *earlier, *later]


def _reused_number(db: sqlite_utils.Database, created: dict, previous_document_id: str) -> dict | None:
    """When a version gave a new rule the number another rule had in the version before: that rule (its
    ``number`` and ``version`` then) and what it became in the version that reused its number (``now``: rules with
    their ``kind`` of change, none when it was removed). None when the number was free."""
    before = next(
        db.query(
            """select r.id, r.number, d.version from rules r join documents d on d.id = r.document_id
            where r.document_id = ? and r.number = ?""",
            [previous_document_id, created["number"]],
        ),
        None,
    )
    if before is None:
        return None
    steps = db.query(
        """select kind, to_rule_id from rule_lineage where from_rule_id = ? and to_document_id = ?
        order by similarity desc, to_rule_id""",
        [before["id"], created["document_id"]],
    )
    now = [
        {**_ref(rule), "kind": step["kind"]}
        for step in steps
        if step["to_rule_id"] is not None and (rule := _history_rule(db, step["to_rule_id"])) is not None
    ]
    return {"number": before["number"], "version": before["version"], "now": now}


def _history_rule(db: sqlite_utils.Database, rule_id: int) -> dict | None:
    return next(
        db.query(
            """select r.id, r.number, r.heading, r.text, r.game_id as game, d.id as document_id, d.version,
            case when b.is_default then null else b.slug end as rulebook
            from rules r join documents d on d.id = r.document_id left join rulebooks b on b.id = d.rulebook_id
            where r.id = ?""",
            [rule_id],
        ),
        None,
    )


def _best_step(db: sqlite_utils.Database, rule_id: int, *, backwards: bool) -> dict | None:
    """The lineage row that leads from the rule to the next (or previous) version, the closest text
    first, with the other rules that step reaches; None at the end of the chain."""
    here, there = ("to_rule_id", "from_rule_id") if backwards else ("from_rule_id", "to_rule_id")
    rows = list(
        db.query(
            f"""select l.{there} as other_id, l.kind, l.similarity, d.id as document_id, d.version,
            other.number as other_number from rule_lineage l join documents d on d.id = l.to_document_id
            left join rules other on other.id = l.{there}
            where l.{here} = ? and (l.{there} is not null or l.kind = 'removed')
            order by l.similarity desc, l.id""",
            [rule_id],
        )
    )
    if not rows:
        return None
    return {**rows[0], "also": [row["other_number"] for row in rows[1:] if row["other_number"]]}


def _event(step: dict, before: dict, after: dict) -> dict:
    """What happened between ``before`` and ``after`` (the same rule in consecutive versions), told
    at the later version."""
    return {
        **_ref(after),
        "event": step["kind"],
        "from_number": before["number"],
        "similarity": step["similarity"],
        "also": step["also"],
    }


def _ref(rule: dict) -> dict:
    """What names and links a rule (``game``, ``version``, ``number``, ``rulebook``: its permalink), and its text."""
    return {key: rule[key] for key in ("id", "game", "document_id", "version", "number", "rulebook", "heading", "text")}


def _database(db: Connection) -> sqlite_utils.Database:
    """Accept a plain connection too (the Datasette plugin's queries get one)."""
    return db if isinstance(db, sqlite_utils.Database) else sqlite_utils.Database(db)


def _rules_document(db: sqlite_utils.Database, game: str, version: str, rulebook: str | None) -> dict:
    document = versions.rules_document(db, game, version, rulebook)
    if document is None:
        known = ", ".join(document["version"] for document in versions.versions(db, game, rulebook)) or "none"
        raise LookupError(f"no {game} {rulebook or 'rules'} document at version {version!r} (versions: {known})")
    return document


def _heading_sections(rules: list[RuleRow]) -> dict[str, str]:
    """Each rule's section: the number of the nearest top-level heading at or above it in document order."""
    sections: dict[str, str] = {}
    current = None
    for rule in rules:
        if rule.parent is None and (rule.heading or current is None):
            current = rule.number
        sections[rule.number] = current or rule.number
    return sections


class _Sections:
    """The section each row of a correspondence counts in, in the newer numbering where there is one: a
    removed rule counts in the section that its old section became."""

    def __init__(self, rows: list[LineageRow], old_sections: dict[str, str], new_sections: dict[str, str]):
        self.old_sections, self.new_sections = old_sections, new_sections
        self.successor = {row.old: row.new for row in reversed(rows) if row.old and row.new}

    def of(self, row: LineageRow) -> tuple[bool, str]:
        """(True for the newer version, False for the older one; the section's rule number)."""
        if row.new is not None:
            return True, self.new_sections[row.new]
        assert row.old is not None, "a lineage row names an old rule, a new rule or both"
        section = self.old_sections[row.old]
        if section in self.successor:
            return True, self.new_sections[self.successor[section]]
        return False, section


def _stored_rows(db: sqlite_utils.Database, old_document_id: str, new_document_id: str) -> list[LineageRow]:
    return [
        LineageRow(row["kind"], row["old"], row["new"], row["similarity"])
        for row in db.query(
            "select kind, old_rule.number as old, new_rule.number as new, similarity from rule_lineage "
            "left join rules old_rule on old_rule.id = from_rule_id left join rules new_rule on new_rule.id = to_rule_id "
            "where from_document_id = ? and to_document_id = ? order by rule_lineage.id",
            [old_document_id, new_document_id],
        )
    ]


def _details(
    rows: list[LineageRow], old_rules: list[RuleRow], new_rules: list[RuleRow], versions_shown: tuple[str, str]
) -> list[dict]:
    """Each row with both texts and its section (``_Sections``)."""
    return [
        {
            **vars(row),  # its four plain fields (asdict's deep copy was most of a diff's cost)
            "old_text": old_rule.text if old_rule else None,
            "new_text": new_rule.text if new_rule else None,
            "section_version": versions_shown[in_new],
            "section": section_rule.number,
            "section_heading": section_rule.heading or section_rule.text,
        }
        for row, old_rule, new_rule, in_new, section_rule in _with_rules(rows, old_rules, new_rules)
    ]


def _with_rules(
    rows: list[LineageRow], old_rules: list[RuleRow], new_rules: list[RuleRow]
) -> Iterator[tuple[LineageRow, RuleRow | None, RuleRow | None, bool, RuleRow]]:
    """Each row with its old and new rules, and its section's rule (``_Sections``) and whether that is in the
    newer version."""
    by_number = ({rule.number: rule for rule in old_rules}, {rule.number: rule for rule in new_rules})
    sections = _Sections(rows, _heading_sections(old_rules), _heading_sections(new_rules))
    for row in rows:
        in_new, section = sections.of(row)
        old_rule = by_number[0].get(row.old) if row.old is not None else None
        new_rule = by_number[1].get(row.new) if row.new is not None else None
        yield row, old_rule, new_rule, in_new, by_number[in_new][section]


def _changed_sections(sections: dict[tuple, Counter]) -> list[dict]:
    """The sections with changes, most changed first, from the kinds counted per (version, number, heading)."""
    ranked = [
        {
            "version": version,
            "number": number,
            "heading": heading,
            "changed": sum(counts[kind] for kind in CHANGED_KINDS),
            "counts": {kind: counts[kind] for kind in KINDS if counts[kind]},
            # not among the changed: the rules of the section whose text stayed the same (moved, unchanged)
            "same_text": {kind: counts[kind] for kind in KINDS if counts[kind] and kind not in CHANGED_KINDS},
        }
        for (version, number, heading), counts in sections.items()
    ]
    ranked = [section for section in ranked if section["changed"]]
    return sorted(ranked, key=lambda section: (-section["changed"], natural_key(section["number"])))
