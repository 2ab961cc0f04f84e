"""Showdowns and Focus 337-345, with the staging of showdowns and combats during Cleanup (322.8-322.14).

The player with Focus acts when the Chain is empty; when every player has passed in sequence the showdown
ends (347.2.a): a combat proceeds to its damage step (348.1), a showdown without combat settles control (348.2).
"""

from __future__ import annotations

from typing import Final

from scenarios.game import Game
from scenarios.journal import watch
from scenarios.kernel import calc, choose, condition, do, note, procedure, query, standing_notes
from scenarios.objects import Showdown
from scenarios.trace import StepKind

# What staging reads: battlefields, the units there, the open showdown or combat (a new object, too, makes it due).
STAGING_READS = watch(
    (
        "contested_by",
        "staged",
        "battlefield_controller",
        "combat",
        "showdown",
        "battlefield",
        "unit_objects",
        "zone",
        "location",
        "controller",
    ),
    "cleanup",  # staging is a step of the Cleanup (322.8-322.14)
)
STAGED = watch(("staged",), "cleanup")


@query("stage")
def stage(game: Game) -> None:
    """322.8-322.11: mark showdowns and combats as staged, or unstage them (nothing to do while nothing staging
    reads has changed since it last ran)."""
    if not game.journal.due(STAGING_READS):
        return
    for bf in game.battlefield_objects:
        if not bf.contested_by or (game.combat and game.combat.battlefield == bf.id):
            continue
        wanted = calc.wanted_stage(game, bf)
        if wanted != bf.staged:
            rule = {"combat": "323.9", "showdown": "323.8"}.get(
                wanted or "", "323.10" if bf.staged == "combat" else "323.8.a"
            )
            do.set_stage(game, bf, wanted, because=rule)


@query("wanted_stage")
def wanted_stage(game: Game, bf) -> str | None:
    controllers = {u.controller for u in game.units(bf.id)}
    if len(controllers) >= 2:
        return "combat"  # 323.9
    if game.showdown and game.showdown.battlefield == bf.id:
        return None  # the showdown here is already open
    if controllers == {bf.contested_by}:
        # 323.8, and 323.8.a: also where the contested battlefield's controller has no unit left (its units
        # died or changed sides): only a showdown there can establish control (190.3.b, 190.4)
        return "showdown"
    return None  # 323.8.a, 323.10


@procedure(
    "set_stage",
    StepKind.SHOWDOWN,
    defines=("461",),
    summary=lambda g, bf, wanted: f"{bf.id}: " + (f"{wanted} staged" if wanted else f"{bf.staged} no longer staged"),
    objects=lambda g, bf, wanted: [bf.id],
    cite=lambda g, bf, wanted: ["316.8.b"] if wanted == "showdown" or bf.staged == "showdown" else [],
)
def set_stage(game: Game, bf, wanted: str | None) -> None:
    bf.staged = wanted


@query("open_staged")
def open_staged(game: Game) -> None:
    """322.13-322.14: in a Neutral Open State the turn player picks a staged showdown, then a combat. (Nothing
    to do until a battlefield is staged: while none is, it is asked again only once one's stage is written.)"""
    standing_notes(game, StepKind.SHOWDOWN, COMBAT_STAGED, {}, ())  # no showdown open: no combat waits for one
    if not game.journal.due(STAGED):
        return
    for bf in game.battlefield_objects:  # a loop, not any(): every cleanup asks
        if bf.staged:
            break
    else:
        return
    game.journal.changed |= STAGED  # one staged battlefield may remain once the other opens
    for kind, rule in (("showdown", "323.12"), ("combat", "323.13")):
        staged = [bf.id for bf in game.battlefields() if bf.staged == kind]
        if staged:
            where = choose(game, "battlefield", game.turn_player, f"where a {kind} begins", staged, rule)
            if kind == "showdown":
                do.begin_showdown(game, where, because=rule)
            else:
                do.begin_combat(game, where, because=rule)
            return


@query("combat_joins_open_showdown")
def combat_joins_open_showdown(game: Game) -> None:
    """A Combat staged where a non-combat showdown is ongoing, in the Showdown Open State: from Core Rules 1.4
    that showdown becomes a Combat Showdown now (323.14, 460.1); earlier versions let it close first and stage
    the combat then (345.2.b of 2025-12-01, `combat_joins_open_showdown` in scenarios/versions.py)."""
    showdown = game.showdown
    if showdown.combat or game.objects[showdown.battlefield].staged != "combat":
        standing_notes(game, StepKind.SHOWDOWN, COMBAT_STAGED, {}, ())
        return
    reading = game.reading("combat_joins_open_showdown")
    if reading.choice == "at_once":
        do.begin_combat(game, showdown.battlefield, because=reading.cited)
    else:
        waiting = f"combat staged at {showdown.battlefield}: it begins once the showdown there closes"
        standing_notes(game, StepKind.SHOWDOWN, COMBAT_STAGED, {showdown.battlefield: waiting}, reading.cited)


COMBAT_STAGED = "staged"  # the note of a combat waiting for the showdown at its battlefield to close


@procedure(
    "begin_showdown",
    StepKind.SHOWDOWN,
    defines=("344.2", "345"),
    summary=lambda g, bf: f"showdown opens at {bf} (no combat)",
    objects=lambda g, bf: [bf],
)
def begin_showdown(game: Game, bf_id: str) -> None:
    bf = game.objects[bf_id]
    bf.staged = None
    game.showdown = Showdown(bf_id, False, bf.contested_by)
    game.priority = bf.contested_by  # 313.2


@query("pass_focus")
def pass_focus(game: Game, player: str) -> None:
    """344.3-344.4: the player with Focus passes; when all have passed in sequence the showdown ends."""
    showdown = game.showdown
    showdown.passes = (*showdown.passes, player)
    if set(showdown.passes) >= set(game.turn_order):
        do.end_showdown(game, because="347.2.a")
    else:
        showdown.focus = game.next_player(player)  # 347.2.b
        game.priority = showdown.focus


def _keeps_focus(game: Game) -> bool:
    """After the Initial Chain the player with Focus keeps it, as the version judged under reads it
    (`focus_after_the_initial_chain`)."""
    return game.showdown.initial and game.reading("focus_after_the_initial_chain").choice == "kept"


def _after_chain_summary(g) -> str:
    if _keeps_focus(g):
        return f"{g.word('combat chain')} done: {g.showdown.focus} keeps Focus"
    passes = f"Focus passes to {g.next_player(g.showdown.focus)}"
    if not g.showdown.reopened:
        return passes
    if g.reading(FOCUS).choice == "each_chain":
        return f"the chain of the triggers a Cleanup put on the Chain done: {passes} again"
    return (
        f"{passes}, once for this chain and the triggers a Cleanup put on the Chain as its last item resolved: "
        "a chain a triggered ability opens passes it no second time"
    )


def _after_chain_rules(g) -> list:
    if g.showdown.initial:
        return list(g.reading("focus_after_the_initial_chain").cited)
    return list(g.reading(FOCUS).cited) if g.showdown.reopened else ["346"]


FOCUS: Final = "focus_after_a_reopened_chain"


@procedure("after_chain_emptied", StepKind.SHOWDOWN, summary=_after_chain_summary, cite=_after_chain_rules)
def after_chain_emptied(game: Game) -> None:
    """346: Focus passes when the last chain item resolves, except after the Combat Chain (the Initial Chain of
    2025-12-01) where the version judged under keeps it (346.1). When a Cleanup's triggers went on the Chain
    just after its last item resolved, the versions disagree (`focus_after_a_reopened_chain`): up to 2025-12-01
    Focus passed as that item resolved and passes again now (343); from Core Rules 1.4 it passes once, now."""
    showdown = game.showdown
    if not _keeps_focus(game):
        showdown.focus = game.next_player(showdown.focus)
    showdown.initial = False
    showdown.reopened = False
    showdown.passes = ()
    game.priority = showdown.focus


@procedure(
    "end_showdown",
    StepKind.SHOWDOWN,
    defines=("348",),
    summary=lambda g: f"all players passed: showdown at {g.showdown.battlefield} ends",
)
def end_showdown(game: Game) -> None:
    showdown = game.showdown
    game.showdown = None
    game.priority = None
    if showdown.combat:
        calc.cleanup(game, "the showdown ended", "347.2.a")
        do.combat_damage_step(game, because="348.1")
        do.combat_resolution_step(game, because="348.1")
    else:
        # 348.2 settles the battlefield as the showdown closes, before its cleanup could stage it again
        do.settle_showdown(game, showdown.battlefield, because="348.2")


@procedure(
    "settle_showdown",
    StepKind.SHOWDOWN,
    defines=("348.2",),
    summary=lambda g, bf: f"settle control of {bf} after a showdown without combat",
    objects=lambda g, bf: [bf],
)
def settle_showdown(game: Game, bf_id: str) -> None:
    bf = game.objects[bf_id]
    present = {u.controller for u in game.units(bf_id)}
    if len(present) == 1:
        (player,) = present
        if bf.battlefield_controller != player:
            do.establish_control(game, bf, player, because="348.2.a")
    elif len(present) >= 2:
        bf.staged = "combat"
        note(
            game,
            StepKind.SHOWDOWN,
            "staged",
            f"two players remain at {bf_id}: stays contested, combat staged ({bf.contested_by} will attack)",
            ("323.9", "464.2.c.1"),
            objects=[bf_id],
        )
    else:
        bf.contested_by = None
    calc.cleanup(game, "the showdown ended", "347.2.a")


@condition("during a showdown", "342")
def _during_a_showdown(game: Game, context) -> bool:
    """ "When you play a unit during a showdown": a showdown, a combat's or not, is under way (342)."""
    return game.showdown is not None
