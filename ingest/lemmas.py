"""Finding keywords and card names in text by lemma, so "recalled" mentions Recall.

spaCy without a model: a blank English pipeline whose lemmas come from the
lookup tables of spacy-lookups-data. Those tables are keyed by exact token
text ("Kills" would stay "Kills"), so lemmas are looked up on the lower-cased
form instead.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import spacy_lookups_data

if TYPE_CHECKING:  # spaCy itself is imported by the first pipeline: a command that tags no text never loads it
    from spacy.language import Language
    from spacy.tokens import Doc

from ingest.limits import bounded_for_tokenizer


@dataclass(frozen=True)
class LemmaMatch:
    key: str
    start: int  # character offsets into the text
    end: int
    text: str


@lru_cache(maxsize=1)
def lemma_lookup() -> dict[str, str]:
    """spacy-lookups-data's English lemma table as {form: lemma} ("died": "die"), read from the package's
    file: spaCy's own Table keeps only hashes of its keys, and the search index needs the forms."""
    path = Path(str(spacy_lookups_data.en["lemma_lookup"]))
    if path.exists():
        return json.loads(path.read_text(encoding="utf-8"))
    with gzip.open(path.with_name(path.name + ".gz"), "rt", encoding="utf-8") as table:  # how 1.0.x ships it
        return json.load(table)


def lemma(word: str) -> str:
    """The lookup lemma of one word, case-insensitively ("Recalls" -> "recall")."""
    lower = word.lower()
    return lemma_lookup().get(lower, lower)


@lru_cache(maxsize=1)
def pipeline() -> Language:
    import spacy
    from spacy.language import Language

    if not Language.has_factory("lowercase_lookup_lemmatizer"):
        Language.factory("lowercase_lookup_lemmatizer", func=_make_lowercase_lemmatizer)
    nlp = spacy.blank("en")
    nlp.add_pipe("lowercase_lookup_lemmatizer")
    return nlp


def _make_lowercase_lemmatizer(nlp: Language, name: str):
    import numpy

    table = lemma_lookup()
    strings = nlp.vocab.strings
    by_norm: dict[int, int] = {}  # a norm's hash -> its lemma's hash: each distinct word is looked up once

    def lemma_of(norm: int) -> int:
        text = strings[norm]
        by_norm[norm] = strings.add(table.get(text, text))
        return by_norm[norm]

    def lemmatize(doc: Doc) -> Doc:
        lemmas = [by_norm.get(norm) or lemma_of(norm) for norm in doc.to_array("NORM").tolist()]
        column: Any = numpy.array(lemmas, dtype="uint64").reshape(-1, 1)  # spaCy's stubs want its own array type
        doc.from_array(["LEMMA"], column)
        return doc

    return lemmatize


def find_phrases(phrases: Mapping[str, Iterable[str]], texts: Iterable[str]) -> list[list[LemmaMatch]]:
    """Each text's matches of the phrases by lemma (``LemmaMatcher``), none at all without phrases: one call
    with plain data in and out, which a second process can run."""
    return LemmaMatcher(phrases).find_many(texts) if phrases else []


class LemmaMatcher:
    """Matches phrases (grouped under a key, e.g. a keyword and its aliases) in texts.

    ``attr`` is "LEMMA" (inflections match: Recall/recalled/recalls), "LOWER"
    (exact words, any case) or "ORTH" (exact words and case: Charm, not charm).
    """

    def __init__(self, phrases: Mapping[str, Iterable[str]], attr: str = "LEMMA"):
        from spacy.matcher import PhraseMatcher

        self.nlp = pipeline()
        self.matcher = PhraseMatcher(self.nlp.vocab, attr=attr)
        for key, surfaces in phrases.items():
            patterns = list(self.nlp.pipe(surface for surface in surfaces if surface.strip()))
            if patterns:
                self.matcher.add(key, patterns)

    def find_many(self, texts: Iterable[str]) -> list[list[LemmaMatch]]:
        bounded = (bounded_for_tokenizer(text) for text in texts)
        return [self._matches(doc) for doc in self.nlp.pipe(bounded, batch_size=256)]

    def _matches(self, doc: Doc) -> list[LemmaMatch]:
        from spacy.util import filter_spans

        spans = self.matcher(doc, as_spans=True)
        longest = filter_spans(spans)
        return [
            LemmaMatch(self.nlp.vocab.strings[span.label], span.start_char, span.end_char, span.text)
            for span in sorted(longest, key=lambda span: span.start_char)
        ]
