"""A comparison of two rulebook versions narrowed to what a judge asked for: one kind of change, one section, one
rule (its number in either version, with its sub-rules), rules only renumbered left out or shown; counted, and paged.

A comparison of consecutive versions is stored (``rules_db.lineage_store.stored_diff_summary``: its counts and
its rows in ``rule_lineage``), narrowed and paged in SQL; any other is computed whole and narrowed here.
"""

from __future__ import annotations

import sqlite_utils

from rules_db.lineage_store import Connection, _database, _only_renumbered, _wanted


class DiffSelection:
    """A diff's rows (``stored_diff_summary``) narrowed to one ``kind`` (every kind but "unchanged" when none), one
    ``section`` and one ``rule`` (its number in either version, with its sub-rules), rules only renumbered left out unless ``show_renumbered``: how many there are (``total``), how many
    rules only renumbered it narrows to, shown or not (``renumbered``), and any page of them (``rows``). A computed
    diff's rows are narrowed once, here; a stored diff's are counted from the build's counts and paged in SQL."""

    def __init__(
        self,
        db: Connection,
        summary: dict,
        kind: str | None,
        section: str | None,
        show_renumbered: bool,
        rule: str | None = None,
    ):
        self._db, self._summary, self._asked = db, summary, (kind, section, show_renumbered, rule)
        self._computed: list[dict] | None = None
        if not summary["stored"]:
            self._computed, self.renumbered = _computed_rows(summary, kind, section, show_renumbered, rule)
            self.total = len(self._computed)
            return
        if rule:  # the build's counts are per kind and section: a rule's rows are counted here
            self.total, self.renumbered = _stored_count(_database(db), summary, kind, section, show_renumbered, rule)
            return
        matching = [
            (count, only_renumbered)
            for group_kind, group_section, count, only_renumbered in summary["groups"]
            if _wanted(kind, section, group_kind, group_section)
        ]
        self.renumbered = sum(only_renumbered for _, only_renumbered in matching)
        self.total = sum(count for count, _ in matching) - (0 if show_renumbered else self.renumbered)

    def rows(self, offset: int, limit: int) -> list[dict]:
        """``limit`` of the rows from ``offset``."""
        if self._computed is not None:
            return self._computed[offset : offset + limit]
        return _stored_page(self._db, self._summary, *self._asked, offset, limit)


def _is_rule(rule: str | None, number: str | None) -> bool:
    """Whether ``number`` is rule ``rule`` or one of its sub-rules (any number when no rule is asked for)."""
    if not rule:
        return True
    number, rule = (number or "").lower(), rule.lower()
    return number == rule or number.startswith(rule + ".")


# The lineage rows (``l``) whose rule, in either version, is rule :rule or one of its sub-rules.
_RULE_ROWS = """and (l.from_rule_id in (select id from rules where document_id = :old and {matches})
    or l.to_rule_id in (select id from rules where document_id = :new and {matches}))""".format(
    matches="(lower(number) = lower(:rule) or lower(substr(number, 1, length(:rule) + 1)) = lower(:rule) || '.')"
)


def _stored_where(kind: str | None, section: str | None, rule: str | None) -> str:
    """The conditions on a stored diff's lineage rows (``l``) narrowing them as ``DiffSelection`` says."""
    return f"""l.id between :first and :last
        {"and l.kind = :kind" if kind else "and l.kind != 'unchanged'"}
        {"and l.section_rule_id in (select id from rules where document_id in (:old, :new) and number = :section)" if section else ""}
        {_RULE_ROWS if rule else ""}"""


def _stored_params(summary: dict, kind: str | None, section: str | None, rule: str | None) -> dict:
    return {
        "old": summary["old"]["document_id"],
        "new": summary["new"]["document_id"],
        "first": summary["lineage_ids"][0],
        "last": summary["lineage_ids"][1],
        "kind": kind,
        "section": section,
        "rule": rule,
    }


def _stored_count(
    db: sqlite_utils.Database, summary: dict, kind: str | None, section: str | None, show_renumbered: bool, rule: str
) -> tuple[int, int]:
    """(the rows of a stored diff narrowed to ``rule``, and how many of them are rules only renumbered)."""
    rows, renumbered = db.execute(
        f"select count(*), coalesce(sum(l.renumbered), 0) from rule_lineage l where {_stored_where(kind, section, rule)}",
        _stored_params(summary, kind, section, rule),
    ).fetchone()
    return rows - (0 if show_renumbered else renumbered), renumbered


def _computed_rows(
    summary: dict, kind: str | None, section: str | None, show_renumbered: bool, rule: str | None = None
) -> tuple[list, int]:
    """The rows of a computed diff wanted, and how many rules only renumbered there are among all they narrow to."""
    rows = [
        row
        for row in summary["rows"]
        if _wanted(kind, section, row["kind"], row["section"])
        and (_is_rule(rule, row["old"]) or _is_rule(rule, row["new"]))
    ]
    only_renumbered = [_only_renumbered(row["kind"], row["old_text"], row["new_text"]) for row in rows]
    if not show_renumbered:
        rows = [row for row, only in zip(rows, only_renumbered) if not only]
    return rows, sum(only_renumbered)


def _stored_page(
    db: Connection,
    summary: dict,
    kind: str | None,
    section: str | None,
    show_renumbered: bool,
    rule: str | None,
    offset: int,
    limit: int,
) -> list[dict]:
    """A page of a stored diff's rows, narrowed as ``DiffSelection`` says."""
    db = _database(db)
    # The page's ids first, then their rules' texts: only the page's rows are read. The pair's rows are one run of
    # ids, read in order until the page is full: no sort of every row of the pair.
    cursor = db.execute(
        f"""select l.kind, o.number as old, n.number as new, l.similarity, o.text as old_text, n.text as new_text,
            s.document_id = :new as section_is_new, s.number as section,
            coalesce(nullif(s.heading, ''), s.text) as section_heading
        from rule_lineage l left join rules o on o.id = l.from_rule_id left join rules n on n.id = l.to_rule_id
        join rules s on s.id = l.section_rule_id
        where l.id in (
            select l.id from rule_lineage l where {_stored_where(kind, section, rule)}
            and (:renumbered or not l.renumbered) order by l.id limit :limit offset :offset
        ) order by l.id""",
        {
            **_stored_params(summary, kind, section, rule),
            "renumbered": int(show_renumbered),
            "limit": limit,
            "offset": offset,
        },
    )
    names = [column[0] for column in cursor.description]
    versions_shown = (summary["old"]["version"], summary["new"]["version"])
    rows = []
    for values in cursor.fetchall():
        row = dict(zip(names, values))
        rows.append(
            {
                **{key: row[key] for key in ("kind", "old", "new", "similarity", "old_text", "new_text")},
                "section_version": versions_shown[bool(row["section_is_new"])],
                "section": row["section"],
                "section_heading": row["section_heading"],
            }
        )
    return rows
