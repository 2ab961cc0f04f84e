"""Weaponmaster 821: a play effect (821.1.b): "When you play me, choose a card you control with the
Equipment tag. ... Pay the cost of its Equip ability, reduced by [A], to attach it to this unit" (821.1.c).

The Equipment is chosen as the ability resolves, whether it has Equip or not (821.1.c.1), attached or not
(it is detached from its unit, 434.1.f). Only Power of any domain ([A]) in the Equip cost is reduced: a
cost of one domain is paid in full (821.1.c.3). With no Equip cost, or a cost that can't be paid, the
Equipment stays where it is (821.1.c.4, 821.1.c.5). Paying is optional ("you may [Equip]"): up to 2025-12-01 asked
as it resolves; from Core Rules 1.4 the "you may" opens the ability (821.1.c), decided as it is finalized
(383.3.a), and the cost is then paid as it resolves (`weaponmaster_opens_with_you_may`). The Equip ability
is not activated and the unit is not chosen (821.1.c.6): nothing triggers on choosing it. Several instances
trigger separately (821.1.c.7).
"""

from __future__ import annotations

from scenarios.cards import Trigger
from scenarios.game import Game
from scenarios.kernel import calc, choose, do, instruction, keyword_ability, note, query
from scenarios.objects import BOARD
from scenarios.trace import StepKind

_ABILITY = {
    "when": {"event": "play", "who": "self"},
    "label": "Weaponmaster: equip an Equipment to me for [A] less",
    "effects": [{"op": "equip_to_this", "reduced_by_any_power": 1}],
}
keyword_ability(
    "Weaponmaster",
    "821.1.c",
    Trigger.model_validate(_ABILITY),
    stacks=True,
    reads="weaponmaster_opens_with_you_may",
    texts={  # Core Rules 1.4 (821.1.c): "you may choose ...", decided as it is finalized (383.3.a); then it pays
        "you_may_first": Trigger.model_validate(
            {
                **_ABILITY,
                "optional": True,
                "effects": [{"op": "equip_to_this", "reduced_by_any_power": 1, "decided": True}],
            }
        )
    },
)


@query("weaponmaster_cost")
def weaponmaster_cost(cost, any_power: int):
    """821.1.c: the Equip cost reduced by [A]: only Power of any domain is reduced (821.1.c.3)."""
    return cost.less(power=any_power)


@instruction("equip_to_this")
def op_equip_to_this(game: Game, run, ins) -> None:
    player, unit_id, label = run.item.controller, run.item.source, run.item.label
    if game.objects[unit_id].zone != BOARD:
        calc.impossible(game, run, f"{unit_id} has left the board: nothing to attach to")
        return
    equipment = [
        g.id
        for g in game.gear_objects
        if g.zone == BOARD and g.controller == player and "Equipment" in g.definition.tags
    ]
    if not equipment:
        calc.impossible(game, run, f"{player} controls no Equipment")
        return
    pick = choose(game, "equipment", player, f"{label}: choose an Equipment you control", equipment, "821.1.c")
    equip = next((ability for ability in game.objects[pick].definition.activated if ability.equip), None)
    if equip is None:
        note(
            game,
            StepKind.EFFECT,
            "equip cost",
            f"{pick} has no Equip cost: it can't be paid, it stays",
            run.because,
            ("821.1.c.4",),
            [pick],
        )
        return
    cost = calc.weaponmaster_cost(equip.cost, ins.get("reduced_by_any_power", 0))
    problem = calc.cost_problem(game, cost, player, pick)
    rule = "821.1.c.3" if equip.cost.domain_power and not equip.cost.power else "821.1.c"
    note(
        game,
        StepKind.EFFECT,
        "equip cost",
        f"{pick}'s Equip cost {equip.cost.describe()} reduced by [A]: {cost.describe()}"
        + (f"; it can't be paid ({problem.message}): {pick} stays" if problem else ""),
        run.because,
        (rule, "821.1.c.5") if problem else (rule,),
        [pick],
    )
    if problem is not None:
        return
    reading = game.reading("weaponmaster_opens_with_you_may")
    if ins.get("decided"):
        note(
            game,
            StepKind.CHOICE,
            "decided as finalized",
            f'{label}: its opening "you may" was decided as it was finalized: {player} pays {cost.describe()}',
            run.because,
            reading.cited,
            [pick],
        )
    if (
        ins.get("decided")
        or (
            choose(
                game,
                "may",
                player,
                f"{label}: pay {cost.describe()} to attach {pick} to {unit_id}?",
                ["yes", "no"],
                reading.cited[0],  # asked as it resolves: the version's reading says so (821.1.c in 1.4's words)
                also=reading.cited[1:],
            )
            == "yes"
        )
    ):
        do.pay_cost(game, cost, player, pick, label, because=run.because)
        attaching = calc.attaching(game, [pick], unit_id)
        do.attach(game, [pick], unit_id, label, because=run.because)
        calc.attached(game, attaching, unit_id, player)
