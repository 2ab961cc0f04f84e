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
- ``See CR 110. Setup``, ``as specified in CR 128. Privacy``, ``484.8.e. in the Core Rules``
  (the Tournament Rules citing the Core Rules: a reference into another rulebook, ``rulebook="core"``)

Riftbound rule numbers always start with three digits (``053``, ``518``), which is
what tells ``rule 540`` apart from ``step 4`` or a version such as ``1.1``.
Later components are a number or a single letter (``540.4.b``, ``626.1.d.1.a``);
a component must end at a word boundary, so ``rule 540.4.b. is`` names 540.4.b,
not 540.4.b.i.
"""

from __future__ import annotations

import re

from ingest.limits import MAX_RANGE
from ingest.model import ParsedReference

# A rule number opens with its section's three digits; a component after the first must not run on into a
# word: ".i" of ". is" is not one.
_SECTION = r"\d{3}"
_NUMBER = rf"{_SECTION}(?![\d])(?:\.(?:\d+|[a-z])(?![A-Za-z0-9]))*"
_TAGS = r"(?:<[A-Za-z][^<>]*>[ \t]*)*"
_CLOSING_TAGS = r"(?:[ \t]*</[A-Za-z]+>)*"
_TITLE_WORD = r"[A-Z][\w'’-]*"
_TITLE_LINK = r"(?:or|and|of|the|to|in|on|a|an|for)"

_START = re.compile(
    rf"\b(?:(?P<see>See)[ \t]+{_TAGS}(?:(?P<see_core>CR)[ \t]+)?(?:[Rr]ules?[ \t]+)?|(?P<core>CR)[ \t]+|[Rr]ules?[ \t]+)"
    rf"(?={_NUMBER})"
)
# "484.8.e. in the Core Rules": a number the text places in the Core Rules, with no "See" before it.
# It starts where a run of white space starts (the lookbehind), so a search through a long run of spaces tries
# it once, not at every space.
_IN_CORE_RULES = r"(?<![ \t])(?:[ \t]*+\.)?[ \t]++(?:in|of)[ \t]+the[ \t]+(?:Riftbound[ \t]+)?Core[ \t]+Rules\b"
_BARE_CORE = re.compile(rf"(?<![\w.])(?={_NUMBER}{_IN_CORE_RULES})")
_CORE_AFTER = re.compile(_IN_CORE_RULES)
CORE_RULEBOOK = "core"  # the slug of the rulebook "CR" names
_TARGET = re.compile(
    rf"(?P<first>{_NUMBER})"
    rf"(?:(?:[ \t]*\.)?(?:[ \t]+(?:through|to)[ \t]+|[ \t]*[–—][ \t]*)(?P<last>{_NUMBER}))?"
)
# A title is capitalised words (with small linking words between them) that end
# where the sentence goes on: "for more information", "and rule …", a stop or the line's end
# ("See rule 447.2. For more information" cites no title).
_TITLE = re.compile(
    rf"(?<![ \t])(?:[ \t]*+\.)?[ \t]++(?!For\b){_TITLE_WORD}(?:(?:[ \t]+{_TITLE_LINK})*[ \t]+{_TITLE_WORD})*"
    rf"(?={_CLOSING_TAGS}(?:[ \t]+(?:for|and|or)\b|[ \t]*(?:[.,;:]|$)))",
    re.MULTILINE,
)
_CLOSING = re.compile(_CLOSING_TAGS)
# Every reference names a rule number, which opens with a section: most rules print none, and their text is not
# searched further.
_ANY_SECTION = re.compile(_SECTION)
# Read where a target ends (never after white space: the lookbehind lets a search skip a run of it in one step).
_NEXT_TARGET = re.compile(rf"(?<![ \t])(?:[ \t]*+,)?[ \t]++(?:and|or)[ \t]+{_TAGS}[Rr]ules?[ \t]+(?={_NUMBER})")


def _match_end(pattern: re.Pattern[str], text: str, position: int) -> int:
    """Where a pattern that also matches the empty string ends its match at ``position``."""
    found = pattern.match(text, position)
    assert found is not None, f"{pattern.pattern!r} matches the empty string"
    return found.end()


def find_references(from_number: str, raw_text: str) -> list[ParsedReference]:
    """Every reference in ``raw_text`` (the text of rule ``from_number``), in text order."""
    return [
        ParsedReference(
            from_number, text, _unique(number for numbers, _ in targets for number in numbers), rulebook=rulebook
        )
        for text, targets, rulebook in _scan(raw_text)
    ]


def cited_titles(raw_text: str) -> list[tuple[str, str]]:
    """``(number, title)`` for each reference target in the same rulebook cited with its title
    (``See rule 518. Cleanups``), so a caller can check the title against the target's heading."""
    return [
        (numbers[0], title)
        for _, targets, rulebook in _scan(raw_text)
        if rulebook is None
        for numbers, title in targets
        if title and len(numbers) == 1
    ]


def _scan(raw_text: str) -> list[tuple[str, list[tuple[list[str], str | None]], str | None]]:
    """Each reference's text, its targets (numbers, title or None per cited number or range) and the
    rulebook it points into (None: the same one), in text order."""
    if not _ANY_SECTION.search(raw_text):
        return []
    found = []
    position = 0
    starts = _Starts(raw_text)
    while (start := starts.next(position)) is not None:
        core = start.re is _BARE_CORE or bool(start.groupdict().get("see_core") or start.groupdict().get("core"))
        titled = start.re is _START and (start.group("see") or start.group("core")) is not None
        targets, end = _read_targets(raw_text, start.end(), titled=titled)
        if (placed := _CORE_AFTER.match(raw_text, end)) is not None:
            core, end = True, placed.end()
        found.append((raw_text[start.start() : end].rstrip(), targets, CORE_RULEBOOK if core else None))
        position = end
    return found


class _Starts:
    """The next reference start at or after a position: the earlier of the next "See rule"-style start and the
    next number placed "in the Core Rules". Each pattern's next match is kept until the scan passes it, so a
    text with thousands of references is searched once per pattern, not once per reference."""

    def __init__(self, text: str):
        self.text = text
        self.ahead: dict[re.Pattern, re.Match | None] = {}
        self.searched_from: dict[re.Pattern, int] = {}

    def next(self, position: int) -> re.Match | None:
        starts = [match for pattern in (_START, _BARE_CORE) if (match := self._next(pattern, position))]
        return min(starts, key=lambda match: match.start(), default=None)

    def _next(self, pattern: re.Pattern, position: int) -> re.Match | None:
        kept = self.ahead.get(pattern)
        known = pattern in self.ahead and self.searched_from[pattern] <= position
        if known and (kept is None or kept.start() >= position):
            return kept
        self.ahead[pattern] = pattern.search(self.text, position)
        self.searched_from[pattern] = position
        return self.ahead[pattern]


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
    Endpoints that do not share a parent (or run backwards), or that span more than ``MAX_RANGE`` numbers
    (``101.1 through 101.99999999`` is damage, not a range), are returned as they are.
    """
    head_first, _, tail_first = first.rpartition(".")
    head_last, _, tail_last = last.rpartition(".")
    if head_first != head_last:
        return [first, last]
    prefix = f"{head_first}." if head_first else ""
    if tail_first.isdigit() and tail_last.isdigit() and 0 <= int(tail_last) - int(tail_first) < MAX_RANGE:
        width = len(tail_first) if tail_first.startswith("0") else 0
        return [f"{prefix}{value:0{width}d}" for value in range(int(tail_first), int(tail_last) + 1)]
    if tail_first.isalpha() and tail_last.isalpha() and tail_first <= tail_last:
        return [f"{prefix}{chr(code)}" for code in range(ord(tail_first), ord(tail_last) + 1)]
    return [first, last]
