"""Playing a card an effect instructs (419.3) from the trash or the hand, ignoring its cost (356.1.b.1) or only
its Energy cost (356.1.b.2: its Power cost is still paid): "Play a unit from your trash, ignoring its Energy
cost", "You may play a unit costing no more than [3] and no more than [A] from your trash, ignoring its cost",
"Play a unit from your hand to your base, ignoring its Energy cost".

`{op: play_from, zone: trash|hand, ignoring: cost|energy, max_energy: N, max_power: N, optional: true,
to: base}`: on resolution (355.17) its controller chooses a unit in that zone of theirs whose printed costs are
within the limits and whose cost left to pay they can pay (357.1; none when it is optional, or when no unit can
be played: 055), and where it enters (`to`, else 355.2.a: their base or a battlefield they control; 355.2.b: one
it may be played to). It is played as a card played by an effect (`playing.play_by_effect`): its additional
costs are still offered (356.1.b.3).
"""

from __future__ import annotations

from scenarios.game import Game
from scenarios.kernel import Refusal, calc, choose, do, instruction, query
from scenarios.objects import Kind, Zone

NONE = "none"


def _playable(game: Game, player: str, ins) -> list[str]:
    zone = Zone.HAND if ins.get("zone") == "hand" else Zone.TRASH
    found = []
    for card in game.objects.values():
        definition = card.definition
        if card.zone != zone or card.owner != player or card.kind != Kind.UNIT or definition is None:
            continue
        if definition.energy > ins.get("max_energy", definition.energy):
            continue
        if definition.power > ins.get("max_power", definition.power):
            continue
        if ins.get("ignoring") == "energy":  # 356.1.b.2: its Power cost is still paid
            power = calc.printed_cost(game, definition).model_copy(update={"energy": 0})
            if calc.resource_problem(game, player, power) is not None:
                continue
        found.append(card.id)
    return sorted(found)


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
    playable = _playable(game, player, ins)
    if not playable:
        calc.impossible(game, run, f"no unit in the {ins.get('zone', 'trash')} can be played this way", "419.3")
        return
    options = [*playable, NONE] if ins.get("optional") else playable
    prompt = f"{run.item.label}: unit to play from the {ins.get('zone', 'trash')}"
    pick = choose(game, "play_from", player, prompt, options, "355.17")
    if pick == NONE:
        return
    unit = game.objects[pick]
    places = [ins["to"]] if ins.get("to") else _locations(game, player, unit)
    place = choose(game, "location", player, f"where {pick} enters", places, "355.2.a")
    ignoring = "energy" if ins.get("ignoring") == "energy" else "cost"
    do.play_by_effect(game, unit, player, place, run.item.label, ignoring, because=run.because)


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
    return choose(
        game, "location", player, f"where {unit.id} enters", places, "355.2.b" if to != "choose" else "355.2.a"
    )
