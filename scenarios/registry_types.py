"""`do.<name>` and `calc.<name>` as mypy reads them: every registered procedure and query with its arguments.

Written by `tests/test_registry_types.py` from the rule functions' own signatures (do not edit it by hand): a
procedure is called with its arguments by position and the rule that makes it happen (`because=`). A type other
than a builtin one (the game, an object, an event) is Any here, so that this module imports nothing of the engine.
"""

from __future__ import annotations

from typing import Any, Protocol

Because = str | tuple[str, ...] | list[str]


class TypedProcedures(Protocol):
    """`do`: each procedure, called through its dispatcher."""

    def activate(self, game: Any, act: Any, /, *, because: Because) -> Any:
        """scenarios.rules.abilities.activate"""

    def add(self, game: Any, player: str, energy: int, power: int, domain: str | None, label: str, /, *, because: Because) -> Any:
        """scenarios.rules.runes.add"""

    def add_restricted(self, game: Any, player: str, energy: int, power: int, domain: str | None, use: str, label: str, /, *, because: Because) -> Any:
        """scenarios.rules.restricted_resources.add_restricted"""

    def after_chain_emptied(self, game: Any, /, *, because: Because) -> Any:
        """scenarios.rules.showdowns.after_chain_emptied"""

    def apply_contested(self, game: Any, bf: Any, player: str, /, *, because: Because) -> Any:
        """scenarios.rules.control.apply_contested"""

    def apply_replacement(self, game: Any, source_id: str, replacement: Any, lasting: Any, event: Any, chosen: bool, /, *, because: Because) -> Any:
        """scenarios.rules.replacement.apply_replacement"""

    def attach(self, game: Any, gear_ids: Any, unit_id: str, label: str, /, *, because: Because) -> Any:
        """scenarios.rules.status.attach"""

    def banish(self, game: Any, object_id: str, by: str | None = ..., player: str | None = ..., /, *, because: Because) -> Any:
        """scenarios.rules.damage.banish"""

    def begin_combat(self, game: Any, bf_id: str, /, *, because: Because) -> Any:
        """scenarios.rules.combat.begin_combat"""

    def begin_showdown(self, game: Any, bf_id: str, /, *, because: Because) -> Any:
        """scenarios.rules.showdowns.begin_showdown"""

    def board_to_deck(self, game: Any, owner: str, object_id: str, where: str, label: str, /, *, because: Because) -> Any:
        """scenarios.rules.looking.board_to_deck"""

    def buff(self, game: Any, unit_ids: Any, label: Any = ..., /, *, because: Because) -> Any:
        """scenarios.rules.status.buff"""

    def buffs_give_more(self, game: Any, player: str, n: int, label: str, /, *, because: Because) -> Any:
        """scenarios.rules.status.buffs_give_more"""

    def burn_out(self, game: Any, player: str, /, *, because: Because) -> Any:
        """scenarios.rules.burn_out.burn_out"""

    def channel(self, game: Any, player: str, n: int, label: str, exhausted: bool, /, *, because: Because) -> Any:
        """scenarios.rules.runes.channel"""

    def channel_phase(self, game: Any, player: str, /, *, because: Because) -> Any:
        """scenarios.rules.runes.channel_phase"""

    def cleanup_pass(self, game: Any, reason: str, special: str | None, /, *, because: Because) -> Any:
        """scenarios.rules.cleanups.cleanup_pass"""

    def combat_damage_step(self, game: Any, /, *, because: Because) -> Any:
        """scenarios.rules.combat.combat_damage_step"""

    def combat_resolution_step(self, game: Any, /, *, because: Because) -> Any:
        """scenarios.rules.combat.combat_resolution_step"""

    def conquer(self, game: Any, player: str, bf: Any, uncontrolled: bool = ..., /, *, because: Because) -> Any:
        """scenarios.rules.scoring.conquer"""

    def counter(self, game: Any, card_id: str, label: str, to_hand: bool = ..., /, *, because: Because) -> Any:
        """scenarios.rules.zones.counter"""

    def create_delayed(self, game: Any, delayed: Any, /, *, because: Because) -> Any:
        """scenarios.rules.triggers.create_delayed"""

    def create_lasting_replacement(self, game: Any, lasting: Any, /, *, because: Because) -> Any:
        """scenarios.rules.replacement.create_lasting_replacement"""

    def deal(self, game: Any, amounts: dict, source: str | None, label: str | None = ..., via: str | None = ..., by: Any = ..., /, *, because: Because) -> Any:
        """scenarios.rules.damage.deal"""

    def designate(self, game: Any, unit: Any, role: Any, /, *, because: Because) -> Any:
        """scenarios.rules.combat.designate"""

    def detach(self, game: Any, gear_ids: Any, label: str, /, *, because: Because) -> Any:
        """scenarios.rules.status.detach"""

    def dies(self, game: Any, obj: Any, passive: bool, leaving: frozenset, might: int | None, company: tuple, killer: Any = ..., /, *, because: Because) -> Any:
        """scenarios.rules.damage.dies"""

    def discard(self, game: Any, player: str, card_id: str, /, *, because: Because) -> Any:
        """scenarios.rules.zones.discard"""

    def draw(self, game: Any, player: str, n: int, label: Any = ..., /, *, because: Because) -> Any:
        """scenarios.rules.zones.draw"""

    def draw_instead_of_final_point(self, game: Any, player: str, unscored: Any, /, *, because: Because) -> Any:
        """scenarios.rules.scoring.draw_instead_of_final_point"""

    def earn_point(self, game: Any, player: str, bf: Any, how: str, /, *, because: Because) -> Any:
        """scenarios.rules.scoring.earn_point"""

    def empty_rune_pools(self, game: Any, /, *, because: Because) -> Any:
        """scenarios.rules.costs.empty_rune_pools"""

    def end_showdown(self, game: Any, /, *, because: Because) -> Any:
        """scenarios.rules.showdowns.end_showdown"""

    def end_turn(self, game: Any, act: Any, /, *, because: Because) -> Any:
        """scenarios.rules.turn.end_turn"""

    def enter_board(self, game: Any, card: Any, player: str, location: str, ready: bool, hidden_at: str | None, /, *, because: Because) -> Any:
        """scenarios.rules.playing.enter_board"""

    def establish_control(self, game: Any, bf: Any, player: str, /, *, because: Because) -> Any:
        """scenarios.rules.control.establish_control"""

    def exhaust(self, game: Any, object_ids: Any, label: Any = ..., /, *, because: Because) -> Any:
        """scenarios.rules.status.apply"""

    def expire(self, game: Any, /, *, because: Because) -> Any:
        """scenarios.rules.turn.expire"""

    def finalize_pending(self, game: Any, /, *, because: Because) -> Any:
        """scenarios.rules.chain.finalize_pending"""

    def finish_end_of_turn(self, game: Any, /, *, because: Because) -> Any:
        """scenarios.rules.turn.finish_end_of_turn"""

    def gain_points(self, game: Any, player: str, n: int, label: str, /, *, because: Because) -> Any:
        """scenarios.rules.scoring.gain_points"""

    def gain_xp(self, game: Any, player: str, n: int, label: str, /, *, because: Because) -> Any:
        """scenarios.rules.xp.gain_xp"""

    def give_might(self, game: Any, unit_ids: Any, amount: int, minimum: Any, label: str, until: str = ..., /, *, because: Because) -> Any:
        """scenarios.rules.status.give_might"""

    def grant_keyword(self, game: Any, unit_ids: Any, keyword: str, value: int, until: str, label: str, /, *, because: Because) -> Any:
        """scenarios.rules.status.grant_keyword"""

    def heal(self, game: Any, unit_ids: Any, /, *, because: Because) -> Any:
        """scenarios.rules.damage.heal"""

    def hide(self, game: Any, act: Any, /, *, because: Because) -> Any:
        """scenarios.rules.playing.hide"""

    def hold(self, game: Any, player: str, bf: Any, /, *, because: Because) -> Any:
        """scenarios.rules.scoring.hold"""

    def lift_contested(self, game: Any, bf: Any, /, *, because: Because) -> Any:
        """scenarios.rules.cleanups.lift_contested"""

    def lose_control(self, game: Any, bf: Any, /, *, because: Because) -> Any:
        """scenarios.rules.control.lose_control"""

    def lose_designation(self, game: Any, unit: Any, bf: str, /, *, because: Because) -> Any:
        """scenarios.rules.combat.lose_designation"""

    def modify_event(self, game: Any, source: str, r: Any, lasting: Any, event: Any, amount: int, chosen: bool, /, *, because: Because) -> Any:
        """scenarios.rules.replacement.modify_event"""

    def move(self, game: Any, unit_ids: Any, destination: str, by: str, mover: str | None = ..., /, *, because: Because) -> Any:
        """scenarios.rules.movement.move"""

    def pay_additional_cost(self, game: Any, card: Any, player: str, /, *, because: Because) -> Any:
        """scenarios.rules.additional_costs.pay_additional_cost"""

    def pay_cost(self, game: Any, cost: Any, player: str, source_id: str | None, label: str, purpose: str | None = ..., /, *, because: Because) -> Any:
        """scenarios.rules.abilities.pay_cost"""

    def play_by_effect(self, game: Any, unit: Any, player: str, location: str, label: str, ignoring: str = ..., exhausted: bool = ..., base: Any = ..., /, *, because: Because) -> Any:
        """scenarios.rules.playing.play_by_effect"""

    def play_card(self, game: Any, act: Any, /, *, because: Because) -> Any:
        """scenarios.rules.playing.play_card"""

    def promise_spell_bonus(self, game: Any, player: str, n: int, label: str, /, *, because: Because) -> Any:
        """scenarios.rules.damage.promise_spell_bonus"""

    def put_back_in_order(self, game: Any, player: str, order: Any, positions: Any, label: str, /, *, because: Because) -> Any:
        """scenarios.rules.looking.put_back_in_order"""

    def put_on_deck(self, game: Any, player: str, card_id: str, where: str, label: str, /, *, because: Because) -> Any:
        """scenarios.rules.looking.put_on_deck"""

    def put_trigger_on_chain(self, game: Any, instance: Any, /, *, because: Because) -> Any:
        """scenarios.rules.triggers.put_trigger_on_chain"""

    def queue_additional_turn(self, game: Any, player: str, label: str, /, *, because: Because) -> Any:
        """scenarios.rules.turn.queue_additional_turn"""

    def ready(self, game: Any, object_ids: Any, label: Any = ..., /, *, because: Because) -> Any:
        """scenarios.rules.status.apply"""

    def recall(self, game: Any, object_id: str, /, *, because: Because) -> Any:
        """scenarios.rules.movement.recall"""

    def recycle(self, game: Any, card_ids: Any, label: str, /, *, because: Because) -> Any:
        """scenarios.rules.recycle.recycle"""

    def remove_all_designations(self, game: Any, /, *, because: Because) -> Any:
        """scenarios.rules.combat.remove_all_designations"""

    def resolve(self, game: Any, /, *, because: Because) -> Any:
        """scenarios.rules.chain.resolve_top"""

    def restrict(self, game: Any, subjects: Any, word: str, label: str, source: str, about: Any = ..., /, *, because: Because) -> Any:
        """scenarios.rules.restrictions.restrict"""

    def return_control(self, game: Any, unit_id: str, label: str, /, *, because: Because) -> Any:
        """scenarios.rules.durations.return_control"""

    def return_from_trash(self, game: Any, card_id: str, label: str, /, *, because: Because) -> Any:
        """scenarios.rules.off_board.return_from_trash"""

    def return_to_hand(self, game: Any, object_ids: Any, label: str, /, *, because: Because) -> Any:
        """scenarios.rules.zones.return_to_hand"""

    def set_empowered(self, game: Any, object_id: str, status: bool, label: str, /, *, because: Because) -> Any:
        """scenarios.rules.empower.set_empowered"""

    def set_stage(self, game: Any, bf: Any, wanted: str | None, /, *, because: Because) -> Any:
        """scenarios.rules.showdowns.set_stage"""

    def settle_showdown(self, game: Any, bf_id: str, /, *, because: Because) -> Any:
        """scenarios.rules.showdowns.settle_showdown"""

    def spend_buff(self, game: Any, unit_id: str, label: Any = ..., /, *, because: Because) -> Any:
        """scenarios.rules.status.spend_buff"""

    def standard_move(self, game: Any, act: Any, /, *, because: Because) -> Any:
        """scenarios.rules.movement.standard_move"""

    def start_turn(self, game: Any, player: str, /, *, because: Because) -> Any:
        """scenarios.rules.turn.start_turn"""

    def stun(self, game: Any, object_ids: Any, label: Any = ..., /, *, because: Because) -> Any:
        """scenarios.rules.status.apply"""

    def take_control(self, game: Any, unit_id: str, player: str, label: str, /, *, because: Because) -> Any:
        """scenarios.rules.control.take_control"""

    def take_looked_card(self, game: Any, player: str, card_id: str, verb: str, label: str, /, *, because: Because) -> Any:
        """scenarios.rules.looking.take_looked_card"""

    def trash_from_deck(self, game: Any, player: str, n: int, label: str, /, *, because: Because) -> Any:
        """scenarios.rules.zones.trash_from_deck"""

    def trash_hidden(self, game: Any, card: Any, /, *, because: Because) -> Any:
        """scenarios.rules.cleanups.trash_hidden"""

    def trash_looked_cards(self, game: Any, card_ids: Any, label: str, /, *, because: Because) -> Any:
        """scenarios.rules.looking._to_trash"""

    def wins(self, game: Any, name: str, /, *, because: Because) -> Any:
        """scenarios.rules.cleanups.wins"""

    def wins_by_effect(self, game: Any, name: str, label: str, /, *, because: Because) -> Any:
        """scenarios.rules.effect_wins.wins_by_effect"""


class TypedQueries(Protocol):
    """`calc`: each query."""

    def ability_controller(self, game: Any, source: Any) -> str:
        """scenarios.rules.filters.ability_controller"""

    def ability_discounts(self, game: Any, source: Any, ability: Any, player: str, cost: Any) -> Any:
        """scenarios.rules.discounts.ability_discounts"""

    def ability_is_active(self, game: Any, source: Any, flt: Any) -> bool:
        """scenarios.rules.layers.ability_is_active"""

    def ability_timing(self, game: Any, player: str, ability: Any) -> None:
        """scenarios.rules.abilities.check_timing"""

    def add_to_chain(self, game: Any, item: Any) -> Any:
        """scenarios.rules.chain.add_to_chain"""

    def add_to_pool(self, game: Any, player: str, energy: int = ..., power: int = ..., domain: str | None = ...) -> None:
        """scenarios.rules.costs.add_to_pool"""

    def additional_cost(self, game: Any, card: Any) -> Any:
        """scenarios.rules.additional_costs.additional_cost"""

    def additional_cost_problem(self, game: Any, card: Any, player: str) -> Any:
        """scenarios.rules.additional_costs.additional_cost_problem"""

    def additional_most(self, game: Any, card: Any, player: str) -> int:
        """scenarios.rules.additional_costs.additional_most"""

    def additional_resources(self, game: Any, card: Any) -> Any:
        """scenarios.rules.additional_costs.additional_resources"""

    def additional_triggers(self, game: Any, source: Any, trigger: Any, event: Any) -> list[str]:
        """scenarios.rules.retrigger.additional_triggers"""

    def amount(self, game: Any, run: Any, value: Any) -> int | None:
        """scenarios.rules.instructions.amount"""

    def apply_layers(self, game: Any, unit: Any) -> tuple[int, str]:
        """scenarios.rules.layers.apply_layers"""

    def assigned_for_lethal(self, game: Any, unit: Any, needed: int, most: int) -> int | None:
        """scenarios.rules.replacement.assigned_for_lethal"""

    def assigned_last(self, game: Any, unit: Any) -> bool:
        """scenarios.rules.combat.assigned_last"""

    def attached(self, game: Any, gear_ids: Any, unit_id: str, player: str) -> None:
        """scenarios.rules.status.attached"""

    def attaching(self, game: Any, gear_ids: Any, unit_id: str) -> list[str]:
        """scenarios.rules.status.attaching"""

    def attribution_of(self, game: Any, run: Any) -> tuple[str, str]:
        """scenarios.rules.damage.attribution_of"""

    def banished(self, game: Any, obj: Any, player: str | None) -> None:
        """scenarios.rules.damage.banished"""

    def bottom_of_deck(self, game: Any) -> int:
        """scenarios.rules.recycle.bottom_of_deck"""

    def buffs_to_spend(self, game: Any, cost: Any, player: str, source_id: str | None) -> list[str]:
        """scenarios.rules.abilities.buffs_to_spend"""

    def burn_out_until_a_card(self, game: Any, player: str, because: Any) -> bool:
        """scenarios.rules.burn_out.burn_out_until_a_card"""

    def card_drawn(self, game: Any, player: str) -> None:
        """scenarios.rules.hand_size.card_drawn"""

    def card_played(self, game: Any, card: Any, player: str, hidden_at: str | None = ...) -> None:
        """scenarios.rules.playing.card_played"""

    def changed_cost(self, game: Any, card: Any, player: str, cost: Any, choices: Any = ...) -> Any:
        """scenarios.rules.discounts.changed_cost"""

    def changing_status(self, game: Any, name: str, ids: Any) -> list[str]:
        """scenarios.rules.status.changing_status"""

    def check_destination(self, game: Any, unit: Any, destination: str, standard: bool) -> None:
        """scenarios.rules.movement.check_destination"""

    def check_discretionary(self, game: Any, player: str, what: str) -> None:
        """scenarios.rules.turn.check_discretionary"""

    def check_hidden_turn(self, game: Any, card: Any) -> None:
        """scenarios.rules.playing.check_hidden_turn"""

    def check_modes_distinct(self, game: Any, specs: dict, executions: list[dict], label: str) -> None:
        """scenarios.rules.modes.check_modes_distinct"""

    def check_play_location(self, game: Any, player: str, card: Any, location: str, hidden_at: str | None) -> None:
        """scenarios.rules.playing.check_play_location"""

    def choose_group(self, game: Any, item: Any, slot: str, spec: Any, legal: list[str]) -> tuple:
        """scenarios.rules.targeting.choose_group"""

    def choose_targets(self, game: Any, specs: tuple, picks: dict, ctx: Any) -> dict:
        """scenarios.rules.targeting.choose_targets"""

    def cleanup(self, game: Any, reason: str, because: str, special: str | None = ...) -> None:
        """scenarios.rules.cleanups.cleanup"""

    def combat_joins_open_showdown(self, game: Any) -> None:
        """scenarios.rules.showdowns.combat_joins_open_showdown"""

    def combat_result(self, game: Any, combat: Any) -> str | None:
        """scenarios.rules.combat_result.combat_result"""

    def component_cost(self, game: Any, card: Any, player: str, cost: Any, component: str) -> Any:
        """scenarios.rules.discounts.component_cost"""

    def condition_holds(self, game: Any, word: str, context: Any) -> bool:
        """scenarios.rules.conditions.condition_holds"""

    def contest(self, game: Any, bf: Any, player: str, because: str) -> None:
        """scenarios.rules.control.contest"""

    def control_can_lapse(self, game: Any, bf_id: str) -> bool:
        """scenarios.rules.cleanups.control_can_lapse"""

    def cost_problem(self, game: Any, cost: Any, player: str, source_id: str | None, purpose: str | None = ...) -> Any:
        """scenarios.rules.abilities.cost_problem"""

    def decide_additional(self, game: Any, unit: Any, player: str) -> None:
        """scenarios.rules.additional_costs.decide_additional"""

    def decide_condition(self, game: Any, word: str, context: Any, label: str, applies: str, because: Any) -> bool:
        """scenarios.rules.conditions.decide_condition"""

    def decide_count(self, game: Any, view: Any, counted: Any, label: str, player: str, because: Any) -> bool:
        """scenarios.rules.amounts.decide_count"""

    def deck_to_look_at(self, game: Any, player: str) -> list:
        """scenarios.rules.burn_out.deck_to_look_at"""

    def deflect_cost(self, game: Any, player: str, choices: Any) -> int:
        """scenarios.rules.deflect.deflect_cost"""

    def discarded_cards(self, game: Any, player: str, n: int) -> None:
        """scenarios.rules.zones.discarded_cards"""

    def discount_amount(self, game: Any, discount: Any, player: str, card: Any) -> tuple[int, int]:
        """scenarios.rules.discounts.discount_amount"""

    def effect_playable(self, game: Any, run: Any, card: Any, how: Any) -> bool:
        """scenarios.rules.effect_plays.effect_playable"""

    def end_combat(self, game: Any, bf_id: str) -> None:
        """scenarios.rules.combat.end_combat"""

    def end_delayed_of(self, game: Any, item: Any) -> None:
        """scenarios.rules.triggers.end_delayed_of"""

    def entering_ready(self, game: Any, card: Any, player: str, location: str, ready: bool) -> bool:
        """scenarios.rules.entering.entering_ready"""

    def event_aliases(self, game: Any, source: Any, kind: str) -> frozenset:
        """scenarios.rules.layers.event_aliases"""

    def execute(self, game: Any, run: Any, instructions: Any) -> None:
        """scenarios.rules.instructions.execute"""

    def explain_might(self, game: Any, unit: Any) -> str:
        """scenarios.rules.layers.explain_might"""

    def final_point_at_stake(self, game: Any, player: str) -> bool:
        """scenarios.rules.scoring.final_point_at_stake"""

    def fire(self, game: Any, event: Any, leaving: frozenset = ...) -> None:
        """scenarios.rules.triggers.fire"""

    def fire_choose(self, game: Any, player: str, unit_id: str, via: str) -> None:
        """scenarios.rules.chain.fire_choose"""

    def game_goes_on(self, game: Any) -> bool:
        """scenarios.rules.turn.game_goes_on"""

    def give_priority_to_newest(self, game: Any) -> None:
        """scenarios.rules.chain.give_priority_to_newest"""

    def group_fulfils(self, game: Any, spec: Any, ids: Any) -> bool:
        """scenarios.rules.targeting.group_fulfils"""

    def has_keyword(self, game: Any, obj: Any, keyword: str) -> bool:
        """scenarios.rules.layers.has_keyword"""

    def hidden_play_location(self, game: Any, item: Any) -> str:
        """scenarios.rules.effect_plays.hidden_play_location"""

    def impossible(self, game: Any, run: Any, text: str, rule: str | None = ...) -> None:
        """scenarios.rules.instructions.impossible"""

    def is_mighty(self, game: Any, unit: Any) -> bool:
        """scenarios.rules.layers.is_mighty"""

    def keyword_holders(self, game: Any, objects: Any, keyword: str) -> Any:
        """scenarios.rules.layers.keyword_holders"""

    def keyword_triggers(self, game: Any, event: Any) -> list:
        """scenarios.rules.keyword_abilities.keyword_triggers"""

    def keyword_value(self, game: Any, obj: Any, keyword: str, sources: list | None = ...) -> int:
        """scenarios.rules.layers.keyword_value"""

    def kill_all(self, game: Any, object_ids: Any, passive: bool, because: Any, by: tuple[str, str] | None = ...) -> None:
        """scenarios.rules.damage.kill_all"""

    def leave_board(self, game: Any, obj: Any, zone: Any) -> None:
        """scenarios.rules.damage.leave_board"""

    def legal_targets(self, game: Any, spec: Any, ctx: Any) -> list[str]:
        """scenarios.rules.targeting.legal_targets"""

    def linked_controller(self, game: Any, run: Any, object_id: str) -> str | None:
        """scenarios.rules.linked.linked_controller"""

    def mark_modes_chosen(self, game: Any, item: Any) -> None:
        """scenarios.rules.modes.mark_modes_chosen"""

    def matches_event(self, game: Any, flt: Any, view: Any, event: Any, kinds: frozenset | None = ...) -> bool:
        """scenarios.rules.filters.matches_event"""

    def matches_object(self, game: Any, flt: Any, view: Any, subject: Any, location: Any = ...) -> bool:
        """scenarios.rules.filters.matches_object"""

    def matches_target(self, game: Any, spec: Any, obj: Any, ctx: Any) -> bool:
        """scenarios.rules.targeting.matches_target"""

    def matches_where(self, game: Any, view: Any, phrase: str, location: Any) -> bool:
        """scenarios.rules.filters.matches_where"""

    def matches_who(self, game: Any, view: Any, phrase: str, subject: Any) -> bool:
        """scenarios.rules.filters.matches_who"""

    def might(self, game: Any, unit: Any) -> int:
        """scenarios.rules.layers.might"""

    def might_rules(self, game: Any, unit: Any) -> tuple[str, ...]:
        """scenarios.rules.layers.might_rules"""

    def mode_unchosen(self, game: Any, spec: Any, chosen: dict) -> bool:
        """scenarios.rules.modes.mode_unchosen"""

    def modes_offered(self, game: Any, spec: Any, ctx: Any) -> list[str]:
        """scenarios.rules.modes.modes_offered"""

    def move_blocked_by(self, game: Any, unit: Any, destination: str) -> str | None:
        """scenarios.rules.movement.blocked_by"""

    def off_the_chain(self, game: Any, card: Any, player: str, label: str) -> None:
        """scenarios.rules.zones.off_the_chain"""

    def open_staged(self, game: Any) -> None:
        """scenarios.rules.showdowns.open_staged"""

    def pass_focus(self, game: Any, player: str) -> None:
        """scenarios.rules.showdowns.pass_focus"""

    def passives(self, game: Any) -> Any:
        """scenarios.rules.layers.passives"""

    def pay_resources(self, game: Any, player: str, cost: Any, rule: str = ..., purpose: str | None = ...) -> None:
        """scenarios.rules.costs.pay_resources"""

    def pay_restricted_first(self, game: Any, player: str, cost: Any, rule: str, purpose: str) -> bool:
        """scenarios.rules.restricted_resources.pay_restricted_first"""

    def pays_for_its_choices(self, game: Any, item: Any, chosen: dict) -> bool:
        """scenarios.rules.deflect.pays_for_its_choices"""

    def place_triggers(self, game: Any, first: Any = ..., last: Any = ..., because: tuple[str, str] = ...) -> None:
        """scenarios.rules.triggers.place_triggers"""

    def play_by_instruction(self, game: Any, run: Any, card: Any, how: Any) -> None:
        """scenarios.rules.effect_plays.play_by_instruction"""

    def play_forbidden_by(self, game: Any, player: str, card: Any) -> str | None:
        """scenarios.rules.restrictions.play_forbidden_by"""

    def play_here_forbidden_by(self, game: Any, location: str | None, player: str | None = ...) -> str | None:
        """scenarios.rules.restrictions.play_here_forbidden_by"""

    def play_location(self, game: Any, unit: Any, player: str, to: str, was_at: str | None) -> str:
        """scenarios.rules.effect_plays.play_location"""

    def play_spell_by_effect(self, game: Any, run: Any, card: Any, player: str, base: Any, then: str | None, reduce: int = ...) -> None:
        """scenarios.rules.playing.play_spell_by_effect"""

    def play_timing(self, game: Any, player: str, card: Any, facedown: bool) -> None:
        """scenarios.rules.playing.check_timing"""

    def play_unit(self, game: Any, run: Any, card: Any, cost: Any, ins: Any, places: list[str]) -> None:
        """scenarios.rules.off_board.play_unit"""

    def plays_checked(self, game: Any, player: str) -> tuple[int, tuple[str, ...]]:
        """scenarios.rules.playing.plays_checked"""

    def points_gained(self, game: Any, player: str) -> None:
        """scenarios.rules.cleanups.points_gained"""

    def pool_for(self, game: Any, player: str, purpose: str | None) -> Any:
        """scenarios.rules.restricted_resources.pool_for"""

    def prevents_all_damage(self, game: Any, unit: Any) -> bool:
        """scenarios.rules.replacement.prevents_all_damage"""

    def printed_cost(self, game: Any, definition: Any) -> Any:
        """scenarios.rules.costs.printed_cost"""

    def put_chosen_on_chain(self, game: Any, item: Any, via: str) -> None:
        """scenarios.rules.chain.put_chosen_on_chain"""

    def quantity(self, game: Any, view: Any, value: Any, run: Any = ...) -> int | None:
        """scenarios.rules.amounts.quantity"""

    def readied_by_effect(self, game: Any, run: Any, ids: Any) -> list[str]:
        """scenarios.rules.restrictions.readied_by_effect"""

    def recall_attackers_if_defenders_remain(self, game: Any) -> None:
        """scenarios.rules.combat.recall_attackers_if_defenders_remain"""

    def recycle_from_trash(self, game: Any, player: str, n: int, label: str, because: Any, every_trash: bool = ..., up_to: bool = ..., kind: str | None = ...) -> None:
        """scenarios.rules.off_board.recycle_from_trash"""

    def ref(self, game: Any, object_id: str) -> tuple:
        """scenarios.rules.targeting.ref"""

    def refs(self, game: Any, run: Any, reference: Any) -> list[str]:
        """scenarios.rules.instructions.refs"""

    def regroup(self, game: Any, item: Any, slot: str, spec: Any, legal: list[str]) -> list[str]:
        """scenarios.rules.targeting.regroup"""

    def remove_designations(self, game: Any) -> None:
        """scenarios.rules.combat.remove_designations"""

    def repeat_choices(self, game: Any, card: Any, act: Any, context: Any) -> list[dict]:
        """scenarios.rules.repeat.repeat_choices"""

    def repeat_execution(self, game: Any, item: Any, because: str, number: int, targets: dict) -> None:
        """scenarios.rules.repeat.repeat_execution"""

    def replaced(self, game: Any, event: Any) -> Any:
        """scenarios.rules.replacement.replaced"""

    def resolution(self, game: Any, item: Any, because: str, targets: dict | None = ...) -> Any:
        """scenarios.rules.instructions.resolution"""

    def resource_problem(self, game: Any, player: str, cost: Any, rule: str = ..., purpose: str | None = ...) -> Any:
        """scenarios.rules.costs.resource_problem"""

    def restricted_by(self, game: Any, obj: Any, word: str, location: str | None = ..., about: Any = ...) -> str | None:
        """scenarios.rules.restrictions.restricted_by"""

    def resume_turn(self, game: Any) -> None:
        """scenarios.rules.turn.resume_turn"""

    def reveal(self, game: Any, player: str, card_ids: Any, because: Any) -> None:
        """scenarios.rules.zones.reveal"""

    def rune_deck(self, game: Any, player: str) -> list:
        """scenarios.rules.runes.rune_deck"""

    def runes_on_board(self, game: Any, player: str) -> list:
        """scenarios.rules.runes.runes_on_board"""

    def score_forbidden_by(self, game: Any, player: str, battlefield: str) -> str | None:
        """scenarios.rules.restrictions.score_forbidden_by"""

    def settle_combat(self, game: Any, bf_id: str) -> None:
        """scenarios.rules.combat.settle_combat"""

    def settle_priority(self, game: Any) -> None:
        """scenarios.rules.chain.settle_priority"""

    def show_quantity(self, game: Any, run: Any, value: dict, n: int | None) -> None:
        """scenarios.rules.amounts.show_quantity"""

    def show_refs(self, game: Any, run: Any, reference: Any) -> str:
        """scenarios.rules.instructions.show_refs"""

    def snapshot_modifier(self, game: Any, unit: Any, amount: int, minimum: int | None) -> int:
        """scenarios.rules.layers.snapshot_modifier"""

    def snapshot_passive_limits(self, game: Any) -> None:
        """scenarios.rules.layers.snapshot_passive_limits"""

    def source_gone(self, game: Any, item: Any, source: Any) -> bool:
        """scenarios.rules.instructions.source_gone"""

    def spell_bonus_finalized(self, game: Any, card: Any, player: str) -> None:
        """scenarios.rules.damage.spell_bonus_finalized"""

    def stage(self, game: Any) -> None:
        """scenarios.rules.showdowns.stage"""

    def status_changed(self, game: Any, name: str, ids: Any, player: str) -> None:
        """scenarios.rules.status.status_changed"""

    def still_legal(self, game: Any, reference: Any, spec: Any, ctx: Any) -> bool:
        """scenarios.rules.targeting.still_legal"""

    def still_there(self, game: Any, run: Any, reference: Any, doing: str) -> list[str]:
        """scenarios.rules.instructions.still_there"""

    def tagged(self, game: Any, obj: Any, tag: str | list[str]) -> bool:
        """scenarios.rules.layers.tagged"""

    def target_choices(self, game: Any, specs: dict, context: Any) -> Any:
        """scenarios.rules.targeting.target_choices"""

    def targeting_of(self, game: Any, item: Any) -> Any:
        """scenarios.rules.targeting.targeting_of"""

    def timing_rules(self, game: Any, keywords: Any, on: str = ...) -> tuple[str, ...]:
        """scenarios.rules.playing.timing_rules"""

    def total_cost(self, game: Any, card: Any, player: str, base: Any, accelerate: bool, repeat: int, choices: list) -> Any:
        """scenarios.rules.costs.total_cost"""

    def trash_of(self, game: Any, player: str | None, kind: str | None = ...) -> list[str]:
        """scenarios.rules.off_board.trash_of"""

    def trigger_places(self, game: Any, item: Any) -> tuple[str, ...]:
        """scenarios.rules.targeting.trigger_places"""

    def unit_playable(self, game: Any, player: str, card: Any, how: Any) -> Any:
        """scenarios.rules.off_board.unit_playable"""

    def unreplaced(self, game: Any, run: Any, kind: str, ids: Any) -> list[str]:
        """scenarios.rules.replacement.unreplaced"""

    def update_designations(self, game: Any) -> None:
        """scenarios.rules.combat.update_designations"""

    def victor(self, game: Any) -> str | None:
        """scenarios.rules.cleanups.victor"""

    def victory_score(self, game: Any) -> int:
        """scenarios.rules.cleanups.victory_score"""

    def view_of(self, game: Any, source: Any, it: str | None = ..., it_incarnation: int | None = ..., slots: Any = ...) -> Any:
        """scenarios.rules.filters.view_of"""

    def wanted_stage(self, game: Any, bf: Any) -> str | None:
        """scenarios.rules.showdowns.wanted_stage"""

    def weaponmaster_cost(self, cost: Any, any_power: int) -> Any:
        """scenarios.rules.weaponmaster.weaponmaster_cost"""

    def would(self, game: Any, event: Any) -> bool:
        """scenarios.rules.replacement.would"""
