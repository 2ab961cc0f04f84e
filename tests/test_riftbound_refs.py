"""Cross-reference forms in Riftbound rule text (both Core Rules layouts)."""

from pathlib import Path

import pytest

from ingest.riftbound_refs import cited_titles, expand_range, find_references

CORPUS = Path(__file__).resolve().parent.parent / "corpus"


def refs(text: str) -> list[tuple[str, list[str]]]:
    return [(reference.raw_text, reference.target_numbers) for reference in find_references("100", text)]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("See rule 518. Cleanups for more information.", [("See rule 518. Cleanups", ["518"])]),
        ("See rule 518 . Cleanups for more information.", [("See rule 518 . Cleanups", ["518"])]),
        ("See rule 716 Attachment for more information.", [("See rule 716 Attachment", ["716"])]),
        (
            "See rule 386. Playing or Activating Abilities for more information.",
            [("See rule 386. Playing or Activating Abilities", ["386"])],
        ),
        ("See rule 140 for more information on the Standard Move .", [("See rule 140", ["140"])]),
        ("See rule 103.2.d. for more information about Signature cards", [("See rule 103.2.d", ["103.2.d"])]),
        ("See <i>rule 616. Recalls</i> for more information.", [("See <i>rule 616. Recalls</i>", ["616"])]),
        ("See 107.5. Banishment for more information.", [("See 107.5. Banishment", ["107.5"])]),
        ("See rule 053.1. Units for more information.", [("See rule 053.1. Units", ["053.1"])]),
    ],
)
def test_see_rule_forms(text, expected):
    assert refs(text) == expected


def test_two_targets_in_one_reference():
    assert refs("See rule 158. Rune Pools and rule 605. Add for more information.") == [
        ("See rule 158. Rune Pools and rule 605. Add", ["158", "605"])
    ]


@pytest.mark.parametrize(
    "text, target",
    [
        ("Skip to rule 543 .", "543"),
        ("Continue to rule 542 .", "542"),
        ("as per rule 541 .", "541"),
        ("Return to rule 539. The player who controls", "539"),
        ("applies that additional cost in rule 560.2 , applies", "560.2"),
        ("During rule 352.2., they chose", "352.2"),
    ],
)
def test_procedural_references_in_a_sentence(text, target):
    assert refs(text) == [(f"rule {target}", [target])]


def test_several_references_in_one_text_keep_text_order():
    text = (
        "After an action is completed in rule 540 , repeat rule 539 . Continue until rule 540.4.b. is "
        "accomplished, then continue to rule 543 ."
    )
    assert [targets for _, targets in refs(text)] == [["540"], ["539"], ["540.4.b"], ["543"]]


@pytest.mark.parametrize(
    "text, target",
    [
        ("Continue until rule 540.4.b. is accomplished", "540.4.b"),
        ("See rule 140 . for more information", "140"),
        ("See rule 610.2.a. for more information on Invalid Destinations.", "610.2.a"),
    ],
)
def test_greedy_traps_stop_at_the_number(text, target):
    assert [targets for _, targets in refs(text)] == [[target]]


def test_title_is_not_taken_from_the_next_sentence():
    assert refs("See rule 318. Then draw a card.") == [("See rule 318", ["318"])]


def test_range_expands_every_number():
    assert refs("Follow the steps laid out in rules 557 through 563 , replacing") == [
        ("rules 557 through 563", ["557", "558", "559", "560", "561", "562", "563"])
    ]


@pytest.mark.parametrize(
    "first, last, expected",
    [
        ("050", "053", ["050", "051", "052", "053"]),
        ("103.2.a", "103.2.c", ["103.2.a", "103.2.b", "103.2.c"]),
        ("103.8", "103.10", ["103.8", "103.9", "103.10"]),
        ("103.2", "104.1", ["103.2", "104.1"]),
        ("563", "557", ["563", "557"]),
    ],
)
def test_expand_range(first, last, expected):
    assert expand_range(first, last) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Continue to step 4.",
        "During step b, they chose",
        "the updated 1.1 version",
        "Core Rules 1.1 version",
        "Return to Step 1: Finalize.",
        "completes Steps 2 through 5 of Playing Cards",
        "overrules 100 cards",
    ],
)
def test_not_references(text):
    assert refs(text) == []


def test_from_number_is_kept():
    (reference,) = find_references("443.1.e", "See rule 318. Cleanups for more information.")
    assert reference.from_number == "443.1.e"


@pytest.mark.parametrize(
    "name, expected",
    [("riftbound-core-rules-2025-06-02.txt", 100), ("riftbound-core-rules-2025-12-01.txt", 139)],
)
def test_every_rule_mention_in_the_corpus_is_found(name, expected):
    """Each document's 'rule N' / 'See N' mentions, counted line by line, all become
    references (a two-target sentence is one reference)."""
    lines = (CORPUS / name).read_text(encoding="utf-8").splitlines()
    assert sum(len(find_references("x", line)) for line in lines) == expected


def test_title_stops_at_the_end_of_its_line():
    text = "Units can move.\nSee rule 318. Cleanups\nExample: A unit moves."
    assert refs(text) == [("See rule 318. Cleanups", ["318"])]
    assert refs("Units can move.\nSee rule 318\nExample: A unit moves.") == [("See rule 318", ["318"])]


def test_cited_titles():
    text = "See rule 158. Rune Pools and rule 605. Add for more information. Skip to rule 543 ."
    assert cited_titles(text) == [("158", "Rune Pools"), ("605", "Add")]
    assert cited_titles("See rule 518 . Cleanups for more information.") == [("518", "Cleanups")]
    assert cited_titles("See <i>rule 616. Recalls</i> for more information.") == [("616", "Recalls")]
