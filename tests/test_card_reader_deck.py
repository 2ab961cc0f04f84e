"""The main deck, the trash and the hand read (scenarios/card_reader/deck.py and the recycle cost): readings of
the printed wordings, refusals of the half-said ones, and mutants of each reading that the read-card disputes of
this family (tests/data/read_card_disputes/read-16x, read-17x) kill."""

from __future__ import annotations

from pathlib import Path

import pytest
from read_cards import read_every_card, swap_reader, verdicts_with

from scenarios.card_reader import CardText, abilities, deck, effects, paragraph, read_card
from scenarios.card_reader.entering import read_entering
from scenarios.cards import Card

DISPUTES = sorted(
    path
    for path in (Path(__file__).parent / "data" / "read_card_disputes").glob("read-1[67]?-*.yaml")
    if 161 <= int(path.name.split("-")[1]) <= 179
)


def read(text: str, kind: str = "Unit"):
    return read_card(CardText("Some Card", kind, text))


def _effects(reading) -> list:
    definition = reading.definition
    return definition.get("effects") or definition["triggers"][0]["effects"]


def test_a_look_reads_the_card_taken_and_where_the_rest_go():
    reading = read(
        "Look at the top 4 cards of your Main Deck. You may reveal a spell with Energy cost [4 Energy] or more "
        "from among them and draw it. Recycle the rest.",
        "Spell",
    )
    assert reading.status == "read", reading.unread
    take = {"card": "spell", "may": True, "verb": "draw", "show": True, "min_energy": 4}
    assert _effects(reading) == [{"op": "look_at_deck", "n": 4, "take": take, "rest": "recycle"}]
    Card.model_validate(reading.definition)


@pytest.mark.parametrize(
    ("text", "take", "rest"),
    [
        (
            "You may banish a unit from among them, then play it, reducing its cost by [5 Energy]. Recycle the "
            "remaining cards.",
            {"card": "unit", "may": True, "verb": "play", "reduce": 5},
            "recycle",
        ),
        ("Put 1 into your hand and recycle the rest.", {"card": "card", "verb": "hand"}, "recycle"),
        ("Draw one and recycle the other.", {"card": "card", "verb": "draw"}, "recycle"),
        (
            "You may choose a card from among them and draw it. Put the rest into your trash.",
            {"card": "card", "may": True, "verb": "draw"},
            "trash",
        ),
        (
            "You may reveal a gear from among them and draw it. Then recycle the rest.",
            {"card": "gear", "may": True, "verb": "draw", "show": True},
            "recycle",
        ),
    ],
)
def test_each_wording_of_the_card_taken_and_the_rest(text, take, rest):
    reading = read(f"Look at the top 3 cards of your Main Deck. {text}", "Spell")
    assert _effects(reading) == [{"op": "look_at_deck", "n": 3, "take": take, "rest": rest}]


def test_each_of_two_looked_at_may_be_recycled_and_the_rest_reordered():
    reading = read(
        "Look at the top two cards of your Main Deck. You may recycle one or both of them. Put those you don't "
        "back in any order.",
        "Spell",
    )
    assert _effects(reading) == [{"op": "look_at_deck", "n": 2, "rest": "may_recycle", "reorder": True}]
    assert read("Look at the top 3 cards of your Main Deck. You may recycle one or both of them.", "Spell").unread


def test_a_revealed_top_card_taken_if_it_is_a_kind_and_otherwise_more():
    reading = read(
        "When I move, reveal the top card of your Main Deck. If it's a unit, draw it. Otherwise, put it in your "
        "trash and give me +2 [Might] this turn."
    )
    assert _effects(reading) == [
        {
            "op": "look_at_deck",
            "n": 1,
            "reveal": True,
            "take": {"card": "unit", "verb": "draw"},
            "rest": "trash",
            "else": [{"op": "might", "amount": 2, "to": "this"}],
        }
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Look at the top 3 cards of your Main Deck.",  # nothing said of them
        "Look at the top 3 cards of your Main Deck. Put 1 into your hand.",  # the rest never said
        "Look at the top 3 cards of your Main Deck. Recycle the rest.",  # the card taken never said
        "Reveal the top 2 cards of your Main Deck. If it's a unit, draw it. Otherwise, recycle it.",  # "it" of two
        "Reveal the top card of your Main Deck. If it's a unit, draw it. Otherwise, put it in your trash and "
        "do a thing no card says.",  # never "otherwise, trash it" then the rest always
        "Look at the top 2 cards of your Main Deck. Put 1 into your hand and recycle the rest. Put 1 into your hand.",
        "Draw 1. Otherwise, put it in your trash and draw 1.",  # "otherwise" with no look before it
    ],
)
def test_a_look_half_said_is_refused(text):
    reading = read(text, "Spell")
    assert reading.status == "unread" and reading.definition is None


def test_a_card_returned_from_the_trash_is_a_target_there():
    reading = read("Return a unit from your trash to your hand.", "Spell")
    assert reading.definition["targets"] == {"target": {"type": "unit", "zone": "trash"}}
    assert reading.definition["effects"] == [{"op": "return_from_trash", "what": "target"}]
    assert read("Return a unit or a rune from your trash to your hand.", "Spell").status == "unread"


def test_a_card_from_the_hand_put_on_the_main_deck():
    reading = read(
        "When a friendly unit dies, you may exhaust me to draw 1, then put a card from your hand on the top or "
        "bottom of your Main Deck.",
        "Gear",
    )
    (trigger,) = reading.definition["triggers"]
    assert trigger["effects"] == [{"op": "draw", "n": 1}, {"op": "put_from_hand_on_deck"}]


@pytest.mark.parametrize(
    ("text", "event"),
    [
        ("When you discard one or more cards, ready me.", "discard_cards"),
        ("When you recycle one or more cards to your Main Deck, ready me.", "recycle_cards"),
    ],
)
def test_a_trigger_on_one_or_more_cards_discarded_or_recycled(text, event):
    (trigger,) = read(text).definition["triggers"]
    assert trigger["when"] == {"event": event, "who": "you"}


def test_a_trigger_on_the_nth_card_drawn_each_turn():
    (trigger,) = read("When you draw your second card each turn, ready me.").definition["triggers"]
    assert trigger["when"] == {"event": "draw", "who": "you", "nth": 2}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Recycle 3 from your trash.", {"op": "recycle_from_trash", "n": 3, "from": "your"}),
        ("Recycle up to 4 cards from trashes.", {"op": "recycle_from_trash", "n": 4, "from": "all", "up_to": True}),
    ],
)
def test_recycling_from_the_trash_as_an_instruction(text, expected):
    assert read(text, "Spell").definition["effects"] == [expected]


def test_an_instruction_if_the_hand_is_small():
    reading = read(
        "At the start of your Beginning Phase, draw 1 if you have one or fewer cards in your hand.", "Legend"
    )
    (trigger,) = reading.definition["triggers"]
    then = [{"op": "draw", "n": 1}]
    assert trigger["effects"] == [{"op": "if", "condition": "1 or fewer cards in hand", "then": then}]
    assert read("Draw 1 if you have nine or fewer cards in your hand.", "Spell").status == "unread"


def test_its_owner_places_it_on_the_main_deck():
    reading = read(
        "Choose an enemy unit at a battlefield. Its owner places it on the top or bottom of their Main Deck.", "Spell"
    )
    assert reading.definition["effects"] == [{"op": "owner_puts_on_deck", "what": "target"}]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[Predict 2].", {"op": "look_at_deck", "n": 2, "rest": "may_recycle", "reorder": True}),
        ("[Predict].", {"op": "look_at_deck", "n": 1, "rest": "may_recycle", "reorder": True}),
        ("[Burn 3].", {"op": "trash_from_deck", "n": 3}),
    ],
)
def test_predict_and_burn(text, expected):
    assert read(text, "Spell").definition["effects"] == [expected]


def test_entering_ready_if_the_hand_is_small():
    reading = read("If you have two or fewer cards in your hand, I enter ready.")
    (replacement,) = reading.definition["replacements"]  # the entering family's reading (369.3)
    assert replacement["condition"] == "2 or fewer cards in hand" and replacement["would"] == "enter_exhausted"
    assert "enters_ready" not in reading.definition


def test_discarding_a_card_of_a_kind_as_a_cost():
    (ability,) = read("Discard a gear, [1 Energy], [Exhaust]: Draw 1.").definition["activated"]
    assert ability["cost"] == {"discard": 1, "discard_kind": "gear", "energy": 1, "exhaust": "this"}


def test_keywords_while_a_card_was_discarded_this_turn():
    (passive,) = read("If you've discarded a card this turn, I have [Assault] and [Ganking].").definition["passives"]
    assert passive == {
        "to": {"who": "self"},
        "condition": "discarded this turn",
        "keywords": {"Assault": 1, "Ganking": 1},
    }


def test_recycling_from_the_trash_as_a_cost():
    reading = read("Recycle 3 from your trash, [1 Energy], [Exhaust]: Draw 1.", "Gear")
    (ability,) = reading.definition["activated"]
    assert ability["cost"] == {"recycle_from_trash": 3, "energy": 1, "exhaust": "this"}
    assert read("Recycle 3, [Exhaust]: Draw 1.", "Gear").status == "unread"
    (one,) = read("Recycle a unit from your trash, [Exhaust]: Draw 1.", "Gear").definition["activated"]
    assert one["cost"] == {"recycle_from_trash": 1, "recycle_kind": "unit", "exhaust": "this"}
    assert read("Recycle 2 from your trash, recycle a unit from your trash: Draw 1.", "Gear").status == "unread"


def test_a_unit_played_from_the_trash_is_a_target_there_with_its_cost_limits():
    reading = read(
        "When you play me, you may play a unit costing no more than [3 Energy] and no more than [Any rune] from "
        "your trash, ignoring its cost."
    )
    (trigger,) = reading.definition["triggers"]
    assert trigger["optional"] is True
    assert trigger["targets"] == {"target": {"type": "unit", "zone": "trash", "max_cost": 3, "max_power": 1}}
    assert trigger["effects"] == [{"op": "play_from", "what": "target", "ignoring": "cost"}]
    spell = read("Play a unit from your trash, ignoring its Energy cost. (You must still pay its Power cost.)", "Spell")
    assert spell.definition["effects"] == [{"op": "play_from", "what": "target", "ignoring": "energy"}]
    assert read("Play a spell from your trash, ignoring its Energy cost.", "Spell").status == "unread"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Play a unit from your hand to your base, ignoring its Energy cost.",
            {"op": "play_from_hand", "to": "base", "ignoring": "energy"},
        ),
        (
            "You may play a unit from hand to a battlefield you control, reducing its cost by [3 Energy].",
            {"op": "play_from_hand", "to": "battlefield", "reduce": 3, "optional": True},
        ),
    ],
)
def test_a_unit_played_from_the_hand(text, expected):
    assert read(text, "Spell").definition["effects"] == [expected]


def test_its_controller_draws_after_the_object_chosen():
    reading = read("Kill a gear. Its controller draws 2.", "Spell")
    assert reading.definition["effects"][1] == {"op": "controller_draws", "of": "target", "n": 2}
    assert read("Its controller draws 2.", "Spell").status == "unread"  # no object named before


# -- mutants of the readings, each killed by a read-card dispute of this family ----------------------------------


def _kind_read_as_any_card(monkeypatch):
    taking = deck._taking
    monkeypatch.setattr(deck, "_taking", lambda ctx, take: taking(ctx, {**take, "card": "card"}))


def _played_unit_reduction_dropped(monkeypatch):
    taking = deck._taking
    monkeypatch.setattr(
        deck, "_taking", lambda ctx, take: taking(ctx, {k: v for k, v in take.items() if k != "reduce"})
    )


def _rest_left_on_top(monkeypatch):
    rest = deck._rest

    def mutant(ctx, where, otherwise):
        looking = rest(ctx, where, otherwise)
        if looking is not None:
            looking.pop("rest")
        return looking

    monkeypatch.setattr(deck, "_rest", mutant)


def _trash_read_as_recycle(monkeypatch):
    rest = deck._rest
    monkeypatch.setattr(deck, "_rest", lambda ctx, where, otherwise: rest(ctx, "recycle", otherwise))


def _otherwise_more_dropped(monkeypatch):
    monkeypatch.setattr(deck, "instructions", lambda clause, ctx, used: [])


def _trash_read_as_the_board(monkeypatch):
    def on_the_board(m, ctx):
        found = deck._return_from_trash(m, ctx)
        for spec in ctx.targets.values():
            spec.pop("zone", None)
        return found

    templates = [(f, p, on_the_board if b is deck._return_from_trash else b) for f, p, b in effects.TEMPLATES]
    monkeypatch.setattr(effects, "TEMPLATES", templates)


def _recycle_cost_one_fewer(monkeypatch):
    ability_cost = abilities.ability_cost

    def mutant(text):
        cost = ability_cost(text)
        if cost and cost.get("recycle_from_trash"):
            cost["recycle_from_trash"] -= 1
        return cost

    monkeypatch.setattr(abilities, "ability_cost", mutant)


def _recycled_kind_dropped(monkeypatch):
    ability_cost = abilities.ability_cost

    def mutant(text):
        cost = ability_cost(text)
        if cost:
            cost.pop("recycle_kind", None)
            cost.pop("discard_kind", None)
        return cost

    monkeypatch.setattr(abilities, "ability_cost", mutant)


def _card_put_back_dropped(monkeypatch):
    templates = [(f, p, (lambda m, ctx: []) if b is deck._hand_to_deck else b) for f, p, b in effects.TEMPLATES]
    monkeypatch.setattr(effects, "TEMPLATES", templates)


def _each_card_read_for_one_or_more(monkeypatch):
    events = {"discard_cards": "discard", "recycle_cards": "discard"}  # each card's own discard; never a recycle
    triggers = [
        (f, p, (lambda m, b=b: [{**e, "event": events.get(e["event"], e["event"])} for e in b(m)]))
        for f, p, b in abilities.TRIGGERS
    ]
    monkeypatch.setattr(abilities, "TRIGGERS", triggers)


def _trashes_read_as_your_trash(monkeypatch):
    def yours(m, ctx):
        return [{**i, "from": "your"} for i in deck._recycle_from_trash(m, ctx)]

    templates = [(f, p, yours if b is deck._recycle_from_trash else b) for f, p, b in effects.TEMPLATES]
    monkeypatch.setattr(effects, "TEMPLATES", templates)


def _order_chosen_ignored(monkeypatch):
    in_any_order = deck._in_any_order

    def kept_as_they_were(m, ctx):
        looking = ctx.looking
        found = in_any_order(m, ctx)
        if found is not None and looking is not None:
            looking.pop("reorder")
        return found

    templates = [(f, p, kept_as_they_were if b is deck._in_any_order else b) for f, p, b in effects.TEMPLATES]
    monkeypatch.setattr(effects, "TEMPLATES", templates)


def _hand_size_read_one_higher(monkeypatch):
    def one_higher(m, ctx):
        found = deck._if_hand_size(m, ctx)
        for i in found or []:
            n = int(i["condition"].split()[0])
            i["condition"] = f"{n + 1} or fewer cards in hand"
        return found

    templates = [(f, p, one_higher if b is deck._if_hand_size else b) for f, p, b in effects.TEMPLATES]
    monkeypatch.setattr(effects, "TEMPLATES", templates)


def _hand_play_cost_unchanged(monkeypatch):
    def full_cost(m, ctx):
        return [{k: v for k, v in i.items() if k not in ("ignoring", "reduce")} for i in deck._play_from_hand(m, ctx)]

    templates = [(f, p, full_cost if b is deck._play_from_hand else b) for f, p, b in effects.TEMPLATES]
    monkeypatch.setattr(effects, "TEMPLATES", templates)


def _its_controller_read_as_you(monkeypatch):
    def you_draw(m, ctx):
        found = deck._controller_draws(m, ctx)
        return None if found is None else [{"op": "draw", "n": i["n"]} for i in found]

    templates = [(f, p, you_draw if b is deck._controller_draws else b) for f, p, b in effects.TEMPLATES]
    monkeypatch.setattr(effects, "TEMPLATES", templates)


def _placed_read_as_returned(monkeypatch):
    def to_hand(m, ctx):
        found = deck._owner_puts_on_deck(m, ctx)
        return None if found is None else [{"op": "return_to_hand", "what": i["what"]} for i in found]

    templates = [(f, p, to_hand if b is deck._owner_puts_on_deck else b) for f, p, b in effects.TEMPLATES]
    monkeypatch.setattr(effects, "TEMPLATES", templates)


def _predict_and_burn_read_as_one(monkeypatch):
    def one(build):
        return lambda m, ctx: [{**i, "n": 1} for i in build(m, ctx)]

    wrapped = {deck._predict, deck._burn}
    templates = [(f, p, one(b) if b in wrapped else b) for f, p, b in effects.TEMPLATES]
    monkeypatch.setattr(effects, "TEMPLATES", templates)


def _enter_ready_condition_read_as_always(monkeypatch):
    def always(text, card, used, around):
        found = read_entering(text, card, used, around)
        for replacement in card.get("replacements", []):  # "if <condition>, I enter ready" read as always
            replacement.pop("condition", None)
        return found

    swap_reader(monkeypatch, read_entering, always)


def _discard_condition_dropped(monkeypatch):
    read_static = abilities.read_static

    def always(text, card, used):
        found = read_static(text, card, used)
        for passive in card.get("passives", []):
            if passive.get("condition") == "discarded this turn":
                del passive["condition"]
        return found

    for module in (abilities, paragraph):  # read_paragraph (paragraph.py) calls it too
        monkeypatch.setattr(module, "read_static", always)


def _nth_draw_read_one_later(monkeypatch):
    triggers = [
        (f, p, (lambda m, b=b: [{**e, "nth": e["nth"] + 1} if e["event"] == "draw" else e for e in b(m)]))
        for f, p, b in abilities.TRIGGERS
    ]
    monkeypatch.setattr(abilities, "TRIGGERS", triggers)


MUTANTS = {
    "the kind taken read as any card": _kind_read_as_any_card,
    "the rest left on top": _rest_left_on_top,
    "the reduction of a unit played from among them dropped": _played_unit_reduction_dropped,
    "the rest trashed read as recycled": _trash_read_as_recycle,
    "what otherwise does dropped": _otherwise_more_dropped,
    "a card in the trash read as one on the board": _trash_read_as_the_board,
    "the recycle cost read one fewer": _recycle_cost_one_fewer,
    "the kind a recycle or discard cost takes dropped": _recycled_kind_dropped,
    "the card put back from the hand dropped": _card_put_back_dropped,
    "one or more cards read as each card (and a recycle as a discard)": _each_card_read_for_one_or_more,
    "from trashes read as from your trash": _trashes_read_as_your_trash,
    "the order chosen for the cards kept ignored": _order_chosen_ignored,
    "the hand size read one higher": _hand_size_read_one_higher,
    "the cost a unit played from hand ignores or is reduced by dropped": _hand_play_cost_unchanged,
    "its controller draws read as you draw": _its_controller_read_as_you,
    "placed on the Main Deck read as returned to hand": _placed_read_as_returned,
    "[Predict N] and [Burn N] read as 1": _predict_and_burn_read_as_one,
    "if the hand is small, I enter ready, read as always": _enter_ready_condition_read_as_always,
    "if you've discarded a card this turn dropped": _discard_condition_dropped,
    "the Nth card drawn read one later": _nth_draw_read_one_later,
}


def test_the_family_has_its_disputes(real_db):
    assert len(DISPUTES) >= 19
    assert set(verdicts_with(read_every_card(real_db), DISPUTES)) == {"match"}


@pytest.mark.parametrize("mutant", sorted(MUTANTS))
def test_the_disputes_kill_a_mutant_of_each_reading(mutant, real_db, monkeypatch):
    MUTANTS[mutant](monkeypatch)
    verdicts = verdicts_with(read_every_card(real_db), DISPUTES)
    assert "mismatch" in verdicts, f"the mutant {mutant!r} survives every dispute of the family"
