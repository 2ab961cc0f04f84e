"""Combat 437-444: the showdown step, the combat damage step and the resolution step.

`game.combat = {battlefield, attacker, defender, resolving}`. The attacker is the
player who applied Contested (442.1.a.1), whoever controls the battlefield. Attack
and defend triggers fire the first time a unit gains the designation in this combat
(376.4.d.2.a, 376.4.e.2.a), whether at the start of combat or at a later cleanup.
"""

from __future__ import annotations

from scenarios import control, damage, movement, triggers
from scenarios.choices import ask
from scenarios.layers import explain, might
from scenarios.state import Refusal
from scenarios.trace import procedure


@procedure(
    "combat step",
    "442",
    "442.1.a",
    summary=lambda g, bf: f"combat begins at {bf}: showdown step",
    objects=lambda g, bf: [bf],
)
def begin(game, bf_id: str):
    from scenarios import chain

    bf = game.obj(bf_id)
    bf.staged = None
    attacker = bf.contested_by
    defender = next(u.controller for u in game.units(bf_id) if u.controller != attacker)
    game.combat = {"battlefield": bf_id, "attacker": attacker, "defender": defender, "resolving": False}
    for unit in game.units():
        unit.triggered_in_combat = []  # attack and defend triggers: once per combat (376.4.d.2.a)
    game.showdown = {"battlefield": bf_id, "combat": True, "focus": attacker, "passes": [], "initial": False}
    game.trace.note(
        "combat step",
        f"{attacker} applied Contested: attacker; {defender}: defender; {attacker} gains Focus",
        ["442.1.a.1", "442.1.a.1.a", "442.1.a.2"],
        [attacker, defender],
    )
    for unit in game.units(bf_id):
        designate(
            game,
            unit,
            "attacker" if unit.controller == attacker else "defender",
            "442.1.a.3" if unit.controller == attacker else "442.1.a.4",
        )
    yield from triggers.place_pending(game, first=[attacker], last=[defender], rule="442.1.b.1")
    yield from chain.finalize_pending(game)
    if game.chain:
        game.showdown["initial"] = True
        chain.give_priority_to_newest(game)
    else:
        game.priority = attacker


@procedure(
    "combat step",
    summary=lambda g, unit, designation, rule: f"{unit.id} gains the {designation.capitalize()} designation",
    objects=lambda g, unit, *a: [unit.id],
    cite=lambda g, unit, designation, rule: [rule],
)
def designate(game, unit, designation: str, rule: str) -> None:
    unit.designation = designation
    if designation in unit.triggered_in_combat:
        game.trace.note(
            "trigger",
            f"{unit.id} already gained the {designation} designation in this combat: its "
            f"{'attack' if designation == 'attacker' else 'defend'} triggers do not fire again",
            ["376.4.d.2.a" if designation == "attacker" else "376.4.e.2.a"],
            [unit.id],
        )
    else:
        unit.triggered_in_combat.append(designation)
        event = "attack" if designation == "attacker" else "defend"
        triggers.fire(game, event, unit=unit.id, location=unit.location)
        if event == "defend" and not game.combat.get("defend_here_fired"):
            game.combat["defend_here_fired"] = True
            triggers.fire(game, "you_defend_here", player=unit.controller, location=unit.location)


def update_designations(game) -> None:
    """322.5: units arriving gain their controller's designation; units that left lose theirs."""
    if game.combat.get("resolving"):
        return
    bf, attacker = game.combat["battlefield"], game.combat["attacker"]
    for unit in game.units():
        wanted = ("attacker" if unit.controller == attacker else "defender") if unit.location == bf else None
        if unit.designation == wanted:
            continue
        if wanted is None:
            _lose_designation(game, unit, bf)
        else:
            designate(game, unit, wanted, "322.5.b" if unit.designation else "322.5.a")


@procedure(
    "combat step",
    "322.5.c",
    summary=lambda g, unit, bf: f"{unit.id} left {bf}: loses the {unit.designation} designation",
    objects=lambda g, unit, bf: [unit.id],
)
def _lose_designation(game, unit, bf: str) -> None:
    unit.designation = None


@procedure("combat step", "444.1.a.3", summary="attacker and defender designations removed")
def remove_designations(game) -> None:
    for unit in game.units():
        unit.designation = None


@procedure("combat step", "443", "443.1", summary=lambda g: f"combat damage step at {g.combat['battlefield']}")
def damage_step(game):
    bf = game.combat["battlefield"]
    attackers = [u for u in game.units(bf) if u.designation == "attacker"]
    defenders = [u for u in game.units(bf) if u.designation == "defender"]
    if not attackers or not defenders:
        game.trace.note(
            "combat step", "attackers or defenders are missing: no combat damage", ["443.1.a", "443.1.a.1"], [bf]
        )
        return
    totals = {}
    for side, units, rule in (("attacker", attackers, "443.1.b"), ("defender", defenders, "443.1.c")):
        for unit in units:
            game.trace.note(
                "layer calculation",
                f"{unit.id} might: {explain(game, unit)}" + (" (stunned: deals no damage)" if unit.stunned else ""),
                ["454.3.d", "410.1.b"] if unit.stunned else ["454.3.d"],
                [unit.id],
            )
        totals[side] = sum(max(0, might(game, u)) for u in units if not u.stunned)
        game.trace.note("combat step", f"{side}s' total might: {totals[side]}", [rule])
    assignments = {}
    assignments.update((yield from assign(game, game.combat["attacker"], totals["attacker"], defenders)))
    assignments.update((yield from assign(game, game.combat["defender"], totals["defender"], attackers)))
    damage.deal_many(game, assignments, source="combat", rule="443.1.e")


def assign(game, player: str, total: int, units) -> dict:
    """443.1.d: lethal damage in full before the next unit; Tank units first (741)."""
    info = {
        "total": total,
        "units": [{"id": u.id, "lethal": lethal(game, u), "tank": _has_tank(game, u)} for u in units],
    }
    if total == 0:
        return {}
    if len(units) == 1:
        game.trace.note("choice", f"{player} assigns {total} to {units[0].id} (only unit)", ["443.1.d"], [player])
        return {units[0].id: total}
    answer = yield from ask(
        game,
        "assign",
        player,
        f"assign {total} combat damage among {[u.id for u in units]}",
        info,
        "443.1.d",
        forced_ok=False,
    )
    return answer


def _has_tank(game, unit) -> bool:
    from scenarios.layers import has_keyword

    return has_keyword(game, unit, "Tank")


def lethal(game, unit) -> int:
    return max(1, might(game, unit) - unit.damage)


def check_assignment(choice, answer) -> None:
    info = choice.options
    if not isinstance(answer, dict):
        raise Refusal("443.1.d", "a damage assignment maps unit ids to amounts")
    units = {u["id"]: u for u in info["units"]}
    if set(answer) - set(units) or any(not isinstance(v, int) or v < 0 for v in answer.values()):
        raise Refusal("443.1.d", f"assignment {answer} names units outside {list(units)} or negative amounts")
    if sum(answer.values()) != info["total"]:
        raise Refusal("443.1.d", f"assignment must total {info['total']}, got {sum(answer.values())}")
    got = {uid: answer.get(uid, 0) for uid in units}
    partial = [uid for uid, n in got.items() if 0 < n < units[uid]["lethal"]]
    over = [uid for uid, n in got.items() if n > units[uid]["lethal"]]
    if len(partial) > 1:
        raise Refusal("443.1.d.3", f"{partial} both got non-lethal damage: lethal must be assigned in full first")
    if over and any(n < units[uid]["lethal"] for uid, n in got.items()):
        raise Refusal("443.1.d.4", f"{over} got more than lethal while another unit has less than lethal")
    tanks = [uid for uid in units if units[uid]["tank"]]
    if any(got[uid] > 0 for uid in units if uid not in tanks) and any(got[t] < units[t]["lethal"] for t in tanks):
        raise Refusal("741.1.b", f"Tank units {tanks} must be assigned lethal damage first")


@procedure("combat step", "444", summary=lambda g: f"resolution step at {g.combat['battlefield']}")
def resolution_step(game):
    from scenarios import cleanups

    game.combat["resolving"] = True
    yield from cleanups.cleanup(game, reason="combat damage (444.1)", special="combat")
    bf = game.obj(game.combat["battlefield"])
    game.combat = None
    for unit in game.units():
        unit.granted = [g for g in unit.granted if g["until"] != "combat"]  # "this combat" effects end
    if bf.staged is None:
        present = {u.controller for u in game.units(bf.id)}
        bf.contested_by = None
        if len(present) == 1:
            (player,) = present
            yield from control.establish(game, bf, player, rule="444.2")
        elif not present:
            control.lose_control(game, bf, rule="444.2.d")
    yield from cleanups.cleanup(game, reason="combat ended")


@procedure("combat step", "444.1.a.2", summary=lambda g: "recall attackers if defenders are still present")
def recall_attackers_if_defenders_remain(game):
    bf = game.combat["battlefield"]
    attackers = [u for u in game.units(bf) if u.designation == "attacker"]
    defenders = [u for u in game.units(bf) if u.designation == "defender"]
    if not (attackers and defenders):
        return
    symbol = [
        g
        for g in game.objects.values()
        if g.zone == "board" and "tie_recalls_all" in g.definition.grants and g.controller == game.combat["attacker"]
    ]
    if symbol:
        game.trace.note(
            "replacement",
            f"{symbol[0].card}: the combat ended in a tie, recall ALL units instead",
            ["002", "366"],
            [symbol[0].id],
        )
        for unit in attackers + defenders:
            movement.recall(game, unit.id, rule="433")
        return
    for unit in attackers:
        movement.recall(game, unit.id, rule="444.1.a.2")
    yield from ()
