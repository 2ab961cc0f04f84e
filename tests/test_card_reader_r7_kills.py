"""Kill triggers: "When you kill a [stunned] [enemy] unit [with a spell]" reads as a `kill` event, a kill attributed
to a spell, an ability or combat with its responsible player (411.5, 428.5). Read-card disputes 600-619 judge it with
the real read cards, and mutants of the reading are killed by those disputes."""

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
    if 600 <= int(p.name.split("-")[1]) <= 619
)


def _when(text: str, kind: str = "Gear") -> dict:
    reading = read_card(CardText("Some Card", kind, text, might=3 if kind == "Unit" else None))
    assert reading.status == "read", reading.unread
    Card.model_validate(reading.definition)
    (trigger,) = reading.definition["triggers"]
    return trigger["when"]


@pytest.mark.parametrize(
    ("text", "when"),
    [
        (
            "When you kill a stunned enemy unit, you may exhaust this to draw 1.",
            {"event": "kill", "who": "enemy unit", "by": "you", "stunned": True},
        ),
        ("When you kill a unit, draw 1.", {"event": "kill", "who": "unit", "by": "you"}),
        (
            "When you kill an enemy unit with a spell, draw 1.",
            {"event": "kill", "who": "enemy unit", "by": "you", "via": "spell"},
        ),
    ],
)
def test_when_you_kill_reads_as_a_kill_event(text, when):
    assert _when(text) == when


def test_a_kill_trigger_is_not_a_death_trigger():
    """ "When a unit dies" is any death; "when you kill" only a kill attributed to you (428.5)."""
    assert _when("When you kill a unit, draw 1.")["event"] != "die"


# -- the disputes and the mutants they kill ----------------------------------------------------------------------


def _verdicts(definitions) -> list[str]:
    for path in MINE:
        assert str(yaml.safe_load(path.read_text())["rules"]["core"]) >= "2026-06-18"  # judged under Core Rules 1.4
    return verdicts_with(definitions, MINE)


def _kill_trigger(mapping: dict) -> bool:
    return isinstance(mapping.get("when"), dict) and mapping["when"].get("event") == "kill"


def test_my_disputes_are_judged_under_core_rules_1_4_and_match(real_db):
    assert MINE
    assert set(_verdicts(read_every_card(real_db))) == {"match"}


def test_my_disputes_kill_a_kill_read_as_any_death(real_db):
    """The mutant: "when you kill" read as "when a unit dies", whoever killed it and however."""

    def any_death(mapping: dict) -> None:
        if _kill_trigger(mapping):
            mapping["when"] = {k: v for k, v in mapping["when"].items() if k != "by"} | {"event": "die"}

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, any_death))


def test_my_disputes_kill_the_stunned_condition_dropped(real_db):
    def unstunned(mapping: dict) -> None:
        if _kill_trigger(mapping):
            mapping["when"].pop("stunned", None)

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, unstunned))


def test_my_disputes_kill_the_enemy_condition_dropped(real_db):
    def any_unit(mapping: dict) -> None:
        if _kill_trigger(mapping):
            mapping["when"]["who"] = "unit"

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, any_unit))


@pytest.mark.parametrize("lost", ["combat", "spell"])
def test_my_disputes_kill_lethal_damage_left_unattributed(real_db, monkeypatch, lost):
    """The engine mutant: a death by lethal damage attributed to no one, after combat (428.5.c.2) or a spell's
    damage (428.5.c): "when you kill" does not trigger on it."""
    from scenarios.rules import damage

    real = damage._damage_attribution

    def unattributed(game, unit, source, by):
        found = real(game, unit, source, by)
        return None if found is not None and found[1] == lost else found

    monkeypatch.setattr(damage, "_damage_attribution", unattributed)
    assert "mismatch" in _verdicts(read_every_card(real_db))
