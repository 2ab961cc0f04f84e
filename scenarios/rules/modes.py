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
from scenarios.kernel import EngineError, calc, choose, instruction, note, query
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
        f"{run.item.label}: the mode chosen as it was played is mode {index}: its instructions are executed",
        run.because,
        ("355.3",),
        [run.item.source],
    )
    calc.execute(game, run, modes[index - 1])


@instruction("either")
def op_either(game: Game, run, ins) -> None:
    """`{op: either, options: [[...], [...]], labels: [...]}`: "Draw 1 or channel 1 rune exhausted". Not a bulleted
    list of modes, so the choice is made as the item resolves (355.17), by its controller, among the options printed."""
    labels = list(ins["labels"])
    pick = choose(game, "either", run.item.controller, f"{run.item.label}: which to do", labels, "355.17")
    calc.execute(game, run, ins["options"][labels.index(pick)])
