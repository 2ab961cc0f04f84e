"""The Legends of Runeterra rulebook adapter against the damage listed in corpus/HAZARDS.md §3."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ingest import runeterra
from ingest.documents import CORPUS_DIR
from ingest.errors import IngestError
from ingest.outline import UNRECOGNISED, coverage
from ingest.source import read_lines

PATH = CORPUS_DIR / "runeterra-unofficial-rulebook.txt"
# Any line carrying a rule or subsection number, whatever its markdown or bullet.
NUMBERED_LINE = re.compile(r"^\s*(?:#+\s*|-\s+)?\d+(?:\.\d+)*\.?(?:\s|$)")


@pytest.fixture(scope="module")
def lines():
    return read_lines(PATH)


@pytest.fixture(scope="module")
def book(lines):
    return runeterra.parse(lines, PATH)


@pytest.fixture(scope="module")
def rules(book):
    return {rule.number: rule for rule in book.rules}


def parse_text(text: str):
    return runeterra.parse(text.split("\n"), Path("synthetic.md"))


def test_counts_match_the_audit(book):
    sections = [rule for rule in book.rules if rule.depth == 0]
    headings = [rule for rule in book.rules if rule.depth == 1]
    # HAZARDS §1: 810 numbered rule lines, 125 subsection headings, 7 sections.
    assert [rule.number for rule in sections] == list("ABCDEFG")
    assert len(headings) == 125 and all(rule.heading for rule in headings)
    assert len(book.rules) - len(sections) - len(headings) == 810


def test_every_numbered_line_is_the_start_of_exactly_one_rule(book, lines):
    numbered = {index for index, text in enumerate(lines, start=1) if NUMBERED_LINE.match(text)}
    starts = [rule.lines[0] for rule in book.rules if rule.depth > 0]
    assert sorted(starts) == sorted(numbered)
    assert len({rule.number for rule in book.rules}) == len(book.rules)


def test_parents_exist_or_are_reported_orphans(book, rules):
    orphans = {issue.number for issue in book.issues if issue.kind == "orphan"}
    missing = {rule.number for rule in book.rules if rule.parent is not None and rule.parent not in rules}
    assert missing == orphans == {"A.5.1.1", "A.5.1.2"}


def test_depth_comes_from_the_number_not_markdown_or_indentation(rules):
    assert rules["B.1.3"].parent == "B.1" and rules["B.1"].parent == "B"
    assert rules["B.1.3"].raw_text == "The backrow is limited to 6 slots."
    assert rules["C.2.3.4.1"].raw_text == "Burst and Focus spells resolve instantly."
    assert rules["C.2.3.4.1"].parent == "C.2.3.4" and rules["C.2.3.4.1"].depth == 4
    assert rules["D.7.10"].parent == "D.7" and rules["D.7.16"].parent == "D.7"  # indented under D.7.9.1.2
    assert rules["D.7.10"].raw_text.startswith("If the opponent passes or if both players pass")
    assert rules["C.10"].heading == "Items" and rules["C.10"].parent == "C"  # heading without '#'
    assert rules["E.24"].heading == "Ephemeral"  # '####'
    assert rules["D.8.1"].parent == "D.8"


def test_continuation_lines_join_the_rule_above(rules):
    start = rules["D.1.2.3"]
    assert start.lines == [373, 374]
    assert start.raw_text == (
        "Game Start: - Powers are resolved in order: Active player: Top  $\\square$  Bottom  $\\square$\n"
        "Inactive player: Top  $\\square$  Bottom. Start of Game - card effects happen."
    )
    assert rules["G.37.6"].raw_text.endswith(
        "\nThis means that Swain level 2 triggers only once and a tough Nexus only takes one less damage."
    )


def test_text_that_starts_like_a_bullet_or_ellipsis_is_kept(rules):
    assert rules["G.25.2.2.4"].raw_text == "- 1 Power and Vulnerable"
    assert rules["A.4.2.1"].raw_text.startswith("... use that priority")


def test_hallowed_rules_printed_as_headings_are_read_as_its_rules(book, rules):
    hallowed = [rules[f"E.26.{n}"] for n in range(1, 6)]
    assert [rule.printed_number for rule in hallowed] == ["27.", "28.", "29.", "30.", "31."]
    assert all(rule.inferred and rule.parent == "E.26" for rule in hallowed)
    assert hallowed[0].raw_text.startswith('Hallowed reads: "After I die')
    assert not any(f"E.{n}" in rules for n in range(27, 32))
    reported = {issue.number for issue in book.issues if issue.kind == "malformed"}
    assert {rule.number for rule in hallowed} <= reported


def test_misnumbered_run_detection_is_about_shape_not_place():
    text = "## A. Things\n### 4. Widget\n- 5. First.\n- 6. Second.\n### 9. Gadget\n- 9.1. Rule."
    book = parse_text(text)
    assert [rule.number for rule in book.rules] == ["A", "A.4", "A.4.1", "A.4.2", "A.9", "A.9.1"]
    # A bulleted subsection with rules of its own is read as printed.
    plain = parse_text("## A. Things\n### 4. Widget\n- 5. Sprocket\n- 5.1. Cog.\n### 6. Gadget")
    assert [rule.number for rule in plain.rules] == ["A", "A.4", "A.5", "A.5.1", "A.6"]
    # So is a run when the next heading does not jump past it.
    flat = parse_text("## A. Things\n### 4. Widget\n- 5. Sprocket\n### 5. Gadget")
    assert [rule.number for rule in flat.rules][:3] == ["A", "A.4", "A.5"]


def test_empty_number_and_empty_bullets_are_reported(book, rules):
    assert rules["G.29.2.2"].raw_text == ""
    empty = [issue for issue in book.issues if issue.kind == "empty"]
    assert {issue.line for issue in empty} == {486, 494, 1387}
    assert {entry.line: entry.reason for entry in book.skipped if entry.line in (486, 494)} == {
        486: "empty bullet",
        494: "empty bullet",
    }


def test_title_and_credits_are_skipped_with_reasons(book):
    reasons = {entry.line: entry.reason for entry in book.skipped}
    assert reasons[3] == "title"
    assert all("Credits" in reasons[line] for line in (1482, 1484, 1486, 1488, 1490))
    assert not any(reason == UNRECOGNISED for reason in reasons.values())


def test_coverage(book):
    assert coverage(book.nonblank_lines, book.skipped) >= 0.995
    ingested = {line for rule in book.rules for line in rule.lines}
    assert len(ingested) + len(book.skipped) == book.nonblank_lines == 952


def test_ranges_expand_to_each_rule_between_the_endpoints(book):
    targets = {(ref.from_number, ref.raw_text): ref.target_numbers for ref in book.references}
    assert targets[("D.7.9.1.1", "steps 7.2. - 7.8.")] == [f"D.7.{n}" for n in range(2, 9)]
    assert targets[("D.10.1", "actions 5 - 9")] == [f"D.{n}" for n in range(5, 10)]
    assert targets[("D.9.10.3", "8.9.1. and/ or 8.9.2.")] == ["D.8.9.1", "D.8.9.2"]
    # Missing endpoints are kept so the build reports them dangling.
    assert targets[("A.1.7", "1.4.1. - 1.4.3.")] == ["A.1.4.1", "A.1.4.3"]
    assert targets[("F.5.3", "phases C.5.2., C.5.6. to C.5.9.")] == ["C.5.2", "C.5.6", "C.5.9"]


def test_qualified_and_cued_references(book):
    found = {(ref.from_number, tuple(ref.target_numbers)) for ref in book.references}
    assert ("E.13.3", ("E.11",)) in found
    assert ("E.3.4", ("D.10.3",)) in found  # (D.10.3.)
    assert ("F.22.5", ("F.21.2",)) in found  # Rule 21.2
    assert ("G.12.2", ("D.8",)) in found
    assert len(book.references) == 33


def test_numbers_in_prose_are_not_references(book):
    sources = {ref.from_number for ref in book.references}
    assert "D.1.2.1" not in sources  # replace 0 - 4 of them
    assert "G.25.2.2.4" not in sources  # - 1 Power
    assert "G.25.2.1" not in sources


def test_keywords_glossary_terms_and_bold_defined_terms(book):
    by_kind: dict[str, list] = {}
    for keyword in book.keywords:
        by_kind.setdefault(keyword.kind, []).append(keyword)
    keywords = {k.term: k.defining_number for k in by_kind["keyword"]}
    assert len(keywords) == 27 and keywords["Hallowed"] == "E.26" and keywords["Vulnerable"] == "E.33"
    assert "Random Keyword" not in keywords  # E.1 lists keywords; it is not one
    glossary = {k.term: k.defining_number for k in by_kind["glossary term"]}
    assert len(glossary) == 37 and glossary["Last Breath"] == "G.21"
    defined = {k.term: k.defining_number for k in by_kind["defined term"]}
    assert defined == {
        "active player": "A.2.3",
        "inactive player": "A.2.4",
        "priority": "A.4.1",
        "action": "A.4.2.1",
        "passing": "A.4.2.2",
        "backrow": "B.1.1",
        "combat zone": "B.1.1",
    }


def test_a_file_without_numbered_lines_is_an_ingest_error():
    with pytest.raises(IngestError) as error:
        parse_text("# A title\n\nJust prose here.\n")
    assert "synthetic.md" in str(error.value) and "numbered rules" in str(error.value)


def test_sniff(lines):
    assert runeterra.sniff(lines)
    assert not runeterra.sniff(read_lines(CORPUS_DIR / "pox-nora-rules.txt"))
    assert not runeterra.sniff(read_lines(CORPUS_DIR / "rush-of-ikorr-comprehensive-rules-1.1.txt"))
