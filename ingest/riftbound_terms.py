"""Keywords and defined terms of a Riftbound rulebook, read off its outline
(shared by both layouts, whose numbering differs but whose structure agrees).

- Keywords: each titled top-level rule after the "Keyword Glossary" heading,
  up to the next chapter (a multiple of 100).
- Defined terms: a one-word heading whose next rule opens with the same word,
  compared by lemma (``432. Recalls`` / ``432.1. A Recall is …``; ``400. Draw``
  / ``400.1. Drawing a card …``). Where a term is defined twice (``Combat`` as
  a phase step and as a section), the shallower rule defines it, and a glossary
  keyword wins over a defined term.
"""

from __future__ import annotations

import re

from ingest.lemmas import lemma
from ingest.model import ParsedKeyword, ParsedRule
from ingest.text import plain_text

_GLOSSARY_TITLE = re.compile(r"\bkeyword glossary\b", re.IGNORECASE)
_ARTICLE = re.compile(r"^(?:an?|the)\s+", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")


def keywords(rules: list[ParsedRule]) -> list[ParsedKeyword]:
    glossary = glossary_keywords(rules)
    taken = {_base(keyword.term) for keyword in glossary}
    defined: dict[str, tuple[int, ParsedKeyword]] = {}  # base term: (depth of the defining rule, keyword)
    for rule, following in zip(rules, rules[1:]):
        term = rule.heading
        if not term or " " in term or not _opens_with(following.raw_text, term):
            continue
        key = _base(term)
        if key in taken:
            continue
        known = defined.get(key)
        if known is None or rule.depth < known[0]:
            defined[key] = (rule.depth, ParsedKeyword(term, "defined term", rule.number))
    return glossary + [keyword for _, keyword in defined.values()]


def glossary_keywords(rules: list[ParsedRule]) -> list[ParsedKeyword]:
    found: list[ParsedKeyword] = []
    in_glossary = False
    for rule in rules:
        if rule.parent is not None:
            continue
        if in_glossary and int(rule.number) % 100 == 0:
            break
        if in_glossary and rule.heading:
            found.append(ParsedKeyword(rule.heading, "keyword", rule.number))
        if rule.heading and _GLOSSARY_TITLE.search(rule.heading):
            in_glossary = True
    return found


def _opens_with(text: str, term: str) -> bool:
    words = _WORD.findall(_ARTICLE.sub("", plain_text(text)))
    return bool(words) and _base(words[0]) == _base(term)


def _base(word: str) -> str:
    """Lemma, with a plain plural "s" dropped for words the lookup table lacks ("Cleanups")."""
    return lemma(word).removesuffix("s")
