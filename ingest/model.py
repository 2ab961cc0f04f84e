"""What every parser hands to the build: plain data, no database.

Each document-format adapter (``ingest/<format>.py``) turns a source file into a
``ParsedRulebook`` or ``ParsedRulings``. ``ingest/outline.py`` holds the logic
that all rulebook adapters share (ordering, parents, duplicates, coverage).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class ParsedRule:
    """One rule as it will be stored.

    ``number`` is the canonical number (see HAZARDS.md section 0), ``raw_text``
    the text as received (markup kept; continuation lines joined with "\\n"),
    ``lines`` the 1-based source lines it consumed.
    """

    number: str
    raw_text: str
    lines: list[int]
    heading: str | None = None
    inferred: bool = False
    printed_number: str | None = None
    # Filled in by ingest.outline.assemble, never by an adapter:
    parent: str | None = None
    depth: int = 0


@dataclass
class ParsedReference:
    """A cross-reference found in a rule's text: ``raw_text`` made it, and it
    points at each of ``target_numbers`` (a range expands to every rule in it).
    Targets are canonical numbers in the same document; the build resolves
    them or marks them dangling."""

    from_number: str
    raw_text: str
    target_numbers: list[str]


@dataclass
class ParsedKeyword:
    term: str
    kind: str  # "keyword", "glossary term" or "defined term"
    defining_number: str | None
    aliases: list[str] = field(default_factory=list)


@dataclass
class SkippedLine:
    line: int
    text: str
    reason: str


@dataclass
class ParseIssue:
    """Something the parser repaired or could not repair, reported not hidden:
    kind is one of "duplicate", "malformed", "empty", "orphan", "garbage",
    "reordered", "inferred", "dangling"."""

    kind: str
    message: str
    line: int | None = None
    number: str | None = None


@dataclass
class ParsedRulebook:
    rules: list[ParsedRule]
    references: list[ParsedReference] = field(default_factory=list)
    keywords: list[ParsedKeyword] = field(default_factory=list)
    skipped: list[SkippedLine] = field(default_factory=list)
    issues: list[ParseIssue] = field(default_factory=list)
    nonblank_lines: int = 0


@dataclass
class ParsedStep:
    position: int
    text: str
    branch: str | None = None  # e.g. "If Guardian Angel is chosen"
    line: int | None = None


@dataclass
class ParsedCitation:
    """A rule number written in a ruling (``raw_text`` as it appears)."""

    number: str
    raw_text: str


@dataclass
class ParsedRuling:
    position: int
    question: str
    ruling: str
    steps: list[ParsedStep] = field(default_factory=list)
    nuances: list[str] = field(default_factory=list)
    citations: list[ParsedCitation] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)


@dataclass
class ParsedRulings:
    rulings: list[ParsedRuling]
    skipped: list[SkippedLine] = field(default_factory=list)
    issues: list[ParseIssue] = field(default_factory=list)
    nonblank_lines: int = 0
