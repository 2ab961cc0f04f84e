"""The version lineage in the database: storing it, and reading it back.

``rules_db/lineage.py`` computes which rule of one version became which rule of the next; this
module keeps that correspondence in ``rule_lineage`` for each consecutive pair of versions of a
rulebook (the chain of ``documents.previous_id``), relinks the chain when a version arrives
between two others, and answers the questions a judge asks of it: a rule's whole history
(``history``), the same rule in every other version (``equivalents``), and what changed between
any two versions (``diff_summary``, composed over the versions between them).
"""

from __future__ import annotations

import sqlite3
from collections import Counter, defaultdict

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
    for book in versions.rulebooks(db, game_id):
        documents = versions.versions(db, game_id, book["slug"])
        chain = {(older["id"], newer["id"]) for older, newer in zip(documents, documents[1:])}
        stored = {
            (row["from_document_id"], row["to_document_id"])
            for row in db.query(
                "select distinct from_document_id, to_document_id from rule_lineage l "
                "join documents d on d.id = l.to_document_id where d.rulebook_id = ?",
                [book["id"]],
            )
        }
        for pair in stored - chain:
            db.execute("delete from rule_lineage where from_document_id = ? and to_document_id = ?", list(pair))
        for older, newer in zip(documents, documents[1:]):
            if (older["id"], newer["id"]) not in stored:
                figures[(older["id"], newer["id"])] = _store_pair(db, older["id"], newer["id"])
    return figures


def _store_pair(db: sqlite_utils.Database, old_document_id: str, new_document_id: str) -> Counter:
    old_rules, new_rules = document_rules(db, old_document_id), document_rules(db, new_document_id)
    old_ids: dict[str | None, int | None] = {rule.number: rule.id for rule in old_rules}
    new_ids: dict[str | None, int | None] = {rule.number: rule.id for rule in new_rules}
    rows = compute_lineage(old_rules, new_rules)
    store.insert_rows(
        db,
        "rule_lineage",
        [
            {
                "from_document_id": old_document_id,
                "to_document_id": new_document_id,
                "from_rule_id": old_ids.get(row.old),
                "to_rule_id": new_ids.get(row.new),
                "kind": row.kind,
                "similarity": row.similarity,
            }
            for row in rows
        ],
    )
    return Counter(row.kind for row in rows)


def equivalents(
    db: Connection, rule_id: int, directions: tuple[str, ...] = ("forward", "backward")
) -> list[tuple[str, str, str, str]]:
    """The same rule in the game's other versions: ``(document_id, version, number, kind)``,
    oldest version first, following the lineage transitively (forwards to newer
    versions, backwards to older ones). A rule that is new (or removed) in the next
    step has no equivalent of its own there; the nearest ancestor's equivalent is
    given instead, with kind ``"ancestor"`` (443.1.e is new in 2025-12-01, and sits
    under 443.1, which was 626.1). ``directions=("forward",)`` gives only the newer versions."""
    db = _database(db)
    found: dict[int, str] = {}
    for direction in directions:
        found.update(_walk(db, rule_id, direction))
    if not found:
        return []
    placeholders = ", ".join("?" for _ in found)
    rows = db.query(
        f"select rules.id, rules.document_id, documents.version, rules.number from rules "
        f"join documents on documents.id = rules.document_id where rules.id in ({placeholders})",
        list(found),
    )
    result = [(row["document_id"], row["version"], row["number"], found[row["id"]]) for row in rows]
    return sorted(result, key=lambda item: (natural_key(item[1]), natural_key(item[2])))


def _walk(db: sqlite_utils.Database, rule_id: int, direction: str) -> dict[int, str]:
    """Rules reached from ``rule_id`` one version step at a time in one direction, with the kind of
    the step that reached them; a step with no counterpart falls back to the nearest ancestor's,
    and whatever is reached through an ancestor stays an "ancestor" equivalent."""
    here, there = ("from_rule_id", "to_rule_id") if direction == "forward" else ("to_rule_id", "from_rule_id")
    found: dict[int, str] = {}
    frontier = [rule_id]
    while frontier:
        step: dict[int, str] = {}
        for current in frontier:
            reached = _step(db, current, here, there) or _ancestor_step(db, current, here, there)
            if found.get(current) == "ancestor":
                reached = dict.fromkeys(reached, "ancestor")
            step.update(reached)
        frontier = [rule for rule in step if rule not in found and rule != rule_id]
        found.update({rule: kind for rule, kind in step.items() if rule != rule_id})
    return found


def _step(db: sqlite_utils.Database, rule_id: int, here: str, there: str) -> dict[int, str]:
    return {
        row[there]: row["kind"]
        for row in db.query(
            f"select {there}, kind from rule_lineage where {here} = ? and {there} is not null", [rule_id]
        )
    }


def _ancestor_step(db: sqlite_utils.Database, rule_id: int, here: str, there: str) -> dict[int, str]:
    """Only for a rule the lineage marks as having no counterpart (new or removed)."""
    unmatched = next(db.query(f"select 1 from rule_lineage where {here} = ? and {there} is null", [rule_id]), None)
    parent = next(db.query("select parent_id from rules where id = ?", [rule_id]), {}).get("parent_id")
    while unmatched and parent is not None:
        step = _step(db, parent, here, there)
        if step:
            return {rule: "ancestor" for rule in step}
        parent = next(db.query("select parent_id from rules where id = ?", [parent]), {}).get("parent_id")
    return {}


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
    old_rules = _rules_by_number(db, old_document["id"])
    new_rules = _rules_by_number(db, new_document["id"])
    rows = rows_between(db, old_document, new_document)
    successor = {row.old: row.new for row in reversed(rows) if row.old and row.new}
    details = [_detail(row, old_rules, new_rules, successor, (old_version, new_version)) for row in rows]
    counts = Counter(row.kind for row in rows)
    accounted = len({row.old for row in rows if row.old is not None})
    return {
        "game": game,
        "rulebook": old_document["rulebook"],
        "rulebook_title": old_document["rulebook_title"],
        "old": {"document_id": old_document["id"], "version": old_version, "rules": len(old_rules)},
        "new": {"document_id": new_document["id"], "version": new_version, "rules": len(new_rules)},
        "counts": {kind: counts[kind] for kind in KINDS},
        "old_rules_accounted": accounted / len(old_rules) if old_rules else 1.0,
        "sections": _changed_sections(details)[:top_sections],
        "rows": details,
    }


def rows_between(db: sqlite_utils.Database, old_document: dict, new_document: dict) -> list[LineageRow]:
    """The correspondence between two versions of one rulebook: stored for consecutive versions,
    composed over the stored steps for versions further apart, computed when the chain between them
    is not stored."""
    chain = versions.versions(db, old_document["game_id"], old_document["rulebook_slug"])
    ids = [document["id"] for document in chain]
    start, stop = ids.index(old_document["id"]), ids.index(new_document["id"])
    steps = [_stored_rows(db, older, newer) for older, newer in zip(ids[start:stop], ids[start + 1 : stop + 1])]
    if stop <= start or not all(steps):
        return compute_lineage(document_rules(db, old_document["id"]), document_rules(db, new_document["id"]))
    if len(steps) == 1:
        return steps[0]
    return compose(steps, document_rules(db, old_document["id"]), document_rules(db, new_document["id"]))


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
    created = next(db.query("select 1 from rule_lineage where to_rule_id = ? and kind = 'new'", [first["id"]]), None)
    start = {**_ref(first), "event": "created" if created else "first version", "from_number": None, "also": []}
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


def _rules_by_number(db: sqlite_utils.Database, document_id: str) -> dict[str, dict]:
    rules = list(
        db.query(
            "select number, parent_number, heading, text from rules where document_id = ? order by position",
            [document_id],
        )
    )
    sections = _heading_sections(rules)
    return {rule["number"]: {**rule, "section": sections[rule["number"]]} for rule in rules}


def _heading_sections(rules: list[dict]) -> dict[str, dict | None]:
    """Each rule's section: the nearest top-level heading at or above it in document order."""
    sections: dict[str, dict | None] = {}
    current = None
    for rule in rules:
        if rule["parent_number"] is None and (rule["heading"] or current is None):
            current = {"number": rule["number"], "heading": rule["heading"] or rule["text"]}
        sections[rule["number"]] = current
    return sections


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


def _detail(
    row: LineageRow, old_rules: dict, new_rules: dict, successor: dict[str, str], versions: tuple[str, str]
) -> dict:
    """A row with both texts and its section, in the newer numbering where there is one: a
    removed rule counts in the section that its old section became."""
    old_rule, new_rule = old_rules.get(row.old), new_rules.get(row.new)
    if new_rule:
        section, version = new_rule["section"], versions[1]
    else:
        assert old_rule is not None, "a lineage row names an old rule, a new rule or both"
        if old_rule["section"]["number"] in successor:
            section, version = new_rules[successor[old_rule["section"]["number"]]]["section"], versions[1]
        else:
            section, version = old_rule["section"], versions[0]
    return {
        **vars(row),  # its four plain fields (asdict's deep copy was most of a diff's cost)
        "old_text": old_rule["text"] if old_rule else None,
        "new_text": new_rule["text"] if new_rule else None,
        "section_version": version,
        "section": section["number"],
        "section_heading": section["heading"],
    }


def _changed_sections(details: list[dict]) -> list[dict]:
    sections: dict[tuple, Counter] = defaultdict(Counter)
    for detail in details:
        sections[(detail["section_version"], detail["section"], detail["section_heading"])][detail["kind"]] += 1
    ranked = [
        {
            "version": version,
            "number": number,
            "heading": heading,
            "changed": sum(counts[kind] for kind in CHANGED_KINDS),
            "counts": {kind: counts[kind] for kind in KINDS if counts[kind]},
        }
        for (version, number, heading), counts in sections.items()
    ]
    ranked = [section for section in ranked if section["changed"]]
    return sorted(ranked, key=lambda section: (-section["changed"], natural_key(section["number"])))
