"""The outline logic every rulebook adapter shares.

Adapters find numbered lines and attach text; this module turns that list into
an outline: rule-number order where the printed order is damaged, parents and
depths from a numbering scheme, duplicate numbers merged and reported, orphans
reported, and every non-blank line accounted for (ingested or skipped with a
reason).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Protocol

from ingest.model import ParsedRule, ParseIssue, SkippedLine

ParentOf = Callable[[str], "str | None"]

_RUN = re.compile(r"\d+|[A-Za-z]+")


def natural_key(number: str) -> tuple:
    """Sort key for dotted numbers: ``103.2`` < ``103.10`` < ``103.10.a``.

    Leading zeros are kept in the number but ignored in the order (``053`` = 53).
    """
    return tuple((0, int(run), "") if run.isdigit() else (1, 0, run.lower()) for run in _RUN.findall(number))


def dotted_parent(number: str) -> str | None:
    """Parent under the common scheme: drop the last dotted component."""
    head, dot, _ = number.rpartition(".")
    return head if dot else None


def assemble(
    rules: list[ParsedRule],
    parent_of: ParentOf,
    issues: list[ParseIssue],
    *,
    reorder: bool = False,
) -> list[ParsedRule]:
    """Merge duplicate numbers, optionally sort into number order, set parent
    and depth, and report orphans. Returns the rules in their final order."""
    merged = _merge_duplicates(rules, issues)
    if reorder:
        merged = _number_order(merged, issues)
    known = {rule.number for rule in merged}
    for rule in merged:
        rule.parent = parent_of(rule.number)
        rule.depth = _depth(rule.number, parent_of)
        if rule.parent is not None and rule.parent not in known:
            issues.append(
                ParseIssue(
                    "orphan",
                    f"parent {rule.parent} of {rule.number} is not in the document",
                    line=rule.lines[0] if rule.lines else None,
                    number=rule.number,
                )
            )
    return merged


def _depth(number: str, parent_of: ParentOf) -> int:
    depth, parent = 0, parent_of(number)
    while parent is not None:
        depth, parent = depth + 1, parent_of(parent)
    return depth


def _merge_duplicates(rules: list[ParsedRule], issues: list[ParseIssue]) -> list[ParsedRule]:
    """A number printed twice keeps one row holding both texts; the duplicate is reported."""
    by_number: dict[str, ParsedRule] = {}
    for rule in rules:
        first = by_number.get(rule.number)
        if first is None:
            by_number[rule.number] = rule
            continue
        issues.append(
            ParseIssue(
                "duplicate",
                f"{rule.number} is printed twice (lines {first.lines[0]} and {rule.lines[0]}); both texts kept",
                line=rule.lines[0],
                number=rule.number,
            )
        )
        if rule.raw_text and rule.raw_text != first.raw_text:
            first.raw_text = f"{first.raw_text}\n{rule.raw_text}" if first.raw_text else rule.raw_text
        first.lines.extend(rule.lines)
    return list(by_number.values())


def _number_order(rules: list[ParsedRule], issues: list[ParseIssue]) -> list[ParsedRule]:
    ordered = sorted(rules, key=lambda rule: natural_key(rule.number))
    moved = [rule for rule, original in zip(ordered, rules) if rule is not original]
    if moved:
        issues.append(
            ParseIssue("reordered", f"{len(moved)} rules were printed out of number order and were put back in order")
        )
    return ordered


class Consumes(Protocol):
    """An entry parsed from source lines (a rule, a ruling)."""

    lines: list[int]


def account_for_lines(
    lines: list[str], rules: Iterable[Consumes], skipped: list[SkippedLine], consumed_elsewhere: Iterable[int] = ()
) -> list[SkippedLine]:
    """Every non-blank line is ingested or skipped with a reason: anything the
    adapter neither used nor skipped is added as "not recognised"."""
    used = {line for rule in rules for line in rule.lines} | set(consumed_elsewhere)
    used |= {entry.line for entry in skipped}
    for index, text in enumerate(lines, start=1):
        if text.strip() and index not in used:
            skipped.append(SkippedLine(index, text, UNRECOGNISED))
    return sorted(skipped, key=lambda entry: entry.line)


UNRECOGNISED = "not recognised as a rule, heading or continuation"


def coverage(nonblank_lines: int, skipped: list[SkippedLine]) -> float:
    """Share of non-blank lines the parser accounted for: ingested, or skipped
    for a reason it recognised (a table of contents, a document header, an
    extraction fragment). Lines it could not place at all count against it."""
    if nonblank_lines == 0:
        return 0.0
    return 1 - len({entry.line for entry in skipped if entry.reason == UNRECOGNISED}) / nonblank_lines


def ingested_share(nonblank_lines: int, skipped: list[SkippedLine]) -> float:
    """Share of non-blank lines stored as rules, headings or ruling parts."""
    if nonblank_lines == 0:
        return 0.0
    return 1 - len({entry.line for entry in skipped}) / nonblank_lines
