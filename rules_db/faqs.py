"""Official FAQ articles as the pages show them: the FAQs that clarify a rule, the FAQ a ruling comes from, and
the resolution of a citation of an FAQ entry (``faq:<date>#q<N>``) that the engine's traces carry.

Precedence: an FAQ that claims precedence over the Core Rules (``faq_articles.precedence``, its own words) does
so until the next Core Rules version takes effect; a Core Rules version that took effect after the FAQ prevails
where the two differ (the Vendetta FAQ: "When a new Core Rules Document is released, it will take precedence over
any points that differ from this document").
"""

from __future__ import annotations

import json

from rules_db import in_force, versions
from scenarios.versions import faq_parts


def _rows(conn, sql: str, params=()) -> list[dict]:
    cursor = versions.connection(conn).execute(sql, params)
    names = [column[0] for column in cursor.description]
    return [dict(zip(names, row)) for row in cursor.fetchall()]


def _later_core(conn, game: str, faq: dict) -> dict | None:
    """The first Core Rules version to take effect after the FAQ was published, if the data knows one."""
    return next((row for row in in_force.listed_versions(conn, game) if row["effective_date"] > faq["published"]), None)


def clarifications(conn, rule_id: int) -> list[dict]:
    """The FAQ articles whose rulings cite this rule, newest first: title, date, publisher, link, the questions
    citing it, the precedence the FAQ claims and the Core Rules version that took effect after it, if any."""
    if not in_force.has_table(conn, "faq_articles"):
        return []
    faqs = _rows(
        conn,
        """select f.document_id, f.game_id, f.title, f.published, f.url, f.publisher, f.official, f.precedence,
            json_group_array(distinct r.id || ' ' || coalesce(r.anchor, '')) as entries
        from ruling_citations c join rulings r on r.id = c.ruling_id join faq_articles f on f.document_id = r.document_id
        where c.rule_id = ? and c.how = 'explicit' group by f.document_id order by f.published desc""",
        [rule_id],
    )
    for faq in faqs:
        entries = sorted(
            (entry.split(" ", 1) for entry in json.loads(faq.pop("entries"))),
            key=lambda pair: int(pair[1][1:]) if pair[1][1:].isdigit() else 0,
        )
        faq["entries"] = [{"id": int(ruling_id), "anchor": anchor} for ruling_id, anchor in entries]
        faq["superseded_by"] = _later_core(conn, faq["game_id"], faq)
    return faqs


def article_of(conn, document_id: str | None) -> dict | None:
    """The FAQ article a rulings document is, with the Core Rules version in force on its date (the numbers its
    rulings cite are read there: ``in_force.version_on``) and the version that took effect after it."""
    if document_id is None or not in_force.has_table(conn, "faq_articles"):
        return None
    found = _rows(conn, "select * from faq_articles where document_id = ?", [document_id])
    if not found:
        return None
    faq = found[0]
    faq["in_force"] = in_force.version_on(conn, faq["game_id"], faq["published"])
    faq["superseded_by"] = _later_core(conn, faq["game_id"], faq)
    return faq


def faq_entries(conn, game: str | None, citations: list[str]) -> dict[str, dict | None]:
    """The ruling each citation of an official FAQ entry names (``faq:2026-08-14#q7``: the 7th question of the FAQ
    Riot published that day, ``scenarios.versions.faq_parts``), the one look-up the replay and dispute pages and
    the ruling pages share: the ruling's id, question and anchor, the FAQ's title, date and publisher, and the
    ruling's page path (``/rulings/<id>``). None for a citation not of that form, or of an FAQ or question the
    database does not hold, or of an article that is not the publisher's own (an event's rulings page): the
    caller then shows the citation as text. ``game`` narrows to one game's FAQs (None: any game's)."""
    found: dict[str, dict | None] = {citation: None for citation in citations}
    if not in_force.has_table(conn, "faq_articles"):
        return found
    for citation in found:
        parts = faq_parts(citation)
        if parts is None:
            continue
        rows = _rows(
            conn,
            """select r.id, r.question, r.anchor, f.title, f.published, f.publisher from faq_articles f
            join rulings r on r.document_id = f.document_id
            where f.published = ? and r.anchor = ? and f.official = 1 and (? is null or f.game_id = ?)
            order by f.document_id, r.id limit 1""",
            [*parts, game, game],
        )
        if rows:
            found[citation] = {**rows[0], "path": f"/rulings/{rows[0]['id']}"}
    return found
