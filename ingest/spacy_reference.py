"""spaCy's own pipeline with the product's lemmas: the reference the phrase matcher (``ingest.lemmas``) is checked
against (``tests/test_lemmas.py``) and the floor a build's tagging is measured against (``benchmarks/bench_build.py``).
The product never runs it: a build tokenizes each distinct piece of text once and matches on the tokens. It lives
beside the matcher, in the lowest layer, so that tests and benchmarks both import it without one reaching into
the other."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ingest.lemmas import import_spacy, lemma_of_norm

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc


@lru_cache(maxsize=1)
def pipeline() -> Language:
    """spaCy's blank English pipeline with lemmas from the lookup table, looked up on the lower-cased form."""
    spacy = import_spacy()  # as a build imports it
    from spacy.language import Language

    if not Language.has_factory("lowercase_lookup_lemmatizer"):
        Language.factory("lowercase_lookup_lemmatizer", func=_make_lowercase_lemmatizer)
    nlp = spacy.blank("en")
    nlp.add_pipe("lowercase_lookup_lemmatizer")
    return nlp


def _make_lowercase_lemmatizer(nlp: Language, name: str):
    import numpy

    strings = nlp.vocab.strings
    by_norm: dict[int, int] = {}  # a norm's hash -> its lemma's hash: each distinct word is looked up once

    def lemma_of(norm: int) -> int:
        by_norm[norm] = strings.add(lemma_of_norm(strings[norm]))
        return by_norm[norm]

    def lemmatize(doc: Doc) -> Doc:
        lemmas = [by_norm.get(norm) or lemma_of(norm) for norm in doc.to_array("NORM").tolist()]
        column: Any = numpy.array(lemmas, dtype="uint64").reshape(-1, 1)  # spaCy's stubs want its own array type
        doc.from_array(["LEMMA"], column)
        return doc

    return lemmatize
