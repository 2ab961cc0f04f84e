"""Adapter for the Pox Nora rules summary: an outline of ``N. Title`` sections,
``- a.`` items and `` - i.`` sub-items.

Labels restart in every section, so canonical numbers are synthesised from
context: ``3. Attack Types`` -> ``3``, ``- d.`` under it -> ``3.d``, `` - ii.``
under that -> ``3.d.ii``. ``i`` is both a letter and a roman numeral; the
leading space before the dash, not the label, says which level an item is on.

Whatever follows the last outline line after a blank line (the chart appendix:
chart titles, examples, image gaps) is not in the outline and is skipped.
"""

from __future__ import annotations

import re
from pathlib import Path

from ingest.errors import IngestError
from ingest.model import ParsedKeyword, ParsedRule, ParsedRulebook, ParseIssue, SkippedLine
from ingest.outline import account_for_lines, assemble, dotted_parent
from ingest.source import nonblank_count
from ingest.text import plain_text

_SECTION = re.compile(r"^(?P<number>\d+)\.\s+(?P<title>\S.*?)\s*$")
_ITEM = re.compile(r"^(?P<indent>\s*+)-\s++(?P<label>[a-z]+)\.\s++(?P<text>(?:.*\S)?)\s*$")
_ROMAN = re.compile(r"^(?=[ivxl])l?x{0,3}(?:ix|iv|v?i{0,3})$")
# "Attack Chain: ...", "Failed -- ...": a short capitalised name opening an item, then ':' or '--'.
_INLINE_TERM = re.compile(r"^(?P<term>[A-Z][\w'-]*(?: [A-Z][\w'-]*){0,2})\s*(?::|--)\s")

APPENDIX = "appendix after the last numbered section (charts and examples, not rules)"


def sniff(lines: list[str]) -> bool:
    """Numbered section titles with dash-lettered items under them (``- a.``)."""
    sections = sum(1 for line in lines if _SECTION.match(line))
    items = sum(1 for line in lines if (found := _ITEM.match(line)) and not found["indent"])
    return sections >= 2 and items >= sections


def parse(lines: list[str], path: Path) -> ParsedRulebook:
    issues: list[ParseIssue] = []
    skipped: list[SkippedLine] = []
    rules = _read_outline(lines, skipped, issues)
    if not rules:
        first = next((text for text in lines if text.strip()), None)
        raise IngestError(path, None, "numbered sections (N. Title) with lettered items", first)
    rules = assemble(rules, dotted_parent, issues)
    return ParsedRulebook(
        rules=rules,
        keywords=_inline_terms(rules),
        skipped=account_for_lines(lines, rules, skipped),
        issues=issues,
        nonblank_lines=nonblank_count(lines),
    )


def _read_outline(lines: list[str], skipped: list[SkippedLine], issues: list[ParseIssue]) -> list[ParsedRule]:
    rules: list[ParsedRule] = []
    section: str | None = None
    item: str | None = None
    end = _outline_end(lines)
    after_blank = in_appendix = False
    for index, raw in enumerate(lines, start=1):
        if not raw.strip():
            after_blank = True
            continue
        # Past the outline, only a line glued to the last item (no blank line) continues it.
        in_appendix = in_appendix or (index > end and after_blank)
        after_blank = False
        if in_appendix:
            skipped.append(SkippedLine(index, raw, APPENDIX))
            continue
        if found := _SECTION.match(raw):
            section, item = found["number"], None
            rules.append(
                ParsedRule(
                    section, found["title"], [index], heading=plain_text(found["title"]), printed_number=f"{section}."
                )
            )
        elif (found := _ITEM.match(raw)) and section is not None:
            number = _item_number(found, section, item, index, issues)
            if not found["indent"]:
                item = number
            rules.append(ParsedRule(number, found["text"], [index], printed_number=f"{found['label']}."))
        elif rules:
            rules[-1].raw_text = f"{rules[-1].raw_text}\n{raw.strip()}"
            rules[-1].lines.append(index)
        else:
            skipped.append(SkippedLine(index, raw, "front matter before the first section"))
    return rules


def _outline_end(lines: list[str]) -> int:
    """The last line that is a section title or an item (0 when there is none)."""
    return max(
        (index for index, raw in enumerate(lines, start=1) if _SECTION.match(raw) or _ITEM.match(raw)), default=0
    )


def _item_number(found: re.Match, section: str, item: str | None, line: int, issues: list[ParseIssue]) -> str:
    label = found["label"]
    if not found["indent"]:
        if len(label) != 1:
            issues.append(ParseIssue("malformed", f"item label {label!r} is not a single letter", line=line))
        return f"{section}.{label}"
    if not _ROMAN.match(label):
        issues.append(ParseIssue("malformed", f"sub-item label {label!r} is not a roman numeral", line=line))
    if item is None:
        issues.append(
            ParseIssue("orphan", f"sub-item {label}. comes before any lettered item of section {section}", line=line)
        )
        return f"{section}.{label}"
    return f"{item}.{label}"


def _inline_terms(rules: list[ParsedRule]) -> list[ParsedKeyword]:
    """Items that open with a short capitalised name and a colon or ``--``
    (``Attack Chain: ...``, ``Failed -- ...``) define that name. A colon later in
    the text (``Resistance: Physical``) defines nothing."""
    terms: dict[str, ParsedKeyword] = {}
    for rule in rules:
        found = _INLINE_TERM.match(rule.raw_text) if rule.heading is None else None
        if found:
            terms.setdefault(found["term"], ParsedKeyword(found["term"], "defined term", rule.number))
    return list(terms.values())
