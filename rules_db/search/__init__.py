"""Search that answers a judge's question: query understanding, candidate retrieval, re-ranking.

A judge types the dispute ("can a unit have two buffs", "zhonyas hourglas", "what
happens if I draw with a full hand"), not the rule's words. ``search`` answers in three
steps, over the index that ``rules_db.search_index`` builds into the database:

1. **Understanding** (``understand``): the question's words, bounded in length and
   number; rule numbers and card names (and nicknames) recognised anywhere in it; filler
   words left out; every other word a *concept* searched through all its forms (its
   lemma's other forms, "died" for "die") and the domain synonyms a judge uses ("tap" ~
   exhaust), from ``data/search_vocabulary.yaml``; a word no document uses corrected
   against the corpus vocabulary (rapidfuzz), which the page offers as "did you mean".
2. **Retrieval**: one FTS5 query, every concept OR-ed (no word is required), ranked by
   BM25 with per-field weights; the best ``CANDIDATES`` rows go on, and the best rows of a
   game the question names ("in LoR"), sought apart. When more than ``SCORED_MATCHES`` rows
   match, BM25 ranks a bounded set instead (see ``_ranked``), so the cost follows the
   question, not the size of the corpus.
3. **Re-ranking** (``_ranked``): features that matter for rules, computed on those rows:
   how much of the question's weight (IDF of each concept) a row covers, and in which
   field (heading, defined terms, heading path, text), how much the rules found under its
   heading cover between them, how close the matched words stand, a card or a game named
   in the question, the first of several rules found under one heading, the kind of text a
   question's form asks for. Each was measured turned off on the held-out and fresh
   questions: what helped the tuning questions alone was removed. Beyond the
   re-ranked rows the BM25 order continues, so paging reaches the last match and the total
   is the true one (the index's order, when more than ``SCORED_MATCHES`` rows match:
   ranking them all would cost what the corpus costs).

Every query is bounded: at most ``MAX_QUERY_CHARS`` characters, ``MAX_WORDS`` words and
``MAX_CONCEPTS`` concepts are searched, words are quoted so FTS5 syntax in a question is
just text, and a time budget interrupts a query that runs too long.

The package follows those steps: ``understand`` (1), ``retrieve`` (2), ``rank`` (3), ``snippets`` (the stretch of
each result shown), ``answer`` (the search itself, a page at a time, within its time budget); ``vocabulary`` reads
``data/search_vocabulary.yaml``; ``index_format`` is what the index build writes and the search reads (the one
module of the package ``rules_db.search_index`` imports: building the database loads no query-time code, so the
names below are loaded from their modules when first asked for).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rules_db.search.answer import SearchTooSlow, jump_target, search, search_options
    from rules_db.search.snippets import MARK_END, MARK_START

# The package's public names -> the module that defines them.
_PUBLIC = {
    "search": "answer",
    "jump_target": "answer",
    "search_options": "answer",
    "SearchTooSlow": "answer",
    "MARK_START": "snippets",
    "MARK_END": "snippets",
}
__all__ = ["MARK_END", "MARK_START", "SearchTooSlow", "jump_target", "search", "search_options"]


def __getattr__(name: str) -> Any:
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
