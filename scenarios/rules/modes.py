"""Modes 355.3 (402.2 for abilities): "Choose one — • X • Y". The mode is a choice made as the spell is played or
the ability is put on the Chain, with its targets: a choice slot named `mode` (a TargetSpec of type "mode" with
`modes` options, "1" to N), chosen before the slots it decides; a slot only one mode uses (`mode: N` on its
TargetSpec) is chosen only when that mode is (the others' targets are not chosen at all). With Repeat, each
execution chooses its own mode (820.2.a).

`{op: mode, modes: [[...], [...]]}`: as the item resolves, the instructions of the mode chosen are executed.
"X or Y" unbulleted (`{op: either}`) is a choice made as the item resolves instead (355.17).
"""

from __future__ import annotations

from scenarios.game import Game
from scenarios.kernel import EngineError, Refusal, calc, choose, instruction, note, query
from scenarios.trace import StepKind

MODE_SLOT = "mode"


@query("mode_unchosen")
def mode_unchosen(game: Game, spec, chosen: dict) -> bool:
    """Is `spec` the slot of a mode other than the one chosen (so it is not chosen at all, 355.3)? `chosen` maps
    slots to what was chosen for them (a tuple of picks, or a pick)."""
    if spec.mode is None:
        return False
    picked = chosen.get(MODE_SLOT)
    picked = picked[0] if isinstance(picked, tuple | list) and picked else picked
    return picked != str(spec.mode)


@query("modes_offered")
def modes_offered(game: Game, spec, ctx) -> list[str]:
    """The modes "1" to N a mode choice may pick; "choose one you've not chosen this turn" (`not_chosen: turn`)
    offers none chosen this turn for the same ability of the same object (marked as it went on the Chain)."""
    offered = [str(n) for n in range(1, (spec.modes or 0) + 1)]
    if spec.not_chosen != "turn":
        return offered
    return [mode for mode in offered if (MODE_SLOT, ctx.source, ctx.label, mode) not in game.trigger_marks]


@query("mark_modes_chosen")
def mark_modes_chosen(game: Game, item) -> None:
    """Remember, for this turn, the modes an item chose as it went on the Chain, when its text forbids choosing
    them again this turn (its choices are made then, 355.3, 402.2; a mark kept with the turn's other marks)."""
    for slot, spec in item.target_specs:
        if spec.type != "mode" or spec.not_chosen != "turn":
            continue
        for targets in (item.targets or {}, *item.repeat_targets):
            for mode in targets.get(slot, ()):
                game.trigger_marks = (*game.trigger_marks, (MODE_SLOT, item.source, item.label, mode))


@query("check_modes_distinct")
def check_modes_distinct(game: Game, specs: dict, executions: list[dict], label: str) -> None:
    """ "Choose one you haven't already chosen —": the executions of a repeated spell (its first and each Repeat
    paid, chosen as it is played, 820.2) choose different modes; the same mode twice is an illegal choice (355.3)."""
    for slot, spec in specs.items():
        if spec.type != "mode" or spec.not_chosen != "item":
            continue
        picked = [mode for targets in executions for mode in targets.get(slot, ())]
        if len(set(picked)) != len(picked):
            raise Refusal("355.3", f"{label}: each execution chooses a mode not already chosen (chosen: {picked})")


@instruction("mode")
def op_mode(game: Game, run, ins) -> None:
    picked = run.legal.get(MODE_SLOT, ())
    if not picked:
        raise EngineError(f"{run.item.label}: no mode was chosen (355.3)")
    index = int(picked[0])
    modes = ins["modes"]
    if not 1 <= index <= len(modes):
        raise EngineError(f"{run.item.label}: mode {index} of {len(modes)}")
    note(
        game,
        StepKind.EFFECT,
        "mode",
        f"{run.item.label}: mode {index}, chosen as it went on the Chain, is executed",
        run.because,
        ("355.3",),
        [run.item.source],
    )
    calc.execute(game, run, modes[index - 1])


@instruction("either")
def op_either(game: Game, run, ins) -> None:
    """`{op: either, options: [[...], [...]], labels: [...]}`: "Draw 1 or channel 1 rune exhausted". Not a bulleted
    list of modes, so the choice is made as the item resolves (355.17), by its controller, among the options printed;
    with `chooser: <reference>`, by the controller of the object it names ("unless its controller has you ...")."""
    labels = list(ins["labels"])
    chooser = run.item.controller
    if "chooser" in ins:  # "... unless its controller has you draw 2": the controller of the object named chooses
        named = calc.still_there(game, run, ins["chooser"], "the choice of the controller of")
        if not named:  # no longer legal: its controller is information no longer available (359.3.e.12)
            calc.impossible(game, run, "the object whose controller chooses is gone: nothing is done", "359.3.e.12")
            return
        chooser = game.objects[named[0]].controller
    pick = choose(game, "either", chooser, f"{run.item.label}: which to do", labels, "355.17")
    calc.execute(game, run, ins["options"][labels.index(pick)])
