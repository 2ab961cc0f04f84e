"""Cards off the board, as instructions and costs take them: returned from a trash to the hand ("Return a unit
from your trash to your hand": the card is a target, chosen as the spell or ability goes on the Chain: a trash is
a public zone, 355.9.a, 355.10.a; `zone: trash` in its target spec, and a target gone from the trash by then is no
longer legal, 359.3.e), recycled from a trash (416.6), units played from a trash or a hand as an instruction
resolves (419.3), and a card drawn by the controller of an object an instruction named, killed or not.
"""

from __future__ import annotations

from scenarios.cards import Cost
from scenarios.game import Game
from scenarios.kernel import Refusal, calc, choose, do, instruction, procedure, query
from scenarios.objects import GEAR, HAND, TRASH, UNIT
from scenarios.trace import StepKind


@procedure(
    "return_from_trash",
    StepKind.EFFECT,
    defines=("355.10.a",),
    summary=lambda g, card_id, label: f"{label}: return {card_id} from the trash to its owner's hand",
    objects=lambda g, card_id, label: [card_id],
    pure=True,
)
def return_from_trash(game: Game, card_id: str, label: str) -> None:
    card = game.objects[card_id]
    card.zone = HAND
    card.order = game.tick()


@instruction("return_from_trash")
def op_return_from_trash(game: Game, run, ins) -> None:
    for card_id in calc.refs(game, run, ins["what"]):
        if game.objects[card_id].zone == TRASH:
            return_from_trash(game, card_id, run.item.label, because=run.because)


@query("trash_of")
def trash_of(game: Game, player: str | None, kind: str | None = None) -> list[str]:
    """The cards (of `kind`, when given) in `player`'s trash (108.2), or in every trash (None), oldest first."""
    cards = [
        o for o in game.objects.values() if o.zone == TRASH and player in (None, o.owner) and kind in (None, o.kind)
    ]
    return [o.id for o in sorted(cards, key=lambda o: o.order)]


@query("recycle_from_trash")
def recycle_from_trash(
    game: Game,
    player: str,
    n: int,
    label: str,
    because,
    every_trash: bool = False,
    up_to: bool = False,
    kind: str | None = None,
) -> None:
    """ "Recycle 3 from your trash": 3 cards of the player's choice, which are not targets (416.6), recycled
    together, each to the bottom of its owner's Main Deck (416.1.c; 416.5: in a random order, the engine keeps the
    order chosen). As a cost the whole of it must be paid (416.3); as an effect as many as there are (416.4);
    "up to 3", as many as the player chooses. From the player's own trash, or from `every_trash` ("from
    trashes"); only cards of `kind` ("Recycle a unit from your trash"), when given."""
    owner = None if every_trash else player
    picks: list[str] = []
    for _ in range(n):
        left = [card for card in trash_of(game, owner, kind) if card not in picks]
        if not left:
            break
        options = left + (["done"] if up_to else [])
        pick = choose(game, "recycle", player, f"{label}: card to recycle from the trash", options, "416.6")
        if pick == "done":
            break
        picks.append(pick)
    if picks:
        do.recycle(game, picks, label, because=because)


@instruction("recycle_from_trash")
def op_recycle_from_trash(game: Game, run, ins) -> None:
    """`{op: recycle_from_trash, n, up_to?, from: your | all}` (416.4, 416.6)."""
    every_trash, up_to = ins.get("from") == "all", ins.get("up_to", False)
    recycle_from_trash(game, run.item.controller, ins["n"], run.item.label, run.because, every_trash, up_to)


@instruction("play_from_hand")
def op_play_from_hand(game: Game, run, ins) -> None:
    """ "Play a unit from your hand to your base, ignoring its Energy cost", "You may play a unit from hand to a
    battlefield you control, reducing its cost by [3]": a play during the resolution (419.3) of a unit card of the
    hand, the player's choice among those whose remaining cost can be paid and that have a place to go (not a
    target: the hand is private, 355.10.a); `optional`: the player may play none. With none to play, nothing
    happens (419.3.c). `to`: base, or a battlefield the player controls; `reduce`: Energy the cost is reduced by
    (356.4); `ignoring: energy` as for the trash. `card` (with a `keyword`): "Play a card with [Hidden] from your
    hand, ignoring its cost": a card of any type with that keyword, played as `effect_plays.play_by_instruction`
    plays it (`unit_to: here`: "If it's a unit, play it here")."""
    player, label = run.item.controller, run.item.label
    if "card" in ins:  # "play a card with [Hidden] from your hand": of any type (`effect_plays.effect_playable`)
        keyword = ins["keyword"]
        fits = [
            c.id for c in game.hand(player) if c.definition.has(keyword) and calc.effect_playable(game, run, c, ins)
        ]
    else:
        playable = {card.id: found for card in game.hand(player) if (found := unit_playable(game, player, card, ins))}
        fits = list(playable)
    kind = ins.get("card", "unit")
    if not fits:
        calc.impossible(game, run, f"{player} has no {kind} in hand it can play this way", "419.3.c")
        return
    options = fits + (["none"] if ins.get("optional") else [])
    pick = choose(game, "card", player, f"{label}: the {kind} to play from the hand", options, "419.3")
    if pick != "none" and "card" in ins:
        calc.play_by_instruction(game, run, game.objects[pick], ins)
    elif pick != "none":
        cost, places = playable[pick]
        play_unit(game, run, game.objects[pick], cost, ins, places)


@query("unit_playable")
def unit_playable(game: Game, player: str, card, how) -> tuple[Cost | None, list[str]] | None:
    """Can `card`, a unit or a gear, be played as an instruction says (`how`: `ignoring`, `reduce`, `to`)? What is
    still paid of its cost (None: nothing) and where it may go (a gear: its controller's base), or None when it
    can't be paid for (a mandatory additional cost too, 356.1.b.3) or placed (419.3.c)."""
    if card.kind not in (UNIT, GEAR):
        return None
    places = _places(game, player, card, how.get("to")) if card.kind == UNIT else ["base"]
    cost = _remaining_cost(game, player, card, how)
    if not places or (cost is not None and calc.resource_problem(game, player, cost, _cost_rule(how)) is not None):
        return None
    mandatory = card.definition.additional_cost is not None and not card.definition.additional_cost.optional
    if mandatory and calc.additional_cost_problem(game, card, player) is not None:  # 356.1.b.3, 357.2
        return None
    return cost, places


def _remaining_cost(game: Game, player: str, card, ins) -> Cost | None:
    """What is still paid of the card's cost (356): none when it is ignored (356.1.b.1), its Power when its Energy
    cost is (356.1.b.2), less `reduce` Energy (356.4)."""
    if ins.get("ignoring") == "cost":
        return None
    cost = calc.total_cost(game, card, player, None, False, 0, [])
    if ins.get("ignoring") == "energy":
        cost = cost.model_copy(update={"energy": 0})
    return cost.less(energy=ins.get("reduce", 0))


def _cost_rule(ins) -> str:
    return {"energy": "356.1.b.2"}.get(ins.get("ignoring", ""), "356.4" if ins.get("reduce") else "357.1")


def _places(game: Game, player: str, card, to: str | None) -> list[str]:
    """Where the unit may be played (355.2): its controller's base or a battlefield it may be played to; `to`
    narrows it to the base, or to a battlefield the player controls."""
    battlefields = [bf.id for bf in game.battlefields() if _may_be_played_to(game, player, card, bf.id)]
    if to == "battlefield":
        return [bf for bf in battlefields if game.objects[bf].battlefield_controller == player]
    return ["base"] if to == "base" else ["base", *battlefields]


@query("play_unit")
def play_unit(game: Game, run, card, cost: Cost | None, ins, places: list[str]) -> None:
    """Play `card` as the instruction resolves (419.3): pay what is still paid of its cost, choose its location."""
    player, label = run.item.controller, run.item.label
    if cost is not None:
        calc.pay_resources(game, player, cost, _cost_rule(ins))
    where = choose(game, "location", player, f"{label}: the location {card.id} is played to", places, "355.2")
    ignoring = {"energy": "energy cost", "cost": "cost"}.get(ins.get("ignoring", ""), "nothing")
    do.play_by_effect(game, card, player, where, label, ignoring, because=run.because)


def _may_be_played_to(game: Game, player: str, card, location: str) -> bool:
    try:
        calc.check_play_location(game, player, card, location, None)
    except Refusal:
        return False
    return True


@instruction("controller_draws")
def op_controller_draws(game: Game, run, ins) -> None:
    """ "Kill a gear. Its controller draws 2.": the player who controls the object named, or who controlled it as
    the kill before it killed it (its controller then, not its owner, for a unit taken control of), draws (413);
    one moved off the board by another event has no controller to read, and no one draws (`linked.linked_controller`,
    359.3.e.12)."""
    for object_id in calc.refs(game, run, ins["of"]):
        player = calc.linked_controller(game, run, object_id)
        if player is None:
            calc.impossible(
                game, run, f"{object_id} left the board by another event: it has no controller", "359.3.e.12"
            )
            continue
        do.draw(game, player, ins.get("n", 1), run.item.label, because=run.because)
