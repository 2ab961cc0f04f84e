"""Scenario loading on hostile input (issue 16, "Scenarios"): each crash class found by fuzzing has a minimal
input here, and each gets a ScenarioError naming the line and the field, never a Python exception of another
kind, and never a long wait."""

from __future__ import annotations

import time

import pytest

from scenarios import library_paths, schema

VALID = """\
meta: {id: t, title: t, ruling: 1}
answer: t
setup:
  turn: {player: A}
  players:
    A:
      base:
        - {id: a1, card: Test Unit, might: 4}
    B: {}
  battlefields:
    - {id: bf1, card: Neutral Ground, controller: B, units: [{id: d1, card: Test Defender, controller: B}]}
actions:
  - {by: A, do: move, units: [a1], to: bf1}
expect:
  a1: {zone: base}
"""


def _error(text: str | bytes, limits: schema.Limits = schema.PAGE_LIMITS) -> schema.ScenarioError:
    with pytest.raises(schema.ScenarioError) as caught:
        schema.parse(text, "typed", limits)
    return caught.value


def test_the_valid_scenario_loads():
    scenario, data = schema.parse(VALID)
    assert scenario.setup.players["A"].base[0].might == 4 and data["expect"] == {"a1": {"zone": "base"}}


def test_invalid_utf8_names_its_line_and_column():
    error = _error(VALID.encode().replace(b"might: 4", b"might: \xff4"))
    assert (error.line, error.field) == (8, "(encoding)") and "invalid UTF-8 at column" in error.message


def test_a_character_yaml_forbids_names_its_line():
    error = _error(VALID.replace("title: t", "title: t\x07"))
    assert error.line == 1 and error.field == "(yaml)"


def test_thousand_deep_nesting_is_refused_at_its_line():
    error = _error(VALID + "note: " + "[" * 1000 + "]" * 1000 + "\n")
    assert error.line == 16 and "nested more than" in error.message
    error = _error(VALID + "note:\n" + "".join("  " * depth + "- \n" for depth in range(1, 200)))
    assert "nested more than" in error.message


def test_flow_nesting_is_refused_by_our_own_limit_not_the_yaml_librarys():
    deep = "[" * 25 + "]" * 25
    assert _error(VALID + f"note:\n  - {deep}\n").line == 17  # 25 levels: past our 24, far below any library's
    shallow = "[" * 23 + "]" * 23  # and the mapping it stands in: 24
    assert schema.parse_text(VALID + f"note: {shallow}\n", "typed")[0]["note"]
    for text in (f"'{deep}'", f'"a \\" {deep}"', f"plain {deep}", f"t  # {deep}"):  # brackets that open nothing
        assert schema.parse(VALID.replace("answer: t", f"answer: {text}"))[1]["answer"]


def test_an_alias_bomb_is_refused_at_once():
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n" for i in range(9)
    )
    started = time.monotonic()
    error = _error(bomb, schema.FILE_LIMITS)
    assert time.monotonic() - started < 5  # a safety net against a hang, not a speed test (benchmarks/ measure)
    assert error.line == 1 and "anchors (&) or aliases (*)" in error.message
    assert "alias *x" in _error(VALID.replace("ruling: 1}", "ruling: 1}\nnote: *x")).message


def test_a_hundred_thousand_actions_are_refused_with_the_limit():
    actions = "actions:\n" + "  - {by: A, do: pass}\n" * 100_000
    text = VALID.replace("actions:\n  - {by: A, do: move, units: [a1], to: bf1}\n", actions)
    error = _error(text, schema.Limits(max_bytes=10**7, max_nodes=10**7))
    assert error.field == "actions" and "more than 20,000 actions" in error.message
    assert "bytes: a scenario may have at most 64,000" in _error(text).message  # a page's own, smaller limit


def test_an_enormous_number_is_refused_before_it_is_converted():
    error = _error(VALID.replace("might: 4", "might: " + "9" * 5000), schema.FILE_LIMITS)
    assert error.line == 8 and "a number of 5,000 characters" in error.message


def test_a_duplicate_object_id_names_the_second_one():
    error = _error(VALID.replace("{id: d1, card: Test Defender", "{id: a1, card: Test Defender"))
    assert error.line == 11 and error.field == "setup.battlefields.0.units.0.id"
    assert "'a1' is used twice (first at setup.players.A.base.0)" in error.message


@pytest.mark.parametrize(
    "expect, field, words",
    [
        ("a1: {colour: red}", "expect.a1.colour", "no observable field 'colour'"),
        ("a1: {__dict__: 1}", "expect.a1.__dict__", "no observable field '__dict__'"),
        ("a1: base", "expect.a1", "expected a mapping of fields"),
        ("zz: {zone: base}", "expect.zz", "neither an object of the setup"),
        ("players: {C: {points: 1}}", "expect.players.C", "no player 'C'"),
        ("players: [A]", "expect.players", "players is a mapping"),
        ("players: {A: {mana: 1}}", "expect.players.A.mana", "no observable field 'mana'"),
        ("log: 5", "expect.log", "expected a mapping"),
        ("log: {resolved: x}", "expect.log.resolved", "is a list"),
        ("combat: {winner: A}", "expect.combat.winner", "no observable field 'winner'"),
        ("chain: 3", "expect.chain", "a list"),
        ("state: {a: 1}", "expect.state", "a single value"),
        ("1: {zone: base}", "expect.1.[key]", "takes text, not 1"),
    ],
)
def test_expectations_name_only_what_a_replay_observes(expect, field, words):
    error = _error(VALID.replace("a1: {zone: base}", expect))
    assert error.field == field and words in error.message and error.line in (15, 16)


def test_checkpoints_are_checked_like_the_outcome():
    text = VALID.replace("to: bf1}", "to: bf1, label: go}") + "checkpoints:\n  - {after: go, expect: {a1: {size: 3}}}\n"
    error = _error(text)
    assert error.field == "checkpoints.0.expect.a1.size" and error.line == 17


@pytest.mark.parametrize(
    "old, new, field, words",
    [
        (
            "{id: d1, card: Test Defender, controller: B}",
            "{id: d1, card: Test Defender, controller: C}",
            "setup.battlefields.0.units.0.controller",
            "'C' is not a player",
        ),
        ("{id: a1, card: Test Unit", "{id: base, card: Test Unit", "setup.players.A.base.0.id", "a location"),
        ("{id: a1, card: Test Unit", "{id: B, card: Test Unit", "setup.players.A.base.0.id", "a player's name"),
        ("{id: a1, card: Test Unit", "{id: a1, card: Smoke Screen", "setup.players.A.base.0.card", "a spell card"),
        ("card: Neutral Ground", "card: Test Unit", "setup.battlefields.0.card", "needs a battlefield"),
        ("{id: a1, card", "{id: 'a 1', card", "setup.players.A.base.0.id", "then 0 to 39 of letters, digits, _ or -"),
        ("    B: {}\n", "", "setup.players", "players needs at least 2 entries; it has 1"),
    ],
)
def test_the_setup_names_only_what_exists(old, new, field, words):
    error = _error(VALID.replace(old, new))
    assert error.field == field and words in error.message, error


def test_errors_from_a_page_name_no_file_of_the_server():
    error = _error(VALID.replace("might: 4", "might: four"))
    assert str(error).startswith("typed:8: setup.players.A.base.0.might:")


def test_every_library_scenario_loads_under_the_page_limits():
    for path in library_paths():
        schema.parse(path.read_bytes(), path.name, schema.PAGE_LIMITS)
