"""The Rush of Ikorr rules adapter against the damage listed in corpus/HAZARDS.md §5."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ingest import ikorr
from ingest.documents import CORPUS_DIR
from ingest.errors import IngestError
from ingest.outline import coverage, natural_key
from ingest.source import read_lines

PATH = CORPUS_DIR / "rush-of-ikorr-comprehensive-rules-1.1.txt"
BODY_NUMBER = re.compile(r"^(?:<b>)?\d+(?:\.[0-9a-z]+)*(?:</b>)?\t")


@pytest.fixture(scope="module")
def lines():
    return read_lines(PATH)


@pytest.fixture(scope="module")
def book(lines):
    return ikorr.parse(lines, PATH)


@pytest.fixture(scope="module")
def rules(book):
    return {rule.number: rule for rule in book.rules}


def test_counts_match_the_audit(book):
    chapters = [rule for rule in book.rules if rule.parent is None]
    assert [rule.number for rule in chapters] == [str(n) for n in range(1, 12)]
    assert all(rule.heading for rule in chapters)
    assert len(book.rules) == 683  # 672 numbered rules + 11 chapter headings (HAZARDS §1)


def test_every_printed_number_is_one_rule(book, lines):
    numbered = {index for index, text in enumerate(lines, start=1) if BODY_NUMBER.match(text)}
    assert len(numbered) == 682  # all but chapter 10, which is markdown
    assert numbered <= {rule.lines[0] for rule in book.rules}
    assert len({rule.number for rule in book.rules}) == len(book.rules)


def test_table_of_contents_is_skipped_not_ingested(book, lines):
    contents = {entry.line for entry in book.skipped if entry.reason == "table of contents"}
    assert contents == {line for line in range(11, 126) if lines[line - 1].strip()}
    assert len(contents) == 104  # 2 headings + 102 entries
    assert min(line for rule in book.rules for line in rule.lines) == 127


def test_no_orphans_and_compact_parents(book, rules):
    assert not [issue for issue in book.issues if issue.kind == "orphan"]
    chain, number = [], "1.2e.1a.1"
    while number is not None:
        chain.append(number)
        number = rules[number].parent
    assert chain == ["1.2e.1a.1", "1.2e.1a", "1.2e.1", "1.2e", "1.2", "1"]
    assert rules["1.2e.1a.1"].raw_text == "This is done before starting play and can only be done once per game."
    assert rules["1.3a.3a"].parent == "1.3a.3"
    assert rules["4.0"].parent == "4" and rules["5.0"].parent == "5"
    assert rules["4.0"].raw_text.startswith("All cards consist of an <b>Aspect</b> , <b>Cost</b> ,")


def test_malformed_number_is_repaired_and_reported(book, rules):
    rule = rules["3.18a.1"]
    assert rule.printed_number == "3.18a1" and rule.parent == "3.18a" and rule.inferred
    assert rule.raw_text == "An <b>Object</b> that enters a <b>Zone</b> becomes a new <b>Object</b> ."
    assert [issue.number for issue in book.issues if issue.kind == "malformed"] == ["3.18a.1"]


def test_markdown_chapter_heading(rules):
    chapter = rules["10"]
    assert chapter.lines == [666, 668] and chapter.heading == "ADDITIONAL RULES"
    assert rules["10.1"].parent == "10"


def test_tab_led_lines_continue_the_rule_above(rules):
    assert rules["3.12c.2"].lines == [289, 291]
    assert rules["3.12c.2"].raw_text.split("\n")[1].startswith("<p><b>Team.</b> In this case")
    assert rules["10.2b"].lines == [678, 680]  # after a page-break blank line
    assert rules["2"].lines == [165, 166] and rules["2"].heading == "GAME COMPONENTS"


def test_two_digit_components_sort_numerically(book, rules):
    numbers = [rule.number for rule in book.rules]
    assert numbers == sorted(numbers, key=natural_key)
    assert numbers.index("3.9") < numbers.index("3.10") < numbers.index("3.18")


def test_parenthesised_references(book):
    references = [(ref.from_number, ref.raw_text, ref.target_numbers) for ref in book.references]
    assert len(references) == 17
    assert ("1.3a.1", "(8.2)", ["8.2"]) in references and ("1.3a.2", "(8.2)", ["8.2"]) in references
    assert ("10.2b", "(10.2a)", ["10.2a"]) in references
    assert ("7.6c", "(11.25)", ["11.25"]) in references
    assert ("11.45", "(3.17)", ["3.17"]) in references
    numbers = {rule.number for rule in book.rules}
    dangling = [target for ref in book.references for target in ref.target_numbers if target not in numbers]
    assert dangling == ["3.1.1"]


def test_costs_and_asides_in_parentheses_are_not_references(book):
    sources = {ref.from_number for ref in book.references}
    assert "6.4a.2" not in sources  # ACTION – (2):Return…
    assert "3.17a.2" not in sources  # (ie. Card-Type, …)


def test_glossary_terms(book):
    glossary = {k.term: k.defining_number for k in book.keywords if k.kind == "glossary term"}
    assert len(glossary) == 63
    assert glossary["Retreat"] == "11.42" and glossary["RETREAT"] == "11.60"
    assert glossary["Search"] == "11.45" and glossary["Void (Zone)"] == "11.24" and glossary["Void"] == "11.54"


def test_keyword_families_need_their_own_heading_rule(book):
    keywords = {k.term: k for k in book.keywords if k.kind == "keyword"}
    assert keywords["Swift"].defining_number == "11.32" and keywords["Quick Strike"].defining_number == "11.27"
    assert keywords["Foresee"].defining_number == "11.39" and keywords["Foresee"].aliases == ["Foresee N"]
    assert keywords["SUMMON"].defining_number == "11.63"  # the trigger word, not Summon (11.52)
    assert {"DEATH", "END", "RAID", "RETREAT", "SECURE", "START", "ATTACK"} <= set(keywords)


def test_bold_defines_only_when_it_is_the_whole_rule(book):
    defined = {k.term: k.defining_number for k in book.keywords if k.kind == "defined term"}
    assert defined["Avatar"] == "2.1" and defined["Conceding"] == "1.3b"
    assert "Zone" not in defined and "Team" not in defined  # bold marks every mention of a term


def test_front_matter_is_skipped_and_coverage(book):
    reasons = {entry.line: entry.reason for entry in book.skipped}
    assert reasons[5] == "title" and {7, 9} <= set(reasons)
    assert coverage(book.nonblank_lines, book.skipped) >= 0.995


def test_a_file_without_numbered_lines_is_an_ingest_error():
    with pytest.raises(IngestError) as error:
        ikorr.parse(["# Rules", "", "Nothing numbered here."], Path("empty.txt"))
    assert "empty.txt" in str(error.value)


def test_sniff(lines):
    assert ikorr.sniff(lines)
    assert not ikorr.sniff(read_lines(CORPUS_DIR / "riftbound-core-rules-2025-06-02.txt"))
    assert not ikorr.sniff(read_lines(CORPUS_DIR / "runeterra-unofficial-rulebook.txt"))
