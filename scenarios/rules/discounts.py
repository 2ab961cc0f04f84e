"""Cost increases 356.3 and discounts 356.4: a card's own ("I cost [1] less for each card in your trash", "This
costs [2] less if you control a Mech"), an activated ability's ("This ability costs [1] less for each rune you
control"), those a card on the board gives ("Your spells cost [1] less", "Opponents' spells cost [1] more", a
battlefield's "the first friendly gear played each turn"), and those an effect makes for the turn ("the next spell
you play this turn costs [5] less", 317.2.c).

A discount counting things takes its amount off per thing counted (356.4.b), as the game is while the card is
played; "to a minimum of [1]" stops that discount alone at 1 Energy (356.4.e), so its player applies those first,
the order costing them least; a discount of one component of the cost (its [Repeat] costs) applies to it as it is
added (356.4.c). The condition words of discounts are registered here.
"""

from __future__ import annotations

from scenarios.cards import Cost
from scenarios.game import Game
from scenarios.kernel import Condition, calc, condition, instruction, note, query
from scenarios.objects import Kind, View, Zone
from scenarios.selectors import Quantity
from scenarios.trace import StepKind


def _count(game: Game, word: str, player: str, card) -> int:
    if word == "card in your trash":
        return sum(1 for o in game.objects.values() if o.zone == Zone.TRASH and o.owner == player)
    if word == "card with my name in your trash":
        return sum(
            1 for o in game.objects.values() if o.zone == Zone.TRASH and o.owner == player and o.card == card.card
        )
    if word == "gear you control":
        return sum(
            1 for o in game.objects.values() if o.zone == Zone.BOARD and o.kind == Kind.GEAR and o.controller == player
        )
    if word == "mighty unit you control":
        return sum(1 for u in game.units(controller=player) if calc.is_mighty(game, u))
    if word == "card you played this turn":
        return calc.plays_checked(game, player)[0]
    if word == "time the additional cost was paid":
        return card.paid_additional
    if word == "might of your mightiest unit":
        return max((calc.might(game, u) for u in game.units(controller=player)), default=0)
    if word == "rune you control":
        return len(calc.runes_on_board(game, player))
    if word == "friendly unit with Temporary":
        return sum(1 for u in game.units(controller=player) if calc.has_keyword(game, u, "Temporary"))
    raise ValueError(f"no count named {word!r}")


def _chose_tagged(game: Game, tags: list[str], choices) -> bool:
    """ "If you choose a Bird, Cat, Dog, or Poro": an object chosen as the card is played (its targets, chosen
    before its cost is determined, 350) has one of the tags (133.8)."""
    chosen = [ref[0] for choice in choices for refs in choice.values() for ref in refs if not isinstance(ref, str)]
    held = any(calc.tagged(game, game.objects[i], tags) for i in chosen if i in game.objects)
    note(
        game,
        StepKind.EFFECT,
        "discount",
        f"a {' / '.join(tags)} is{'' if held else ' not'} chosen",
        "356.4.a",
        ("133.8",),
        chosen,
    )
    return held


def _said(for_each) -> str:
    return for_each.words() if isinstance(for_each, Quantity) else str(for_each)


@query("discount_amount")
def discount_amount(game: Game, discount, player: str, card) -> tuple[int, int]:
    """The Energy and Power a discount of `card` takes off (356.4.b): its amount, times the things it counts "for
    each"."""
    if isinstance(discount.for_each, Quantity):  # "for each of the following tags among your units — ...": its view
        times = calc.quantity(game, View(card.id, player), discount.for_each) or 0
    else:
        times = 1 if discount.for_each is None else _count(game, discount.for_each, player, card)
    return discount.energy * times, discount.power * times


# -- the conditions of discounts ("This costs [2] less if you control a Mech", 356.4.a) -------------------------


def _controls_tagged(tag: str):
    def holds(game: Game, context) -> bool:
        return any(calc.tagged(game, u, tag) for u in game.units(controller=context.player))

    return holds


for _tag in ("Mech", "Dragon", "Poro", "Bird", "Cat", "Dog"):  # 133.8: a unit's tags
    condition(f"you control a {_tag}", "133.8")(_controls_tagged(_tag))


@condition("you control something empowered", "441.1.a")
def _controls_empowered(game: Game, context) -> bool:
    return any(o.zone == Zone.BOARD and o.controller == context.player and o.empowered for o in game.objects.values())


@condition("played from anywhere other than your hand", "356.4.a")
def _not_from_hand(game: Game, context) -> bool:
    """ "I cost [2] less to play from anywhere other than your hand": the card is being played from another zone
    (facedown, the trash)."""
    source = game.objects.get(context.source) if context.source else None
    return source is not None and source.zone != Zone.HAND


# -- increases and discounts (356.3, 356.4) ------------------------------------------------------------------


def _chooses_friendly_here(game: Game, player: str, source, choices) -> bool:
    """Do the play's choices name a unit at this battlefield friendly to the spell (controlled by its player)?"""
    chosen = [ref[0] for choice in choices for refs in choice.values() for ref in refs if not isinstance(ref, str)]
    return any(
        (unit := game.objects.get(object_id)) is not None
        and unit.kind == Kind.UNIT
        and unit.zone == Zone.BOARD
        and unit.location == source.id
        and unit.controller == player
        for object_id in chosen
    )


def _applies(game: Game, modifier, card, player: str, source, choices=()) -> bool:
    """Does a cost modifier of `source` (on the board) apply to `player` playing `card`?"""
    definition = card.definition
    controller = source.battlefield_controller if source.kind == Kind.BATTLEFIELD else source.controller
    if modifier.whose != "any" and (modifier.whose == "you") != (controller == player):
        return False
    if modifier.cards != "card" and definition.object_kind != modifier.cards:
        return False
    if modifier.from_trash and card.zone != Zone.TRASH:
        return False
    if modifier.keyword and not (
        calc.has_keyword(game, card, modifier.keyword)
        or (modifier.keyword == "Reaction" and card.zone == Zone.FACEDOWN)
    ):
        return False
    if modifier.first_each_turn and any(
        game.objects[i].definition.object_kind == definition.object_kind
        for i in calc.plays_checked(game, player)[1]
        if i in game.objects
    ):
        return False
    if modifier.chooses and not _chooses_friendly_here(game, player, source, choices):
        return False
    return modifier.tag is None or modifier.tag in definition.tags


def _modifiers(
    game: Game, card, player: str, component: str | None = None, choices=()
) -> list[tuple[int, int, int | None, str, str]]:
    """(energy, power, minimum, whose, rule) of every cost modifier of a card on the board that applies to this play
    (its condition holding: a step shows it)."""
    found = []
    for source in game.objects.values():
        definition = source.definition
        if source.zone != Zone.BOARD or definition is None or not definition.cost_modifiers:
            continue
        for modifier in definition.cost_modifiers:
            if modifier.component != component or not _applies(game, modifier, card, player, source, choices):
                continue
            context = Condition(player, source.id, False)
            if modifier.condition is not None and not calc.decide_condition(
                game, modifier.condition, context, definition.name, f"{card.card} costs more or less", "356.4.a"
            ):
                continue
            rule = "356.3" if modifier.energy > 0 or modifier.power > 0 else "356.4.a"
            found.append((modifier.energy, modifier.power, modifier.minimum, definition.name, rule))
    return found


def _this_turn(game: Game, card, player: str) -> list[tuple[int, int, int | None, str, str]]:
    """The changes an effect made to what `player`'s cards cost this turn (`cost_change`) that apply to `card`; one
    made for "the next" such card is used up by it."""
    pool = game.players[player]
    if not pool.cost_changes:
        return []
    found: list[tuple[int, int, int | None, str, str]] = []
    kept = []
    for change in pool.cost_changes:
        kind, energy, power, once, label = change
        if kind != "card" and card.definition.object_kind != kind:
            kept.append(change)
            continue
        found.append((energy, power, None, label, "356.3" if energy > 0 or power > 0 else "356.4.a"))
        if not once:
            kept.append(change)
    if len(kept) != len(pool.cost_changes):
        pool.cost_changes = tuple(kept)
    return found


@instruction("cost_change")
def op_cost_change(game: Game, run, ins) -> None:
    """`{op: cost_change, cards: spell|unit|gear|card, energy: -5, power: 0, once: true}`: "the next spell you play
    this turn costs [5] less" (`once`), "your units cost [1] more to play this turn": for the controller's plays
    until the turn ends (317.2.c)."""
    player = run.item.controller
    change = (
        ins.get("cards", "card"),
        ins.get("energy", 0),
        ins.get("power", 0),
        bool(ins.get("once")),
        run.item.label,
    )
    game.players[player].cost_changes = (*game.players[player].cost_changes, change)
    what = "the next" if ins.get("once") else "their"
    note(
        game,
        StepKind.EFFECT,
        "cost",
        f"{run.item.label}: {what} {change[0]}s {player} plays this turn cost "
        f"{abs(change[1])} energy {'more' if change[1] > 0 else 'less'}",
        run.because,
        ("356.3" if change[1] > 0 else "356.4.b",),
        [player],
    )


@query("component_cost")
def component_cost(game: Game, card, player: str, cost: Cost, component: str) -> Cost:
    """356.4.c: a discount of one component of the cost ("[Repeat] costs cost [1] less") applies to it as it is
    added, before the discounts of the total."""
    for energy, power, _minimum, name, _rule in _modifiers(game, card, player, component):
        note(
            game,
            StepKind.EFFECT,
            "discount",
            f"{name}: its {component} cost costs {-energy} energy less",
            "356.4.c",
            (),
            [player],
        )
        cost = cost.discounted(-energy, -power)
    return cost


@query("changed_cost")
def changed_cost(game: Game, card, player: str, cost: Cost, choices=()) -> Cost:
    """356.3: the increases (of cards on the board: "Opponents' spells cost [1] more"), then 356.4: the discounts,
    the card's own ("I cost [1] less for each ...") and those of cards on the board ("Your spells cost [1] less");
    a discount's minimum is its own (356.4.e), so its player applies those first, the order costing them least."""
    definition = card.definition
    discounts: list[tuple[int, int, int | None, str, str]] = []
    changes = _modifiers(game, card, player, None, choices) + _this_turn(game, card, player)
    for energy, power, minimum, name, rule in changes:
        if rule == "356.3":
            cost = cost.plus(Cost(energy=energy, power=power))  # [A] more: Power of any domain
            note(
                game, StepKind.EFFECT, "cost", f"{name}: {card.card} costs {energy} energy more", "356.3", (), [player]
            )
        else:
            discounts.append((-energy, -power, minimum, name, rule))
    for discount in definition.discounts:
        if discount.condition is not None and not calc.decide_condition(
            game, discount.condition, Condition(player, card.id, True), definition.name, "it costs less", "356.4.a"
        ):
            continue
        if discount.chosen_tag and not _chose_tagged(game, discount.chosen_tag, choices):
            continue
        energy, power = discount_amount(game, discount, player, card)
        if discount.for_each:
            note(
                game,
                StepKind.EFFECT,
                "discount",
                f"{definition.name} costs {energy} energy less: {discount.energy} for each {_said(discount.for_each)}",
                "356.4.a",
                ("356.4.b",),
                [player],
            )
        discounts.append((energy, power, discount.minimum, definition.name, "356.4.a"))
    for energy, power, minimum, name, _rule in sorted(discounts, key=lambda d: d[2] is None):
        if minimum is not None:
            energy = max(0, min(energy, cost.energy - minimum))
            note(
                game,
                StepKind.EFFECT,
                "discount",
                f"{name}: {energy} energy less, to a minimum of {minimum}",
                "356.4.e",
                (),
                [player],
            )
        cost = cost.discounted(energy, power)
    return cost


@query("ability_discounts")
def ability_discounts(game: Game, source, ability, player: str, cost: Cost) -> Cost:
    """ "This ability costs [1] less for each rune you control": an activated ability's discounts, applied to its
    cost as a card's are (356.4.a, 356.4.b), while their condition holds."""
    name = source.definition.name
    for discount in ability.discounts:
        if discount.condition is not None and not calc.decide_condition(
            game, discount.condition, Condition(player, source.id, False), name, "its ability costs less", "356.4.a"
        ):
            continue
        energy, power = discount_amount(game, discount, player, source)
        note(
            game,
            StepKind.EFFECT,
            "discount",
            f"{name}: its ability costs {energy} energy less",
            "356.4.b",
            (),
            [player],
        )
        cost = cost.discounted(energy, power)
    return cost


@condition("you control a battlefield with exactly two units there", "356.4.a")
def _two_units_there(game: Game, context) -> bool:
    return any(
        bf.battlefield_controller == context.player and len(game.units(bf.id)) == 2 for bf in game.battlefields()
    )


@condition("you control this battlefield", "188")
def _controls_this_battlefield(game: Game, context) -> bool:
    source = game.objects.get(context.source) if context.source else None
    return source is not None and source.battlefield_controller == context.player


@condition("during a showdown here", "341")
def _showdown_here(game: Game, context) -> bool:
    return game.showdown is not None and game.showdown.battlefield == context.source
