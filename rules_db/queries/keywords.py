"""The keyword page: a keyword's definition, the rules that mention it (each with the sentence that does), its
rulings and cards."""

from __future__ import annotations

import re
import sqlite3

from rules_db.queries.common import PART_OF, RULE_REF, paged, select_all, select_one, symbols
from rules_db.store import stored_aliases

# Rules mentioning a keyword per page, each with the sentence that does.
MENTIONS_PAGE_SIZE = 50


def keyword_page(
    conn: sqlite3.Connection, game: str, term: str, version: str | None = None, page: int = 1
) -> dict | None:
    """A keyword in one version of its game's rules (the newest that defines it unless asked): its definition,
    and one page (``page``, ``MENTIONS_PAGE_SIZE`` a page) of the rules that mention it, each with the sentence that does."""
    keyword = select_one(
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
        "defining_rule": select_one(
            conn,
            f"""select {RULE_REF}, r.text, r.raw_text from rules r
            join documents d on d.id = r.document_id where r.id = ?""",
            [keyword["rule_id"]],
        ),
        "definition": definition(conn, keyword["rule_id"]),
        **_mentioning_rules(conn, keyword_id, page),
        "rulings": select_all(
            conn,
            f"""select g.id, g.question, {PART_OF}, group_concat(distinct x.how) as how from (
                select ruling_id, 'mention' as how from keyword_mentions where keyword_id = ? and ruling_id is not null
                union all select ruling_id, 'citation' from ruling_citations where keyword_id = ?) x
            join rulings g on g.id = x.ruling_id group by g.id order by g.position""",
            [keyword_id, keyword_id],
        ),
        "cards": select_all(
            conn,
            """select c.name, c.slug, ck.value from card_keywords ck join cards c on c.id = ck.card_id
            where ck.keyword_id = ? order by c.name""",
            [keyword_id],
        ),
        "also_defined": select_all(
            conn,
            f"""select {RULE_REF} from keywords k join rules r on r.id = k.rule_id
            join documents d on d.id = r.document_id where k.document_id = ? and k.term = ? collate nocase
            and k.id != ? order by r.position""",
            [keyword["document_id"], keyword["term"], keyword_id],
        ),
        "other_versions": select_all(
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
    rule = select_one(conn, "select document_id, position, depth, heading from rules where id = ?", [rule_id])
    if rule is None:
        return []
    flat_section = rule["depth"] == 0 and rule["heading"] is not None
    end = conn.execute(
        """select min(position) from rules where document_id = ? and position > ? and depth <= ?
        and (? = 0 or heading is not null)""",
        [rule["document_id"], rule["position"], rule["depth"], flat_section],
    ).fetchone()[0]
    return select_all(
        conn,
        f"""select {RULE_REF}, r.depth - ? as depth, r.raw_text from rules r join documents d on d.id = r.document_id
        where r.document_id = ? and r.position > ? and (? is null or r.position < ?) order by r.position limit ?""",
        [rule["depth"], rule["document_id"], rule["position"], end, end, limit],
    )


def _mentioning_rules(conn: sqlite3.Connection, keyword_id: int, page: int) -> dict:
    """One page of the rules mentioning a keyword (``rules``, with ``rules_total``, ``rules_page`` and
    ``rules_pages``), each with ``sentence``: the first whole sentence of its text holding a matched word."""
    listed = paged(
        conn,
        f"""select {RULE_REF}, r.text, replace(group_concat(distinct m.matched_text), ',', ', ') as matched
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
