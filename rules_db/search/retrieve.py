"""Step 2, retrieval: the question's concepts as FTS5 queries over the index, filtered, and the rows they find
(see ``rules_db.search``)."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field

from rules_db import queries
from rules_db.search.index_format import facet
from rules_db.search.understand import Query, _rows_holding

COMMON_SHARE = 0.1  # a concept in more rows than this share only re-ranks (see _retrieval)
PAIRED_CONCEPTS = 5  # the best rows are sought among rows holding two of this many most specific concepts
SCORED_MATCHES = 2000  # ... when more rows than this match any concept; and at most about this many rows are
# ranked for the concepts searched in every field (the more common ones are sought in headings only)

# BM25 weights of the index's fields: title, terms, path, context, body (facets do not score).
FIELD_WEIGHTS = (4.0, 4.0, 1.5, 0.5, 1.0, 0.0)


def _filter_expression(filters: dict, by_rowid: bool) -> str | None:
    """The search filters as an FTS5 condition on the ``facets`` column (tokens only: nothing typed reaches it);
    none when there is nothing to filter on. ``by_rowid``: the current rows (of the game filtered on) are sought
    by their ids (see ``_current_rows``), not by tokens."""
    if filters["version"]:
        tokens = [f"({facet('version', filters['version'])} OR unversioned)"]
    else:
        tokens = [] if by_rowid else ["current"]
    if filters["rulebook"]:
        tokens.append(f"({facet('rulebook', filters['rulebook'])} OR unversioned)")
    if filters["game"] and not by_rowid:
        tokens.append(facet("game", filters["game"]))
    if filters["kind"]:
        tokens.append(facet("kind", filters["kind"]))
    return "facets : (" + " AND ".join(tokens) + ")" if tokens else None


ALL_ROWS = (0, 2**62)


def _current_rows(conn: sqlite3.Connection) -> dict[str | None, tuple[int, int] | None]:
    """The first and last id of the rows searched by default (``search_documents.current``), of each game and of
    all of them (None), when they are one run of ids (the index stores the current rows first, game by game). FTS5
    then seeks to those ids instead of reading the list of every row holding the ``current`` (or the game's) token,
    a cost that grows with the corpus, not with the question. A game the database does not hold has none."""
    return queries.lookup_table(conn, ("search current rows",), lambda: _read_current_rows(conn))


def _read_current_rows(conn: sqlite3.Connection) -> dict[str | None, tuple[int, int] | None]:
    """``_current_rows`` read at once: one table per database, whatever game a request names."""
    games = [game for (game,) in conn.execute("select distinct game_id from search_documents")]
    runs: dict[str | None, tuple[int, int] | None] = {}
    for game in [None, *games]:
        # Read from the index's list of the rows holding those tokens: no scan of every row's text.
        searched = "current" + (f" AND {facet('game', game)}" if game else "")
        low, high, count = conn.execute(
            "select min(rowid), max(rowid), count(*) from search_fts where search_fts match ?",
            [f"facets : ({searched})"],
        ).fetchone()
        runs[game] = (low, high) if count and high - low + 1 == count else None
    return runs


_TEXT_COLUMNS = "{title terms path context body}"

# The same filters in SQL, for the rows a question cites by number (not found through the index).
_FILTERS = """(:game is null or d.game_id = :game)
    and (:kind is null or d.kind = :kind)
    and (d.kind != 'rule' or ((:rulebook is null or d.rulebook = :rulebook)
        and (case when :version is null then d.current = 1 else d.version = :version end)))"""


_HEADING_COLUMNS = "{title terms}"


@dataclass
class _Retrieval:
    """The FTS5 queries of a question: ``any`` matches rows holding any of its concepts (what the total
    counts and paging walks); ``pairs``, rows holding two of its most specific concepts at least, and
    ``bounded``, rows holding a rare concept anywhere or a common one in their headings (where the best
    rows are sought when many rows match, so that BM25 scores few rows)."""

    any: str | None
    pairs: str | None
    bounded: str | None = None
    rows: tuple[int, int] = ALL_ROWS  # the first and last id of the rows searched (see _current_rows)
    named: list[tuple[int, int]] = field(default_factory=list)  # the same, of each game the question names


def _retrieval(conn: sqlite3.Connection, query: Query, filters: dict) -> _Retrieval:
    """The FTS5 queries for the question (see ``_Retrieval``); every form quoted, so no FTS syntax survives.

    Concepts (and synonyms) held by more than ``COMMON_SHARE`` of the rows ("unit" in a rulebook) find
    rows only when the question has nothing more specific; they still count when the rows found are
    re-ranked. Forms with the same stem are one term to the index and are searched once."""
    common = COMMON_SHARE * query.indexed
    specific = [concept for concept in query.concepts if concept.rows <= common] or sorted(
        query.concepts, key=lambda concept: -concept.weight
    )[:2]
    stem_of, terms = query.stems(), query.terms
    groups = []  # (weight, rows holding it at most, the concept's forms OR-ed in the text, ... in the headings)
    for concept in specific:
        alternatives = [form for form in concept.forms + concept.expansions if _rows_holding([form], terms) <= common]
        by_stem = {
            (tuple(stem_of.get(word, word) for word in form.split()), concept.scopes.get(form)): form
            for form in alternatives or concept.forms
        }
        if by_stem:
            rows = sum(_rows_holding([form], terms) for form in by_stem.values())
            scoped = {form: concept.scopes.get(form) for form in by_stem.values()}
            groups.append((concept.weight, rows, _any_form(scoped, _TEXT_COLUMNS), _any_form(scoped, _HEADING_COLUMNS)))
    if not groups:
        return _Retrieval(None, None)
    runs = _current_rows(conn)  # one look-up per question, however many games it names
    current = None if filters["version"] else runs.get(filters["game"])
    where = _filter_expression(filters, by_rowid=current is not None)

    def filtered(text: str) -> str:
        return f"({text}) AND {where}" if where else text

    pairs = _two_of(sorted(groups, key=lambda group: -group[0])[:PAIRED_CONCEPTS])
    # A game named in the question ("in pox nora") has its own candidates: the words may be far more
    # common in another game's rules, whose rows would fill every place.
    named = [runs.get(game) for game in sorted(query.games)] if current and not filters["game"] else []
    return _Retrieval(
        filtered(" OR ".join(group for _weight, _rows, group, _heading in groups)),
        filtered(pairs) if pairs else None,
        filtered(_common_in_headings(groups)),
        current or ALL_ROWS,
        [rows for rows in named if rows],
    )


def _any_form(scopes: dict[str, frozenset[str] | None], columns: str) -> str:
    """An FTS5 expression matching the forms (quoted, so no FTS syntax survives) in the columns, a form of
    ``scopes`` that counts for some games only (see ``Concept.scopes``) in those games' rows."""
    everywhere = " OR ".join(f'"{form}"' for form, games in scopes.items() if games is None)
    parts = [f"{columns} : ({everywhere})"] if everywhere else []
    for form, games in scopes.items():
        if games is not None:
            parts.append(
                f'({columns} : "{form}" AND facets : ({" OR ".join(facet("game", game) for game in sorted(games))}))'
            )
    return parts[0] if len(parts) == 1 else "(" + " OR ".join(parts) + ")"


def _two_of(groups: list[tuple[float, int, str, str]]) -> str:
    """Rows holding two of the groups at least: (A AND (B OR C)) OR (B AND C), each group written fewer times
    than in every pair spelled out. BM25 reads the rows of each phrase once per time it is written (for its
    rarity), so the commonest group leads and is written once."""
    ordered = [group for _weight, _rows, group, _heading in sorted(groups, key=lambda group: -group[1])]
    return " OR ".join(
        f"({head} AND ({' OR '.join(ordered[position + 1 :])}))" for position, head in enumerate(ordered[:-1])
    )


def _common_in_headings(groups: list[tuple[float, int, str, str]]) -> str:
    """The concepts' groups OR-ed, the rarest sought in every field while together they hold at most
    ``SCORED_MATCHES`` rows, the others in headings and defined terms only: the rows a common word
    heads are the ones that answer it, and BM25 then ranks a number of rows that does not grow with
    the corpus as every row holding the word would."""
    parts, held = [], 0
    for _weight, rows, group, in_headings in sorted(groups, key=lambda group: group[1]):
        held += rows
        parts.append(group if held <= SCORED_MATCHES else in_headings)
    return " OR ".join(parts)


def _candidates(conn: sqlite3.Connection, match: str, rows: tuple[int, int], limit: int) -> list[tuple]:
    """(row id, BM25 rank) of the best matching rows among the ids ``rows`` (first, last), best first."""
    return conn.execute(
        f"""select rowid, bm25(search_fts, {", ".join(map(str, FIELD_WEIGHTS))}) as rank from search_fts
        where search_fts match ? and rowid between ? and ? order by rank limit ?""",
        [match, *rows, limit],
    ).fetchall()


def _in_index_order(conn: sqlite3.Connection, match: str, rows: tuple[int, int], limit: int) -> list[tuple]:
    """(row id, no rank) of the first matching rows among the ids ``rows``, in the index's order: nothing ranked."""
    return conn.execute(
        "select rowid, 0.0 from search_fts where search_fts match ? and rowid between ? and ? limit ?",
        [match, *rows, limit],
    ).fetchall()


def _count(conn: sqlite3.Connection, match: str, rows: tuple[int, int]) -> int:
    return conn.execute(
        "select count(*) from search_fts where search_fts match ? and rowid between ? and ?", [match, *rows]
    ).fetchone()[0]


_DOCUMENT_COLUMNS = (
    "id, kind, ref_id, game_id, document_id, rulebook, rulebook_url, version, number, slug, title, terms, path, body"
)


def _documents(conn: sqlite3.Connection, ids: list[int]) -> dict[int, dict]:
    if not ids:
        return {}
    cursor = conn.execute(
        f"select {_DOCUMENT_COLUMNS} from search_documents where id in ({','.join('?' * len(ids))})", ids
    )
    names = [column[0] for column in cursor.description]
    return {row[0]: dict(zip(names, row)) for row in cursor.fetchall()}


def _numbered_rules(conn: sqlite3.Connection, numbers: list[str], filters: dict) -> list[int]:
    """search_documents ids of the rules a question cites by number, in the versions searched."""
    ids = []
    for number in numbers:
        ids += [
            row[0]
            for row in conn.execute(
                f"""select d.id from rules r join search_documents d on d.kind = 'rule' and d.ref_id = r.id
                where r.number = :number collate nocase and {_FILTERS}""",
                {**filters, "number": number.rstrip(".")},
            )
        ]
    return list(dict.fromkeys(ids))
