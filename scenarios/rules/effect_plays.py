"""Playing a card an effect instructs (419.3) from the trash or the hand, ignoring its cost (356.1.b.1) or only
its Energy cost (356.1.b.2: its Power cost is still paid), for a cost in place of its own (356.1.a) or paying it
(357.1): "Play a unit from your trash, ignoring its Energy cost", "You may play a unit costing no more than [3] and
no more than [A] from your trash, ignoring its cost", "you may pay [1][C] to play me from your trash".

`{op: play_from, what: <slot>|this, ignoring: cost|energy, for: <cost>, to: base, then: recycle, no_more_than:
killed}`: the card is chosen as the spell or ability is finalized, a target (355.5; the Heedless Resurrection FAQ:
"a unit from your trash" must be there when chosen), in the `zone` `trash` with its printed cost limits
(`max_cost`, `max_power`, `cost_below`); `this`: the card itself, still in its trash. With neither `ignoring` nor
`for` its whole cost is paid. On resolution a unit or gear is played where its player chooses (`to`, else
355.2.a: their base or a battlefield they control; 355.2.b: one it may be played to), as a card played by an
effect (`playing.play_by_effect`): its additional costs are still offered (356.1.b.3). A spell is played through
the steps of any play (`playing.play_spell_by_effect`, 419.3.b: its targets chosen then; `then: recycle`, "Then recycle
it", 390.3.a). A card whose cost can't be paid is not played (055); `no_more_than: killed`: nor one costing more
than "the killed unit" (356.1.c).

`effect_playable` / `play_by_instruction`: whether a card of any type may be played as an instruction says, and
playing it (the looks of `looking.py`, `off_board`'s plays from the hand).
"""

from __future__ import annotations

from scenarios.cards import Cost
from scenarios.game import Game
from scenarios.kernel import Refusal, calc, choose, do, instruction, note, query
from scenarios.objects import TRASH, Kind, Targeting
from scenarios.trace import StepKind


def _locations(game: Game, player: str, unit) -> list[str]:
    places = []
    for place in ["base", *(b.id for b in game.battlefields())]:
        try:
            calc.check_play_location(game, player, unit, place, None)
        except Refusal:
            continue
        places.append(place)
    return places


@instruction("play_from")
def op_play_from(game: Game, run, ins) -> None:
    player = run.item.controller
    for unit_id in calc.refs(game, run, ins["what"]):
        unit = game.objects[unit_id]
        if ins["what"] == "this" and unit.zone != TRASH:  # "play me from your trash": gone from it, nothing (419.3.c)
            calc.impossible(game, run, f"{unit_id} is no longer in the trash to be played from it", "419.3.c")
            continue
        if ins.get("no_more_than") == "killed" and not _no_more_than_killed(game, run, unit):
            continue
        ignoring = ins.get("ignoring", "for" if "for" in ins else "paid")
        paid = None if ignoring == "cost" else _base(game, unit, ignoring, _for_cost(ins))
        if paid is not None:  # what is still paid of it (356.1.a, 356.1.b.2, 357.1), with changes to it (356.3-356.4)
            total = calc.total_cost(game, unit, player, paid, False, 0, [])
            problem = calc.resource_problem(game, player, total)
            if problem is not None:
                rule = {"energy": "356.1.b.2", "for": "356.1.a"}.get(ignoring, "357.1")
                calc.impossible(game, run, f"{unit_id}'s cost can't be paid: {problem.message}", rule)
                continue
        if unit.kind == Kind.SPELL:
            calc.play_spell_by_effect(game, run, unit, player, paid or Cost(), ins.get("then"))
            continue
        to = ins.get("to", "choose")
        hidden = run.item.hidden_at is not None and to == "choose"
        place = hidden_play_location(game, run.item) if hidden else play_location(game, unit, player, to, None)
        do.play_by_effect(game, unit, player, place, run.item.label, ignoring, False, paid, because=run.because)


@query("effect_playable")
def effect_playable(game: Game, run, card, how) -> bool:
    """Can `card` be played as the instruction `how` says (419.3.c: a card that can't is not eligible): a unit or
    gear it can pay for and place (`off_board.unit_playable`), a spell it can pay for (`ignoring`, `reduce`) with
    a legal choice for each slot it must fill (355.9)."""
    player = run.item.controller
    if card.kind != Kind.SPELL:
        return calc.unit_playable(game, player, card, how) is not None
    definition = card.definition
    base = _base(game, card, how.get("ignoring", "paid"), None)
    cost = calc.total_cost(game, card, player, base, False, 0, []).less(energy=how.get("reduce", 0))
    if calc.resource_problem(game, player, cost) or calc.additional_cost_problem(game, card, player):
        return False
    context = Targeting(definition.name, player, card.id, None, None, {})
    return all(
        spec.optional or spec.any_number or spec.mode is not None or calc.legal_targets(game, spec, context)
        for spec in definition.targets.values()
    )


@query("play_by_instruction")
def play_by_instruction(game: Game, run, card, how) -> None:
    """Play `card` as the instruction `how` says (419.3), when `effect_playable` says it may be: a spell through
    `playing.play_spell_by_effect`; a unit or gear where it may go (`off_board.play_unit`), and a unit "here" too when the
    instruction permits it ("If it is a unit, you may play it here": 355.2.b), or only there (`unit_to: here`:
    "If it's a unit, play it here")."""
    player = run.item.controller
    if not effect_playable(game, run, card, how):  # "if the card can't be played for any reason, it just stays
        # banished" (Origins FAQ): the play is undone, the card stays where the instruction put it (358.2, 358.5)
        calc.impossible(game, run, f"{card.id} can't be played: it stays where it is", "358.5")
        return
    if card.kind == Kind.SPELL:
        base = _base(game, card, how.get("ignoring", "paid"), None)
        calc.play_spell_by_effect(game, run, card, player, base, how.get("then"), how.get("reduce", 0))
        return
    cost, places = calc.unit_playable(game, player, card, how)
    here = calc.targeting_of(game, run.item).here
    if card.kind == Kind.UNIT and game.is_battlefield(here):
        if how.get("unit_to") == "here":  # "If it's a unit, play it here": there, permitted (355.2.b)
            places = [here]
        elif how.get("here") and here not in places:
            places = [*places, here]
    calc.play_unit(game, run, card, cost, how, places)


def _no_more_than_killed(game: Game, run, card) -> bool:
    """ "A unit ... that costs no more Energy and no more Power than the killed unit": printed costs compared
    (356.1.c), the killed unit's as it was (359.3.e.13); with none killed, no cost to compare: not played
    (359.3.e.12)."""
    killed = [game.objects[i] for i in run.legal.get("killed", ())]
    if not killed:
        calc.impossible(game, run, "no unit was killed: no cost to compare", "359.3.e.12")
        return False
    mine, theirs = card.definition, killed[0].definition
    if mine.energy > theirs.energy or mine.power > theirs.power:
        said = (
            f"{card.id} ({mine.energy}, {mine.power}) costs more than {killed[0].id} ({theirs.energy}, {theirs.power})"
        )
        calc.impossible(game, run, said, "356.1.c")
        return False
    return True


def _for_cost(ins) -> Cost | None:
    return Cost.model_validate(ins["for"]) if "for" in ins else None


def _base(game: Game, unit, ignoring: str, base: Cost | None) -> Cost:
    """The base cost of a card an effect plays (356.1): zero "ignoring its cost" (356.1.b.1); its Power cost alone
    "ignoring its Energy cost" (356.1.b.2); the cost named "for [cost]" in place of its own (356.1.a); its printed
    cost when the effect changes nothing (357.1)."""
    if ignoring == "energy":
        return calc.printed_cost(game, unit.definition).model_copy(update={"energy": 0})
    if ignoring == "for" and base is not None:
        return base
    if ignoring == "paid":
        return calc.printed_cost(game, unit.definition)
    return Cost()


@query("hidden_play_location")
def hidden_play_location(game: Game, item) -> str:
    """Where a unit a hidden spell or a hidden permanent's play effect plays must enter: the battlefield it was hidden
    at (811.1.d.3)."""
    note(
        game,
        StepKind.EFFECT,
        "hidden",
        f"{item.label}: played from hidden at {item.hidden_at}, the unit it plays enters there",
        "811.1.d.3",
    )
    return item.hidden_at


@query("play_location")
def play_location(game: Game, unit, player: str, to: str, was_at: str | None) -> str:
    """Where a unit an effect plays enters: "to their base"; "to the same location" it was at (a permission,
    355.2.b); "to any battlefield" (a permission, 355.2.b: the player's choice of them all); else, "plays it", where
    its player chooses among its valid locations (355.2.a)."""
    if to == "same" and was_at is not None:
        return was_at
    if to == "any battlefield":
        places = [b.id for b in game.battlefields()]
    elif to == "choose":
        places = _locations(game, player, unit)
    else:
        return "base"
    rule = "355.2.b" if to != "choose" else "355.2.a"
    return choose(game, "location", player, f"where {unit.id} enters", places, rule)
