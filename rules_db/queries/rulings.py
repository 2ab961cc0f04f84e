"""The ruling page: a ruling with its sub-questions, sequence, citations (stale ones with their equivalent in the
newest version), the cards it names and the rulings related to it."""

from __future__ import annotations

import heapq
import json
import sqlite3
from collections import Counter

from rules_db import faqs
from rules_db.queries.common import RULE_REF, ruling_sequence, select_all, select_one, with_raw_texts
from rules_db.queries.equivalents import equivalents_of
from rules_db.queries.kept import lookup_table


def ruling_page(conn: sqlite3.Connection, ruling_id: int) -> dict | None:
    ruling = select_one(
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
        "parent": select_one(conn, "select id, question from rulings where id = ?", [ruling["parent_ruling_id"]]),
        "sub_questions": select_all(
            conn, "select id, question, anchor from rulings where parent_ruling_id = ? order by position", [ruling_id]
        ),
        "source_related": select_all(
            conn,
            """select distinct g.id, g.question, g.page_title, x.target from ruling_relations x
            join rulings g on g.id = x.related_ruling_id where x.ruling_id = ? order by g.position""",
            [ruling_id],
        ),
        "sequence": ruling_sequence(conn, ruling_id),
        "nuances": select_all(
            conn, "select position, text from ruling_nuances where ruling_id = ? order by position", [ruling_id]
        ),
        "citations": citations(conn, ruling_id),
        "mentions": select_all(
            conn,
            """select distinct k.id as keyword_id, k.game_id as game, k.term, m.matched_text
            from keyword_mentions m join keywords k on k.id = m.keyword_id where m.ruling_id = ?
            order by k.term, m.matched_text""",
            [ruling_id],
        ),
        "cards": _cards_named(conn, ruling_id),
        "related": related_rulings(conn, ruling_id),
        "replays": select_all(
            conn, "select id, title, verdict from replays where ruling_id = ? order by id", [ruling_id]
        ),
        "faq": faqs.article_of(conn, ruling["document_id"]),
    }


def _cards_named(conn: sqlite3.Connection, ruling_id: int) -> list[dict]:
    """The cards a ruling names, each with the names it goes by there."""
    cards = select_all(
        conn,
        """select c.id, c.name, c.slug from cards c
        where c.id in (select card_id from card_mentions where ruling_id = ?) order by c.name""",
        [ruling_id],
    )
    for card in cards:
        card["surfaces"] = [
            row["surface"]
            for row in select_all(
                conn,
                """select distinct surface from card_mentions
            where ruling_id = ? and card_id = ? order by surface""",
                [ruling_id, card["id"]],
            )
        ]
    return cards


def citations(conn: sqlite3.Connection, ruling_id: int) -> list[dict]:
    """A ruling's citations; ``stale`` when the cited version is not the newest, with its equivalent rules: in
    the newest version when stale (what it means today; the other older ones would only crowd it), else in every
    other version."""
    rows = with_raw_texts(
        select_all(
            conn,
            f"""select min(c.id) as citation_id, c.number as cited_number,
            json_group_array(distinct c.raw_text) as raw_texts, c.how, c.written_against, cd.version as cited_version,
            coalesce(cd.is_newest, 1) = 0 as stale, c.keyword_id, {RULE_REF}
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
