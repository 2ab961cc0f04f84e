"""The Riftbound Core Rules 2025-12-01 adapter (spaced layout), on the real document and on small damaged texts."""

import re
from collections import Counter
from pathlib import Path

import pytest

from ingest import riftbound
from ingest.errors import IngestError
from ingest.outline import coverage
from ingest.source import read_lines

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
DOCUMENT = CORPUS / "riftbound-core-rules-2025-12-01.txt"


@pytest.fixture(scope="module")
def lines():
    return read_lines(DOCUMENT)


@pytest.fixture(scope="module")
def book(lines):
    return riftbound.parse(lines, DOCUMENT)


@pytest.fixture(scope="module")
def rules(book):
    return {rule.number: rule for rule in book.rules}


def parse_text(text: str):
    return riftbound.parse(text.split("\n"), Path("sample.txt"))


# --- the real document -------------------------------------------------------------------------------


def test_rule_count(book):
    assert len(book.rules) == 1794


def test_every_printed_number_exists_exactly_once(lines, book):
    printed = {match.group(1) for line in lines if (match := re.match(r"(\d{3}(?:\.[0-9a-z]+)*)\.? ", line))}
    numbers = [rule.number for rule in book.rules]
    assert len(numbers) == len(set(numbers))
    assert set(numbers) == printed


def test_every_parent_exists_or_is_reported_as_orphan(book, rules):
    orphans = {issue.number for issue in book.issues if issue.kind == "orphan"}
    missing = {rule.number for rule in book.rules if rule.parent is not None and rule.parent not in rules}
    assert missing == orphans == {"721.1"}


def test_document_order_is_kept(book):
    assert [rule.lines[0] for rule in book.rules] == sorted(rule.lines[0] for rule in book.rules)


def test_issues_by_kind(book):
    assert Counter(issue.kind for issue in book.issues) == {"malformed": 26, "duplicate": 1, "orphan": 1, "dangling": 1}


def test_coverage_and_skipped_header(book):
    assert coverage(book.nonblank_lines, book.skipped) >= 0.995
    assert [(entry.line, entry.reason) for entry in book.skipped] == [(1, "document header"), (3, "document header")]


def test_combat_damage_rules(rules):
    rule = rules["443.1.e"]
    assert rule.raw_text == "Deal Damage to each unit equal to the amount assigned to it."
    assert (rule.parent, rule.depth, rule.heading) == ("443.1", 2, None)
    assert rules["443"].heading == "Step 2: The Combat Damage Step"
    step = rules["444"]
    assert (step.raw_text, step.heading, step.parent) == (
        "Step 3: The Resolution Step",
        "Step 3: The Resolution Step",
        None,
    )


def test_section_headings(rules):
    assert (rules["318"].raw_text, rules["318"].heading) == ("Cleanups", "Cleanups")
    assert rules["326"].heading == "Chains"
    assert rules["730"].heading == "Keyword Glossary"


def test_duplicate_number_keeps_both_texts(rules):
    rule = rules["744.5"]
    assert rule.raw_text == (
        "Equip, and whether or not a Gear has Equip, is a characteristic of the Gear and may be checked or "
        "referenced by other Game Effects.\n"
        "Whether or not a Gear has Equip may be referenced even if the Rules Text of the Gear is Inactive.\n"
        "See rule 716 Attachment for more information."
    )
    assert rule.lines == [3838, 3840, 3841]
    assert rule.parent == "744"


def test_example_line_belongs_to_the_rule_above(rules):
    rule = rules["443.1.d.9"]
    assert rule.raw_text.split("\n") == [
        "If a unit cannot be dealt damage, then no amount of damage can be considered lethal. Such a unit is "
        "exempt from any considerations of mandatory assignment.",
        "Example: Kayn, Unleashed says “If I have moved twice this turn, I don't take damage.” While Kayn can’t "
        "take damage, it is ignored for the purposes of assigning lethal damage in combat.",
    ]
    assert rule.lines == [2884, 2885]


def test_see_rule_lines_belong_to_the_rule_above(book, rules):
    rule = rules["106.4.d"]
    assert rule.raw_text.split("\n")[1:] == [
        "See rule 318. Cleanups for more information.",
        "See rule 408. Hide for more information.",
    ]
    references = [(ref.raw_text, ref.target_numbers) for ref in book.references if ref.from_number == "106.4.d"]
    assert references == [("See rule 318. Cleanups", ["318"]), ("See rule 408. Hide", ["408"])]


def test_inner_list_numbering_stays_in_the_text(rules):
    assert rules["322.1"].raw_text == "1. If a player has as many points as the Victory Score, that player wins."
    assert rules["322.1"].parent == "322"
    assert rules["352"].raw_text.startswith("2. Make necessary choices.")
    assert rules["053.1"].raw_text == '* Units and legends say "I," "me," etc.'
    assert rules["053.1"].parent == "053"


def test_number_without_trailing_dot(book, rules):
    rule = rules["130.4"]
    assert rule.printed_number == "130.4"
    assert rule.parent == "130"
    assert rule.raw_text.startswith(
        "Effects that need to determine a card’s cost for any purpose always use its base cost"
    )
    assert rule.raw_text.split("\n")[1].startswith("Example: Sky Splitter")
    malformed = {issue.number for issue in book.issues if issue.kind == "malformed"}
    assert {"130.4", "322.2", "454.3.d.1.b", "747.4"} <= malformed
    assert rules["322.2"].raw_text == "2. Handle outstanding board state"


def test_text_lines_that_start_with_a_digit_continue_their_rule(rules):
    assert rules["462.2"].raw_text == "1v1\n1 opponent each\nNo teams"
    assert rules["462.2"].heading is None


def test_every_see_rule_line_resolves(lines, book, rules):
    see_lines = {index for index, line in enumerate(lines, start=1) if line.startswith("See ")}
    assert len(see_lines) == 127
    see_refs = [ref for ref in book.references if ref.raw_text.startswith("See ")]
    dangling = [(ref.from_number, number) for ref in see_refs for number in ref.target_numbers if number not in rules]
    assert dangling == []
    assert all(number in rules for ref in book.references for number in ref.target_numbers)


def test_stale_cited_title_is_reported(book):
    (issue,) = [issue for issue in book.issues if issue.kind == "dangling"]
    assert issue.number == "345.2.a" and "179" in issue.message and "Control" in issue.message


def test_keyword_glossary(book):
    keywords = [
        (keyword.term, keyword.kind, keyword.defining_number) for keyword in book.keywords if keyword.kind == "keyword"
    ]
    assert keywords[0] == ("Accelerate", "keyword", "731")
    assert keywords[-1] == ("Weaponmaster", "keyword", "747")
    assert [term for term, _, _ in keywords] == [
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
        "Equip",
        "Quick-Draw",
        "Repeat",
        "Weaponmaster",
    ]


def test_defined_terms_come_from_headings_that_open_their_definition(book):
    defined = {keyword.term: keyword.defining_number for keyword in book.keywords if keyword.kind == "defined term"}
    assert defined["Recalls"] == "432" and defined["Cleanups"] == "318" and defined["Draw"] == "400"
    assert defined["Buff"] == "413" and "Buffs" not in defined  # one term per lemma: the first heading keeps it
    assert defined["Banish"] == "414"
    assert defined["Combat"] == "437"  # the section, not the phase step 316.4 that shares the word
    assert "Action" not in defined  # a glossary keyword (732) wins over the heading 155.2.a
    assert "Setup" not in defined and "Conceding" not in defined  # headings whose next rule defines nothing


def test_sniff_claims_every_riftbound_rulebook_and_nothing_else():
    claimed = {path.name for path in CORPUS.glob("*.txt") if riftbound.sniff(read_lines(path))}
    assert claimed == {
        "riftbound-core-rules-2025-06-02.txt",
        DOCUMENT.name,
        "riftbound-core-rules-2026-06-18.txt",
        "riftbound-tournament-rules-2026-07-16.txt",
    }


# --- small damaged texts -----------------------------------------------------------------------------


def test_numbers_printed_out_of_order_are_reported_and_put_back():
    book = parse_text("101. Deck Construction\n\n102.2. Second.\n\n102. Decks.\n\n102.1. First.")
    assert [rule.number for rule in book.rules] == ["101", "102", "102.1", "102.2"]
    reordered = [issue for issue in book.issues if issue.kind == "reordered"]
    assert len(reordered) == 2 and reordered[0].number == "102"


def test_number_without_text_takes_the_next_line_or_is_reported_empty():
    book = parse_text("101. Setup\n\n101.1.\n\nShuffle your deck.\n\n101.2.")
    texts = {rule.number: rule.raw_text for rule in book.rules}
    assert texts == {"101": "Setup", "101.1": "Shuffle your deck.", "101.2": ""}
    assert [(issue.kind, issue.number) for issue in book.issues] == [("empty", "101.2")]


def test_lines_before_the_first_rule_are_the_document_header():
    book = parse_text("Riftbound Core Rules\n\nLast Updated: 2026-01-01\n\n101. Setup")
    assert [(entry.line, entry.reason) for entry in book.skipped] == [(1, "document header"), (3, "document header")]


def test_text_without_rule_numbers_is_an_ingest_error():
    with pytest.raises(IngestError) as error:
        parse_text("Riftbound Core Rules\n\nNothing numbered here.")
    assert error.value.path == "sample.txt"
    assert (error.value.line, error.value.found) == (1, "Riftbound Core Rules")


def test_sniff_reads_the_outline_not_the_share_of_numbered_lines():
    outline = [f"{100 + chapter}. Chapter {chapter}\n{100 + chapter}.1. A rule." for chapter in range(6)]
    wrapped = [f"{block}\nthat wraps\nover\nmany lines." for block in outline]
    assert riftbound.sniff("\n".join(wrapped).split("\n"))
    assert riftbound.sniff("\n".join(outline).replace(". ", ".\t").split("\n"))
    shuffled = [f"{number}. Text." for number in ("512", "104.3", "733.2.b", "101.9", "650", "201.4.c") * 3]
    assert not riftbound.sniff(shuffled)


@pytest.mark.parametrize(
    "text, has_children, expected",
    [
        ("Cleanups", False, True),
        ("Step 2: The Combat Damage Step", False, True),
        ("1v1 (Duel)", True, True),
        ("“Can’t beats Can”", False, True),
        ("1. Activate or trigger the Ability", True, True),
        ("2. Handle outstanding board state", False, False),
        ("2 Players", False, False),
        ("12 Rune Cards", False, False),
        ("Victory Score: 8", False, False),
        ("1v1", False, False),
        ("After a Move is completed", False, False),
        ("Tokens are not cards.", False, False),
        ("Equip is formatted as “Equip [Cost]”", False, False),
        ("Insert “2c. Heal all Units.”", False, False),
        ("A Main Deck of at least 40 cards 1 Chosen Champion Unit Units Gear Spells", False, False),
    ],
)
def test_heading_shape(text, has_children, expected):
    assert riftbound.looks_like_heading(text, has_children=has_children) is expected


def test_every_cited_title_but_the_stale_one_matches_its_target_heading(book, rules):
    from ingest.riftbound_refs import cited_titles

    cited = [(number, title) for rule in book.rules for number, title in cited_titles(rule.raw_text)]
    assert len(cited) > 100
    unmatched = {
        (number, title)
        for number, title in cited
        if title.lower().removeprefix("the ") != (rules[number].heading or "").lower().removeprefix("the ")
    }
    assert unmatched == {("179", "Control")}


def test_symbols_shorthand_is_read_off_the_rules_that_define_it():
    """A rule saying a symbol's shorthand ("Its shorthand is [A].", "indicated by the [>] symbol", a former
    shorthand "given its shorthand as [T]") defines it, meaning the subject of its first sentence; a rule naming a
    shorthand without defining anything, or a second definition of one, adds nothing; text stays as written."""
    from ingest import symbols
    from ingest.model import ParsedRule

    rules = [
        ParsedRule("1.1", "Power of any Domain is represented by a swirl. Its shorthand is [A].", [1]),
        ParsedRule(
            "1.2",
            "The <b>cost</b> of Exhausting is represented by a card turning. Its shorthand is [E]. "
            "(Some previous rules information has given its shorthand as [T].)",
            [2],
        ),
        ParsedRule("1.3", "A keyword associated with an ability is indicated by the [>] symbol.", [3]),
        ParsedRule("1.4", "<script>x</script> is associated with red. Its shorthand is [<i>].", [4]),
        ParsedRule("1.5", "Pay [A] to draw. Its shorthand is [Q].", [5]),  # no subject: no definition
        ParsedRule("1.6", "Anything else is represented by a star. Its shorthand is [A].", [6]),  # [A] again
    ]
    found = {(s.shorthand, s.meaning, s.number) for s in symbols.find(rules)}
    assert found == {
        ("[A]", "Power of any Domain", "1.1"),
        ("[E]", "The cost of Exhausting", "1.2"),
        ("[T]", "The cost of Exhausting", "1.2"),
        ("[>]", "A keyword associated with an ability", "1.3"),
    }


def test_the_core_rules_define_their_symbols_and_the_domains_shorthand():
    """The bundled Core Rules that define shorthand (1.4: 135.2.e; 2025-12-01: 134.2.e) define the symbols and the
    domains' shorthand; each meaning is a few words, never the whole rule."""
    for name in ("riftbound-core-rules-2025-12-01.txt", "riftbound-core-rules-2026-06-18.txt"):
        path = CORPUS / name
        book = riftbound.parse(read_lines(path), path)
        defined = {symbol.shorthand: symbol for symbol in book.symbols}
        assert {"[A]", "[C]", "[E]", "[M]", "[R]", "[G]", "[B]", "[O]", "[P]", "[Y]"} <= set(defined), name
        assert defined["[A]"].meaning == "Power of any Domain"
        assert all(len(symbol.meaning.split()) <= 12 for symbol in book.symbols)
