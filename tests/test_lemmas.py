"""The phrase matcher finds what spaCy's own PhraseMatcher finds, though it runs no text through spaCy."""

from __future__ import annotations

import pytest

from ingest.lemmas import LemmaMatcher, pipeline, token_memo

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


@pytest.mark.parametrize("attr", ["LEMMA", "ORTH"])
def test_the_matcher_finds_what_spacy_finds(attr):
    token_memo.cache_clear()
    found = LemmaMatcher(PHRASES, attr).find_many(TEXTS)
    assert [[(m.key, m.start, m.end, m.text) for m in matches] for matches in found] == spacy_matches(
        PHRASES, TEXTS, attr
    )
    assert any(found)


def test_texts_seen_before_match_the_same():
    """The second time, every piece of text is known: the matches do not change."""
    matcher = LemmaMatcher(PHRASES)
    assert matcher.find_many(TEXTS) == matcher.find_many(TEXTS) == LemmaMatcher(PHRASES).find_many(TEXTS[::-1])[::-1]
