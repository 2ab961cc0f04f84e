"""The correspondence between rulebook versions (rules_db/lineage.py).

Small hand-made outlines pin each kind of change; the two real Riftbound
versions check the pairs read off both texts by hand; a small database checks
storage, equivalents and the diff summary.
"""

from __future__ import annotations

import csv
import json
import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
import sqlite_utils
from rapidfuzz import fuzz

from ingest.outline import dotted_parent
from ingest.text import plain_text
from rules_db import lineage_diff, queries, schema, store
from rules_db.lineage import (
    CONTAINED_TEXT,
    CONTAINED_WEIGHT,
    CONTAINED_WORDS,
    KINDS,
    OVERLAP_WEIGHT,
    LineageRow,
    RuleRow,
    compose,
    compute_lineage,
    far_candidates,
    normalise,
    text_similarity,
    word_diff,
)
from rules_db.lineage_diff import DiffSelection
from rules_db.lineage_report import diff_command_output
from rules_db.lineage_store import (
    diff_summary,
    equivalents,
    history,
    store_lineage,
    stored_diff_summary,
)

CORPUS = Path(__file__).resolve().parent.parent / "corpus"


def outline(*rules: tuple[str, str]) -> list[RuleRow]:
    """Rules from (number, text); a text without a full stop is a heading."""
    return [
        RuleRow(number, text, parent=dotted_parent(number), heading=None if text.endswith(".") else text)
        for number, text in rules
    ]


def successors(rows: list[LineageRow]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for row in rows:
        if row.old is not None and row.new is not None:
            found.setdefault(row.old, set()).add(row.new)
    return found


def kinds_of(rows: list[LineageRow]) -> dict[tuple, str]:
    return {(row.old, row.new): row.kind for row in rows}


# Two versions of a little rulebook: section 518 renumbered to 318 with one child edited, one removed
# and a child whose number shifts; a new section (Heal) inserted before the last section.
OLD_BOOK = outline(
    ("100", "Game Concepts"),
    ("101", "Every player brings a deck of forty cards to the table."),
    ("101.1", "The deck is shuffled before the game begins."),
    ("518", "Cleanups"),
    ("519", "A Cleanup occurs after every item on the Chain resolves and after every Move."),
    ("519.1", "Units with lethal damage marked on them are killed during a Cleanup."),
    ("519.2", "Hidden cards without a friendly unit at their battlefield are trashed."),
    ("519.3", "Pending combats are marked at each battlefield with units of two opposing players."),
    ("520", "Players who have been invited become relevant players until the chain ends."),
    ("532", "Chains"),
    ("533", "The Chain is a non-board zone that exists whenever a card is played."),
    ("533.1", "Only one Chain can exist at a time."),
)
NEW_BOOK = outline(
    ("100", "Game Concepts"),
    ("101", "Every player brings a deck of forty cards to the table."),
    ("101.1", "The deck is shuffled before the game begins."),
    ("318", "Cleanups"),
    ("319", "A Cleanup occurs after every item on the Chain resolves and after every Move."),
    ("319.1", "Units with lethal damage marked on them are killed during a Cleanup."),
    ("319.2", "Gear at battlefields is recalled to its controller's base."),
    ("319.3", "Hidden cards without a friendly unit at their battlefield are trashed."),
    ("319.4", "Staged combats are marked at each battlefield with units of two opposing players."),
    ("325", "Heal"),
    ("325.1", "Healing removes all damage marked on a unit at once."),
    ("325.2", "Only units can be healed by an effect."),
    ("326", "Chains"),
    ("327", "The Chain is a non-board zone that exists whenever a card is played."),
    ("327.1", "Only one Chain can exist at a time."),
)


def test_renumbered_section_moves_with_its_children():
    rows = compute_lineage(OLD_BOOK, NEW_BOOK)
    assert successors(rows)["518"] == {"318"}
    assert successors(rows)["519.1"] == {"319.1"}
    assert successors(rows)["519.2"] == {"319.3"}  # same text, shifted past an inserted rule
    assert successors(rows)["533.1"] == {"327.1"}
    kinds = kinds_of(rows)
    assert kinds[("101", "101")] == "unchanged"
    assert kinds[("518", "318")] == "moved"
    assert kinds[("519.3", "319.4")] == "edited"


def test_removed_and_new_rules_are_not_forced_onto_each_other():
    rows = compute_lineage(OLD_BOOK, NEW_BOOK)
    kinds = kinds_of(rows)
    assert kinds[("520", None)] == "removed"
    for number in ("319.2", "325", "325.1", "325.2"):
        assert kinds[(None, number)] == "new"


def test_every_rule_of_both_versions_has_a_row():
    rows = compute_lineage(OLD_BOOK, NEW_BOOK)
    assert {row.old for row in rows if row.old} == {rule.number for rule in OLD_BOOK}
    assert {row.new for row in rows if row.new} == {rule.number for rule in NEW_BOOK}
    assert {row.kind for row in rows} <= set(KINDS)
    for row in rows:
        assert (row.similarity is None) == (row.kind in ("removed", "new"))


def test_a_similar_heading_in_a_new_section_is_not_matched_to_an_old_one():
    """'Heal' and 'Deal' share three letters of four; a new section stays new."""
    old = outline(
        ("403", "Recycle"),
        ("403.1", "Recycling puts a card at the bottom of its deck."),
        ("404", "Deal"),
        ("404.1", "Dealing damage marks damage on a unit."),
        ("406", "Play"),
        ("406.1", "Playing a card puts it on the chain."),
    )
    new = outline(
        ("403", "Recycle"),
        ("403.1", "Recycling puts a card at the bottom of its deck."),
        ("404", "Deal"),
        ("404.1", "Dealing damage marks damage on a unit."),
        ("405", "Heal"),
        ("405.1", "Healing clears every point of damage from a unit."),
        ("406", "Play"),
        ("406.1", "Playing a card puts it on the chain."),
    )
    kinds = kinds_of(compute_lineage(old, new))
    assert kinds[(None, "405")] == "new"
    assert kinds[(None, "405.1")] == "new"
    assert kinds[("404", "404")] == "unchanged"


def test_edited_text_is_matched_when_the_outline_supports_it():
    """Too different to match on text alone, but it sits where its parent's successor predicts."""
    old = outline(
        ("181", "Battlefields"),
        ("181.1", "Control can be contested through the course of play."),
        ("181.2", "Control is established by the presence of units controlled by a player."),
        ("181.2.a", "A player maintains control while an opponent contests it."),
    )
    new = outline(
        ("184", "Battlefields"),
        ("184.1", "Control can be contested through the course of play."),
        ("184.2", "Control is established by having units at a battlefield after a showdown."),
        ("184.2.a", "A player maintains control while an opponent contests it."),
    )
    assert kinds_of(compute_lineage(old, new))[("181.2", "184.2")] == "edited"


def test_a_short_identical_text_far_away_is_a_coincidence():
    old = outline(
        ("543", "Resolve the Chain"),
        ("543.1", "Permanents enter the board where they were played."),
        ("543.1.a", "This is not a Move."),
        ("600", "Layers"),
        ("600.1", "Layers order the effects that change game objects."),
    )
    new = outline(
        ("343", "Resolve the Chain"),
        ("343.1", "Permanents enter the board where they were played."),
        ("400", "Layers"),
        ("400.1", "Layers order the effects that change game objects."),
        ("421", "Attach"),
        ("421.1", "An attached card moves with the card it is attached to."),
        ("421.1.a", "This is not a Move."),
    )
    kinds = kinds_of(compute_lineage(old, new))
    assert kinds[("543.1.a", None)] == "removed"
    assert kinds[(None, "421.1.a")] == "new"


def test_a_long_rule_moved_to_another_section_is_found():
    text = "If a player would draw from an empty deck, that player burns out instead of drawing a card."
    old = outline(
        ("515", "Draw Phase"),
        ("515.1", "The turn player draws one card."),
        ("515.2", text),
        ("607", "Burn Out"),
        ("607.1", "Burning out gives an opponent one point."),
    )
    new = outline(
        ("315", "Draw Phase"),
        ("315.1", "The turn player draws one card."),
        ("418", "Burn Out"),
        ("418.1", "Burning out gives an opponent one point."),
        ("418.2", text),
    )
    assert kinds_of(compute_lineage(old, new))[("515.2", "418.2")] == "moved"


def test_far_move_candidates_come_from_shared_rare_words_not_all_pairs():
    """A text found again (reworded slightly, grown, or a passage of it) is a candidate; texts sharing only
    common words with it are not, so the far-move search never scores all pairs."""
    common = "the player a card of to"
    moved = "if a player would draw from an empty deck that player burns out instead of drawing a card"
    olds = [moved, "a unit moves to another battlefield when it is assigned", "a recycled rune returns to the bottom"]
    news = [
        *(f"{common} rune{n} in bank{n} at zone{n} for site{n}" for n in range(50)),
        moved.replace("would", "should"),  # reworded
        f"deal 3 to a unit. {moved}. then ready it",  # grown around the old text
        "a recycled rune returns to the bottom of the deck",  # the old text is a passage of it
    ]
    found = dict(far_candidates(olds, news))
    assert set(found[0]) >= {50, 51} and set(found[2]) >= {52}
    assert all(len(candidates) < 10 for candidates in found.values())


def test_split_rule():
    old = outline(
        ("300", "Priority"),
        (
            "301",
            "The active player may play a spell that is legally timed. "
            "The spell is added to the chain following the steps of playing a card.",
        ),
        ("302", "Priority passes in turn order."),
    )
    new = outline(
        ("300", "Priority"),
        ("301", "The active player may play a spell that is legally timed."),
        ("301.1", "The spell is added to the chain following the steps of playing a card."),
        ("302", "Priority passes in turn order."),
    )
    rows = compute_lineage(old, new)
    assert successors(rows)["301"] == {"301", "301.1"}
    assert {row.kind for row in rows if row.old == "301"} == {"split"}


def test_merged_rules():
    old = outline(
        ("300", "Priority"),
        ("301", "The active player may play a spell that is legally timed."),
        ("301.1", "The spell is added to the chain following the steps of playing a card."),
        ("302", "Priority passes in turn order."),
    )
    new = outline(
        ("300", "Priority"),
        (
            "301",
            "The active player may play a spell that is legally timed. "
            "The spell is added to the chain following the steps of playing a card.",
        ),
        ("302", "Priority passes in turn order."),
    )
    rows = compute_lineage(old, new)
    assert successors(rows)["301"] == {"301"} and successors(rows)["301.1"] == {"301"}
    assert {row.kind for row in rows if row.new == "301"} == {"merged"}


def test_database_rows_are_accepted_as_dicts():
    old = [{"number": "518", "parent_number": None, "heading": "Cleanups", "text": "Cleanups"}]
    new = [{"number": "318", "parent_number": None, "heading": "Cleanups", "text": "Cleanups"}]
    assert compute_lineage(old, new) == [LineageRow("moved", "518", "318", 1.0)]


def test_duplicate_numbers_are_refused():
    with pytest.raises(ValueError):
        compute_lineage(outline(("1", "A rule."), ("1", "The same number again.")), [])


def test_normalise_ignores_markup_spacing_quotes_list_markers_and_reference_numbers():
    assert normalise("Holding occurs. See rule 629. Scoring for <i>more</i> information.") == normalise(
        "Holding occurs.\nSee rule 445. Scoring for more information."
    )
    assert normalise("* Gear say \u201cthis.\u201d") == normalise('Gear say "this."')
    assert normalise("2b. All Units are killed .") == normalise("All units are killed.")


def test_text_similarity_is_the_best_of_ratio_and_weighted_partial_ratio_at_every_cutoff():
    """Each pair's partial ratio is cut off at the pair's own floor: no score at or above the minimum moves, for
    texts that contain each other, overlap, or share nothing but common words."""
    random.seed(7)
    words = [
        "the",
        "unit",
        "player",
        "deals",
        "damage",
        "to",
        "each",
        "attacker",
        "when",
        "a",
        "card",
        "is",
        "played",
        "from",
        "hand",
        "during",
        "combat",
    ]
    texts = [" ".join(random.choice(words) for _ in range(random.randint(6, 160))) for _ in range(40)]
    texts += [text[: len(text) // 2] for text in texts[:10]] + [texts[0] + " and more words"]
    olds, news = texts[::2], texts[1::2]
    count = np.array([len(text.split()) for text in texts])
    for minimum in (0, 45, 88):
        scores = text_similarity(olds, news, count[::2], count[1::2], minimum=minimum)
        for i, old in enumerate(olds):
            for j, new in enumerate(news):
                partial = fuzz.partial_ratio(old, new) if min(count[::2][i], count[1::2][j]) >= CONTAINED_WORDS else 0
                weight = CONTAINED_WEIGHT if partial >= CONTAINED_TEXT else OVERLAP_WEIGHT
                best = max(
                    float(np.float32(fuzz.ratio(old, new))), float(np.float32(partial)) * weight
                )  # as cdist stores
                assert scores[i, j] == best or (best < minimum and scores[i, j] < minimum)


@pytest.mark.parametrize(
    "old, new",
    [
        (
            "Starting with the Attacker , each player distributes damage.",
            "Starting with the Attacker, each player assigns damage.",
        ),
        ("", "Brand new text."),
        ("Removed text.", ""),
        ("Same words here.", "Same words here."),
    ],
)
def test_word_diff_rebuilds_both_texts(old, new):
    pieces = word_diff(old, new)
    assert "".join(text for op, text in pieces if op != "insert") == old
    assert "".join(text for op, text in pieces if op != "delete") == new
    assert {op for op, _ in pieces} <= {"equal", "delete", "insert"}


def test_word_diff_marks_changed_words():
    pieces = word_diff("the Main Deck is Private Information.", "the Main Deck is Secret Information.")
    assert ("delete", "Private ") in pieces and ("insert", "Secret ") in pieces


# --- the two real Riftbound versions -------------------------------------------------------------


def _rule_rows(book) -> list[RuleRow]:
    return [RuleRow(rule.number, plain_text(rule.raw_text), rule.parent, rule.heading) for rule in book.rules]


@pytest.fixture(scope="module")
def riftbound(parsed_riftbound) -> tuple[list[RuleRow], list[RuleRow], list[LineageRow]]:
    old = _rule_rows(parsed_riftbound(CORPUS / "riftbound-core-rules-2025-06-02.txt"))
    new = _rule_rows(parsed_riftbound(CORPUS / "riftbound-core-rules-2025-12-01.txt"))
    return old, new, compute_lineage(old, new)


KNOWN_PAIRS = [
    ("518", "318"),
    ("532", "326"),
    ("545", "337"),
    ("626", "443"),
    ("627", "444"),
    ("716", "730"),
    ("717", "731"),
    ("727", "741"),
]

# Read off both texts by hand: (2025-06-02, 2025-12-01), every chapter, headings and sub-rules.
VERIFIED_PAIRS = [
    # 000-182: golden rules and game concepts
    ("052", "052"),
    ("053.2", "053.2"),
    ("103.2.e", "103.2.e"),
    ("103.4.b", "103.4.b"),
    ("106.2", "106.2"),
    ("128.4", "128.4"),
    ("133.2.b", "133.2.b"),
    ("137", "139"),
    ("142", "145"),
    ("153", "156"),
    ("157.2.a", "160.2.a"),
    ("157.2.b", "160.2.b"),
    ("162", "165"),
    ("166", "169"),
    ("170", "173"),
    ("179", "182"),
    ("181", "184"),
    ("181.4", "184.4"),
    ("181.4.d", "184.4.c"),
    ("182", "185"),
    # 500-563 -> 300-356: the turn, cleanups, chains, showdowns, playing cards
    ("500", "300"),
    ("501", "301"),
    ("512.1", "312.1"),
    ("513.4", "313.5"),
    ("515.2.b.1", "315.2.b.1"),
    ("517.2", "317.3"),
    ("520", "322.4"),
    ("524", "322.10"),
    ("524.1", "322.10.a"),
    ("526", "322.14"),
    ("527", "324"),
    ("534", "329"),
    ("536", "331"),
    ("540.1", "334.1.a"),
    ("551.1", "342.1"),
    ("554", "346"),
    ("559.3.d.2", "352.14.b"),
    ("564", "357"),
    ("571", "364"),
    ("582", "375"),
    ("583.1", "376.1"),
    # 586-650 -> 395-650: game actions, movement, combat (with the unnumbered rules 620-625), scoring, modes
    ("586", "395"),
    ("591", "400"),
    ("592", "401"),
    ("594", "403"),
    ("595", "406"),
    ("604.4", "415.6"),
    ("607", "418"),
    ("607.2.a", "418.2.b"),
    ("607.2.c", "418.2.d"),
    ("608", "423"),
    ("610.2.b", "425.2.b"),
    ("616", "432"),
    ("617", "433"),
    ("620", "437"),
    ("621", "438"),
    ("622", "439"),
    ("622.2", "439.2"),
    ("623.1", "440.1"),
    ("624", "441"),
    ("625", "442"),
    ("625.1.a", "442.1.a"),
    ("625.1.a.2", "442.1.a.2"),
    ("625.1.d", "442.1.c"),
    ("626.1.d", "443.1.d"),
    ("626.1.d.2", "443.1.d.3"),
    ("626.1.d.3", "443.1.d.5"),
    ("627.3.a", "444.2.b"),
    ("627.4", "444.2.a"),
    ("629", "445"),
    ("630.1", "446.1"),
    ("634", "450"),
    ("639", "457"),
    ("640", "458"),
    ("644", "462"),
    ("645", "463"),
    ("646", "464"),
    ("647", "465"),
    ("648", "466"),
    ("649", "649"),
    ("650", "650"),
    # 700s: additional rules and the keyword glossary, with Tank's damage-assignment sub-rules
    ("701", "701"),
    ("706", "706"),
    ("712", "726"),
    ("718", "732"),
    ("719", "733"),
    ("720", "734"),
    ("721", "735"),
    ("722", "736"),
    ("723", "737"),
    ("724", "738"),
    ("725", "739"),
    ("726", "740"),
    ("726.1", "740.1"),
    ("728", "742"),
    ("729", "743"),
    ("729.3", "743.3"),
    ("727.1.b", "741.1.b"),
    ("727.1.c", "741.1.c"),
    ("727.1.c.1", "741.1.c.1"),
    ("727.1.c.2", "741.1.c.2"),
]


@pytest.mark.parametrize("old, new", KNOWN_PAIRS + VERIFIED_PAIRS)
def test_riftbound_pairs(riftbound, old, new):
    assert new in successors(riftbound[2]).get(old, set())


@pytest.mark.parametrize("section", ["379", "382", "404", "405", "421"])
def test_riftbound_new_sections_are_new(riftbound, section):
    """The section heading and every rule up to the next top-level heading."""
    _, new_rules, rows = riftbound
    start = next(index for index, rule in enumerate(new_rules) if rule.number == section)
    stop = next(
        index
        for index in range(start + 1, len(new_rules))
        if new_rules[index].parent is None and new_rules[index].heading
    )
    in_section = {rule.number for rule in new_rules[start:stop]}
    assert len(in_section) >= 6
    assert {row.kind for row in rows if row.new in in_section} == {"new"}


def test_riftbound_every_old_rule_has_a_successor_or_is_removed(riftbound):
    old_rules, new_rules, rows = riftbound
    accounted = {row.old for row in rows if row.old is not None}
    assert len(accounted) / len(old_rules) >= 0.95
    assert accounted == {rule.number for rule in old_rules}
    assert {row.new for row in rows if row.new is not None} == {rule.number for rule in new_rules}
    counts = Counter(row.kind for row in rows)
    assert counts["moved"] + counts["unchanged"] > len(old_rules) / 2
    assert counts["removed"] < len(old_rules) / 10


@pytest.fixture(scope="module")
def riftbound_1_4(riftbound, parsed_riftbound) -> tuple[list[RuleRow], list[RuleRow], list[LineageRow]]:
    old = riftbound[1]
    new = _rule_rows(parsed_riftbound(CORPUS / "riftbound-core-rules-2026-06-18.txt"))
    return old, new, compute_lineage(old, new)


# Read off both texts by hand: (2025-12-01, 2026-06-18 "v1.4"), renumbered sections (chapters 1-4 shift by
# one to twenty-three, the glossary 730 -> 804), steps reordered inside a section, edits and a far move.
VERIFIED_PAIRS_1_4 = [
    ("000", "000", "unchanged"),  # Golden and Silver Rules
    ("100", "100", "unchanged"),  # Game Concepts
    ("103.1.b", "103.1.b", "edited"),  # "... the Domain Identity of the Main Deck" -> "... of the deck"
    ("130", "131", "moved"),  # Cost
    ("130.4", "206", "edited"),  # base cost -> printed or copied cost, its Sky Splitter example kept: a far move
    ("139", "140", "moved"),  # Units
    ("148", "151", "moved"),  # "Gear may have Activated Abilities."
    ("157", "161", "moved"),  # "Rune is a Card Type."
    ("166", "170", "moved"),  # "Battlefields are Game Objects."
    ("175", "181", "moved"),  # "Tokens can be represented by anything. ..."
    ("179", "185", "moved"),  # "Tokens are not cards."
    ("184", "190", "moved"),  # Battlefields
    ("317.3", "317.2", "moved"),  # Expiration Step
    ("322.2", "323.3", "moved"),  # "2. Handle outstanding board state" is step 3 now
    ("322.3", "323.4", "edited"),  # "2a. ... non-zero Damage ..." -> "3a. ... Lethal Damage ..."
    ("322.5", "323.2", "moved"),  # "3. Assign or Remove the Attacker ..." is step 2 now
    ("322.8", "323.8", "edited"),  # "... that Contested was applied to that is Uncontrolled" loses its end
    ("324", "325", "moved"),  # Chains and Showdowns
    ("326", "327", "moved"),  # Chains
    ("327", "328", "moved"),  # "The Chain is a Non-Board Zone that temporarily exists ..."
    ("334", "338", "moved"),  # Step 2: Execute
    ("345.2.a", "348.2.a", "moved"),  # its "See rule 179. Control" is "See rule 188. Control" now
    ("353", "356", "moved"),  # "3. Determine Total Cost."
    ("389", "401", "moved"),  # "1. Activate or trigger the Ability"
    ("390.1", "402.2", "edited"),  # "targets, options, or ..." -> "targets, modes, or ..."
    ("407", "420", "moved"),  # Move
    ("415.5.c", "428.5.c", "edited"),  # the kill is "attributed to" the spell that "dealt" damage
    ("432", "454", "moved"),  # Recalls
    ("443", "465", "moved"),  # Step 2: The Combat Damage Step
    ("443.1.d", "465.2.c", "moved"),  # "Starting with the Attacker, each player assigns ..."
    ("443.1.e", "465.2.d", "moved"),  # "Deal Damage to each unit equal to the amount assigned to it."
    ("444", "466", "moved"),  # Step 3: The Resolution Step
    ("452", "475", "moved"),  # "Layers are an organizational structure."
    ("461", "484", "moved"),  # Sanctioned Modes
    ("462.2", "485.2", "moved"),  # 1v1, 1 opponent each, no teams
    ("727", "801", "moved"),  # "A Keyword is a specific term that appears on Cards ..."
    ("730", "804", "moved"),  # Keyword Glossary
    ("731", "805", "moved"),  # Accelerate
    ("747", "821", "moved"),  # Weaponmaster
    ("744.5", "818.5", "split"),  # printed twice in 2025-12-01; v1.4 keeps the first text here ...
    ("744.5", "818.5.a", "split"),  # ... and the second under it
]
# Gone from v1.4 (no rule says it any more): the Play Area, Units as the only movers, Quick-Draw off the board.
REMOVED_IN_1_4 = ["106", "425.3", "745.3"]


@pytest.mark.parametrize("old, new, kind", VERIFIED_PAIRS_1_4)
def test_riftbound_1_4_pairs(riftbound_1_4, old, new, kind):
    assert (kind, old, new) in {(row.kind, row.old, row.new) for row in riftbound_1_4[2]}


def test_riftbound_1_4_removals_and_accounting(riftbound_1_4):
    old_rules, new_rules, rows = riftbound_1_4
    assert {row.old for row in rows if row.kind == "removed"} >= set(REMOVED_IN_1_4)
    accounted = {row.old for row in rows if row.old is not None}
    assert accounted == {rule.number for rule in old_rules}
    assert {row.new for row in rows if row.new is not None} == {rule.number for rule in new_rules}
    counts = Counter(row.kind for row in rows)
    assert counts["removed"] <= 0.05 * len(old_rules)  # at least 95% of the 2025-12-01 rules have a successor
    assert counts["moved"] + counts["unchanged"] > len(old_rules) / 2


def test_riftbound_inferred_combat_rules_map(riftbound):
    """The unnumbered 2025-06-02 combat rules (620-625.1.b.1) that survive are found."""
    found = successors(riftbound[2])
    mapped = [
        number
        for number in (
            "620",
            "621",
            "622",
            "622.1",
            "622.2",
            "623",
            "623.1",
            "623.2",
            "623.2.a",
            "623.2.b",
            "623.3",
            "624",
            "625",
            "625.1",
            "625.1.a",
            "625.1.a.1",
            "625.1.a.2",
        )
        if number in found
    ]
    assert len(mapped) == 17


# --- the database -------------------------------------------------------------------------------

OLD_DOC, NEW_DOC, NEWER_DOC = "book-2025-06-02", "book-2025-12-01", "book-2026-03-01"


def _write_rulebook(db: sqlite_utils.Database, document_id: str, version: str, rules: list[RuleRow]) -> None:
    db["rulebooks"].insert({"id": "game-core", "game_id": "game", "slug": "core", "is_default": 1}, ignore=True)
    db["documents"].insert(
        {
            "id": document_id,
            "game_id": "game",
            "title": "Book",
            "version": version,
            "kind": "rules",
            "rulebook_id": "game-core",
        }
    )
    first = (db.execute("select coalesce(max(id), 0) from rules").fetchone()[0]) + 1
    ids = {rule.number: first + index for index, rule in enumerate(rules)}
    db["rules"].insert_all(
        {
            "id": ids[rule.number],
            "document_id": document_id,
            "game_id": "game",
            "number": rule.number,
            "parent_number": rule.parent,
            "parent_id": ids.get(rule.parent),
            "position": index + 1,
            "heading": rule.heading,
            "text": rule.text,
            "raw_text": rule.text,
        }
        for index, rule in enumerate(rules)
    )


@pytest.fixture
def book_db(tmp_path) -> sqlite_utils.Database:
    db = schema.bulk_loader(str(tmp_path / "rules.db"))
    schema.create(db)
    db["games"].insert({"id": "game", "name": "Game"})
    _write_rulebook(db, NEW_DOC, "2025-12-01", NEW_BOOK)  # inserted out of order on purpose
    _write_rulebook(db, OLD_DOC, "2025-06-02", OLD_BOOK)
    return db


def _rule_id(db: sqlite_utils.Database, document_id: str, number: str) -> int:
    return db.execute("select id from rules where document_id = ? and number = ?", [document_id, number]).fetchone()[0]


def test_store_lineage_writes_every_rule_of_both_versions(book_db):
    figures = store_lineage(book_db, "game")
    assert list(figures) == [(OLD_DOC, NEW_DOC)]
    assert sum(figures[(OLD_DOC, NEW_DOC)].values()) == book_db["rule_lineage"].count
    rows = list(book_db["rule_lineage"].rows)
    assert {row["from_document_id"] for row in rows} == {OLD_DOC}
    assert {row["from_rule_id"] for row in rows if row["from_rule_id"]} == {
        row["id"] for row in book_db.query("select id from rules where document_id = ?", [OLD_DOC])
    }
    assert all(row["to_rule_id"] is None for row in rows if row["kind"] == "removed")
    assert all(row["from_rule_id"] is None for row in rows if row["kind"] == "new")
    assert store_lineage(book_db, "game") == {}  # again: the stored pair is kept, not duplicated
    assert book_db["rule_lineage"].count == len(rows)


def test_equivalents_follow_lineage_both_ways_and_fall_back_to_the_ancestor(book_db):
    store_lineage(book_db, "game")
    assert equivalents(book_db, _rule_id(book_db, NEW_DOC, "318")) == [(OLD_DOC, "2025-06-02", "518", "moved")]
    assert equivalents(book_db, _rule_id(book_db, OLD_DOC, "519.2")) == [(NEW_DOC, "2025-12-01", "319.3", "moved")]
    # 319.2 is new; its parent 319 was 519
    assert equivalents(book_db, _rule_id(book_db, NEW_DOC, "319.2")) == [(OLD_DOC, "2025-06-02", "519", "ancestor")]
    # 325 is a new top-level section: no ancestor, no equivalent
    assert equivalents(book_db, _rule_id(book_db, NEW_DOC, "325")) == []


def _newer_book() -> list[RuleRow]:
    """NEW_BOOK renumbered once more (318 -> 218, 319 -> 219), its text kept."""
    return [
        RuleRow(
            rule.number.replace("318", "218").replace("319", "219"),
            rule.text,
            heading=rule.heading,
            parent=rule.parent.replace("319", "219") if rule.parent else None,
        )
        for rule in NEW_BOOK
    ]


def _pairs(db: sqlite_utils.Database, table: str = "rule_lineage") -> set[tuple[str, str]]:
    return {(row["from_document_id"], row["to_document_id"]) for row in db[table].rows}


def test_equivalents_are_transitive_over_three_versions(book_db):
    _write_rulebook(book_db, NEWER_DOC, "2026-03-01", _newer_book())
    figures = store_lineage(book_db, "game")
    assert list(figures) == [(OLD_DOC, NEW_DOC), (NEW_DOC, NEWER_DOC)]
    assert equivalents(book_db, _rule_id(book_db, OLD_DOC, "519.1")) == [
        (NEW_DOC, "2025-12-01", "319.1", "moved"),
        (NEWER_DOC, "2026-03-01", "219.1", "moved"),
    ]
    assert equivalents(book_db, _rule_id(book_db, NEWER_DOC, "218")) == [
        (OLD_DOC, "2025-06-02", "518", "moved"),
        (NEW_DOC, "2025-12-01", "318", "moved"),
    ]
    # 219.2 was 319.2, which is new in 2025-12-01 under 319 (once 519): reached through an ancestor
    assert equivalents(book_db, _rule_id(book_db, NEWER_DOC, "219.2")) == [
        (OLD_DOC, "2025-06-02", "519", "ancestor"),
        (NEW_DOC, "2025-12-01", "319.2", "moved"),
    ]


def test_a_version_added_between_two_others_relinks_the_chain(tmp_path):
    """Built with the oldest and the newest version, then the one between them arrives (a judge adds v1.3)."""
    db = schema.bulk_loader(str(tmp_path / "rules.db"))
    schema.create(db)
    db["games"].insert({"id": "game", "name": "Game"})
    _write_rulebook(db, OLD_DOC, "2025-06-02", OLD_BOOK)
    _write_rulebook(db, NEWER_DOC, "2026-03-01", _newer_book())
    assert list(store_lineage(db, "game")) == [(OLD_DOC, NEWER_DOC)]
    assert _pairs(db) == {(OLD_DOC, NEWER_DOC)}
    _write_rulebook(db, NEW_DOC, "2025-12-01", NEW_BOOK)
    assert list(store_lineage(db, "game")) == [(OLD_DOC, NEW_DOC), (NEW_DOC, NEWER_DOC)]
    assert _pairs(db) == {(OLD_DOC, NEW_DOC), (NEW_DOC, NEWER_DOC)}  # the link that skipped a version is gone
    assert _pairs(db, "rule_lineage_pairs") == _pairs(db, "rule_lineage_counts") == _pairs(db)  # and its counts
    assert equivalents(db, _rule_id(db, OLD_DOC, "518")) == [
        (NEW_DOC, "2025-12-01", "318", "moved"),
        (NEWER_DOC, "2026-03-01", "218", "moved"),
    ]


def test_a_rule_history_names_every_change_with_its_version(book_db):
    _write_rulebook(book_db, NEWER_DOC, "2026-03-01", _newer_book())
    store_lineage(book_db, "game")
    trace = history(book_db, _rule_id(book_db, NEW_DOC, "319.4"))
    assert [(event["version"], event["event"], event["from_number"], event["number"]) for event in trace] == [
        ("2025-06-02", "first version", None, "519.3"),
        ("2025-12-01", "edited", "519.3", "319.4"),
        ("2026-03-01", "moved", "319.4", "219.4"),
    ]
    assert trace[1]["text"] != trace[0]["text"] and trace[2]["text"] == trace[1]["text"]
    created = history(book_db, _rule_id(book_db, NEWER_DOC, "325"))
    assert [(event["version"], event["event"]) for event in created] == [
        ("2025-12-01", "created"),
        ("2026-03-01", "unchanged"),
    ]
    removed = history(book_db, _rule_id(book_db, OLD_DOC, "520"))
    assert [(event["version"], event["event"], event["number"]) for event in removed] == [
        ("2025-06-02", "first version", "520"),
        ("2025-12-01", "removed", None),
    ]


def test_any_two_versions_compare_through_the_versions_between(book_db):
    _write_rulebook(book_db, NEWER_DOC, "2026-03-01", _newer_book())
    store_lineage(book_db, "game")
    composed = diff_summary(book_db, "game", "2025-06-02", "2026-03-01")
    direct = compute_lineage(OLD_BOOK, _newer_book())
    assert {(row["old"], row["new"]) for row in composed["rows"]} == {(row.old, row.new) for row in direct}
    assert composed["counts"] == dict(Counter(row.kind for row in direct)) | {
        kind: 0 for kind in KINDS if kind not in {row.kind for row in direct}
    }
    assert diff_summary(book_db, "game", "2025-06-02", "2026-03-01")["old_rules_accounted"] == 1.0


def test_compose_follows_splits_and_merges():
    first = [
        LineageRow("moved", "1", "11", 1.0),
        LineageRow("split", "2", "12", 0.9),
        LineageRow("split", "2", "13", 0.9),
        LineageRow("removed", "3", None, None),
    ]
    second = [
        LineageRow("unchanged", "11", "11", 1.0),
        LineageRow("merged", "12", "21", 0.9),
        LineageRow("merged", "13", "21", 0.9),
        LineageRow("new", None, "22", None),
    ]
    old = outline(("1", "A rule about cards."), ("2", "Two halves here."), ("3", "Gone soon."))
    new = outline(("11", "A rule about cards."), ("21", "Two halves here."), ("22", "Brand new rule."))
    rows = {(row.kind, row.old, row.new) for row in compose([first, second], old, new)}
    assert rows == {("moved", "1", "11"), ("edited", "2", "21"), ("removed", "3", None), ("new", None, "22")}


def test_diff_summary_counts_sections_and_rows(book_db):
    store_lineage(book_db, "game")
    summary = diff_summary(book_db, "game", "2025-06-02", "2025-12-01")
    assert summary["counts"]["new"] == 4 and summary["counts"]["removed"] == 1
    assert sum(summary["counts"].values()) == len(summary["rows"])
    assert summary["old_rules_accounted"] == 1.0
    sections = {(section["version"], section["number"], section["heading"]): section for section in summary["sections"]}
    assert sections[("2025-12-01", "325", "Heal")]["counts"] == {"new": 3}
    # 520 was removed from 518 Cleanups, which became 318: counted there, in the newer numbering
    assert sections[("2025-12-01", "318", "Cleanups")]["counts"] == {"moved": 4, "edited": 1, "removed": 1, "new": 1}
    assert ("2025-12-01", "326", "Chains") not in sections  # nothing changed there
    edited = next(row for row in summary["rows"] if row["old"] == "519.3")
    assert edited["new"] == "319.4" and edited["old_text"].startswith("Pending")


def test_a_stored_comparison_counts_and_pages_as_the_one_computed_from_every_row(book_db):
    """The diff page reads what the build counted per pair (``rule_lineage_pairs``, ``rule_lineage_counts``) and
    reads a page from the pair's run of rows: the same figures and pages as the comparison worked out from every
    row, whatever is asked, for the second pair too (its rows numbered after the first's)."""
    _write_rulebook(book_db, NEWER_DOC, "2026-03-01", _newer_book())
    store.link_versions(book_db)  # as a build does: each version names the one before it
    store_lineage(book_db, "game")
    for old, new in (("2025-06-02", "2025-12-01"), ("2025-12-01", "2026-03-01")):
        stored = stored_diff_summary(book_db, "game", old, new)
        computed = {**diff_summary(book_db, "game", old, new), "stored": False}
        assert stored["stored"]
        shown = ("old", "new", "counts", "old_rules_accounted", "sections")
        assert {key: stored[key] for key in shown} == {key: computed[key] for key in shown}
        sections = {row["section"] for row in computed["rows"]}
        # Rules asked for: a section's number (its sub-rules with it), numbers of either version, one of neither.
        numbers = sorted({row[side] for row in computed["rows"] for side in ("old", "new") if row[side]})
        rules = (None, *sorted(sections)[:2], *numbers[:: max(1, len(numbers) // 4)], "999.9")
        changed = next(row["new"] or row["old"] for row in computed["rows"] if row["kind"] != "unchanged")
        assert DiffSelection(book_db, stored, None, None, True, changed).total > 0
        assert DiffSelection(book_db, stored, None, None, True, "999.9").total == 0
        for kind in (None, *KINDS):
            for section in (None, *sorted(sections)):
                for renumbered in (False, True):
                    for rule in rules:
                        asked = (kind, section, renumbered, rule)
                        from_counts, from_rows = (
                            DiffSelection(book_db, stored, *asked),
                            DiffSelection(book_db, computed, *asked),
                        )
                        counted = (from_rows.total, from_rows.renumbered)
                        assert (from_counts.total, from_counts.renumbered) == counted, asked
                        for offset in range(0, counted[0] + 2, 2):  # page after page of two, one past the last
                            assert from_counts.rows(offset, 2) == from_rows.rows(offset, 2)
                        for row in from_rows.rows(0, counted[0]):  # each row is the rule's or a sub-rule's
                            assert rule is None or any(
                                (row[side] or "").lower() == rule.lower()
                                or (row[side] or "").lower().startswith(rule.lower() + ".")
                                for side in ("old", "new")
                            ), (asked, row)


def test_a_page_of_a_computed_comparison_narrows_its_rows_once(book_db, monkeypatch):
    """Versions that are not consecutive are compared from every row: a page counts them and shows its part of
    them from one narrowing of the rows, not one for the count and another for the page."""
    _write_rulebook(book_db, NEWER_DOC, "2026-03-01", _newer_book())
    store.link_versions(book_db)
    store_lineage(book_db, "game")
    narrowed = []
    real = lineage_diff._computed_rows
    monkeypatch.setattr(lineage_diff, "_computed_rows", lambda *asked: narrowed.append(asked) or real(*asked))
    page = queries.diff_page(book_db.conn, "game", "2025-06-02", "2026-03-01", show_renumbered=True)
    assert page["total"] == len(page["rows"]) > 0
    assert len(narrowed) == 1


def test_diff_summary_computes_an_unstored_pair(book_db):
    summary = diff_summary(book_db, "game", "2025-06-02", "2025-12-01")
    assert book_db["rule_lineage"].count == 0
    assert summary["counts"]["moved"] > 0


def test_diff_summary_names_the_known_versions_when_one_is_missing(book_db):
    with pytest.raises(LookupError, match="2025-06-02, 2025-12-01"):
        diff_summary(book_db, "game", "2024-01-01", "2025-12-01")


@pytest.mark.parametrize("name", ["details.csv", "details.json"])
def test_diff_command_prints_the_summary_and_writes_the_details(book_db, tmp_path, name):
    store_lineage(book_db, "game")
    details = tmp_path / name
    printed = diff_command_output(book_db, "game", "2025-06-02", "2025-12-01", details)
    assert "removed" in printed and "325 Heal" in printed and str(details) in printed
    if name.endswith(".json"):
        rows = json.loads(details.read_text(encoding="utf-8"))["rows"]
    else:
        rows = list(csv.DictReader(details.open(encoding="utf-8")))
    assert len(rows) == book_db["rule_lineage"].count
    assert {row["kind"] for row in rows} >= {"moved", "edited", "removed", "new"}


def test_riftbound_rulings_citations_have_2025_06_02_equivalents(tmp_path, riftbound):
    """Ruling citations 443.1.e and 444 (2025-12-01) show their 2025-06-02 equivalents."""
    old_rules, new_rules, _ = riftbound
    db = schema.bulk_loader(str(tmp_path / "riftbound.db"))
    schema.create(db)
    db["games"].insert({"id": "game", "name": "Riftbound"})
    _write_rulebook(db, OLD_DOC, "2025-06-02", old_rules)
    _write_rulebook(db, NEW_DOC, "2025-12-01", new_rules)
    store_lineage(db, "game")
    for number, expected in (("443.1.e", "626.1"), ("444", "627"), ("443.1.d.5", "626.1.d.3")):
        found = equivalents(db, _rule_id(db, NEW_DOC, number))
        assert [item[2] for item in found if item[0] == OLD_DOC] == [expected]


def test_a_synthetic_revision_of_the_real_rulebook_is_recovered(riftbound):
    """Renumber every chapter from 300 on, drop 5% of sub-rules, reword 10% of rules and insert
    unrelated ones: every surviving rule is found at its new number and nothing is mismatched."""
    _, rules, _ = riftbound
    rng = random.Random(7)
    filler = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "theta", "kappa", "lambda", "sigma", "omega"]

    def renumbered(number: str) -> str:
        head, dot, rest = number.partition(".")
        return f"{int(head) + 50 if int(head) >= 300 else int(head):03d}{dot}{rest}"

    revised, truth = [], {}
    for rule in rules:
        if rule.parent and rng.random() < 0.05:
            continue
        words = rule.text.split()
        if len(words) > 6 and rng.random() < 0.1:
            for _ in range(2):
                words[rng.randrange(len(words))] = rng.choice(filler)
        number = truth[rule.number] = renumbered(rule.number)
        revised.append(RuleRow(number, " ".join(words), renumbered(rule.parent) if rule.parent else None, rule.heading))
        if rng.random() < 0.02:
            revised.append(RuleRow(number + ".z", " ".join(rng.choice(filler) for _ in range(10)) + ".", number))
    found = {row.old: row.new for row in compute_lineage(rules, revised) if row.old and row.new}
    assert found == truth


def test_equivalents_and_diff_summary_accept_a_plain_connection(book_db):
    store_lineage(book_db, "game")
    connection = book_db.conn
    assert equivalents(connection, _rule_id(book_db, NEW_DOC, "318")) == [(OLD_DOC, "2025-06-02", "518", "moved")]
    assert diff_summary(connection, "game", "2025-06-02", "2025-12-01")["counts"]["removed"] == 1
