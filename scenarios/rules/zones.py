"""Cards changing zones: Draw 413, Discard 422, Counter 425, and returning a permanent to its owner's hand."""

from __future__ import annotations

from scenarios.game import Game
from scenarios.kernel import calc, choose, do, event_kind, instruction, log, note, procedure, query
from scenarios.objects import Event, ItemKind, Obj, Zone
from scenarios.trace import StepKind

event_kind("draw", "413.1")
event_kind("discard", "422.1")
event_kind("discard_cards", "422.1.b", would="discard cards")  # once per discard of one or more cards


def _top_card(game: Game, player: str, because) -> Obj | None:
    """The top card of a Main Deck, the player burned out first while it is empty (`because`: the rules of the
    draw or move that found it so); None when an opponent would win first (431.3.a)."""
    if not game.deck(player) and not calc.burn_out_until_a_card(game, player, because):
        return None
    return game.deck(player)[0]


@procedure(
    "draw",
    StepKind.EFFECT,
    defines=("413.1",),
    summary=lambda g, player, n, label=None: (f"{label}: " if label else "") + f"{player} draws {n}",
    objects=lambda g, player, n, label=None: [player],
    pure=True,
)
def draw(game: Game, player: str, n: int, label=None) -> None:
    """Each card drawn is one event a replacement effect may replace (369); a draw that happens from an empty
    Main Deck burns the player out first, then goes on (413.4, 431.1.a)."""
    for _ in range(n):
        if calc.would(game, Event("draw", player=player, amount=1)):
            continue
        card = _top_card(game, player, ("413.4.b", "431.1.a"))
        if card is None:
            return
        card.zone = Zone.HAND
        card.order = game.tick()
        calc.card_drawn(game, player)


@procedure(
    "trash_from_deck",
    StepKind.EFFECT,
    defines=("108.2.b",),
    summary=lambda g, player, n, label: f"{label}: {player} puts the top {n} card(s) of its Main Deck into its trash",
    objects=lambda g, player, n, label: [player],
    pure=True,
)
def trash_from_deck(game: Game, player: str, n: int, label: str) -> None:
    """One card at a time; a Main Deck that runs out burns the player out, then the rest is completed from the
    deck the Burn Out refilled (431.1.b)."""
    for _ in range(n):
        card = _top_card(game, player, "431.1.b")
        if card is None:
            return
        card.zone = Zone.TRASH


@instruction("trash_from_deck")
def op_trash_from_deck(game: Game, run, ins) -> None:
    """`as`: the cards put into the trash are what later text names ("when you burn a unit this way")."""
    before = {o.id for o in game.objects.values() if o.zone == Zone.TRASH}
    do.trash_from_deck(game, run.item.controller, ins.get("n", 1), run.item.label, because=run.because)
    if ins.get("as"):
        trashed = [o.id for o in game.objects.values() if o.zone == Zone.TRASH and o.id not in before]
        run.legal[ins["as"]] = trashed


@procedure(
    "discard",
    StepKind.EFFECT,
    defines=("422.1",),
    summary=lambda g, player, card_id: f"{player} discards {card_id}",
    objects=lambda g, player, card_id: [card_id],
    pure=True,
)
def discard(game: Game, player: str, card_id: str) -> None:
    game.objects[card_id].zone = Zone.TRASH
    game.players[player].discarded_this_turn += 1
    calc.fire(game, Event("discard", unit=card_id, player=player, card=card_id))  # "when you discard me": its own


@procedure(
    "return_to_hand",
    StepKind.EFFECT,
    defines=("108.7.a", "124.1"),
    summary=lambda g, ids, label: f"{label}: return {', '.join(ids)} to its owner's hand",
    objects=lambda g, ids, label: ids,
)
def return_to_hand(game: Game, object_ids, label: str) -> None:
    for object_id in object_ids:
        calc.leave_board(game, game.objects[object_id], Zone.HAND)


@procedure(
    "counter",
    StepKind.EFFECT,
    defines=("425.1", "425.1.a", "425.1.b"),
    summary=lambda g, card_id, label, to_hand=False: (
        f"{label}: counter {card_id}" + (", returning it to its owner's hand instead of their trash" if to_hand else "")
    ),
    objects=lambda g, card_id, label, to_hand=False: [card_id],
    pure=True,
)
def counter(game: Game, card_id: str, label: str, to_hand: bool = False) -> None:
    """A countered card does nothing, goes to the Trash (425.1.a.1) and is not played (no "when you play" trigger).
    `to_hand`: "return it to its owner's hand instead of putting it in their trash", a replacement of that
    placement (369, 370.1.b); a card its Flow banishes is not put in the trash, so it is banished still (829.1.b.1)."""
    for item in game.chain:
        if item.card == card_id and item.kind == ItemKind.SPELL:
            game.chain = tuple(i for i in game.chain if i is not item)
            card = game.objects[card_id]
            calc.off_the_chain(game, card, item.controller, item.label)
            if to_hand and card.zone == Zone.TRASH:  # not where Flow or "then recycle it" sends it instead
                card.zone = Zone.HAND
            log(game, "resolved", f"{item.label} [countered]", "425.1.a")


@query("off_the_chain")
def off_the_chain(game: Game, card, player: str, label: str) -> None:
    """A spell leaves the Chain, resolved or countered: to its owner's Trash (359.3.d), or where a delayed
    replacement made as it was played sends it instead (390.3.a): banished when it was played with Flow
    (829.1.b.1), by the player who played it ("Then banish it", 829.1.b), recycled ("Then recycle it", 416.1)."""
    if card.off_chain == "recycle":
        do.recycle(game, [card.id], label, because="390.3.a")
        return
    card.zone = Zone.BANISHMENT if card.off_chain == "banish" else Zone.TRASH
    if card.off_chain == "banish":
        calc.banished(game, card, player)


@query("reveal")
def reveal(game: Game, player: str, card_ids, because) -> None:
    note(game, StepKind.EFFECT, "reveal", f"{player} reveals {', '.join(card_ids)}", because, ("424.1",), card_ids)


# -- instructions --------------------------------------------------------------------------------------------


@instruction("draw")
def op_draw(game: Game, run, ins) -> None:
    n = calc.amount(game, run, ins.get("n", 1))
    if n is None:
        calc.impossible(game, run, "the number is null: nothing is drawn", "359.3.e.12")
    elif n > 0:
        do.draw(game, run.item.controller, n, run.item.label, because=run.because)


@instruction("discard")
def op_discard(game: Game, run, ins) -> None:
    """422.4: discard as many as possible; the player chooses which (422.1.a). With `noted: <name>`, the cards
    discarded are what that name refers to in the item's later instructions ("Discard 1. Deal its Energy cost
    ...": linked instructions, 359.3.e.14)."""
    player = run.item.controller
    discarded = 0
    picked: list[str] = []
    for _ in range(ins.get("n", 1)):
        hand = [o.id for o in game.hand(player)]
        if not hand:
            calc.impossible(game, run, f"{player} has no card left to discard", "422.4")
            break
        pick = choose(game, "discard", player, "card to discard", hand, "422.1.a")
        do.discard(game, player, pick, because=run.because)
        discarded += 1
        picked.append(pick)
    if "noted" in ins:
        run.legal[ins["noted"]] = tuple(picked)
    calc.discarded_cards(game, player, discarded)


@query("discarded_cards")
def discarded_cards(game: Game, player: str, n: int) -> None:
    """One discard of `n` cards (an instruction's, a cost's): "When you discard one or more cards" triggers once
    for all of them (422.1.b), each card's own discard having been an event too."""
    if n:
        calc.fire(game, Event("discard_cards", player=player, amount=n))


@instruction("return_to_hand")
def op_return_to_hand(game: Game, run, ins) -> None:
    ids = calc.still_there(game, run, ins["what"], "returning to hand")
    ids = calc.unreplaced(game, run, "return_to_hand", ids) if ids else ids
    if ids:
        do.return_to_hand(game, ids, run.item.label, because=run.because)


@instruction("counter")
def op_counter(game: Game, run, ins) -> None:
    """Counter each card named (425.1); one whose own text says "This can't be countered" (its card's restriction
    `uncounterable`, a statement of fact, 364.2) stays on the Chain: "can't" beats the counter's "can" (054.1)."""
    for card_id in calc.refs(game, run, ins["what"]):
        card = game.objects.get(card_id)
        if card is not None and card.definition is not None and "uncounterable" in card.definition.restrictions:
            calc.impossible(game, run, f"{card_id} can't be countered: it stays on the Chain", "054.1")
            continue
        do.counter(game, card_id, run.item.label, ins.get("to") == "hand", because=run.because)
