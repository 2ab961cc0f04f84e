"""Looking at and revealing the top cards of a Main Deck, then taking one of them and sending the rest away:
"Look at the top 3 cards of your Main Deck. You may reveal a unit from among them and draw it. Recycle the
rest." and "Reveal the top card of your Main Deck. If it's a gear, draw it. Otherwise, recycle it."

`{op: look_at_deck, n, reveal?, take: {card, min_energy?, may?, verb, show?}, rest, else?}`:
- the top `n` cards are looked at, by their controller only (128.4, Private), or revealed to every player
  (424.1); they stay in the Main Deck while looked at (424.1.a.2). An empty or short deck is looked at as far
  as it goes, without a Burn Out (431.1.c) under 1.4; an earlier version may burn out first
  (`looking_past_the_deck`, read by `deck_to_look_at`).
- `take`: one card among them that is a `card` (unit, gear, spell, or any card) with at least `min_energy`
  (`more_than_killed`: Might up to that much more than the unit a `kill` before it killed, as it died),
  chosen by the player (a choice the scenario answers; `may`: the player may take none); `show`: revealed as
  taken ("you may reveal a unit from among them and draw it", 424.1); `verb` `draw`: drawn (413.1: drawing
  takes a card from a zone into the hand), `hand`: put into the hand (not a draw), `play`: banished, then played
  (its cost reduced by `reduce` Energy: "You may banish a unit from among them, then play it, reducing its cost
  by [5]"; `here`: a unit may be played here too); any that fits may be banished, and one that can't be played
  (`effect_plays.effect_playable`) stays banished (358.5; the Spiritforged FAQ: banishment is "a place to send
  the card back to if it can't be played for whatever reason").
- `rest`: what happens to the cards not taken: `recycle` (416.1.a, in the order given: 416.5 makes it random,
  the engine keeps the order), `trash`, `draw` (413.1), `may_recycle` (each, the player's choice; `reorder`: those kept put back
  on top in the order the player chooses); `else`: instructions executed when no card was taken ("Otherwise, put it
  in your trash and give me +2 [Might] this turn"); `during`: instructions executed while they are revealed, before
  the rest goes, that may count them (`{count: {among: looked, ...}}`: "for each card with [Hidden] revealed this
  way").
With too few cards among those looked at for what follows, what follows is ignored (431.1.c.1).
"""

from __future__ import annotations

from scenarios.game import Game
from scenarios.kernel import calc, choose, do, instruction, note, procedure
from scenarios.objects import DECK, HAND, TRASH, Event, Obj
from scenarios.trace import StepKind


def _fits(card: Obj, take: dict) -> bool:
    kind = take.get("card", "card")
    kinds = ("unit", "gear") if kind == "permanent" else (kind,)  # "a unit or gear" (133.4.a.2)
    if kind != "card" and card.kind not in kinds:
        return False
    return (card.definition.energy or 0) >= take.get("min_energy", 0)


@procedure(
    "take_looked_card",
    StepKind.EFFECT,
    summary=lambda g, player, card_id, verb, label: (
        f"{label}: {player} " + ("draws" if verb == "draw" else "puts into their hand") + f" {card_id}"
    ),
    objects=lambda g, player, card_id, verb, label: [card_id],
    cite=lambda g, player, card_id, verb, label: ["413.1"] if verb == "draw" else [],
    pure=True,
)
def take_looked_card(game: Game, player: str, card_id: str, verb: str, label: str) -> None:
    """A card among those looked at goes to the hand: drawn (413.1: a draw takes a card from a zone, here the
    Main Deck; a replacement effect of the draw may replace it, 369) or put there."""
    if verb == "draw" and calc.would(game, Event("draw", player=player, amount=1)):
        return
    card = game.objects[card_id]
    card.zone = HAND
    card.order = game.tick()
    if verb == "draw":
        calc.card_drawn(game, player)


@instruction("look_at_deck")
def op_look_at_deck(game: Game, run, ins) -> None:
    player, label = run.item.controller, run.item.label
    deck = calc.deck_to_look_at(game, player)
    looked = list(deck[: ins["n"]])
    reveal = ins.get("reveal", False)
    verb = "reveals" if reveal else "looks at"
    no_burn_out = game.reading("looking_past_the_deck")  # the rule in the version judged under (431.1.c in 1.4)
    rule = no_burn_out.cited[0] if no_burn_out.choice == "no_burn_out" else None
    if not looked:
        calc.impossible(game, run, f"{player}'s Main Deck is empty: nothing to look at or reveal", rule)
        return
    shown = ", ".join(c.id for c in looked)
    if reveal:
        calc.reveal(game, player, [c.id for c in looked], run.because)
    else:
        ids = [c.id for c in looked]
        note(
            game,
            StepKind.EFFECT,
            "look",
            f"{player} looks at the top of their Main Deck: {shown}",
            run.because,
            ("128.4",),
            ids,
        )
    if len(looked) < ins["n"]:
        held = f"{player}'s Main Deck held only {len(looked)}: {verb} those"
        note(game, StepKind.EFFECT, "look", held, run.because, (rule,) if rule else (), [player])
    taken = _take(game, run, ins.get("take"), looked)
    if ins.get("during"):  # "Deal 1 to that unit for each card with [Hidden] revealed this way, then recycle them"
        run.legal["looked"] = tuple(c.id for c in looked)  # what "revealed this way" counts, still in the deck
        calc.execute(game, run, ins["during"])
    rest = [c.id for c in looked if c.id != taken and c.zone == DECK]
    if rest and ins.get("rest") == "may_recycle":
        prompt = f"{label}: recycle it to the bottom of the Main Deck?"
        chosen = [c for c in rest if choose(game, "may", player, f"{c}: {prompt}", ["yes", "no"], "416.1") == "yes"]
        rest = [c for c in rest if c not in chosen]
        if chosen:
            do.recycle(game, chosen, label, because=run.because)
        if ins.get("reorder") and len(rest) > 1:
            _reorder(game, run, rest)
    elif rest and ins.get("rest") == "recycle":
        do.recycle(game, rest, label, because=run.because)
    elif rest and ins.get("rest") == "draw":  # "Draw any you didn't banish" (413.1)
        for card_id in rest:
            take_looked_card(game, player, card_id, "draw", label, because=run.because)
    elif rest and ins.get("rest") == "trash":
        _to_trash(game, rest, label, because=run.because)
    if taken is None and ins.get("else"):
        calc.execute(game, run, ins["else"])


def _reorder(game: Game, run, kept: list[str]) -> None:
    """ "Put those you don't back in any order": the kept cards are the top of the deck again, in the order the
    player chooses (an order lists them all, top first)."""
    player, label = run.item.controller, run.item.label
    positions = sorted(game.objects[c].order for c in kept)
    order = choose(game, "order", player, f"{label}: the order to put them back in, top first", kept, "424.4.a")
    put_back_in_order(game, player, order, positions, label, because=run.because)


@procedure(
    "put_back_in_order",
    StepKind.EFFECT,
    defines=("108.4",),
    summary=lambda g, player, order, positions, label: (
        f"{label}: {player} puts {', '.join(order)} back on top of their Main Deck, in that order"
    ),
    objects=lambda g, player, order, positions, label: list(order),
    pure=True,
)
def put_back_in_order(game: Game, player: str, order, positions, label: str) -> None:
    for card_id, position in zip(order, positions, strict=True):
        game.objects[card_id].order = position


def _take(game: Game, run, take: dict | None, looked: list[Obj]) -> str | None:
    if not take:
        return None
    player, label = run.item.controller, run.item.label
    fitting = [c.id for c in looked if _fits(c, take)]
    if "more_than_killed" in take:  # "has Might up to 1 more than the killed unit": its Might as it died (359.3.e.13)
        killed = [game.objects[i].might_as_it_died for i in run.legal.get("killed", ())]
        most = killed[0] + take["more_than_killed"] if killed and killed[0] is not None else None
        if most is None:  # not killed: a null Might, which no card's Might is up to (359.3.e.12)
            note(
                game,
                StepKind.EFFECT,
                "null",
                f"{label}: no unit was killed: no Might to compare",
                run.because,
                ("359.3.e.12",),
            )
        fitting = [c for c in fitting if most is not None and (game.objects[c].definition.might or 0) <= most]
    kind = take.get("card", "card")
    if not fitting:
        if not take.get("may") and kind == "card":  # nothing left to take: the rest is ignored (431.1.c.1)
            calc.impossible(game, run, "no card among those looked at to take", "431.1.c.1")
        return None
    options = fitting + (["none"] if take.get("may") else [])
    doing = "to banish and play" if take.get("verb") == "play" else "to take into the hand"
    prompt = f"{label}: which {kind} {doing}" + (" (or none)" if take.get("may") else "")
    pick = choose(game, "look", player, prompt, options, "424.4.a")
    if pick == "none":
        return None
    if take.get("show"):
        calc.reveal(game, player, [pick], run.because)
    if take.get("verb") == "play":  # "banish it, then play it" (427, 419.3)
        do.banish(game, pick, run.item.source, player, because=run.because)
        calc.play_by_instruction(game, run, game.objects[pick], take)
        if take.get("as"):  # what a reflexive trigger after it names ("Then you may do this: Empower it")
            run.legal[take["as"]] = (pick,)
        return pick
    take_looked_card(game, player, pick, take.get("verb", "draw"), label, because=run.because)
    return pick


@procedure(
    "trash_looked_cards",
    StepKind.EFFECT,
    defines=("108.2",),
    summary=lambda g, ids, label: f"{label}: put {', '.join(ids)} into the trash",
    objects=lambda g, ids, label: list(ids),
    pure=True,
)
def _to_trash(game: Game, card_ids, label: str) -> None:
    for card_id in card_ids:
        game.objects[card_id].zone = TRASH


def _deck_position(game: Game, player: str, where: str) -> int:
    """The sort position of a card put on the top or the bottom of `player`'s Main Deck (read top first)."""
    if where == "bottom":
        return calc.bottom_of_deck(game)
    return min((c.order for c in game.deck(player)), default=0) - 1


@procedure(
    "put_on_deck",
    StepKind.EFFECT,
    defines=("108.4",),
    summary=lambda g, player, card_id, where, label: (
        f"{label}: {player} puts {card_id} on the {where} of their Main Deck"
    ),
    objects=lambda g, player, card_id, where, label: [card_id],
    pure=True,
)
def put_on_deck(game: Game, player: str, card_id: str, where: str, label: str) -> None:
    card = game.objects[card_id]
    order = _deck_position(game, player, where)
    card.zone = DECK
    card.order = order


@instruction("put_from_hand_on_deck")
def op_put_from_hand_on_deck(game: Game, run, ins) -> None:
    """ "Put a card from your hand on the top or bottom of your Main Deck": a card of the player's choice (the hand
    is private, so not a target, 355.10.a), then the place of the player's choice; none with an empty hand (055)."""
    player, label = run.item.controller, run.item.label
    hand = [c.id for c in game.hand(player)]
    if not hand:
        calc.impossible(game, run, f"{player} has no card in hand to put on the Main Deck")
        return
    pick = choose(game, "card", player, f"{label}: card from the hand to put on the Main Deck", hand, "108.7.f")
    where = choose(
        game, "top_or_bottom", player, f"{label}: top or bottom of the Main Deck", ["top", "bottom"], "108.4"
    )
    put_on_deck(game, player, pick, where, label, because=run.because)


@instruction("owner_puts_on_deck")
def op_owner_puts_on_deck(game: Game, run, ins) -> None:
    """ "Its owner places it on the top or bottom of their Main Deck": the owner of each object named, still on
    the board, chooses the place; the permanent leaves the board for its owner's Main Deck, a new object there
    (359.3.e.4; a token ceases to exist, 186.1)."""
    for object_id in calc.still_there(game, run, ins["what"], "putting on the Main Deck"):
        obj = game.objects[object_id]
        prompt = f"{run.item.label}: {object_id} on the top or bottom of the Main Deck"
        where = choose(game, "top_or_bottom", obj.owner, prompt, ["top", "bottom"], "108.4")
        board_to_deck(game, obj.owner, object_id, where, run.item.label, because=run.because)


@procedure(
    "board_to_deck",
    StepKind.EFFECT,
    defines=("108.4",),
    summary=lambda g, owner, object_id, where, label: (
        f"{label}: {owner} puts {object_id} on the {where} of their Main Deck"
    ),
    objects=lambda g, owner, object_id, where, label: [object_id],
    pure=True,
)
def board_to_deck(game: Game, owner: str, object_id: str, where: str, label: str) -> None:
    obj = game.objects[object_id]
    order = _deck_position(game, owner, where)  # taken before it joins the deck
    calc.leave_board(game, obj, DECK)
    if obj.zone == DECK:
        obj.order = order
