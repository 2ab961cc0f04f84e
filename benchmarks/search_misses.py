"""Where the ranking loses: every question whose answer is not first, with what came first, sorted into failure
families (the first result's relation to the rule that was wanted).

    .venv/bin/python benchmarks/search_misses.py [--db data/rules.db] [--split tuning|validation|all] [--list]
        [--system lexical|fused|refined]

Families, for a question answered by a rule (the first result against the nearest accepted rule):

- ``heading over sub-rule``: the first result heads the wanted rule (a section's rule, a keyword's rule above its
  sub-rules);
- ``sub-rule over heading``: the first result is under the wanted rule;
- ``sibling sub-rule``: both share their parent rule;
- ``other version's copy``: the first result has the wanted number in another document (another version or rulebook);
- ``glossary``: the first result is a glossary entry;
- ``ruling over rule`` / ``card over rule``: a ruling or a card came first;
- ``other rule``: a rule elsewhere in the same document; ``other document``: a rule of another rulebook.

Questions answered by a ruling or a card are counted by the kind of what came first. ``--split tuning`` (the default)
reads the development questions only (judge_questions.yaml's tuning third and judge_questions_real.yaml's tuning
questions); the validation sets are only counted by family (``--split validation``), never listed for tuning.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_search import rank_of  # noqa: E402
from bench_semantic import DEPTH, keys, load  # noqa: E402

from rules_db.guard import read_only  # noqa: E402
from rules_db.search import answer  # noqa: E402

FAMILIES = (
    "heading over sub-rule",
    "sub-rule over heading",
    "sibling sub-rule",
    "other version's copy",
    "glossary",
    "ruling over rule",
    "card over rule",
    "other rule",
    "other document",
    "rule over ruling/card",
    "ruling/card over ruling/card",
)


def _rule_rows(conn, rule_ids) -> dict[int, dict]:
    if not rule_ids:
        return {}
    rows = conn.execute(
        f"""select ref_id, document_id, number, path, title, version, rulebook from search_documents
        where kind = 'rule' and ref_id in ({",".join("?" * len(rule_ids))})""",
        list(rule_ids),
    ).fetchall()
    return {
        row[0]: dict(zip(("id", "document", "number", "path", "title", "version", "rulebook"), row)) for row in rows
    }


def _parent(number: str) -> str:
    return number.rsplit(".", 1)[0] if "." in number else ""


def family(conn, first: tuple[str, int], accepted: set) -> str:
    wanted_rules = [ref for kind, ref in accepted if kind == "rule"]
    if not wanted_rules:
        return "rule over ruling/card" if first[0] == "rule" else "ruling/card over ruling/card"
    if first[0] == "ruling":
        return "ruling over rule"
    if first[0] == "card":
        return "card over rule"
    rows = _rule_rows(conn, [first[1], *wanted_rules])
    top = rows[first[1]]
    wanted = [rows[ref] for ref in wanted_rules if ref in rows]
    if "glossary" in (top["path"] or "").lower() or "glossary" in (top["title"] or "").lower():
        return "glossary"
    same_document = [row for row in wanted if row["document"] == top["document"]]
    for row in same_document:
        if row["number"].startswith(top["number"] + "."):
            return "heading over sub-rule"
    for row in same_document:
        if top["number"].startswith(row["number"] + "."):
            return "sub-rule over heading"
    for row in same_document:
        if _parent(row["number"]) and _parent(row["number"]) == _parent(top["number"]):
            return "sibling sub-rule"
    if any(row["number"] == top["number"] for row in wanted):
        return "other version's copy"
    return "other rule" if same_document else "other document"


def describe(conn, hit: dict) -> str:
    if hit["kind"] == "rule":
        return f"rule {hit['rulebook'] or 'core'}/{hit['version']}/{hit['number']} {hit['title'][:50]!r}"
    return f"{hit['kind']} {hit['title'][:60]!r}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, default=Path(__file__).resolve().parent.parent / "data" / "rules.db")
    parser.add_argument("--split", choices=("tuning", "validation", "all"), default="tuning")
    parser.add_argument("--system", choices=("lexical", "fused", "refined"), default="fused")
    parser.add_argument("--list", action="store_true", help="list each miss (tuning questions only)")
    options = parser.parse_args()
    conn = read_only(options.db)
    questions = load(conn)
    if options.split != "all":
        questions = [q for q in questions if bool(q.get("heldout")) == (options.split == "validation")]
    counts: dict[str, Counter] = defaultdict(Counter)
    for question in questions:
        data = answer.search(
            conn,
            question["q"],
            per_page=DEPTH,
            semantic=options.system != "lexical",
            refine=options.system == "refined",
            hidden=question["excluded"],
        )
        hits = [hit for hit in data["results"] if (hit["kind"], hit["id"]) not in question["excluded"]]
        rank = rank_of([(hit["kind"], hit["id"]) for hit in hits], question["accepted"])
        group = question["set"] + (" validation" if question.get("heldout") else " tuning")
        counts[group]["questions"] += 1
        if rank == 1:
            counts[group]["first"] += 1
            continue
        name = family(conn, (hits[0]["kind"], hits[0]["id"]), question["accepted"]) if hits else "nothing found"
        counts[group][name] += 1
        counts[group][f"answer within 5: {name}"] += bool(rank and rank <= 5)
        if options.list and not question.get("heldout"):
            wanted = _rule_rows(conn, [ref for kind, ref in question["accepted"] if kind == "rule"])
            numbers = sorted({row["number"] for row in wanted.values()})
            print(f"[{group}] {question['q']}\n  wanted {numbers or question['answers']} at {rank}; family: {name}")
            for hit in hits[:3]:
                print(
                    f"    {describe(conn, hit)} features={ {k: hit['features'][k] for k in list(hit['features'])[:6]} }"
                )
    for group, counter in counts.items():
        total = counter.pop("questions")
        print(f"\n{group}: {total} questions, {counter.pop('first')} first")
        for name in FAMILIES + ("nothing found",):
            if counter.get(name):
                print(
                    f"  {name:<30}{counter[name]:>4}  (answer within 5: {counter.get('answer within 5: ' + name, 0)})"
                )
    _ = keys


if __name__ == "__main__":
    main()
