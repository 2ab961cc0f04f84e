"""Writing parsed documents into the database: one function per kind of document."""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable
from operator import itemgetter

import sqlite_utils

from ingest.documents import DocumentSpec
from ingest.model import ParsedRulebook, ParsedRulings, ParseIssue, SkippedLine
from ingest.outline import coverage, ingested_share
from ingest.source import digest
from ingest.text import paragraph
from rules_db import versions


def store_document(
    db: sqlite_utils.Database, spec: DocumentSpec, lines: int, nonblank: int, skipped: list[SkippedLine]
) -> None:
    db.table("games").insert({"id": spec.game, "name": spec.game_name}, ignore=True)
    rulebook = None
    if spec.kind == "rules":
        slug = spec.rulebook or versions.DEFAULT_RULEBOOK
        rulebook = versions.rulebook_id(spec.game, slug)
        db.table("rulebooks").insert(
            {"id": rulebook, "game_id": spec.game, "slug": slug, "title": spec.title, "is_default": 0}, ignore=True
        )
    db.table("documents").insert(
        {
            "id": spec.slug,
            "game_id": spec.game,
            "title": spec.title,
            "version": spec.version,
            "kind": spec.kind,
            "source_file": spec.filename,
            "original_name": spec.original_name,
            "sha256": digest(spec.path),
            "lines": lines,
            "nonblank_lines": nonblank,
            "coverage": round(coverage(nonblank, skipped), 6),
            "ingested_share": round(ingested_share(nonblank, skipped), 6),
            "is_newest": 0,
            "written_against": spec.written_against,
            "rulebook_id": rulebook,
            "version_label": spec.version_label,
            "version_date": spec.version_date,
            "previous_id": None,
        }
    )


def store_reissue(db: sqlite_utils.Database, document_id: str, spec: DocumentSpec) -> None:
    """Another issue of a stored version, the same rules under another date: a row of its own, not a document."""
    db.table("document_reissues").insert(
        {
            "document_id": document_id,
            "version_date": spec.version_date or spec.version,
            "source_file": spec.filename,
            "sha256": digest(spec.path),
        }
    )


def insert_rows(db: sqlite_utils.Database, table: str, rows: Iterable[dict]) -> None:
    """Rows (dicts with the same keys, plain values) into a table the schema created, in one executemany.
    sqlite-utils' insert_all checks and converts every value of every chunk in Python, which costs the build
    more than the inserts themselves once the rows number in the hundreds of thousands. A generator is consumed
    inside the transaction: an error raised while making its rows rolls back what the connection had not committed
    (a build writes a temporary file that a failure throws away, so nothing is lost)."""
    rows = iter(rows)
    first = next(rows, None)
    if first is None:
        return
    columns = list(first)
    names = ", ".join(f"[{column}]" for column in columns)
    # each row's values as a tuple, in the columns' order (named parameters cost SQLite a dict look-up each)
    values = map(itemgetter(*columns), itertools.chain([first], rows))
    with db.conn:  # committed, as insert_all would: other connections see the rows
        db.conn.executemany(
            f"insert into [{table}] ({names}) values ({', '.join('?' * len(columns))})",
            values if len(columns) > 1 else zip(values),  # one column: itemgetter gives the value, not a tuple
        )


def store_report(
    db: sqlite_utils.Database, document_id: str, issues: list[ParseIssue], skipped: list[SkippedLine]
) -> None:
    insert_rows(
        db,
        "parse_issues",
        (
            {
                "document_id": document_id,
                "line": issue.line,
                "kind": issue.kind,
                "number": issue.number,
                "message": issue.message,
            }
            for issue in issues
        ),
    )
    insert_rows(
        db,
        "skipped_lines",
        (
            {"document_id": document_id, "line": entry.line, "text": entry.text, "reason": entry.reason}
            for entry in skipped
        ),
    )


def store_rulebook(db: sqlite_utils.Database, spec: DocumentSpec, parsed: ParsedRulebook) -> dict[str, int]:
    """Rules, keywords, unresolved references, infractions and symbols of one rulebook; returns rule ids by
    number."""
    first_id = next_id(db, "rules")
    ids = {rule.number: first_id + index for index, rule in enumerate(parsed.rules)}
    sections = _sections(parsed)
    insert_rows(
        db,
        "rules",
        (
            {
                "id": ids[rule.number],
                "document_id": spec.slug,
                "game_id": spec.game,
                "number": rule.number,
                "parent_number": rule.parent,
                "parent_id": ids.get(rule.parent) if rule.parent else None,
                "depth": rule.depth,
                "position": index + 1,
                "section": sections[rule.number],
                "heading": rule.heading,
                "text": paragraph(rule.raw_text),
                "raw_text": rule.raw_text,
                "inferred": int(rule.inferred),
                "source_lines": ",".join(map(str, sorted(rule.lines))),
            }
            for index, rule in enumerate(parsed.rules)
        ),
    )
    insert_rows(
        db,
        "keywords",
        (
            {
                "game_id": spec.game,
                "document_id": spec.slug,
                "term": keyword.term,
                "kind": keyword.kind,
                "rule_id": ids.get(keyword.defining_number) if keyword.defining_number else None,
                "defining_number": keyword.defining_number,
                "aliases": json.dumps(keyword.aliases),
            }
            for keyword in parsed.keywords
        ),
    )
    rulebook = versions.rulebook_id(spec.game, spec.rulebook)
    stored_rulebooks = {row[0] for row in db.execute("select id from rulebooks where game_id = ?", [spec.game])}

    def target_rulebook(slug: str | None) -> str | None:
        """The rulebook a reference points into, where it is in this database (a Tournament Rules text built
        without the Core Rules keeps its references into them, dangling)."""
        target = versions.rulebook_id(spec.game, slug) if slug else rulebook
        return target if target in stored_rulebooks else None

    insert_rows(
        db,
        "rule_refs",
        (
            {
                "document_id": spec.slug,
                "from_rule_id": ids[reference.from_number],
                "to_rule_id": None if reference.rulebook else ids.get(target),
                "target_number": target,
                "raw_text": reference.raw_text,
                "status": "dangling" if reference.rulebook or target not in ids else "resolved",
                "target_rulebook_id": target_rulebook(reference.rulebook),
                "target_document_id": None if reference.rulebook else spec.slug,
            }
            for reference in parsed.references
            for target in reference.target_numbers
        ),
    )
    insert_rows(
        db,
        "infractions",
        (
            {
                "document_id": spec.slug,
                "rule_id": ids[infraction.number],
                "number": infraction.number,
                "name": infraction.name,
                "penalty": infraction.penalty,
                "category": infraction.category,
            }
            for infraction in parsed.infractions
        ),
    )
    insert_rows(
        db,
        "symbols",
        (
            {
                "document_id": spec.slug,
                "game_id": spec.game,
                "shorthand": symbol.shorthand,
                "meaning": symbol.meaning,
                "rule_id": ids[symbol.number],
                "number": symbol.number,
            }
            for symbol in parsed.symbols
        ),
    )
    return ids


def rule_ids(db: sqlite_utils.Database, document_id: str | None) -> dict[str, int]:
    """Each stored rule's id by its number in one rules document (none for no document)."""
    if document_id is None:
        return {}
    return dict(db.execute("select number, id from rules where document_id = ?", [document_id]).fetchall())


def resolve_cross_references(db: sqlite_utils.Database) -> None:
    """References into another rulebook of the game ("See CR 110" in the Tournament Rules) resolve in
    that rulebook's newest version (run once every document is stored and the versions are linked)."""
    pending = list(
        db.query(
            "select x.id, x.target_number, b.game_id, b.slug from rule_refs x "
            "join rulebooks b on b.id = x.target_rulebook_id where x.target_document_id is null"
        )
    )
    for row in pending:
        document = versions.rules_document(db, row["game_id"], None, row["slug"])
        target = (
            db.execute(
                "select id from rules where document_id = ? and number = ?", [document["id"], row["target_number"]]
            ).fetchone()
            if document
            else None
        )
        db.table("rule_refs").update(
            row["id"],
            {
                "target_document_id": document["id"] if document else None,
                "to_rule_id": target[0] if target else None,
                "status": "resolved" if target else "dangling",
            },
        )


def _sections(parsed: ParsedRulebook) -> dict[str, str]:
    """Each rule's top-level ancestor (itself at the top), following parents that exist."""
    parents = {rule.number: rule.parent for rule in parsed.rules}
    sections: dict[str, str] = {}
    for rule in parsed.rules:
        number = rule.number
        while (parent := parents.get(number)) is not None and parent in parents:
            number = parent
        sections[rule.number] = sections.get(number, number)
    return sections


def store_rulings(db: sqlite_utils.Database, spec: DocumentSpec, parsed: ParsedRulings) -> dict[int, int]:
    """Rulings with their steps and nuances, credited to their source, and the source's notes about itself; returns
    ruling ids by position.
    Each ruling's rules version (``rules_document_id``) is set when it is linked (``links.link_rulings``)."""
    first_id = next_id(db, "rulings")
    ids = {ruling.position: first_id + index for index, ruling in enumerate(parsed.rulings)}
    insert_rows(
        db,
        "rulings",
        (
            {
                "id": ids[ruling.position],
                "game_id": spec.game,
                "document_id": spec.slug,
                "position": ruling.position,
                "question": ruling.question,
                "ruling": ruling.ruling,
                "first_line": min(ruling.lines, default=None),
                "ruling_raw": ruling.raw,
                "source": parsed.source or spec.title,
                "category": ruling.category,
                "page": ruling.page,
                "page_title": ruling.page_title,
                "anchor": ruling.anchor,
                "url": ruling.url,
                "author": ruling.author,
                "created_at": ruling.created_at,
                "licence": parsed.licence,
                "licence_url": parsed.licence_url,
                "reviewed_version": ruling.reviewed_version or spec.written_against,
                "rules_document_id": None,
                "parent_ruling_id": ids.get(ruling.parent_position) if ruling.parent_position else None,
            }
            for ruling in parsed.rulings
        ),
    )
    insert_rows(
        db,
        "source_notes",
        (
            {
                "document_id": spec.slug,
                "position": note.position,
                "title": note.title,
                "text": note.text,
                "first_line": min(note.lines, default=None),
                "page": note.page,
                "anchor": note.anchor,
                "url": note.url,
            }
            for note in parsed.notes
        ),
    )
    if spec.written_against is None:
        reviewed = sorted({ruling.reviewed_version for ruling in parsed.rulings if ruling.reviewed_version})
        db.table("documents").update(spec.slug, {"written_against": ", ".join(reviewed) or None})
    insert_rows(
        db,
        "ruling_steps",
        (
            {"ruling_id": ids[ruling.position], "branch": step.branch, "position": step.position, "text": step.text}
            for ruling in parsed.rulings
            for step in ruling.steps
        ),
    )
    insert_rows(
        db,
        "ruling_nuances",
        (
            {"ruling_id": ids[ruling.position], "position": position, "text": text}
            for ruling in parsed.rulings
            for position, text in enumerate(ruling.nuances, start=1)
        ),
    )
    return ids


def store_faq_article(db: sqlite_utils.Database, spec: DocumentSpec, parsed: ParsedRulings) -> None:
    """A dated article of rulings (an official FAQ): its date, link, publisher and claimed precedence."""
    db.table("faq_articles").insert(
        {
            "document_id": spec.slug,
            "game_id": spec.game,
            "title": spec.title,
            "published": parsed.published,
            "url": parsed.url,
            "publisher": parsed.source,
            "official": int(bool(parsed.official)),
            "precedence": parsed.precedence,
        }
    )


def link_versions(db: sqlite_utils.Database) -> None:
    """Chain each rulebook's versions in order (previous_id), mark the newest of each rulebook, and make
    the Core Rules (else the first rulebook) each game's default. Run after every document is stored, so a
    version added between two others is linked into the chain and the old link between them is gone."""
    db.execute("update rulebooks set is_default = 0")
    for game in [row["id"] for row in db.query("select id from games")]:
        books = list(db.query("select id, slug from rulebooks where game_id = ? order by slug", [game]))
        if books:
            default = next((book for book in books if book["slug"] == versions.DEFAULT_RULEBOOK), books[0])
            db.table("rulebooks").update(default["id"], {"is_default": 1})
        for book in books:
            documents = versions.versions(db, game, book["slug"])
            for previous, document in zip([None, *documents], documents):
                db.table("documents").update(
                    document["id"],
                    {
                        "previous_id": previous["id"] if previous else None,
                        "is_newest": int(document is documents[-1]),
                    },
                )


def slugify(name: str) -> str:
    """A name as it appears in a URL (Zhonya's Hourglass: zhonyas-hourglass)."""
    return re.sub(r"[^a-z0-9]+", "-", name.replace("'", "").replace("\u2019", "").lower()).strip("-")


def stored_aliases(stored: str | None) -> list[str]:
    """A keyword's aliases as stored (``store_document`` writes a JSON list; comma-separated text is read too)."""
    if not stored:
        return []
    try:
        aliases = json.loads(stored)
    except ValueError:
        aliases = stored.split(",")
    return [alias.strip() for alias in aliases if isinstance(alias, str) and alias.strip()]


def next_id(db: sqlite_utils.Database, table: str) -> int:
    """The id after the largest in the table: rows are numbered here so parents can point at them."""
    return (db.execute(f"select coalesce(max(id), 0) from [{table}]").fetchone()[0]) + 1
