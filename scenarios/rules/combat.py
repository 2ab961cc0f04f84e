"""Combat 437-444: the showdown step, the combat damage step and the resolution step.

The attacker is the player who applied Contested (464.2.c.1), whoever controls the battlefield. Attack and
defend triggers fire the first time a unit gains the designation in this combat (383.4.e.2.a, 383.4.f.2.a),
whether at the start of combat or at a later cleanup (323.2); the players' own designations (442.1.a.1-2) are
events too ("when you defend here").
"""

from __future__ import annotations

from typing import Any, Final

from scenarios.game import Game
from scenarios.kernel import (
    Refusal,
    answer_kind,
    calc,
    choose,
    condition,
    do,
    event_kind,
    keyword,
    note,
    procedure,
    query,
)
from scenarios.objects import Combat, Event, Role, Showdown
from scenarios.trace import StepKind

keyword("Tank", "815")  # its units are assigned lethal damage first (465.2.c)
keyword("Backline", "826")  # its units are assigned lethal damage after every other of their side (826.3)

event_kind("attack", "383.4.e")
event_kind("defend", "383.4.f")
event_kind("recall_attackers", "466.1.a.2", would="recall the attackers")
event_kind("combat_end", "466.7.b", would="see a combat it was in end")
event_kind("combat_start", "464.2.b", would="start a combat")  # "when combat starts here": once, its attacker's


@condition("during combat", "459")
def _during_combat(game: Game, context) -> bool:
    """ "If a unit here would die during combat": a combat is under way, from its showdown step to its end (463-466)."""
    return game.combat is not None


@procedure(
    "begin_combat",
    StepKind.COMBAT_STEP,
    defines=("464.2", "464.2.c"),
    summary=lambda g, bf: f"combat begins at {bf}: showdown step",
    objects=lambda g, bf: [bf],
)
def begin_combat(game: Game, bf_id: str) -> None:
    bf = game.objects[bf_id]
    bf.staged = None
    attacker = bf.contested_by
    defender = next(u.controller for u in game.units(bf_id) if u.controller != attacker)
    game.combat = Combat(bf_id, attacker, defender)
    calc.fire(game, Event("combat_start", player=attacker, location=bf_id))  # 464.2.b: start of combat effects
    for unit in game.units():
        unit.triggered_in_combat = ()  # attack and defend triggers: once per combat (383.4.e.2.a)
    game.showdown = Showdown(bf_id, True, attacker)
    note(
        game,
        StepKind.COMBAT_STEP,
        "roles",
        f"{attacker} applied Contested, so {attacker} attacks and {defender} defends; {attacker} gains Focus",
        ("464.2.c.1", "464.2.c.1.a", "464.2.c.2"),
        objects=[attacker, defender],
    )
    calc.fire(game, Event("attack", player=attacker, location=bf_id))
    calc.fire(game, Event("defend", player=defender, location=bf_id))
    for unit in game.units(bf_id):
        if unit.controller == attacker:
            do.designate(game, unit, Role.ATTACKER, because="464.2.c.3")
        else:
            do.designate(game, unit, Role.DEFENDER, because="464.2.c.3")
    calc.place_triggers(game, (attacker,), (defender,), ("464.2.e", "464.2.e.1"))
    do.finalize_pending(game, because="464.2.e")
    if game.chain:
        game.showdown.initial = True  # 464.2.f
        calc.give_priority_to_newest(game)
    else:
        game.priority = attacker  # 464.2.f.1


@procedure(
    "designate",
    StepKind.COMBAT_STEP,
    defines=("464.2.c",),
    summary=lambda g, unit, role: f"{unit.id} gains the {role.capitalize()} designation",
    objects=lambda g, unit, role: [unit.id],
)
def designate(game: Game, unit, role: Role) -> None:
    unit.designation = role
    event = "attack" if role == Role.ATTACKER else "defend"
    if str(role) in unit.triggered_in_combat:
        note(
            game,
            StepKind.TRIGGER,
            "once per combat",
            f"{unit.id} already gained the {role} designation in this combat: its {event} triggers do not fire again",
            "383.4.e.2.a" if role == Role.ATTACKER else "383.4.f.2.a",
            objects=[unit.id],
        )
        return
    unit.triggered_in_combat = (*unit.triggered_in_combat, str(role))
    calc.fire(game, Event(event, unit=unit.id, player=unit.controller, location=unit.location))


@query("update_designations")
def update_designations(game: Game) -> None:
    """323.2: units arriving gain their controller's designation; units that left lose theirs."""
    if game.combat.resolving:
        return
    bf, attacker = game.combat.battlefield, game.combat.attacker
    for unit in game.units():
        wanted = (Role.ATTACKER if unit.controller == attacker else Role.DEFENDER) if unit.location == bf else None
        if unit.designation == wanted:
            continue
        order = game.reading("designations_before_lethal").rule("designations")  # its place in the Cleanup
        if wanted is None:
            do.lose_designation(game, unit, bf, because=("323.2.c", order))
        else:
            do.designate(game, unit, wanted, because=("323.2.b" if unit.designation else "323.2.a", order))


@procedure(
    "lose_designation",
    StepKind.COMBAT_STEP,
    defines=("323.2.c",),
    summary=lambda g, unit, bf: f"{unit.id} left {bf}: loses the {unit.designation} designation",
    objects=lambda g, unit, bf: [unit.id],
)
def lose_designation(game: Game, unit, bf: str) -> None:
    unit.designation = None


@query("remove_designations")
def remove_designations(game: Game) -> None:
    """The designations end as the Combat does: with the Combat Cleanup before Core Rules 1.4 (444.1.a.3), after
    the Chain it left, the result and control since (466.7.a; `combat_result_waits_for_the_chain`)."""
    if any(u.designation for u in game.units()):
        do.remove_all_designations(game, because="466.7.a")


@procedure(
    "remove_all_designations",
    StepKind.COMBAT_STEP,
    defines=("466.7.a",),
    summary="attacker and defender designations removed",
)
def remove_all_designations(game: Game) -> None:
    for unit in game.units():
        unit.designation = None


@procedure(
    "combat_damage_step",
    StepKind.COMBAT_STEP,
    defines=("465.1", "465.2"),
    summary=lambda g: f"combat damage step at {g.combat.battlefield}",
)
def combat_damage_step(game: Game) -> None:
    bf = game.combat.battlefield
    attackers = [u for u in game.units(bf) if u.designation == Role.ATTACKER]
    defenders = [u for u in game.units(bf) if u.designation == Role.DEFENDER]
    if not attackers or not defenders:
        note(
            game,
            StepKind.COMBAT_STEP,
            "no damage",
            "attackers or defenders are missing: no combat damage",
            # 465.1 is new in 1.4 and its lineage reaches only the old step's heading: the rule 2025-12-01 said it in
            ("465.1", "443.1.a@2025-12-01"),
            ("465.1",),
            objects=[bf],
        )
        return
    totals = {}
    for side, units, rule in (("attacker", attackers, "465.2.a"), ("defender", defenders, "465.2.b")):
        silent = set()
        for unit in units:
            held = calc.restricted_by(game, unit, "no_combat_damage")  # a passive: "I don't deal combat damage" (364)
            if unit.stunned or held:
                silent.add(unit.id)
            but = ", but is stunned: it deals no damage" if unit.stunned else ""
            if held and not unit.stunned:
                but = f", but deals no combat damage ({game.objects[held].card})"
            note(
                game,
                StepKind.LAYER_CALCULATION,
                "might",
                f"{unit.id} has {calc.explain_might(game, unit)}{but}",
                rule,
                (("477.3.e", "423.1.b") if unit.stunned else ("477.3.e", "364.1") if held else ("477.3.e",))
                + calc.might_rules(game, unit),
                [unit.id],
            )
        totals[side] = sum(max(0, calc.might(game, u)) for u in units if u.id not in silent)
        note(game, StepKind.COMBAT_STEP, "total", f"the {side}s deal {totals[side]} damage in all", rule)
    assignments = {}
    assignments.update(_assign(game, game.combat.attacker, totals["attacker"], defenders))
    assignments.update(_assign(game, game.combat.defender, totals["defender"], attackers))
    do.deal(game, assignments, "combat", "combat damage", because="465.2.d")


OVERKILL: Final = "assignment_capped_at_lethal"


def _assign(game: Game, player: str, total: int, units) -> dict:
    """465.2.c: lethal damage in full before the next unit; Tank units first (815), units "assigned combat
    damage last" after every other (465.2.c.6), Backline units after every unit without it (826.4.b)."""
    if total == 0:
        return {}
    if len(units) == 1:
        note(
            game,
            StepKind.CHOICE,
            "choice",
            f"{player} assigns all {total} damage to {units[0].id}, the only unit",
            "465.2.c",
            objects=[player],
        )
        return {units[0].id: total}
    counted = _prevention_counted(game, units)
    modified = _modified_lethal(game, [u for u in units if u.id not in counted], total)
    ignores_tank = calc.restricted_by(game, player, "ignore_tank", game.combat.battlefield)  # "you ignore [Tank]"
    cap = game.reading(OVERKILL)  # whether a unit may get more than lethal while another lacks it
    info: dict[str, Any] = {
        "total": total,
        "capped": cap.choice == "capped",
        "units": [
            {
                "id": u.id,
                "lethal": total + 1 if u.id in counted else modified.get(u.id, max(1, calc.might(game, u) - u.damage)),
                "tank": calc.has_keyword(game, u, "Tank") and ignores_tank is None,
                "last": calc.assigned_last(game, u),
                "backline": calc.has_keyword(game, u, "Backline"),
            }
            for u in units
        ],
    }
    restricted = (
        (("815.1.c",) if any(u["tank"] for u in info["units"]) else ())
        + (("465.2.c.6",) if any(u["last"] for u in info["units"]) else ())
        + (("826.4.b",) if any(u["backline"] for u in info["units"]) else ())
    )  # Tank, Backline or "assigned combat damage last" decides which assignments are legal; so does the cap
    restricted += cap.cited
    return choose(
        game,
        "assign",
        player,
        f"assign {total} combat damage among {', '.join(u.id for u in units)}",
        info,
        "465.2.c",
        forced_ok=False,
        also=restricted,
    )


@query("assigned_last")
def assigned_last(game: Game, unit) -> bool:
    """ "I must be assigned combat damage last" (465.2.c.2): a restriction on damage assignment (465.2.c.6)."""
    return "assigned_combat_damage_last" in unit.definition.restrictions


def _prevention_counted(game: Game, units) -> set[str]:
    """The units no amount of damage is lethal to (142.4.b): from Core Rules 1.4 a replacement effect that would
    prevent all of a unit's next damage counts in the assignment (437.5.a, 465.2.c.5), yet the unit is not exempt
    (465.2.c.10), so lethal is more than the whole total (`assignment_counts_prevention`). The reading applied is
    shown, citing its rules, whenever such a unit is assigned damage."""
    prevented = [u.id for u in units if calc.prevents_all_damage(game, u)]
    if not prevented:
        return set()
    reading = game.reading("assignment_counts_prevention")
    counted = reading.choice == "counted"
    lethal = "no amount is lethal, yet lethal must reach it in full" if counted else "lethal stays Might less damage"
    note(
        game,
        StepKind.CHOICE,
        "lethal",
        f"all of the next damage to {', '.join(prevented)} would be prevented: {lethal}",
        reading.cited,
        objects=prevented,
    )
    return set(prevented) if counted else set()


def _modified_lethal(game: Game, units, total: int) -> dict[str, int]:
    """The damage to assign for lethal to each unit whose damage a replacement effect would modify (double it,
    prevent some of it): from Core Rules 1.4 the effects apply to the assignment (465.2.c.5), so lethal is the least
    amount that would become lethal damage (465.2.c.4.a, 437.5.a), or more than the whole total if none would."""
    if game.reading("assignment_counts_prevention").choice != "counted":
        return {}
    found = {}
    for unit in units:
        needed = max(1, calc.might(game, unit) - unit.damage)
        least = calc.assigned_for_lethal(game, unit, needed, total)
        if least == needed:
            continue
        found[unit.id] = total + 1 if least is None else least
        said = f"{least} assigned would be lethal" if least is not None else f"no amount up to {total} is lethal"
        note(
            game,
            StepKind.CHOICE,
            "lethal",
            f"{unit.id}'s damage would be modified by a replacement effect: {said} (its lethal damage is {needed})",
            "465.2.c.5",
            ("465.2.c.4.a", "437.5.a"),
            objects=[unit.id],
        )
    return found


def check_assignment(game: Game, choice, answer) -> dict:
    info = choice.options
    if not isinstance(answer, dict):
        raise Refusal("465.2.c", "a damage assignment maps unit ids to amounts")
    units = {u["id"]: u for u in info["units"]}
    if set(answer) - set(units) or any(not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in answer.values()):
        raise Refusal("465.2.c", f"assignment {answer} names units outside {list(units)} or negative amounts")
    if sum(answer.values()) != info["total"]:
        raise Refusal("465.2.c", f"assignment must total {info['total']}, got {sum(answer.values())}")
    got = {uid: answer.get(uid, 0) for uid in units}
    partial = [uid for uid, n in got.items() if 0 < n < units[uid]["lethal"]]
    over = [uid for uid, n in got.items() if n > units[uid]["lethal"]]
    if len(partial) > 1:
        raise Refusal("465.2.c.3", f"{partial} both got non-lethal damage: lethal must be assigned in full first")
    if over and info.get("capped", True) and any(n < units[uid]["lethal"] for uid, n in got.items()):
        raise Refusal("465.2.c.4", f"{over} got more than lethal while another unit has less than lethal")
    tanks = [uid for uid in units if units[uid]["tank"]]
    if any(got[uid] > 0 for uid in units if uid not in tanks) and any(got[t] < units[t]["lethal"] for t in tanks):
        raise Refusal("815.1.b", f"Tank units {tanks} must be assigned lethal damage first")
    last = [uid for uid in units if units[uid]["last"]]
    others = [uid for uid in units if uid not in last]
    if any(got[uid] > 0 for uid in last) and any(got[uid] < units[uid]["lethal"] for uid in others):
        raise Refusal("465.2.c.6", f"{last} must be assigned combat damage last, after lethal damage to {others}")
    backline = [uid for uid in units if units[uid].get("backline")]
    front = [uid for uid in units if uid not in backline]
    if any(got[uid] > 0 for uid in backline) and any(got[uid] < units[uid]["lethal"] for uid in front):
        raise Refusal("826.4.b", f"Backline units {backline} are assigned damage only after lethal damage to {front}")
    return {uid: n for uid, n in answer.items()}


def assignment_candidates(game: Game, choice):
    """Every legal assignment (each way to split the total, kept when `check_assignment` accepts it)."""
    ids = [u["id"] for u in choice.options["units"]]

    def splits(total, count):
        if count == 1:
            yield (total,)
            return
        for first in range(total + 1):
            for rest in splits(total - first, count - 1):
                yield (first, *rest)

    for split in splits(choice.options["total"], len(ids)):
        answer = {uid: n for uid, n in zip(ids, split) if n}
        try:
            yield check_assignment(game, choice, answer)
        except Refusal:
            continue


answer_kind("assign", check_assignment, assignment_candidates)


@procedure(
    "combat_resolution_step",
    StepKind.COMBAT_STEP,
    defines=("466.1", "466.5"),
    summary=lambda g: f"resolution step at {g.combat.battlefield}",
)
def combat_resolution_step(game: Game) -> None:
    game.combat.resolving = True
    calc.cleanup(game, "combat damage", "466.1.a", special="combat")
    bf = game.objects[game.combat.battlefield]
    reading = game.reading("combat_result_waits_for_the_chain")
    if game.chain and reading.choice == "after_chain":
        # 1.4: the result and control are Outstanding Tasks, the Combat goes on until they are done (466.7); the
        # Chain the Combat Cleanup left resolves first
        game.continuation = f"settle_combat:{bf.id}"
        note(
            game,
            StepKind.COMBAT_STEP,
            "outstanding",
            f"the Chain resolves before the combat result at {bf.id} is determined and control established",
            reading.cited,
            objects=[bf.id],
        )
        return
    settle_combat(game, bf.id)


@query("settle_combat")
def settle_combat(game: Game, bf_id: str) -> None:
    """The Resolution Step's last parts: the combat result is determined (466.3), what it triggered resolves
    (466.4: an Outstanding Task from Core Rules 1.4), then the Combat ends and control is established."""
    reading = game.reading("combat_result_waits_for_the_chain")
    # a combat's result is defined from Core Rules 1.4 (466.3), the version whose result waits for the Chain
    if reading.choice == "after_chain" and calc.combat_result(game, game.combat):
        calc.cleanup(game, "the combat result", "319.2")
        if game.chain:
            game.continuation = f"end_combat:{bf_id}"
            return
    end_combat(game, bf_id)


@query("end_combat")
def end_combat(game: Game, bf_id: str) -> None:
    """466.5: with no Showdown or Combat staged there, the player with units remaining establishes control (a
    Conquer if not yet scored this turn), or with none it becomes uncontrolled; the Combat ends."""
    bf = game.objects[bf_id]
    reading = game.reading("combat_result_waits_for_the_chain")
    because = (*reading.cited, "466.5.a") if reading.choice == "at_once" else ("466.5", "466.5.a")
    game.combat = None
    if reading.choice == "after_chain":
        calc.remove_designations(game)
    for unit in game.units():
        unit.granted = tuple(g for g in unit.granted if g.until != "combat")  # "this combat" effects end
        if unit.modifiers:  # 466.7.c: a Might change "this combat" too
            unit.modifiers = tuple(m for m in unit.modifiers if m.until != "combat")
    if bf.staged is None:
        present = {u.controller for u in game.units(bf.id)}
        bf.contested_by = None
        if len(present) == 1:
            (player,) = present
            do.establish_control(game, bf, player, because=because)
        elif not present:
            do.lose_control(game, bf, because="466.5.b")
    # "When a combat that I was in ends": each unit still on the board that was an attacker or a defender in it
    # (the roles it gained since the combat began, 383.4.e.2.a), wherever it is now (466.7.b)
    for unit in game.units():
        if unit.triggered_in_combat:
            calc.fire(game, Event("combat_end", unit=unit.id, player=unit.controller, location=bf_id))
    calc.cleanup(game, "combat ended", "319.2")


@query("recall_attackers_if_defenders_remain")
def recall_attackers_if_defenders_remain(game: Game) -> None:
    """The combat cleanup's step 2d (466.1.a.2), an event a replacement effect may replace."""
    bf = game.combat.battlefield
    attackers = [u for u in game.units(bf) if u.designation == Role.ATTACKER]
    defenders = [u for u in game.units(bf) if u.designation == Role.DEFENDER]
    if not (attackers and defenders):
        return
    event = Event("recall_attackers", player=game.combat.attacker, location=bf, units=tuple(u.id for u in attackers))
    if calc.would(game, event):
        return
    game.combat.recalled = True
    for unit in attackers:
        do.recall(game, unit.id, because="466.1.a.2")
