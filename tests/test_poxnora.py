"""The Pox Nora rules adapter against the damage listed in corpus/HAZARDS.md §6."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ingest import poxnora
from ingest.documents import CORPUS_DIR
from ingest.errors import IngestError
from ingest.outline import coverage
from ingest.source import read_lines

PATH = CORPUS_DIR / "pox-nora-rules.txt"
OUTLINE_LINE = re.compile(r"^(?:\d+\.|\s*-\s+[a-z]+\.)\s")


@pytest.fixture(scope="module")
def lines():
    return read_lines(PATH)


@pytest.fixture(scope="module")
def book(lines):
    return poxnora.parse(lines, PATH)


@pytest.fixture(scope="module")
def rules(book):
    return {rule.number: rule for rule in book.rules}


def test_counts_match_the_audit(book):
    by_depth = [sum(1 for rule in book.rules if rule.depth == depth) for depth in range(3)]
    assert by_depth == [13, 31, 14] and len(book.rules) == 58


def test_every_outline_line_is_one_rule(book, lines):
    outline = {index for index, text in enumerate(lines, start=1) if OUTLINE_LINE.match(text)}
    assert sorted(rule.lines[0] for rule in book.rules) == sorted(outline)
    assert len({rule.number for rule in book.rules}) == len(book.rules)
    assert not [issue for issue in book.issues if issue.kind == "orphan"]


def test_synthesised_numbers(rules):
    assert rules["3"].heading == "Attack Types"
    assert rules["3.d"].parent == "3" and rules["3.d"].raw_text.endswith("in one of three ways")
    assert rules["3.d.ii"].parent == "3.d"
    assert rules["3.d.ii"].raw_text == (
        "Successful -- This attack hit. It doesn't need to deal damage, it just needs to not miss. Some abilities "
        "trigger off of successful attacks. Even if something prevents damage, an attack can still be successful."
    )
    assert rules["9.c"].parent == "9" and rules["9.c"].lines == [61]  # after a blank line inside the list


def test_indentation_not_the_label_decides_roman_or_letter():
    text = "1. Things\n" + "\n".join(f"- {letter}. Item {letter}." for letter in "abcdefghi") + "\n - i. Sub-item."
    book = poxnora.parse(text.split("\n"), Path("synthetic.txt"))
    numbers = [rule.number for rule in book.rules]
    assert numbers[-2:] == ["1.i", "1.i.i"] and book.rules[-1].parent == "1.i"


def test_chart_appendix_is_skipped(book, lines):
    appendix = {entry.line for entry in book.skipped if "appendix" in entry.reason}
    assert lines[87] == "Attached Charts:"
    assert appendix == {index for index in range(88, len(lines) + 1) if lines[index - 1].strip()}
    assert max(line for rule in book.rules for line in rule.lines) == 86


def test_coverage(book):
    assert coverage(book.nonblank_lines, book.skipped) >= 0.995


def test_inline_terms_are_conservative(book):
    terms = {k.term: k.defining_number for k in book.keywords}
    assert all(k.kind == "defined term" for k in book.keywords)
    assert terms == {
        "Attack Chain": "3.a",
        "Basic Attacks": "3.b",
        "Non-Basic Attacks": "3.c",
        "Attack Results": "3.d",
        "Failed": "3.d.i",
        "Successful": "3.d.ii",
        "Damaging": "3.d.iii",
    }


def test_no_references(book):
    assert book.references == []


def test_a_file_without_numbered_lines_is_an_ingest_error():
    with pytest.raises(IngestError) as error:
        poxnora.parse(["", "Attached Charts:", "Some chart"], Path("charts.txt"))
    assert "charts.txt" in str(error.value)


def test_sniff(lines):
    assert poxnora.sniff(lines)
    assert not poxnora.sniff(read_lines(CORPUS_DIR / "runeterra-unofficial-rulebook.txt"))
    assert not poxnora.sniff(read_lines(CORPUS_DIR / "riftbound-qa-rulings.txt"))
