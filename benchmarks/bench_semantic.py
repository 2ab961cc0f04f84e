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
import json
import math
import sqlite3
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_search import QUESTIONS, CtrlF, _resolve, load_questions, rank_of  # noqa: E402
from real_questions import phone  # noqa: E402

from rules_db.guard import read_only  # noqa: E402
from rules_db.search import answer, cited, refine, semantic  # noqa: E402

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
    """Every set's questions. A ruling whose question is the question asked (typed the same way on a phone: an official
    FAQ's question is also a ruling of the database) is excluded from its results, as the sets' own ``exclude`` does:
    each question is asked as one the documents do not hold, and that ruling's citations are its answers."""
    own_rulings: dict[str, set] = {}
    for ruling_id, text in conn.execute("select id, question from rulings where question is not null"):
        own_rulings.setdefault(phone(text), set()).add(("ruling", ruling_id))
    questions = []
    for name, path in SETS.items():
        if not path.exists():
            continue
        found, _skipped = load_questions(conn, path)
        for question in found:
            question["set"] = name
            question["excluded"] = set(own_rulings.get(phone(question["q"]), ()))
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
            lexical = answer.search(
                conn, question["q"], game=game, per_page=DEPTH, semantic=False, hidden=question["excluded"]
            )
            question["lexical" + suffix] = rank_of(keys(lexical, question["excluded"]), question["accepted"])
            fused = answer.search(conn, question["q"], game=game, per_page=DEPTH, hidden=question["excluded"])
            question["fused" + suffix] = rank_of(keys(fused, question["excluded"]), question["accepted"])
            if refine:
                start = time.perf_counter()
                refined = answer.search(
                    conn, question["q"], game=game, per_page=DEPTH, refine=True, hidden=question["excluded"]
                )
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
        data = answer.search(conn, question["q"], per_page=80, semantic=False, hidden=question["excluded"])
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
        data = answer.search(conn, question["q"], per_page=DEPTH, hidden=question["excluded"])
        hits = [hit for hit in data["results"] if (hit["kind"], hit["id"]) not in question["excluded"]][:20]
        logits = refine.scores(data["query"]["searched"], refine.candidate_texts(conn, hits))
        prepared.append((question, [(hit["kind"], hit["id"]) for hit in hits], logits))
    fused = figures([rank_of(keys_, question["accepted"]) for question, keys_, _logits in prepared])
    print(f"\nRefine grid on {len(tuning)} tuning questions (@1 / @5 / MRR); fused: {fused}")
    best = None
    for candidates in (3, 5, 8, 12, 20):
        row = []
        for weight in (0.0, 4.0, 8.0, 16.0, 24.0, 32.0, 64.0):
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


def tune_cited(conn: sqlite3.Connection, questions: list[dict]) -> None:
    """Choose the lent scores' constants (``rules_db.search.cited``) with RULE_PRIOR, on the tuning questions only: each
    question is searched once, its fusion's inputs kept (``answer._fused``'s arguments), and the search's own
    ``_fused`` (fused order, scores lent, rows added) is called on them again for every point of the grid."""
    tuning = [q for q in questions if not q.get("heldout")]
    prepared = [(question, _fusion_inputs(conn, question)) for question in tuning]

    def ranks(prior: float, weight: float, read: int, exponent: float) -> list[int | None]:
        semantic.RULE_PRIOR, cited.CITED_WEIGHT, cited.RULINGS_READ, cited.SHARE_EXPONENT = (
            prior,
            weight,
            read,
            exponent,
        )
        out = []
        for question, inputs in prepared:
            ranked, _added = answer._fused(conn, *inputs) if inputs else ([], 0)
            keys_ = [(item.document["kind"], item.document["ref_id"]) for item in ranked]
            found = [key for key in keys_ if key not in question["excluded"]]
            out.append(rank_of(found[:DEPTH], question["accepted"]))
        return out

    def summary(found: list[int | None]) -> dict[str, float]:
        out = figures(found)
        out["objective"] = 0.0
        for name in ("judge", "real"):
            values = figures([rank for rank, q in zip(found, [p[0] for p in prepared]) if q["set"] == name])
            out[name] = values["@1"]  # to see which set moves
            out["objective"] += WEIGHTS[name] * (values["@1"] + values["@5"] + values["MRR"])
        return out

    # Each set weighs what its kind of question weighs among the validation questions (judge-style: the judge, fresh
    # and blind sets; real), so the choice is not led by the set with the most room to move.
    validation = [q for q in questions if q.get("heldout")]
    share = sum(1 for q in validation if q["set"] == "real") / len(validation)
    WEIGHTS = {"judge": 1 - share, "real": share}
    print(f"\nLent scores grid on {len(tuning)} tuning questions (@1 / @5 / MRR, and @1 of the judge and real sets)")
    print(f"objective: @1 + @5 + MRR of each set, weighted {WEIGHTS}")
    saved = (cited.HOW, semantic.RULE_PRIOR, cited.CITED_WEIGHT, cited.RULINGS_READ, cited.SHARE_EXPONENT)
    best = None
    for how in (("explicit",), ("explicit", "keyword")):
        cited.HOW = how
        for prior in (0.0, 0.1, 0.2, 0.4):
            for exponent in (0.0, 0.5):
                for read in (1, 2, 3, 5, 8):
                    row = []
                    for weight in (0.0, 0.5, 0.75, 1.0, 1.5, 2.0):
                        found = summary(ranks(prior, weight, read, exponent))
                        if best is None or found["objective"] > best[0] + 1e-9:
                            best = (found["objective"], prior, weight, read, exponent, how, found)
                        row.append(
                            f"w={weight:g} {found['@1']:.2f}/{found['@5']:.2f}/{found['MRR']:.2f}"
                            f" (j{found['judge']:.2f} r{found['real']:.2f} o{found['objective']:.3f})"
                        )
                    print(f"  {'+'.join(how):<16} prior={prior:<4g} exp={exponent:<4g} read={read:<2} " + " ".join(row))
    cited.HOW, semantic.RULE_PRIOR, cited.CITED_WEIGHT, cited.RULINGS_READ, cited.SHARE_EXPONENT = saved
    assert best is not None
    print(
        f"best: RULE_PRIOR = {best[1]:g}, CITED_WEIGHT = {best[2]:g}, RULINGS_READ = {best[3]}, "
        f"SHARE_EXPONENT = {best[4]:g}, HOW = {best[5]} ({best[6]})"
    )


def _fusion_inputs(conn: sqlite3.Connection, question: dict) -> tuple | None:
    """The arguments ``answer._fused`` is called with when ``question`` is searched (its ruling excluded as
    ``hidden``), after the connection; None when the search fuses nothing (no dense rows)."""
    kept: list[tuple] = []
    real = answer._fused

    def keep(conn: sqlite3.Connection, *inputs):
        kept.append(inputs)
        return real(conn, *inputs)

    answer._fused = keep
    try:
        answer.search(conn, question["q"], per_page=DEPTH, hidden=question["excluded"])
    finally:
        answer._fused = real
    return kept[0] if kept else None


def _no_filters() -> dict:
    return {"game": None, "version": None, "kind": None, "rulebook": None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, default=Path(__file__).resolve().parent.parent / "data" / "rules.db")
    parser.add_argument("--refine", action="store_true", help="also the refined order (the cross-encoder)")
    parser.add_argument("--tune", action="store_true", help="choose the fusion's constants on the tuning questions")
    parser.add_argument("--tune-refine", action="store_true", help="choose the refined order's constants likewise")
    parser.add_argument("--tune-cited", action="store_true", help="choose the lent scores' constants likewise")
    parser.add_argument("--cited-weight", type=float, help="CITED_WEIGHT for this run (0: no lent scores)")
    parser.add_argument("--rule-prior", type=float, help="RULE_PRIOR for this run")
    parser.add_argument("--save", type=Path, help="write each question's ranks here (JSON), for --compare")
    parser.add_argument(
        "--compare", type=Path, nargs=2, metavar=("BEFORE", "AFTER"), help="sign tests between two --save files"
    )
    options = parser.parse_args()
    if options.compare:
        compare(*options.compare)
        return
    conn = read_only(options.db)
    if options.cited_weight is not None:
        cited.CITED_WEIGHT = options.cited_weight
    if options.rule_prior is not None:
        semantic.RULE_PRIOR = options.rule_prior
    print(f"semantic stage: {semantic.state(conn).described()}")
    print(f"RULE_PRIOR {semantic.RULE_PRIOR:g}, CITED_WEIGHT {cited.CITED_WEIGHT:g}, RULINGS_READ {cited.RULINGS_READ}")
    questions = load(conn)
    if options.tune_cited:
        tune_cited(conn, questions)
        return
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
    if options.save:
        fields = ("set", "q", "heldout", *[system + suffix for system in systems for suffix in ("", "_game")])
        options.save.write_text(json.dumps([{key: q.get(key) for key in fields} for q in questions], indent=0))


def compare(before_path: Path, after_path: Path) -> None:
    """Sign tests, on each set of validation questions and their union, of the AFTER run's stages against the
    BEFORE run's same stage (both --save files of the same questions)."""
    before = {(q["set"], q["q"]): q for q in json.loads(before_path.read_text())}
    after = [q for q in json.loads(after_path.read_text()) if q.get("heldout")]
    systems = [key for key in ("lexical", "fused", "refined") if key in after[0] and key in next(iter(before.values()))]
    groups = {name: [q for q in after if q["set"] == name] for name in dict.fromkeys(q["set"] for q in after)}
    groups["validation union"] = after
    for suffix, title in (("", "no filter"), ("_game", "game filter")):
        print(f"\nAfter against before, validation questions ({title}):")
        for name, members in groups.items():
            for system in systems:
                paired = [
                    {"before": before[(q["set"], q["q"])][system + suffix], "after": q[system + suffix]}
                    for q in members
                ]
                tests = "; ".join(sign_test(paired, "before", "after", k) for k in (1, 5))
                print(f"  {name:<18} {system:<8} {tests}")


if __name__ == "__main__":
    main()
