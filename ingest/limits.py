"""What one document may hold (docs/limits.md): the bounds that keep a hostile or damaged file from
crashing or stalling the build. Exceeding one is an ``IngestError`` naming the file, the line and the limit.

The real documents stay far below every bound (their longest line is about a thousand characters, their
longest rule number eleven); the bounds are what keeps the parsers, the sort keys and spaCy in their linear,
bounded-memory regime.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from ingest.errors import IngestError
from ingest.model import ParsedRule

MAX_DOCUMENT_BYTES = 10_000_000  # one file (a folder of rulings pages: each of its files)
MAX_LINE_CHARS = 20_000  # one line of a text document
MAX_DIGITS = 100  # one run of digits: numbers are compared and sorted as integers
MAX_RULE_CHARS = 50_000  # one rule's text, its continuation lines joined
MAX_RULE_NUMBER_CHARS = 40  # one rule number ("626.1.d.1.a" is 11)
MAX_RANGE = 500  # numbers one reference range expands to ("rules 557 through 563" is 7)
MAX_JSON_DEPTH = 16  # nested lists and objects in the card and errata JSON (the real files nest 4 deep)
MAX_TOKEN_CHARS = 64  # characters of one run without white space that spaCy tokenizes
MAX_TAGGED_CHARS = 200_000  # characters of one text (a rule, a ruling) searched for keywords and card names

_DIGITS = re.compile(rf"\d{{{MAX_DIGITS + 1}}}")
_LONG_TOKEN = re.compile(rf"\S{{{MAX_TOKEN_CHARS + 1},}}")
# A JSON string (its escapes included) or a bracket: brackets inside strings are text, not nesting.
_JSON_NESTING = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


def check_size(path: str | Path, size: int) -> None:
    if size > MAX_DOCUMENT_BYTES:
        raise IngestError(path, None, f"a document of at most {MAX_DOCUMENT_BYTES:,} bytes", f"{size:,} bytes")


def check_lines(path: str | Path, lines: list[str], max_line: int | None = MAX_LINE_CHARS) -> None:
    """Every line within ``max_line`` characters (JSON may hold a whole list on one line: ``None``) and every
    number within ``MAX_DIGITS`` digits."""
    for index, line in enumerate(lines, start=1):
        if max_line is not None and len(line) > max_line:
            raise IngestError(path, index, f"a line of at most {max_line:,} characters", f"{len(line):,} characters")
        if (digits := _DIGITS.search(line)) is not None:
            raise IngestError(
                path, index, f"numbers of at most {MAX_DIGITS} digits", f"a longer one: {digits.group()[:20]}..."
            )


def check_rules(path: str | Path, rules: Iterable[ParsedRule]) -> None:
    """Every rule's number within ``MAX_RULE_NUMBER_CHARS`` and its text within ``MAX_RULE_CHARS``."""
    for rule in rules:
        line = rule.first_line
        if len(rule.number) > MAX_RULE_NUMBER_CHARS:
            raise IngestError(
                path,
                line,
                f"a rule number of at most {MAX_RULE_NUMBER_CHARS} characters",
                f"{len(rule.number):,} characters ({rule.number[:20]}...)",
            )
        if len(rule.raw_text) > MAX_RULE_CHARS:
            raise IngestError(
                path,
                line,
                f"a rule of at most {MAX_RULE_CHARS:,} characters",
                f"rule {rule.number} of {len(rule.raw_text):,} characters",
            )


def check_json_nesting(path: str | Path, text: str) -> None:
    """JSON nested at most ``MAX_JSON_DEPTH`` levels, checked in one linear pass before it is decoded
    (Python's decoder recurses once per level)."""
    depth = 0
    for token in _JSON_NESTING.finditer(text):
        bracket = token.group()
        if bracket in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                line = text.count("\n", 0, token.start()) + 1
                raise IngestError(path, line, f"JSON nested at most {MAX_JSON_DEPTH} levels deep", "deeper nesting")
        elif bracket in "]}":
            depth -= 1


_WHOLE_CHARACTERS, _LONE = "text escapes that make whole characters", "a lone surrogate (\\uD800-\\uDFFF)"
_JSON_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|.)", re.DOTALL)  # escapes read left to right: "\\\\" is one


def check_json_surrogates(path: str | Path, text: str) -> None:
    """No JSON escape that decodes into half a character (a \\uD800-\\uDBFF escape not followed at once by a
    \\uDC00-\\uDFFF one, or the second alone): no UTF-8 text, and so no SQLite text, can hold a lone surrogate."""
    high_end = None  # where a high surrogate's escape ended, waiting for its low half
    for escape in _JSON_ESCAPE.finditer(text):
        code = int(escape.group(1), 16) if escape.group(1) else None
        low = code is not None and 0xDC00 <= code <= 0xDFFF
        if (high_end is not None and not (low and escape.start() == high_end)) or (low and high_end is None):
            lone = high_end if low and high_end is None else escape.start()
            line = text.count("\n", 0, lone) + 1
            raise IngestError(path, line, _WHOLE_CHARACTERS, _LONE)
        high_end = escape.end() if code is not None and 0xD800 <= code <= 0xDBFF else None
    if high_end is not None:
        raise IngestError(path, text.count("\n", 0, high_end) + 1, _WHOLE_CHARACTERS, _LONE)


def bounded_for_tokenizer(text: str) -> str:
    """The text's first ``MAX_TAGGED_CHARS`` characters, with every run of more than ``MAX_TOKEN_CHARS``
    characters without white space cut to that many and the rest of the run blanked: spaCy's tokenizer takes
    quadratic time on a long run (of punctuation, say), and no word or phrase it looks for is that long.
    Offsets into the text are kept."""
    return _LONG_TOKEN.sub(_blank_after_token_limit, text[:MAX_TAGGED_CHARS])


def _blank_after_token_limit(run: re.Match) -> str:
    return run.group()[:MAX_TOKEN_CHARS] + " " * (len(run.group()) - MAX_TOKEN_CHARS)
