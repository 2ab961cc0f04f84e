"""Playing cards 346-356 and 406, hiding cards 408 and 737: timing, targets, costs, entering the board.

A card is played when the process is complete (347.1): a permanent when it enters the board (356.2), a spell
when it resolves (356.3.d; a countered spell is not played, 406.4.b). "When you play a card" abilities trigger
then (406.4.a), with the count of cards played this turn as of that moment.

A card hidden facedown (737) can be played from the next turn on, for [0], with Reaction timing (737.6); its
choices are restricted to the battlefield where it was hidden (737.1.d).
"""

from __future__ import annotations

import itertools

from scenarios.actions import Hide, Play
from scenarios.cards import Cost
from scenarios.kernel import Refusal, action, calc, choose, do, event_kind, instruction, procedure, query
from scenarios.objects import ChainItem, Event, ItemKind, Kind, Targeting, Zone
from scenarios.trace import StepKind

event_kind("play", "376.4.a", would="be played")


@query("play_timing")
def check_timing(game, player: str, card, facedown: bool) -> None:
    """When a card may be played (310.1.a, 330.1.a, 339.1.a; Action 732, Reaction 739, hidden 737.6)."""
    if game.priority != player:
        raise Refusal("312.1", f"{player} does not have Priority")
    name = card.definition.name
    reaction = calc.has_keyword(game, card, "Reaction") or facedown  # 737.6: a hidden card gains Reaction
    permitted_in_showdown = calc.has_keyword(game, card, "Action") or reaction  # 739.1.b: Reaction grants Action's
    if game.chain and not reaction:
        raise Refusal("330.1.a", f"{name} can't be played while the Chain exists: it needs Reaction", ("739",))
    if game.showdown and not game.chain and not permitted_in_showdown:
        raise Refusal("339.1.a", f"{name} can't be played during a showdown: it needs Action", ("732",))
    if not game.showdown and not game.chain and player != game.turn_player:
        raise Refusal("310.1.a", "only the turn player plays cards in a Neutral Open State")


def _played(game, act: Play) -> str:
    text = f"{act.by} plays {act.card} ({game.obj(act.card).card})"
    if act.targets:
        text += " choosing " + ", ".join(f"{slot}={value}" for slot, value in act.targets.items())
    return text + (f" at {act.at}" if act.at else "")


def play_candidates(game, player: str):
    for card in game.objects.values():
        if card.owner != player or card.zone not in (Zone.HAND, Zone.FACEDOWN):
            continue
        definition = card.definition
        hidden_at = card.location if card.zone == Zone.FACEDOWN else None
        accelerations = (False, True) if definition.has("Accelerate") else (False,)
        if definition.object_kind in ("unit", "gear"):
            places = [hidden_at] if hidden_at else ["base"]
            if definition.object_kind == "unit" and not hidden_at:
                places += [b.id for b in game.battlefields() if b.battlefield_controller == player]
            for place, fast in itertools.product(places, accelerations):
                yield Play(by=player, card=card.id, at=None if place == "base" else place, accelerate=fast)
            continue
        context = Targeting(definition.name, player, card.id, hidden_at, hidden_at)
        for targets in calc.target_choices(game, definition.targets, context):
            yield Play(by=player, card=card.id, targets=targets)
            for paid in range(1, len(definition.repeat) + 1):  # Repeat paid, the same choices again (746.2)
                yield Play(by=player, card=card.id, targets=targets, repeat=paid, repeat_targets=(targets,) * paid)


@action("play", Play, because=("406.1", "350"), candidates=play_candidates)
@procedure("play_card", StepKind.ACTION, defines=("346",), summary=_played, objects=lambda g, a: [a.card])
def play_card(game, act: Play) -> None:
    player, card = act.by, game.obj(act.card)
    if card.owner != player or card.zone not in (Zone.HAND, Zone.FACEDOWN):
        raise Refusal("351", f"{card.id} is not a card {player} can play from hand or facedown")
    facedown = card.zone == Zone.FACEDOWN
    if facedown:
        calc.check_hidden_turn(game, card)
    definition = card.definition
    calc.play_timing(game, player, card, facedown)
    if act.accelerate and not definition.has("Accelerate"):
        raise Refusal("731.1", f"{card.id} has no Accelerate")
    hidden_at = card.location if facedown else None
    if definition.object_kind in ("unit", "gear"):
        location = act.at or "base"
        if act.targets:
            raise Refusal(
                "352.4.b", f"{card.id} chooses no targets as it is played (its abilities choose when they trigger)"
            )
        if facedown and location != hidden_at:
            raise Refusal("737.1.d.1", f"a hidden permanent must be played to {hidden_at}, where it was hidden")
        calc.check_play_location(game, player, location, definition.object_kind, hidden_at)
        if act.repeat:
            raise Refusal("746.1.a", f"{card.id} is not a spell: Repeat is present on spells")
        # 737.1.b: a hidden card is played ignoring its base cost
        cost = calc.total_cost(game, card, player, facedown, act.accelerate, 0, [])
        calc.pay_resources(game, player, cost)
        card_finalized(game, card, player)
        card.location = None
        do.enter_board(
            game, card, player, location, bool(act.accelerate) or definition.enters_ready, hidden_at, because="356"
        )
        calc.card_played(game, card, player)
        calc.cleanup(game, f"{card.id} entered the board", "319.5")
        calc.settle_priority(game)
        return
    context = Targeting(definition.name, player, card.id, hidden_at, hidden_at)
    chosen = calc.choose_targets(game, tuple(definition.targets.items()), dict(act.targets), context)
    repeated = calc.repeat_choices(game, card, act, context)
    every_choice = [chosen, *repeated]
    cost = calc.total_cost(game, card, player, facedown, act.accelerate, act.repeat, every_choice)
    calc.pay_resources(game, player, cost)
    card.zone, card.location = Zone.CHAIN, None
    item = ChainItem(
        game.new_id("item"),
        definition.name,
        ItemKind.SPELL,
        card.id,
        player,
        effects=tuple(definition.effects),
        target_specs=tuple(definition.targets.items()),
        targets=chosen,
        card=card.id,
        location=hidden_at,
        hidden_at=hidden_at,
        repeat=act.repeat,
        repeat_targets=tuple(repeated),
    )
    calc.put_chosen_on_chain(game, item, "spell")
    card_finalized(game, card, player)
    calc.cleanup(game, f"{definition.name} was put on the Chain", "319.3")
    calc.give_priority_to_newest(game)


@query("check_hidden_turn")
def check_hidden_turn(game, card) -> None:
    """737.1.b: a hidden card may be played "beginning on the next turn"."""
    if card.hidden_turn == game.turn_number:
        raise Refusal("737.1.b", f"{card.id} was hidden this turn: it can be played from the next turn on")


@query("check_play_location")
def check_play_location(game, player: str, location: str, kind: str, hidden_at: str | None) -> None:
    """352.2.a: a permanent is played to its controller's base, a unit also to a battlefield they control; a
    hidden permanent, gear included, where it was hidden (811.1.d.1.a in Core Rules 1.4)."""
    if location == "base" or (hidden_at is not None and location == hidden_at):
        return
    if kind != "unit" or not game.is_battlefield(location) or game.objects[location].battlefield_controller != player:
        raise Refusal(
            "352.2.a", f"units are played to their controller's base or a battlefield they control, not {location}"
        )


@procedure(
    "enter_board",
    StepKind.EFFECT,
    summary=lambda g, card, player, location, ready, hidden_at: (
        f"{card.id} enters the board at {location} " + ("ready" if ready or card.kind != Kind.UNIT else "exhausted")
    ),
    objects=lambda g, card, *a: [card.id],
    cite=lambda g, card, player, location, ready, hidden_at: (
        (["356.2.c"] if card.kind == Kind.UNIT else ["356.2.d"])
        + (["731.6"] if ready and card.kind == Kind.UNIT else [])
    ),
)
def enter_board(game, card, player: str, location: str, ready: bool, hidden_at: str | None) -> None:
    """356.2: a permanent becomes a game object; a unit enters exhausted (356.2.c) unless it enters ready."""
    card.zone, card.location, card.controller = Zone.BOARD, location, player
    card.exhausted = not ready if card.kind == Kind.UNIT else False
    card.damage, card.buffs, card.modifiers, card.granted = 0, 0, (), ()
    card.designation, card.stunned, card.moves_this_turn = None, False, 0
    card.triggered_in_combat = ()
    card.hidden_turn = None
    card.timestamp = game.tick()
    if game.is_battlefield(location):
        calc.contest(game, game.objects[location], player, "184.3.a.1")
    calc.fire(game, Event("play", unit=card.id, player=player, location=location, card=card.id, hidden_at=hidden_at))


def card_finalized(game, card, player: str) -> None:
    """Its costs paid and its choices made, the card's play is Finalized (337, 419.4.b in Core Rules 1.4): a
    countered card was Finalized too, though it was never played."""
    pool = game.players[player]
    pool.cards_finalized_this_turn, pool.finalized_this_turn = _with_card(
        card, pool.cards_finalized_this_turn, pool.finalized_this_turn
    )


@query("card_played")
def card_played(game, card, player: str) -> None:
    """406.4.a: the card has been played; "when you play" abilities see the count of cards played this turn."""
    pool = game.players[player]
    pool.cards_played_this_turn, pool.played_this_turn = _with_card(
        card, pool.cards_played_this_turn, pool.played_this_turn
    )
    calc.fire(game, Event("card_played", player=player, card=card.id, count=pool.cards_played_this_turn))


def _with_card(card, count: int, ids: tuple[str, ...]) -> tuple[int, tuple[str, ...]]:
    """A count of the cards a player played (or Finalized) this turn and their ids, with `card` added. A token
    is played like a card (179.1.a) but is not a card (179): what counts "cards" (Legion's "a card", 812.1.c;
    738.1.c) counts no token, so it is in neither."""
    if card.definition.type == "token":
        return count, ids
    return count + 1, (*ids, card.id)


@procedure(
    "play_by_effect",
    StepKind.EFFECT,
    defines=("406.3", "353.1.a"),
    summary=lambda g, unit, player, location, label: (
        f"{label}: {player} plays {unit.id} to {location}, ignoring its cost"
    ),
    objects=lambda g, unit, *a: [unit.id],
)
def play_by_effect(game, unit, player: str, location: str, label: str) -> None:
    definition = unit.definition
    ready = definition.enters_ready
    if definition.has("Accelerate"):
        accelerated = calc.total_cost(game, unit, player, True, True, 0, [])  # 353.1.c: still paid
        options = ["pay", "decline"] if calc.resource_problem(game, player, accelerated) is None else ["decline"]
        answer = choose(
            game,
            "accelerate",
            player,
            f"pay Accelerate for {unit.id} (an optional additional cost, still paid when the cost is ignored)",
            options,
            "731.2",
            forced_ok=False,
        )
        if answer == "pay":
            calc.pay_resources(game, player, accelerated, "353.1.c")
            ready = True
    card_finalized(game, unit, player)
    do.enter_board(game, unit, player, location, ready, None, because="406.3.b")
    card_played(game, unit, player)


# -- hiding ---------------------------------------------------------------------------------------------------


def hide_candidates(game, player: str):
    for card in game.hand(player):
        if card.definition.has("Hidden"):
            for bf in game.battlefields():
                yield Hide(by=player, card=card.id, at=bf.id)


@action("hide", Hide, because=("408.2",), candidates=hide_candidates)
@procedure(
    "hide",
    StepKind.ACTION,
    defines=("408.1", "737.1.b"),
    summary=lambda g, a: f"{a.by} hides {a.card} at {a.at}",
    objects=lambda g, a: [a.card, a.at],
)
def hide(game, act: Hide) -> None:
    """408: hide a card with [Hidden] facedown at a battlefield you control, for [A]; no chain (737.1.c.2)."""
    player, card, where = act.by, game.obj(act.card), act.at
    if card.owner != player or card.zone != Zone.HAND or not card.definition.has("Hidden"):
        raise Refusal("737.1", f"{card.id} is not a card with [Hidden] in {player}'s hand")
    calc.check_discretionary(game, player, "hiding")
    if not game.is_battlefield(where) or game.objects[where].battlefield_controller != player:
        raise Refusal("408.1", f"cards are hidden at a battlefield their owner controls, not {where}")
    if any(o.zone == Zone.FACEDOWN and o.location == where for o in game.objects.values()):
        raise Refusal("106.4.b", f"{where} already has a facedown card")
    calc.pay_resources(game, player, Cost(power=1), "737.1.b")  # [A]: Power of any domain
    card.zone, card.location, card.hidden_turn = Zone.FACEDOWN, where, game.turn_number
    calc.cleanup(game, "a card was hidden", "319.6")
    calc.settle_priority(game)


# -- instructions --------------------------------------------------------------------------------------------


@instruction("banish_and_play")
def op_banish_and_play(game, run, ins) -> None:
    for unit_id in calc.still_there(game, run, ins["what"], "banishing and playing"):
        unit = game.objects[unit_id]
        do.banish(game, unit_id, None, because=run.because)
        do.play_by_effect(game, unit, unit.owner, "base", run.item.label, because=run.because)


@instruction("play_banished_by_this")
def op_play_banished_by_this(game, run, ins) -> None:
    banished = [o for o in game.objects.values() if o.zone == Zone.BANISHMENT and o.banished_by == run.item.source]
    for unit in banished:
        do.play_by_effect(game, unit, run.item.controller, "base", run.item.label, because=run.because)


@instruction("reveal_play_unit")
def op_reveal_play_unit(game, run, ins) -> None:
    """Reveal from the top of the deck until a unit; play it, ignoring its cost; recycle the rest (403)."""
    player = run.item.controller
    revealed = []
    for card in game.deck(player):
        revealed.append(card.id)
        if card.kind == Kind.UNIT:
            calc.reveal(game, player, revealed, run.because)
            card.zone = Zone.BANISHMENT
            card.banished_by = run.item.source
            do.play_by_effect(game, card, player, "base", run.item.label, because=run.because)
            break
    for other in revealed[:-1]:
        game.objects[other].order = game.tick() + 10_000  # recycled to the bottom (403.1.a)
