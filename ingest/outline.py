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
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from ingest.model import ParsedRule, ParseIssue, SkippedLine

ParentOf = Callable[[str], "str | None"]

_RUN = re.compile(r"\d+|[A-Za-z]+")


@lru_cache(maxsize=1 << 16)  # a build sorts and compares the same numbers many times over
def natural_key(number: str) -> tuple:
    """Sort key for dotted numbers: ``103.2`` < ``103.10`` < ``103.10.a``.

    Leading zeros are kept in the number but ignored in the order (``053`` = 53).
    """
    return tuple(_run_key(run) for run in _RUN.findall(number))


def _run_key(run: str) -> tuple[int, int, str]:
    """A run of digits orders by its value (compared as its length without leading zeros, then its digits:
    no conversion to ``int``, so a number of any length sorts), a run of letters after every number."""
    if run.isdigit():
        digits = run.lstrip("0")
        return (0, len(digits), digits)
    return (1, 0, run.lower())


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
    merged = _parents_first(merged, parent_of, known, issues)
    for rule in merged:
        rule.parent = parent_of(rule.number)
        rule.depth = _depth(rule.number, parent_of)
        if rule.parent is not None and rule.parent not in known:
            issues.append(
                ParseIssue.about(rule, "orphan", f"parent {rule.parent} of {rule.number} is not in the document")
            )
    return merged


def _parents_first(
    rules: list[ParsedRule], parent_of: ParentOf, known: set[str], issues: list[ParseIssue]
) -> list[ParsedRule]:
    """The rules with every rule after its parent (the database refers to a parent by its row): a rule printed
    before its parent is moved to just after it (with its own children), and reported."""
    waiting: dict[str, list[ParsedRule]] = {}  # parent number -> rules printed before it
    placed: set[str] = set()
    ordered: list[ParsedRule] = []
    for rule in rules:
        parent = parent_of(rule.number)
        if parent in known and parent not in placed:
            waiting.setdefault(parent, []).append(rule)
            issues.append(
                ParseIssue.about(
                    rule, "reordered", f"{rule.number} is printed before its parent {parent}; moved after it"
                )
            )
            continue
        stack = [rule]
        while stack:
            current = stack.pop()
            ordered.append(current)
            placed.add(current.number)
            stack.extend(reversed(waiting.pop(current.number, [])))
    return ordered


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
    rules = list(rules)
    used = {line for rule in rules for line in rule.lines} | set(consumed_elsewhere)
    used |= {entry.line for entry in skipped}
    for index, text in enumerate(lines, start=1):
        if text.strip() and index not in used:
            skipped.append(SkippedLine(index, text, UNRECOGNISED))
    return sorted(_contents_checked(skipped, rules), key=lambda entry: entry.line)


CONTENTS = "table of contents"
_LISTED_NUMBER = re.compile(r"\d+(?:\.[0-9A-Za-z]+)*")


def _contents_checked(skipped: list[SkippedLine], rules: list) -> list[SkippedLine]:
    """A table of contents lists numbers the body has: an entry whose number no rule has was not recognised
    (a rulebook whose rules all look like entries is not 100% read because its lines were set aside)."""
    numbers: set[str] = {number for rule in rules if (number := getattr(rule, "number", None))}
    if not numbers:
        return skipped
    return [
        SkippedLine(entry.line, entry.text, UNRECOGNISED)
        if entry.reason == CONTENTS and not _lists_a_rule(entry.text, numbers)
        else entry
        for entry in skipped
    ]


def _lists_a_rule(text: str, numbers: set[str]) -> bool:
    listed = _LISTED_NUMBER.search(text)
    return listed is None or listed.group() in numbers


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


# -- reading numbered lines in any extraction ----------------------------------------------------
#
# One outline reaches us in many extractions: a tab or spaces after the number, the number with or
# without its trailing dot, the line indented, led by a markdown heading mark, a list bullet or a
# blockquote, the number in bold or inside an HTML tag, an entity (&nbsp;) for the space. These
# helpers read past that decoration so that every extraction of one outline gives the same rules.

# Any space, the invisible ones too (zero-width space, word joiner, byte-order mark: web and PDF copies).
_BLANK = r"(?:[^\S\n]|[\u200b\u2060\ufeff])"
# One token per character or mark, so that a long run of them is read one way only (a pattern that can
# split a run of spaces many ways takes exponential time on a line that turns out not to be numbered), and
# possessive ("*+", "++") where two quantifiers meet on white space, so a line that does not match fails in
# linear time.
_DECORATION = rf"(?:{_BLANK}|#{{1,6}}(?={_BLANK})|>|[-+*\u2022\u25cf\u25aa](?={_BLANK})|\*\*|__|<[A-Za-z/][^<>]*>)*+"
_CLOSING = r"(?:\*\*|__|</[A-Za-z][A-Za-z0-9]*>)*"
_SEPARATOR = rf"(?:{_BLANK}|&nbsp;|&#160;|&#[xX]0*[aA]0;)++"


@dataclass(frozen=True)
class NumberedLine:
    """A line that starts with a rule number: ``text`` is what follows the number, as received."""

    line: int  # 1-based
    number: str  # without the trailing dot
    dotted: bool  # printed with its trailing dot
    text: str


def numbered_line_pattern(number: str) -> re.Pattern:
    """A pattern for lines that start with a number of the given shape (a regex without groups),
    whatever decoration surrounds it."""
    return re.compile(rf"^{_DECORATION}(?P<number>{number})(?P<dot>\.?){_CLOSING}(?:{_SEPARATOR}(?P<text>.*))?$")


def read_numbered(index: int, line: str, pattern: re.Pattern) -> NumberedLine | None:
    match = pattern.match(line)
    if match is None:
        return None
    return NumberedLine(index, match.group("number"), bool(match.group("dot")), (match.group("text") or "").strip())


def undecorated(line: str) -> str:
    """An unnumbered line without its indentation or heading marks. List bullets are kept (they start a
    paragraph of the rule's text), and so is a leading ">": a wrapped line can start with one
    ("[> A > B\n> C >]" in the Core Rules' turn queues)."""
    return re.sub(rf"^(?:{_BLANK}|#{{1,6}}(?={_BLANK}))+", "", line).rstrip()


def next_component(component: str) -> str:
    return str(int(component) + 1) if component.isdigit() else chr(ord(component) + 1)


def follows(previous: str | None, number: str) -> bool:
    """Whether ``number`` can come right after ``previous`` in a dotted outline: its first child
    (``.1``, ``.a``), the next sibling of it or of one of its ancestors, or a later top-level number
    (top-level numbers skip: 056 is followed by 100)."""
    if previous is None:
        return True
    before, after = previous.split("."), number.split(".")
    if len(after) == 1:
        return after[0].isdigit() and before[0].isdigit() and int(after[0]) > int(before[0])
    if after[:-1] == before and after[-1] in ("0", "1", "a"):
        return True
    if len(after) > len(before):
        return False
    ancestor = before[: len(after)]
    return after[:-1] == ancestor[:-1] and after[-1] == next_component(ancestor[-1])


# A line that stops mid-sentence: on a word in lower case ("... a player could choose"), a comma, an
# opening bracket or a dash, or the word that introduces a rule number ("See rule"). A title ends on a
# capitalised word ("Deck Construction") and a sentence on its stop.
_RUNS_ON = re.compile(r"(?:(?<![\w'\u2019-])[a-z][\w'\u2019-]*|[,;(\[/\u2013\u2014-]|\b(?:[Rr]ules?|[Ss]ee|CR))$")


def runs_on(text: str) -> bool:
    # Every match lies within the last word (the class of its characters and the words it names hold no space,
    # and a space before the word passes its look-behind as the start of the text does): searched alone, a line
    # costs a fifth of searching the whole line, which the parse does for every line.
    words = text.rsplit(maxsplit=1)
    return bool(words) and bool(_RUNS_ON.search(words[-1]))


# A continuation line that starts a new paragraph of its rule rather than carrying on a wrapped line.
_PARAGRAPH_START = re.compile(
    r"^(?:Examples?\b|See\b|Note\b|Reminder\b|e\.g\.|i\.e\.|[-+*\u2022\u25cf\u25aa][ \t]|\d{1,2}[a-z]?\.[ \t])"
)


def starts_paragraph(text: str) -> bool:
    return bool(_PARAGRAPH_START.match(text))


def join_continuation(text: str, continuation: str, *, wrapped: bool) -> str:
    """A rule's text with a continuation line added: a new paragraph ("\\n") when the line starts one
    or the layout prints one line per paragraph, else the same paragraph (a space; nothing after a
    hyphen that ends a wrapped line: "non-" + "Board" is "non-Board"; and a word a PDF broke over two
    lines is whole again: "happ-" + "ens." is "happens.")."""
    if not text:
        return continuation
    if starts_paragraph(continuation) or not wrapped:
        return f"{text}\n{continuation}"
    if text.endswith("-") and text[-2:-1].isalpha():
        broken_word = text[-2:-1].islower() and continuation[:1].islower()
        return (text[:-1] if broken_word else text) + continuation
    return f"{text} {continuation}"
