"""The adapter for the Riftbound Core Rules 2025-06-02 layout (``NUMBER<TAB>TEXT``).

Most tests read the bundled document and check one hazard class from
corpus/HAZARDS.md section 4 each; the small synthetic documents at the end check
that the repairs follow the shape of the damage, not its place in that file.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ingest import riftbound, riftbound_tabbed
from ingest.documents import CORPUS_DIR
from ingest.errors import IngestError
from ingest.outline import UNRECOGNISED, coverage, ingested_share, natural_key
from ingest.source import read_lines

SOURCE = CORPUS_DIR / "riftbound-core-rules-2025-06-02.txt"
WELL_FORMED = re.compile(r"^(\d{3}(?:\.(?:\d+|[a-z]))*)\.?\t")


@pytest.fixture(scope="module")
def lines():
    return read_lines(SOURCE)


@pytest.fixture(scope="module")
def book(lines):
    return riftbound_tabbed.parse(lines, SOURCE)


@pytest.fixture(scope="module")
def rules(book):
    return {rule.number: rule for rule in book.rules}


def issues_of(book, kind):
    return [issue for issue in book.issues if issue.kind == kind]


def parse_text(text: str):
    return riftbound_tabbed.parse(text.split("\n"), Path("synthetic.txt"))


# -- recognising the format -------------------------------------------------------------------


def test_the_family_adapter_reads_this_layout_here_only(lines):
    """One rule per line, continuation lines marked by a tab: unmarked lines are rules that lost their number."""
    assert riftbound.profile(lines).marked_continuations
    for other in ("riftbound-core-rules-2025-12-01.txt", "riftbound-core-rules-2026-06-18.txt"):
        assert not riftbound.profile(read_lines(CORPUS_DIR / other)).marked_continuations
    assert not riftbound.profile([line.replace("\t", " ", 1) for line in lines]).marked_continuations


def test_a_file_without_numbered_lines_is_an_ingest_error():
    with pytest.raises(IngestError) as error:
        riftbound_tabbed.parse(["Riftbound Core Rules", "", "Just prose here."], Path("prose.txt"))
    assert "NUMBER" in error.value.expected


def test_document_header_is_skipped_with_a_reason(book):
    reasons = {entry.line: entry.reason for entry in book.skipped}
    assert reasons[1] == reasons[3] == "document header"


# -- numbers, order, parents ------------------------------------------------------------------


def test_canonical_numbers_keep_leading_zeros_and_drop_the_trailing_dot(rules):
    assert rules["053.1"].parent == "053"
    assert rules["053.1"].raw_text == 'Units and legends say "I," "me," etc.'
    assert rules["000"].heading == "Golden and Silver Rules"
    assert rules["626.1.d.1.a"].parent == "626.1.d.1"
    assert rules["626.1.d.1.a"].depth == 4
    assert rules["553.5"].raw_text == "Otherwise, Focus passes to the next Relevant Player in Turn Order."


def test_hundreds_chapters_are_not_parents(rules):
    assert rules["101"].parent is None and rules["501"].parent is None and rules["701"].parent is None
    assert rules["500"].heading == "Playing the Game"


def test_rules_come_in_number_order_with_unique_numbers(book):
    numbers = [rule.number for rule in book.rules]
    assert numbers == sorted(numbers, key=natural_key)
    assert len(numbers) == len(set(numbers))


def test_every_printed_number_exists_once_unless_reported(book, lines):
    present = [rule.number for rule in book.rules]
    reported = {issue.number for issue in book.issues if issue.kind in {"duplicate", "garbage"}}
    for line in lines:
        if (match := WELL_FORMED.match(line)) is not None:
            number = match.group(1)
            assert present.count(number) == 1 or number in reported, number
    assert {"107.2.u", "715.5.d"} <= reported


def test_every_nonblank_line_is_ingested_or_skipped(book, lines):
    used = {line for rule in book.rules for line in rule.lines} | {entry.line for entry in book.skipped}
    assert used >= {index for index, text in enumerate(lines, start=1) if text.strip()}
    assert book.nonblank_lines == 1387
    assert ingested_share(book.nonblank_lines, book.skipped) == pytest.approx(1 - 17 / 1387)
    assert coverage(book.nonblank_lines, book.skipped) >= 0.995
    assert all(entry.reason != UNRECOGNISED for entry in book.skipped)


# -- reversed blocks ---------------------------------------------------------------------------


def test_reversed_glossary_block_is_read_bottom_up(rules):
    assert rules["727"].heading == "Tank" and rules["727"].parent is None
    assert rules["727.1"].raw_text == "Tank is a Passive Ability keyword."
    assert rules["727.1"].parent == "727"
    assert rules["727.1.a"].parent == "727.1"


def test_chapter_heading_buried_in_a_reversed_block(rules, book):
    numbers = [rule.number for rule in book.rules]
    assert numbers.index("183.1") < numbers.index("500") < numbers.index("501") < numbers.index("502")
    assert rules["183.1"].parent == "183"
    assert rules["182"].heading == "Everything Else"


def test_continuation_far_below_its_rule_joins_it_in_reading_order(rules):
    rule = rules["592.4"]
    assert rule.lines == [836, 879]
    assert rule.raw_text.startswith("When Exhausting is listed as a Cost , then the Action must be able")
    assert rule.raw_text.split("\n")[1].startswith('Example: A spell says "As an additional cost to play this')
    assert rules["592.5"].raw_text.startswith("In abilities, the Exhaust symbol")


def test_rule_split_in_wrong_order_with_a_spaced_number(rules, book):
    assert rules["589.2.a"].raw_text == (
        "A Limited Action is a game action that a spell, ability, or circumstance of the turn's\n"
        "progression causes the player to perform. A player cannot perform these actions at-will."
    )
    assert rules["589.2.a"].parent == "589.2"
    assert any(issue.line == 857 and issue.kind == "malformed" for issue in book.issues)


def test_misaligned_text_is_realigned(rules, book):
    assert rules["594.3"].raw_text.endswith(
        'Give me +1 [S]\nthis turn." Each time a player activates the ability, they must recycle 1 card from '
        "their trash to pay its cost. If they have no cards in their trash, they can't activate the ability, "
        "because they can't pay its cost."
    )
    assert rules["594.4"].raw_text == (
        "When Recycling is part of an effect, a player must Recycle as many cards as possible from\n"
        "the specified zone or zones."
    )
    assert rules["594.5"].raw_text.startswith(
        "If 2 or more cards are Recycled to the Main Deck simultaneously, they are placed on the\n"
        "bottom of that deck in a random order. Example: Garbage Grabber"
    )
    assert rules["594.5"].lines == [862, 861]
    assert rules["594.5.a"].raw_text.startswith("If 2 or more cards are Recycled to the Rune Deck")
    assert {862, 863} <= {issue.line for issue in issues_of(book, "malformed")}
    assert 861 in {issue.line for issue in issues_of(book, "garbage")}


def test_two_rules_on_one_line_and_a_mislabelled_number(rules, book):
    assert rules["510.4"].raw_text == "Showdown Closed: A Showdown is in progress and a Chain exists."
    assert rules["511"].heading == "Priority and Focus" and rules["511"].lines == [448]
    assert rules["512"].raw_text == "At any given time, up to one player has Priority."
    assert rules["512"].inferred and rules["512"].printed_number == "511."
    assert rules["512.1"].parent == "512"
    orphans = {issue.number for issue in issues_of(book, "orphan")}
    assert not orphans & {"512.1", "512.2"}


def test_merged_label_line_is_split(rules, book):
    assert rules["642.4.b"].raw_text == "This may involve utilizing less Battlefields than there are players."
    assert rules["642.4.b"].inferred and rules["642.4.b"].parent == "642.4"
    assert rules["642.5"].raw_text == "Setup: Any changes to initial setup required for this mode."
    assert any(issue.number == "642.4.b" and issue.kind == "malformed" for issue in book.issues)


# -- the unnumbered Combat section ---------------------------------------------------------------

COMBAT = {
    "620": "Combat",
    "621": "A Combat occurs when",
    "622": "Combat is considered Pending",
    "622.1": "If more than one Battlefield",
    "622.2": "If Pending Combats stop",
    "623": "Combat can only occur",
    "623.1": "In Modes of Play with more than two players, Battlefields",
    "623.2": "In Modes of Play with more than two players, Battlefields",
    "623.2.a": "If an effect would",
    "623.2.b": "Any subsequent reference",
    "623.3": "All choices that would result",
    "624": "The Steps of Combat",
    "625": "The Showdown Step",
    "625.1": "A Showdown opens at this time.",
    "625.1.a": "Establish who is Attacker",
    "625.1.a.1": "The Attacker is the player",
    "625.1.a.2": "The Defender is the player",
    "625.1.b": "Modulate Unit Might now",
    "625.1.b.1": "Attacking Units with Assault",
}


def test_unnumbered_combat_lines_get_recovered_numbers(rules, book):
    for number, start in COMBAT.items():
        assert rules[number].raw_text.startswith(start), number
        assert rules[number].inferred, number
    assert "Invalid Destinations" in rules["623.1"].raw_text
    assert "Invalid to be chosen" in rules["623.2"].raw_text
    numbers = [rule.number for rule in book.rules]
    assert numbers[numbers.index("619.1") + 1 : numbers.index("625.1.c")] == list(COMBAT)


def test_combat_headings_parents_and_glued_line(rules):
    assert rules["620"].heading == "Combat" and rules["624"].heading == "The Steps of Combat"
    assert rules["625.1.b"].parent == "625.1"
    assert rules["625.1.b"].raw_text == "Modulate Unit Might now based on static combat abilities."
    assert (
        rules["625.1.a.2"].raw_text
        == "The Defender is the player who did not apply the Contested status to the Battlefield ."
    )
    assert rules["625.1.a.2"].lines == rules["625.1.b"].lines == [1072]
    assert rules["625.1.c"].parent == "625.1" and not rules["625.1.c"].inferred


def test_references_to_combat_resolve(book, rules):
    targets = {target for reference in book.references for target in reference.target_numbers}
    assert {"620", "624"} <= targets
    assert all(target in rules for target in targets)


# -- malformed numbers ------------------------------------------------------------------------


def test_garbage_number_gives_its_text_to_the_empty_number_after_it(rules, book):
    assert rules["583.2.b"].raw_text == "The Effect is the Instruction that follows the comma after the Condition ."
    assert rules["583.2.b"].lines == [812, 813]
    assert any(issue.line == 812 and issue.kind == "garbage" for issue in book.issues)
    assert any(issue.number == "583.2.b" and issue.kind == "empty" for issue in book.issues)


def test_bogus_and_empty_numbers_are_reported(rules, book):
    assert "107.2.u" not in rules and "715.5.d" not in rules
    assert rules["167.2.a"].lines == [375, 376]
    assert any(issue.number == "107.2.u" and issue.kind == "duplicate" for issue in book.issues)
    assert any(entry.line == 1294 for entry in book.skipped)
    assert rules["713.3.a.1"].parent == "713.3.a"
    assert any(issue.number == "553.5" and "trailing dot" in issue.message for issue in book.issues)
    assert any(issue.number == "724.1.c" and "glued" in issue.message for issue in book.issues)


def test_garbage_lines_are_skipped_with_reasons(book):
    skipped = {entry.line: entry.reason for entry in book.skipped}
    assert set(skipped) == {1, 3, *range(168, 181), 940, 1294}
    assert all("clipped" in skipped[line] for line in range(168, 181))
    assert "garbage" in skipped[940]


def test_orphans_are_reported(book):
    orphans = {issue.number for issue in issues_of(book, "orphan")}
    assert orphans == {"132.4.b", "132.5", "132.6", "583.3.a", "583.3.b"}


# -- continuations ------------------------------------------------------------------------------


def test_continuations_over_several_lines(rules):
    rule = rules["563.2.c.4"]
    assert rule.lines == [751, 752, 753, 755]
    assert rule.raw_text.split("\n")[1].startswith("A unit with 3 or less Might is no longer a legal target")
    assert rules["603.3.a"].lines == [969, 970, 971, 972]
    assert rules["603.3.a"].raw_text.split("\n")[-1].startswith("If the turn player passes the turn without")
    assert rules["106.5.c"].raw_text == (
        "The Champion Legend here is a Game Object .\nSee rule 119. Game Objects for more information."
    )
    assert rules["600.4.a"].lines == [939, 942]


# HAZARDS.md 4.6: every unnumbered continuation line and the rule it belongs to.
CONTINUATION_OWNERS = {
    74: "106.5.c",
    155: "127.4",
    400: "176.1.a",
    569: "530.1",
    690: "559.3.c.4",
    706: "559.5",
    752: "563.2.c.4",
    753: "563.2.c.4",
    755: "563.2.c.4",
    760: "563.2.c.8",
    761: "563.2.c.8",
    771: "568.1",
    775: "568.3.a",
    857: "589.2.a",
    861: "594.5",
    879: "592.4",
    922: "599.1.a.1",
    942: "600.4.a",
    961: "602.3",
    970: "603.3.a",
    971: "603.3.a",
    972: "603.3.a",
    976: "603.5",
    977: "603.5",
    989: "604.4",
    990: "604.4",
    998: "605.5",
    999: "605.5",
    1006: "606.4",
    1007: "606.4",
    1136: "637.1.c",
}


def test_every_continuation_line_joins_its_owner(book, lines):
    owner = {line: rule.number for rule in book.rules for line in rule.lines}
    assert {line: owner.get(line) for line in CONTINUATION_OWNERS} == CONTINUATION_OWNERS
    for line, number in CONTINUATION_OWNERS.items():
        text = lines[line - 1].partition("\t")[2].strip()
        assert text[:40] in {rule.number: rule for rule in book.rules}[number].raw_text


# -- headings, keywords, references ---------------------------------------------------------------


@pytest.mark.parametrize(
    "text, heading",
    [
        ("Golden and Silver Rules", "Golden and Silver Rules"),
        ("Cleanups", "Cleanups"),
        ("1v1 (Match)", None),
        ("2 Players", None),
        ("Victory Score: 8", None),
        ("Pass.", None),
        ("Tank is a Passive Ability keyword.", None),
        ("The method of assignment", None),
    ],
)
def test_heading_shape(text, heading):
    assert riftbound_tabbed.heading_of(text) == heading


def test_heading_rules_in_the_document(rules):
    assert rules["518"].heading == "Cleanups"
    assert rules["716"].heading == "Keyword Glossary"
    assert rules["553.4"].heading is None


def test_keyword_glossary_and_defined_terms(book):
    glossary = [(keyword.term, keyword.defining_number) for keyword in book.keywords if keyword.kind == "keyword"]
    assert glossary == [
        (term, str(number))
        for number, term in enumerate(
            [
                "Accelerate",
                "Action",
                "Assault",
                "Deathknell",
                "Deflect",
                "Ganking",
                "Hidden",
                "Legion",
                "Reaction",
                "Shield",
                "Tank",
                "Temporary",
                "Vision",
            ],
            start=717,
        )
    ]
    defined = {(keyword.term, keyword.defining_number) for keyword in book.keywords if keyword.kind == "defined term"}
    assert {("Buff", "602"), ("Mighty", "706"), ("Recalls", "616"), ("Cleanups", "518"), ("Chains", "532")} <= defined
    assert not {term for term, _ in defined} & {term for term, _ in glossary}


def test_references_are_collected_from_every_rule(book):
    assert len(book.references) == 100
    by_source = {(reference.from_number, tuple(reference.target_numbers)) for reference in book.references}
    assert ("561.1.a", ("158", "605")) in by_source
    assert ("577.3.b", ("557", "558", "559", "560", "561", "562", "563")) in by_source
    assert ("623.2.b", ("559.3.c",)) in by_source


# -- the repairs follow the shape, not the place ------------------------------------------------------


def test_synthetic_reversed_block_with_continuation_above_its_rule():
    book = parse_text(
        "\n".join(
            [
                "Riftbound Core Rules",
                "",
                "100.\tIntro",
                "101.\tFirst rule.",
                "",
                "103.1.\tSub rule.",
                "\tExample: belongs to 103.",
                "103.\tThird rule",
                "102.\tSecond rule.",
                "",
                "104.\tFourth rule.",
            ]
        )
    )
    rules = {rule.number: rule for rule in book.rules}
    assert [rule.number for rule in book.rules] == ["100", "101", "102", "103", "103.1", "104"]
    assert rules["103"].raw_text == "Third rule\nExample: belongs to 103."
    assert rules["103.1"].parent == "103"


def test_synthetic_misaligned_reversed_block():
    book = parse_text(
        "\n".join(
            [
                "Riftbound Core Rules",
                "",
                "200.\tStart.",
                "",
                "201.3.\tthe end of two. Three starts and runs",
                "201.2.\tends here. Two starts and runs to",
                "201.1.\tOne starts and runs to where it",
                "201.\tTopic",
                "",
                "\trest of three.",
                "202.\tNext.",
            ]
        )
    )
    rules = {rule.number: rule for rule in book.rules}
    assert rules["201.1"].raw_text == "One starts and runs to where it\nends here."
    assert rules["201.2"].raw_text == "Two starts and runs to\nthe end of two."
    assert rules["201.3"].raw_text == "Three starts and runs\nrest of three."


def test_synthetic_unnumbered_run_is_numbered_from_its_shape():
    book = parse_text(
        "\n".join(
            [
                "Riftbound Core Rules",
                "",
                "300.\tBefore.",
                "",
                "Movement",
                "Movement happens when told.",
                "Choose a destination.",
                "The destination must be empty.",
                "Move there.",
                "Moving is final.",
                "",
                "301.1.c.\tPrinted.",
            ]
        )
    )
    recovered = {rule.number: rule.raw_text for rule in book.rules if rule.inferred}
    assert recovered == {
        "301": "Movement",
        "301.1": "Movement happens when told.",
        "301.1.a": "Choose a destination.",
        "301.1.a.1": "The destination must be empty.",
        "301.1.b": "Move there.",
        "301.1.b.1": "Moving is final.",
    }
    assert not [issue for issue in book.issues if issue.kind == "orphan"]


def test_synthetic_unnumbered_run_that_cannot_fit_is_skipped_and_reported():
    book = parse_text(
        "\n".join(
            [
                "Riftbound Core Rules",
                "",
                "400.\tA.",
                "",
                "Lost Heading",
                "Some statement.",
                "",
                "400.1.\tB.",
            ]
        )
    )
    assert [rule.number for rule in book.rules] == ["400", "400.1"]
    assert {entry.line for entry in book.skipped if "not recoverable" in entry.reason} == {5, 6}
    assert len([issue for issue in book.issues if issue.kind == "orphan"]) == 2
