"""Infractions and their penalties, read off a rulebook's outline.

A penalty guide names most infractions in a rule that opens with the name and the
penalty in brackets: ``702.2. Missed Trigger [No Penalty]: The accountable player …``
or ``704.2. Unsporting Minor [Warning]:``. An infraction whose penalty depends on the
circumstances is labelled like its siblings without the brackets (``703.8. Late to
Match: A player arrives …``) and names its penalties in its sub-rules ("the penalty is a
[Warning]", "[Match Loss]"); its penalty is those, in the order given. An infraction's
category is the heading of the section that holds it (``702. Game Play Errors``).
"""

from __future__ import annotations

import re
from collections import defaultdict

from ingest.model import ParsedInfraction, ParsedRule
from ingest.text import plain_text

# A name is a title: capitalised words with small linking words ("Forgetting to Score a Point").
_LINK = r"(?:to|a|an|at|the|of|for|during|and|or|with|in|on|from|by)"
_NAME = rf"[A-Z][\w'\u2019-]*(?:\s+(?:[A-Z][\w'\u2019-]*|{_LINK}))*"
_BRACKETED = re.compile(rf"^(?P<name>{_NAME})\s*\[(?P<penalty>[A-Z][A-Za-z ,/-]{{1,40}})\]\s*(?::|$)")
_LABELLED = re.compile(rf"^(?P<name>{_NAME}):\s")
_PENALTY_MENTION = re.compile(r"\[([A-Z][A-Za-z ]{1,40})\]")


def find(rules: list[ParsedRule]) -> list[ParsedInfraction]:
    """Every infraction the rules define, in document order."""
    by_number = {rule.number: rule for rule in rules}
    texts = {rule.number: plain_text(rule.raw_text).replace("\n", " ") for rule in rules}
    bracketed = {number: match for number, text in texts.items() if (match := _BRACKETED.match(text))}
    penalties = {match.group("penalty").strip() for match in bracketed.values()}
    sections = {by_number[number].parent for number in bracketed}
    below = _descendant_texts(rules, texts)
    found = []
    for rule in rules:
        if rule.number in bracketed:
            match = bracketed[rule.number]
            penalty = match.group("penalty").strip()
        elif rule.parent in sections and (match := _LABELLED.match(texts[rule.number])):
            named = _mentioned_penalties(below[rule.number], penalties)
            if not named:
                continue
            penalty = " or ".join(named)
        else:
            continue
        found.append(ParsedInfraction(rule.number, match.group("name").strip(), penalty, _category(rule, by_number)))
    return found


def _descendant_texts(rules: list[ParsedRule], texts: dict[str, str]) -> dict[str, list[str]]:
    below: dict[str, list[str]] = defaultdict(list)
    parents = {rule.number: rule.parent for rule in rules}
    for rule in rules:
        ancestor = rule.parent
        while ancestor is not None:
            below[ancestor].append(texts[rule.number])
            ancestor = parents.get(ancestor)
    return below


def _mentioned_penalties(texts: list[str], known: set[str]) -> list[str]:
    """The known penalties named in brackets in these texts, each once, in order."""
    named = (" ".join(found.split()) for text in texts for found in _PENALTY_MENTION.findall(text))
    return list(dict.fromkeys(name for name in named if name in known))


def _category(rule: ParsedRule, by_number: dict[str, ParsedRule]) -> str | None:
    parent = by_number.get(rule.parent) if rule.parent else None
    while parent is not None:
        if parent.heading:
            return parent.heading
        parent = by_number.get(parent.parent) if parent.parent else None
    return None
