"""Adapter for the Riftbound rulebooks, the Core Rules and the Tournament Rules, in any extraction.

This reads a document family, not a file. Riftbound rulebooks share one outline
(``103.1.b.2.``: three digits, then dotted numbers and single letters) and reach us
in many extractions: one rule per line or wrapped over several lines by a PDF, a
tab or spaces after the number, the number with or without its trailing dot,
indented, under markdown headings or list bullets, with HTML entities or tags,
``Last Updated:`` with or without its colon. What varies is decoration and line
layout; the outline does not, so the outline is what is read:

1. **Numbered lines**, whatever surrounds the number
   (``ingest.outline.numbered_line_pattern``).
2. **Which numbered lines are rules.** A number that can follow the rule before it
   in an outline (its first child, the next sibling of it or of an ancestor, a later
   chapter: ``ingest.outline.follows``) is a rule, unless the line before stops
   mid-sentence and the next number fits the outline only without it (``See rule``
   wrapped onto ``500. Keywords for more information``). A number that does not fit
   is still a rule when it is printed like one (its text does not start in lower
   case) after a finished line: it is out of order or repeated, and reported.
3. **Every other line continues the rule above.** Where the layout wraps its lines
   (most lines that are followed by an unnumbered line stop mid-sentence), a line
   carries on its paragraph; where it does not, each line is a paragraph. A line that
   starts a paragraph (``Example:``, ``See rule``, a bullet) always does. The text of
   a rule (``rules.text``) reads as one paragraph either way.
4. **Layout that is not text** is skipped with its reason: the header before the
   first rule, page headers repeating the title, page numbers (numbers alone on their
   line that count up a page apart: ``page_number_lines``), table-of-contents entries,
   horizontal rules, unnumbered headings.
5. **The damaged one-rule-per-line extraction** (a tab after each number) whose
   continuation lines are marked by a leading tab, so that an unmarked line is a rule that lost its number (the
   2025-06-02 Core Rules), is read by ``ingest.riftbound_tabbed``, which repairs
   that damage (reversed page blocks, lost and mislabelled numbers).

The title names the rulebook (``Riftbound Tournament Rules``: see
``ingest.header.rulebook_slug``). Headings are found by shape (``looks_like_heading``);
the Keyword Glossary's entries and defined terms come from ``ingest.riftbound_terms``,
infractions and their penalties from ``ingest.infractions``, the symbols' shorthand
(``[A]``, ``[E]``) from ``ingest.symbols``, cross-references (also
into another rulebook: ``See CR 110. Setup``) from ``ingest.riftbound_refs``.

Canonical numbers are the printed ones without the trailing dot, leading zeros
kept (``053.1``); the parent drops the last component (``dotted_parent``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ingest import infractions, riftbound_tabbed, riftbound_terms, symbols
from ingest.errors import IngestError
from ingest.header import clean, read_header
from ingest.model import ParsedRule, ParsedRulebook, ParseIssue, SkippedLine
from ingest.outline import (
    CONTENTS,
    NumberedLine,
    account_for_lines,
    assemble,
    dotted_parent,
    follows,
    join_continuation,
    natural_key,
    numbered_line_pattern,
    read_numbered,
    runs_on,
    undecorated,
)
from ingest.riftbound_refs import cited_titles, find_references
from ingest.source import nonblank_count
from ingest.text import plain_text

# The title names the rulebook ("Riftbound Tournament Rules"): see ingest.header.rulebook_slug.
TITLED_RULEBOOKS = True

_NUMBER = r"\d{3}(?:\.(?:\d+|[a-z]))*"
_NUMBERED = numbered_line_pattern(_NUMBER)
_TAB_AFTER_NUMBER = re.compile(rf"{_NUMBER}\.?\t")  # flush left, a tab after the number: the damaged layout
_MIN_RULES = 10  # a Riftbound rulebook has at least this many rules that form an outline
_MIN_FIT = 0.8  # ... and this share of its numbered lines fits the outline
_WRAPPED_SHARE = 0.5  # lines followed by an unnumbered line that stop mid-sentence, in a wrapped layout
_MIN_MARKED = 5  # tab-marked continuation lines that make the damaged one-rule-per-line layout
_MIN_PAGE_LINES, _MAX_PAGE_LINES = 5, 150  # the lines a page can hold
_MIN_PAGES = 3  # numbers alone on their line that count up at page intervals: page numbers, not text

_PAGE_NUMBER = re.compile(
    r"^(?:page\s*)?\d{1,3}(?:\s*(?:/|of)\s*\d{1,3})?$|^[-\u2013\u2014]\s*\d{1,3}\s*[-\u2013\u2014]$", re.I
)
_HORIZONTAL_RULE = re.compile(r"^(?:[-*_=]\s*){3,}$")
_MARKDOWN_HEADING = re.compile(r"^\s*#{1,6}\s")
# A table of contents line ends on its page number, after a leader (dots, an ellipsis) or a tab.
_TRAILING_PAGE_NUMBER = re.compile(r"(?<!\d)\d{1,3}$")
_LEADERS = ("...", "\u2026")

# The text's own list numbering ("1. ", "2a. ") or bullet ("* ") after the rule number.
_LIST_MARKER = re.compile(r"^(?:\d+[a-z]?\.|[*\u2022])\s+")
# Words that open a condition or a list item ("After a Move is completed"), not a title.
_CONDITION_WORDS = {"if", "when", "after", "during", "while", "before", "until", "unless", "as", "each", "any", "all"}
# A title is a noun phrase: these verbs make a sentence ("Equip is formatted as …").
_SENTENCE_VERBS = {"is", "are", "has", "have", "can", "may", "must", "will", "does"}
_MAX_HEADING_WORDS = 6


@dataclass(frozen=True)
class Layout:
    """How an extraction lays out its outline."""

    numbered: dict[int, NumberedLine]  # by line
    wrapped: bool  # long rules run over several lines
    marked_continuations: bool  # continuation lines are tab-led; unmarked lines are rules that lost their number
    dotted_numbers: bool  # most numbers are printed with their trailing dot


def _page_header(text: str, title: str | None) -> bool:
    """The title repeated at the top of a page, alone or with the page's number ("Riftbound Core Rules — Page 2",
    "12 | Riftbound Core Rules")."""
    if not title or title not in text:
        return False
    rest = text.replace(title, "", 1).strip(" \t|\u00b7:-\u2013\u2014")
    return not rest or _PAGE_NUMBER.match(rest) is not None


def _table_of_contents_entry(text: str) -> bool:
    """Whether the text ends on a page number after a leader or a tab. Read in two linear steps rather than one
    search for "leader, white space, number": that search restarts at every dot or tab of a long run."""
    page = _TRAILING_PAGE_NUMBER.search(text)
    if page is None:
        return False
    before = text[: page.start()]
    return "\t" in before[len(before.rstrip()) :] or before.rstrip().endswith(_LEADERS)


def sniff(lines: list[str]) -> bool:
    """The text holds a Riftbound outline: enough numbered lines, most of them where the outline
    expects them. Read from the shape of the numbering, not from how many lines carry a number."""
    numbers = [
        found.number for index, line in enumerate(lines, start=1) if (found := read_numbered(index, line, _NUMBERED))
    ]
    if len(numbers) < _MIN_RULES:
        return False
    fitting = sum(follows(previous, number) for previous, number in zip([None, *numbers], numbers))
    return fitting >= _MIN_RULES and fitting >= _MIN_FIT * len(numbers)


def profile(lines: list[str]) -> Layout:
    numbered = {
        index: found for index, line in enumerate(lines, start=1) if (found := read_numbered(index, line, _NUMBERED))
    }
    followed = stops_mid_sentence = marked = 0
    previous: str | None = None
    for index, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        if index not in numbered and previous is not None:
            if line.startswith("\t"):
                marked += 1
            else:
                followed += 1
                stops_mid_sentence += runs_on(previous)
        previous = numbered[index].text if index in numbered else line
    wrapped = followed > 0 and stops_mid_sentence >= _WRAPPED_SHARE * followed
    tab_after_number = sum(1 for index in numbered if _TAB_AFTER_NUMBER.match(lines[index - 1]))
    dotted = sum(found.dotted for found in numbered.values())
    return Layout(
        numbered=numbered,
        wrapped=wrapped,
        marked_continuations=not wrapped and marked >= _MIN_MARKED and tab_after_number * 2 >= len(numbered),
        dotted_numbers=dotted * 2 >= len(numbered),
    )


def parse(lines: list[str], path: Path) -> ParsedRulebook:
    layout = profile(lines)
    marked = layout.marked_continuations
    book = riftbound_tabbed.parse(lines, path) if marked else _parse_outline(lines, path, layout)
    book.infractions = infractions.find(book.rules)
    book.symbols = symbols.find(book.rules)
    return book


def _parse_outline(lines: list[str], path: Path, layout: Layout) -> ParsedRulebook:
    issues: list[ParseIssue] = []
    skipped: list[SkippedLine] = []
    printed = _Reader(lines, layout, issues, skipped).read(path)
    descents = _report_descents(printed, issues)
    rules = assemble(printed, dotted_parent, issues, reorder=descents > 0)
    _report_empty(rules, issues)
    _mark_headings(rules)
    _check_cited_titles(rules, issues)
    references = [reference for rule in rules for reference in find_references(rule.number, rule.raw_text)]
    return ParsedRulebook(
        rules=rules,
        references=references,
        keywords=riftbound_terms.keywords(rules),
        skipped=account_for_lines(lines, rules, skipped),
        issues=issues,
        nonblank_lines=nonblank_count(lines),
    )


class _Reader:
    """Lines into rules, in document order (steps 2 to 4 of the module's reading)."""

    def __init__(self, lines: list[str], layout: Layout, issues: list[ParseIssue], skipped: list[SkippedLine]):
        self.lines, self.layout, self.issues, self.skipped = lines, layout, issues, skipped
        self.title = read_header(lines).title
        self.rules: list[ParsedRule] = []
        numbered = sorted(layout.numbered)
        self.next_numbered = dict(zip(numbered, numbered[1:]))
        self.last_text: str | None = None  # the last line read, as text
        self.page_numbers = page_number_lines(lines)

    def read(self, path: Path) -> list[ParsedRule]:
        for index, line in enumerate(self.lines, start=1):
            found = self.layout.numbered.get(index)
            if not line.strip():
                continue
            if found is None:
                self._unnumbered(index, line)
            elif not self.rules and _table_of_contents_entry(found.text):
                self._skip(index, CONTENTS)
            elif self._is_rule(found, self.layout.numbered.get(self.next_numbered.get(index, 0))):
                self._add_rule(found)
            else:
                self._continue(index, line)
        if not self.rules:
            first = next(((i, line) for i, line in enumerate(self.lines, start=1) if line.strip()), (None, None))
            raise IngestError(path, first[0], "numbered Riftbound rules such as '101. Deck Construction'", first[1])
        return self.rules

    def _unnumbered(self, index: int, line: str) -> None:
        text = clean(line)
        if not self.rules:
            self._skip(index, "document header")
        elif _page_header(text, self.title):
            self._skip(index, "page header (the title repeated)")
        elif index in self.page_numbers:
            self._skip(index, "page number")
        elif _HORIZONTAL_RULE.match(line.strip()):
            self._skip(index, "layout: horizontal rule")
        elif _MARKDOWN_HEADING.match(line):
            self._skip(index, "unnumbered heading")
        else:
            self._continue(index, line)

    def _is_rule(self, found: NumberedLine, following: NumberedLine | None) -> bool:
        previous = self.rules[-1].number if self.rules else None
        stopped_mid_sentence = self.last_text is not None and runs_on(self.last_text)
        if follows(previous, found.number):
            wrapped_reference = (
                stopped_mid_sentence
                and following is not None
                and follows(previous, following.number)
                and not follows(found.number, following.number)
            )
            return not wrapped_reference
        return not stopped_mid_sentence and not found.text[:1].islower()

    def _add_rule(self, found: NumberedLine) -> None:
        if not found.dotted and self.layout.dotted_numbers:
            self.issues.append(
                ParseIssue("malformed", f"{found.number} is printed without its trailing dot", found.line, found.number)
            )
        self.rules.append(
            ParsedRule(
                number=found.number,
                raw_text=found.text,
                lines=[found.line],
                printed_number=found.number + ("." if found.dotted else ""),
            )
        )
        self.last_text = found.text or found.number

    def _continue(self, index: int, line: str) -> None:
        text = undecorated(line).strip()
        rule = self.rules[-1]
        rule.raw_text = join_continuation(rule.raw_text, text, wrapped=self.layout.wrapped)
        rule.lines.append(index)
        self.last_text = text

    def _skip(self, index: int, reason: str) -> None:
        self.skipped.append(SkippedLine(index, self.lines[index - 1], reason))


def page_number_lines(lines: list[str]) -> set[int]:
    """The lines that hold page numbers: numbers alone on their line ("12", "Page 3 of 40", "- 7 -")
    that count up one page at a time, a page's worth of lines apart (a page without its number
    aside). A number a narrow layout wrapped onto a line of its own ("top" / "5" / "cards of your
    deck") is in no such run, and stays text."""
    ends: dict[int, tuple[int, int]] = {}  # page -> the longest run ending on it: (its length, its last line)
    previous: dict[int, int] = {}  # a line of a run -> the line of the page before it
    best = (0, 0)
    for index, line in enumerate(lines, start=1):
        text = clean(line)
        if not _PAGE_NUMBER.match(text):
            continue
        page = int(re.search(r"\d+", text).group())  # type: ignore[union-attr]  # _PAGE_NUMBER holds a number
        length = 1
        for step in (1, 2):
            before, at = ends.get(page - step, (0, 0))
            if before >= length and _MIN_PAGE_LINES * step <= index - at <= _MAX_PAGE_LINES * step:
                length, previous[index] = before + 1, at
        if length >= ends.get(page, (0, 0))[0]:
            ends[page] = (length, index)
        best = max(best, (length, index))
    if best[0] < _MIN_PAGES:
        return set()
    found, at = set(), best[1]
    while at:
        found.add(at)
        at = previous.get(at, 0)
    return found


def _report_descents(rules: list[ParsedRule], issues: list[ParseIssue]) -> int:
    """Numbers lower than the one printed before them (a repeat is a duplicate, not a descent)."""
    descents = 0
    for previous, rule in zip(rules, rules[1:]):
        if natural_key(rule.number) < natural_key(previous.number):
            descents += 1
            issues.append(
                ParseIssue(
                    "reordered",
                    f"{rule.number} is printed after {previous.number}",
                    line=rule.lines[0],
                    number=rule.number,
                )
            )
    return descents


def _report_empty(rules: list[ParsedRule], issues: list[ParseIssue]) -> None:
    for rule in rules:
        if not rule.raw_text:
            issues.append(ParseIssue.about(rule, "empty", f"{rule.number} has no text"))


def _mark_headings(rules: list[ParsedRule]) -> None:
    parents = {rule.parent for rule in rules}
    for rule in rules:
        first_line = plain_text(rule.raw_text.split("\n", 1)[0])  # "<td>Accelerate</td>" is the title Accelerate
        if looks_like_heading(first_line, has_children=rule.number in parents):
            rule.heading = first_line.rstrip(":").rstrip()


def looks_like_heading(text: str, *, has_children: bool) -> bool:
    """A short title (``Cleanups``, ``Step 2: The Combat Damage Step``, ``1v1 (Duel)``), not a sentence
    or a list item (``2 Players``, ``Victory Score: 8``, ``After a Move is completed``).

    A title carried under the text's own list numbering (``389. 1. Activate or trigger the Ability``)
    is a heading only when rules sit under it; otherwise it is a step of a procedure. So is a title
    that ends in a colon (``103. Responsibility:``), which introduces the rules under it.
    """
    title = _LIST_MARKER.sub("", text)
    if title != text and not has_children:
        return False
    if title.endswith(":") and has_children:
        title = title[:-1].rstrip()
    words = title.split()
    return (
        0 < len(words) <= _MAX_HEADING_WORDS
        and not re.search(r"[.,;!?:][\u201d\u2019\"']?$", title)
        and "," not in title
        and not re.search(r":\s*\d", title)  # "Victory Score: 8" is a value
        and not re.match(r"\d+\s", title)  # "12 Rune Cards" is a count
        and not title[0].islower()
        and words[0].lower() not in _CONDITION_WORDS
        and not _SENTENCE_VERBS.intersection(word.lower() for word in words)
        and re.search(r"\b[A-Z][a-z]", title) is not None
    )


def _check_cited_titles(rules: list[ParsedRule], issues: list[ParseIssue]) -> None:
    """``See rule 179. Control`` names its target twice; when the title is not the target's
    heading, the number is probably stale. Missing targets are left to the build."""
    by_number = {rule.number: rule for rule in rules}
    for rule in rules:
        for number, title in cited_titles(rule.raw_text):
            target = by_number.get(number)
            if target is None:
                continue
            found = target.heading or target.raw_text.split("\n", 1)[0]
            if not same_title(title, found):
                issues.append(
                    ParseIssue(
                        "dangling",
                        f"{rule.number} cites rule {number} as {title!r}, but {number} reads {found!r}",
                        line=rule.lines[0],
                        number=rule.number,
                    )
                )


def same_title(cited: str, heading: str) -> bool:
    """Whether a cited title names a heading, the way references shorten titles: case, list markers,
    a leading "The" or "Step 2:", and plural endings aside ("The Combat Damage Step" names
    "Step 2: The Combat Damage Step", "Banishment" names "Banishments", "Make Relevant Choices" names
    "2. Make relevant choices.")."""
    cited_words, heading_words = _title_words(cited), _title_words(heading)
    if not cited_words or not heading_words:
        return False
    shorter, longer = sorted((cited_words, heading_words), key=len)
    return any(longer[start : start + len(shorter)] == shorter for start in range(len(longer) - len(shorter) + 1))


def _title_words(text: str) -> list[str]:
    text = re.sub(r"^\s*(?:\d+[a-z]?\.\s+)?(?:step\s+\d+:\s*)?", "", text.lower())
    words = re.sub(r"[^\w\s]", " ", text).split()
    if words[:1] == ["the"]:
        words = words[1:]
    return [word.removesuffix("s") for word in words]
