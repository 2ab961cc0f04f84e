"""The reader's "if you control 4 or fewer runes, <instructions>", "<status> 2 <objects>", "a unit with less
Might than me", "<cost>: [Reaction], [Legion] — <effect>", "an enemy Chaos unit or gear" and "Ignore [Deflect]
while paying this spell's cost": readings, what stays unread, and mutants of the readings that the read-card
disputes read-321 to read-326 kill."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from read_cards import read_every_card, verdicts_with

from scenarios.card_reader import CardText, abilities, costs, effects, phrases, read_card, several
from scenarios.cards import Card

DISPUTES = sorted((Path(__file__).parent / "data" / "read_card_disputes").glob("read-32[1-6]-*.yaml"))


def read(text: str, kind: str = "Spell", **numbers):
    reading = read_card(CardText("Some Card", kind, text, **numbers))
    if reading.status == "read":
        Card.model_validate(reading.definition)
    return reading


def test_if_you_control_four_or_fewer_runes_wraps_the_instructions():
    reading = read("When I move, if you control 4 or fewer runes, draw 1.", "Unit", might=3)
    assert reading.status == "read"
    (trigger,) = reading.definition["triggers"]
    assert trigger["condition"] == "you control 4 or fewer runes"  # part of the Trigger Condition (383.2.a.1)
    assert trigger["effects"] == [{"op": "draw", "n": 1}]


def test_a_status_on_two_objects_is_two_different_choices():
    reading = read("Stun two enemy units.")
    assert reading.status == "read"
    targets = reading.definition["targets"]
    first, second = targets
    assert targets[first] == {"type": "unit", "side": "enemy"}
    assert targets[second] == {"type": "unit", "side": "enemy", "not_target": first}
    assert reading.definition["effects"] == [{"op": "stun", "what": [first, second]}]  # one action on both


def test_ready_2_gear_chooses_two_gear_and_up_to_two_stays_optional():
    reading = read("[1 Energy], [Exhaust]: Ready 2 gear.", "Legend")
    assert reading.status == "read"
    (ability,) = reading.definition["activated"]
    assert [spec["type"] for spec in ability["targets"].values()] == ["gear", "gear"]
    assert not any(spec.get("optional") for spec in ability["targets"].values())
    assert ability["effects"] == [{"op": "ready", "what": list(ability["targets"])}]
    up_to = read("Ready up to two gear.")
    assert all(spec["optional"] for spec in up_to.definition["targets"].values())


@pytest.mark.parametrize("text", ["Ready 2 runes and gear.", "Stun two units here."])
def test_two_objects_with_more_words_stay_unread_by_this_template(text):
    reading = read(text)
    assert reading.status == "unread" or len(reading.definition.get("targets", {})) != 2


def test_with_less_might_than_me_is_a_filter_of_a_permanents_own_choice():
    reading = read("When I attack, kill an enemy unit here with less Might than me.", "Unit", might=5)
    assert reading.status == "read"
    (trigger,) = reading.definition["triggers"]
    assert trigger["targets"]["target"] == {
        "type": "unit",
        "side": "enemy",
        "where": "here",
        "less_might_than_me": True,
    }


@pytest.mark.parametrize(
    "text",
    [
        "Kill an enemy unit with less Might than me.",  # a spell has no Might of its own
        "Kill all enemy units with less Might than me.",  # not a choice: a filter of a group stays unread here
    ],
)
def test_less_might_than_me_without_a_permanent_choosing_stays_unread(text):
    assert read(text).status == "unread"


def test_a_move_with_less_might_than_me_reads_as_before():
    text = "When I attack, you may move an enemy unit here with less Might than me to a different battlefield."
    reading = read(text, "Unit", might=4)
    assert reading.status == "read"
    (trigger,) = reading.definition["triggers"]
    moved = next(spec for spec in trigger["targets"].values() if spec["type"] == "unit")
    assert moved["less_might_than_me"] is True


def test_reaction_and_legion_after_the_cost_are_the_timing_and_the_condition():
    reading = read("[Exhaust]: [Reaction], [Legion] — [Add] [1 Energy].", "Legend")
    assert reading.status == "read"
    (ability,) = reading.definition["activated"]
    assert ability["keywords"] == {"Reaction": 1}
    assert ability["effects"] == [{"op": "if", "condition": "legion", "then": [{"op": "add", "energy": 1}]}]


def test_legion_before_the_timing_word_stays_unread():
    assert read("[Exhaust]: [Legion], [Reaction] — [Add] [1 Energy].", "Legend").status == "unread"


def test_a_domain_word_filters_a_target_and_its_icon_restates_it():
    reading = read("Kill an enemy Chaos ([Chaos rune]) unit or gear.")
    assert reading.status == "read"
    assert reading.definition["targets"]["target"] == {"type": "permanent", "domain": "Chaos", "side": "enemy"}
    assert read("Deal 4 to an enemy Calm ([Calm rune]) unit.").definition["targets"]["target"]["domain"] == "Calm"


def test_a_unit_or_gear_is_one_permanent_chosen_not_two_instructions():
    reading = read("Kill a unit or gear.")
    assert reading.definition["effects"] == [{"op": "kill", "what": "target"}]
    assert reading.definition["targets"]["target"] == {"type": "permanent"}


def test_a_rune_icon_reminder_without_its_domain_word_stays_unread():
    reading = read("Kill an enemy unit ([Chaos rune]).")
    assert reading.status == "unread"
    assert reading.unread == ["([Chaos rune])"]


def test_ignore_deflect_is_a_spells_own_cost_rule():
    reading = read("Ignore [Deflect] while paying this spell's cost. Draw 1.")
    assert reading.status == "unread"  # one paragraph, one rule: more words are not read by it
    reading = read("Ignore [Deflect] while paying this spell's cost.\nDraw 1.")
    assert reading.status == "read"
    assert reading.definition["ignores_deflect"] is True
    assert read("Ignore [Deflect] while paying this spell's cost.", "Unit", might=2).status == "unread"


# -- mutants the disputes kill ------------------------------------------------------------------------------------


def _mutate_templates(monkeypatch, original, replacement):
    monkeypatch.setattr(
        effects, "TEMPLATES", [(f, p, replacement if b is original else b) for f, p, b in effects.TEMPLATES]
    )


def _without(spec, key):
    if spec is not None:
        spec.pop(key, None)
    return spec


def _two_read_as_one(m, ctx):
    found = several._verb_up_to_two(m, ctx)
    return [{**found[0], "what": found[0]["what"][0]}] if found else found


@pytest.mark.parametrize(
    "mutant",
    [
        "two objects read as one",
        "less might than me dropped",
        "legion after reaction dropped",
        "domain dropped",
        "ignore deflect dropped",
    ],
)
def test_the_disputes_kill_a_mutant_of_each_template(mutant, real_db, monkeypatch):
    if mutant == "ignore deflect dropped":
        ignore = costs.read_ignore_deflect

        def _read_but_pay(text, card, spell, used):
            found = ignore(text, card, spell, used)
            card.pop("ignores_deflect", None)
            return found

        monkeypatch.setattr(costs, "read_ignore_deflect", _read_but_pay)
    elif mutant == "domain dropped":
        spec_of = phrases.target_spec
        monkeypatch.setattr(phrases, "target_spec", lambda phrase: _without(spec_of(phrase), "domain"))
    elif mutant == "legion after reaction dropped":
        pattern = abilities._ACTIVATED.pattern.replace("(?P<legion>, \\[legion\\])?", "(?:, \\[legion\\])?(?P<legion>)")
        assert pattern != abilities._ACTIVATED.pattern
        monkeypatch.setattr(abilities, "_ACTIVATED", re.compile(pattern))
    elif mutant == "less might than me dropped":
        qualify = phrases._qualify
        monkeypatch.setattr(
            phrases,
            "_qualify",
            lambda rest, spec, plural=False: _without(qualify(rest, spec, plural), "less_might_than_me"),
        )
    else:
        _mutate_templates(monkeypatch, several._verb_up_to_two, _two_read_as_one)
    verdicts = verdicts_with(read_every_card(real_db), DISPUTES)
    assert "mismatch" in verdicts, f"no dispute kills the mutant {mutant!r}"


def test_the_disputes_match_with_the_reader_as_it_is(real_db):
    assert len(DISPUTES) == 6
    assert set(verdicts_with(read_every_card(real_db), DISPUTES)) == {"match"}
