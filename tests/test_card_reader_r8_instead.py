"""Replacement effects said with "instead" or "would" (Core Rules 1.4, 367-375): "If it would die this turn, banish it
instead", "If it's already stunned, return it to its owner's hand instead", "If you paid my additional cost, you
don't kill a unit this way", and the others of this family. Read-card disputes 660-679 judge them with the real read
cards, and mutants of the readings are killed by those disputes."""

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
    if 660 <= int(p.name.split("-")[1]) <= 679
)


def _effects(text: str, kind: str = "Spell", **extra) -> list[dict]:
    reading = read_card(CardText("Some Card", kind, text, might=3 if kind == "Unit" else None, **extra))
    assert reading.status == "read", reading.unread
    Card.model_validate(reading.definition)
    return reading.definition["effects"]


def test_if_it_would_die_this_turn_lasts_the_turn():
    """ "If it would die this turn": each time it would (370.1); "the next time": once (390.3)."""
    (_, lasting) = _effects("Deal 3 to a unit at a battlefield. If it would die this turn, banish it instead.")
    assert lasting == {
        "op": "replace_next",
        "would": "die",
        "it": "target",
        "instead": [{"op": "banish", "what": "affected"}],
        "once": False,
    }
    (next_time,) = _effects(
        "Choose a friendly unit. The next time it would die this turn, heal it, exhaust it, and recall it instead."
    )
    assert next_time.get("once", True) is True


def test_already_stunned_is_checked_before_the_stun():
    (effect,) = _effects(
        "[Stun] an attacking enemy unit. If it's already stunned, return it to its owner's hand instead."
    )
    assert effect["op"] == "if_it" and effect["state"] == "stunned"
    assert effect["else"] == [{"op": "stun", "what": "target"}]
    assert effect["then"] == [{"op": "return_to_hand", "what": "target"}]


# -- the disputes and the mutants they kill ----------------------------------------------------------------------


def _verdicts(definitions) -> list[str]:
    for path in MINE:
        assert str(yaml.safe_load(path.read_text())["rules"]["core"]) >= "2026-06-18"  # judged under Core Rules 1.4
    return verdicts_with(definitions, MINE)


def test_my_disputes_are_judged_under_core_rules_1_4_and_match(real_db):
    assert MINE
    assert set(_verdicts(read_every_card(real_db))) == {"match"}


MUTANTS = {
    # "If it would die this turn, banish it instead" read as nothing: the unit dies
    "the death not replaced": lambda m: (
        m.update(instead=[{"op": "kill", "what": "affected"}])
        if m.get("op") == "replace_next" and m.get("once") is False
        else None
    ),
    # "If it's already stunned": the two branches swapped
    "already stunned swapped": lambda m: (
        m.update(then=m["else"], **{"else": m["then"]})
        if m.get("op") == "if_it" and m.get("state") == "stunned"
        else None
    ),
    # "return it to its owner's hand instead of putting it in their trash" dropped: a plain counter
    "countered to the trash": lambda m: m.pop("to", None) if m.get("op") == "counter" else None,
    # "you don't kill a unit this way" dropped: each player kills, paid or not
    "you kill too": lambda m: m.update(players="each") if m.get("players") == "others" else None,
    # the payment ignored: the other players only, always
    "paid ignored": lambda m: (
        m.update(**{"else": m["then"]})
        if m.get("op") == "if" and m.get("condition") == "additional cost paid" and "else" in m
        else None
    ),
}


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_my_disputes_kill_the_mutant(real_db, name):
    assert "mismatch" in _verdicts(read_every_card_changed(real_db, MUTANTS[name]))


def _replacement(mapping: dict) -> bool:
    return mapping.get("would") == "die" and "instead" in mapping


PAYING_MUTANTS = {
    # "you may pay ... to": applied always, unasked and unpaid
    "may pay read as must": lambda m: [m.pop(k, None) for k in ("may", "cost")] if _replacement(m) else None,
    # the cost not paid: asked, but offered when it can't be paid and paid by nothing
    "cost dropped": lambda m: m.pop("cost", None) if _replacement(m) and "may" in m else None,
    # "its controller may": read as the replacement's controller (the battlefield's)
    "its controller read as you": lambda m: m.update(may="you") if m.get("may") == "its controller" else None,
    # "during combat" dropped
    "any time": lambda m: m.pop("condition", None) if m.get("condition") == "during combat" else None,
    # "a buffed unit": any friendly unit
    "unbuffed too": lambda m: m.pop("buffed", None) if m.get("who") == "friendly unit" else None,
    # "and spend its buff" dropped
    "buff kept": lambda m: (
        m.update(instead=[i for i in m["instead"] if i.get("op") != "spend_buff"]) if _replacement(m) else None
    ),
}


def test_a_payment_inside_a_replacement_is_its_players_choice():
    reading = read_card(
        CardText(
            "Some Gear",
            "Gear",
            "If a friendly unit would die, you may pay [Any rune][Any rune], exhaust me to heal it, exhaust it, and "
            "recall it instead.",
        )
    )
    assert reading.status == "read", reading.unread
    (replacement,) = Card.model_validate(reading.definition).replacements
    assert replacement.may == "you" and replacement.cost is not None
    assert (replacement.cost.power, replacement.cost.exhaust) == (2, "this")


@pytest.mark.parametrize("name", sorted(PAYING_MUTANTS))
def test_my_disputes_kill_the_paying_mutant(real_db, name):
    assert "mismatch" in _verdicts(read_every_card_changed(real_db, PAYING_MUTANTS[name]))


def test_double_and_prevent_modify_the_damage_event():
    (double,) = _effects("Choose a unit. Double all damage that would be dealt to it this turn.")
    assert (double["op"], double["would"], double["modify"], double["once"]) == (
        "replace_next",
        "takes_damage",
        "double",
        False,
    )
    (prevent,) = _effects("Choose a unit. Prevent the next 7 damage that would be dealt to it this turn.")
    assert (prevent["modify"], prevent["prevent"]) == ("prevent", 7)


DAMAGE_MUTANTS = {
    # "double all damage": read as nothing done to it
    "double dropped": lambda m: (
        m.update(instead=[{"op": "heal", "what": "affected"}], modify=None) if m.get("modify") == "double" else None
    ),
    # "prevent the next 7 damage": read as all of it, every time
    "prevent read as all": lambda m: m.pop("modify", None) if m.get("modify") == "prevent" else None,
    # the Prevent Value read wrong
    "prevent 6": lambda m: m.update(prevent=6) if m.get("modify") == "prevent" else None,
}


@pytest.mark.parametrize("name", sorted(DAMAGE_MUTANTS))
def test_my_disputes_kill_the_damage_mutant(real_db, name):
    assert "mismatch" in _verdicts(read_every_card_changed(real_db, DAMAGE_MUTANTS[name]))


def test_my_disputes_kill_an_assignment_blind_to_modified_damage(real_db, monkeypatch):
    """The engine mutant: combat damage assigned with lethal as Might less damage, the doubling or Prevent
    ignored (against 465.2.c.4.a, 465.2.c.5, 437.5.a)."""
    from scenarios.rules import combat

    monkeypatch.setattr(combat, "_modified_lethal", lambda game, units, total: {})
    assert "mismatch" in _verdicts(read_every_card(real_db))


def test_my_disputes_kill_a_prevent_value_never_tracked_down(real_db, monkeypatch):
    """The engine mutant: the Prevent Value is not reduced by what it prevented (against 437.3)."""
    from scenarios.rules import replacement

    monkeypatch.setattr(replacement, "modify_event", lambda *a, **k: None)
    monkeypatch.setattr(replacement.do, "modify_event", lambda *a, **k: None, raising=False)
    assert "mismatch" in _verdicts(read_every_card(real_db))


def _token_copy(mapping: dict) -> bool:
    return mapping.get("would") == "play_token_unit"


TOKEN_MUTANTS = {
    "once each turn dropped": lambda m: m.pop("limit", None) if _token_copy(m) else None,
    "may read as must": lambda m: m.pop("may", None) if _token_copy(m) else None,
    "anywhere": lambda m: m.pop("condition", None) if _token_copy(m) else None,
}


@pytest.mark.parametrize("name", sorted(TOKEN_MUTANTS))
def test_my_disputes_kill_the_token_mutant(real_db, name):
    assert "mismatch" in _verdicts(read_every_card_changed(real_db, TOKEN_MUTANTS[name]))


def test_my_disputes_kill_a_declined_use_counted(real_db, monkeypatch):
    """The engine mutant: a use "once each turn" counted when its player declines it (against 371.2.b)."""
    from scenarios.rules import replacement

    real = replacement._accepted

    def counted(game, event, source, r, lasting):
        replacement._applied(game, source, r, lasting)
        return real(game, event, source, r, lasting)

    monkeypatch.setattr(replacement, "_accepted", counted)
    assert "mismatch" in _verdicts(read_every_card(real_db))


def _score_point(mapping: dict) -> bool:
    return mapping.get("would") == "score_point"


SCORE_MUTANTS = {
    "any turn": lambda m: m["to"].pop("own_turn_at_most", None) if _score_point(m) else None,
    # "they draw 1": drawn by Otterpus's controller rather than the player acted on
    "its controller draws": lambda m: m.update(instead=m["instead"][0]["effects"]) if _score_point(m) else None,
}


@pytest.mark.parametrize("name", sorted(SCORE_MUTANTS))
def test_my_disputes_kill_the_score_mutant(real_db, name):
    assert "mismatch" in _verdicts(read_every_card_changed(real_db, SCORE_MUTANTS[name]))


def test_my_disputes_kill_turns_never_counted(real_db, monkeypatch):
    """The engine mutant: a player's turns are not counted as they begin (so "their first or second turn" is
    wrong after the first round)."""
    from scenarios.objects import Player

    monkeypatch.setattr(Player, "turns_taken", property(lambda self: 1, lambda self, value: None))
    assert "mismatch" in _verdicts(read_every_card(real_db))


def _chooses_me(mapping: dict) -> bool:
    return mapping.get("source") == "spell or ability that chooses it"


CHOOSES_MUTANTS = {
    "any spell or ability": lambda m: m.update(source="spell or ability") if _chooses_me(m) else None,
    "not only while Empowered": lambda m: m.pop("condition", None) if _chooses_me(m) else None,
    "return to hand not replaced": lambda m: (
        m.update(would="draw") if _chooses_me(m) and m["would"] == "return_to_hand" else None
    ),
    "-might not replaced": lambda m: m.update(would="draw") if _chooses_me(m) and m["would"] == "lose_might" else None,
}


@pytest.mark.parametrize("name", sorted(CHOOSES_MUTANTS))
def test_my_disputes_kill_the_chooses_me_mutant(real_db, name):
    assert "mismatch" in _verdicts(read_every_card_changed(real_db, CHOOSES_MUTANTS[name]))


def test_a_conditional_replacement_under_empowered_is_read():
    reading = read_card(
        CardText(
            "Some Unit",
            "Unit",
            "[Empowered][>] If a spell or ability that chooses me would stun me, give me +1 [Might] this turn instead.",
            might=3,
        )
    )
    assert reading.status == "read", reading.unread
    (replacement,) = Card.model_validate(reading.definition).replacements
    assert (replacement.would, replacement.condition, replacement.source) == (
        "stun",
        "empowered",
        "spell or ability that chooses it",
    )
