"""Repairs for the damaged Riftbound extraction of 2025-06-02: ``NUMBER<TAB>TEXT``, one rule per line.

``ingest.riftbound`` (the family adapter) reads a document here when its layout is this one: one rule
per line, continuation lines marked by a leading tab, so that an unmarked line is a rule that lost its
number.

Every rule is one line, ``626.1.d.1.a.<TAB>text``; the number is printed with a
trailing dot, which the canonical number drops (leading zeros stay: ``053.1``).
The extraction that produced the file damaged it in ways that recur, so each
repair here is a rule about the *shape* of the damage (HAZARDS.md section 4):

- Page-sized blocks (runs of lines between blank lines) were printed bottom to
  top. A block whose numbers mostly descend is read from its last line up; in
  that reading order a line without a number continues the rule before it.
- A numbered line whose text starts in lower case carries the tail of the rule
  read before it (the text slipped one line against the numbers).
- A damaged number (``E07.2 h``, ``5045``) gives its text to the next number if
  that one was printed empty, else to the rule being read.
- ``58 9 .2.a.`` read without spaces repeats the rule being read: a continuation.
- Two numbers before one tab (``510.4. 511.``) are two rules sharing the text.
- A number printed out of sequence is a corrected duplicate of the rule before
  it (same text), garbage (no text), or a mislabel (``511`` printed twice, where
  ``512`` is missing and ``512.1`` follows).
- A sentence glued before the ``Label:`` of a rule whose siblings are all
  labelled (642.5 ``… players. Setup: …``) is the next child of the sibling before.
- Lines without a tab that start in upper case are rules whose numbers were
  lost (the Combat section), renumbered from the shape of their sentences (see
  ``_recover_unnumbered``); lines without a tab that start in lower case are
  right-edge clippings of lost text, skipped.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from rapidfuzz import fuzz

from ingest import riftbound_terms
from ingest.errors import IngestError
from ingest.model import ParsedRule, ParsedRulebook, ParseIssue, SkippedLine
from ingest.outline import account_for_lines, assemble, dotted_parent, natural_key
from ingest.riftbound_refs import find_references
from ingest.source import nonblank_count

_NUMBER = re.compile(r"\d{3}(?:\.(?:\d+|[a-z]))*\.?")
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"”]?\s+(?=[\"“]?[A-Z<])")
_GLUED_SENTENCES = re.compile(r"(?<=[a-z\s]\.)(?=[A-Z][a-z])")
_LABELLED = re.compile(r"[A-Z][\w']*(?: (?:of|the|and|[A-Z][\w']*)){0,3}: ")
_NOT_LABELS = {"Example", "Examples", "Reminder", "Note"}  # inline asides, not list labels
_SMALL_WORDS = {"a", "an", "and", "as", "at", "by", "for", "in", "of", "on", "or", "the", "to", "vs", "with"}
_NEAR_DUPLICATE = 90  # rapidfuzz ratio above which two texts are one rule's text (typo fixed)


def parse(lines: list[str], path: Path) -> ParsedRulebook:
    """Rules in number order with parents, keywords, references, skipped lines and issues."""
    if not any(_numbered_prefix(line) is not None for line in lines):
        raise IngestError(path, None, "rule lines of the form 'NUMBER.<TAB>text'", lines[0] if lines else None)
    reader = _Reader(lines)
    for index in _reading_order(lines):
        reader.read(index)
    reader.finish()
    issues = reader.issues
    rules = _repair_numbering(reader.rules, reader.skipped, issues)
    rules = _recover_unnumbered(rules, reader.skipped, issues)
    rules = _split_labelled_merges(rules, issues)
    for rule in rules:
        rule.heading = heading_of(rule.raw_text)
    # Parent = drop the last component; so chapters 100/500/700 never parent 101/501/701.
    rules = assemble(rules, dotted_parent, issues, reorder=True)
    references = [reference for rule in rules for reference in find_references(rule.number, rule.raw_text)]
    return ParsedRulebook(
        rules=rules,
        references=references,
        keywords=riftbound_terms.keywords(rules),
        skipped=account_for_lines(lines, rules, reader.skipped),
        issues=issues,
        nonblank_lines=nonblank_count(lines),
    )


def canonical(printed: str) -> str:
    """``053.1.`` -> ``053.1``: the printed number without its trailing dot."""
    return printed.strip().rstrip(".")


def heading_of(text: str) -> str | None:
    """The text itself when it is a short title: a few capitalised words, no sentence punctuation."""
    title = text.strip()
    words = title.split()
    if not words or len(words) > 6 or len(title) > 40 or re.search(r"[.,;:!?\"]", title):
        return None
    if not title[0].isalpha():
        return None
    return title if all(word[0].isupper() or word[0] in "([" or word in _SMALL_WORDS for word in words) else None


# -- reading order ---------------------------------------------------------------------------


def _numbered_prefix(line: str) -> str | None:
    """The well-formed number before the tab, or None."""
    prefix, tab, _ = line.partition("\t")
    return prefix if tab and _NUMBER.fullmatch(prefix) else None


def _reading_order(lines: list[str]) -> list[int]:
    """1-based line numbers in the order the text was written: blocks printed
    bottom-to-top (their numbers mostly descend) are read from the last line up."""
    order: list[int] = []
    for block in _blocks(lines):
        order.extend(reversed(block) if _is_reversed(block, lines) else block)
    return order


def _blocks(lines: list[str]) -> list[list[int]]:
    blocks: list[list[int]] = [[]]
    for index, text in enumerate(lines, start=1):
        if text.strip():
            blocks[-1].append(index)
        elif blocks[-1]:
            blocks.append([])
    return [block for block in blocks if block]


def _is_reversed(block: list[int], lines: list[str]) -> bool:
    keys = [
        natural_key(canonical(prefix)) for index in block if (prefix := _numbered_prefix(lines[index - 1])) is not None
    ]
    pairs = list(zip(keys, keys[1:]))
    descending = sum(1 for before, after in pairs if before > after)
    return descending >= 2 and descending > len(pairs) - descending


# -- reading lines into rules ----------------------------------------------------------------


@dataclass
class _Pending:
    """Text whose number was printed as garbage, waiting for its owner."""

    line: int
    text: str


class _Reader:
    """Turns lines, in reading order, into rules; ``number`` is "" for a rule
    whose number was lost (recovered later)."""

    def __init__(self, lines: list[str]):
        self.lines = lines
        self.rules: list[ParsedRule] = []
        self.skipped: list[SkippedLine] = []
        self.issues: list[ParseIssue] = []
        self.pending: _Pending | None = None

    @property
    def current(self) -> ParsedRule | None:
        return self.rules[-1] if self.rules else None

    def read(self, index: int) -> None:
        line = self.lines[index - 1]
        prefix, tab, text = line.partition("\t")
        if not tab:
            self._untabbed(index, line.strip())
        elif not prefix.strip():
            self._continuation(index, text.strip())
        elif _NUMBER.fullmatch(prefix):
            self._numbered(index, prefix, text.strip())
        else:
            self._damaged_number(index, prefix, text.strip())

    def finish(self) -> None:
        self._flush_pending()

    def _untabbed(self, index: int, text: str) -> None:
        if not self.rules:
            self._skip(index, text, "document header")
        elif text[0].islower():
            self._skip(index, text, "clipped fragment of lost text (no number, starts mid-word)", "garbage")
        else:
            parts = _GLUED_SENTENCES.split(text)
            if len(parts) > 1:
                self.issues.append(
                    ParseIssue("malformed", "rules glued on one line (no space after a stop) were split", index)
                )
            self.rules.extend(ParsedRule("", part.strip(), [index]) for part in parts)

    def _continuation(self, index: int, text: str) -> None:
        if not re.search(r"\w", text):
            self._skip(index, text, "garbage: punctuation only", "garbage")
        elif self.current is None:
            self._skip(index, text, "text before the first rule")
        else:
            self._append(self.current, index, text)

    def _numbered(self, index: int, prefix: str, text: str) -> None:
        number = canonical(prefix)
        if not prefix.endswith("."):
            self.issues.append(ParseIssue("malformed", f"{number} is printed without its trailing dot", index, number))
        if self.pending is not None and not text:
            self.issues.append(
                ParseIssue(
                    "empty",
                    f"{number} is printed empty; its text is the line with the damaged number ({self.pending.line})",
                    index,
                    number,
                )
            )
            self.rules.append(ParsedRule(number, self.pending.text, [self.pending.line, index], printed_number=prefix))
            self.pending = None
            return
        self._flush_pending()
        if _GLUED_SENTENCES.search(text):
            self.issues.append(
                ParseIssue(
                    "malformed", f"two sentences of {number} are glued without a space; kept as one rule", index, number
                )
            )
        if text[:1].islower() and self.current is not None and (split := _split_misaligned(text)) is not None:
            tail, text = split
            self._append(self.current, index, tail)
            self.issues.append(
                ParseIssue(
                    "malformed",
                    f"text of {number} starts with the tail of {self.current.number}; realigned",
                    index,
                    number,
                )
            )
        self.rules.append(ParsedRule(number, text, [index], printed_number=prefix))

    def _damaged_number(self, index: int, prefix: str, text: str) -> None:
        numbers = prefix.split()
        compact = prefix.replace(" ", "")
        if len(numbers) > 1 and all(_NUMBER.fullmatch(number) for number in numbers):
            self._two_rules_one_line(index, numbers, text)
        elif _NUMBER.fullmatch(compact) and self.current is not None and canonical(compact) == self.current.number:
            self.issues.append(
                ParseIssue(
                    "malformed",
                    f"{prefix!r} repeats {self.current.number}: its text continues that rule",
                    index,
                    self.current.number,
                )
            )
            self._append(self.current, index, text)
        elif _NUMBER.fullmatch(compact):
            self.issues.append(ParseIssue("malformed", f"number {prefix!r} read as {canonical(compact)}", index))
            self._numbered(index, compact, text)
        else:
            self.issues.append(ParseIssue("garbage", f"garbage number {prefix!r}; its text is kept", index))
            self._flush_pending()
            self.pending = _Pending(index, text)

    def _two_rules_one_line(self, index: int, numbers: list[str], text: str) -> None:
        first, second = _split_last_sentence(text)
        self.issues.append(
            ParseIssue(
                "malformed",
                f"two rules on one line ({' '.join(numbers)}); text split at its last sentence",
                index,
                canonical(numbers[0]),
            )
        )
        self.rules.append(ParsedRule(canonical(numbers[0]), first, [index], printed_number=numbers[0]))
        self.rules.append(ParsedRule(canonical(numbers[1]), second, [index], printed_number=numbers[1]))

    def _flush_pending(self) -> None:
        if self.pending is not None and self.current is not None:
            self._append(self.current, self.pending.line, self.pending.text)
        elif self.pending is not None:
            self._skip(self.pending.line, self.pending.text, "text with a garbage number before the first rule")
        self.pending = None

    def _append(self, rule: ParsedRule, index: int, text: str) -> None:
        rule.raw_text = f"{rule.raw_text}\n{text}" if rule.raw_text else text
        if index not in rule.lines:
            rule.lines.append(index)

    def _skip(self, index: int, text: str, reason: str, issue_kind: str | None = None) -> None:
        self.skipped.append(SkippedLine(index, text, reason))
        if issue_kind:
            self.issues.append(ParseIssue(issue_kind, f"line skipped: {reason}", index))


def _split_misaligned(text: str) -> tuple[str, str] | None:
    """A line that starts mid-sentence: its head is the tail of the rule before.

    When the line also ends mid-sentence, the rule's own text is the last
    sentence (it runs on into the next line); otherwise the tail is the first
    sentence. A line of one sentence is left alone (None)."""
    boundaries = [match.end() for match in _SENTENCE_END.finditer(text)]
    if not boundaries:
        return None
    cut = boundaries[-1] if not re.search(r"[.!?\"”)]$", text) else boundaries[0]
    return text[:cut].strip(), text[cut:].strip()


def _split_last_sentence(text: str) -> tuple[str, str]:
    boundaries = [match.end() for match in _SENTENCE_END.finditer(text)]
    if not boundaries:
        return text, ""
    return text[: boundaries[-1]].strip(), text[boundaries[-1] :].strip()


# -- numbering repairs -----------------------------------------------------------------------


def _repair_numbering(
    rules: list[ParsedRule], skipped: list[SkippedLine], issues: list[ParseIssue]
) -> list[ParsedRule]:
    """Numbers printed out of sequence: a corrected duplicate of the rule before
    (same text), garbage (no text), or a top-level number printed again where
    the next number is missing and its children follow (a mislabel)."""
    printed = {rule.number for rule in rules if rule.number}
    kept: list[ParsedRule] = []
    for position, rule in enumerate(rules):
        before = kept[-1] if kept else None
        following = [later for later in rules[position + 1 : position + 4] if later.number][:2]
        after = following[0] if following else None
        if not rule.number or not _out_of_sequence(rule, before, following):
            if rule.number and not rule.raw_text:
                issues.append(ParseIssue.about(rule, "empty", f"{rule.number} is printed without text"))
            kept.append(rule)
        elif before and rule.raw_text and fuzz.ratio(rule.raw_text, before.raw_text) >= _NEAR_DUPLICATE:
            issues.append(
                ParseIssue.about(
                    rule,
                    "duplicate",
                    f"{rule.number} repeats the text of {before.number} (a corrected copy); merged into it",
                )
            )
            before.raw_text += "\n" + rule.raw_text
            before.lines.extend(rule.lines)
        elif not rule.raw_text:
            issues.append(ParseIssue.about(rule, "garbage", f"empty number {rule.number} out of sequence; skipped"))
            skipped.append(
                SkippedLine(rule.lines[0], rule.printed_number or rule.number, "garbage: empty number out of sequence")
            )
        elif (renamed := _mislabel_fix(rule, after, printed)) is not None:
            issues.append(
                ParseIssue(
                    "malformed",
                    f"{rule.number} is printed again where {renamed} is missing and its children follow; renumbered {renamed}",
                    rule.lines[0],
                    renamed,
                )
            )
            rule.number, rule.inferred = renamed, True
            kept.append(rule)
        else:
            issues.append(ParseIssue.about(rule, "malformed", f"{rule.number} is printed out of sequence"))
            kept.append(rule)
    return kept


def _out_of_sequence(rule: ParsedRule, before: ParsedRule | None, following: list[ParsedRule]) -> bool:
    """Not above the rule before it, or above both rules after it (one stray
    number after a rule must not make that rule look out of place)."""
    key = natural_key(rule.number)
    too_low = before is not None and before.number and key <= natural_key(before.number)
    too_high = bool(following) and all(key >= natural_key(later.number) for later in following)
    return bool(too_low or too_high)


def _mislabel_fix(rule: ParsedRule, after: ParsedRule | None, printed: set[str]) -> str | None:
    if "." in rule.number or after is None:
        return None
    following = f"{int(rule.number) + 1:0{len(rule.number)}d}"
    if following not in printed and after.number.startswith(following + "."):
        return following
    return None


def _split_labelled_merges(rules: list[ParsedRule], issues: list[ParseIssue]) -> list[ParsedRule]:
    """Siblings that all start ``Label: …`` and one that starts with a sentence
    before its label: that sentence is the last child of the previous sibling,
    merged into this line (642.4.b glued to 642.5)."""
    numbers = {rule.number for rule in rules}
    children: dict[str | None, list[ParsedRule]] = defaultdict(list)  # built once: looking siblings up is linear
    for rule in rules:
        if rule.number:
            children[dotted_parent(rule.number)].append(rule)
    result: list[ParsedRule] = []
    for rule in rules:
        label = _LABELLED.search(rule.raw_text)
        if (
            label is None
            or label.start() == 0
            or label.group().rstrip(": ") in _NOT_LABELS
            or not rule.raw_text[: label.start()].rstrip().endswith(".")
            or not _siblings_labelled(rule, children[dotted_parent(rule.number)])
        ):
            result.append(rule)
            continue
        previous = _previous_sibling(rule.number, numbers)
        if previous is None:
            result.append(rule)
            continue
        child = _next_child(previous, numbers)
        numbers.add(child)
        head, rule.raw_text = rule.raw_text[: label.start()].strip(), rule.raw_text[label.start() :]
        result.append(ParsedRule(child, head, list(rule.lines), inferred=True))
        result.append(rule)
        issues.append(
            ParseIssue(
                "malformed",
                f"the sentence before the label of {rule.number} is {child}, glued onto its line; split off "
                f"and numbered {child} (inferred)",
                rule.lines[0],
                child,
            )
        )
    return result


def _siblings_labelled(rule: ParsedRule, family: list[ParsedRule]) -> bool:
    """Most of the rule's siblings (``family``: the children of its parent, itself included) start with a label."""
    siblings = [other for other in family if other is not rule]
    labelled = [other for other in siblings if _LABELLED.match(other.raw_text)]
    return len(siblings) >= 3 and len(labelled) * 2 > len(siblings)


def _previous_sibling(number: str, numbers: set[str]) -> str | None:
    head, _, last = number.rpartition(".")
    if not last.isdigit() or int(last) <= 1:
        return None
    previous = f"{head}.{int(last) - 1}"
    return previous if previous in numbers else None


def _next_child(number: str, numbers: set[str]) -> str:
    letters = "abcdefghijklmnopqrstuvwxyz"
    used = [letter for letter in letters if f"{number}.{letter}" in numbers]
    return f"{number}.{letters[letters.index(used[-1]) + 1] if used else 'a'}"


# -- rules whose numbers were lost -----------------------------------------------------------
#
# The Combat section (HAZARDS.md 4.4) lost its numbers. They are rebuilt from
# the shape of each sentence, bounded by what was printed around the run:
# - a heading (short title) is a top-level rule; if some reference names an
#   unprinted number with that title ("See rule 624. The Steps of Combat"), it
#   takes that number;
# - a sentence whose subject is the current heading's term ("Combat is …",
#   "A Combat occurs …") is a top-level rule, while top-level numbers remain
#   below the next printed number, else a statement;
# - a sentence opening with "If" is a condition on the sentence before it (one
#   level down), or a sibling of the condition before it;
# - a sentence opening with a bare verb ("Establish …", "Modulate …") is a step:
#   one level below the statement it details, a sibling of the step before it;
# - a sentence that points back ("Any subsequent …") is a sibling of the one before;
# - any other sentence is a statement: under the open step if there is one,
#   else directly under the top-level rule.

_ARTICLES = {"a", "an", "the"}
_NOT_A_VERB = _ARTICLES | {
    "any",
    "all",
    "each",
    "every",
    "no",
    "some",
    "this",
    "that",
    "these",
    "those",
    "it",
    "they",
    "its",
    "their",
    "if",
    "in",
    "when",
    "while",
    "whenever",
    "once",
    "unless",
    "after",
    "before",
    "during",
    "at",
    "on",
    "for",
    "only",
    "to",
    "as",
    "with",
    "from",
    "by",
    "there",
}
_POINTS_BACK = {"subsequent", "corresponding", "such"}
# Possessive quantifiers: no run of white space is shared between two of them, so a title that does not match
# fails in linear time (the title keeps its trailing white space; ``_title_key`` strips it).
_TITLE_AFTER_NUMBER = re.compile(r"^\s*+\.?\s*+(?:<[^>]+>\s*+)*+(?P<title>[A-Z][^<]*+)(?:</[^>]+>)*+\s*$")


@dataclass
class _Outline:
    """Where the numbering stands while recovering a run of unnumbered rules."""

    top: int
    top_limit: int | None
    width: int
    path: list[str]  # components of the last number given
    step_depth: int | None = None
    last_kind: str = ""

    def number(self) -> str:
        return ".".join([f"{self.top:0{self.width}d}", *self.path])


def _recover_unnumbered(
    rules: list[ParsedRule], skipped: list[SkippedLine], issues: list[ParseIssue]
) -> list[ParsedRule]:
    """Number each run of rules whose numbers were lost (marked inferred); a
    run that cannot be fitted between the printed numbers around it is skipped
    and reported, never kept unnumbered."""
    titles = _referenced_titles(rules)
    result: list[ParsedRule] = []
    position = 0
    while position < len(rules):
        if rules[position].number:
            result.append(rules[position])
            position += 1
            continue
        end = next((later for later in range(position, len(rules)) if rules[later].number), len(rules))
        run = rules[position:end]
        before = next((kept.number for kept in reversed(result)), None)
        after = rules[end].number if end < len(rules) else None
        numbers = _number_run(run, before, after, titles)
        if numbers is None:
            _reject_run(run, skipped, issues)
        else:
            for rule, number in zip(run, numbers):
                rule.number, rule.inferred = number, True
                issues.append(ParseIssue("inferred", f"unnumbered line recovered as {number}", rule.lines[0], number))
            result.extend(run)
        position = end
    return result


def _reject_run(run: list[ParsedRule], skipped: list[SkippedLine], issues: list[ParseIssue]) -> None:
    for rule in run:
        issues.append(ParseIssue("orphan", "unnumbered line whose number could not be recovered", rule.lines[0]))
        skipped.extend(
            SkippedLine(line, rule.raw_text, "unnumbered rule line; number not recoverable") for line in rule.lines
        )


def _referenced_titles(rules: list[ParsedRule]) -> dict[str, str]:
    """Titles that references give to numbers that were never printed."""
    printed = {rule.number for rule in rules if rule.number}
    titles: dict[str, str] = {}
    for rule in rules:
        for reference in find_references(rule.number, rule.raw_text):
            if len(reference.target_numbers) != 1 or reference.target_numbers[0] in printed:
                continue
            target = reference.target_numbers[0]
            tail = reference.raw_text.split(target, 1)[1]
            if (match := _TITLE_AFTER_NUMBER.match(tail)) is not None:
                titles.setdefault(_title_key(match.group("title")), target)
    return titles


def _title_key(title: str) -> str:
    """Titles compare without case or a leading article: "Steps of Combat" names "The Steps of Combat"."""
    return re.sub(r"^(?:the|a|an)\s+", "", title.strip().lower())


def _number_run(
    run: list[ParsedRule], before: str | None, after: str | None, titles: dict[str, str]
) -> list[str] | None:
    if before is None:
        return None
    top = before.split(".")[0]
    limit = int(after.split(".")[0]) if after else None
    outline = _Outline(int(top), limit, len(top), [])
    term: set[str] = set()
    numbers: list[str] = []
    for rule in run:
        text = rule.raw_text.split("\n", 1)[0]
        if heading_of(text) and _start_top_level(outline, titles.get(_title_key(text))):
            term = {word.lower() for word in text.split() if word.lower() not in _SMALL_WORDS | {"step", "steps"}}
            kind = "heading"
        elif _subject(text) in term and _start_top_level(outline, None):
            kind = "top"
        else:
            kind = _place_sentence(outline, text, about_term=_subject(text) in term)
        outline.last_kind = kind
        numbers.append(outline.number())
    if not _fits_before(numbers, after) or len(set(numbers)) != len(numbers):
        return None
    return numbers


def _start_top_level(outline: _Outline, titled_number: str | None) -> bool:
    """Move to the next top-level number (or the one a reference names), if the next printed number allows it."""
    number = int(titled_number) if titled_number and titled_number.isdigit() else outline.top + 1
    if number <= outline.top or (outline.top_limit is not None and number > outline.top_limit):
        return False
    outline.top, outline.path, outline.step_depth = number, [], None
    return True


def _place_sentence(outline: _Outline, text: str, *, about_term: bool) -> str:
    words = text.split()
    first = words[0].lower()
    depth = len(outline.path)
    if first == "if":
        target = depth if outline.last_kind == "condition" else depth + 1
        kind = "condition"
    elif _is_bare_verb(first) and not about_term:
        target = outline.step_depth if outline.step_depth is not None else depth + 1
        outline.step_depth = target
        kind = "step"
    elif any(word.lower() in _POINTS_BACK for word in words[:2]) and depth:
        target, kind = depth, "sentence"
    elif outline.step_depth is not None:
        target, kind = outline.step_depth + 1, "sentence"
    else:
        target, kind = 1, "statement"
    _descend(outline, max(target, 1))
    return kind


def _descend(outline: _Outline, depth: int) -> None:
    """The next number at ``depth``: the sibling after the number there, or the first child."""
    if depth <= len(outline.path):
        sibling = outline.path[depth - 1]
        outline.path = outline.path[: depth - 1] + [_next_component(sibling)]
    else:
        outline.path = outline.path + ["1" if len(outline.path) % 2 == 0 else "a"]
        while len(outline.path) < depth:
            outline.path.append("1" if len(outline.path) % 2 == 0 else "a")


def _next_component(component: str) -> str:
    return str(int(component) + 1) if component.isdigit() else chr(ord(component) + 1)


def _subject(text: str) -> str:
    words = [word.lower().strip(",.") for word in text.split()]
    while words and words[0] in _ARTICLES:
        words = words[1:]
    return words[0] if words else ""


def _is_bare_verb(word: str) -> bool:
    """A guess from shape alone: not a function word, not plural or -ing/-ed."""
    return word not in _NOT_A_VERB and not word.endswith(("s", "ing", "ed"))


def _fits_before(numbers: list[str], after: str | None) -> bool:
    """The run stays below the next printed number."""
    if after is None:
        return True
    return all(natural_key(number) < natural_key(after) for number in numbers)
