"""Modal text (scenarios/card_reader/modal.py, scenarios/rules/modes.py): "Choose one — • X • Y" read into a mode
chosen as the spell is played or the ability is put on the Chain (355.3, 402.2), what is refused, and mutants of the
reading that the read-card disputes read-241 to read-259 kill."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from rules_db import card_readings, guard
from scenarios import schema
from scenarios.card_reader import CardText, abilities, effects, modal, read_card
from scenarios.card_reader.text import paragraphs, sentences
from scenarios.cards import Card, UnknownCard, use_read_cards
from scenarios.kernel import Refusal
from scenarios.replay import replay_file, replay_variant
from scenarios.state import GameState
from scenarios.yaml_reading import ScenarioError

DISPUTES = sorted((Path(__file__).parent / "data" / "read_card_disputes").glob("read-2[45][0-9]-*.yaml"))
BARRAGE = "Choose one —\n• Deal 4 to a unit in a base.\n• Kill a gear."


def read(text: str, kind: str = "Spell", **numbers):
    reading = read_card(CardText("Some Card", kind, text, **numbers))
    if reading.status == "read":
        Card.model_validate(reading.definition)
    return reading


def test_a_bulleted_list_is_one_sentence_of_the_paragraph_listing_it():
    (paragraph,) = paragraphs("When I move, draw 1. Choose one —\n• Draw 1. Discard 1.\n• Kill a gear. (A reminder.)")
    assert paragraph.reminders == ("A reminder.",)
    assert sentences(paragraph.text) == ["When I move, draw 1.", "Choose one — • Draw 1. Discard 1. • Kill a gear."]


def test_each_mode_is_read_with_its_own_targets():
    reading = read(BARRAGE)
    assert reading.definition["effects"] == [
        {"op": "mode", "modes": [[{"op": "deal", "amount": 4, "to": "target"}], [{"op": "kill", "what": "other"}]]}
    ]
    assert reading.definition["targets"] == {
        "mode": {"type": "mode", "modes": 2},
        "target": {"type": "unit", "where": "base", "mode": 1},
        "other": {"type": "gear", "mode": 2},
    }


def test_a_mode_not_chosen_this_turn_is_remembered_for_the_ability():
    text = "[Exhaust]: Choose one you've not chosen this turn —\n• Draw 1.\n• Channel 1 rune exhausted."
    (ability,) = read(text, "Gear").definition["activated"]
    assert ability["targets"] == {"mode": {"type": "mode", "modes": 2, "not_chosen": "turn"}}
    definition = {**read(text, "Gear").definition, "name": "Some Gear", "real": "Some Gear"}
    try:
        use_read_cards({"Some Gear": definition})
        deck = [{"id": f"d{n}", "card": "Test Unit"} for n in range(3)]
        setup = {
            "turn": {"player": "A"},
            "players": {"A": {"base": [{"id": "g", "card": "Some Gear"}], "deck": deck}, "B": {}},
        }
        game = GameState(setup)
        game.push({"by": "A", "do": "activate", "source": "g", "ability": 0, "targets": {"mode": "1"}})
        game.push({"by": "A", "do": "pass"})
        game.push({"by": "B", "do": "pass"})
        assert len(game.hand("A")) == 1
        game.obj("g").exhausted = False
        with pytest.raises(Refusal) as refused:
            game.push({"by": "A", "do": "activate", "source": "g", "ability": 0, "targets": {"mode": "1"}})
        assert refused.value.rule == "355.3"
        game.push({"by": "A", "do": "activate", "source": "g", "ability": 0, "targets": {"mode": "2"}})
        assert game.chain  # the other mode is still offered
    finally:
        use_read_cards({})


def test_several_repeats_and_a_mode_not_already_chosen():
    text = (
        "[Repeat] — [1 Energy] / [Any rune] / [1 Energy][Any rune] (You may pay each additional cost to repeat this"
        " spell's effect.)\nChoose one you haven't already chosen —\n• Draw 1.\n• Discard 1."
    )
    definition = read(text).definition
    assert definition["repeat"] == [{"energy": 1}, {"power": 1}, {"energy": 1, "power": 1}]  # 820.1.c.2
    assert definition["targets"]["mode"] == {"type": "mode", "modes": 2, "not_chosen": "item"}


def test_choose_one_to_give_me_a_keyword_this_turn():
    text = "When I become ready, choose one to give me this turn —\n• [Assault 2] (+2.)\n• [Ganking] (I can move.)"
    (trigger,) = read(text, "Unit", might=5).definition["triggers"]
    assert trigger["effects"][0]["modes"] == [
        [{"op": "grant", "keyword": "Assault", "to": "this", "value": 2}],
        [{"op": "grant", "keyword": "Ganking", "to": "this"}],
    ]
    assert read("When I attack, choose one to give me this turn —\n• [Assault 2]\n• Draw 1.", "Unit").status == "unread"


def test_a_mode_of_several_sentences_and_a_trigger_with_modes():
    spell = read("Choose one —\n• Draw 1. Discard 1.\n• Channel 1 rune exhausted.")
    assert spell.definition["effects"][0]["modes"] == [
        [{"op": "draw", "n": 1}, {"op": "discard", "n": 1}],
        [{"op": "channel", "n": 1, "exhausted": True}],
    ]
    unit = read("When I attack, choose one —\n• Draw 1.\n• Give me +2 [Might] this turn.", "Unit", might=3)
    (trigger,) = unit.definition["triggers"]
    assert trigger["targets"] == {"mode": {"type": "mode", "modes": 2}}
    assert trigger["effects"][0]["modes"][1] == [{"op": "might", "amount": 2, "to": "this"}]


@pytest.mark.parametrize(
    "text",
    [
        "Choose one —\n• Draw 1.\n• Frobnicate a unit.",  # one mode not read: the whole list is refused
        "Choose one —\n• Draw 1.",  # one mode is no choice
        "Choose one you have chosen —\n• Draw 1.\n• Discard 1.",
        "Choose two —\n• Draw 1.\n• Discard 1.\n• Channel 1 rune exhausted.",
    ],
)
def test_what_the_modes_cannot_say_stays_unread(text):
    reading = read(text)
    assert reading.status == "unread" and reading.unread


def test_x_or_y_is_a_choice_made_as_it_resolves():
    (trigger,) = read("When I conquer, draw 1 or channel 1 rune exhausted.", "Unit", might=4).definition["triggers"]
    assert trigger["effects"] == [
        {
            "op": "either",
            "options": [[{"op": "draw", "n": 1}], [{"op": "channel", "n": 1, "exhausted": True}]],
            "labels": ["draw 1", "channel 1 rune exhausted"],
        }
    ]
    assert "targets" not in trigger  # nothing chosen as it is put on the Chain (355.17)
    buff = read("When you play me, you may draw 1 or buff me.", "Unit", might=3).definition["triggers"][0]
    assert buff["optional"] and buff["effects"][0]["options"][1] == [{"op": "buff", "what": "this"}]


@pytest.mark.parametrize(
    "text",
    [
        "Draw 1 or kill a unit at a battlefield.",  # a target in one option: chosen before the choice? not said
        "Ready or draw 1.",  # "ready" alone is no instruction
        "Stun a unit or gear.",  # not two instructions (and a gear is not stunned: `_status`)
    ],
)
def test_an_or_that_is_not_two_instructions_choosing_nothing_stays_unread(text):
    assert read(text).status == "unread"


def test_if_you_do_is_linked_to_a_kill_banish_or_return_before_it():
    (trigger,) = read("When I conquer, you may kill a gear. If you do, buff me.", "Unit", might=3).definition[
        "triggers"
    ]
    assert trigger["optional"] and trigger["effects"] == [
        {"op": "if_done", "do": [{"op": "kill", "what": "target"}], "then": [{"op": "buff", "what": "this"}]}
    ]
    assert read("Draw 1. If you do, draw 1.").status == "unread"  # a draw's performance is not seen: not read
    assert read("Kill a unit at a battlefield. Draw 1. If you do, draw 1.").status == "unread"


def test_if_you_cant_and_a_gear_with_a_cost_no_more_than():
    mobilize = read("Channel 1 rune exhausted. If you can't, draw 1.")
    assert mobilize.definition["effects"] == [
        {"op": "if_done", "do": [{"op": "channel", "n": 1, "exhausted": True}], "else": [{"op": "draw", "n": 1}]}
    ]
    catalyst = read("Channel 2 runes exhausted. If you couldn't channel 2 runes this way, draw 1.")
    assert catalyst.definition["effects"][0]["else"] == [{"op": "draw", "n": 1}]
    assert read("Channel 1 rune exhausted. If you couldn't channel 2 runes this way, draw 1.").status == "unread"
    pick = read(
        "When you play me, you may kill a gear with Energy cost no more than [1 Energy]. If you do, play a Gold gear"
        " token exhausted.",
        "Unit",
        might=2,
    )
    assert pick.definition["triggers"][0]["targets"] == {"target": {"type": "gear", "max_cost": 1}}


def test_a_kill_replaced_by_another_event_was_not_done():
    """359.3.e.14.b (Deathgrip's example): a unit healed and recalled instead of dying was not killed."""
    definition = {**read("Kill a friendly unit. If you do, draw 1.").definition, "name": "Linked", "real": "Linked"}
    try:
        use_read_cards({"Linked": definition})
        for gear, drawn in (([], 1), ([{"id": "z", "card": "Zhonya's Hourglass"}], 0)):
            base = [{"id": "u", "card": "Test Unit"}, *gear]
            deck = [{"id": "d", "card": "Test Unit"}]
            setup = {
                "turn": {"player": "A"},
                "players": {"A": {"hand": [{"id": "s", "card": "Linked"}], "base": base, "deck": deck}, "B": {}},
            }
            game = GameState(setup)
            game.push({"by": "A", "do": "play", "card": "s", "targets": {"target": "u"}})
            game.push({"by": "A", "do": "pass"})
            game.push({"by": "B", "do": "pass"})
            assert (game.obj("u").zone == "trash", len(game.hand("A"))) == (not gear, drawn)
    finally:
        use_read_cards({})


def _barrage_game(definition):
    use_read_cards({"Rocket Barrage": definition})
    return GameState(
        {
            "turn": {"player": "A"},
            "players": {
                "A": {"hand": [{"id": "rb", "card": "Rocket Barrage"}]},
                "B": {"base": [{"id": "g", "card": "Spirit Wheel"}, {"id": "u", "card": "Test Unit", "might": 5}]},
            },
        }
    )


def test_only_the_chosen_modes_targets_are_chosen_and_executed():
    definition = {**read(BARRAGE).definition, "name": "Rocket Barrage", "real": "Rocket Barrage"}
    try:
        game = _barrage_game(definition)
        game.push({"by": "A", "do": "play", "card": "rb", "targets": {"mode": "1", "target": "u"}})
        game.push({"by": "A", "do": "pass"})
        game.push({"by": "B", "do": "pass"})
        assert (game.obj("u").damage, game.obj("g").zone) == (4, "board")
        game = _barrage_game(definition)
        with pytest.raises(Refusal) as refused:  # a target of the mode not chosen
            game.push({"by": "A", "do": "play", "card": "rb", "targets": {"mode": "2", "other": "g", "target": "u"}})
        assert refused.value.rule == "355.3"
        with pytest.raises(Refusal):  # the chosen mode's own target is still needed
            game.push({"by": "A", "do": "play", "card": "rb", "targets": {"mode": "2"}})
        with pytest.raises(Refusal):  # there is no third mode
            game.push({"by": "A", "do": "play", "card": "rb", "targets": {"mode": "3"}})
        plays = [a.targets for a in game.legal_actions() if getattr(a, "card", None) == "rb" and not a.repeat]
        assert {"mode": "1", "target": "u"} in plays and {"mode": "2", "other": "g"} in plays
        assert all(("target" in p) == (p["mode"] == "1") and ("other" in p) == (p["mode"] == "2") for p in plays)
    finally:
        use_read_cards({})


def _reversed(m, ctx):
    found = modal._choose_one(m, ctx)
    return None if found is None else [{**found[0], "modes": found[0]["modes"][::-1]}]


def _every_mode_targets(m, ctx):
    found = modal._choose_one(m, ctx)
    for spec in ctx.targets.values():
        spec.pop("mode", None)
    return found


def _either_swapped(m, ctx):
    found = modal._either(m, ctx)
    return None if found is None else [{**found[0], "options": found[0]["options"][::-1]}]


def _fresh_dropped(m, ctx):
    found = modal._choose_one(m, ctx)
    ctx.targets.get("mode", {}).pop("not_chosen", None)
    return found


def _keyword_modes_reversed(m, ctx):
    found = modal._choose_one_to_give(m, ctx)
    return None if found is None else [{**found[0], "modes": found[0]["modes"][::-1]}]


_MUTANTS = {
    "the keyword modes read in reverse": (modal._choose_one_to_give, _keyword_modes_reversed),
    "a mode chosen this turn offered again": (modal._choose_one, _fresh_dropped),
    "the modes read in reverse": (modal._choose_one, _reversed),
    "every mode's targets chosen": (modal._choose_one, _every_mode_targets),
    "X or Y performing the other": (modal._either, _either_swapped),
}


def _if_you_do_always(sentence, before, ctx, used):
    found = modal.read_if_you_do(sentence, before, ctx, used)
    return None if found is None else found[0]["do"] + found[0].get("then", found[0].get("else", []))


def _can_and_cant_swapped(sentence, before, ctx, used):
    found = modal.read_if_you_do(sentence, before, ctx, used)
    if found is None:
        return None
    swap = {"then": "else", "else": "then"}
    return [{swap.get(k, k): v for k, v in found[0].items()}]


_LINKED = {"if you do read as always": _if_you_do_always, "if you can't read as if you do": _can_and_cant_swapped}


@pytest.mark.parametrize("mutant", [*sorted(_MUTANTS), *_LINKED])
def test_the_disputes_kill_a_mutant_of_the_modes(mutant, real_db, monkeypatch):
    if mutant in _LINKED:
        swapped = [_LINKED[mutant] if r is modal.read_if_you_do else r for r in abilities.INSTEAD]
        monkeypatch.setattr(abilities, "INSTEAD", swapped)
        assert _verdicts(real_db) != {"match"}, f"the mutant {mutant!r} of the reader survives every modal dispute"
        return
    original, replacement = _MUTANTS[mutant]
    monkeypatch.setattr(
        effects,
        "TEMPLATES",
        [(f, p, replacement if b is original else b) for f, p, b in effects.TEMPLATES],
    )
    assert _verdicts(real_db) != {"match"}, f"the mutant {mutant!r} of the reader survives every modal dispute"


def _verdicts(real_db) -> set[str]:
    conn = guard.read_only(real_db)
    conn.row_factory = sqlite3.Row
    definitions = {}
    for row in conn.execute(card_readings._CARDS, ["riftbound"]):
        reading = read_card(card_readings.card_text(dict(row)))
        if reading.status == "read":
            definitions[row["name"]] = reading.definition
    conn.close()
    use_read_cards(definitions)
    verdicts = []
    try:
        for path in DISPUTES:
            try:
                verdicts.append(replay_file(path).verdict)
                scenario, _ = schema.load(path)
                verdicts += [replay_variant(path, v.id).verdict for v in scenario.variants]
            except (ScenarioError, UnknownCard):  # a card the mutant no longer reads
                verdicts.append("refused")
    finally:
        use_read_cards({})
    return set(verdicts)


def test_the_modal_disputes_match_with_the_cards_as_read(real_db):
    assert DISPUTES and _verdicts(real_db) == {"match"}
