"""The phrase matcher finds what spaCy's own PhraseMatcher finds, though it runs no text through spaCy."""

from __future__ import annotations

import pytest

from ingest.lemmas import LemmaMatcher, token_memo, tokenizer
from ingest.spacy_reference import pipeline

PHRASES = {
    "recall": ["Recall"],
    "deal damage": ["Deal Damage", "deals"],
    "stun": ["Stun"],
    "stunned": ["Stunned"],  # the same lemma as Stun: the keys tie
    "vi": ["Vi's"],
    "spaced": ["Combat  Damage"],  # two spaces: a white space token in the phrase
}

TEXTS = [
    "",
    "A unit is recalled, then Recall it.",
    "  Leading spaces: recall",
    "\nA newline first.\n\nRecalls\n",
    "It deals damage; Deal Damage (deals)",
    "Stunned units are stunned. Stun!",
    "Vi's ability, vi's and VI'S",
    "Combat  Damage, Combat Damage, combat\u00a0damage",
    "don't recall: can't, won't\trecalled\u2019s",
    "U.S. e.g. :) 3-for-1 dealing—damage",
    "recall",
    "recall at the end of a line\n",
    "\tRecall, after a tab",  # white space opening a text is a token of its own, even after a line's end
]


def spacy_matches(phrases: dict[str, list[str]], texts: list[str], attr: str) -> list[list[tuple]]:
    """What spaCy's PhraseMatcher and filter_spans find, text by text: (key, start, end, text)."""
    from spacy.matcher import PhraseMatcher
    from spacy.util import filter_spans

    nlp = pipeline()
    matcher = PhraseMatcher(nlp.vocab, attr=attr)
    for key, surfaces in phrases.items():
        matcher.add(key, list(nlp.pipe(surfaces)))
    return [
        [
            (nlp.vocab.strings[span.label], span.start_char, span.end_char, span.text)
            for span in filter_spans(matcher(doc, as_spans=True))
        ]
        for doc in nlp.pipe(texts)
    ]


TIED = {"stun", "stunned"}  # keys whose phrases have the same lemmas: spaCy picks one by its hash table's order


def _ties_as_one(key: str) -> str:
    return "stun or stunned" if key in TIED else key


@pytest.mark.parametrize("attr", ["LEMMA", "ORTH"])
def test_the_matcher_finds_what_spacy_finds(attr):
    """The same matches as spaCy's, with the same keys except where keys tie (``test_a_tie_goes_to_...``)."""
    token_memo.cache_clear()
    found = LemmaMatcher(PHRASES, attr).find_many(TEXTS)
    assert [[(_ties_as_one(m.key), m.start, m.end, m.text) for m in matches] for matches in found] == [
        [(_ties_as_one(key), *rest) for key, *rest in matches] for matches in spacy_matches(PHRASES, TEXTS, attr)
    ]
    assert any(found)


def test_a_tie_goes_to_the_key_whose_phrase_is_written_as_mentioned():
    """Stun and Stunned have the same lemma: "stunned" mentions Stunned and "Stun" Stun; a form neither phrase is
    ("stuns") goes to the phrase first in alphabetical order; a term defined twice to the one written in the same
    case, else to the definition given first."""
    matcher = LemmaMatcher({"stunned": ["Stunned"], "stun": ["Stun"], "again": ["stun"], "shouted": ["STUN"]})
    [found] = matcher.find_many(["Stunned units are STUNNED. Stun! It stuns; stun, sTun, STUN."])
    assert [(m.text, m.key) for m in found] == [
        ("Stunned", "stunned"),
        ("STUNNED", "stunned"),
        ("Stun", "stun"),
        ("stuns", "stun"),
        ("stun", "again"),
        ("sTun", "stun"),
        ("STUN", "shouted"),
    ]


def test_texts_seen_before_match_the_same():
    """The second time, every piece of text is known: the matches do not change."""
    matcher = LemmaMatcher(PHRASES)
    assert matcher.find_many(TEXTS) == matcher.find_many(TEXTS) == LemmaMatcher(PHRASES).find_many(TEXTS[::-1])[::-1]


def test_the_tokenizer_cuts_and_normalises_as_the_pipeline_does():
    """The matcher's tokenizer computes only what it reads of a word: the same tokens, offsets and norms as the
    pipeline's, special cases ("don't", "U.S.") and punctuation included."""
    for text in TEXTS:
        assert [(t.orth_, t.idx, t.norm_, t.whitespace_) for t in tokenizer()(text)] == [
            (t.orth_, t.idx, t.norm_, t.whitespace_) for t in pipeline()(text)
        ]


@pytest.mark.slow  # a fresh process importing spaCy: seconds of CPU
def test_the_tokenizer_loads_without_spacys_command_line():
    """A build's tokenizer imports spaCy without its command line (typer, HTTP clients): a fresh process that loads
    it holds none of ``spacy.cli``; ``spacy.info`` still answers, importing the command line when called."""
    import subprocess
    import sys

    code = (
        "import sys; from ingest.lemmas import tokenizer; tokenizer(); "
        "print(sorted(m for m in sys.modules if m.startswith('spacy.cli'))); "
        "import spacy; print(spacy.info()['spacy_version'] == spacy.__version__)"
    )
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert output == "[]\nTrue\n"
