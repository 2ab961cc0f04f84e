"""Amounts counted as they are used: "deal 2 to it for each Equipment attached to me", "draw 1 for each of your
[Mighty] units", "damage equal to the damage marked on it", "double its Might", "I have +1 [Might] for each
friendly gear", "my Might is increased by your points".

An amount is an integer, "might_of:<reference>" (the current Might of one object), or a *quantity*: one mapping
every instruction taking an amount accepts (`deal`, `might`, `draw`, `gain_xp`, through `calc.amount`) and a
passive may multiply its Might and keywords by (`per`):

    {count: <object filter>}     how many objects pass the filter now (on the board unless it names a zone; `among:
                                 looked`: only the cards the item's look revealed, 424.1)
    {bonus: <object filter>}     the printed Might bonuses of the gear passing it, summed (137.3)
    {tags_among: <filter>, tags: [<tag>, ...]}  how many of the tags the objects passing it have among them (133.8)
    {double: <reference>}        its current Might, as the increase that doubles it (432.1; null off the board)
    {raise_to: <ref>, of: <ref>} the first's Might less the second's, or 0: "increase its Might to the Might of"
    {damage: <reference>}        the damage marked on it (null off the board)
    {keyword: <word>, of: <ref>} the summed value of a keyword it has ("equal to my [Assault]", 807.2)
    {energy_cost: <reference>}   its printed Energy cost (206)
    {printed_might: <reference>} the printed Might of a card off the board ("the burned card's Might"; none but a unit's)
    {points: you}                your points
    times: N                     N for each one counted ("deal 2 ... for each", 135.2.b.5.a)

It is part of the instruction's complement (135.2.b.5.a) and is checked as the instruction is executed (359.3.f.2),
so what changed on the way (a unit killed in reaction, a buff spent) is counted as it is then; a quantity about
an object whose information is no longer available is null, and the instruction is ignored (359.3.e.12).
A passive's quantity is its source's (its "you", its "here") and is counted whenever the layer is applied (477.3).
"""

from __future__ import annotations

from collections.abc import Iterable

from scenarios.game import Game
from scenarios.kernel import EngineError, calc, instruction, note, query, where, who
from scenarios.objects import BOARD, Kind, Obj, View, Zone
from scenarios.selectors import Counted, Quantity
from scenarios.trace import StepKind


@who("attached gear")
def _attached_gear(game: Game, view: View, subject) -> bool:
    """ "Equipment attached to me": gear attached to the card whose text it is (136.2, 719)."""
    return isinstance(subject, Obj) and subject.kind == Kind.GEAR and subject.attached_to == view.source


@who("battlefield you control")
def _battlefield_you_control(game: Game, view: View, subject) -> bool:
    """ "Each battlefield you control" (190.6: a battlefield is controlled by the player who conquered it)."""
    return isinstance(subject, Obj) and subject.kind == Kind.BATTLEFIELD and subject.battlefield_controller == view.you


@where("my battlefield")
def _my_battlefield(game: Game, view: View, location) -> bool:
    """ "At my battlefield": the battlefield the source is at; none while it is in a base."""
    return location is not None and location == view.here and game.is_battlefield(location)


def _one(game: Game, view: View, reference: str, run) -> Obj | None:
    """The object a quantity names, on the board (else its information is null, 359.3.e.12)."""
    if run is not None and reference == "this" and run.source_gone:
        return None
    ids: list = calc.refs(game, run, reference) if run is not None else [view.source] if reference == "this" else []
    obj = game.objects.get(ids[0]) if ids and ids[0] is not None else None
    return obj if obj is not None and obj.zone == BOARD else None


@query("quantity")
def quantity(game: Game, view: View, value: dict | Quantity, run=None) -> int | None:
    """The number a quantity names now, from `view` (an instruction's item or a passive's source); None when
    what it counts about is no longer available (359.3.e.12)."""
    q = value if isinstance(value, Quantity) else Quantity.model_validate(value)
    if q.count is not None:
        candidates: Iterable[Obj] = game.objects.values()
        if q.count.among is not None:  # "each card ... revealed this way": those the item noted (424.1)
            candidates = [game.objects[i] for i in calc.refs(game, run, q.count.among)] if run is not None else []
        counted = sum(1 for obj in candidates if calc.matches_object(game, q.count, view, obj))
        return q.times * counted
    if q.bonus is not None:  # "each Equipment attached to me gives double its base Might bonus": once more
        found = (obj for obj in game.objects.values() if calc.matches_object(game, q.bonus, view, obj))
        return q.times * sum(obj.definition.might_bonus for obj in found if obj.definition is not None)
    if q.total_might is not None:  # "your other units have total Might 5 or more": their Might now, summed
        found = (obj for obj in game.objects.values() if calc.matches_object(game, q.total_might, view, obj))
        return q.times * sum(calc.might(game, obj) for obj in found if obj.kind == Kind.UNIT)
    if q.tags_among is not None:  # "for each of the following tags among your units — Bird, Cat, Dog, and Poro"
        among = [obj for obj in game.objects.values() if calc.matches_object(game, q.tags_among, view, obj)]
        return q.times * tags_among(game, among, q.tags or [])
    if q.points is not None:
        return q.times * game.players[view.you].points if view.you in game.players else None
    if q.raise_to is not None:
        higher, lower = _one(game, view, q.raise_to, run), _one(game, view, q.of or "", run)
        if higher is None or lower is None:
            return None
        return q.times * max(0, calc.might(game, higher) - calc.might(game, lower))
    reference = q.double or q.damage or q.energy_cost or q.printed_might or q.of
    if reference is None:
        raise EngineError(f"a quantity names nothing to measure: {value!r}")
    printed = q.energy_cost is not None or q.printed_might is not None
    obj = _any_zone(game, view, reference, run) if printed else _one(game, view, reference, run)
    if obj is None:
        return None
    if q.printed_might is not None:  # a card in a non-board zone has its printed Might (a unit's; none else)
        might = obj.definition.might if obj.definition is not None and obj.kind == Kind.UNIT else None
        return None if might is None or obj.zone == BOARD else q.times * might
    if q.double is not None:
        return q.times * calc.might(game, obj)
    if q.damage is not None:
        return q.times * obj.damage
    if q.keyword is not None:
        return q.times * calc.keyword_value(game, obj, q.keyword)
    return q.times * (obj.definition.energy if obj.definition else 0)  # printed cost (206)


def tags_among(game: Game, objects: list[Obj], tags: list[str]) -> int:
    """How many of `tags` the objects have among them: each tag once, however many have it (133.8)."""
    return sum(1 for tag in tags if any(calc.tagged(game, obj, tag) for obj in objects))


def _any_zone(game: Game, view: View, reference: str, run) -> Obj | None:
    """A card named for its printed cost, wherever it is (a spell on the chain, 206)."""
    ids: list = calc.refs(game, run, reference) if run is not None else [view.source]
    obj = game.objects.get(ids[0]) if ids and ids[0] is not None else None
    return obj if obj is not None and obj.zone not in (Zone.CEASED,) else None


@query("show_quantity")
def show_quantity(game: Game, run, value: dict, n: int | None) -> None:
    """A step saying what a quantity counted, as the instruction using it executes (359.3.f.2; doubling 432.1)."""
    q = Quantity.model_validate(value)
    measure = q.measure
    rule = {"double": "432.1", "energy_cost": "206", "keyword": "807.2"}.get(measure, "359.3.f.2")
    said = "null: the instruction is ignored" if n is None else str(n)
    note(
        game,
        StepKind.LAYER_CALCULATION,
        "amount",
        f"{run.item.label}: the amount ({q.words()}) is {said}",
        run.because,
        (rule, "135.2.b.5.a") if q.times != 1 or measure == "count" else (rule,),
    )


def _within(n: int | None, low: int | None, high: int | None) -> tuple[bool, str]:
    """Whether a count is within its bounds (a null count is within none), and the bounds in words."""
    holds = n is not None and (low is None or n >= low) and (high is None or n <= high)
    bounds = " and ".join(
        w for w in (low is not None and f"at least {low}", high is not None and f"at most {high}") if w
    )
    return holds, bounds


@instruction("if_amount")
def op_if_amount(game: Game, run, ins) -> None:
    """`{op: if_amount, amount: <quantity>, at_least: N, at_most: M, then: [...], else: [...]}`: "if there is a
    ready enemy unit here" (at least one), "if it is the only unit you control there" (exactly one): a condition
    on a quantity counted as it executes (364.3.a, 359.3.f.2); a null count holds no condition (its `else`)."""
    n = calc.amount(game, run, ins["amount"])
    holds, bounds = _within(n, ins.get("at_least"), ins.get("at_most"))
    note(
        game,
        StepKind.EFFECT,
        "condition",
        f"{run.item.label}: {n} is {bounds}: its text applies" if holds else f"{run.item.label}: {n} is not {bounds}",
        run.because,
        ("364.3.a",),
    )
    calc.execute(game, run, ins.get("then", []) if holds else ins.get("else", []))


@query("decide_count")
def decide_count(game: Game, view: View, counted: Counted, label: str, player: str, because) -> bool:
    """A trigger's counted condition ("When I hold, if there is exactly one other unit you control here"): part of
    its Trigger Condition (383.2.a.1), counted from its source's point of view as the event happens (383.2.c), so
    the ability is not placed on the Chain unless it holds, and resolves even if the count changes in reaction."""
    n = calc.quantity(game, view, counted.amount)
    holds, bounds = _within(n, counted.at_least, counted.at_most)
    said = f"{counted.amount.words()} is {n}, {bounds}" if holds else f"{counted.amount.words()} is {n}, not {bounds}"
    verdict = "its ability triggers" if holds else "its ability doesn't trigger"
    note(game, StepKind.EFFECT, "condition", f"{label}: {said}: {verdict}", because, ("383.2.a.1",), [player])
    return holds
