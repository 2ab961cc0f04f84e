"""The scale benchmark's synthetic corpora (``benchmarks/synthetic_corpus.py``) grow in rules, not in what the
game defines: the same keywords at every scale, and no term defined by a drawn title. Otherwise the keyword
mentions grow as rules times terms, and the benchmark reports the data's growth as the build's (the
keyword mentions went 22,538 → 146,541 from 10x to 30x, 3x the rules, before the glossary held the keywords only)."""

import importlib
from pathlib import Path

import pytest

from ingest.formats import adapter, spec_for
from ingest.source import read_lines

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


# 8x: each chapter has more sections (28) than the game has keywords (26)
@pytest.mark.parametrize("scale", [1, 8])
def test_a_synthetic_rulebook_defines_the_games_keywords_and_nothing_else_at_every_scale(tmp_path, monkeypatch, scale):
    monkeypatch.syspath_prepend(BENCHMARKS)  # the generator is test data of the benchmarks, not a package
    corpus = importlib.import_module("synthetic_corpus")
    paths = corpus.generate(tmp_path, scale)
    for version in ("old", "new"):
        spec = spec_for(paths[version])
        parsed = adapter(spec.format).parse(read_lines(spec.path), spec.path)
        assert len(parsed.rules) > 800 * scale  # the rulebook grew
        assert [keyword.term for keyword in parsed.keywords] == corpus.KEYWORDS
