"""Benchmark the semantic stage: the lexical ranking, the fused first response and the refined order, on every set of
judge questions, at @1/@3/@5/@10 and MRR, with and without the game filter, the Ctrl-F baseline beside every figure,
and a sign test of the questions each stage gains against those it loses.

    .venv/bin/python benchmarks/bench_semantic.py [--db data/rules.db] [--refine] [--tune]

Sets: judge_questions.yaml (its tuning and held-out thirds), judge_questions_fresh.yaml and judge_questions_blind.yaml
(held out whole), judge_questions_real.yaml (judges' real questions, see real_questions.py: its tuning and validation
questions). The validation union is every question never tuned on. ``--tune`` chooses the fusion's constants on the
tuning questions only (judge_questions.yaml's tuning third and judge_questions_real.yaml's tuning questions) and prints
the grid; it never reads a validation question's result. The search is called in-process (``rules_db.search.answer``);
bench_search.py times /search.json.
"""

from __future__ import annotations

import argparse
import math
import sqlite3
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_search import QUESTIONS, CtrlF, _resolve, load_questions, rank_of  # noqa: E402

from rules_db.schema import read_only  # noqa: E402
from rules_db.search import answer, refine, semantic  # noqa: E402

HERE = Path(__file__).resolve().parent
SETS = {
    "judge": QUESTIONS,
    "fresh": HERE / "judge_questions_fresh.yaml",
    "blind": HERE / "judge_questions_blind.yaml",
    "real": HERE / "judge_questions_real.yaml",
}
CUTOFFS = (1, 3, 5, 10)
DEPTH = 20  # results read per question (excluded ones dropped first)


def figures(ranks: list[int | None]) -> dict[str, float]:
    count = len(ranks) or 1
    out = {f"@{k}": sum(1 for rank in ranks if rank and rank <= k) / count for k in CUTOFFS}
    out["MRR"] = sum(1 / rank for rank in ranks if rank) / count
    return out


def load(conn: sqlite3.Connection) -> list[dict]:
    questions = []
    for name, path in SETS.items():
        if not path.exists():
            continue
        found, _skipped = load_questions(conn, path)
        for question in found:
            question["set"] = name
            question["excluded"] = set()
            for item in question.get("exclude", []):
                ((kind, reference),) = item.items()
                question["excluded"] |= _resolve(conn, kind, reference)
            questions.append(question)
    return questions


def keys(data: dict, excluded: set) -> list[tuple[str, int]]:
    return [key for key in ((hit["kind"], hit["id"]) for hit in data["results"]) if key not in excluded]


def run(conn: sqlite3.Connection, questions: list[dict], refine: bool) -> None:
    baseline = CtrlF(conn)
    timings: list[float] = []
    for question in questions:
        for filtered in (False, True):
            game = question["game"] if filtered else None
            suffix = "_game" if filtered else ""
            lexical = answer.search(conn, question["q"], game=game, per_page=DEPTH, semantic=False)
            question["lexical" + suffix] = rank_of(keys(lexical, question["excluded"]), question["accepted"])
            fused = answer.search(conn, question["q"], game=game, per_page=DEPTH)
            question["fused" + suffix] = rank_of(keys(fused, question["excluded"]), question["accepted"])
            if refine:
                start = time.perf_counter()
                refined = answer.search(conn, question["q"], game=game, per_page=DEPTH, refine=True)
                timings.append(time.perf_counter() - start)
                question["refined" + suffix] = rank_of(keys(refined, question["excluded"]), question["accepted"])
            ctrl_f = [
                key for key in baseline.search(question["q"], game, limit=DEPTH + 5) if key not in question["excluded"]
            ]
            question["ctrlf" + suffix] = rank_of(ctrl_f, question["accepted"])
    if timings:
        timings.sort()
        print(
            f"refined order: p50 {timings[len(timings) // 2]:.2f} s, p90 {timings[int(0.9 * len(timings))]:.2f} s wall"
        )


def table(title: str, groups: dict[str, list[dict]], systems: list[str], suffix: str) -> None:
    print(f"\n{title}")
    head = "".join(
        f"{system:<8}" + "".join(f"{name:>6}" for name in ("@1", "@3", "@5", "@10", "MRR")) + "   "
        for system in systems
    )
    print(f"  {'set':<22}{'n':>4}  {head}")
    for name, members in groups.items():
        cells = ""
        for system in systems:
            values = figures([question[system + suffix] for question in members])
            cells += f"{'':<8}" + "".join(f"{values[k]:>6.2f}" for k in ("@1", "@3", "@5", "@10", "MRR")) + "   "
        print(f"  {name:<22}{len(members):>4}  {cells}")


def sign_test(members: list[dict], before: str, after: str, cutoff: int) -> str:
    """Questions the ``after`` ranking answers within ``cutoff`` and the ``before`` does not (gains), and the other way
    (losses), with the two-sided binomial p-value of that many gains among the changed questions."""

    def hit(rank: int | None) -> bool:
        return bool(rank and rank <= cutoff)

    gains = sum(1 for q in members if hit(q[after]) and not hit(q[before]))
    losses = sum(1 for q in members if hit(q[before]) and not hit(q[after]))
    changed = gains + losses
    tail = sum(math.comb(changed, k) for k in range(0, min(gains, losses) + 1)) / 2**changed if changed else 1.0
    return f"@{cutoff}: {gains} gained, {losses} lost (p = {min(1.0, 2 * tail):.3g})"


def tune(conn: sqlite3.Connection, questions: list[dict]) -> None:
    """Choose the fusion's DENSE_WEIGHT, COSINE_FLOOR and RULE_PRIOR on the tuning questions only: each question's lexical
    candidates (with their scores) and dense rows are read once, then fused offline for every pair of the grid."""
    tuning = [q for q in questions if not q.get("heldout")]
    row_keys = {row[0]: (row[1], row[2]) for row in conn.execute("select id, kind, ref_id from search_documents")}
    prepared = []
    for question in tuning:
        data = answer.search(conn, question["q"], per_page=80, semantic=False)
        lexical = [((hit["kind"], hit["id"]), hit["score"]) for hit in data["results"]]
        nearest = [(row_keys[row_id], cosine) for row_id, cosine in semantic.dense(conn, question["q"], _no_filters())]
        prepared.append((question, lexical, nearest))

    def ranks(weight: float, floor: float, prior: float = 0.0) -> list[int | None]:
        out = []
        for question, lexical, nearest in prepared:
            rules = {key for key, _score in lexical + nearest if key[0] == "rule"}
            order = semantic.fuse(lexical, nearest, weight, floor, rules, prior)
            order = [key for key in order if key not in question["excluded"]]
            out.append(rank_of(order[:DEPTH], question["accepted"]))
        return out

    print(f"\nFusion grid on {len(tuning)} tuning questions (@1 / @5 / MRR); lexical alone: {figures(ranks(0.0, 1.0))}")
    best = None
    for prior in (0.0, 0.1, 0.2, 0.3, 0.4):
        print(f" RULE_PRIOR = {prior:g}")
        for floor in (0.5, 0.6, 0.7):
            row = []
            for weight in (0.5, 1.0, 1.5, 2.0, 3.0, 4.0):
                values = figures(ranks(weight, floor, prior))
                score = values["@1"] + values["@5"] + values["MRR"]
                if best is None or score > best[0] + 1e-9:
                    best = (score, weight, floor, prior, values)
                row.append(f"w={weight:g} {values['@1']:.2f}/{values['@5']:.2f}/{values['MRR']:.2f}")
            print(f"  floor={floor:<4g} " + "  ".join(row))
    assert best is not None
    print(f"best: DENSE_WEIGHT = {best[1]:g}, COSINE_FLOOR = {best[2]:g}, RULE_PRIOR = {best[3]:g} ({best[4]})")


def tune_refine(conn: sqlite3.Connection, questions: list[dict]) -> None:
    """Choose the refined order's CANDIDATES and PRIOR_WEIGHT on the tuning questions only: the cross-encoder reads
    each question's first 20 fused results once; the grid is computed offline."""
    tuning = [q for q in questions if not q.get("heldout")]
    prepared = []
    for question in tuning:
        data = answer.search(conn, question["q"], per_page=DEPTH)
        hits = [hit for hit in data["results"] if (hit["kind"], hit["id"]) not in question["excluded"]][:20]
        logits = refine.scores(data["query"]["searched"], refine.candidate_texts(conn, hits))
        prepared.append((question, [(hit["kind"], hit["id"]) for hit in hits], logits))
    fused = figures([rank_of(keys_, question["accepted"]) for question, keys_, _logits in prepared])
    print(f"\nRefine grid on {len(tuning)} tuning questions (@1 / @5 / MRR); fused: {fused}")
    best = None
    for candidates in (5, 8, 12, 16, 20):
        row = []
        for weight in (0.0, 1.0, 2.0, 4.0, 8.0, 16.0):
            ranks = []
            for question, keys_, logits in prepared:
                order = refine.refined(logits[:candidates], weight)
                ranks.append(rank_of([keys_[i] for i in order] + keys_[candidates:], question["accepted"]))
            values = figures(ranks)
            score = values["@1"] + values["@5"] + values["MRR"]
            if best is None or score > best[0]:
                best = (score, candidates, weight, values)
            row.append(f"w={weight:g} {values['@1']:.2f}/{values['@5']:.2f}/{values['MRR']:.2f}")
        print(f"  n={candidates:<3} " + "  ".join(row))
    assert best is not None
    print(f"best: CANDIDATES = {best[1]}, PRIOR_WEIGHT = {best[2]:g} ({best[3]})")


def _no_filters() -> dict:
    return {"game": None, "version": None, "kind": None, "rulebook": None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, default=Path(__file__).resolve().parent.parent / "data" / "rules.db")
    parser.add_argument("--refine", action="store_true", help="also the refined order (the cross-encoder)")
    parser.add_argument("--tune", action="store_true", help="choose the fusion's constants on the tuning questions")
    parser.add_argument("--tune-refine", action="store_true", help="choose the refined order's constants likewise")
    options = parser.parse_args()
    conn = read_only(options.db)
    print(f"semantic stage: {semantic.state(conn).described()}")
    questions = load(conn)
    if options.tune or options.tune_refine:
        (tune if options.tune else tune_refine)(conn, questions)
        return
    run(conn, questions, options.refine)
    groups: dict[str, list[dict]] = {}
    for question in questions:
        split = "validation" if question.get("heldout") else "tuning"
        groups.setdefault(f"{question['set']} {split}", []).append(question)
    validation = [q for q in questions if q.get("heldout")]
    groups["validation union"] = validation
    groups["real validation"] = [q for q in validation if q["set"] == "real"]
    systems = ["ctrlf", "lexical", "fused"] + (["refined"] if options.refine else [])
    table("No game filter", groups, systems, "")
    table("The judge having chosen the question's game (game=...)", groups, systems, "_game")
    print("\nSign tests on the validation union (no filter):")
    for before, after in [("lexical", "fused")] + (
        [("fused", "refined"), ("lexical", "refined")] if options.refine else []
    ):
        print(f"  {after} vs {before}: " + "; ".join(sign_test(validation, before, after, k) for k in (1, 5)))


if __name__ == "__main__":
    main()
