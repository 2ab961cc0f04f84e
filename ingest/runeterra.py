"""Adapter for the Legends of Runeterra unofficial rulebook (markdown, sections A-G).

Canonical numbers are ``<section letter>.<printed number>``: ``## B.`` is ``B``,
``### 1. Board`` under B is ``B.1`` and ``- 1.3.`` under B is ``B.1.3``. Printed
numbers restart in every section, so the letter is mandatory.

Neither the markdown level (``##``/``###``/``####``/none) nor the indentation
says how deep a rule is; only the number does. A one-part number (``7.``) is a
subsection heading, anything longer is a rule under it. A line without a number
continues the rule above it (hard line breaks and paragraphs after page breaks).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ingest.errors import IngestError
from ingest.model import ParsedKeyword, ParsedReference, ParsedRule, ParsedRulebook, ParseIssue, SkippedLine
from ingest.outline import account_for_lines, assemble, dotted_parent, natural_key
from ingest.source import nonblank_count
from ingest.text import plain_text

_SECTION = re.compile(r"^#{1,6}\s*(?P<letter>[A-Z])\.\s+(?P<title>.*\S)\s*$")
_HEADING = re.compile(r"^#{1,6}\s*(?P<title>.*\S)\s*$")
# A one-part number needs its dot ("7. Power"); longer ones may lack it (section A: "- 1.1 A game").
_NUMBERED = re.compile(r"^\s*(?P<mark>#{1,6}\s*|-\s+)?(?P<number>\d+(?:\.\d+)+\.?|\d+\.)(?:\s+(?P<text>.*?))?\s*$")
_EMPTY_BULLET = re.compile(r"^\s*-\s*$")
_BOLD = re.compile(r"\*\*(?P<term>[^*]+?)\*\*")

# Cross-references: a section-qualified number (E.11.), a dotted number (7.12.), or a
# plain integer only after a word that announces a rule ("actions 5 - 9").
_REF_TOKEN = re.compile(
    r"(?<![\w.])(?:(?P<letter>[A-Z])\.(?P<qualified>\d+(?:\.\d+)*)"
    r"|(?P<dotted>\d+(?:\.\d+)+)"
    r"|(?P<integer>\d+)(?![\w/]))"
)
_CUE = re.compile(r"\b(?:step|rule|action|phase)s?\s+$", re.IGNORECASE)
_RANGE_JOIN = re.compile(r"^\.*\s*(?:-|–|to|through)\s*$")
_LIST_JOIN = re.compile(r"^\.*\s*(?:,|and\s*/\s*or|and|or|,\s*and)\s*$")

KEYWORD_SECTION = re.compile(r"\bkeywords?\b", re.IGNORECASE)
GLOSSARY_SECTION = re.compile(r"\bterms\b|\bglossary\b", re.IGNORECASE)


@dataclass
class _Entry:
    """A numbered line (or section heading) before canonical numbers are fixed."""

    section: str
    parts: list[str]
    printed: str
    text: str
    line: int
    bulleted: bool
    heading: str | None = None
    inferred: bool = False
    lines: list[int] = field(default_factory=list)

    @property
    def number(self) -> str:
        return ".".join([self.section, *self.parts]) if self.parts else self.section


def sniff(lines: list[str]) -> bool:
    """Markdown with lettered section headings (``## A. ...``) and dotted rule numbers."""
    sections = sum(1 for line in lines if _SECTION.match(line))
    numbered = sum(1 for line in lines if _NUMBERED.match(line))
    return sections >= 2 and numbered >= 10


def parse(lines: list[str], path: Path) -> ParsedRulebook:
    issues: list[ParseIssue] = []
    skipped: list[SkippedLine] = []
    entries = _read_entries(lines, skipped, issues)
    if not any(entry.parts for entry in entries):
        first = next((text for text in lines if text.strip()), None)
        raise IngestError(path, None, "numbered rules under lettered sections (## A. ...)", first)
    _repair_misnumbered_runs(entries, issues)
    rules = [_to_rule(entry, issues) for entry in entries]
    rules = assemble(rules, dotted_parent, issues)
    sections = {entry.section for entry in entries}
    return ParsedRulebook(
        rules=rules,
        references=_references(rules, sections),
        keywords=_keywords(rules, entries),
        skipped=account_for_lines(lines, rules, skipped),
        issues=issues,
        nonblank_lines=nonblank_count(lines),
    )


def _read_entries(lines: list[str], skipped: list[SkippedLine], issues: list[ParseIssue]) -> list[_Entry]:
    entries: list[_Entry] = []
    section: str | None = None
    back_matter: str | None = None
    for index, raw in enumerate(lines, start=1):
        text = raw.rstrip()
        if not text.strip():
            continue
        if found := _SECTION.match(text):
            section, back_matter = found["letter"], None
            entries.append(
                _Entry(
                    section,
                    [],
                    f"{section}.",
                    found["title"],
                    index,
                    False,
                    heading=plain_text(found["title"]),
                    lines=[index],
                )
            )
        elif back_matter is not None:
            skipped.append(SkippedLine(index, raw, back_matter))
        elif section is None:
            reason = "title" if _HEADING.match(text) else "front matter before the first section"
            skipped.append(SkippedLine(index, raw, reason))
        elif found := _NUMBERED.match(text):
            entries.append(_numbered_entry(section, found, index))
        elif _EMPTY_BULLET.match(text):
            issues.append(ParseIssue("empty", "a bullet with no number and no text", line=index))
            skipped.append(SkippedLine(index, raw, "empty bullet"))
        elif found := _HEADING.match(text):
            # An unnumbered heading inside the body (### Credits:) ends the rules.
            back_matter = f"back matter under the unnumbered heading {found['title']!r} (not rules)"
            skipped.append(SkippedLine(index, raw, back_matter))
        elif entries:
            entries[-1].text = f"{entries[-1].text}\n{text.strip()}" if entries[-1].text else text.strip()
            entries[-1].lines.append(index)
    return entries


def _numbered_entry(section: str, found: re.Match, line: int) -> _Entry:
    printed = found["number"]
    parts = printed.rstrip(".").split(".")
    mark = (found["mark"] or "").strip()
    text = found["text"] or ""
    entry = _Entry(section, parts, printed, text, line, bulleted=mark == "-", lines=[line])
    if len(parts) == 1:
        entry.heading = plain_text(text)
    return entry


def _repair_misnumbered_runs(entries: list[_Entry], issues: list[ParseIssue]) -> None:
    """Bulleted one-part numbers right under a subsection heading are its rules
    printed without the heading's number when the next heading's number jumps past
    them (``#### 26. Hallowed``, ``- 27.`` ... ``- 31.``, ``#### 32. Lurk``)."""
    for position, heading in enumerate(entries):
        if not _is_heading(heading):
            continue
        run = _bulleted_run(entries, position + 1)
        if not run:
            continue
        after = position + 1 + len(run)
        following = entries[after] if after < len(entries) else None
        own = int(heading.parts[0])
        if following is None or not _is_heading(following) or following.section != heading.section:
            continue
        if int(following.parts[0]) <= own + 1 or any(int(entry.parts[0]) <= own for entry in run):
            continue
        for child_index, entry in enumerate(run, start=1):
            printed = entry.printed
            entry.parts = [heading.parts[0], str(child_index)]
            entry.heading, entry.inferred = None, True
            issues.append(
                ParseIssue(
                    "malformed",
                    f"{printed} under heading {heading.number} ({heading.heading}) is read as {entry.number}: "
                    f"the next heading is {following.number}",
                    line=entry.line,
                    number=entry.number,
                )
            )


def _is_heading(entry: _Entry) -> bool:
    return len(entry.parts) == 1 and not entry.bulleted


def _bulleted_run(entries: list[_Entry], start: int) -> list[_Entry]:
    run = []
    for entry in entries[start:]:
        if len(entry.parts) != 1 or not entry.bulleted or entry.section != entries[start - 1].section:
            break
        run.append(entry)
    return run


def _to_rule(entry: _Entry, issues: list[ParseIssue]) -> ParsedRule:
    if entry.parts and not entry.text.strip():
        issues.append(
            ParseIssue("empty", f"{entry.number} is printed without text", line=entry.line, number=entry.number)
        )
    return ParsedRule(
        number=entry.number,
        raw_text=entry.text,
        lines=entry.lines,
        heading=entry.heading,
        inferred=entry.inferred,
        printed_number=entry.printed,
    )


# --- cross-references -------------------------------------------------------------------------------


def _references(rules: list[ParsedRule], sections: set[str]) -> list[ParsedReference]:
    numbers = [rule.number for rule in rules]
    references = []
    for rule in rules:
        if rule.heading is not None:
            continue
        section = rule.number.split(".")[0]
        for raw, targets in _expressions(rule.raw_text, section, sections, numbers):
            references.append(ParsedReference(rule.number, raw, targets))
    return references


def _expressions(text: str, section: str, sections: set[str], numbers: list[str]):
    """Each maximal run of numbers joined by ranges (``-``, ``to``) or lists (``,``, ``and``,
    ``and/ or``) is one reference expression; yields (raw text, target numbers)."""
    tokens = [found for found in _REF_TOKEN.finditer(text) if not found["letter"] or found["letter"] in sections]
    groups: list[list[tuple[re.Match, str]]] = []
    for found in tokens:
        previous = groups[-1][-1][0] if groups else None
        joint = text[previous.end() : found.start()] if previous else ""
        if previous is not None and (_RANGE_JOIN.match(joint) or _LIST_JOIN.match(joint)):
            groups[-1].append((found, "range" if _RANGE_JOIN.match(joint) else "list"))
        elif found["integer"] is None or _CUE.search(text[: found.start()]):
            groups.append([(found, "start")])
    for group in groups:
        start = group[0][0].start()
        cue = _CUE.search(text[:start])
        first = cue.start() if cue else start
        last = group[-1][0].end()
        while text.startswith(".", last):  # the stops that close the last token
            last += 1
        yield text[first:last], _targets(group, section, numbers)


def _targets(group: list[tuple[re.Match, str]], section: str, numbers: list[str]) -> list[str]:
    targets: list[str] = []
    previous = None
    for found, join in group:
        number = _canonical_target(found, previous or section)
        if join == "range" and targets:
            targets.extend(n for n in _range_between(targets[-1], number, numbers) if n not in targets)
        if number not in targets:
            targets.append(number)
        previous = number.split(".")[0]
    return targets


def _canonical_target(found: re.Match, section: str) -> str:
    if found["letter"]:
        return f"{found['letter']}.{found['qualified']}"
    return f"{section}.{found['dotted'] or found['integer']}"


def _range_between(first: str, last: str, numbers: list[str]) -> list[str]:
    """Rules strictly between two endpoints at the endpoints' level, in document order.
    Endpoints themselves are added by the caller, even when missing (they then dangle)."""
    parent, low, high = dotted_parent(first), natural_key(first), natural_key(last)
    return [n for n in numbers if dotted_parent(n) == parent and low < natural_key(n) < high]


# --- keywords ---------------------------------------------------------------------------------------


def _keywords(rules: list[ParsedRule], entries: list[_Entry]) -> list[ParsedKeyword]:
    section_titles = {entry.section: entry.heading or "" for entry in entries if not entry.parts}
    keywords = _heading_terms(rules, section_titles)
    keywords.extend(_bold_terms(rules))
    return keywords


def _heading_terms(rules: list[ParsedRule], section_titles: dict[str, str]) -> list[ParsedKeyword]:
    """Subsection headings of the Keywords section are keywords, those of a terms
    section glossary terms; a heading whose rules merely list other headings'
    names (E.1 Random Keyword) is a rule about keywords, not a keyword."""
    keywords = []
    for letter, title in section_titles.items():
        kind = _section_kind(title)
        if kind is None:
            continue
        headings = [(rule, rule.heading) for rule in rules if rule.parent == letter and rule.heading]
        names = {_term(heading).lower() for _, heading in headings}
        for rule, heading in headings:
            if _lists_other_headings(rule, heading, rules, names):
                continue
            term = _term(heading)
            aliases = [term.replace(" - ", "-")] if " - " in term else []
            keywords.append(ParsedKeyword(term, kind, rule.number, aliases))
    return keywords


def _section_kind(title: str) -> str | None:
    """A "Keywords" section holds keywords and "Specific Terms" glossary terms; "Common
    In - game terminology" holds phrases of card wording (Give ... this round), not terms."""
    if KEYWORD_SECTION.search(title):
        return "keyword"
    return "glossary term" if GLOSSARY_SECTION.search(title) else None


def _lists_other_headings(heading: ParsedRule, title: str, rules: list[ParsedRule], names: set[str]) -> bool:
    prefix = heading.number + "."
    listed = {plain_text(rule.raw_text).lower() for rule in rules if rule.number.startswith(prefix)}
    return len((listed & names) - {_term(title).lower()}) >= 2


def _term(heading: str) -> str:
    return heading.rstrip(":").strip()


def _bold_terms(rules: list[ParsedRule]) -> list[ParsedKeyword]:
    """``**bold**`` marks a defined term; the first rule that bolds it defines it."""
    keywords: dict[str, ParsedKeyword] = {}
    for rule in rules:
        for found in _BOLD.finditer(rule.raw_text):
            term = found["term"].strip()
            keywords.setdefault(term.lower(), ParsedKeyword(term, "defined term", rule.number))
    return list(keywords.values())
