"""Effects performed by each player, and conditions about an opponent.

"Each player draws 1", "each opponent ...", "each other player ...": the instructions are performed once for each
of those players, as that player ("they", "their"), one after the other in Turn Order starting with the Turn
Player: game actions are never simultaneous (303.2, 303.2.a), and each player is responsible for their own
(411.1). What a player must choose for their part ("each player kills one of their units") is chosen by that
player as the spell or ability resolves, and is not a target (355.10.e).

The condition words about opponents ("if an opponent's score is within 3 points of the Victory Score", "if an
opponent controls a battlefield") read the game as the condition is checked; a unit whose entering ready depends
on one ("If an opponent ..., I enter ready": a conditional replacement, rules/entering.py) has it checked as it enters.

Also here: a chosen player's hand revealed and a card chosen from it (`reveal_hand`, `choose_from_hand`; the
player is a target, 355.10, the card is not, 355.10.a). What a player can't do this turn is rules/restrictions.py's
`restrict`; what opponents' cards cost more, a card's `cost_modifiers` (rules/discounts.py, 356.3).
"""

from __future__ import annotations

import dataclasses

from scenarios.game import Game
from scenarios.kernel import Condition, calc, choose, condition, do, instruction, note
from scenarios.objects import BOARD, Kind
from scenarios.trace import StepKind

PLAYERS = ("each", "opponents", "others")  # "each player", "each opponent", "each other player"


def _players(game: Game, controller: str, which: str, start: str = "turn") -> list[str]:
    """Those players in Turn Order from the Turn Player (303.2.a), or, "starting with the next player", from the
    player after the controller in Turn Order (the controller last)."""
    # in a game of individual players every other player is an opponent (`opponents` is the others)
    wanted = game.opponents(controller) + ([controller] if which == "each" else [])
    ordered = game.in_turn_order(wanted)
    first = game.next_player(controller)
    if start != "next" or first not in ordered:
        return ordered
    at = ordered.index(first)
    return ordered[at:] + ordered[:at]


@instruction("each_player")
def op_each_player(game: Game, run, ins) -> None:
    """`{op: each_player, players: each|opponents|others, effects: [...]}`: the effects performed by each of those
    players in Turn Order from the Turn Player (303.2.a), as that player: "you" in them is that player (411.1);
    `optional` ("you and each opponent may"): each player chooses whether to, and `each_opponent_who_did`: the
    controller's instructions performed once for each opponent who did ("For each opponent who did, ...").
    `players` may instead be a target slot (the player chosen), `{owner_of: <reference>}` (the object's owner) or
    "actor" (the player whose action triggered the ability: "When a player ..., they ...") or "combatants" (the
    attacker and the defender of the combat under way)."""
    which = ins.get("players", "each")
    if which in PLAYERS:
        players = _players(game, run.item.controller, which)
        how, cited = "in Turn Order from the Turn Player", ("303.2", "303.2.a")
    elif which == "actor":  # "when a player chooses ..., they draw 1": the player of the triggering event (190.6.c)
        event = run.item.trigger.event if run.item.trigger else None
        players = [event.player] if event is not None and event.player in game.players else []
        how, cited = "the player whose action triggered it", ("190.6.c", "411.1")
    elif which == "combatants":  # "the attacker and defender each ...": the players of the combat (464.2.c.1-2)
        combat = game.combat
        players = [p for p in (combat.attacker, combat.defender) if p in game.players] if combat else []
        how, cited = "the attacker and the defender", ("464.2.c", "411.1")
    elif isinstance(which, dict):  # {owner_of: <reference>}: "its owner channels 1 rune" (127.1: who owns it)
        owners = [game.objects[o].owner for o in calc.refs(game, run, which["owner_of"]) if o in game.objects]
        players = list(dict.fromkeys(owners))
        how, cited = "its owner", ("127.1", "411.1")
    else:  # a target slot: the player chosen ("choose an opponent. They ..."), unless no longer legal
        players = [p for p in calc.refs(game, run, which) if p in game.players]
        how, cited = "the player chosen", ("355.10", "411.1")
    note(
        game,
        StepKind.EFFECT,
        "each player",
        f"{run.item.label}: performed by {', '.join(players) or 'no one'}, {how}",
        run.because,
        cited,
        players,
    )
    did = []
    for player in players:
        if ins.get("optional"):  # "you and each opponent may ...": each decides for their part as they come to it
            label = f"{run.item.label}: perform your part"
            if choose(game, "may", player, label, ["yes", "no"], "411.1") != "yes":
                continue
        did.append(player)
        item = dataclasses.replace(run.item, controller=player)
        view = run.view
        if view is not None:
            view = dataclasses.replace(view, you=player)
        calc.execute(game, dataclasses.replace(run, item=item, view=view), ins.get("effects", []))
    # "For each opponent who did, you play a Gold gear token exhausted": the controller's, once per opponent who did
    for _ in [p for p in did if p != run.item.controller and p in game.opponents(run.item.controller)]:
        calc.execute(game, run, ins.get("each_opponent_who_did", []))


# What a player may choose among, in `each_chooses`: units they control, units the spell's controller does not
# control, or any unit
_WHOSE = {
    "own": lambda unit, player, controller: unit.controller == player,
    "not the controller's": lambda unit, player, controller: unit.controller != controller,
    "any": lambda unit, player, controller: True,
}


@instruction("each_chooses")
def op_each_chooses(game: Game, run, ins) -> None:
    """`{op: each_chooses, players, start: turn|next, whose: own|not the controller's|any, optional, distinct,
    then: kill|kill_rest|return}`: each of those players in turn chooses a unit as the item resolves (355.10.e:
    chosen by other players, not targets). `return`: each chosen unit is returned to its owner's hand as it is
    chosen, before the next player chooses (303.1: one game action at a time); `kill` kills the chosen units and
    `kill_rest` every other unit, once all have chosen, in one kill (370.1.a.2)."""
    controller = run.item.controller
    players = _players(game, controller, ins.get("players", "each"), ins.get("start", "turn"))
    note(
        game,
        StepKind.EFFECT,
        "each player",
        f"{run.item.label}: {', '.join(players)} choose in this order",
        run.because,
        ("303.2", "303.2.a", "355.10.e"),
        players,
    )
    whose, then = _WHOSE[ins.get("whose", "own")], ins["then"]
    chosen: list[str] = []
    for player in players:
        options = sorted(
            u.id for u in game.units() if whose(u, player, controller) and not (ins.get("distinct") and u.id in chosen)
        )
        if ins.get("optional"):
            options.append("none")
        if not options:
            calc.impossible(game, run, f"{player} has no unit to choose")
            continue
        prompt = {"kill_rest": "a unit to keep", "kill": "a unit to kill", "return": "a unit to return, or none"}[then]
        pick = choose(game, "unit", player, f"{run.item.label}: {prompt}", options, "355.10.e")
        if pick == "none":
            continue
        chosen.append(pick)
        if then == "return":
            do.return_to_hand(game, [pick], run.item.label, because=(run.because, "411.1"))
    if then == "kill" and chosen:
        calc.kill_all(game, chosen, False, (run.because, "428.1.a.1"), calc.attribution_of(game, run))
    elif then == "kill_rest":
        rest = [u.id for u in game.units() if u.id not in chosen]
        if rest:
            calc.kill_all(game, rest, False, (run.because, "428.1.a.1"), calc.attribution_of(game, run))


@instruction("kill_one")
def op_kill_one(game: Game, run, ins) -> None:
    """`{op: kill_one, kind: unit|gear}`: the player performing it chooses one of the units (or gear) they control
    as it resolves and kills it (355.10.e: chosen by each player, not a target; 411.1: their own kill)."""
    player, kind = run.item.controller, ins.get("kind", "unit")
    theirs = sorted(
        o.id for o in game.objects.values() if o.zone == BOARD and o.kind == kind and o.controller == player
    )
    if not theirs:
        calc.impossible(game, run, f"{player} controls no {kind} to kill")
        return
    pick = choose(game, "kill", player, f"{run.item.label}: one of your {kind}s to kill", theirs, "355.10.e")
    # the player performing it is responsible (411.5.a), whoever controls the spell
    by = (player, calc.attribution_of(game, run)[1])
    calc.kill_all(game, [pick], False, (run.because, "428.1.a.1", "411.1"), by)


@instruction("discard_hand")
def op_discard_hand(game: Game, run, ins) -> None:
    """ "Discards their hand": every card in it, each put in the Trash (422.1); an empty hand discards nothing."""
    player = run.item.controller
    hand = [o.id for o in game.hand(player)]
    if not hand:
        calc.impossible(game, run, f"{player} has no card in hand to discard", "422.4")
    for card_id in hand:
        do.discard(game, player, card_id, because=run.because)


# -- conditions about opponents ---------------------------------------------------------------------------------


def _within(n: int):
    def holds(game: Game, context: Condition) -> bool:
        """An opponent has points within `n` of the Victory Score (194.3): the score is at least Victory Score - n."""
        return any(game.players[o].points >= calc.victory_score(game) - n for o in game.opponents(context.player))

    return holds


for _n in range(1, 8):
    condition(f"an opponent within {_n} points of the victory score", "194.3")(_within(_n))


@condition("an opponent controls a battlefield", "190.2.b")
def opponent_controls_a_battlefield(game: Game, context: Condition) -> bool:
    opponents = set(game.opponents(context.player))
    return any(bf.battlefield_controller in opponents for bf in game.battlefields())


@condition("an opponent controls a stunned unit", "423.1")
def opponent_controls_a_stunned_unit(game: Game, context: Condition) -> bool:
    opponents = set(game.opponents(context.player))
    return any(u.stunned and u.controller in opponents for u in game.units())


@condition("you control fewer runes than an opponent", "430.1")
def fewer_runes_than_an_opponent(game: Game, context: Condition) -> bool:
    """The runes a player controls are those on the board (channeled, 430.1)."""
    mine = len(calc.runes_on_board(game, context.player))
    return any(len(calc.runes_on_board(game, o)) > mine for o in game.opponents(context.player))


@condition("an opponent has played another spell this turn", "419.4.b")
def opponent_played_another_spell(game: Game, context: Condition) -> bool:
    """ "If an opponent has played another spell this turn": a spell an opponent played this turn, other than the
    one the instruction chose (`other_than`). Not a triggered ability: the plays it checks are `plays_checked`'s
    (in Core Rules 1.4 every spell Finalized, one still on the Chain or countered too, 419.4.b)."""
    for opponent in game.opponents(context.player):
        for card_id in calc.plays_checked(game, opponent)[1]:
            card = game.objects.get(card_id)
            if card_id not in context.other_than and card is not None and card.kind == Kind.SPELL:
                return True
    return False


@condition("an opponent's turn", "304")
def opponents_turn(game: Game, context: Condition) -> bool:
    return game.turn_player in game.opponents(context.player)


@condition("your turn", "304")
def your_turn(game: Game, context: Condition) -> bool:
    """ "On your turn": its controller is the Turn Player (304)."""
    return game.turn_player == context.player


# -- a chosen player's hand ----------------------------------------------------------------------------------------


@instruction("reveal_hand")
def op_reveal_hand(game: Game, run, ins) -> None:
    """`{op: reveal_hand, of: <slot>}`: "They reveal their hand": every card in it (424.3.a)."""
    for player in [p for p in calc.refs(game, run, ins["of"]) if p in game.players]:
        hand = [o.id for o in game.hand(player)]
        if hand:
            calc.reveal(game, player, hand, run.because)
        else:
            calc.impossible(game, run, f"{player} has no card in hand to reveal")


_CARD_FILTERS = {
    "any": lambda card: True,
    "non-unit": lambda card: card.kind != Kind.UNIT,
}


@instruction("choose_from_hand")
def op_choose_from_hand(game: Game, run, ins) -> None:
    """`{op: choose_from_hand, of: <slot>, card: any|non-unit, then: discard|recycle}`: the item's controller
    chooses a card of that kind from the chosen player's revealed hand (not a target: a hand is not public,
    355.10.a); that player discards it (422.1), or it is recycled to its owner's Main Deck (416.1.c)."""
    chooser, then = run.item.controller, ins["then"]
    matches = _CARD_FILTERS[ins.get("card", "any")]
    for player in [p for p in calc.refs(game, run, ins["of"]) if p in game.players]:
        options = sorted(o.id for o in game.hand(player) if matches(o))
        if not options:
            calc.impossible(game, run, f"{player}'s hand has no such card")
            continue
        pick = choose(game, "card", chooser, f"{run.item.label}: a card from {player}'s hand", options, "355.10.a")
        if then == "discard":
            do.discard(game, player, pick, because=run.because)
        else:
            do.recycle(game, [pick], run.item.label, because=(run.because, "416.1.c"))
