"""The shorthand a rulebook defines for its symbols, read off its rules.

A rulebook that prints symbols in running text gives each a shorthand in brackets and defines it in a rule:
``Power of any Domain is represented by a swirling rainbow symbol. Its shorthand is [A].``, ``Fury is associated
with the color red … Its shorthand is [R].``, ``A keyword associated with an ability is indicated by the [>]
symbol.`` (a former shorthand too: ``Some previous rules information has given its shorthand as [T].``). Each
such rule yields its shorthands with their meaning, the subject of the rule's first sentence ("Power of any
Domain", "Fury"), so a page can say what ``[A]`` stands for wherever the rules print it.
"""

from __future__ import annotations

import re

from ingest.model import ParsedRule, ParsedSymbol
from ingest.text import plain_text

_SHORTHAND = r"\[[^\[\]\s]{1,12}\]"
_NAMED = re.compile(rf"\bshorthand (?:is|as) ({_SHORTHAND})")
_INDICATED = re.compile(rf"\b(?:indicated|represented) by the ({_SHORTHAND}) symbol")
# The subject of a definition: what the symbol stands for ("Might is represented by the “Might symbol,” …").
_SUBJECT = re.compile(r"^(?P<subject>[^.]{1,120}?) is (?:not )?(?:represented|indicated|associated) (?:by|with)\b")


def find(rules: list[ParsedRule]) -> list[ParsedSymbol]:
    """Every shorthand the rules define, in document order, each once (its first definition)."""
    found: dict[str, ParsedSymbol] = {}
    for rule in rules:
        if "shorthand" not in rule.raw_text and "symbol" not in rule.raw_text:  # most rules: no text to clean
            continue
        text = " ".join(plain_text(rule.raw_text).split())
        shorthands = _NAMED.findall(text) + _INDICATED.findall(text)
        subject = _SUBJECT.match(text)
        if not shorthands or subject is None:
            continue
        meaning = subject.group("subject").strip()
        for shorthand in shorthands:
            found.setdefault(shorthand, ParsedSymbol(shorthand, meaning[:1].upper() + meaning[1:], rule.number))
    return list(found.values())
