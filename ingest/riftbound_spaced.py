"""Adapter for the Riftbound Core Rules as extracted in 2025-12-01 ("spaced" layout).

Each rule is ``NUMBER TEXT`` with a single space (``443.1.e. Each Unit …``) and,
usually, a blank line after every line. Damage this adapter handles by shape:

- a number printed without its trailing dot (``130.4 Effects …``) is read the same
  and reported as "malformed";
- the text's own list numbering after the rule number (``322.1. 1. If a player …``,
  ``322.3 2a. All Units …``, ``053.1. * Units …``) is kept as rule text;
- a line without a number (``See rule …``, ``Example: …``, ``e.g., …``, flattened
  list items such as ``1 opponent each``) continues the rule above it, blank lines
  or not: blank lines here are layout, not rule boundaries;
- a number printed twice is merged by ``ingest.outline.assemble`` (both texts kept);
- numbers that go backwards are reported and the outline is put in number order;
- a number with no text, even after its continuation lines, is reported as "empty";
- lines before the first rule (title, ``Last Updated:``) are the document header;
- a reference whose cited title is not its target's heading (``See rule 179. Control``
  where 179 is about tokens) is reported as "dangling": its number is probably stale.

Headings are found by shape (a short noun phrase, see ``looks_like_heading``); the
Keyword Glossary's entries are the titled top-level rules after its heading.

Canonical numbers are the printed ones without the trailing dot, leading zeros
kept (``053.1``); the parent drops the last component (``dotted_parent``).
"""

from __future__ import annotations

import re
from pathlib import Path

from ingest import riftbound_terms
from ingest.errors import IngestError
from ingest.model import ParsedRule, ParsedRulebook, ParseIssue, SkippedLine
from ingest.outline import account_for_lines, assemble, dotted_parent, natural_key
from ingest.riftbound_refs import cited_titles, find_references
from ingest.source import nonblank_count

# The title names the rulebook ("Riftbound Tournament Rules"): see ingest.header.rulebook_slug.
TITLED_RULEBOOKS = True

_RULE_LINE = re.compile(r"^(?P<number>\d{3}(?:\.(?:\d+|[a-z]))*)(?P<dot>\.?)(?:[ \t]+(?P<text>.*))?$")
_SPACED_RULE_LINE = re.compile(r"^\d{3}(?:\.(?:\d+|[a-z]))*\.? \S")
_TABBED_RULE_LINE = re.compile(r"^\d{3}(?:\.(?:\d+|[a-z]))*\.?\t")

# The text's own list numbering ("1. ", "2a. ") or bullet ("* ") after the rule number.
_LIST_MARKER = re.compile(r"^(?:\d+[a-z]?\.|\*)\s+")
# Words that open a condition or a list item ("After a Move is completed"), not a title.
_CONDITION_WORDS = {"if", "when", "after", "during", "while", "before", "until", "unless", "as", "each", "any", "all"}
# A title is a noun phrase: these verbs make a sentence ("Equip is formatted as …").
_SENTENCE_VERBS = {"is", "are", "has", "have", "can", "may", "must", "will", "does"}
_MAX_HEADING_WORDS = 6


def sniff(lines: list[str]) -> bool:
    """Most non-blank lines are ``NUMBER TEXT`` with three-digit Riftbound numbers and a space, not a tab."""
    nonblank = nonblank_count(lines)
    spaced = sum(1 for line in lines if _SPACED_RULE_LINE.match(line))
    tabbed = sum(1 for line in lines if _TABBED_RULE_LINE.match(line))
    return nonblank > 0 and spaced >= 10 and spaced >= nonblank / 2 and tabbed * 10 < spaced


def parse(lines: list[str], path: Path) -> ParsedRulebook:
    issues: list[ParseIssue] = []
    skipped: list[SkippedLine] = []
    printed = _read_rules(lines, path, issues, skipped)
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


def _read_rules(lines: list[str], path: Path, issues: list[ParseIssue], skipped: list[SkippedLine]) -> list[ParsedRule]:
    """One rule per numbered line; every unnumbered line continues the rule above it."""
    rules: list[ParsedRule] = []
    for index, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        match = _RULE_LINE.match(line)
        if match:
            rules.append(_rule_from(match, index, issues))
        elif rules:
            _continue(rules[-1], line, index)
        else:
            skipped.append(SkippedLine(index, line, "document header"))
    if not rules:
        first = next(((index, line) for index, line in enumerate(lines, start=1) if line.strip()), (None, None))
        raise IngestError(path, first[0], "numbered Riftbound rules such as '101. Deck Construction'", first[1])
    return rules


def _rule_from(match: re.Match, index: int, issues: list[ParseIssue]) -> ParsedRule:
    number = match.group("number")
    if not match.group("dot"):
        issues.append(
            ParseIssue("malformed", f"{number} is printed without its trailing dot", line=index, number=number)
        )
    return ParsedRule(
        number=number,
        raw_text=(match.group("text") or "").strip(),
        lines=[index],
        printed_number=number + match.group("dot"),
    )


def _continue(rule: ParsedRule, line: str, index: int) -> None:
    text = line.strip()
    rule.raw_text = f"{rule.raw_text}\n{text}" if rule.raw_text else text
    rule.lines.append(index)


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
            issues.append(ParseIssue("empty", f"{rule.number} has no text", line=rule.lines[0], number=rule.number))


def _mark_headings(rules: list[ParsedRule]) -> None:
    parents = {rule.parent for rule in rules}
    for rule in rules:
        first_line = rule.raw_text.split("\n", 1)[0].strip()
        if looks_like_heading(first_line, has_children=rule.number in parents):
            rule.heading = first_line


def looks_like_heading(text: str, *, has_children: bool) -> bool:
    """A short title (``Cleanups``, ``Step 2: The Combat Damage Step``, ``1v1 (Duel)``), not a sentence
    or a list item (``2 Players``, ``Victory Score: 8``, ``After a Move is completed``).

    A title carried under the text's own list numbering (``389. 1. Activate or trigger the Ability``)
    is a heading only when rules sit under it; otherwise it is a step of a procedure.
    """
    title = _LIST_MARKER.sub("", text)
    if title != text and not has_children:
        return False
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
            if target is not None and not _same_title(title, target.heading or ""):
                found = target.heading or target.raw_text.split("\n", 1)[0]
                issues.append(
                    ParseIssue(
                        "dangling",
                        f"{rule.number} cites rule {number} as {title!r}, but {number} reads {found!r}",
                        line=rule.lines[0],
                        number=rule.number,
                    )
                )


def _same_title(cited: str, heading: str) -> bool:
    def normal(text: str) -> str:
        words = re.sub(r"[^\w\s]", "", text.lower()).split()
        return " ".join(words[1:] if words[:1] == ["the"] else words)

    return normal(cited) == normal(heading)
