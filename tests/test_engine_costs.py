"""The cost of playing a card (356): the base cost or an alternate one in its place, additional costs, discounts."""

from __future__ import annotations

import pytest

from scenarios import schema
from scenarios.cards import use_read_cards
from scenarios.replay import replay_scenario

FLOW_SPELL = {
    "name": "Discounted Flow Spell",
    "made_up": True,
    "type": "spell",
    "text": "This costs [1] less. Draw 1. [Flow] [3 Energy]",
    "energy": 5,
    "flow": [{"energy": 3}],
    "discounts": [{"energy": 1}],
    "effects": [{"op": "draw", "n": 1}],
}

SCENARIO = """
meta: {id: flow-discount, title: a Flow cost less a discount}
answer: "829.1.c.1: the Flow cost replaces the base cost; 356.4: the discount applies to it."
rules: {core: "2026-06-18"}
setup:
  turn: {player: A}
  players:
    A:
      energy: 2
      trash: [{id: spell, card: Discounted Flow Spell}]
      deck: [{id: top, card: Test Unit}]
    B: {}
actions:
  - {by: A, do: play, card: spell}
  - {by: A, do: pass}
  - {by: B, do: pass}
expect:
  spell: {zone: banishment}
  top: {zone: hand}
  players: {A: {energy: 0}}
"""


@pytest.fixture
def flow_spell():
    use_read_cards({FLOW_SPELL["name"]: FLOW_SPELL})
    yield
    use_read_cards({})


def test_a_flow_cost_replaces_the_base_cost_and_a_discount_applies_to_it(flow_spell):
    """Played from the trash for its Flow cost of [3], less its [1] discount: 2 Energy pays it (829.1.c.1, 356.4).
    Taking the discount off the ignored base cost instead, and then adding the Flow cost, would ask for 3."""
    scenario, _ = schema.parse(SCENARIO, "flow-discount")
    replay = replay_scenario(scenario, "flow-discount")
    assert replay.verdict == "match", replay.mismatches
