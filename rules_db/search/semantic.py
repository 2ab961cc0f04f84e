"""The semantic stage: the rows nearest the question's meaning (the dense stage), fused with the lexical ranking.

The build stored one vector per row of the index (``rules_db.search_vectors``); the question is embedded by the same
encoder, and the rows whose vectors are closest (cosine), among the rows the filters allow, are the dense ranking.
The first response fuses it with the lexical one (``fuse``: scores, not ranks), its constants chosen on the
benchmark's tuning questions only. A database built without vectors, or a server without the encoder's packages,
answers lexically, and says so (``state``).
"""

from __future__ import annotations

import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

import numpy as np

from rules_db import queries
from rules_db.search import models
from rules_db.search.index_format import VECTOR_DTYPE

DENSE_CANDIDATES = 40  # the rows of the dense ranking fused with the lexical one
# Score fusion (see ``fuse``), chosen on the tuning questions only (judge_questions.yaml's tuning third and
# judge_questions_real.yaml's tuning questions: benchmarks/bench_semantic.py --tune). Measured there, it beat reciprocal
# rank fusion at its best constants on @1, @5 and MRR.
DENSE_WEIGHT = 2.0
COSINE_FLOOR = 0.5
# What a rule adds to its fused score (the best rule first; rulings and cards beside it, issue 34). Chosen at 0.4 when
# a ruling on the card a question names took the first place from the rule that decides; it cost the judge-style
# questions up to .07 @1 on the held-out sets. The rules a matching ruling cites now rise by that ruling's score
# (``cited``), and chosen again with it on the tuning questions (bench_semantic.py --tune-cited), the prior is 0.
RULE_PRIOR = 0.0
_QUERY_VECTORS_KEPT = 512  # questions' vectors kept per process (a judge refines a question; pages are re-asked)


@dataclass
class Vectors:
    """The index's vectors, read once per database, with what the filters test of each row."""

    encoder: str
    ids: np.ndarray  # search_documents ids, one per row of ``matrix``
    matrix: np.ndarray  # float32, unit rows
    game: np.ndarray  # object arrays
    kind: np.ndarray
    current: np.ndarray  # bool
    version: np.ndarray
    rulebook: np.ndarray


@dataclass(frozen=True)
class State:
    on: bool
    encoder: str | None = None
    reason: str | None = None  # why it is off

    def described(self) -> dict:
        return {"on": self.on, "encoder": self.encoder, **({"off_because": self.reason} if self.reason else {})}


def state(conn: sqlite3.Connection) -> State:
    """Whether the semantic stage answers on this database in this process, and why not."""
    vectors = _vectors(conn)
    if vectors is None:
        return State(False, None, "the database was built without the semantic stage's vectors")
    if models.encoder(vectors.encoder) is None:
        return State(False, vectors.encoder, models.unavailable(vectors.encoder) or "its encoder cannot be loaded")
    return State(True, vectors.encoder)


def _vectors(conn: sqlite3.Connection) -> Vectors | None:
    return queries.lookup_table(conn, ("search vectors",), lambda: _read_vectors(conn))


def _read_vectors(conn: sqlite3.Connection) -> Vectors | None:
    try:
        model = conn.execute("select name, dimensions from search_vector_model").fetchone()
    except sqlite3.OperationalError:  # a database built before the semantic stage
        return None
    if model is None:
        return None
    name, dimensions = model
    rows = conn.execute(
        """select v.id, v.vector, d.game_id, d.kind, d.current, d.version, d.rulebook
        from search_vectors v join search_documents d on d.id = v.id order by v.id"""
    ).fetchall()
    if not rows:
        return None
    matrix = np.frombuffer(b"".join(row[1] for row in rows), dtype=VECTOR_DTYPE).reshape(len(rows), dimensions)
    column = list(zip(*rows))
    return Vectors(
        name,
        np.array(column[0], dtype=np.int64),
        matrix.astype(np.float32),
        np.array(column[2], dtype=object),
        np.array(column[3], dtype=object),
        np.array(column[4], dtype=bool),
        np.array(column[5], dtype=object),
        np.array(column[6], dtype=object),
    )


_kept: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
_kept_lock = threading.Lock()


def query_vector(encoder_name: str, text: str) -> np.ndarray | None:
    encoder = models.encoder(encoder_name)
    if encoder is None:
        return None
    key = (encoder_name, text)
    with _kept_lock:
        if key in _kept:
            _kept.move_to_end(key)
            return _kept[key]
    vector = encoder.embed([text], query=True)[0]
    with _kept_lock:
        _kept[key] = vector
        while len(_kept) > _QUERY_VECTORS_KEPT:
            _kept.popitem(last=False)
    return vector


def dense(conn: sqlite3.Connection, text: str, filters: dict, limit: int = DENSE_CANDIDATES) -> list[tuple[int, float]]:
    """(search_documents id, cosine) of the rows nearest the question among those the filters allow, nearest first;
    none when the stage is off."""
    vectors = _vectors(conn)
    if vectors is None or not text.strip():
        return []
    vector = query_vector(vectors.encoder, text)
    if vector is None:
        return []
    allowed = _allowed(vectors, filters)
    scores = vectors.matrix @ vector
    scores = np.where(allowed, scores, -np.inf)
    count = min(limit, int(allowed.sum()))
    if count <= 0:
        return []
    best = np.argpartition(-scores, count - 1)[:count]
    best = best[np.argsort(-scores[best], kind="stable")]
    return [(int(vectors.ids[index]), float(scores[index])) for index in best]


def _allowed(vectors: Vectors, filters: dict) -> np.ndarray:
    """The rows the search filters allow (as the lexical stage's filters do: rules of the newest versions unless a
    version is asked for; rulings and cards in every version and rulebook)."""
    rule = vectors.kind == "rule"
    allowed = ~rule | (vectors.version == filters["version"]) if filters.get("version") else vectors.current.copy()
    if filters.get("rulebook"):
        allowed &= ~rule | (vectors.rulebook == filters["rulebook"])
    if filters.get("game"):
        allowed &= vectors.game == filters["game"]
    if filters.get("kind"):
        allowed &= vectors.kind == filters["kind"]
    return allowed


def fused_scores(
    lexical: list[tuple[Any, float]],
    nearest: list[tuple[Any, float]],
    dense_weight: float = DENSE_WEIGHT,
    floor: float = COSINE_FLOOR,
    rules: Collection = (),
    rule_prior: float = RULE_PRIOR,
) -> dict[Any, float]:
    """Each id's fused score: its lexical score relative to the best row's, plus ``dense_weight`` times how far its
    cosine to the question rises above ``floor`` (a row of one ranking only has nothing of the other), plus
    ``rule_prior`` for the ids in ``rules`` (the rows that are rules)."""
    top = max((score for _row_id, score in lexical), default=0.0)
    scale = top if top > 0 else 1.0
    fused = {row_id: score / scale for row_id, score in lexical}
    for row_id, cosine in nearest:
        fused[row_id] = fused.get(row_id, 0.0) + dense_weight * max(0.0, cosine - floor)
    for row_id in fused:
        if row_id in rules:
            fused[row_id] += rule_prior
    return fused


def fuse(
    lexical: list[tuple[Any, float]],
    nearest: list[tuple[Any, float]],
    dense_weight: float = DENSE_WEIGHT,
    floor: float = COSINE_FLOOR,
    rules: Collection = (),
    rule_prior: float = RULE_PRIOR,
) -> list[Any]:
    """The ids of both rankings in their fused order (``fused_scores``); a tie keeps the lexical order, then the
    dense one."""
    fused = fused_scores(lexical, nearest, dense_weight, floor, rules, rule_prior)
    return in_fused_order(fused, [row_id for row_id, _score in lexical] + [row_id for row_id, _cosine in nearest])


def in_fused_order(fused: dict[Any, float], ids: list[Any]) -> list[Any]:
    """``ids`` (once each) by their fused score, best first; a tie keeps their order in ``ids``."""
    order = list(dict.fromkeys(ids))
    position = {row_id: index for index, row_id in enumerate(order)}
    return sorted(order, key=lambda row_id: (-fused.get(row_id, 0.0), position[row_id]))
