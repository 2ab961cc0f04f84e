"""Question-and-answer rulings: a question line, ``Ruling:``, then optional
``Sequence:`` and ``Nuances:`` lists.

There is no record delimiter, so the shape of the text decides what each line
is. A bullet (``- ``) is a list item; `` - `` inside a bullet is a dash, not a
new item. An unmarked line is one of:

* a question, when the next marked line after it is a ``Ruling:`` line;
* a branch header inside a Sequence (``If Guardian Angel is chosen:``), when it
  ends with ``:`` or opens the Sequence, and bullets follow it;
* a wrapped continuation of the question, ruling or bullet above it.

An unmarked line ending with ``?`` that is not followed by its ``Ruling:``
line is a question whose ruling is missing: that is bad input, and raises.

Rule numbers written in the text (``step 443.1.e``, ``(444)``) become
citations; version numbers (``the updated 1.1 version``) do not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ingest.errors import IngestError
from ingest.model import ParsedCitation, ParsedRuling, ParsedRulings, ParsedStep, ParseIssue
from ingest.outline import account_for_lines
from ingest.source import nonblank_count

_RULING = re.compile(r"^\s*Ruling\s*:\s*(.*)$", re.IGNORECASE)
_BLOCK = re.compile(r"^\s*(Sequence|Nuances)\s*:\s*(.*)$", re.IGNORECASE)
_BULLET = re.compile(r"^\s*[-\u2022*]\s+(.*)$")

# A rule number: three digits (Riftbound's rules run 000-799), then dotted
# parts such as .1 or .e. Two-digit and dotted-decimal numbers (``1.1``) are
# versions or counts, not rules.
_NUMBER = r"\d{3}(?:\.(?:\d+|[a-z]))*"
_NAMED_CITATION = re.compile(
    rf"\b(?:rules?|steps?|sections?|see)\s+(?P<first>{_NUMBER})"
    rf"(?P<more>(?:(?:\s*,\s*|\s+(?:and|or|to|through)\s+)(?:{_NUMBER}))*)",
    re.IGNORECASE,
)
_BARE_CITATION = re.compile(rf"\((?P<first>{_NUMBER})\)")
_ANY_NUMBER = re.compile(_NUMBER)


@dataclass
class _Line:
    number: int  # 1-based source line
    text: str
    kind: str  # "ruling", "sequence", "nuances", "bullet" or "plain"
    body: str  # the text after the marker


def sniff(lines: list[str]) -> bool:
    """A rulings file has ``Ruling:`` lines, each right after an unmarked question."""
    classified = _classify(lines)
    answered = sum(
        1 for before, line in zip(classified, classified[1:]) if line.kind == "ruling" and before.kind == "plain"
    )
    return answered >= 1 and answered * 2 >= sum(1 for line in classified if line.kind == "ruling")


def parse(lines: list[str], path: Path) -> ParsedRulings:
    classified = _classify(lines)
    if not any(line.kind == "ruling" for line in classified):
        first = classified[0] if classified else None
        raise IngestError(
            path,
            first.number if first else None,
            "a question followed by a 'Ruling:' line",
            first.text if first else "no text",
        )
    builder = _RulingsBuilder(path)
    for line, following in zip(classified, _next_marked(classified)):
        builder.take(line, following)
    rulings = builder.finish()
    for ruling in rulings:
        ruling.citations = _citations_in(ruling)
    skipped = account_for_lines(lines, rulings, [])
    return ParsedRulings(rulings=rulings, skipped=skipped, issues=builder.issues, nonblank_lines=nonblank_count(lines))


def find_citations(text: str) -> list[ParsedCitation]:
    """Rule numbers written in ``text``, in order, each with the words that cite it."""
    found: list[tuple[int, ParsedCitation]] = []
    for match in _NAMED_CITATION.finditer(text):
        raw = match.group(0)
        for number in _ANY_NUMBER.findall(match.group("first") + match.group("more")):
            found.append((match.start(), ParsedCitation(number, raw)))
    for match in _BARE_CITATION.finditer(text):
        found.append((match.start(), ParsedCitation(match.group("first"), match.group(0))))
    return [citation for _, citation in sorted(found, key=lambda pair: pair[0])]


def _citations_in(ruling: ParsedRuling) -> list[ParsedCitation]:
    texts = [ruling.question, ruling.ruling, *(step.text for step in ruling.steps), *ruling.nuances]
    return [citation for text in texts for citation in find_citations(text)]


def _classify(lines: list[str]) -> list[_Line]:
    classified = []
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        if match := _RULING.match(text):
            classified.append(_Line(number, text, "ruling", match.group(1).strip()))
        elif match := _BLOCK.match(text):
            classified.append(_Line(number, text, match.group(1).lower(), match.group(2).strip()))
        elif match := _BULLET.match(text):
            classified.append(_Line(number, text, "bullet", match.group(1).strip()))
        else:
            classified.append(_Line(number, text, "plain", text.strip()))
    return classified


def _next_marked(classified: list[_Line]) -> list[_Line | None]:
    """For each line, the first marked (not plain) line after it: what an unmarked line leads to."""
    following: list[_Line | None] = []
    upcoming = None
    for line in reversed(classified):
        following.append(upcoming)
        if line.kind != "plain":
            upcoming = line
    return following[::-1]


class _RulingsBuilder:
    """Walks the classified lines once, keeping which part of a ruling it is in."""

    def __init__(self, path: Path):
        self.path = path
        self.rulings: list[ParsedRuling] = []
        self.issues: list[ParseIssue] = []
        self.question: list[_Line] = []  # question lines waiting for their Ruling: line
        self.block: str | None = None  # None (ruling text), "sequence" or "nuances"
        self.branch: str | None = None
        self.last_item: str | None = None  # "step" or "nuance": where a wrapped line goes

    def take(self, line: _Line, following: _Line | None) -> None:
        """Handle one line; ``following`` is the next marked line after it."""
        if self.question and line.kind != "plain" and line.kind != "ruling":
            self._missing_ruling(line)
        handler = getattr(self, f"_{line.kind}")
        handler(line, following)

    def finish(self) -> list[ParsedRuling]:
        if self.question:
            raise IngestError(self.path, self.question[-1].number, "a 'Ruling:' line after the question", "end of file")
        return self.rulings

    def _missing_ruling(self, found: _Line) -> None:
        raise IngestError(self.path, found.number, "a 'Ruling:' line after the question", found.text)

    @property
    def current(self) -> ParsedRuling:
        return self.rulings[-1]

    def _plain(self, line: _Line, following: _Line | None) -> None:
        if self.question:
            if self.question[-1].body.endswith("?"):
                self._missing_ruling(line)
            self.question.append(line)
        elif following is not None and following.kind == "ruling":
            self.question.append(line)
        elif (
            self.block == "sequence"
            and following is not None
            and following.kind == "bullet"
            and (line.body.endswith(":") or self.last_item is None)
        ):
            self._branch_header(line)
        elif self.rulings and not line.body.endswith("?"):
            self._continue(line)
        elif following is None:
            raise IngestError(self.path, line.number, "a 'Ruling:' line after the question", "end of file")
        else:
            self._missing_ruling(following)

    def _ruling(self, line: _Line, following: _Line | None) -> None:
        if not self.question:
            raise IngestError(self.path, line.number, "a question line before 'Ruling:'", line.text)
        question = " ".join(part.body for part in self.question)
        ruling = ParsedRuling(
            position=len(self.rulings) + 1,
            question=question,
            ruling=line.body,
            lines=[part.number for part in self.question] + [line.number],
        )
        self.rulings.append(ruling)
        self.question, self.block, self.branch, self.last_item = [], None, None, None

    def _sequence(self, line: _Line, following: _Line | None) -> None:
        self._open_block("sequence", line)

    def _nuances(self, line: _Line, following: _Line | None) -> None:
        self._open_block("nuances", line)

    def _open_block(self, block: str, line: _Line) -> None:
        if not self.rulings:
            raise IngestError(self.path, line.number, "a question and its 'Ruling:' line before a list", line.text)
        self.block, self.branch, self.last_item = block, None, None
        self.current.lines.append(line.number)
        if line.body:  # "Nuances: first item" on the header line itself
            self._add_item(line.body, line)

    def _bullet(self, line: _Line, following: _Line | None) -> None:
        if not self.rulings:
            raise IngestError(self.path, line.number, "a question and its 'Ruling:' line before a list", line.text)
        if self.block is None:
            self.issues.append(
                ParseIssue(
                    "malformed",
                    "a list item with no 'Sequence:' or 'Nuances:' header; kept as a nuance",
                    line=line.number,
                )
            )
            self.block = "nuances"
        self._add_item(line.body, line)
        self.current.lines.append(line.number)

    def _add_item(self, text: str, line: _Line) -> None:
        ruling = self.current
        if self.block == "sequence":
            ruling.steps.append(
                ParsedStep(position=len(ruling.steps) + 1, text=text, branch=self.branch, line=line.number)
            )
            self.last_item = "step"
        else:
            ruling.nuances.append(text)
            self.last_item = "nuance"

    def _branch_header(self, line: _Line) -> None:
        self.branch = line.body.rstrip(":").strip()
        self.last_item = None
        self.current.lines.append(line.number)

    def _continue(self, line: _Line) -> None:
        """A wrapped line joins the text it continues, with a line break, as received."""
        ruling = self.current
        if self.last_item == "step":
            ruling.steps[-1].text += "\n" + line.body
        elif self.last_item == "nuance":
            ruling.nuances[-1] += "\n" + line.body
        else:
            ruling.ruling += "\n" + line.body
        ruling.lines.append(line.number)
