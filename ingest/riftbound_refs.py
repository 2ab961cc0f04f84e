"""Cross-references in Riftbound rule text, for both Core Rules layouts.

Riftbound rules point at each other in a handful of ways:

- ``See rule 518. Cleanups for more information.`` (a number, then the target's title)
- ``See rule 518 . Cleanups``, ``See rule 716 Attachment`` (damaged or missing dot)
- ``See rule 140 for more information`` (no title)
- ``See rule 158. Rune Pools and rule 605. Add`` (two targets in one reference)
- ``See <i>rule 616. Recalls</i>`` (markup around the reference)
- ``See 107.5. Banishment`` (no word "rule")
- ``Skip to rule 543 .``, ``as per rule 541 .``, ``in rule 559`` (inside a sentence)
- ``rules 557 through 563`` (a range: every number in it)

Riftbound rule numbers always start with three digits (``053``, ``518``), which is
what tells ``rule 540`` apart from ``step 4`` or a version such as ``1.1``.
Later components are a number or a single letter (``540.4.b``, ``626.1.d.1.a``);
a component must end at a word boundary, so ``rule 540.4.b. is`` names 540.4.b,
not 540.4.b.i.
"""

from __future__ import annotations

import re

from ingest.model import ParsedReference

# A component after the first must not run on into a word: ".i" of ". is" is not one.
_NUMBER = r"\d{3}(?![\d])(?:\.(?:\d+|[a-z])(?![A-Za-z0-9]))*"
_TAGS = r"(?:<[A-Za-z][^<>]*>[ \t]*)*"
_CLOSING_TAGS = r"(?:[ \t]*</[A-Za-z]+>)*"
_TITLE_WORD = r"[A-Z][\w'’-]*"
_TITLE_LINK = r"(?:or|and|of|the|to|in|on|a|an|for)"

_START = re.compile(rf"\b(?:(?P<see>See)[ \t]+{_TAGS}(?:[Rr]ules?[ \t]+)?|[Rr]ules?[ \t]+)(?={_NUMBER})")
_TARGET = re.compile(
    rf"(?P<first>{_NUMBER})"
    rf"(?:(?:[ \t]*\.)?(?:[ \t]+(?:through|to)[ \t]+|[ \t]*[–—][ \t]*)(?P<last>{_NUMBER}))?"
)
# A title is capitalised words (with small linking words between them) that end
# where the sentence goes on: "for more information", "and rule …", a stop or the line's end.
_TITLE = re.compile(
    rf"(?:[ \t]*\.)?[ \t]+{_TITLE_WORD}(?:(?:[ \t]+{_TITLE_LINK})*[ \t]+{_TITLE_WORD})*"
    rf"(?={_CLOSING_TAGS}[ \t]*(?:for\b|and\b|or\b|[.,;:]|$))",
    re.MULTILINE,
)
_CLOSING = re.compile(_CLOSING_TAGS)
_NEXT_TARGET = re.compile(rf"[ \t]*,?[ \t]+(?:and|or)[ \t]+{_TAGS}[Rr]ules?[ \t]+(?={_NUMBER})")


def _match_end(pattern: re.Pattern[str], text: str, position: int) -> int:
    """Where a pattern that also matches the empty string ends its match at ``position``."""
    found = pattern.match(text, position)
    assert found is not None, f"{pattern.pattern!r} matches the empty string"
    return found.end()


def find_references(from_number: str, raw_text: str) -> list[ParsedReference]:
    """Every reference in ``raw_text`` (the text of rule ``from_number``), in text order."""
    return [
        ParsedReference(from_number, text, _unique(number for numbers, _ in targets for number in numbers))
        for text, targets in _scan(raw_text)
    ]


def cited_titles(raw_text: str) -> list[tuple[str, str]]:
    """``(number, title)`` for each reference target cited with its title (``See rule 518. Cleanups``),
    so a caller can check the title against the target's heading."""
    return [
        (numbers[0], title)
        for _, targets in _scan(raw_text)
        for numbers, title in targets
        if title and len(numbers) == 1
    ]


def _scan(raw_text: str) -> list[tuple[str, list[tuple[list[str], str | None]]]]:
    """Each reference's text and its targets: (numbers, title or None) per cited number or range."""
    found = []
    position = 0
    while (start := _START.search(raw_text, position)) is not None:
        targets, end = _read_targets(raw_text, start.end(), titled=start.group("see") is not None)
        found.append((raw_text[start.start() : end].rstrip(), targets))
        position = end
    return found


def _read_targets(text: str, position: int, *, titled: bool) -> tuple[list[tuple[list[str], str | None]], int]:
    """The targets of one reference starting at ``position``, and where the reference ends."""
    targets: list[tuple[list[str], str | None]] = []
    while True:
        target = _TARGET.match(text, position)
        assert target is not None, "_START and _NEXT_TARGET end where a number follows"
        first, last = target.group("first"), target.group("last")
        position = target.end()
        title = _TITLE.match(text, position) if titled else None
        if title:
            position = title.end()
        targets.append((expand_range(first, last) if last else [first], _title_text(title)))
        position = _match_end(_CLOSING, text, position)
        following = _NEXT_TARGET.match(text, position)
        if following is None:
            return targets, position
        position = following.end()


def _unique(numbers) -> list[str]:
    return list(dict.fromkeys(numbers))


def _title_text(title: re.Match | None) -> str | None:
    return title.group().lstrip(" .\t") if title else None


def expand_range(first: str, last: str) -> list[str]:
    """Every number from ``first`` to ``last``, counting at the last component.

    ``557``..``563`` gives 557, 558, …, 563; ``103.2.a``..``103.2.d`` gives a to d.
    Endpoints that do not share a parent (or run backwards) are returned as they are.
    """
    head_first, _, tail_first = first.rpartition(".")
    head_last, _, tail_last = last.rpartition(".")
    if head_first != head_last:
        return [first, last]
    prefix = f"{head_first}." if head_first else ""
    if tail_first.isdigit() and tail_last.isdigit() and int(tail_first) <= int(tail_last):
        width = len(tail_first) if tail_first.startswith("0") else 0
        return [f"{prefix}{value:0{width}d}" for value in range(int(tail_first), int(tail_last) + 1)]
    if tail_first.isalpha() and tail_last.isalpha() and tail_first <= tail_last:
        return [f"{prefix}{chr(code)}" for code in range(ord(tail_first), ord(tail_last) + 1)]
    return [first, last]
