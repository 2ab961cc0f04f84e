"""The rules a matching ruling cites: a ruling that answers a question like the judge's names the rules it rests on
(its "Relevant Rules", the rules and keywords its answer cites: ``ruling_citations``), and those rules are likely the
ones that decide the judge's question too.

The fused ranking (``answer._fused``) lends each of the best-placed rulings' scores to the rules it cites
(``lent_scores``): a rule cited by a ruling that matches the question rises, more when several matching rulings cite
it, less when the ruling cites many. A cited rule of another version of its rulebook counts as the same number in the
version searched. The lexical ranking alone (``semantic=0``) is not changed.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from dataclasses import dataclass

from rules_db import queries

# Chosen on the development questions only (judge_questions.yaml's tuning third and judge_questions_real.yaml's tuning
# questions: benchmarks/bench_semantic.py --tune-cited).
RULINGS_READ = 8  # the best-placed rulings of the fused order whose citations count
CITED_WEIGHT = 0.75  # a cited rule's bonus: this times the ruling's fused score (relative to the best one's)
SHARE_EXPONENT = 0.0  # among the rules one ruling cites: divided by (their number) ** this (0: each gets it whole)
HOW = ("explicit",)  # which citations count: the rules a ruling names (not the rules of the keywords it names)


@dataclass
class Citations:
    by_ruling: dict[int, list[tuple[str, str, str, str, str]]]  # rulings.id -> (game, rulebook, version, number, how)
    rule_rows: dict[tuple[str, str, str, str], int]  # (game, rulebook, version, number) -> search_documents id
    newest: dict[tuple[str, str], str]  # (game, rulebook) -> the version searched by default


def citations(conn: sqlite3.Connection) -> Citations:
    return queries.lookup_table(conn, ("search citations",), lambda: _read(conn))


def _read(conn: sqlite3.Connection) -> Citations:
    rule_rows: dict[tuple[str, str, str, str], int] = {}
    newest: dict[tuple[str, str], str] = {}
    by_rule: dict[int, tuple[str, str, str, str]] = {}
    for row_id, ref_id, game, rulebook, version, number, current in conn.execute(
        """select id, ref_id, game_id, rulebook, version, number, current from search_documents
        where kind = 'rule' and number is not null"""
    ):
        key = (game, rulebook, version, number)
        rule_rows[key] = row_id
        by_rule[ref_id] = key
        if current:
            newest[(game, rulebook)] = version
    by_ruling: dict[int, list[tuple[str, str, str, str, str]]] = defaultdict(list)
    try:
        rows = conn.execute(
            "select ruling_id, rule_id, how from ruling_citations where rule_id is not null order by id"
        )
        for ruling_id, rule_id, how in rows:
            cited = by_rule.get(rule_id)
            if cited is not None and (*cited, how) not in by_ruling[ruling_id]:
                by_ruling[ruling_id].append((*cited, how))
    except sqlite3.OperationalError:  # a database without citations
        pass
    return Citations(dict(by_ruling), rule_rows, newest)


def cited_rows(conn: sqlite3.Connection, ruling_id: int, filters: dict) -> list[int]:
    """The search_documents ids of the rules a ruling cites, in the version the filters search (the newest of each
    rulebook unless one is asked for), those the filters allow."""
    found = citations(conn)
    out: list[int] = []
    for game, rulebook, _version, number, how in found.by_ruling.get(ruling_id, ()):
        if how not in HOW or (filters.get("rulebook") and rulebook != filters["rulebook"]):
            continue
        version = filters.get("version") or found.newest.get((game, rulebook))
        row_id = found.rule_rows.get((game, rulebook, version, number)) if version else None
        if row_id is not None and row_id not in out:
            out.append(row_id)
    return out


def lent_scores(
    conn: sqlite3.Connection,
    order: list[int],
    fused: dict[int, float],
    rulings: dict[int, int],
    filters: dict,
    weight: float | None = None,
    rulings_read: int | None = None,
    exponent: float | None = None,
) -> dict[int, float]:
    """search_documents id -> the score the best-placed rulings of ``order`` lend the rules they cite: ``weight`` times
    the ruling's fused score relative to the best one's, divided by (the number of rules it cites) ** ``exponent``,
    summed over the rulings. ``rulings``: the search ids of the rulings among ``order`` -> their rulings.id. The
    constants default to the module's (read at each call)."""
    weight = CITED_WEIGHT if weight is None else weight
    rulings_read = RULINGS_READ if rulings_read is None else rulings_read
    exponent = SHARE_EXPONENT if exponent is None else exponent
    if weight <= 0 or filters.get("kind") not in (None, "rule"):
        return {}
    top = max(fused.values(), default=0.0)
    if top <= 0:
        return {}
    lent: dict[int, float] = defaultdict(float)
    read = 0
    for row_id in order:
        if row_id not in rulings:
            continue
        read += 1
        if read > rulings_read:
            break
        cited = cited_rows(conn, rulings[row_id], filters)
        if not cited:
            continue
        share = weight * max(0.0, fused.get(row_id, 0.0)) / top / len(cited) ** exponent
        for rule_row in cited:
            lent[rule_row] += share
    return dict(lent)
