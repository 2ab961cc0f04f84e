"""Cards an effect plays from a trash (419.3): "pay [1][C] to play me from your trash" (a trigger active in the trash,
385.2, 383.2.c.1; the card played for that cost in place of its own, 356.1.a), "play a unit from your trash" paying
its cost (357.1). Read-card disputes 680-699 judge them with the real read cards, and mutants of the readings are
killed by those disputes."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from read_cards import read_every_card, read_every_card_changed, verdicts_with

from scenarios.card_reader import CardText, read_card
from scenarios.cards import Card

MINE = sorted(
    p
    for p in (Path(__file__).parent / "data" / "read_card_disputes").glob("read-6*.yaml")
    if 680 <= int(p.name.split("-")[1]) <= 699
)


def _read(text: str, kind: str = "Unit", tags: tuple[str, ...] = ()) -> dict:
    reading = read_card(CardText("Some Card", kind, text, energy=3, power=1, might=3 if kind == "Unit" else None))
    assert reading.status == "read", reading.unread
    Card.model_validate(reading.definition)
    return reading.definition


def test_pay_to_play_me_from_your_trash_is_a_trigger_active_in_the_trash():
    (trigger,) = _read(
        "When you kill a unit with a spell, you may pay [1 Energy][Fury rune] to play me from your trash."
    )["triggers"]
    assert trigger["active_in"] == "trash"
    assert trigger["optional"] is True
    assert "cost" not in trigger  # paid as the card is played, in place of its cost (356.1.a), not as the trigger's
    assert trigger["effects"] == [
        {"op": "play_from", "what": "this", "for": {"energy": 1, "domain_power": {"Fury": 1}}}
    ]


def test_a_spell_is_not_played_from_the_trash_by_this_reading():
    reading = read_card(
        CardText("Some Spell", "Spell", "When you kill a unit, you may pay [1 Energy] to play me from your trash.")
    )
    assert reading.status != "read"


@pytest.mark.parametrize(
    ("text", "ignoring"),
    [
        ("When I conquer, you may play a unit from your trash.", None),
        ("When I conquer, play a unit from your trash, ignoring its cost.", "cost"),
        ("When I conquer, play a unit from your trash, ignoring its Energy cost.", "energy"),
    ],
)
def test_a_unit_from_your_trash_is_paid_for_unless_a_cost_is_ignored(text, ignoring):
    (trigger,) = _read(text)["triggers"]
    (play,) = trigger["effects"]
    assert play["op"] == "play_from"
    assert play.get("ignoring") == ignoring
    assert trigger["targets"][play["what"]] == {"type": "unit", "zone": "trash"}
    assert "active_in" not in trigger  # another unit from the trash: the ability is active on the board


def test_a_unit_chosen_in_your_trash_then_played():
    (trigger,) = _read(
        "When I conquer, you may choose a unit in your trash with Energy cost no more than [3 Energy] and Power cost "
        "no more than [Any rune]. Play it to your base, ignoring its cost."
    )["triggers"]
    assert trigger["targets"] == {"target": {"type": "unit", "zone": "trash", "max_cost": 3, "max_power": 1}}
    assert trigger["effects"] == [{"op": "play_from", "what": "target", "ignoring": "cost", "to": "base"}]


def test_their_trash_is_the_chosen_players():
    (trigger,) = _read(
        "When I conquer, choose an opponent. They [Burn 3]. Then you may do this: Choose a unit in their trash and "
        "play it, ignoring its cost."
    )["triggers"]
    reflexive = trigger["effects"][-1]
    assert reflexive["targets"] == {"other": {"type": "unit", "zone": "trash", "zone_of": "target"}}
    assert reflexive["effects"] == [{"op": "play_from", "what": "other", "ignoring": "cost"}]


@pytest.mark.parametrize(
    "text",
    [
        "When I conquer, choose a unit in their trash and play it, ignoring its cost.",  # no player chosen
        "When I conquer, choose a unit in your trash.",  # chosen for nothing
        "When I conquer, play it to your base, ignoring its cost.",  # nothing chosen before
    ],
)
def test_half_of_choose_then_play_is_not_read(text):
    reading = read_card(CardText("Some Card", "Unit", text, might=3))
    assert reading.status != "read"


@pytest.mark.parametrize(
    ("text", "condition"),
    [
        ("[Legion][>] You may play me from your trash for [3 Energy][Fury rune].", "legion"),
        ("You may play me from your trash for [2 Energy].", None),
    ],
)
def test_play_me_from_your_trash_for_a_cost_is_a_passive_of_the_card(text, condition):
    definition = _read(text)
    assert definition["trash_play"] == icons(text)
    assert definition.get("trash_play_condition") == condition


def icons(text: str) -> dict:
    from scenarios.card_reader.phrases import icons_cost

    return icons_cost(text.lower().rsplit(" for ", 1)[1].rstrip("."))


def test_a_spell_from_your_trash_then_recycled():
    (trigger,) = _read(
        "When you play me, you may play a spell from your trash with Energy cost no more than [3 Energy], ignoring "
        "its Energy cost. Then recycle it. (You must still pay its Power cost.)"
    )["triggers"]
    assert trigger["targets"] == {"target": {"type": "spell", "zone": "trash", "max_cost": 3}}
    assert trigger["effects"] == [{"op": "play_from", "what": "target", "ignoring": "energy", "then": "recycle"}]


def test_a_spell_cheaper_than_your_points_is_counted_as_chosen():
    (trigger,) = _read(
        "When I conquer, you may play a spell from your trash with Energy cost less than your points without paying "
        "its Energy cost. Then recycle it. (You must still pay its Power cost.)"
    )["triggers"]
    assert trigger["targets"]["target"] == {"type": "spell", "zone": "trash", "cost_below": {"points": "you"}}
    assert trigger["effects"][0]["ignoring"] == "energy"


def test_banish_one_then_play_it():
    definition = _read(
        "Reveal the top 2 cards of your Main Deck. You may banish one, then play it, reducing its cost by "
        "[2 Energy]. Draw any you didn't banish.",
        kind="Spell",
    )
    assert definition["effects"] == [
        {
            "op": "look_at_deck",
            "n": 2,
            "reveal": True,
            "take": {"card": "card", "may": True, "verb": "play", "reduce": 2},
            "rest": "draw",
        }
    ]
    (trigger,) = _read(
        "When I attack, you may reveal the top 2 cards of your Main Deck. You may banish one, then play it. If it "
        "is a unit, you may play it here. Recycle the rest."
    )["triggers"]
    assert trigger["effects"][0]["take"] == {"card": "card", "may": True, "verb": "play", "here": True}


def test_the_killed_unit_is_the_first_sentences_kill():
    (ability,) = _read(
        "[1 Energy][Order rune], [Exhaust]: Kill a friendly unit. Look at the top 5 cards of your Main Deck. You may "
        "banish a unit from among them that has Might up to 1 more than the killed unit and play it, ignoring its "
        "cost. Then recycle the rest.",
        kind="Gear",
    )["activated"]
    kill, look = ability["effects"]
    assert kill == {"op": "kill", "what": "unit"}
    assert look["take"]["more_than_killed"] == 1 and look["take"]["ignoring"] == "cost"


def test_the_killed_unit_without_a_kill_before_is_not_read():
    reading = read_card(
        CardText(
            "Some Gear",
            "Gear",
            "[Exhaust]: Look at the top 5 cards of your Main Deck. You may banish a unit from among them that has "
            "Might up to 1 more than the killed unit and play it, ignoring its cost. Then recycle the rest.",
        )
    )
    assert reading.status != "read"


def test_a_card_with_hidden_from_your_hand():
    (trigger,) = _read(
        "When I attack, you may pay [Mind rune] to play a card with [Hidden] from your hand, ignoring its cost. If "
        "it's a unit, play it here."
    )["triggers"]
    assert trigger["cost"] == {"domain_power": {"Mind": 1}}
    assert trigger["effects"] == [
        {"op": "play_from_hand", "card": "card", "keyword": "Hidden", "ignoring": "cost", "unit_to": "here"}
    ]


def test_a_unit_or_gear_played_then_named_by_a_reflexive_trigger():
    look, reflexive = _read(
        "Look at the top 5 cards of your Main Deck. You may banish a unit or gear from among them and play it, "
        "reducing its Energy cost by [5 Energy]. Recycle the rest. Then you may do this: Empower it.",
        kind="Spell",
    )["effects"]
    assert look["take"] == {"card": "permanent", "may": True, "verb": "play", "reduce": 5, "as": "played"}
    assert reflexive["effects"] == [{"op": "empower", "what": "played"}] and reflexive["keep"] == ["played"]


def test_a_unit_no_costlier_than_the_killed_unit():
    definition = _read(
        "As an additional cost to play this, kill a friendly unit.\nPlay a unit from your trash that costs no more "
        "Energy and no more Power than the killed unit, ignoring its cost.",
        kind="Spell",
    )
    assert definition["additional_cost"]["kill"] == "friendly unit"
    assert definition["effects"] == [
        {"op": "play_from", "what": "target", "ignoring": "cost", "no_more_than": "killed"}
    ]
    assert definition["targets"] == {"target": {"type": "unit", "zone": "trash"}}


def test_a_spell_plays_itself_from_the_trash_if_the_killed_unit_was_small():
    kill, reflexive = _read(
        "Kill a unit at a battlefield. Then, if it had 3 [Might] or less, do this: You may play this from your trash "
        "for [Any rune].",
        kind="Spell",
    )["effects"]
    assert kill == {"op": "kill", "what": "target"}
    assert reflexive["had_might_at_most"] == {"of": "target", "n": 3} and reflexive["optional"] is True
    assert reflexive["effects"] == [{"op": "play_from", "what": "this", "for": {"power": 1}}]


def test_if_it_had_after_anything_but_its_kill_is_not_read():
    reading = read_card(
        CardText("Some Spell", "Spell", "Stun a unit. Then, if it had 3 [Might] or less, do this: Draw 1.")
    )
    assert reading.status != "read"


def test_then_recycle_it_after_a_unit_played_is_not_this_reading():
    reading = read_card(
        CardText(
            "Some Card", "Unit", "When I conquer, play a unit from your trash, ignoring its cost. Then recycle it."
        )
    )
    assert reading.status != "read" or all(
        "then" not in e for t in reading.definition.get("triggers", []) for e in t["effects"]
    )


# -- the disputes and the mutants they kill ----------------------------------------------------------------------


def _verdicts(definitions) -> list[str]:
    for path in MINE:
        assert str(yaml.safe_load(path.read_text())["rules"]["core"]) >= "2026-06-18"  # judged under Core Rules 1.4
    return verdicts_with(definitions, MINE)


def _plays_itself(mapping: dict) -> bool:
    return any(e.get("op") == "play_from" and e.get("what") == "this" for e in mapping.get("effects", []))


def test_my_disputes_are_judged_under_core_rules_1_4_and_match(real_db):
    assert MINE
    assert set(_verdicts(read_every_card(real_db))) == {"match"}


def test_my_disputes_kill_the_trigger_active_on_the_board(real_db):
    """The mutant: "play me from your trash" read as an ability of the card on the board."""

    def on_board(mapping: dict) -> None:
        if _plays_itself(mapping):
            mapping.pop("active_in", None)

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, on_board))


def test_my_disputes_kill_the_cost_ignored(real_db):
    """The mutant: "pay [1][C] to play me" read as playing it ignoring its cost, nothing paid."""

    def free(mapping: dict) -> None:
        if mapping.get("op") == "play_from" and "for" in mapping:
            del mapping["for"]
            mapping["ignoring"] = "cost"

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, free))


def test_my_disputes_kill_a_dying_card_blind_to_its_own_kill(real_db, monkeypatch):
    """The engine mutant: a card dying to the trash does not see the kill from there (383.2.c.1)."""
    from scenarios.rules import triggers

    monkeypatch.setattr(triggers, "_to_the_trash", lambda source, event, leaving: False)
    assert "mismatch" in _verdicts(read_every_card(real_db))


def test_my_disputes_kill_the_cost_limit_dropped(real_db):
    """The mutant: "a unit in your trash with Energy cost no more than [3]" read without its limit."""

    def any_cost(mapping: dict) -> None:
        if mapping.get("zone") == "trash":
            mapping.pop("max_cost", None)

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, any_cost))


def test_my_disputes_kill_the_ignored_cost_paid(real_db):
    """The mutant: "play it, ignoring its cost" read as paying its cost."""

    def paid(mapping: dict) -> None:
        if mapping.get("op") == "play_from" and mapping.get("ignoring") == "cost":
            del mapping["ignoring"]

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, paid))


def test_my_disputes_kill_their_trash_read_as_yours(real_db):
    def yours(mapping: dict) -> None:
        mapping.pop("zone_of", None)

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, yours))


def test_my_disputes_kill_the_legion_condition_dropped(real_db):
    def always(mapping: dict) -> None:
        mapping.pop("trash_play_condition", None)

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, always))


def test_my_disputes_kill_the_trash_play_at_its_printed_cost(real_db):
    def printed(mapping: dict) -> None:
        if "trash_play" in mapping:
            mapping["trash_play"] = {"energy": mapping.get("energy", 0)}

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, printed))


def test_my_disputes_kill_then_recycle_it_dropped(real_db):
    def to_trash(mapping: dict) -> None:
        if mapping.get("op") == "play_from":
            mapping.pop("then", None)

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, to_trash))


def test_my_disputes_kill_a_spells_power_cost_ignored_too(real_db):
    def free(mapping: dict) -> None:
        if mapping.get("op") == "play_from" and mapping.get("then") == "recycle":
            mapping["ignoring"] = "cost"

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, free))


def test_my_disputes_kill_less_than_your_points_read_as_no_more_than(real_db, monkeypatch):
    """The engine mutant: "less than your points" checked as "no more than" (one more spell may be chosen)."""
    from scenarios.rules import targeting

    real = targeting._counted
    monkeypatch.setattr(targeting, "_counted", lambda game, amount, ctx: real(game, amount, ctx) + 1)
    assert "mismatch" in _verdicts(read_every_card(real_db))


def _take(mapping: dict) -> dict | None:
    take = mapping.get("take") if mapping.get("op") == "look_at_deck" else None
    return take if isinstance(take, dict) and take.get("card") == "card" and take.get("verb") == "play" else None


def test_my_disputes_kill_the_permission_to_play_it_here_dropped(real_db):
    def nowhere(mapping: dict) -> None:
        if (take := _take(mapping)) is not None:
            take.pop("here", None)

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, nowhere))


def test_my_disputes_kill_the_reduction_dropped(real_db):
    def full(mapping: dict) -> None:
        if (take := _take(mapping)) is not None:
            take.pop("reduce", None)

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, full))


def test_my_disputes_kill_drawing_the_rest_read_as_recycling(real_db):
    def recycled(mapping: dict) -> None:
        if _take(mapping) is not None and mapping.get("rest") == "draw":
            mapping["rest"] = "recycle"

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, recycled))


def test_my_disputes_kill_an_engine_that_plays_no_spell_revealed(real_db, monkeypatch):
    from scenarios.kernel import QUERIES
    from scenarios.objects import Kind

    real = QUERIES["effect_playable"]

    def no_spell(game, run, card, how) -> bool:
        return card.kind != Kind.SPELL and real(game, run, card, how)

    monkeypatch.setitem(QUERIES, "effect_playable", no_spell)
    assert "mismatch" in _verdicts(read_every_card(real_db))


@pytest.mark.parametrize("change", [None, 1])
def test_my_disputes_kill_the_killed_units_might_misread(real_db, change):
    """Mutants: no limit at all; one more than printed."""

    def misread(mapping: dict) -> None:
        take = mapping.get("take")
        if isinstance(take, dict) and "more_than_killed" in take:
            if change is None:
                del take["more_than_killed"]
            else:
                take["more_than_killed"] += change

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, misread))


def test_my_disputes_kill_a_unit_played_anywhere_but_here(real_db):
    def anywhere(mapping: dict) -> None:
        mapping.pop("unit_to", None)

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, anywhere))


def test_my_disputes_kill_a_card_of_the_hand_without_the_keyword(real_db):
    def any_card(mapping: dict) -> None:
        if mapping.get("op") == "play_from_hand" and "keyword" in mapping:
            mapping["keyword"] = "Action"

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, any_card))


def test_my_disputes_kill_the_played_card_unnamed(real_db):
    def unnamed(mapping: dict) -> None:
        take = mapping.get("take")
        if isinstance(take, dict) and take.get("as") == "played":
            del take["as"]

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, unnamed))


def test_my_disputes_kill_a_unit_or_gear_read_as_a_unit(real_db):
    def units(mapping: dict) -> None:
        take = mapping.get("take")
        if isinstance(take, dict) and take.get("card") == "permanent":
            take["card"] = "unit"

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, units))


def test_my_disputes_kill_the_killed_units_costs_not_compared(real_db):
    def any_unit(mapping: dict) -> None:
        mapping.pop("no_more_than", None)

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, any_unit))


@pytest.mark.parametrize("change", [None, -1])
def test_my_disputes_kill_the_had_might_condition_misread(real_db, change):
    def misread(mapping: dict) -> None:
        had = mapping.get("had_might_at_most")
        if had is not None:
            if change is None:
                del mapping["had_might_at_most"]
            else:
                had["n"] += change

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, misread))
