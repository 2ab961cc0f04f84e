"""A library replay's page, and what the replay and dispute pages look up: the rules a replay's steps cite as
numbered in the scenario's version, the FAQ entries they cite, the rules versions a dispute may be judged under."""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict

from rules_db import faqs, versions
from rules_db.queries.common import RULE_REF, quote, ruling_sequence, select_all, select_one
from rules_db.queries.equivalents import lent_translator, replay_citations_in_newest
from rules_db.replays import step_counterparts
from scenarios.versions import is_faq


def library_scenarios(conn: sqlite3.Connection, limit: int) -> list[dict]:
    """The first ``limit`` library replays that hold their scenario: id, file and the scenario's text."""
    return select_all(
        conn, "select id, file, scenario from replays where scenario is not null order by id limit ?", [limit]
    )


def replay_page(conn: sqlite3.Connection, replay_id: str, stored_steps: bool = True) -> dict | None:
    """A library replay: its row, the ruling's sequence, and the steps the build stored, each with the rules it
    cites as numbered in the newest version. Without ``stored_steps`` they are left out (None) unless the replay
    has no scenario (they are then all a page can show): a page that replays the scenario shows the engine's
    steps, and following the stored steps' citations to the newest version was most of its database work."""
    replay = select_one(
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
    steps = select_all(conn, "select * from replay_steps where replay_id = ? order by position", [replay_id])
    cited = defaultdict(list)
    for citation in replay_citations_in_newest(
        conn,
        select_all(
            conn,
            f"""select c.step_id, c.number as cited_number, {RULE_REF}
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
    corresponds to there; a number with no counterpart maps to no row. A number with no counterpart of its own maps
    to its nearest ancestor's, each row marked `stand_in`: a step shows it only when none of its numbers has a
    counterpart of its own (`step_citations`)."""
    try:
        with lent_translator(conn, game, cited_version, version) as translate:
            wanted = {number: translate([number]) for number in dict.fromkeys(numbers)}
            stand_ins = {number for number in wanted if translate.direct(number) is None}
    except LookupError:
        return {}
    document = versions.rules_document(conn, game, version)
    found = {
        row["number"]: row
        for row in select_all(
            conn,
            f"""select {RULE_REF}, r.text from rules r join documents d on d.id = r.document_id
            where r.document_id = ? and r.number in (select value from json_each(?))""",
            [document["id"] if document else None, json.dumps(sorted({n for ns in wanted.values() for n in ns}))],
        )
    }
    for row in replay_citations_in_newest(conn, list(found.values())):
        row["quote"] = quote(row.pop("text") or row["heading"] or "")
    rulings = faq_rulings(conn, game, [number for number in wanted if is_faq(number)])
    found.update(rulings)
    return {
        number: [{**found[n], "stand_in": True} if number in stand_ins else found[n] for n in translated if n in found]
        for number, translated in wanted.items()
    }


def step_citations(cited: dict[str, list[dict]], numbers: list[str]) -> list[dict]:
    """The rule rows one step shows, each once, from `cited_rules`' answer (`step_counterparts`: an ancestor's
    stand-in only when no number of the step has a counterpart of its own); a number the database cannot place (its
    rules version is not held: `cited` is empty) is shown unlinked."""
    if not cited:
        return [{"id": None, "number": number} for number in dict.fromkeys(numbers)]

    def own(number: str) -> list[dict]:
        return [row for row in cited.get(number, []) if not row.get("stand_in")]

    rows: dict[str, dict] = {}
    for found in step_counterparts(numbers, own, lambda number: cited.get(number, [])):
        for row in found:
            rows.setdefault(row["number"], row)
    return list(rows.values())


def faq_rulings(conn: sqlite3.Connection, game: str, citations: list[str]) -> dict[str, dict]:
    """Each cited entry of an official FAQ (``faq:<date>#q<N>``) as a citation row: the ruling it names when the
    database holds it (``faqs.faq_entries``: ``ruling_id`` and a quote of its question), else the citation alone
    (shown as text, never a broken link)."""
    rows: dict[str, dict] = {}
    for citation, entry in faqs.faq_entries(conn, game, list(dict.fromkeys(citations))).items():
        rows[citation] = {
            "id": None,
            "number": citation,
            "faq": True,
            "ruling_id": entry["id"] if entry else None,
            "quote": quote(entry["question"] or "") if entry else "",
        }
    return rows


def _nest(steps: list[dict], cited: dict) -> list[dict]:
    """Steps as a tree under their parent steps, in position order."""
    by_id = {step["id"]: {**step, "citations": cited.get(step["id"], []), "children": []} for step in steps}
    roots: list[dict] = []
    for step in by_id.values():
        parent = by_id.get(step["parent_step_id"])
        (parent["children"] if parent else roots).append(step)
    return roots
