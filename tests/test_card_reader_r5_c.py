"""Two conditions of an instruction read in front of it: a rune count ("if you control 4 or fewer runes, ...",
the condition words of rules/board_conditions.py) and an exact count ("if there is exactly one other unit you
control here, ...", an `if_amount` with both bounds); and this turn's deaths ("if a unit died this turn"), a
condition word of entering ready and of a discount. Read-card disputes 341-349 judge them with the real read
cards, and a mutant of each reading is killed by those disputes."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from read_cards import read_every_card, verdicts_with

from scenarios.card_reader import CardText, conditions, effects, otherwise, read_card
from scenarios.cards import Card
from scenarios.kernel import CONDITIONS, INSTRUCTIONS

MINE = sorted(
    p
    for p in (Path(__file__).parent / "data" / "read_card_disputes").glob("read-34*.yaml")
    if 341 <= int(p.name.split("-")[1]) <= 349
)


def read(text: str, kind: str = "Unit", **numbers):
    return read_card(CardText("Some Card", kind, text, **numbers))


def _effects(text: str) -> list:
    reading = read(text, might=3)
    assert reading.status == "read", reading.unread
    Card.model_validate(reading.definition)
    (trigger,) = reading.definition["triggers"]
    return trigger["effects"]


@pytest.mark.parametrize(("n", "side"), [("4", "fewer"), ("7", "more"), ("two", "more"), ("0", "fewer")])
def test_a_rune_count_reads_as_the_registered_condition_word(n, side):
    word = f"you control {int(n) if n.isdigit() else 2} or {side} runes"
    (trigger,) = read(f"When I attack, if you control {n} or {side} runes, draw 1.", might=3).definition["triggers"]
    assert trigger["condition"] == word and trigger["effects"] == [{"op": "draw", "n": 1}]  # 383.2.a.1
    assert word in CONDITIONS


@pytest.mark.parametrize(
    "text",
    [
        "When I attack, if you control 13 or more runes, draw 1.",  # no such condition word
        "When I attack, if you control 0 or more runes, draw 1.",
        # a choice alone: the sentences after it would not be inside the condition
        "When you play me, if you control 7 or more runes, choose an enemy gear. If it's [Empowered], disempower it."
        " Otherwise, kill it.",
        "When I hold, if there is exactly one other unit you control here, choose a unit. Kill it.",
    ],
)
def test_a_condition_over_nothing_it_can_gate_is_refused(text):
    assert read(text, might=3).status == "unread"


def test_an_exact_count_right_after_a_trigger_is_its_condition():
    """383.2.a.1: a counted "if" right after the trigger's condition is part of the Trigger Condition."""
    (trigger,) = read("When I hold, if there is exactly one other unit you control here, draw 1.", might=3).definition[
        "triggers"
    ]
    assert trigger["condition"]["at_least"] == trigger["condition"]["at_most"] == 1


# -- the disputes and the mutants they kill ----------------------------------------------------------------------


def _verdicts(real_db) -> list[str]:
    for path in MINE:
        assert str(yaml.safe_load(path.read_text())["rules"]["core"]) >= "2026-06-18"  # judged under Core Rules 1.4
    return verdicts_with(read_every_card(real_db), MINE)


def test_my_disputes_are_judged_under_core_rules_1_4_and_match(real_db):
    assert len(MINE) >= 3
    assert set(_verdicts(real_db)) == {"match"}


def _patched(monkeypatch, original, change):
    def mutant(m, ctx):
        return [change(dict(i)) for i in original(m, ctx) or []] or None

    monkeypatch.setattr(effects, "TEMPLATES", [(f, p, mutant if b is original else b) for f, p, b in effects.TEMPLATES])


def test_my_disputes_kill_fewer_runes_read_as_more(real_db, monkeypatch):
    def flipped(i):
        return {**i, "condition": i["condition"].replace("fewer", "more")}

    _patched(monkeypatch, otherwise._if_you_control, flipped)
    assert "mismatch" in _verdicts(real_db), "'N or fewer runes' read as 'N or more' survives every dispute 341-349"


# -- this turn's deaths: a condition word of entering ready and of a discount --------------------------------------


@pytest.mark.parametrize(
    ("said", "word"),
    [
        ("a unit died this turn", "a unit died this turn"),
        ("a friendly unit died this turn", "a friendly unit died this turn"),
        ("an enemy unit has died this turn", "an enemy unit died this turn"),
    ],
)
def test_a_death_this_turn_reads_as_a_condition_word(said, word):
    ready = read(f"If {said}, I enter ready.", might=3)
    assert ready.status == "read", ready.unread
    assert [r["condition"] for r in ready.definition["replacements"]] == [word]
    cheaper = read(f"If {said}, this costs [2 Energy] less.\nDraw 1.", "Spell", energy=4)
    assert cheaper.status == "read", cheaper.unread
    assert cheaper.definition["discounts"] == [{"energy": 2, "condition": word}]
    assert word in CONDITIONS


def _death_words(monkeypatch, word: str):
    patterns = [(p, (lambda m: word) if "died this turn" in p.pattern else w) for p, w in conditions.CONDITIONS]
    monkeypatch.setattr(conditions, "CONDITIONS", patterns)


def test_my_disputes_kill_an_enemy_death_read_as_any_death(real_db, monkeypatch):
    _death_words(monkeypatch, "a unit died this turn")
    assert "mismatch" in _verdicts(real_db), "'an enemy unit has died' read as any unit survives disputes 341-349"


def test_my_disputes_kill_any_death_read_as_an_enemy_death(real_db, monkeypatch):
    _death_words(monkeypatch, "an enemy unit died this turn")
    assert "mismatch" in _verdicts(real_db), "'a unit died' read as an enemy unit survives disputes 341-349"


# -- a condition on the chosen unit's Might, with what happens otherwise ------------------------------------------

WIND = (
    "Choose a unit at a battlefield. If it has 3 [Might] or less, banish it. Otherwise, return it to its owner's hand."
)


def test_a_might_bound_on_the_chosen_unit_reads_with_its_otherwise():
    reading = read(WIND, "Spell", energy=3)
    assert reading.status == "read", reading.unread
    assert reading.definition["effects"] == [
        {
            "op": "if_amount",
            "amount": "might_of:target",
            "at_most": 3,
            "then": [{"op": "banish", "what": "target"}],
            "else": [{"op": "return_to_hand", "what": "target"}],
        }
    ]
    more = read("Choose a unit. If it has 5 [Might] or more, kill it.", "Spell", energy=3)
    assert more.definition["effects"][0]["at_least"] == 5
    assert read("Choose a gear. If it has 3 [Might] or less, kill it.", "Spell", energy=3).status == "unread"


def test_my_disputes_kill_a_might_bound_read_the_other_way(real_db, monkeypatch):
    def flipped(i):
        return {("at_least" if k == "at_most" else k): v for k, v in i.items()}

    _patched(monkeypatch, otherwise._if_it_has_might, flipped)
    assert "mismatch" in _verdicts(real_db), "'3 Might or less' read as '3 or more' survives disputes 341-349"


def test_my_disputes_kill_an_if_amount_that_ignores_its_else(real_db, monkeypatch):
    original = INSTRUCTIONS["if_amount"]
    monkeypatch.setitem(INSTRUCTIONS, "if_amount", lambda game, run, ins: original(game, run, {**ins, "else": []}))
    assert "mismatch" in _verdicts(real_db), "an if_amount's else ignored survives every dispute 341-349"
