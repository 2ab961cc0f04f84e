"""The card reader's cost templates (scenarios/card_reader/costs.py): additional costs, mandatory and optional
(356.2), what paying one does, and a card's discounts of itself (356.4); mutants of their readings that the
read-card disputes read-121..130 kill."""

from __future__ import annotations

from pathlib import Path

import pytest
from read_cards import read_every_card, verdicts_with

from scenarios.card_reader import CardText, costs, read_card

DISPUTES = sorted((Path(__file__).parent / "data" / "read_card_disputes").glob("read-1[23][0-9]-*.yaml"))


def _read(text: str, kind: str = "Unit", energy: int = 3, domains=("Fury",)):
    return read_card(CardText(name="Card", card_type=kind, text=text, energy=energy, might=2, domains=domains))


def test_an_optional_additional_cost_and_the_play_effect_it_pays_for():
    reading = _read(
        "You may pay [1 Energy][Fury rune] as an additional cost to play me.\n"
        "When you play me, if you paid the additional cost, deal 2 to a unit at a battlefield."
    )
    assert reading.status == "read", reading.unread
    assert reading.definition["additional_cost"] == {
        "cost": {"energy": 1, "domain_power": {"Fury": 1}},
        "optional": True,
    }
    (trigger,) = reading.definition["triggers"]
    assert trigger["condition"] == "additional cost paid"
    assert trigger["when"] == {"event": "play", "who": "self"}
    assert trigger["effects"] == [{"op": "deal", "amount": 2, "to": "target"}]


def test_a_mandatory_additional_cost_has_no_may():
    reading = _read("As an additional cost to play me, kill a friendly unit.")
    assert reading.definition["additional_cost"] == {"kill": "friendly unit", "optional": False}
    mighty = _read("As an additional cost to play this, kill a friendly [Mighty] unit.\nDraw 2.", kind="Spell")
    assert mighty.definition["additional_cost"]["kill"] == "friendly mighty unit"


def test_objects_an_additional_cost_acts_on():
    meditation = _read(
        "As an additional cost to play this, you may exhaust a friendly unit. If you do, draw 2. Otherwise, draw 1.",
        kind="Spell",
    )
    assert meditation.definition["additional_cost"] == {"exhaust": "friendly unit", "optional": True}
    assert meditation.definition["effects"] == [
        {
            "op": "if",
            "condition": "additional cost paid",
            "then": [{"op": "draw", "n": 2}],
            "else": [{"op": "draw", "n": 1}],
        }
    ]
    quartermaster = _read("As an additional cost to play me, return a friendly gear to its owner's hand.")
    assert quartermaster.definition["additional_cost"] == {"bounce": "friendly gear", "optional": False}


def test_if_you_do_lowers_or_ignores_the_cost():
    cheaper = _read("As you play me, you may discard 1 as an additional cost. If you do, reduce my cost by [2 Energy].")
    assert cheaper.definition["additional_cost"] == {"cost": {"discard": 1}, "optional": True}
    assert cheaper.definition["discounts"] == [{"energy": 2, "condition": "additional cost paid"}]
    free = _read(
        "As you play this, you may spend a buff as an additional cost. If you do, ignore this spell's cost.\n"
        "Ready a unit.",
        kind="Spell",
    )
    assert free.definition["additional_cost"]["ignore_cost"] is True
    assert free.definition["additional_cost"]["cost"] == {"spend_buff": "friendly"}


def test_if_you_paid_the_additional_cost_instead_replaces_the_sentence_before():
    reading = _read(
        "As an additional cost to play this, you may discard 1.\n"
        "Deal 3 to a unit at a battlefield. If you paid the additional cost, deal 5 to it instead.",
        kind="Spell",
    )
    assert reading.definition["effects"] == [
        {
            "op": "if",
            "condition": "additional cost paid",
            "then": [{"op": "deal", "amount": 5, "to": "target"}],
            "else": [{"op": "deal", "amount": 3, "to": "target"}],
        }
    ]


def test_discounts_of_the_card_itself():
    assert _read("I cost [1 Energy] less for each card in your trash.").definition["discounts"] == [
        {"energy": 1, "for_each": "card in your trash"}
    ]
    ram = _read("I cost [1 Energy] less for each card you've played this turn, to a minimum of [1 Energy].")
    assert ram.definition["discounts"] == [{"energy": 1, "for_each": "card you played this turn", "minimum": 1}]
    surge = _read("This costs [2 Energy] less if you control a Mech.\nDraw 1.", kind="Spell")
    assert surge.definition["discounts"] == [{"energy": 2, "condition": "you control a Mech"}]
    levels = _read(
        "Draw 2.\n[Level 6][>] This costs [2 Energy] less.\n[Level 11][>] This costs [5 Energy] less instead.",
        kind="Spell",
    )
    assert levels.definition["discounts"] == [
        {"energy": 2, "condition": "level 6"},
        {"energy": 3, "condition": "level 11"},
    ]


def test_what_a_class_of_cards_costs():
    helm = _read(
        "Opponents' spells cost [1 Energy] more. If this is [Empowered], they cost [1 Energy][Any rune] more instead.",
        kind="Gear",
    )
    assert helm.definition["cost_modifiers"] == [
        {"whose": "opponent", "cards": "spell", "energy": 1, "condition": "not empowered"},
        {"whose": "opponent", "cards": "spell", "condition": "empowered", "energy": 1, "power": 1},
    ]
    herald = _read("Your Dragons' Energy costs are reduced by [2 Energy], to a minimum of [1 Energy].")
    assert herald.definition["cost_modifiers"] == [
        {"whose": "you", "cards": "card", "tag": "Dragon", "energy": -2, "minimum": 1}
    ]
    eager = _read(
        "While I'm at a battlefield, the Energy costs for spells you play is reduced by [1 Energy], to a minimum of "
        "[1 Energy]."
    )
    assert eager.definition["cost_modifiers"] == [
        {"whose": "you", "cards": "spell", "energy": -1, "minimum": 1, "condition": "at a battlefield"}
    ]


def test_power_in_discounts_and_modifiers_of_a_class():
    keeper = _read(
        "I cost [2 Energy][Order rune] less if you control a battlefield with exactly two units there.",
        domains=("Order",),
    )
    assert keeper.definition["discounts"] == [
        {"energy": 2, "power": 1, "condition": "you control a battlefield with exactly two units there"}
    ]
    assert _read("I cost [2 Energy][Calm rune] less if you control a Mech.", domains=("Order",)).status == "unread"
    researchers = _read("[Empowered][>] Your spells cost [1 Energy][Any rune] less, to a minimum of [1 Energy].")
    assert researchers.definition["cost_modifiers"] == [
        {"whose": "you", "cards": "spell", "energy": -1, "power": -1, "minimum": 1, "condition": "empowered"}
    ]
    vex = _read(
        "While I'm in combat, friendly spells cost [1 Energy][Any rune] less to a minimum of [1 Energy], and enemy "
        "spells cost [1 Energy][Any rune] more."
    )
    assert [(m["whose"], m["energy"], m["condition"]) for m in vex.definition["cost_modifiers"]] == [
        ("you", -1, "in combat"),
        ("opponent", 1, "in combat"),
    ]


def test_entering_ready_on_a_condition_and_a_discount_by_might():
    crescent = _read(
        "If you've played a spell this turn, you may pay [Chaos rune] as an additional cost to play me. If you do, I "
        "enter ready.",
        domains=("Chaos",),
    )
    assert crescent.definition["additional_cost"] == {
        "cost": {"domain_power": {"Chaos": 1}},
        "optional": True,
        "condition": "you've played a spell this turn",
    }
    assert [r["condition"] for r in crescent.definition["replacements"]] == ["additional cost paid"]
    monch = _read("If an opponent controls a stunned unit, I cost [2 Energy] less and enter ready.")
    assert [r["condition"] for r in monch.definition["replacements"]] == ["an opponent controls a stunned unit"]
    splitter = _read("This spell's Energy cost is reduced by the highest Might among units you control.", "Spell")
    assert splitter.definition["discounts"] == [{"energy": 1, "for_each": "might of your mightiest unit"}]


def test_banish_then_its_owner_plays_it_somewhere():
    breach = _read("Banish a unit, then its owner plays it to the same location, ignoring its cost.", "Spell")
    assert breach.definition["effects"] == [{"op": "banish_and_play", "what": "target", "to": "same"}]
    thrill = _read("Banish a friendly unit, then its owner plays it to any battlefield, ignoring its cost.", "Spell")
    assert thrill.definition["effects"][0]["to"] == "any battlefield"
    shift = _read("Banish a friendly unit, then its owner plays it, ignoring its cost.", "Spell")
    assert shift.definition["effects"][0]["to"] == "choose"
    assert _read("Banish a friendly gear, then its owner plays it, ignoring its cost.", "Spell").status == "unread"


def test_an_additional_cost_paid_any_number_of_times():
    ledros = _read(
        "As you play me, you may kill any number of friendly units as an additional cost. Reduce my cost by [Order "
        "rune] for each killed this way.",
        domains=("Order",),
    )
    assert ledros.definition["additional_cost"] == {"kill": "friendly unit", "any_number": True, "optional": True}
    assert ledros.definition["discounts"] == [{"power": 1, "for_each": "time the additional cost was paid"}]
    kraken = _read(
        "As you play me, you may spend any number of buffs as an additional cost. Reduce my cost by [Body rune] for "
        "each buff you spend.",
        domains=("Body",),
    )
    assert kraken.definition["additional_cost"]["cost"] == {"spend_buff": "friendly"}


def test_what_some_cards_cost_while_a_battlefield_or_unit_is_there():
    forge = _read(
        "While you control this battlefield, the first friendly non-token gear played each turn costs [1 Energy] less.",
        kind="Battlefield",
    )
    assert forge.definition["cost_modifiers"] == [
        {"energy": -1, "cards": "gear", "first_each_turn": True, "condition": "you control this battlefield"}
    ]
    vortex = _read("During showdowns here, cards with [Reaction] cost [Any rune] more to play.", kind="Battlefield")
    assert vortex.definition["cost_modifiers"] == [
        {"power": 1, "whose": "any", "keyword": "Reaction", "condition": "during a showdown here"}
    ]
    spire = _read("While you control this battlefield, friendly [Repeat] costs cost [1 Energy] less.", "Battlefield")
    assert spire.definition["cost_modifiers"] == [
        {"energy": -1, "cards": "spell", "component": "repeat", "condition": "you control this battlefield"}
    ]
    tomb = _read(
        "Each spell that chooses one or more units here that are friendly to it costs [Any rune] less.", "Battlefield"
    )
    assert tomb.definition["cost_modifiers"] == [
        {"power": -1, "cards": "spell", "whose": "any", "chooses": "friendly unit here"}
    ]
    gazer = _read("Spells with [Flow] you play from your trash cost [2 Energy] less, to a minimum of [1 Energy].")
    assert gazer.definition["cost_modifiers"] == [{"energy": -2, "cards": "spell", "from_trash": True, "minimum": 1}]


def test_what_cards_cost_this_turn():
    firebrand = _read("When you play me, the next spell you play this turn costs [5 Energy] less.")
    assert firebrand.definition["triggers"][0]["effects"] == [
        {"op": "cost_change", "cards": "spell", "energy": -5, "once": True}
    ]
    vaults = _read(
        "When you hold here, your non-token units cost [1 Energy] more to play this turn.", kind="Battlefield"
    )
    assert vaults.definition["triggers"][0]["effects"] == [{"op": "cost_change", "cards": "unit", "energy": 1}]


def test_plays_ignoring_a_cost():
    harrowing = _read(
        "Play a unit from your trash, ignoring its Energy cost. (You must still pay its Power cost.)", "Spell"
    )
    assert harrowing.status == "read", harrowing.unread
    assert harrowing.definition["effects"] == [{"op": "play_from", "what": "target", "ignoring": "energy"}]
    assert harrowing.definition["targets"] == {"target": {"type": "unit", "zone": "trash"}}
    matron = _read(
        "When you play me, you may play a unit costing no more than [3 Energy] and no more than [Any rune] from your "
        "trash, ignoring its cost."
    )
    (trigger,) = matron.definition["triggers"]
    assert trigger["optional"] is True
    assert trigger["effects"] == [{"op": "play_from", "what": "target", "ignoring": "cost"}]
    assert trigger["targets"] == {"target": {"type": "unit", "zone": "trash", "max_cost": 3, "max_power": 1}}
    herald = _read("[Deathknell][>] Play a unit from your hand to your base, ignoring its Energy cost.")
    (ability,) = herald.definition["triggers"]
    assert ability["effects"] == [{"op": "play_from_hand", "to": "base", "ignoring": "energy"}]  # deck's reading
    assert "targets" not in ability  # the hand is private: not a target (355.10.a)


def test_an_ability_that_costs_less():
    mother = _read("[Empower] [12 Energy]. This ability costs [1 Energy] less for each rune you control.")
    (ability,) = mother.definition["activated"]
    assert ability["cost"] == {"energy": 12} and ability["condition"] == "not empowered"
    assert ability["discounts"] == [{"energy": 1, "for_each": "rune you control"}]
    bloom = _read(
        "[4 Energy], [Exhaust]: Draw 1. This ability costs [1 Energy] less for each friendly unit with [Temporary].",
        kind="Legend",
    )
    assert bloom.definition["activated"][0]["discounts"] == [{"energy": 1, "for_each": "friendly unit with Temporary"}]
    # its condition is one of the one table of conditions (`card_reader.conditions`), as a card's own discount's
    mech = _read("[Empower] [5 Energy]. This ability costs [3 Energy] less if you control a Mech.")
    assert mech.definition["activated"][0]["discounts"] == [{"energy": 3, "condition": "you control a Mech"}]


@pytest.mark.parametrize(
    "text",
    [
        "As an additional cost to play this, you may exhaust your legend.",  # a cost the engine doesn't pay
        "I cost [2 Energy][Calm rune] less for each point you scored from holding this turn.",  # a count not known
        "[Level 3][>] I cost [2 Energy][Calm rune] less.",  # a Power discount: Cost.less takes off [A] only
        "This costs [2 Energy] less if you choose a Bird, Cat, Dog, or Poro.",  # a condition not known
        "[Level 11][>] This costs [4 Energy] less instead.",  # instead of nothing said before
        "You may pay [Calm rune] as an additional cost to play me. If you do, draw 1.",  # a unit: no if-you-do effect
        "Your spells cost [1 Energy][Mind rune] less.",  # Power of one domain off any spell
        "Play a spell from your trash, ignoring its Energy cost.",  # a spell: not played by an effect here
        "[Empower] [5 Energy]. This ability costs [3 Energy] less if you juggle a Mech.",  # a condition not known
        "Play a unit from your trash, ignoring its cost. Then recycle it.",  # "it": not said by the play
        "Your non-token units cost [1 Energy] more to play this turn.",  # for a turn: not a passive
        "While I'm attacking, friendly spells cost [1 Energy] less.",  # a condition not known
    ],
)
def test_what_is_not_understood_stays_unread(text):
    reading = _read(text)
    assert reading.status == "unread" and reading.unread


def test_if_you_paid_needs_an_optional_cost_said_before():
    reading = _read("When you play me, if you paid the additional cost, draw 1.")
    assert reading.status == "unread"


# -- mutants the disputes kill ---------------------------------------------------------------------------------


def _mutate_additional(change):
    read = costs.read_additional_cost

    def mutant(text, card, spell, used):
        found = read(text, card, spell, used)
        if found and "additional_cost" in card:
            change(card)
        return found

    return read, mutant


def _free(card):
    card["additional_cost"]["cost"] = {}
    for act in ("kill", "exhaust", "bounce"):
        card["additional_cost"].pop(act, None)


def _always_ready(card):
    for replacement in card.get("replacements", []):  # "if <condition>, I enter ready" read as always
        replacement.pop("condition", None)


def _once(card):
    card["additional_cost"].pop("any_number", None)


def _otherwise_dropped(card):
    for effect in card.get("effects", []):
        effect.pop("else", None)


def _mandatory_optional(card):
    card["additional_cost"]["optional"] = True


def _paid_always(card):
    for ability in card.get("triggers", []) + card.get("discounts", []):
        if ability.get("condition") == costs.PAID:
            del ability["condition"]


MUTANTS = ["additional cost read as free", "a mandatory cost read as optional", "paid read as always"]
MUTANTS += ["entering ready on a condition read as always", "any number read as once"]
MUTANTS += ["otherwise dropped"]
MUTANTS += ["for each read as once", "a discount's minimum dropped", "a discount's condition dropped"]
MUTANTS += ["instead read as both", "a level discount read one level lower"]
MUTANTS += ["ignoring the Energy cost read as ignoring all", "a play's limits dropped", "played to base instead"]
MUTANTS += ["the next spell read as every spell", "a Repeat cost's discount read as the total's"]
MUTANTS += ["choosing a friendly unit here dropped"]
MUTANTS += ["an ability's discount dropped", "first each turn read as every time", "during showdowns read as always"]
MUTANTS += ["a class discount's Power dropped"]
MUTANTS += ["whose cards read as yours", "a class discount's condition dropped", "a class discount's minimum dropped"]


def _install(mutant: str, monkeypatch) -> None:
    if mutant in (
        "additional cost read as free",
        "a mandatory cost read as optional",
        "paid read as always",
        "otherwise dropped",
        "entering ready on a condition read as always",
        "any number read as once",
    ):
        change = {
            "entering ready on a condition read as always": _always_ready,
            "any number read as once": _once,
            "otherwise dropped": _otherwise_dropped,
            "additional cost read as free": _free,
            "a mandatory cost read as optional": _mandatory_optional,
            "paid read as always": _paid_always,
        }[mutant]
        read, replacement = _mutate_additional(change)
        if mutant == "paid read as always":  # the play effect read in its own paragraph loses its condition too
            read_paid = costs._read_paid_trigger

            def unconditional(text, card, used):
                found = read_paid(text, card, used)
                if found:
                    _paid_always(card)
                return found

            monkeypatch.setattr(costs, "_read_paid_trigger", unconditional)
        monkeypatch.setattr(costs, "read_additional_cost", replacement)
        return
    if mutant == "instead read as both":
        read_spell = costs._read_paid_spell

        def both(text, card, spell, used):
            found = read_spell(text, card, spell, used)
            effects = []
            for effect in card.get("effects", []):
                effects += effect.get("else", []) + effect["then"] if effect.get("op") == "if" else [effect]
            card["effects"] = effects
            return found

        monkeypatch.setattr(costs, "_read_paid_spell", both)
        return
    if mutant in (
        "first each turn read as every time",
        "during showdowns read as always",
        "a Repeat cost's discount read as the total's",
        "choosing a friendly unit here dropped",
    ):
        read_battlefield = costs.read_battlefield_costs

        def changed_battlefield(text, card, spell, used):
            found = read_battlefield(text, card, spell, used)
            for modifier in card.get("cost_modifiers", []):
                if mutant == "first each turn read as every time":
                    modifier.pop("first_each_turn", None)
                elif mutant == "a Repeat cost's discount read as the total's":
                    modifier.pop("component", None)
                elif mutant == "choosing a friendly unit here dropped":
                    modifier.pop("chooses", None)
                elif modifier.get("condition") == "during a showdown here":
                    del modifier["condition"]
            return found

        monkeypatch.setattr(costs, "read_battlefield_costs", changed_battlefield)
        return
    if mutant == "an ability's discount dropped":
        read_ability = costs.read_ability_discount

        def no_discount(text, card, spell, used):
            found = read_ability(text, card, spell, used)
            for ability in card.get("activated", []):
                ability.pop("discounts", None)
            return found

        monkeypatch.setattr(costs, "read_ability_discount", no_discount)
        return
    if mutant == "the next spell read as every spell":
        from scenarios.card_reader import effects

        def every(m, ctx):
            return [{k: v for k, v in i.items() if k != "once"} for i in costs._cost_this_turn(m, ctx) or []] or None

        templates = [(f, p, every if b is costs._cost_this_turn else b) for f, p, b in effects.TEMPLATES]
        monkeypatch.setattr(effects, "TEMPLATES", templates)
        return
    if mutant == "played to base instead":
        from scenarios.card_reader import effects

        def to_base(m, ctx):
            return [{**i, "to": "base"} for i in costs._banish_and_play_to(m, ctx) or []] or None

        templates = [(f, p, to_base if b is costs._banish_and_play_to else b) for f, p, b in effects.TEMPLATES]
        monkeypatch.setattr(effects, "TEMPLATES", templates)
        return
    if mutant in ("ignoring the Energy cost read as ignoring all", "a play's limits dropped"):
        from scenarios.card_reader import effects

        def changed_play(original):
            def mutant_play(m, ctx):
                found = original(m, ctx)
                for ins in found or []:
                    if mutant == "a play's limits dropped":
                        ctx.targets[ins["what"]].pop("max_cost", None)
                        ctx.targets[ins["what"]].pop("max_power", None)
                    else:
                        ins["ignoring"] = "cost"
                return found

            return mutant_play

        templates = [(f, p, changed_play(b) if b is costs._play_from else b) for f, p, b in effects.TEMPLATES]
        monkeypatch.setattr(effects, "TEMPLATES", templates)
        return
    if mutant in (
        "whose cards read as yours",
        "a class discount's condition dropped",
        "a class discount's minimum dropped",
        "a class discount's Power dropped",
    ):
        read_class = costs.read_class_costs
        key = {
            "whose cards read as yours": "whose",
            "a class discount's minimum dropped": "minimum",
            "a class discount's Power dropped": "power",
        }.get(mutant)

        def changed_class(text, card, spell, used):
            found = read_class(text, card, spell, used)
            for modifier in card.get("cost_modifiers", []):
                if key is None and modifier.get("condition") == "at a battlefield":
                    del modifier["condition"]
                elif key == "whose":
                    modifier["whose"] = "you"
                elif key is not None:
                    modifier.pop(key, None)
            return found

        monkeypatch.setattr(costs, "read_class_costs", changed_class)
        return
    read_discount = costs.read_discount

    def changed(text, card, spell, used):
        found = read_discount(text, card, spell, used)
        for discount in card.get("discounts", []):
            if mutant == "for each read as once":
                discount.pop("for_each", None)
            elif mutant == "a level discount read one level lower":
                word = str(discount.get("condition"))
                if word.startswith("level "):
                    discount["condition"] = f"level {int(word.split()[1]) - 1}"
            elif mutant == "a discount's minimum dropped":
                discount.pop("minimum", None)
            elif not str(discount.get("condition")).startswith(("level ", costs.PAID)):
                discount.pop("condition", None)
        return found

    monkeypatch.setattr(costs, "read_discount", changed)


def test_the_cost_disputes_match_with_the_reader_as_it_is(real_db):
    assert len(DISPUTES) >= 10
    assert set(verdicts_with(read_every_card(real_db), DISPUTES)) == {"match"}


@pytest.mark.parametrize("mutant", MUTANTS)
def test_the_cost_disputes_kill_a_mutant_of_each_template(mutant, real_db, monkeypatch):
    _install(mutant, monkeypatch)
    verdicts = verdicts_with(read_every_card(real_db), DISPUTES)
    assert "mismatch" in verdicts, f"the mutant {mutant!r} of the cost reader survives every cost dispute"
