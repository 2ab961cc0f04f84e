"""Deflect 809: "Spells and abilities an opponent controls that choose me cost [A] more" per point of the
Deflect value (809.1.c), a mandatory additional cost (356.2.a.2) paid with Power of any domain (809.1.c.1).
Deflect values from several sources are summed (809.2), whether printed, granted or given by a passive
("Friendly units have [Deflect]"). A permanent chosen twice by one spell (a Repeat's extra choices) is one
permanent that spell chooses under Core Rules 2025-12-01; 1.4 charges "for each time they choose" it (809.1.c;
the behaviour `deflect_charged` of scenarios/versions.py).

A triggered ability that chooses such a permanent incurs the cost as it is finalized (403.2): its controller
pays it, or declines, and the ability leaves the Chain (404.2); one that can't be paid is removed too.
"""

from __future__ import annotations

from scenarios.cards import Cost
from scenarios.game import Game
from scenarios.kernel import calc, choose, keyword, note, query
from scenarios.objects import BOARD
from scenarios.trace import StepKind

keyword("Deflect", "809", valued=True)


@query("deflect_cost")
def deflect_cost(game: Game, player: str, choices) -> int:
    """The Power of any domain that `player`'s spell or ability pays for choosing these targets."""
    chosen = [ref[0] for choice in choices for refs in choice.values() for ref in refs if not isinstance(ref, str)]
    if not chosen:
        return 0
    reading = game.reading("deflect_charged")
    if reading.choice == "once_per_item":
        chosen = sorted(set(chosen))
    charged = [
        (object_id, calc.keyword_value(game, obj, "Deflect"))
        for object_id in chosen
        if (obj := game.objects[object_id]).zone == BOARD and obj.controller != player  # only an opponent's pay
    ]
    total = sum(value for _, value in charged)
    if total:
        counted = "once for each time chosen" if reading.choice == "per_choice" else "once for each permanent"
        charges = ", ".join(f"{object_id} {value}" for object_id, value in charged if value)
        note(
            game,
            StepKind.EFFECT,
            "deflect_cost",
            f"Deflect costs {player} {total} more Power of any domain ({charges}; {counted})",
            reading.cited,
            objects=[object_id for object_id, value in charged if value],
        )
    return total


@query("pays_for_its_choices")
def pays_for_its_choices(game: Game, item, chosen: dict) -> bool:
    """A triggered ability's Deflect cost, paid or declined as it is finalized (403.2, 404.2)."""
    extra = deflect_cost(game, item.controller, [chosen])
    if not extra:
        return True
    cost = Cost(power=extra)
    problem = calc.resource_problem(game, item.controller, cost, "404.1")
    options = ["no"] if problem is not None else ["yes", "no"]
    prompt = f"{item.label}: pay {cost.describe()} for choosing a permanent with Deflect?"
    if choose(game, "may", item.controller, prompt, options, "404.2") == "yes":
        calc.pay_resources(game, item.controller, cost, "404.1")
        return True
    reason = f"can't pay {cost.describe()}" if problem is not None else "its controller declines the Deflect cost"
    note(game, StepKind.CHAIN_ITEM, "removed", f"{item.label}: {reason}: removed", "404.2", objects=[item.source])
    return False
