"""Playing cards 349-359 and 419, hiding cards 421 and 811: timing, targets, costs, entering the board.

A card is played when the process is complete (350.1): a permanent when it enters the board (359.2), a spell
when it resolves (359.3.d; a countered spell is not played, 419.4.a.1). "When you play a card" abilities trigger
then (419.4.a), with the count of cards played this turn as of that moment.

A card hidden facedown (811) can be played from the next turn on, for [0], with Reaction timing (811.6); its
choices are restricted to the battlefield where it was hidden (811.1.d).
"""

from __future__ import annotations

import itertools

from scenarios.actions import Hide, Play
from scenarios.cards import Cost
from scenarios.game import Game
from scenarios.kernel import (
    Condition,
    Refusal,
    action,
    calc,
    choose,
    do,
    event_kind,
    instruction,
    keyword,
    note,
    procedure,
    query,
)
from scenarios.objects import ChainItem, Event, ItemKind, Kind, Targeting, Zone
from scenarios.trace import StepKind

keyword("Accelerate", "805")
keyword("Action", "806")
keyword("Hidden", "811")
keyword("Reaction", "813")
keyword("Ambush", "822")


def permitted_at(game: Game, player: str, card, location) -> bool:
    """355.2.b: a card's permission to be played to a location not normally valid: "an open battlefield"
    (unoccupied and uncontrolled, 170.11.c), "an occupied enemy battlefield" (an opponent's, with a unit, 170.11.a),
    "a battlefield you're attacking" (where a combat is, the player its attacker: 462.2.a, the unit joins it)."""
    if location is None or not game.is_battlefield(location):
        return False
    permissions = set(card.definition.played_to)
    if card.definition.object_kind == "unit":  # "Friendly units may be played to open battlefields" (355.2.b)
        granted = (
            o.definition.units_played_to
            for o in game.objects.values()
            if o.zone == Zone.BOARD and o.controller == player and o.definition is not None
        )
        permissions.update(*granted)
    if not permissions:
        return False
    combat = game.combat
    if (
        "attacking" in permissions
        and combat is not None
        and (combat.battlefield, combat.attacker)
        == (
            location,
            player,
        )
    ):
        return True
    controller, occupied = game.objects[location].battlefield_controller, game.has_units(location)
    if "open" in permissions and controller is None and not occupied:
        return True
    return "occupied enemy" in permissions and controller not in (None, player) and occupied


def ambush_at(game: Game, player: str, card, location) -> bool:
    """Ambush 822.1.b: "I may be played to a battlefield where you control Units" and "I have [Reaction] as long
    as I'm being played to a battlefield where you control Units"."""
    return (
        location is not None
        and game.is_battlefield(location)
        and calc.has_keyword(game, card, "Ambush")
        and any(unit.controller == player for unit in game.units(location))
    )


event_kind("play", "383.4.a", would="be played")
event_kind("hide", "421.1", would="hide a card")


@query("play_timing")
def check_timing(game: Game, player: str, card, facedown: bool) -> None:
    """When a card may be played (310.1.a, 331.1.a, 343.1.a; Action 806, Reaction 813, hidden 811.6)."""
    if game.priority != player:
        raise Refusal("312.1", f"{player} does not have Priority")
    name = card.definition.name
    reaction = calc.has_keyword(game, card, "Reaction") or facedown  # 811.6: a hidden card gains Reaction
    permitted_in_showdown = calc.has_keyword(game, card, "Action") or reaction  # 813.1.b: Reaction grants Action's
    if game.chain and not reaction:
        raise Refusal("331.1.a", f"{name} can't be played while the Chain exists: it needs Reaction", ("813.1.c.1",))
    if game.showdown and not game.chain and not permitted_in_showdown:
        raise Refusal("343.1.a", f"{name} can't be played during a showdown: it needs Action", ("806.1.c.1",))
    if not game.showdown and not game.chain and player != game.turn_player:
        raise Refusal("310.1.a", "only the turn player plays cards in a Neutral Open State")


@query("timing_rules")
def timing_rules(game: Game, keywords, on: str = "card") -> tuple[str, ...]:
    """The rules that let a card (`on="card"`) or an activated ability (`on="ability"`) with `keywords` be played
    now, in the state the turn is in: on a Chain (a Closed State) a legally timed play with Reaction (338.1.a,
    309.1.a, 813.1.c); in a showdown with Focus, one with Action, or Reaction which grants Action's permissions
    (347.1, 308.1.a, 806.1.c);
    else the turn player's Main Phase, a Neutral Open State (316.5.b). The keyword that permits the play is
    cited with the timing it permits; none is cited where no keyword is needed."""
    which = "1" if on == "card" else "2"
    if game.chain:
        return ("338.1.a", "309.1.a", *(("813.1.c." + which,) if "Reaction" in keywords else ()))
    if game.showdown:
        permits = ("806.1.c." + which,) if "Action" in keywords or "Reaction" in keywords else ()
        return ("347.1", "308.1.a", *permits)
    return ("316.5.b",)


def _play_because(game: Game, act: Play) -> tuple[str, ...]:
    """Why this play happens here: its timing in this state of the turn (`timing_rules`), and Play (419.1)."""
    card = game.objects.get(act.card)
    if card is None or card.definition is None:
        return ("419.1",)
    keywords = [k for k in ("Action", "Reaction") if calc.has_keyword(game, card, k)]
    if "Reaction" not in keywords and ambush_at(game, act.by, card, act.at) and (game.chain or game.showdown):
        return (*calc.timing_rules(game, ["Reaction"])[:2], "822.1.b", "419.1")  # Reaction while ambushing
    hidden = card.zone == Zone.FACEDOWN and "Reaction" not in keywords and (game.chain or game.showdown)
    if hidden:  # played from facedown it has Reaction, with Reaction's timing (811.6)
        return (*calc.timing_rules(game, ["Reaction"])[:2], "811.6", "419.1")
    trash: tuple[str, ...] = ()
    if card.zone == Zone.TRASH and not card.definition.flow and from_trash(game, act.by, card) is not None:
        trash = ("366.1", "356.1.a")  # a passive of its own lets it be played from there, for the cost it names
    return (*calc.timing_rules(game, keywords), *trash, "419.1")


def _played(game: Game, act: Play) -> str:
    card = game.obj(act.card)
    text = f"{act.by} plays {act.card} ({card.card})" + (" from the trash" if card.zone == Zone.TRASH else "")
    if act.targets:
        text += " choosing " + ", ".join(f"{slot}={value}" for slot, value in act.targets.items())
    return text + (f" at {act.at}" if act.at else "")


def from_trash(game: Game, player: str, card) -> Cost | None:
    """The base cost a card in its owner's trash may be played for by `player`: its Flow cost (829.1.b, then
    banished), or the cost its own passive names ("You may play me from your trash for [3][C]": 366.1, 356.1.a),
    while that passive's condition holds ([Legion], 812); None when it can't be played from there."""
    definition = card.definition
    if card.zone != Zone.TRASH or definition is None or card.owner != player:
        return None
    if definition.flow:
        return definition.flow[0]
    condition = definition.trash_play_condition
    if condition is not None and not calc.condition_holds(game, condition, Condition(player, card.id, True)):
        return None
    return definition.trash_play


def play_candidates(game: Game, player: str):
    for card in game.objects.values():
        if card.owner != player or (
            card.zone not in (Zone.HAND, Zone.FACEDOWN) and from_trash(game, player, card) is None
        ):
            continue
        if calc.play_forbidden_by(game, player, card) is not None:
            continue
        definition = card.definition
        hidden_at = card.location if card.zone == Zone.FACEDOWN else None
        accelerations = (False, True) if definition.has("Accelerate") else (False,)
        optional = definition.additional_cost is not None and definition.additional_cost.optional
        paying = range(calc.additional_most(game, card, player) + 1) if optional else (0,)  # 355.1.a
        if definition.object_kind in ("unit", "gear"):
            places = [hidden_at] if hidden_at else ["base"]
            if definition.object_kind == "unit" and not hidden_at:
                places += [b.id for b in game.battlefields() if valid_battlefield(game, player, card, b.id)]
            places = [p for p in places if not only_elsewhere(game, player, card, p)]  # "only to ..." (054.2)
            for place, fast, extra in itertools.product(places, accelerations, paying):
                at = None if place == "base" else place
                yield Play(by=player, card=card.id, at=at, accelerate=fast, additional=extra)
            continue
        context = Targeting(definition.name, player, card.id, hidden_at, hidden_at)
        for targets, extra in itertools.product(calc.target_choices(game, definition.targets, context), paying):
            yield Play(by=player, card=card.id, targets=targets, additional=extra)
            for paid in range(1, len(definition.repeat) + 1):  # Repeat paid, the same choices again (820.2)
                yield Play(
                    by=player,
                    card=card.id,
                    targets=targets,
                    repeat=paid,
                    repeat_targets=(targets,) * paid,
                    additional=extra,
                )


@action("play", Play, because=_play_because, candidates=play_candidates)
@procedure("play_card", StepKind.ACTION, defines=("350", "350.1"), summary=_played, objects=lambda g, a: [a.card])
def play_card(game: Game, act: Play) -> None:
    player, card = act.by, game.obj(act.card)
    card.played_from = card.zone  # its hand, its Facedown Zone, or its trash (Flow, or a passive of its own)
    trash_cost = from_trash(game, player, card)  # 829.1.b: "play this from your trash"; 366.1
    flow = trash_cost is not None and bool(card.definition.flow)
    if card.owner != player or (card.zone not in (Zone.HAND, Zone.FACEDOWN) and trash_cost is None):
        raise Refusal("354", f"{card.id} is not a card {player} can play from hand or facedown")
    forbidder = calc.play_forbidden_by(game, player, card)
    if forbidder is not None:
        raise Refusal("054.1", f"{player} can't play {card.id} this turn ({game.objects[forbidder].card})")
    facedown = card.zone == Zone.FACEDOWN
    if facedown:
        calc.check_hidden_turn(game, card)
    definition = card.definition
    ambush = ambush_at(game, player, card, act.at)  # 822.1.b: Reaction, and this battlefield, while ambushing
    calc.play_timing(game, player, card, facedown or ambush)
    if act.accelerate and not definition.has("Accelerate"):
        raise Refusal("805.1", f"{card.id} has no Accelerate")
    optional = definition.additional_cost is not None and definition.additional_cost.optional
    if act.additional and not optional:
        raise Refusal("356.2.b.1", f"{card.id} has no optional additional cost")
    if act.additional > 1 and not definition.additional_cost.any_number:
        raise Refusal("356.2.b.1", f"{card.id}'s optional additional cost is paid once, not {act.additional} times")
    card.paid_additional = int(act.additional)  # declared with the play's choices (355.1.a)
    hidden_at = card.location if facedown else None
    if definition.object_kind in ("unit", "gear"):
        location = act.at or "base"
        if act.targets:
            raise Refusal(
                "355.5.b", f"{card.id} chooses no targets as it is played (its abilities choose when they trigger)"
            )
        if facedown and location != hidden_at:
            raise Refusal("811.1.d.1", f"a hidden permanent must be played to {hidden_at}, where it was hidden")
        calc.check_play_location(game, player, card, location, hidden_at)
        if act.repeat:
            raise Refusal("820.1.a", f"{card.id} is not a spell: Repeat is present on spells")
        # 811.1.b: a hidden card is played ignoring its base cost; from the trash, for the cost it names (356.1.a)
        base = Cost() if facedown else trash_cost
        cost = calc.total_cost(game, card, player, base, act.accelerate, 0, [])
        calc.pay_resources(game, player, cost, "357.1", f"play {definition.object_kind}")
        if definition.additional_cost is not None:
            card.zone = Zone.CHAIN  # 354: being played, it is on the Chain, in no hand its costs could discard
            do.pay_additional_cost(game, card, player, because="357.2")
        card_finalized(game, card, player)
        card.location = None
        ready = calc.entering_ready(game, card, player, location, bool(act.accelerate) or card.definition.enters_ready)
        do.enter_board(game, card, player, location, ready, hidden_at, because="359")
        calc.card_played(game, card, player, hidden_at)
        calc.cleanup(game, f"{card.id} entered the board", "319.6")
        calc.settle_priority(game)
        return
    context = Targeting(definition.name, player, card.id, hidden_at, hidden_at)
    chosen = calc.choose_targets(game, tuple(definition.targets.items()), dict(act.targets), context)
    repeated = calc.repeat_choices(game, card, act, context)
    every_choice = [chosen, *repeated]
    calc.check_modes_distinct(game, definition.targets, every_choice, definition.name)  # "haven't already chosen"
    # 829.1.c.1: the Flow cost is an alternate cost replacing the base cost (additional costs and discounts apply)
    base = trash_cost if trash_cost is not None else Cost() if facedown else None
    cost = calc.total_cost(game, card, player, base, act.accelerate, act.repeat, every_choice)
    calc.pay_resources(game, player, cost, "357.1", "play spell")
    card.zone, card.location, card.off_chain = Zone.CHAIN, None, "banish" if flow else None
    card.energy_paid = cost.energy  # "when you play a spell, if you spent [4] or more" (357.1)
    pool = game.players[player]
    if cost.energy > pool.spell_energy_this_turn:
        pool.spell_energy_this_turn = cost.energy
    if definition.additional_cost is not None:
        do.pay_additional_cost(game, card, player, because="357.2")
    item = _spell_item(
        game,
        card,
        player,
        targets=chosen,
        location=hidden_at,
        hidden_at=hidden_at,
        repeat=act.repeat,
        repeat_targets=tuple(repeated),
    )
    calc.put_chosen_on_chain(game, item, "spell")
    card_finalized(game, card, player)
    calc.cleanup(game, f"{definition.name} was put on the Chain", "319.4")
    calc.give_priority_to_newest(game)


def _spell_item(game: Game, card, player: str, **fields) -> ChainItem:
    """The Chain item of a spell card played (by its player or by an effect): its effects and target slots, its
    card; `fields`, what this play adds (targets chosen, where it was hidden, Repeat)."""
    definition = card.definition
    return ChainItem(
        game.new_id("item"),
        definition.name,
        ItemKind.SPELL,
        card.id,
        player,
        effects=tuple(definition.effects),
        target_specs=tuple(definition.targets.items()),
        card=card.id,
        **fields,
    )


@query("check_hidden_turn")
def check_hidden_turn(game: Game, card) -> None:
    """811.1.b: a hidden card may be played "beginning on the next turn"."""
    if card.hidden_turn == game.turn_number:
        raise Refusal("811.1.b", f"{card.id} was hidden this turn: it can be played from the next turn on")


def only_elsewhere(game: Game, player: str, card, location: str | None) -> bool:
    """ "Play me only to a battlefield you conquered this turn": the card can't be played anywhere else (054.2), its
    base included; it grants no permission (a battlefield it may go to must still be valid, 355.2.a)."""
    if card.definition is None or "only_to_conquered_battlefield" not in card.definition.restrictions:
        return False
    return not (game.is_battlefield(location) and player in game.objects[location].conquered_this_turn)


def valid_battlefield(game: Game, player: str, card, location: str) -> bool:
    """A battlefield a unit may be played to: one its controller controls (355.2.a), one where Ambush lets it be
    played (822.1.c: where its controller has units), or one its own permission names (355.2.b)."""
    if calc.play_here_forbidden_by(game, location, player) is not None:  # "Units can't be played here" (054.1)
        return False
    return (
        game.objects[location].battlefield_controller == player
        or ambush_at(game, player, card, location)
        or permitted_at(game, player, card, location)
    )


@query("check_play_location")
def check_play_location(game: Game, player: str, card, location: str, hidden_at: str | None) -> None:
    """355.2.a: a permanent is played to its controller's base, a unit also to a valid battlefield
    (``valid_battlefield``); a hidden permanent, gear included, where it was hidden (811.1.d.1.a in Core Rules 1.4)."""
    unit = card.definition.object_kind == "unit"
    if only_elsewhere(game, player, card, location):
        raise Refusal("054.2", f"{card.id} is played only to a battlefield {player} conquered this turn")
    if unit and location != "base" and (only := calc.restricted_by(game, player, "units_only_to_base")):
        raise Refusal("054.2", f"{player} can only play units to their base ({game.objects[only].card})")
    if location == "base" or (hidden_at is not None and location == hidden_at):
        return
    forbidder = calc.play_here_forbidden_by(game, location) if unit else None
    if forbidder is not None:
        raise Refusal("054.1", f"units can't be played to {location} ({game.objects[forbidder].card})")
    if not (unit and game.is_battlefield(location) and valid_battlefield(game, player, card, location)):
        raise Refusal(
            "355.2.a", f"units are played to their controller's base or a battlefield they control, not {location}"
        )


def _not_as_usual(card) -> str:
    """Why a permanent enters the other way than its type does: a token as the effect creating it says (184.1),
    anything else by a replacement effect of its entering (369.3)."""
    return "184.1" if card.definition is not None and card.definition.type == "token" else "369.3"


def _exhausted(card, ready: bool) -> bool:
    """A unit or gear enters as `calc.entering_ready` said (359.2.c, 359.2.d, 369.3); anything else ready."""
    return not ready and card.kind in (Kind.UNIT, Kind.GEAR)


@procedure(
    "enter_board",
    StepKind.EFFECT,
    summary=lambda g, card, player, location, ready, hidden_at: (
        f"{card.id} enters the board at {location} " + ("exhausted" if _exhausted(card, ready) else "ready")
    ),
    objects=lambda g, card, *a: [card.id],
    cite=lambda g, card, player, location, ready, hidden_at: (
        (["359.2.c"] if card.kind == Kind.UNIT else ["359.2.d"])
        + ([_not_as_usual(card)] if ready != (card.kind != Kind.UNIT) and card.kind in (Kind.UNIT, Kind.GEAR) else [])
    ),
)
def enter_board(game: Game, card, player: str, location: str, ready: bool, hidden_at: str | None) -> None:
    """359.2: a permanent becomes a game object; a unit enters exhausted (359.2.c) unless it enters ready."""
    card.zone, card.location, card.controller = Zone.BOARD, location, player
    card.exhausted = _exhausted(card, ready)
    card.damage, card.buffs, card.modifiers, card.granted = 0, 0, (), ()
    card.designation, card.stunned, card.moves_this_turn, card.empowered = None, False, 0, False
    card.triggered_in_combat = ()
    card.hidden_turn = None
    card.gained_tags = _tag_chosen(game, card, player)
    card.timestamp = game.tick()
    if game.is_battlefield(location):
        calc.contest(game, game.objects[location], player, "190.3.a.1")
    calc.fire(game, Event("play", unit=card.id, player=player, location=location, card=card.id, hidden_at=hidden_at))


def _tag_chosen(game: Game, card, player: str) -> tuple[str, ...]:
    """ "As you play me, choose Bird, Cat, Dog, or Poro. I gain that tag.": chosen by its player as it is played
    (135.2.b.3), the tag its own while it is on the board (a new object after, 124.1)."""
    options = list(card.definition.choose_tag) if card.definition is not None else []
    if not options:
        return ()
    tag = choose(game, "tag", player, f"{card.id}: the tag it gains as it is played", options, "135.2.b.3")
    note(game, StepKind.EFFECT, "tag", f"{card.id} gains the {tag} tag", "135.2.b.3", ("133.8",), [card.id])
    return (tag,)


def card_finalized(game: Game, card, player: str) -> None:
    """Its costs paid and its choices made, the card's play is Finalized (341, 419.4.b): a
    countered card was Finalized too, though it was never played."""
    pool = game.players[player]
    pool.cards_finalized_this_turn, pool.finalized_this_turn = _with_card(
        card, pool.cards_finalized_this_turn, pool.finalized_this_turn
    )
    calc.spell_bonus_finalized(game, card, player)


@query("card_played")
def card_played(game: Game, card, player: str, hidden_at: str | None = None) -> None:
    """419.4.a: the card has been played; "when you play" abilities see the count of cards played this turn, and
    whether it was played from facedown (`hidden_at`: where it was hidden, 811)."""
    pool = game.players[player]
    pool.cards_played_this_turn, pool.played_this_turn = _with_card(
        card, pool.cards_played_this_turn, pool.played_this_turn
    )
    count = pool.cards_played_this_turn
    played = Event(
        "card_played", player=player, card=card.id, count=count, hidden_at=hidden_at, played_from=card.played_from
    )
    calc.fire(game, played)


@query("plays_checked")
def plays_checked(game: Game, player: str) -> tuple[int, tuple[str, ...]]:
    """The cards a non-triggered ability checks as `player`'s played this turn, and their ids (a discount, a cost
    "if you've played a spell this turn", Legion): from Core Rules 1.4 every card Finalized, a countered one too
    (419.4.b); before, the cards whose play completed (`cards_played_as_checked`). Triggers see only completed
    plays in every version (419.4.a, `card_played`)."""
    pool = game.players[player]
    if game.reading("cards_played_as_checked").choice == "finalized":
        return pool.cards_finalized_this_turn, pool.finalized_this_turn
    return pool.cards_played_this_turn, pool.played_this_turn


def _with_card(card, count: int, ids: tuple[str, ...]) -> tuple[int, tuple[str, ...]]:
    """A count of the cards a player played (or Finalized) this turn and their ids, with `card` added. A token
    is played like a card (185.2.a) but is not a card (185): what counts "cards" (Legion's "a card", 812.1.c;
    812.1.b) counts no token, so it is in neither."""
    if card.definition.type == "token":
        return count, ids
    return count + 1, (*ids, card.id)


# what a unit played by an instruction ignores of its cost, in a step's words, and the rule that says so
_IGNORED = {
    "cost": (", ignoring its cost", "356.1.b.1"),
    "energy cost": (", ignoring its energy cost (its Power cost paid)", "356.1.b.2"),
    "energy": (", ignoring its energy cost (its Power cost paid)", "356.1.b.2"),
    "paid": (", its cost paid", "357.1"),
    "for": (", for the cost the instruction names in place of its own", "356.1.a"),
}


@procedure(
    "play_by_effect",
    StepKind.EFFECT,
    defines=("419.3",),
    summary=lambda g, unit, player, location, label, ignoring="cost", exhausted=False, base=None: (
        f"{label}: {player} plays {unit.id} to {location}"
        + (" exhausted" if exhausted else "")
        + _IGNORED.get(ignoring, (", its cost paid", ""))[0]
    ),
    objects=lambda g, unit, *a: [unit.id],
    cite=lambda g, unit, player, location, label, ignoring="cost", exhausted=False, base=None: [
        _IGNORED.get(ignoring, ("", "357.1"))[1]
    ],
)
def play_by_effect(
    game: Game,
    unit,
    player: str,
    location: str,
    label: str,
    ignoring: str = "cost",
    exhausted: bool = False,
    base: Cost | None = None,
) -> None:
    """A unit or gear played as an instruction resolves (419.3), its cost ignored (356.1.b.1: `base` None, zero) or
    its base cost set by the instruction (`base`, 356.1: its Power cost alone "ignoring its Energy cost",
    356.1.b.2; its printed cost, 357.1; the one named "for", 356.1.a), paid here with what is added to it;
    `ignoring` says which, in the step's words (`ignoring="energy cost"` and `"nothing"`: paid by the instruction
    before). Its additional costs, an optional one or Accelerate, are still offered and paid (356.1.b.3).
    `exhausted`: the instruction plays it exhausted ("play a Gold gear token exhausted"), so it enters the board
    exhausted. A card whose costs can't be paid (a mandatory additional cost with nothing to pay it with, Power it
    lacks) is not played: the play is undone and the card stays where the effect put it (419.3.b, 358.2, 358.5;
    the Origins FAQ: a card banished to be played that "can't be played for any reason [...] just stays banished")."""
    unit.played_from = unit.zone  # its trash, its hand, a Banishment it was banished to on the way, ...
    unit_player = player if unit.kind == Kind.UNIT else None  # "can only play units to their base" (054.2)
    forbidder = calc.play_forbidden_by(game, player, unit) or calc.play_here_forbidden_by(game, location, unit_player)
    if forbidder is None and only_elsewhere(game, player, unit, location):
        forbidder = unit.id  # "play me only to a battlefield you conquered this turn" (054.2)
    if forbidder is not None:  # can't beats can (054.1): the instruction does what it can, here nothing (055)
        note(
            game,
            StepKind.EFFECT,
            "can't play",
            f"{player} can't play {unit.id} ({game.objects[forbidder].card})",
            "054.1",
        )
        return
    definition = unit.definition
    base = base if base is not None else Cost()  # its base cost as the instruction sets it (356.1), else zero
    calc.decide_additional(game, unit, player)
    accelerate = False
    if definition.has("Accelerate"):
        accelerated = calc.total_cost(game, unit, player, base, True, 0, [])  # 356.1.b.3: still paid
        options = ["pay", "decline"] if calc.resource_problem(game, player, accelerated) is None else ["decline"]
        answer = choose(
            game,
            "accelerate",
            player,
            f"pay Accelerate for {unit.id} (an optional additional cost, still paid when the cost is ignored)",
            options,
            "805.2",
            forced_ok=False,
        )
        accelerate = answer == "pay"
    pays = base != Cost() or accelerate or unit.paid_additional or definition.additional_cost is not None
    total = calc.total_cost(game, unit, player, base, accelerate, 0, []) if pays else None
    problem = (total is not None and calc.resource_problem(game, player, total)) or (
        calc.additional_cost_problem(game, unit, player)
    )
    if problem:  # its costs can't be paid: the play is undone, the card stays where it is (358.2, 358.5)
        said = f"{label}: {player} can't play {unit.id} ({problem.message}): it stays where it is"
        note(game, StepKind.EFFECT, "can't play", said, (problem.rule, "358.2"), ("055", "358.5"))
        return
    if total is not None:
        calc.pay_resources(game, player, total, "356.1.b.3")
        if definition.additional_cost is not None:
            do.pay_additional_cost(game, unit, player, because="356.1.b.3")
    card_finalized(game, unit, player)
    ready = not exhausted and calc.entering_ready(game, unit, player, location, accelerate or definition.enters_ready)
    do.enter_board(game, unit, player, location, ready, None, because="419.3.b")
    card_played(game, unit, player)


@query("play_spell_by_effect")
def play_spell_by_effect(game: Game, run, card, player: str, base: Cost, then: str | None, reduce: int = 0) -> None:
    """A spell played as an instruction resolves (419.3), through the steps of any play (419.3.b): its targets
    chosen now by its player (355.5-355.9; a slot with no legal target: it can't be played, nothing happens,
    419.3.c), its cost totalled with `base` in place of its base cost (356.1; additional costs and changes still
    apply, 356.1.b.3) and paid (357); it goes on the Chain above the item playing it, so it resolves after that
    item has finished (337), and is Finalized (419.4.b). Its optional [Repeat] is not offered. `then: "recycle"`:
    "Then recycle it", a delayed replacement recycling it as it leaves the Chain (390.3.a); `reduce`: Energy its
    cost is reduced by (356.4)."""
    definition, label = card.definition, run.item.label
    item = _spell_item(game, card, player)
    chosen: dict = {}
    for slot, spec in definition.targets.items():
        if calc.mode_unchosen(game, spec, chosen):  # a slot of a mode not chosen: no choice (355.3)
            chosen[slot] = ()
            continue
        options = calc.legal_targets(game, spec, Targeting(definition.name, player, card.id, None, None, chosen))
        if spec.any_number:  # a group, one object at a time (355.11.a, 355.13)
            chosen[slot] = calc.choose_group(game, item, slot, spec, options)
            continue
        if not options and not spec.optional:
            calc.impossible(game, run, f"{card.id} has no legal choice for {slot}: it can't be played", "419.3.c")
            return
        kind = "mode" if spec.type == "mode" else "target"
        prompt = f"{label}: {kind} for {definition.name} played ({slot})"
        pick = choose(game, kind, player, prompt, [*options, *(["none"] if spec.optional else [])], "355.5")
        known = pick in game.objects and spec.type != "location"
        chosen[slot] = () if pick == "none" else (calc.ref(game, pick),) if known else (pick,)
    calc.decide_additional(game, card, player)
    cost = calc.total_cost(game, card, player, base, False, 0, [chosen]).less(energy=reduce)
    problem = calc.resource_problem(game, player, cost) or calc.additional_cost_problem(game, card, player)
    if problem is not None:
        calc.impossible(game, run, f"{card.id}'s cost can't be paid: {problem.message}", "357.1")
        return
    calc.pay_resources(game, player, cost, "357.1", "play spell")
    card.played_from, card.zone, card.location = card.zone, Zone.CHAIN, None
    card.off_chain, card.energy_paid = then, cost.energy
    if definition.additional_cost is not None:
        do.pay_additional_cost(game, card, player, because="357.2")
    item.targets = chosen
    note(
        game, StepKind.EFFECT, "play", f"{label}: {player} plays {card.id} ({definition.name})", run.because, ("419.3",)
    )
    calc.put_chosen_on_chain(game, item, "spell")
    card_finalized(game, card, player)


# -- hiding ---------------------------------------------------------------------------------------------------


def hide_candidates(game: Game, player: str):
    for card in game.hand(player):
        if card.definition.has("Hidden"):
            for bf in game.battlefields():
                yield Hide(by=player, card=card.id, at=bf.id)


@action("hide", Hide, because=("421.2",), candidates=hide_candidates)
@procedure(
    "hide",
    StepKind.ACTION,
    defines=("421.1", "811.1.b"),
    summary=lambda g, a: f"{a.by} hides {a.card} at {a.at}",
    objects=lambda g, a: [a.card, a.at],
)
def hide(game: Game, act: Hide) -> None:
    """421: hide a card with [Hidden] facedown at a battlefield you control, for [A]; no chain (811.1.c.2)."""
    player, card, where = act.by, game.obj(act.card), act.at
    if card.owner != player or card.zone != Zone.HAND or not card.definition.has("Hidden"):
        raise Refusal("811.1", f"{card.id} is not a card with [Hidden] in {player}'s hand")
    calc.check_discretionary(game, player, "hiding")
    if not game.is_battlefield(where) or game.objects[where].battlefield_controller != player:
        raise Refusal("421.1", f"cards are hidden at a battlefield their owner controls, not {where}")
    hidden = sum(1 for o in game.objects.values() if o.zone == Zone.FACEDOWN and o.location == where)
    room = 2 if calc.restricted_by(game, game.objects[where], "hide_an_additional_card") else 1  # 107.3.b.1
    if hidden >= room:
        raise Refusal("107.3.b", f"{where} already has {hidden} facedown card(s), its maximum occupancy")
    if not game.players[player].hides_ignoring_costs:  # "You can hide cards ignoring costs this turn"
        calc.pay_resources(game, player, Cost(power=1), "811.1.b")  # [A]: Power of any domain
    card.zone, card.location, card.hidden_turn = Zone.FACEDOWN, where, game.turn_number
    calc.fire(game, Event("hide", player=player, location=where))  # "When you hide a card" (383.2)
    calc.cleanup(game, "a card was hidden", "319.7")
    calc.settle_priority(game)


# -- instructions --------------------------------------------------------------------------------------------


@instruction("banish_and_play")
def op_banish_and_play(game: Game, run, ins) -> None:
    """ "Banish X, then its owner plays it (to their base / to any battlefield / to the same location), ignoring
    its cost": where it enters, `to` (`effect_plays.play_location`)."""
    for unit_id in calc.still_there(game, run, ins["what"], "banishing and playing"):
        unit = game.objects[unit_id]
        was_at, was_controller = unit.location, unit.controller
        do.banish(game, unit_id, None, run.item.controller, because=run.because)
        if ins.get("to") == "same" and was_at == "base" and was_controller != unit.owner:
            # "to the same location": another player's base, where its owner can't play it (355.2.a)
            calc.impossible(game, run, f"{unit.owner} can't play {unit_id} to {was_controller}'s base", "355.2.a")
            continue
        place = calc.play_location(game, unit, unit.owner, ins.get("to", "base"), was_at)
        do.play_by_effect(game, unit, unit.owner, place, run.item.label, because=run.because)


@instruction("play_banished_by_this")
def op_play_banished_by_this(game: Game, run, ins) -> None:
    """ "Play all units banished with this, ignoring their costs": the cards this object banished (427.3). `one`:
    "Play a unit banished with this" (its costs paid, 357.1): one of them its player chooses, among those whose
    cost can be paid and that have a place to go (`off_board.unit_playable`); with none, nothing happens (419.3.c)."""
    banished = [o for o in game.objects.values() if o.zone == Zone.BANISHMENT and o.banished_by == run.item.source]
    player = run.item.controller
    if not ins.get("one"):
        for unit in banished:
            do.play_by_effect(game, unit, player, "base", run.item.label, because=run.because)
        return
    playable = {card.id: found for card in banished if (found := calc.unit_playable(game, player, card, ins))}
    if not playable:
        calc.impossible(game, run, f"{player} can play no unit banished with this", "419.3.c")
        return
    pick = choose(game, "card", player, f"{run.item.label}: the unit to play", list(playable), "419.3")
    cost, places = playable[pick]
    calc.play_unit(game, run, game.objects[pick], cost, ins, places)


@instruction("reveal_play_unit")
def op_reveal_play_unit(game: Game, run, ins) -> None:
    """Reveal from the top of the deck until a unit; play it, ignoring its cost; recycle the rest (416)."""
    player = run.item.controller
    revealed = []
    for card in calc.deck_to_look_at(game, player):
        revealed.append(card.id)
        if card.kind == Kind.UNIT:
            calc.reveal(game, player, revealed, run.because)
            card.zone = Zone.BANISHMENT
            card.banished_by = run.item.source
            do.play_by_effect(game, card, player, "base", run.item.label, because=run.because)
            break
    for other in revealed[:-1]:
        game.objects[other].order = game.tick() + 10_000  # recycled to the bottom (416.1.a)


@instruction("hide_ignoring_costs")
def op_hide_ignoring_costs(game: Game, run, ins) -> None:
    """ "You can hide cards ignoring costs this turn": the controller's hides pay no [A] (811.1.b) until the turn
    ends (317.2.c)."""
    game.players[run.item.controller].hides_ignoring_costs = True
    note(
        game,
        StepKind.EFFECT,
        "hide",
        f"{run.item.label}: {run.item.controller} hides ignoring costs this turn",
        run.because,
        ("811.1.b", "317.2.c"),
        [run.item.controller],
    )
