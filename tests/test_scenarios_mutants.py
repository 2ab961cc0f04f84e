"""A wrong engine must fail its scenarios: each mutant breaks one rule, and the library must notice.

Each mutant replaces one registered procedure or query of the kernel (the way a rule module plugs into the
engine) with a plausible misreading of the rules (the kind of mistake open-source engines make) and replays
the scenarios that pin that rule down; at least one of them or of their variants must mismatch.
"""

from __future__ import annotations

import dataclasses

import pytest

import scenarios
from scenarios import kernel, schema, state, versions
from scenarios.objects import Zone
from scenarios.replay import replay_file, replay_variant


def paths(*names):
    """Library files by ruling position (an int) or by file name prefix ("rules-01")."""
    wanted = {f"ruling-{n:02d}-" if isinstance(n, int) else f"{n}-" for n in names}
    return [p for p in scenarios.library_paths() if any(p.name.startswith(w) for w in wanted)]


def recall_also_exhausts(original):
    def mutant(game, object_id):
        original(game, object_id)
        game.objects[object_id].exhausted = True

    return mutant


def recall_also_heals(original):
    def mutant(game, object_id):
        original(game, object_id)
        game.objects[object_id].damage = 0

    return mutant


def no_snapshot(original):
    return lambda game, unit, amount, minimum: amount


def replacements_ignored(original):
    return lambda game, event: False


def triggers_in_reverse_turn_order(original):
    def mutant(game, first=(), last=(), because=("383.3", "383.3.d.1")):
        return original(game, last, first, because)

    return mutant


def cleanup_never_repeats(original):
    def mutant(game, reason, because, special=None):
        kernel.do.cleanup_pass(game, reason, special, because=because)

    return mutant


def trigger_controller_follows_its_source(original):
    def mutant(game, item, because):
        source = game.objects.get(item.source)
        if source is not None and source.zone == Zone.BOARD and source.kind == "unit":
            item.controller = source.controller
        return original(game, item, because)

    return mutant


def decreases_before_increases(original):
    def mutant(game, unit):
        from scenarios.rules.layers import might_parts

        base, increases, decreases = might_parts(game, unit)
        value = base
        for _, amount, minimum, _ in decreases:
            value -= amount if minimum is None else min(amount, max(0, value - minimum))
        return value + sum(amount for _, amount, _, _ in increases), "mutant"

    return mutant


def collapse_identical_triggers(original):
    """Simultaneous triggers that read alike become one (the bug of engines that key triggers by name)."""

    def mutant(game, first=(), last=(), because=("383.3", "383.3.d.1")):
        kept = {}
        for instance in game.triggered:
            kept.setdefault(instance.label, instance)
        game.triggered = tuple(kept.values())
        return original(game, first, last, because)

    return mutant


def spells_played_when_cast(original):
    def mutant(game, item):
        result = original(game, item)
        if item.card is not None:
            PLAYED(game, game.objects[item.card], item.controller)
        return result

    return mutant


def spells_not_played_on_resolution(original):
    def mutant(game, card, player):
        if card.kind != "spell":
            original(game, card, player)

    return mutant


def countered_spells_count_as_played(original):
    def mutant(game, card_id, label):
        original(game, card_id, label)
        kernel.calc.card_played(game, game.objects[card_id], game.turn_player)

    return mutant


def nothing_instead_of_the_final_point(original):
    return lambda game, player, unscored: None


def abilities_ignore_showdown_and_closed_states(original):
    def mutant(game, player, ability):
        if game.priority != player:
            raise kernel.Refusal("312.1", "no priority")

    return mutant


def hidden_cards_playable_at_once(original):
    return lambda game, card: None


def hidden_choices_anywhere(original):
    return lambda game, spec, obj, ctx: original(game, spec, obj, dataclasses.replace(ctx, hidden_at=None))


def costs_never_checked(original):
    return lambda game, cost, player, source_id: None


def lasting_replacements_forgotten(original):
    return lambda game, lasting: None


def first_replacement_without_a_choice(original):
    def mutant(game, event):
        from scenarios.rules import replacement

        options = replacement._applicable(game, event)
        if not options:
            return False
        source, effect, lasting = options[0]
        kernel.do.apply_replacement(game, source, effect, lasting, event, False, because="366")
        return True

    return mutant


# -- the mechanics of runes, costs and keywords (156-164, 353, 418, 735-747) ----------------------------------


def recycled_runes_add_any_domain(original):
    """Recycling a rune adds Power of any domain ([A]) rather than of the rune's domain (misreading 160.2.b.1)."""
    return lambda game, player, energy, power, domain, label: original(game, player, energy, power, None, label)


def channel_nothing_when_short(original):
    """Fewer runes than asked: channel none (misreading 315.3.b.1, "as many as possible")."""

    def mutant(game, player, n, label, exhausted):
        if len(kernel.calc.rune_deck(game, player)) >= n:
            original(game, player, n, label, exhausted)

    return mutant


def rune_pools_never_empty(original):
    return lambda game: None


def domains_ignored(original):
    """Every Power pays every cost: domain costs read as [A] (misreading 159.2.a)."""

    def as_any(cost):
        return cost.model_copy(update={"power": cost.power + sum(cost.domain_power.values()), "domain_power": {}})

    return lambda game, player, cost, rule="354.1": original(game, player, as_any(cost), rule)


def drawing_from_an_empty_deck_draws_nothing(original):
    """The engine before Burn Out: an empty Main Deck simply gives no card."""
    return lambda game, player, because: False


def legion_counts_every_players_cards(original):
    """Legion satisfied by a card any player played (misreading 738.1.c.1's "you")."""

    def mutant(game, word, context):
        if word == "legion":
            return sum(p.cards_played_this_turn for p in game.players.values()) >= 1
        return original(game, word, context)

    return mutant


def a_repeated_burn_out_waits_for_the_cleanup(original):
    """Burning out stops once an opponent would win, the win left to the next Cleanup (misreading 431.3.c.1 in
    Core Rules 1.4: the point of a Burn Out repeated in sequence wins at once, and the first one's does not stop
    the action)."""

    def burn_out_until_a_card(game, player, because):
        while not game.deck(player):
            kernel.do.burn_out(game, player, because=because)
            if kernel.calc.victor(game) in game.opponents(player):
                return bool(game.deck(player))
        return True

    return burn_out_until_a_card


def every_version_read_as(version):
    """A behaviour the Core Rules versions disagree on read the same under every version: the engine ignores
    the version a game is judged under (only the rule numbers would follow it)."""

    def mutation(behaviour):
        choice = behaviour.under(version).choice
        readings = tuple(dataclasses.replace(reading, choice=choice) for reading in behaviour.readings)
        return dataclasses.replace(behaviour, readings=readings)

    return mutation


def acts_on_whatever_it_names(original):
    """An instruction acts on every object it names, whether it still exists on the board or not."""

    def mutant(game, run, reference, doing):
        return kernel.QUERIES["refs"](game, run, reference)

    return mutant


def deflect_taxes_everyone(original):
    """Deflect charged to its controller's own spells too (misreading "an opponent controls", 735.1.c)."""

    def mutant(game, player, choices):
        others = next(p for p in game.players if p != player)
        return original(game, others, choices) + original(game, player, choices)

    return mutant


def temporary_on_every_turn(original):
    """Temporary kills at every player's Beginning Phase (misreading "its controller's", 742.1.c)."""
    when = original.trigger.when.model_copy(update={"who": "player"})
    return dataclasses.replace(original, trigger=original.trigger.model_copy(update={"when": when}))


def vision_triggers_once(original):
    """Several Vision instances trigger once (misreading 743.2)."""
    return dataclasses.replace(original, stacks=False)


def quick_draw_without_reaction(original):
    """Quick-Draw attaches but does not give Reaction (misreading 745.1.b)."""
    return dataclasses.replace(original, implies=())


def weaponmaster_reduces_any_power(original):
    """Weaponmaster reduces a domain's Power as well as [A] (misreading 747.1.c.3)."""

    def mutant(cost, any_power):
        reduced = dict(cost.domain_power)
        for domain in list(reduced)[:any_power] if not cost.power else []:
            reduced[domain] -= 1
        return original(cost, any_power).model_copy(update={"domain_power": reduced})

    return mutant


def repeat_reuses_the_first_choices(original):
    """The extra execution of a Repeat reuses the first execution's targets (misreading 746.2.a)."""
    return lambda game, item, because, number, targets: original(game, item, because, number, item.targets)


def triggered_abilities_choose_deflect_for_free(original):
    """Deflect charged to spells and activated abilities only, not to a triggered ability's choice (391.2)."""
    return lambda game, item, chosen: True


def delayed_abilities_fire_at_once(original):
    """A delayed "at the end of this turn" effect done when it is made (misreading 383.2, 385)."""

    def mutant(game, delayed):
        original(game, delayed)
        run = kernel.calc.resolution(game, dataclasses.replace(game.chain[-1], it=delayed.it), "394.5")
        kernel.calc.execute(game, run, delayed.effects)

    return mutant


def control_taken_until_end_of_turn_stays(original):
    return lambda game, unit_id, label: None


def a_gone_source_keeps_its_place(original):
    """An ability whose source has left the board still finds "here" where the source was (last known
    information, misreading 356.3.e.12)."""
    return lambda game, item, source: False


def a_gone_unit_keeps_its_might(original):
    """A "damage equal to my Might" reads the Might of a unit no longer on the board (misreading 356.3.e.12)."""

    def mutant(game, run, value):
        if isinstance(value, str) and value.startswith("might_of:"):
            ids = kernel.calc.refs(game, run, value.split(":", 1)[1])
            return kernel.calc.might(game, game.objects[ids[0]]) if ids else None
        return original(game, run, value)

    return mutant


def showdowns_only_at_uncontrolled_battlefields(original):
    """A showdown is staged only where the contested battlefield is uncontrolled, leaving one whose
    controller lost its last unit contested for ever (misreading 322.8 without 322.8.a)."""

    def mutant(game, bf):
        wanted = original(game, bf)
        return None if wanted == "showdown" and bf.battlefield_controller is not None else wanted

    return mutant


def deathknells_read_the_trash(original):
    """A Deathknell's "if I was ..." reads the card in the trash, not the unit as it died (misreading 734.1.d.3)."""
    return lambda game, word, context: original(game, word, dataclasses.replace(context, noted_might=None))


def here_is_where_it_triggered(original):
    """An ability's "here" stays where its source was when it triggered, though the source has moved since
    (misreading 356.3.e.12; 359.3.f.2 in Core Rules 1.4)."""

    def mutant(game, item):
        targeting = original(game, item)
        return dataclasses.replace(targeting, here=item.location) if item.location else targeting

    return mutant


def a_gone_sources_here_is_where_it_triggered(original):
    """An ability whose source has left the board targets where the source was when it triggered (last known
    information, misreading 356.3.e.12)."""

    def mutant(game, item):
        targeting = original(game, item)
        return dataclasses.replace(targeting, here=item.location) if targeting.here is None else targeting

    return mutant


def deathknells_deal_the_might_in_the_trash(original):
    """A Deathknell's "damage equal to my Might" reads the card in the trash (misreading 734.1.d.3)."""

    def mutant(game, run, value):
        if value == "might_of:this" and run.item.of_its_sources_death:
            return kernel.calc.might(game, game.objects[run.item.source])
        return original(game, run, value)

    return mutant


def deathknells_have_no_place(original):
    """A Deathknell's source is gone like any other, so "here" is null (misreading 734.1.d.3)."""

    def mutant(game, item, source):
        if item.of_its_sources_death:
            return source.zone != Zone.BOARD
        return original(game, item, source)

    return mutant


def a_source_played_again_is_the_same_object(original):
    """A unit that left the board and came back is still the source of its earlier triggers (misreading
    356.3.e.4)."""

    def mutant(game, item, source):
        gone = original(game, item, source)
        return gone and source.zone != Zone.BOARD

    return mutant


def mighty_above_five(original):
    """A unit is Mighty only above 5 Might (misreading 708's "5 or more")."""
    return lambda game, unit: kernel.calc.might(game, unit) > 5


def effects_read_here_from_the_source_as_it_is_now(original):
    """An executing item's "here" is its source's location now even for a Deathknell, whose unit is in the
    trash with no location (misreading 734.1.d.3): its effects find nothing "here"."""

    def mutant(game, item, because, targets=None):
        run = original(game, item, because, targets)
        source = game.objects.get(item.source)
        here = kernel.calc.view_of(game, source).here if source is not None else None
        run.view = dataclasses.replace(run.view, here=here)
        return run

    return mutant


def the_first_player_at_the_victory_score_wins(original):
    """Reaching the Victory Score wins though another player has as many points (misreading 194.2.b in Core
    Rules 1.4: tied players play on until one has more)."""

    def mutant(game):
        return next((p.name for p in game.players.values() if p.points >= game.victory_score), None)

    return mutant


def tokens_go_to_the_trash_like_cards(original):
    """A token killed stays in the trash, to be recycled and drawn later (misreading 180.1: it ceases to exist)."""

    def mutant(game, obj, zone):
        original(game, obj, zone)
        if obj.zone == Zone.CEASED:
            obj.zone = zone

    return mutant


def a_short_deck_put_into_the_trash_never_burns_out(original):
    """Cards put from the Main Deck into the trash stop when it is empty (misreading 418.1.b: burn out, then
    complete the instruction)."""

    def mutant(game, player, n, label):
        for card in game.deck(player)[:n]:
            card.zone = Zone.TRASH

    return mutant


def alone_read_as_the_deathknell_resolves(original):
    """ "If I died alone" asks who is still there as the Deathknell resolves, so the friendly units that died
    with it do not count (misreading 808.1.d.3 in Core Rules 1.4: noted before the card moved to the trash)."""

    def mutant(game, word, context):
        if word == "alone" and context.noted_company is not None:
            still_there = tuple(u for u in context.noted_company if game.objects[u].zone == Zone.BOARD)
            context = dataclasses.replace(context, noted_company=still_there)
        return original(game, word, context)

    return mutant


def a_spells_cost_limit_reads_only_its_energy(original):
    """ "Counter a spell that costs no more than [4] and no more than [A]" ignores the Power limit (206)."""

    def mutant(game, spec, obj, ctx):
        return original(game, spec.model_copy(update={"max_power": None}), obj, ctx)

    return mutant


def control_lapses_while_the_chain_exists(original):
    """A battlefield left without units is lost at once, Chain or not (misreading 323.6 in Core Rules 1.4: only
    in an Open State with no Showdown or Combat there)."""
    return lambda game, bf_id: True


def units_killed_together_die_one_by_one(original):
    """Permanents killed by one game action die one after another, each noted after the earlier ones left
    (misreading 370.1.a.2 and 808.1.d.3 in Core Rules 1.4: they die simultaneously, noted before any leaves)."""

    def mutant(game, object_ids, passive, because):
        for object_id in object_ids:
            original(game, [object_id], passive, because)

    return mutant


def hidden_gear_is_played_only_to_base(original):
    """Only units are played at a battlefield, so a gear hidden there can't be played at all (misreading 811.1.d.1.a
    in Core Rules 1.4: a hidden permanent, gear included, is played where it was hidden)."""

    def mutant(game, player, card, location, hidden_at):
        original(game, player, card, location, None if card.definition.object_kind == "gear" else hidden_at)

    return mutant


def my_buff_read_as_any_buff(original):
    """ "Spend my buff" spends a buff of any unit its controller controls (misreading the cost's "my": only the
    source's own buff pays it, 702.2.b)."""

    def mutant(game, cost, player, source_id):
        return original(game, cost.model_copy(update={"spend_buff": "friendly"}), player, source_id)

    return mutant


def the_turn_goes_on_after_a_win(original):
    """The turn's steps go on after a player has won in a Cleanup (misreading 472 in Core Rules 1.4: the player
    wins the game, which ends)."""
    return lambda game: True


PLAYED = kernel.QUERIES["card_played"]


# (name, [(registry, entry, mutation)], the scenarios that pin the rule down)
def discretionary_actions_in_a_showdown(original):
    def mutant(game, player, what):
        if not (game.showdown and not game.chain and game.priority == player == game.turn_player):
            original(game, player, what)

    return mutant


def assigned_last_ignored(original):
    return lambda game, unit: False


def legion_counts_its_own_play(original):
    """Under Core Rules 1.4, the Legion card's own Finalized play satisfies its Legion (misreading 812.1.c's
    "a card other than me")."""

    def mutant(game, word, context):
        if word == "legion" and game.reading("cards_played_as_checked").choice == "finalized":
            return game.players[context.player].cards_finalized_this_turn >= 1
        return original(game, word, context)

    return mutant


def finalized_count_kept(original):
    """A call that leaves each player's count of cards Finalized this turn as it found it: the count not reset
    as the turn ends, or a card played by an effect not counted."""

    def mutant(game, *args):
        kept = {name: (p.cards_finalized_this_turn, p.finalized_this_turn) for name, p in game.players.items()}
        original(game, *args)
        for name, (count, ids) in kept.items():
            game.players[name].cards_finalized_this_turn, game.players[name].finalized_this_turn = count, ids

    return mutant


def finalized_count_not_set_up(original):
    """A setup's cards played this turn not counted as Finalized (Core Rules 1.4's Legion reads that count)."""

    def mutant(game, setup):
        original(game, setup)
        for player in game.players.values():
            player.cards_finalized_this_turn = 0

    return mutant


MUTANTS = [
    ("a cleanup never repeats", [("query", "cleanup", cleanup_never_repeats)], (29,)),
    (
        "a trigger's controller follows its source",
        [("query", "resolution", trigger_controller_follows_its_source)],
        (21,),
    ),
    ("decreases before increases", [("query", "apply_layers", decreases_before_increases)], (14, "dispute-546")),
    ("recall exhausts the unit", [("procedure", "recall", recall_also_exhausts)], (20, 24)),
    ("recall heals the unit", [("procedure", "recall", recall_also_heals)], (22,)),
    ("might limits are not snapshotted", [("query", "snapshot_modifier", no_snapshot)], (10, 41, 42)),
    ("replacement effects never apply", [("query", "would", replacements_ignored)], (3, 9, 13, "rules-12", "rules-13")),
    ("defender's triggers go on the chain first", [("query", "place_triggers", triggers_in_reverse_turn_order)], (37,)),
    (
        "identical simultaneous triggers collapse",
        [("query", "place_triggers", collapse_identical_triggers)],
        ("rules-01", "rules-02"),
    ),
    (
        "a spell counts as played when it goes on the Chain",
        [("query", "add_to_chain", spells_played_when_cast), ("query", "card_played", spells_not_played_on_resolution)],
        ("rules-03", "rules-04"),
    ),
    ("a countered spell counts as played", [("procedure", "counter", countered_spells_count_as_played)], ("rules-04",)),
    (
        "nothing instead of the Final Point",
        [("procedure", "draw_instead_of_final_point", nothing_instead_of_the_final_point)],
        ("rules-05",),
    ),
    (
        "abilities ignore showdowns and closed states",
        [("query", "ability_timing", abilities_ignore_showdown_and_closed_states)],
        ("rules-06",),
    ),
    (
        "a hidden card is playable the turn it is hidden",
        [("query", "check_hidden_turn", hidden_cards_playable_at_once)],
        ("rules-07",),
    ),
    (
        "a hidden card's choices ignore its battlefield",
        [("query", "matches_target", hidden_choices_anywhere)],
        ("rules-07", "rules-08"),
    ),
    ("costs are not checked before they are offered", [("query", "cost_problem", costs_never_checked)], ("rules-09",)),
    (
        "replacement effects made by spells are forgotten",
        [("procedure", "create_lasting_replacement", lasting_replacements_forgotten)],
        ("rules-10",),
    ),
    (
        "the first replacement applies without the owner's choice",
        [("query", "would", first_replacement_without_a_choice)],
        (9, "rules-11"),
    ),
    (
        "a recycled rune adds Power of any domain",
        [("procedure", "add", recycled_runes_add_any_domain)],
        ("core-02",),
    ),
    ("a short Rune Deck channels nothing", [("procedure", "channel", channel_nothing_when_short)], ("core-04",)),
    ("Rune Pools never empty", [("procedure", "empty_rune_pools", rune_pools_never_empty)], ("core-05",)),
    (
        "any Power pays any domain's cost",
        [("query", "resource_problem", domains_ignored), ("query", "pay_resources", domains_ignored)],
        ("core-02", "core-03", "core-25", "core-30"),
    ),
    (
        "drawing from an empty Main Deck draws nothing",
        [("query", "burn_out_until_a_card", drawing_from_an_empty_deck_draws_nothing)],
        ("core-06", "core-07", "core-08"),
    ),
    (
        "Legion counts the opponent's cards",
        [("query", "condition_holds", legion_counts_every_players_cards)],
        ("core-09", "core-12"),
    ),
    (
        "an 'if' right after a trigger's condition is checked as it resolves, whatever the version (2025-12-01)",
        [("behaviour", "if_right_after_a_trigger_condition", every_version_read_as("2025-12-01"))],
        ("dispute-906",),
    ),
    (
        "an 'if' right after a trigger's condition is part of that condition, whatever the version (1.4)",
        [("behaviour", "if_right_after_a_trigger_condition", every_version_read_as("2026-06-18"))],
        ("dispute-906",),
    ),
    (
        "a countered card is never counted as played, whatever the version (2025-12-01 read everywhere)",
        [("behaviour", "cards_played_as_checked", every_version_read_as("2025-12-01"))],
        ("dispute-250",),
    ),
    (
        "a countered card is always counted as played, whatever the version (Core Rules 1.4 read everywhere)",
        [("behaviour", "cards_played_as_checked", every_version_read_as("2026-06-18"))],
        ("core-12", "dispute-20"),
    ),
    (
        "control of an empty battlefield lapses in any Cleanup, whatever the version (2025-12-01 read everywhere)",
        [("behaviour", "control_of_a_battlefield_left_empty", every_version_read_as("2025-12-01"))],
        ("dispute-67",),
    ),
    (
        "control of an empty battlefield lapses only in an Open State, whatever the version (1.4 read everywhere)",
        [("behaviour", "control_of_a_battlefield_left_empty", every_version_read_as("2026-06-18"))],
        ("dispute-251",),
    ),
    (
        "a permanent's owner chooses among replacement effects, whatever the version (2025-12-01 read everywhere)",
        [("behaviour", "replacements_ordered_by", every_version_read_as("2025-12-01"))],
        ("dispute-252",),
    ),
    (
        "a permanent's controller chooses among replacement effects, whatever the version (1.4 read everywhere)",
        [("behaviour", "replacements_ordered_by", every_version_read_as("2026-06-18"))],
        ("dispute-252",),
    ),
    (
        "an optional trigger is decided as it resolves, whatever the version (2025-12-01 read everywhere)",
        [("behaviour", "optional_trigger_decided", every_version_read_as("2025-12-01"))],
        ("dispute-401", "dispute-414", "dispute-503", "dispute-524"),
    ),
    (
        "an optional trigger is decided as it is finalized, whatever the version (Core Rules 1.4 read everywhere)",
        [("behaviour", "optional_trigger_decided", every_version_read_as("2026-06-18"))],
        ("dispute-33", "dispute-503"),
    ),
    (
        "Weaponmaster is paid or not as it resolves, whatever the version (2025-12-01 read everywhere)",
        [("behaviour", "weaponmaster_opens_with_you_may", every_version_read_as("2025-12-01"))],
        ("dispute-509", "dispute-519"),
    ),
    (
        "Weaponmaster opens with 'you may', whatever the version (Core Rules 1.4 read everywhere)",
        [("behaviour", "weaponmaster_opens_with_you_may", every_version_read_as("2026-06-18"))],
        ("core-23", "core-25"),
    ),
    (
        "a player at the Victory Score wins at once, whatever the version (2025-12-01 read everywhere)",
        [("behaviour", "victory_when", every_version_read_as("2025-12-01"))],
        ("dispute-541", "dispute-544", "dispute-69"),
    ),
    (
        "a player at the Victory Score wins only in a Cleanup, whatever the version (Core Rules 1.4 read everywhere)",
        [("behaviour", "victory_when", every_version_read_as("2026-06-18"))],
        ("dispute-541", "dispute-544"),
    ),
    (
        "a unit may be assigned more than lethal while another lacks it, whatever the version (2025-06-02 read)",
        [("behaviour", "assignment_capped_at_lethal", every_version_read_as("2025-06-02"))],
        ("dispute-542", "dispute-403"),
    ),
    (
        "combat damage is capped at lethal while another unit lacks it, whatever the version (2025-12-01 read)",
        [("behaviour", "assignment_capped_at_lethal", every_version_read_as("2025-12-01"))],
        ("dispute-542",),
    ),
    (
        "looking at an empty Main Deck burns out, whatever the version (2025-06-02 read everywhere)",
        [("behaviour", "looking_past_the_deck", every_version_read_as("2025-06-02"))],
        ("core-22",),
    ),
    (
        "looking at an empty Main Deck never burns out, whatever the version (2025-12-01 read everywhere)",
        [("behaviour", "looking_past_the_deck", every_version_read_as("2025-12-01"))],
        ("core-22",),
    ),
    (
        "control after combat is established before the Chain resolves, whatever the version (2025-12-01 read)",
        [("behaviour", "combat_result_waits_for_the_chain", every_version_read_as("2025-12-01"))],
        ("dispute-530", "dispute-616"),
    ),
    (
        "control after combat waits for the Chain to resolve, whatever the version (Core Rules 1.4 read everywhere)",
        [("behaviour", "combat_result_waits_for_the_chain", every_version_read_as("2026-06-18"))],
        ("dispute-530", "dispute-616"),
    ),
    (
        "a combat staged in an open showdown waits for it to close, whatever the version (2025-12-01 read everywhere)",
        [("behaviour", "combat_joins_open_showdown", every_version_read_as("2025-12-01"))],
        ("dispute-402",),
    ),
    (
        "a combat staged in an open showdown joins it at once, whatever the version (Core Rules 1.4 read everywhere)",
        [("behaviour", "combat_joins_open_showdown", every_version_read_as("2026-06-18"))],
        (32,),
    ),
    (
        "a battlefield stays Contested without its contester, whatever the version (2025-12-01 read everywhere)",
        [("behaviour", "contested_without_its_contester", every_version_read_as("2025-12-01"))],
        ("dispute-410", "dispute-412"),
    ),
    (
        "a battlefield's Contested status lapses with its contester's units, whatever the version (1.4 everywhere)",
        [("behaviour", "contested_without_its_contester", every_version_read_as("2026-06-18"))],
        ("dispute-410",),
    ),
    (
        "combat damage assignment ignores a prevention, whatever the version (2025-12-01 read everywhere)",
        [("behaviour", "assignment_counts_prevention", every_version_read_as("2025-12-01"))],
        ("dispute-413",),
    ),
    (
        "combat damage assignment counts a prevention, whatever the version (Core Rules 1.4 read everywhere)",
        [("behaviour", "assignment_counts_prevention", every_version_read_as("2026-06-18"))],
        ("dispute-413",),
    ),
    (
        "a two-domain card's Power is of any domain, whatever the version (2025-12-01 read everywhere)",
        [("behaviour", "multi_domain_power", every_version_read_as("2025-12-01"))],
        ("dispute-901", "dispute-905"),
    ),
    (
        "a two-domain card's Power is of its domains, whatever the version (Core Rules 1.4 read everywhere)",
        [("behaviour", "multi_domain_power", every_version_read_as("2026-06-18"))],
        ("dispute-901", "dispute-905"),
    ),
    (
        "a stunned unit recovers as the Ending Step begins, whatever the version (2025-12-01 read everywhere)",
        [("behaviour", "stun_ends", every_version_read_as("2025-12-01"))],
        ("dispute-902",),
    ),
    (
        "a stunned unit recovers in the Expiration Step, whatever the version (Core Rules 1.4 read everywhere)",
        [("behaviour", "stun_ends", every_version_read_as("2026-06-18"))],
        ("dispute-902",),
    ),
    (
        "Focus passes after the Initial Chain, whatever the version (2025-06-02 read everywhere)",
        [("behaviour", "focus_after_the_initial_chain", every_version_read_as("2025-06-02"))],
        ("dispute-903",),
    ),
    (
        "the attacker keeps Focus after the Initial Chain, whatever the version (2025-12-01 read everywhere)",
        [("behaviour", "focus_after_the_initial_chain", every_version_read_as("2025-12-01"))],
        ("dispute-903",),
    ),
    (
        "a Burn Out repeated in sequence waits for the Cleanup to win",
        [("query", "burn_out_until_a_card", a_repeated_burn_out_waits_for_the_cleanup)],
        ("dispute-544",),
    ),
    (
        "Focus passes again after a chain a Cleanup's triggers opened, whatever the version (2025-12-01 read)",
        [("behaviour", "focus_after_a_reopened_chain", every_version_read_as("2025-12-01"))],
        ("dispute-545", "dispute-521"),
    ),
    (
        "Focus passes once after a chain a Cleanup's triggers reopened, whatever the version (1.4 read)",
        [("behaviour", "focus_after_a_reopened_chain", every_version_read_as("2026-06-18"))],
        ("dispute-545", "dispute-521", 12, 19),
    ),
    (
        "a passive's limit is snapshotted, whatever the version (2025-12-01 read everywhere)",
        [("behaviour", "passive_limit_snapshotted", every_version_read_as("2025-12-01"))],
        ("dispute-546",),
    ),
    (
        "a passive's limit is recomputed, whatever the version (Core Rules 1.4 read everywhere)",
        [("behaviour", "passive_limit_snapshotted", every_version_read_as("2026-06-18"))],
        ("dispute-546",),
    ),
    (
        "a Cleanup kills for lethal damage before it updates designations, whatever the version (2025-12-01 read)",
        [("behaviour", "designations_before_lethal", every_version_read_as("2025-12-01"))],
        ("dispute-543",),
    ),
    (
        "a Cleanup updates designations before it kills for lethal damage, whatever the version (1.4 read)",
        [("behaviour", "designations_before_lethal", every_version_read_as("2026-06-18"))],
        ("dispute-543",),
    ),
    (
        "an instruction acts on an object that has ceased to exist",
        [("query", "still_there", acts_on_whatever_it_names)],
        ("dispute-904",),
    ),
    (
        "an instruction on a vanished object is ignored, whatever the version (2025-12-01 read everywhere)",
        [("behaviour", "instruction_on_a_vanished_object", every_version_read_as("2025-12-01"))],
        ("dispute-904",),
    ),
    (
        "an instruction on a vanished object is negated, whatever the version (Vendetta FAQ read everywhere)",
        [("behaviour", "instruction_on_a_vanished_object", every_version_read_as("2026-06-18"))],
        ("dispute-904",),
    ),
    ("Deflect taxes its controller too", [("query", "deflect_cost", deflect_taxes_everyone)], ("core-14",)),
    (
        "Deflect is paid once per spell, whatever the version (2025-12-01 read everywhere)",
        [("behaviour", "deflect_charged", every_version_read_as("2025-12-01"))],
        ("dispute-311",),
    ),
    (
        "Deflect is paid for each choice, whatever the version (Core Rules 1.4 read everywhere)",
        [("behaviour", "deflect_charged", every_version_read_as("2026-06-18"))],
        ("dispute-04", "dispute-311"),
    ),
    ("Temporary kills on every turn", [("keyword", "Temporary", temporary_on_every_turn)], ("core-18",)),
    ("instances of Vision trigger once", [("keyword", "Vision", vision_triggers_once)], ("core-21",)),
    ("Quick-Draw gives no Reaction", [("keyword", "Quick-Draw", quick_draw_without_reaction)], ("core-26",)),
    (
        "Weaponmaster reduces a domain's Power",
        [("query", "weaponmaster_cost", weaponmaster_reduces_any_power)],
        ("core-23",),
    ),
    (
        "a Repeat reuses the first choices",
        [("query", "repeat_execution", repeat_reuses_the_first_choices)],
        ("core-28",),
    ),
    (
        "a triggered ability's choice pays no Deflect",
        [("query", "pays_for_its_choices", triggered_abilities_choose_deflect_for_free)],
        ("core-45",),
    ),
    (
        "a delayed ability at the end of this turn happens at once",
        [("procedure", "create_delayed", delayed_abilities_fire_at_once)],
        ("core-31", "core-46"),
    ),
    (
        "an ability whose source left the board still has a place",
        [("query", "source_gone", a_gone_source_keeps_its_place)],
        ("dispute-02", "dispute-44"),
    ),
    (
        "an ability whose source left the board targets where it triggered",
        [("query", "targeting_of", a_gone_sources_here_is_where_it_triggered)],
        ("dispute-44",),
    ),
    (
        "a Deathknell deals the Might of the card in the trash",
        [("query", "amount", deathknells_deal_the_might_in_the_trash)],
        ("dispute-45",),
    ),
    ("a Deathknell has no place", [("query", "source_gone", deathknells_have_no_place)], ("dispute-45", "dispute-49")),
    (
        "an executing item's here is its source's location now",
        [("query", "resolution", effects_read_here_from_the_source_as_it_is_now)],
        ("dispute-49",),
    ),
    (
        "a unit banished and played again is the same object",
        [("query", "source_gone", a_source_played_again_is_the_same_object)],
        ("dispute-47", "dispute-48"),
    ),
    ("Mighty means more than 5 Might", [("query", "is_mighty", mighty_above_five)], ("dispute-46",)),
    ("a unit off the board keeps its Might", [("query", "amount", a_gone_unit_keeps_its_might)], ("dispute-03",)),
    (
        "showdowns only at uncontrolled battlefields",
        [("query", "wanted_stage", showdowns_only_at_uncontrolled_battlefields)],
        ("dispute-14",),
    ),
    (
        "a Deathknell reads the card in the trash",
        [("query", "condition_holds", deathknells_read_the_trash)],
        ("dispute-30",),
    ),
    (
        "an ability's here is where it triggered",
        [("query", "targeting_of", here_is_where_it_triggered)],
        ("dispute-42",),
    ),
    (
        "control taken until end of turn is never returned",
        [("procedure", "return_control", control_taken_until_end_of_turn_stays)],
        ("core-31",),
    ),
    (
        "the first player at the Victory Score wins a tie",
        [("query", "victor", the_first_player_at_the_victory_score_wins)],
        ("dispute-50", "dispute-69"),
    ),
    (
        "a short Main Deck put into the trash never burns out",
        [("procedure", "trash_from_deck", a_short_deck_put_into_the_trash_never_burns_out)],
        ("dispute-59",),
    ),
    (
        "died alone is read as the Deathknell resolves",
        [("query", "condition_holds", alone_read_as_the_deathknell_resolves)],
        ("dispute-60",),
    ),
    (
        "control lapses while the Chain exists",
        [("query", "control_can_lapse", control_lapses_while_the_chain_exists)],
        ("dispute-67",),
    ),
    (
        "a token goes to the trash like a card",
        [("query", "leave_board", tokens_go_to_the_trash_like_cards)],
        ("dispute-51",),
    ),
    (
        "a spell's cost limit reads only its Energy",
        [("query", "matches_target", a_spells_cost_limit_reads_only_its_energy)],
        ("dispute-111",),
    ),
    (
        "a unit assigned combat damage last is assigned like any other",
        [("query", "assigned_last", assigned_last_ignored)],
        ("dispute-201",),
    ),
    (
        "a Discretionary Action is taken in a showdown's Open State",
        [("query", "check_discretionary", discretionary_actions_in_a_showdown)],
        ("dispute-209",),
    ),
    (
        "the Final Point is at stake only at one point below the Victory Score (2025-12-01 read everywhere)",
        [("behaviour", "final_point_from", every_version_read_as("2025-12-01"))],
        ("dispute-301",),
    ),
    (
        "the Final Point is at stake from one point below the Victory Score up (Core Rules 1.4 read everywhere)",
        [("behaviour", "final_point_from", every_version_read_as("2026-06-18"))],
        ("dispute-301",),
    ),
    (
        "units killed together die one by one",
        [("query", "kill_all", units_killed_together_die_one_by_one)],
        ("dispute-302",),
    ),
    (
        "a hidden gear is played only to base",
        [("query", "check_play_location", hidden_gear_is_played_only_to_base)],
        ("dispute-310",),
    ),
    (
        '"spend my buff" spends any friendly buff',
        [("query", "buffs_to_spend", my_buff_read_as_any_buff)],
        ("dispute-312",),
    ),
    (
        "under Core Rules 1.4 a Legion card's own play satisfies its Legion",
        [("query", "condition_holds", legion_counts_its_own_play)],
        ("dispute-451",),
    ),
    (
        "the cards Finalized are still counted after the turn ends",
        [("procedure", "expire", finalized_count_kept)],
        ("dispute-452",),
    ),
    (
        "a unit played by an effect is not counted as Finalized",
        [("procedure", "play_by_effect", finalized_count_kept)],
        ("dispute-453",),
    ),
    (
        "a setup's cards played this turn are not counted as Finalized",
        [("setup", "build", finalized_count_not_set_up)],
        ("dispute-451",),
    ),
]


def mutate(monkeypatch, changes) -> None:
    for registry, name, mutation in changes:
        if registry == "procedure":
            procedure = kernel.PROCEDURES[name]
            monkeypatch.setitem(kernel.PROCEDURES, name, dataclasses.replace(procedure, fn=mutation(procedure.fn)))
        elif registry == "keyword":  # a keyword's reading of its glossary entry (kernel.keyword_ability)
            monkeypatch.setitem(kernel.KEYWORD_ABILITIES, name, mutation(kernel.KEYWORD_ABILITIES[name]))
        elif registry == "setup":  # how a game is built from a scenario's setup
            monkeypatch.setattr(state, "build", mutation(state.build))
        elif registry == "behaviour":  # a behaviour the versions disagree on (scenarios/versions.py)
            monkeypatch.setitem(versions.BEHAVIOURS, name, mutation(versions.BEHAVIOURS[name]))
        else:
            monkeypatch.setitem(kernel.QUERIES, name, mutation(kernel.QUERIES[name]))


def verdicts(positions) -> dict[str, str]:
    """Every scenario and variant of the given rulings, with its verdict."""
    found = {}
    for path in paths(*positions):
        found[path.name] = replay_file(path).verdict
        for variant in schema.load(path)[0].variants:
            found[f"{path.name}:{variant.id}"] = replay_variant(path, variant.id).verdict
    return found


@pytest.mark.parametrize("name,changes,positions", MUTANTS, ids=[m[0] for m in MUTANTS])
def test_the_library_kills_the_mutant(monkeypatch, name, changes, positions):
    assert set(verdicts(positions).values()) == {"match"}
    mutate(monkeypatch, changes)
    after = verdicts(positions)
    assert "mismatch" in after.values(), f"mutant '{name}' survived: {after}"
