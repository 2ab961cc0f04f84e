"""The Q&A rulings adapter on the real file (counts from HAZARDS.md section 7)
and on small texts that exercise each shape of the format."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest import riftboundfaq
from ingest.documents import CORPUS_DIR
from ingest.errors import IngestError
from ingest.rulings import find_citations, parse, sniff
from ingest.source import read_lines

RULINGS = CORPUS_DIR / "riftbound-qa-rulings.txt"
FAKE = Path("fake-rulings.txt")


@pytest.fixture(scope="module")
def lines() -> list[str]:
    return read_lines(RULINGS)


@pytest.fixture(scope="module")
def parsed(lines):
    return parse(lines, RULINGS)


def by_position(parsed, position):
    ruling = parsed.rulings[position - 1]
    assert ruling.position == position
    return ruling


def test_fifty_rulings_start_at_the_audited_question_lines(parsed):
    question_lines = [
        1,
        6,
        12,
        20,
        27,
        31,
        37,
        49,
        55,
        73,
        84,
        94,
        104,
        118,
        129,
        134,
        141,
        146,
        157,
        167,
        171,
        183,
        190,
        194,
        199,
        211,
        215,
        220,
        227,
        239,
        247,
        262,
        273,
        287,
        298,
        310,
        321,
        333,
        342,
        351,
        355,
        364,
        374,
        379,
        389,
        397,
        410,
        421,
        432,
        445,
    ]
    assert [ruling.lines[0] for ruling in parsed.rulings] == question_lines
    assert all(ruling.question.startswith("When a unit") and ruling.question.endswith("?") for ruling in parsed.rulings)
    assert all(ruling.ruling and not ruling.ruling.startswith("Ruling") for ruling in parsed.rulings)


def test_step_and_nuance_totals(parsed):
    with_steps = [ruling for ruling in parsed.rulings if ruling.steps]
    with_nuances = [ruling for ruling in parsed.rulings if ruling.nuances]
    assert sum(len(ruling.steps) for ruling in parsed.rulings) == 161
    assert len(with_steps) == 34
    assert sum(len(ruling.nuances) for ruling in parsed.rulings) == 111
    assert len(with_nuances) == 47
    assert [ruling.position for ruling in parsed.rulings if not ruling.nuances] == [4, 28, 45]


def test_rulings_without_a_sequence(parsed):
    assert [ruling.position for ruling in parsed.rulings if not ruling.steps] == [
        1,
        2,
        3,
        5,
        6,
        8,
        15,
        17,
        20,
        22,
        23,
        24,
        26,
        27,
        40,
        43,
    ]


def test_branch_headers_label_their_steps_and_are_not_questions(parsed):
    ninth = by_position(parsed, 9)
    assert [step.position for step in ninth.steps] == list(range(1, 10))
    assert [step.branch for step in ninth.steps] == ["If Guardian Angel is chosen"] * 5 + ["If Zhonya's is chosen"] * 4
    assert [step.line for step in ninth.steps] == [59, 60, 61, 62, 63, 65, 66, 67, 68]
    assert 58 in ninth.lines and 64 in ninth.lines
    assert all(step.branch is None for ruling in parsed.rulings if ruling.position != 9 for step in ruling.steps)


def test_a_dash_inside_a_bullet_does_not_split_it(parsed):
    seventh = by_position(parsed, 7)
    assert seventh.nuances[-1] == (
        "This applies to all equipment - their additional abilities cannot be used while attached to a unit"
    )


def test_last_line_without_newline_is_the_third_nuance_of_ruling_50(parsed, lines):
    last = by_position(parsed, 50)
    assert len(last.nuances) == 3
    assert last.nuances[-1] == lines[-1][2:]
    assert len(lines) in last.lines


def test_every_nonblank_line_is_consumed(parsed, lines):
    consumed = [line for ruling in parsed.rulings for line in ruling.lines]
    assert len(consumed) == len(set(consumed)) == parsed.nonblank_lines == 455
    assert parsed.skipped == []


def test_explicit_citations_are_the_four_mentions_in_ruling_13(parsed):
    cited = [
        (ruling.position, citation.number, citation.raw_text)
        for ruling in parsed.rulings
        for citation in ruling.citations
    ]
    assert cited == [
        (13, "443.1.e", "step 443.1.e"),
        (13, "444", "step 444"),
        (13, "443.1.e", "(443.1.e)"),
        (13, "444", "(444)"),
    ]


def test_version_numbers_and_enumerations_are_not_citations():
    assert find_citations("present in the updated 1.1 version of the core rules") == []
    assert find_citations("Specifically: (1) does it move? (2) does it attack?") == []
    cited = find_citations("See rules 318.2 and 326, or rule 437.1.a.")
    assert [citation.number for citation in cited] == ["318.2", "326", "437.1.a"]


def test_sniff_tells_rulings_from_rulebooks(lines):
    assert sniff(lines)
    for other in ("riftbound-core-rules-2025-12-01.txt", "pox-nora-rules.txt", "runeterra-unofficial-rulebook.txt"):
        assert not sniff(read_lines(CORPUS_DIR / other))


def test_a_question_without_its_ruling_line_names_file_line_and_expectation(lines):
    damaged = [line for line in lines if not line.startswith("Ruling: Cleanup happens every time")]
    with pytest.raises(IngestError) as raised:
        parse(damaged, RULINGS)
    error = raised.value
    assert error.path == str(RULINGS)
    assert error.line == 21  # the Sequence: header that came where the Ruling: line belonged
    assert error.expected == "a 'Ruling:' line after the question"
    assert error.found == "Sequence:"


def test_two_questions_in_a_row_mean_the_first_lacks_its_ruling():
    text = ["When a unit moves, what happens?", "When a unit dies, what happens?", "Ruling: It dies."]
    with pytest.raises(IngestError) as raised:
        parse(text, FAKE)
    assert raised.value.line == 2


def test_a_question_at_the_end_of_the_file_lacks_its_ruling():
    text = ["When a unit moves, what happens?", "Ruling: It moves.", "When a unit dies, what happens?"]
    with pytest.raises(IngestError) as raised:
        parse(text, FAKE)
    assert raised.value.line == 3 and raised.value.found == "end of file"


def test_a_ruling_line_without_a_question_is_an_error():
    with pytest.raises(IngestError):
        parse(["Ruling: nothing was asked", "Nuances:", "- none"], FAKE)


def test_wrapped_lines_continue_the_text_above_them():
    text = [
        "When a unit is recalled,",
        "does it keep its buffs?",
        "Ruling: No. Buffs are",
        "removed as it leaves the board.",
        "Sequence:",
        "If the unit was buffed",
        "- The unit leaves the board and",
        "loses its buff",
        "- It arrives in base",
        "Nuances:",
        "- See rule 318.1",
    ]
    (ruling,) = parse(text, FAKE).rulings
    assert ruling.question == "When a unit is recalled, does it keep its buffs?"
    assert ruling.ruling == "No. Buffs are\nremoved as it leaves the board."
    assert [(step.text, step.branch) for step in ruling.steps] == [
        ("The unit leaves the board and\nloses its buff", "If the unit was buffed"),
        ("It arrives in base", "If the unit was buffed"),
    ]
    assert [citation.number for citation in ruling.citations] == ["318.1"]
    assert ruling.lines == list(range(1, 12))


def test_a_list_item_without_a_header_is_kept_and_reported():
    parsed = parse(["When a unit moves, what happens?", "Ruling: It moves.", "- Even when exhausted"], FAKE)
    assert parsed.rulings[0].nuances == ["Even when exhausted"]
    assert [(issue.kind, issue.line) for issue in parsed.issues] == [("malformed", 3)]


def test_a_faq_sites_pages_outside_every_category_are_its_notes_not_rulings(tmp_path):
    """A folder of MDX pages: the sections of a page in a category's folder are rulings, those of a page beside
    the folders (the site writing about itself) are its notes, in order, with their text and address."""
    (tmp_path / "meta.json").write_text('{"pages": ["welcome", "basics"]}', encoding="utf-8")
    (tmp_path / "welcome.mdx").write_text(
        '---\ntitle: "Welcome"\n---\n\n## How to read it [#reading]\n\nRead it slowly.\n\n'
        "## Small print [#small-print]\n\nNot endorsed by anyone.\nShared freely.\n",
        encoding="utf-8",
    )
    (tmp_path / "basics").mkdir()
    (tmp_path / "basics" / "meta.json").write_text('{"title": "Basics"}', encoding="utf-8")
    (tmp_path / "basics" / "turns.mdx").write_text(
        '---\ntitle: "Turns"\ncreatedAt: "2026-02-01"\n---\n\n## Who goes first? [#first]\n\nThe winner of the toss.\n',
        encoding="utf-8",
    )
    parsed = riftboundfaq.parse_path(tmp_path)
    assert [(ruling.position, ruling.question, ruling.category) for ruling in parsed.rulings] == [
        (3, "Who goes first?", "basics")  # numbered in source order, after the notes
    ]
    assert [(note.position, note.title, note.text, note.url) for note in parsed.notes] == [
        (1, "How to read it", "Read it slowly.", "https://www.riftboundfaq.com/welcome#reading"),
        (
            2,
            "Small print",
            "Not endorsed by anyone. Shared freely.",  # one sentence a line, one paragraph
            "https://www.riftboundfaq.com/welcome#small-print",
        ),
    ]
