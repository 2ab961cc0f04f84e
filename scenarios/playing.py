"""Playing cards 346-356 and activated abilities 369-374, 386-394: timing, targets, costs, entering the board."""

from __future__ import annotations

from scenarios import chain, cleanups, control, targeting, triggers
from scenarios.choices import ask
from scenarios.state import Refusal
from scenarios.trace import procedure


def check_timing(game, player: str, definition, facedown: bool) -> None:
    if game.priority != player:
        raise Refusal("312.1", f"{player} does not have Priority")
    reaction = "Reaction" in definition.keywords or facedown  # 737.6: hidden cards gain Reaction
    action = "Action" in definition.keywords or reaction
    if game.chain and not reaction:
        raise Refusal("330.1.a", f"{definition.name} can't be played while the Chain exists (needs Reaction, 739)")
    if game.showdown and not game.chain and not action:
        raise Refusal("339.1.a", f"{definition.name} can't be played during a showdown (needs Action, 732)")
    if not game.showdown and not game.chain and player != game.turn_player:
        raise Refusal("310.1.a", "only the turn player plays cards in a Neutral Open State")


def pay(game, player: str, energy: int, power: int, rule: str = "354.1") -> None:
    pool = game.players[player]
    if pool.energy < energy or pool.power < power:
        raise Refusal(
            rule, f"{player} can't pay {energy} energy and {power} power (has {pool.energy} and {pool.power})"
        )
    pool.energy -= energy
    pool.power -= power


@procedure(
    "action",
    "346",
    "350",
    summary=lambda g, a: (
        f"{a['by']} plays {a['card']} ({g.obj(a['card']).card})"
        + (
            " choosing " + ", ".join(f"{slot}={value}" for slot, value in a["targets"].items())
            if a.get("targets")
            else ""
        )
        + (f" at {a['at']}" if a.get("at") else "")
    ),
    objects=lambda g, a: [a["card"]],
)
def play_card(game, action: dict):
    player, card = action["by"], game.obj(action["card"])
    if card.owner != player or card.zone not in ("hand", "facedown"):
        raise Refusal("351", f"{card.id} is not a card {player} can play from hand or facedown")
    facedown = card.zone == "facedown"
    definition = card.definition
    check_timing(game, player, definition, facedown)
    energy, power = (0, 0) if facedown else (definition.energy, definition.power)  # 737.1.b: hidden for [0]
    if action.get("accelerate"):
        if not definition.has("Accelerate"):
            raise Refusal("731.1", f"{card.id} has no Accelerate")
        energy, power = energy + 1, power + 1
    if definition.type == "unit":
        location = action.get("at", "base")
        if facedown and location != card.location:
            raise Refusal("737.1.d.1", f"a hidden unit must be played to {card.location}")
        _check_unit_location(game, player, location)
        pay(game, player, energy, power)
        _count_card_played(game, player)
        yield from enter_board(
            game, card, player, location, ready=bool(action.get("accelerate")) or definition.enters_ready, via="play"
        )
        yield from cleanups.cleanup(game, reason=f"{card.id} entered the board (319.5)")
        return
    item = {
        "label": definition.name,
        "controller": player,
        "source": card.id,
        "targets": {},
        "context": {"location": card.location if facedown else None},
    }
    chosen = targeting.choose(game, definition.targets, action.get("targets", {}), item)
    pay(game, player, energy, power)
    _count_card_played(game, player)
    card.zone = "chain"
    card.location = None
    chain.add_item(
        game,
        definition.name,
        "spell",
        card.id,
        player,
        definition.effects,
        target_specs=definition.targets,
        targets=chosen,
        card_obj=card.id,
    )
    for refs in chosen.values():
        for ref in refs:
            if isinstance(ref, list) and game.obj(ref[0]).kind == "unit":
                triggers.fire(game, "choose", player=player, unit=ref[0], with_spell=True)
    yield from cleanups.cleanup(game, reason="a pending item became a legal item (319.3)")
    chain.give_priority_to_newest(game)


def _count_card_played(game, player: str) -> None:
    """For "when you play your Nth card in a turn" (376.1, "the [Nth] time")."""
    game.players[player].cards_played_this_turn += 1
    triggers.fire(game, "card_played", player=player, count=game.players[player].cards_played_this_turn)


def _check_unit_location(game, player: str, location: str) -> None:
    if location == "base":
        return
    if not game.is_battlefield(location) or game.obj(location).battlefield_controller != player:
        raise Refusal(
            "352.2.a", f"units are played to their controller's base or a battlefield they control, not {location}"
        )


@procedure(
    "effect",
    "356.2",
    "356.2.c",
    summary=lambda g, unit, player, location, ready, via: (
        f"{unit.id} enters the board at {location} " + ("ready" if ready else "exhausted")
    ),
    objects=lambda g, unit, *a, **k: [unit.id],
    cite=lambda g, unit, player, location, ready, via: ["731.6"] if ready else [],
)
def enter_board(game, unit, player: str, location: str, ready: bool, via: str):
    """356.2: a permanent leaves the Chain and becomes a game object; a unit enters exhausted (356.2.c)."""
    unit.zone, unit.location, unit.controller = "board", location, player
    unit.exhausted = not ready
    unit.damage, unit.buffs, unit.modifiers, unit.granted = 0, 0, [], []
    unit.designation, unit.stunned, unit.moves_this_turn = None, False, 0
    unit.triggered_in_combat = []
    unit.timestamp = game.tick()
    if game.is_battlefield(location):
        control.contest(game, game.obj(location), player, rule="184.3.a.1")
    triggers.fire(game, "play", unit=unit.id, player=player, location=location)  # 376.4.a.2
    yield from ()


@procedure(
    "effect",
    "406.3",
    "353.1.a",
    summary=lambda g, unit, player, location, source: (
        f"{source}: {player} plays {unit.id} to {location}, ignoring its cost"
    ),
    objects=lambda g, unit, *a, **k: [unit.id],
)
def play_by_effect(game, unit, player: str, location: str, source: str):
    definition = unit.definition
    ready = definition.enters_ready
    if definition.has("Accelerate"):
        pool = game.players[player]
        options = ["pay", "decline"] if pool.energy >= 1 and pool.power >= 1 else ["decline"]
        answer = yield from ask(
            game,
            "accelerate",
            player,
            f"pay Accelerate for {unit.id} (an optional additional cost, still paid when the cost is ignored)",
            options,
            "731.2",
            forced_ok=False,
        )
        if answer == "pay":
            pay(game, player, 1, 1, rule="353.1.c")
            ready = True
    yield from enter_board(game, unit, player, location, ready=ready, via=source)


@procedure(
    "action",
    "369",
    "370",
    "374",
    summary=lambda g, a: f"{a['by']} activates {a['source']}",
    objects=lambda g, a: [a["source"]],
)
def activate(game, action: dict):
    player, source = action["by"], game.obj(action["source"])
    abilities = source.definition.activated
    if not 0 <= action.get("ability", 0) < len(abilities):
        raise Refusal("370.1", f"{source.card} has no activated ability number {action.get('ability', 0)}")
    ability = abilities[action.get("ability", 0)]
    if source.controller != player or source.zone != "board":
        raise Refusal("371", f"{player} does not control {source.id}")
    if player != game.turn_player or game.chain or game.priority != player:
        raise Refusal("374", "activated abilities are used on their controller's turn, in an Open State, with Priority")
    if ability.only_unattached and source.attached_to:
        raise Refusal(
            "421.1.e",
            f"{source.card}'s ability can be used only while unattached (its rules text is inactive while attached)",
        )
    label = ability.label or f"{source.card} ability"
    chosen = targeting.choose(
        game,
        ability.targets,
        action.get("targets", {}),
        {"label": label, "controller": player, "source": source.id, "targets": {}, "context": {}},
    )
    pay(game, player, ability.cost.get("energy", 0), ability.cost.get("power", 0), rule="392.1")
    item = chain.add_item(
        game, label, "ability", source.id, player, ability.effects, target_specs=ability.targets, targets=chosen
    )
    if ability.cost.get("banish_self"):
        from scenarios import damage

        damage.banish(game, source.id, None)
    yield from cleanups.cleanup(game, reason="an ability was activated (319.3)")
    if item in game.chain:
        chain.give_priority_to_newest(game)
