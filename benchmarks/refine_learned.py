"""An experiment, not a stage of the search: a learned refined order, fitted on the tuning questions only and measured
once on the validation ones (issue 33: "the refined order at least +0.05 @1 above the fused one"). It did not reach it;
this script is how it was measured, kept so the next attempt starts from the same numbers (docs/search.md, "Refined
order").

    .venv/bin/python benchmarks/refine_learned.py [--db data/rules.db] [--cache /tmp/refine-scores.pkl]

For each question (each set of bench_semantic.py, without and with the game filter) the candidates are the first
CANDIDATES results of the fused order, plus the rules cited by the VOTERS rulings of its first 20 results that the
cross-encoder scores highest (a level deeper: "the rules the top rulings cite"). Each candidate has a few features:
its place in the fused order (1/rank), its fused score relative to the first's, the cross-encoder's logit relative to
the best candidate's (one feature per kind: rule, ruling, card) and the votes of those rulings (a logistic of each
one's logit, summed over the rulings that cite it). A linear listwise model (softmax over a question's candidates,
L2-regularised, numpy only) is fitted on the tuning questions; its 5-fold cross-validation on them chose the features,
CANDIDATES and the regularisation. The cross-encoder's logits are cached (``--cache``): a first run reads about 12
texts per question and filter (about 15 CPU-minutes).
"""

from __future__ import annotations

import argparse
import hashlib
import math
import pickle
import sqlite3
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_search import rank_of  # noqa: E402
from bench_semantic import figures, load, sign_test  # noqa: E402

from rules_db.guard import read_only  # noqa: E402
from rules_db.search import answer, cited, refine  # noqa: E402

CANDIDATES = 5
VOTERS = 3  # rulings whose citations vote
READ = 20  # fused results read for rulings
FEATURES = ("prior", "fused", "ce_rule", "ce_ruling", "ce_card", "vote")
REGULARISATION = 0.1
FOLDS = 5
KINDS = ("rule", "ruling", "card")


class Scores:
    """The cross-encoder's logits, cached on disk by (question, kind, id)."""

    def __init__(self, conn: sqlite3.Connection, path: Path):
        self.conn, self.path = conn, path
        self.known: dict = pickle.loads(path.read_bytes()) if path.exists() else {}
        self.ref_ids = dict(conn.execute("select id, ref_id from search_documents"))

    def of(self, question: str, keys: list[tuple[str, int]]) -> list[float]:
        missing = [key for key in dict.fromkeys(keys) if (question, *key) not in self.known]
        if missing:
            texts = refine.candidate_texts(self.conn, [{"kind": kind, "id": ref} for kind, ref in missing])
            for key, logit in zip(missing, refine.scores(question, texts)):
                self.known[(question, *key)] = logit
        return [self.known[(question, *key)] for key in keys]

    def save(self) -> None:
        self.path.write_bytes(pickle.dumps(self.known))


def candidates(conn: sqlite3.Connection, scores: Scores, question: dict, game: str | None) -> dict:
    """The fused order, the candidates (keys) and their features (a matrix, FEATURES' columns)."""
    data = answer.search(conn, question["q"], game=game, per_page=READ, hidden=question["excluded"])
    hits = [hit for hit in data["results"] if (hit["kind"], hit["id"]) not in question["excluded"]]
    fused_order = [(hit["kind"], hit["id"]) for hit in hits]
    searched = data["query"]["searched"]
    filters = {"game": game, "version": None, "kind": None, "rulebook": None}
    rulings = [hit["id"] for hit in hits if hit["kind"] == "ruling"]
    ruling_logits = dict(zip(rulings, scores.of(searched, [("ruling", ref) for ref in rulings])))
    votes: dict[int, float] = defaultdict(float)
    for ruling in sorted(rulings, key=lambda ref: -ruling_logits[ref])[:VOTERS]:
        for row_id in cited.cited_rows(conn, ruling, filters):
            votes[scores.ref_ids[row_id]] += 1 / (1 + math.exp(5 - ruling_logits[ruling]))
    first = hits[:CANDIDATES]
    keys = [(hit["kind"], hit["id"]) for hit in first]
    keys += [key for key in (("rule", ref) for ref in votes) if key not in keys]
    logits = scores.of(searched, keys)
    best_logit = max(logits, default=0.0)
    top = max((hit["features"].get("fused", 0.0) for hit in first), default=0.0) or 1.0
    rows = []
    for index, ((kind, ref), logit) in enumerate(zip(keys, logits)):
        hit = first[index] if index < len(first) else None
        row = {
            "prior": 1 / (index + 1) if hit else 0.0,
            "fused": hit["features"].get("fused", 0.0) / top if hit else 0.0,
            "vote": votes.get(ref, 0.0) if kind == "rule" else 0.0,
        }
        for other in KINDS:
            row["ce_" + other] = (logit - best_logit) / 10 if kind == other else 0.0
        rows.append([row[name] for name in FEATURES])
    return {"fused": fused_order, "keys": keys, "x": np.array(rows, dtype=float)}


class Model:
    """A linear listwise model: a question's candidates scored by w . (x - mean) / deviation."""

    def __init__(self, lists: list[tuple[np.ndarray, np.ndarray]], regularisation: float, steps: int = 300):
        usable = [(x, y) for x, y in lists if 0 < y.sum() < len(y)]
        stacked = np.vstack([x for x, _y in usable])
        self.mean, self.deviation = stacked.mean(0), stacked.std(0) + 1e-6
        usable = [((x - self.mean) / self.deviation, y) for x, y in usable]

        def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
            total, gradient = regularisation * w @ w, 2 * regularisation * w
            for z, y in usable:
                s = z @ w
                p = np.exp(s - s.max())
                p /= p.sum()
                total -= math.log((p * y).sum())
                gradient += z.T @ (p - p * y / (p * y).sum())
            return total / len(usable), gradient / len(usable)

        w, rate = np.zeros(stacked.shape[1]), 0.5
        value, gradient = loss(w)
        for _ in range(steps):
            tried = w - rate * gradient
            new_value, new_gradient = loss(tried)
            if new_value < value:
                w, value, gradient, rate = tried, new_value, new_gradient, rate * 1.1
            else:
                rate /= 2
        self.w = w

    def order(self, found: dict) -> list[tuple[str, int]]:
        keys = found["keys"]
        ranked = [keys[i] for i in np.argsort(-((found["x"] - self.mean) / self.deviation) @ self.w, kind="stable")]
        return list(dict.fromkeys(ranked + found["fused"]))


def target(found: dict, accepted: set) -> np.ndarray:
    return np.array([key in accepted for key in found["keys"]], dtype=float)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, default=Path(__file__).resolve().parent.parent / "data" / "rules.db")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/refine-scores.pkl"))
    options = parser.parse_args()
    conn = read_only(options.db)
    scores = Scores(conn, options.cache)
    questions = load(conn)
    for number, question in enumerate(questions):
        for suffix, game in (("", None), ("_game", question["game"])):
            question["found" + suffix] = candidates(conn, scores, question, game)
        if number % 50 == 0:
            scores.save()
    scores.save()
    tuning = [q for q in questions if not q.get("heldout")]
    validation = [q for q in questions if q.get("heldout")]

    def lists(members: list[dict]) -> list[tuple[np.ndarray, np.ndarray]]:
        return [(q["found" + s]["x"], target(q["found" + s], q["accepted"])) for q in members for s in ("", "_game")]

    def fold(question: dict) -> int:
        return int(hashlib.md5(question["q"].encode()).hexdigest(), 16) % FOLDS

    cross = []
    for part in range(FOLDS):
        model = Model(lists([q for q in tuning if fold(q) != part]), REGULARISATION)
        cross += [rank_of(model.order(q["found"])[:20], q["accepted"]) for q in tuning if fold(q) == part]
    fused = figures([rank_of(q["found"]["fused"], q["accepted"]) for q in tuning])
    print(f"tuning ({len(tuning)}), {FOLDS}-fold: fused {_line(fused)}; learned {_line(figures(cross))}")
    model = Model(lists(tuning), REGULARISATION)
    print("weights: " + ", ".join(f"{name} {weight:.2f}" for name, weight in zip(FEATURES, model.w)))
    for suffix, title in (("", "no filter"), ("_game", "game filter")):
        for q in validation:
            q["fused"] = rank_of(q["found" + suffix]["fused"], q["accepted"])
            q["learned"] = rank_of(model.order(q["found" + suffix])[:20], q["accepted"])
        print(f"\nValidation ({title}), @1/@3/@5/@10/MRR")
        for name in [*dict.fromkeys(q["set"] for q in validation), "union"]:
            members = [q for q in validation if name in ("union", q["set"])]
            fused_line = _line(figures([q["fused"] for q in members]))
            learned_line = _line(figures([q["learned"] for q in members]))
            print(f"  {name:<8}{len(members):>4}  fused {fused_line}  learned {learned_line}")
        print("  learned vs fused: " + "; ".join(sign_test(validation, "fused", "learned", k) for k in (1, 5)))


def _line(values: dict) -> str:
    return "/".join(f"{values[key]:.3f}" for key in ("@1", "@3", "@5", "@10", "MRR"))


if __name__ == "__main__":
    main()
