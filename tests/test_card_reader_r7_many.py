"""Any number of targets read from card text (scenarios/card_reader/several.py, 355.11, 355.13): ONE target slot
holding a group of different objects, zero or more, whose group requirements (total Might, one battlefield) hold for
the group as chosen and are re-checked as it resolves. Read-card disputes 620-639 judge them with the real read
cards, and mutants of the reading are killed by those disputes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from read_cards import read_every_card, read_every_card_changed, verdicts_with

from scenarios.card_reader import CardText, read_card
from scenarios.cards import Card

MINE = sorted(
    p
    for p in (Path(__file__).parent / "data" / "read_card_disputes").glob("read-6[23]*.yaml")
    if 620 <= int(p.name.split("-")[1]) <= 639
)


def read(text: str, kind: str = "Spell", **numbers):
    return read_card(CardText("Some Card", kind, text, **numbers))


@pytest.mark.parametrize(
    ("text", "effect", "spec"),
    [
        (
            "Kill any number of units at a battlefield with total Might 4 or less.",
            {"op": "kill", "what": "target"},
            {"type": "unit", "where": "battlefield", "any_number": True, "together": True, "total_might": 4},
        ),
        (
            "Return any number of enemy Order ([Order rune]) units with total Might 5 or less to their owners' hands.",
            {"op": "return_to_hand", "what": "target"},
            {"type": "unit", "side": "enemy", "domain": "Order", "any_number": True, "total_might": 5},
        ),
        (
            "Move any number of friendly units at a battlefield to their base.",
            {"op": "move", "what": "target", "to": "base"},
            {"type": "unit", "side": "friendly", "where": "battlefield", "any_number": True, "together": True},
        ),
    ],
)
def test_any_number_reads_as_one_group_slot(text, effect, spec):
    reading = read(text, energy=2)
    assert reading.status == "read", reading.unread
    Card.model_validate(reading.definition)
    assert reading.definition["effects"] == [effect]
    assert reading.definition["targets"] == {"target": spec}


def test_up_to_n_units_gear_and_or_runes_reads_as_one_bounded_group():
    reading = read("Ready up to 4 units, gear, and/or runes.", energy=2)
    assert reading.status == "read", reading.unread
    Card.model_validate(reading.definition)
    assert reading.definition["effects"] == [{"op": "ready", "what": "target"}]
    assert reading.definition["targets"]["target"] == {
        "type": "permanent",
        "or_rune": True,
        "any_number": True,
        "max_count": 4,
    }


def test_a_group_to_a_single_location_reads_one_destination_of_the_group():
    text = (
        "Move any number of enemy units with the same controller and a total Might of 8 or less to a single location."
    )
    reading = read(text, energy=2)
    assert reading.status == "read", reading.unread
    Card.model_validate(reading.definition)
    assert reading.definition["effects"] == [{"op": "move", "what": "target", "to": "destination"}]
    assert reading.definition["targets"] == {
        "target": {"type": "unit", "side": "enemy", "any_number": True, "total_might": 8, "same_controller": True},
        "destination": {"type": "location", "of": "target"},
    }


def test_the_same_controller_requirement_holds_for_the_group():
    """Scenarios set up two players, where every enemy unit has one controller: the engine's group check itself."""
    from types import SimpleNamespace

    from scenarios.rules.targeting import group_fulfils
    from scenarios.selectors import TargetSpec

    game = SimpleNamespace(
        objects={
            "b1": SimpleNamespace(controller="B", location="bf1"),
            "b2": SimpleNamespace(controller="B", location="bf2"),
            "c1": SimpleNamespace(controller="C", location="bf1"),
        }
    )
    spec = TargetSpec(any_number=True, same_controller=True)
    assert group_fulfils(game, spec, ["b1", "b2"])
    assert not group_fulfils(game, spec, ["b1", "c1"])
    assert group_fulfils(game, TargetSpec(any_number=True), ["b1", "c1"])
    assert not group_fulfils(game, TargetSpec(any_number=True, together=True), ["b1", "b2"])


def test_any_number_of_token_units_to_this_battlefield_is_a_units_trigger():
    text = "When I attack, you may move any number of your token units to this battlefield."
    reading = read(text, "Unit", might=4, energy=4)
    assert reading.status == "read", reading.unread
    Card.model_validate(reading.definition)
    (trigger,) = reading.definition["triggers"]
    assert trigger["effects"] == [{"op": "move", "what": "target", "to": "here"}]
    assert trigger["targets"]["target"] == {
        "type": "unit",
        "side": "friendly",
        "token": True,
        "any_number": True,
        "where": "not_here",
    }


@pytest.mark.parametrize(
    "text",
    [
        "Move any number of friendly units to their base.",  # a unit in base can't move there (355.4.a): unsaid where
        "Move any number of your token units to this battlefield.",  # a spell has no "this battlefield"
        "Kill any number of units with total Might 4 or less to their base.",
        "Kill any number of gear.",
    ],
)
def test_other_any_number_shapes_stay_unread(text):
    assert read(text, energy=2).status == "unread"


# -- the disputes and the mutants they kill ----------------------------------------------------------------------


def _judged(definitions) -> list[str]:
    for path in MINE:
        assert str(yaml.safe_load(path.read_text())["rules"]["core"]) >= "2026-06-18"  # judged under Core Rules 1.4
    return verdicts_with(definitions, MINE)


def test_my_disputes_are_judged_under_core_rules_1_4_and_match(real_db):
    assert len(MINE) >= 4
    assert set(_judged(read_every_card(real_db))) == {"match"}


@pytest.mark.parametrize(
    ("name", "change"),
    [
        ("a single target", lambda d: d.pop("any_number")),
        ("no total Might", lambda d: d.pop("total_might", None)),
        ("not at one battlefield", lambda d: d.pop("together", None)),
        ("any unit, not a token", lambda d: d.pop("token", None)),
        ("any Domain", lambda d: d.pop("domain", None)),
        ("no rune", lambda d: d.pop("or_rune", None)),
        ("no count bound", lambda d: d.pop("max_count", None)),
        ("total Might one more", lambda d: d.update(total_might=d["total_might"] + 1) if "total_might" in d else None),
    ],
)
def test_my_disputes_kill_a_wrong_group_reading(real_db, name, change):
    def mutate(mapping: dict) -> None:
        if mapping.get("any_number"):
            change(mapping)

    assert "mismatch" in _judged(read_every_card_changed(real_db, mutate)), f"any number: {name} survives"


# -- "ready something else that's exhausted": one object of any kind that can be exhausted (414) ------------------


def test_something_else_thats_exhausted_reads_as_any_other_exhausted_object():
    text = "The first time I move each turn, you may ready something else that's exhausted."
    reading = read(text, "Unit", might=3, energy=3)
    assert reading.status == "read", reading.unread
    Card.model_validate(reading.definition)
    (trigger,) = reading.definition["triggers"]
    assert trigger["effects"] == [{"op": "ready", "what": "target"}]
    assert trigger["targets"]["target"] == {
        "type": "permanent",
        "or_rune": True,
        "or_legend": True,
        "other": True,
        "exhausted": True,
    }
    assert read("Ready something else that's exhausted.", energy=1).status == "unread"  # a spell has no "else"


@pytest.mark.parametrize(
    ("name", "change"),
    [
        ("itself too", lambda d: d.pop("other", None)),
        ("a ready one too", lambda d: d.pop("exhausted", None)),
        ("no rune", lambda d: d.pop("or_rune", None)),
    ],
)
def test_my_disputes_kill_a_wrong_something_else_reading(real_db, name, change):
    def mutate(mapping: dict) -> None:
        if mapping.get("or_legend"):
            change(mapping)

    assert "mismatch" in _judged(read_every_card_changed(real_db, mutate)), f"something else: {name} survives"


def test_listing_the_actions_of_a_large_board_stops_at_the_replay_budget(real_db, monkeypatch):
    """ "Any number of" N units is 2^N groups (355.13): the dispute builder listing what A may do with Fox-Fire and
    24 enemy units at a battlefield spends the page's budget and says so, instead of hanging the server."""
    from rules_db import dispute
    from scenarios.cards import use_read_cards

    units = [{"id": f"e{i}", "card": "Test Unit", "controller": "B", "might": 1} for i in range(24)]
    scenario = {
        "meta": {"id": "a-large-board", "title": "Fox-Fire and 24 enemy units"},
        "rules": {"core": "2026-06-18"},
        "setup": {
            "turn": {"player": "A"},
            "players": {"A": {"energy": 9, "power": 9, "hand": [{"id": "fox", "card": "Fox-Fire"}]}, "B": {}},
            "battlefields": [{"id": "bf1", "card": "Neutral Ground", "controller": "B", "units": units}],
        },
        "actions": [],
    }
    monkeypatch.setenv("RULES_DB_READ_CARDS", str(real_db))  # the pages' engine reads its cards from there
    try:
        listed = dispute.legal(yaml.safe_dump(scenario, sort_keys=False), "a-large-board.yaml")
    finally:
        use_read_cards({})
    assert listed["actions"] == []
    # the page's budget is steps and seconds: which runs out first depends on the machine's load, either says so
    assert re.search(r"the (max_steps|seconds) budget", listed["error"]["message"]), listed["error"]["message"]
