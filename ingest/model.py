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

    @property
    def first_line(self) -> int | None:
        """The source line the rule starts on (None for a rule no line printed, e.g. an inferred heading)."""
        return self.lines[0] if self.lines else None


@dataclass
class ParsedReference:
    """A cross-reference found in a rule's text: ``raw_text`` made it, and it
    points at each of ``target_numbers`` (a range expands to every rule in it).
    Targets are canonical numbers in the same document, or, when ``rulebook`` names
    another rulebook of the game ("core" for ``See CR 110``), in that rulebook's newest
    version; the build resolves them or marks them dangling."""

    from_number: str
    raw_text: str
    target_numbers: list[str]
    rulebook: str | None = None


@dataclass
class ParsedKeyword:
    term: str
    kind: str  # "keyword", "glossary term" or "defined term"
    defining_number: str | None
    aliases: list[str] = field(default_factory=list)


@dataclass
class ParsedInfraction:
    """An infraction a rulebook defines (``702.2. Missed Trigger [No Penalty]: …``): the rule that defines
    it, its name, its penalty as printed and its category (the heading of the section holding it)."""

    number: str
    name: str
    penalty: str
    category: str | None = None


@dataclass
class ParsedSymbol:
    """A symbol's shorthand a rulebook defines (``Its shorthand is [A].``), what it stands for ("Power of any
    Domain") and the rule that says so."""

    shorthand: str
    meaning: str
    number: str


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

    @classmethod
    def about(cls, rule: ParsedRule, kind: str, message: str) -> ParseIssue:
        """An issue reported at ``rule``'s first line and number."""
        return cls(kind, message, rule.first_line, rule.number)


@dataclass
class ParsedRulebook:
    rules: list[ParsedRule]
    references: list[ParsedReference] = field(default_factory=list)
    keywords: list[ParsedKeyword] = field(default_factory=list)
    skipped: list[SkippedLine] = field(default_factory=list)
    issues: list[ParseIssue] = field(default_factory=list)
    nonblank_lines: int = 0
    infractions: list[ParsedInfraction] = field(default_factory=list)
    symbols: list[ParsedSymbol] = field(default_factory=list)


@dataclass
class ParsedStep:
    position: int
    text: str
    branch: str | None = None  # e.g. "If Guardian Angel is chosen"
    line: int | None = None


@dataclass
class ParsedCitation:
    """A rule number written in a ruling (``raw_text`` as it appears); ``quote``, the rule's text when the ruling
    quotes it right after the number (``438.1.Replacing is ...``, ``466.1.b. says "when ..."``), else empty: what
    the number meant can then be checked against the text when the version it names is not at hand."""

    number: str
    raw_text: str
    quote: str = ""


@dataclass
class ParsedRuling:
    """One question and its answer. The fields after ``lines`` are filled where the source gives
    them (a Q&A site with pages, anchors and authors); ``related`` holds the other rulings the
    source relates to this one, as it writes them (``/cards/baron-nashor``,
    ``/general-rules/playing-cards#play-definition``); ``card_names`` the cards it tags."""

    position: int
    question: str
    ruling: str
    steps: list[ParsedStep] = field(default_factory=list)
    nuances: list[str] = field(default_factory=list)
    citations: list[ParsedCitation] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    raw: str | None = None  # the answer as received, markup kept
    page: str | None = None  # "general-rules/movement"
    page_title: str | None = None
    category: str | None = None  # "general rules", "mechanics", "card"
    anchor: str | None = None
    url: str | None = None
    author: str | None = None
    created_at: str | None = None  # ISO date
    reviewed_version: str | None = None  # the rules version it was written against, as the source names it
    parent_position: int | None = None  # a sub-question's question
    related: list[str] = field(default_factory=list)
    card_names: list[str] = field(default_factory=list)


@dataclass
class ParsedNote:
    """A section a source writes about itself (how to use it, its legal notice), not a ruling: kept with the
    source's rulings, never counted or searched among them."""

    position: int
    title: str
    text: str
    lines: list[int] = field(default_factory=list)
    page: str | None = None
    anchor: str | None = None
    url: str | None = None


@dataclass
class ParsedRulings:
    """Rulings of one source; ``source``, ``licence`` and ``licence_url`` credit it where it asks to be
    credited. ``line_count`` is the lines read when the source is several files (else the build counts)."""

    rulings: list[ParsedRuling]
    notes: list[ParsedNote] = field(default_factory=list)
    skipped: list[SkippedLine] = field(default_factory=list)
    issues: list[ParseIssue] = field(default_factory=list)
    nonblank_lines: int = 0
    source: str | None = None
    licence: str | None = None
    licence_url: str | None = None
    line_count: int = 0
    published: str | None = None  # an article's publication date (ISO), where the source is one dated article
    url: str | None = None  # where the source is published
    precedence: str | None = None  # the source's own words where it claims precedence over the rules
    official: bool = False  # written by the game's publisher (Riot's FAQs), not a third party
