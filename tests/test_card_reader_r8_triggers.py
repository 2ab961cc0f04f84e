"""Trigger conditions and events read in wave 8 (issue 32): "when you or an ally hold" (no teams: "you", 489.2),
"the first time I win a combat each turn", "when I die in combat" (740.2.c) and "they score N points" of a chosen
player. Read-card disputes 640-659 judge them with the real read cards, and a mutant of each reading is killed by
those disputes."""

from __future__ import annotations

from pathlib import Path

import yaml
from read_cards import read_every_card, read_every_card_changed, verdicts_with

from scenarios.card_reader import CardText, read_card

MINE = sorted(
    p
    for p in (Path(__file__).parent / "data" / "read_card_disputes").glob("read-6*.yaml")
    if 640 <= int(p.name.split("-")[1]) <= 659
)


def read(text: str, kind: str = "Unit", **numbers):
    return read_card(CardText("Some Card", kind, text, **numbers))


def _triggers(text: str, kind: str = "Unit", **numbers) -> list[dict]:
    reading = read(text, kind, **numbers)
    assert reading.status == "read", reading.unread
    return reading.definition["triggers"]


def _verdicts(definitions) -> list[str]:
    for path in MINE:
        assert str(yaml.safe_load(path.read_text())["rules"]["core"]) >= "2026-06-18"  # judged under Core Rules 1.4
    return verdicts_with(definitions, MINE)


def _changed(real_db, change) -> list[str]:
    return _verdicts(read_every_card_changed(real_db, change))


def test_my_disputes_are_judged_under_core_rules_1_4_and_match(real_db):
    assert len(MINE) >= 2
    assert set(_verdicts(read_every_card(real_db))) == {"match"}


# -- "you or an ally" --------------------------------------------------------------------------------------------


def test_you_or_an_ally_hold_is_you_hold_without_teams():
    (trigger,) = _triggers("When you or an ally hold, you may exhaust me to draw 1.", "Legend")
    assert trigger["when"] == {"event": "hold", "who": "you"}
    assert trigger["optional"] and trigger["effects"] == [{"op": "draw", "n": 1}]
    (conquer,) = _triggers("When you or an ally conquer, draw 1.", "Legend")
    assert conquer["when"] == {"event": "conquer", "who": "you"}


def test_my_disputes_kill_an_ally_read_as_any_player(real_db):
    def anyone(mapping: dict) -> None:
        if mapping.get("event") == "hold" and mapping.get("who") == "you":
            mapping["who"] = "player"

    assert "mismatch" in _changed(real_db, anyone), "'you or an ally' read as any player survives disputes 640-659"


# -- Draven, Audacious: winning and dying in combat --------------------------------------------------------------


def test_the_first_combat_i_win_each_turn_is_once_a_turn():
    (trigger,) = _triggers("The first time I win a combat each turn, you score 1 point.", might=6)
    assert trigger["when"] == {"event": "win_combat", "who": "self"} and trigger["limit"] == "once_per_turn"
    assert trigger["effects"] == [{"op": "score", "n": 1}]


def test_dying_in_combat_is_a_death_with_the_in_combat_condition():
    (trigger,) = _triggers("When I die in combat, choose an opponent. They score 1 point.", might=6)
    assert trigger["when"] == {"event": "die", "who": "self"} and trigger["condition"] == "in combat"
    assert trigger["targets"] == {"target": {"type": "player", "side": "enemy"}}
    assert trigger["effects"] == [{"op": "each_player", "players": "target", "effects": [{"op": "score", "n": 1}]}]


def test_my_disputes_kill_dying_in_combat_read_as_any_death(real_db):
    def any_death(mapping: dict) -> None:
        if mapping.get("condition") == "in combat":
            mapping.pop("condition")

    assert "mismatch" in _changed(real_db, any_death), "'die in combat' read as any death survives disputes 640-659"


def test_my_disputes_kill_their_point_read_as_the_controllers(real_db):
    def mine(mapping: dict) -> None:
        effects = mapping.get("effects")
        if isinstance(effects, list) and effects and effects[0].get("players") == "target":
            mapping["effects"] = effects[0]["effects"]

    assert "mismatch" in _changed(real_db, mine), "'they score' read as the controller's survives disputes 640-659"


# -- "when I score" ------------------------------------------------------------------------------------------------


def test_when_i_score_is_my_conquer_or_hold():
    triggers = _triggers("When you play me or when I score, draw 1.", might=4)
    assert [t["when"] for t in triggers] == [
        {"event": "play", "who": "self"},
        {"event": "conquer", "who": "self"},
        {"event": "hold", "who": "self"},
    ]
    assert [t["when"]["event"] for t in _triggers("When I score, draw 1.", might=4)] == ["conquer", "hold"]


def test_my_disputes_kill_i_score_read_as_you_score(real_db):
    def yours(mapping: dict) -> None:
        if mapping.get("event") in ("conquer", "hold") and mapping.get("who") == "self":
            mapping["who"] = "you"

    assert "mismatch" in _changed(real_db, yours), "'when I score' read as 'when you score' survives 640-659"


def test_my_disputes_kill_i_score_without_hold(real_db):
    def no_hold(mapping: dict) -> None:
        if mapping.get("event") == "hold" and mapping.get("who") == "self":
            mapping["event"] = "defend"

    assert "mismatch" in _changed(real_db, no_hold), "'when I score' read without Hold survives 640-659"


# -- "when you banish a card you own" ------------------------------------------------------------------------------


def test_banishing_a_card_you_own_is_your_banish_of_your_card():
    (trigger,) = _triggers("When you banish a card you own, draw 1.", "Legend")
    assert trigger["when"] == {"event": "banish", "who": "you", "own_card": True}


def test_my_disputes_kill_a_banished_card_of_anyone(real_db):
    def anyones(mapping: dict) -> None:
        if mapping.get("event") == "banish":
            mapping.pop("own_card", None)

    assert "mismatch" in _changed(real_db, anyones), "'a card you own' read as any card survives disputes 640-659"


def test_my_disputes_kill_a_banish_read_as_a_death(real_db):
    def dies(mapping: dict) -> None:
        if mapping.get("event") == "banish":
            mapping.update(event="die", who="friendly unit")
            mapping.pop("own_card", None)

    assert "mismatch" in _changed(real_db, dies), "'banish' read as a friendly unit's death survives 640-659"


# -- recycling a rune; units dying together ------------------------------------------------------------------------


def test_a_recycled_rune_and_units_dying_together():
    (rune,) = _triggers("When you recycle a rune, draw 1.", "Legend")
    assert rune["when"] == {"event": "recycle_rune", "who": "you"}
    (deaths,) = _triggers("When one or more enemy units die, ready me.", "Legend")
    assert deaths["when"] == {"event": "die_some", "who": "enemy unit"}


def test_my_disputes_kill_enemy_deaths_read_as_any_deaths(real_db):
    def any_side(mapping: dict) -> None:
        if mapping.get("event") == "die_some":
            mapping["who"] = "unit"

    assert "mismatch" in _changed(real_db, any_side), "'enemy units die' read as any units survives 640-659"


def test_my_disputes_kill_a_recycled_rune_read_as_recycled_cards(real_db):
    def cards(mapping: dict) -> None:
        if mapping.get("event") == "recycle_rune":
            mapping["event"] = "recycle_cards"

    assert "mismatch" in _changed(real_db, cards), "'recycle a rune' read as recycling cards survives 640-659"


# -- "when you move an enemy unit" ---------------------------------------------------------------------------------


def test_moving_an_enemy_unit_is_your_move_of_it():
    (trigger,) = _triggers("When you move an enemy unit, you may exhaust this to [Stun] it.", "Gear", energy=4)
    assert trigger["when"] == {"event": "move", "who": "enemy unit", "by": "you"}
    assert trigger["effects"] == [{"op": "stun", "what": "trigger_unit"}]


def test_my_disputes_kill_a_move_by_anyone(real_db):
    def anyones(mapping: dict) -> None:
        if mapping.get("event") == "move" and mapping.get("by") == "you":
            mapping.pop("by")

    assert "mismatch" in _changed(real_db, anyones), "'when you move' read as anyone's move survives 640-659"


def test_my_disputes_kill_an_enemy_unit_read_as_any_unit(real_db):
    def any_unit(mapping: dict) -> None:
        if mapping.get("event") == "move" and mapping.get("by") == "you":
            mapping["who"] = "unit"

    assert "mismatch" in _changed(real_db, any_unit), "'an enemy unit' moved read as any unit survives 640-659"


# -- "when combat starts here"; "the attacker and defender each" ---------------------------------------------------


def test_combat_starting_here_and_its_two_players():
    (trigger,) = _triggers("When combat starts here, the attacker and defender each [Add] [1 Energy].", "Battlefield")
    assert trigger["when"] == {"event": "combat_start", "who": "player", "where": "here"}
    (each,) = trigger["effects"]
    assert each["op"] == "each_player" and each["players"] == "combatants"
    assert [i["op"] for i in each["effects"]] == ["add"]


def test_my_disputes_kill_combat_starting_anywhere(real_db):
    def anywhere(mapping: dict) -> None:
        if mapping.get("event") == "combat_start":
            mapping.pop("where", None)

    assert "mismatch" in _changed(real_db, anywhere), "'combat starts here' read as anywhere survives 640-659"


def test_my_disputes_kill_the_attacker_and_defender_read_as_you(real_db):
    def only_mine(mapping: dict) -> None:
        effects = mapping.get("effects")
        if isinstance(effects, list) and effects and effects[0].get("players") == "combatants":
            mapping["effects"] = effects[0]["effects"]

    assert "mismatch" in _changed(real_db, only_mine), "'the attacker and defender each' read as 'you' survives"


# -- "when a friendly unit moves from my location, I may be moved with it" -----------------------------------------


def test_moved_with_a_friendly_unit_to_where_it_went():
    (trigger,) = _triggers("When a friendly unit moves from my location, I may be moved with it.", might=4)
    assert trigger["when"] == {"event": "move_from", "who": "friendly unit", "where": "here"}
    assert trigger["optional"] and trigger["effects"] == [{"op": "move", "what": "this", "to": "trigger_destination"}]
    assert read("When I attack, I may be moved with it.", might=4).status == "unread"  # "it" moved from nowhere


def test_my_disputes_kill_a_move_from_anywhere(real_db):
    def anywhere(mapping: dict) -> None:
        if mapping.get("event") == "move_from" and mapping.get("who") == "friendly unit":
            mapping.pop("where", None)

    assert "mismatch" in _changed(real_db, anywhere), "'from my location' read as from anywhere survives 640-659"


def test_my_disputes_kill_moved_to_where_it_came_from(real_db):
    def back(mapping: dict) -> None:
        if mapping.get("to") == "trigger_destination":
            mapping["to"] = "trigger_location"

    assert "mismatch" in _changed(real_db, back), "'moved with it' to its origin survives disputes 640-659"


# -- "when a player plays a unit here, they may pay [X] to ..." ----------------------------------------------------


def test_a_unit_played_here_and_the_player_who_may_pay():
    text = "When a player plays a unit here, they may pay [1 Energy] to [Buff] it."
    (trigger,) = _triggers(text, "Battlefield")
    assert trigger["when"] == {"event": "play", "who": "unit", "where": "here", "actor": True}
    assert trigger["effects"] == [
        {
            "op": "each_player",
            "players": "actor",
            "effects": [{"op": "pay_to", "cost": {"energy": 1}, "then": [{"op": "buff", "what": "trigger_unit"}]}],
        }
    ]
    assert read("When I attack, they may pay [1 Energy] to draw 1.", might=3).status == "unread"  # no "they"


def test_my_disputes_kill_a_unit_played_anywhere(real_db):
    def anywhere(mapping: dict) -> None:
        if mapping.get("event") == "play" and mapping.get("actor"):
            mapping.pop("where", None)

    assert "mismatch" in _changed(real_db, anywhere), "'plays a unit here' read as anywhere survives 640-659"


def test_my_disputes_kill_a_buff_bought_for_nothing(real_db):
    def free(mapping: dict) -> None:
        effects = mapping.get("effects")
        if isinstance(effects, list) and effects and effects[0].get("op") == "pay_to" and "then" in effects[0]:
            mapping["effects"] = effects[0]["then"]  # not a payment whose refusal does something ("else")

    assert "mismatch" in _changed(real_db, free), "'they may pay [X] to' read without the payment survives 640-659"


# -- "when a unit here is returned to a player's hand, that player may pay" ----------------------------------------


def test_a_unit_returned_to_a_hand_and_its_owner_who_may_pay():
    text = (
        "When a unit here is returned to a player's hand, that player may pay [1 Energy] to channel 1 rune exhausted."
    )
    (trigger,) = _triggers(text, "Battlefield")
    assert trigger["when"] == {"event": "leave_board", "who": "unit", "where": "here", "to_zone": "hand"}
    (each,) = trigger["effects"]
    assert each["players"] == {"owner_of": "trigger_unit"} and each["effects"][0]["op"] == "pay_to"
    assert read("When I attack, that player may pay [1 Energy] to draw 1.", might=3).status == "unread"


def test_my_disputes_kill_a_return_read_as_any_departure(real_db):
    def any_zone(mapping: dict) -> None:
        if mapping.get("event") == "leave_board":
            mapping.pop("to_zone", None)

    assert "mismatch" in _changed(real_db, any_zone), "'returned to a hand' read as any departure survives 640-659"


def test_my_disputes_kill_a_return_from_anywhere(real_db):
    def anywhere(mapping: dict) -> None:
        if mapping.get("to_zone") == "hand":
            mapping.pop("where", None)

    assert "mismatch" in _changed(real_db, anywhere), "'a unit here' returned read as any unit survives 640-659"


# -- "when an opponent moves to a battlefield other than mine" ----------------------------------------------------


def test_an_opponent_moving_is_enemy_units_moving_together():
    reading = read(
        "When an opponent moves to a battlefield other than mine, draw 1. (Bases are not battlefield.)", might=10
    )
    assert reading.status == "read", reading.unread
    (trigger,) = reading.definition["triggers"]
    assert trigger["when"] == {"event": "move_some", "who": "enemy unit", "where": "other battlefield"}


def test_my_disputes_kill_a_draw_for_each_unit_moved(real_db):
    def each_unit(mapping: dict) -> None:
        if mapping.get("event") == "move_some":
            mapping["event"] = "move"

    assert "mismatch" in _changed(real_db, each_unit), "'one or more enemy units' read per unit survives 640-659"


def test_my_disputes_kill_a_move_to_my_own_battlefield(real_db):
    def mine_too(mapping: dict) -> None:
        if mapping.get("event") == "move_some":
            mapping["where"] = "battlefield"

    assert "mismatch" in _changed(real_db, mine_too), "'a battlefield other than mine' read as any survives 640-659"


# -- "the first time you play a non-token gear each turn"; "something besides me" ----------------------------------


def test_the_first_non_token_gear_each_turn_is_the_first_of_its_type():
    text = (
        "When you play me or the first time you play a non-token gear each turn, you may ready something besides me "
        "that's exhausted."
    )
    first, gear = _triggers(text, might=6)
    assert first["when"] == {"event": "play", "who": "self"}
    assert gear["when"] == {"event": "card_played", "who": "you", "card_type": "gear", "nth_of_type": 1}
    assert gear["targets"]["target"]["other"] and gear["targets"]["target"]["exhausted"]


def test_my_disputes_kill_every_gear_read_as_the_first(real_db):
    def every(mapping: dict) -> None:
        mapping.pop("nth_of_type", None)

    assert "mismatch" in _changed(real_db, every), "'the first time ... each turn' read as every time survives"


# -- "when you spend a buff"; "buff up to four friendly units" -----------------------------------------------------


def test_spending_a_buff_and_up_to_four_units():
    play, spend = _triggers(
        "When you play me, buff up to four friendly units. When you spend a buff, play a Gold gear token exhausted.",
        might=7,
    )
    assert spend["when"] == {"event": "spend_buff", "who": "you"}
    assert play["effects"] == [{"op": "buff", "what": ["target", "other", "target3", "target4"]}]
    assert play["targets"]["target4"]["not_target"] == ["target", "other", "target3"]
    assert all(spec["optional"] for spec in play["targets"].values())
    assert read("When you play me, buff four friendly units.", might=7).status == "unread"  # "up to" only


def test_my_disputes_kill_an_opponents_spent_buff(real_db):
    def theirs(mapping: dict) -> None:
        if mapping.get("event") == "spend_buff":
            mapping["who"] = "opponent"

    assert "mismatch" in _changed(real_db, theirs), "'when you spend a buff' read as an opponent's survives 640-659"


def test_my_disputes_kill_up_to_four_read_as_up_to_two(real_db):
    def two(mapping: dict) -> None:
        targets = mapping.get("targets")
        if isinstance(targets, dict) and "target4" in targets:
            for slot in ("target3", "target4"):
                targets.pop(slot)
            for effect in mapping["effects"]:
                effect["what"] = ["target", "other"]

    assert "mismatch" in _changed(real_db, two), "'up to four' read as 'up to two' survives disputes 640-659"
