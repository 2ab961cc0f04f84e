"""Repeat 820: an optional additional cost on spells. Each Repeat cost paid as the spell is played (820.1.c.1,
each at most once, 820.1.c.3) executes the spell's instructions one more time as it resolves (820.1.d.1).
The choices of each extra execution are made as the spell is played (820.2), and need not be the same as the
first execution's (820.2.a); each execution checks its own targets as it begins (359.3.e). However many
times its instructions run, the spell is played once (820.3.a).
"""

from __future__ import annotations

from scenarios.game import Game
from scenarios.kernel import Refusal, calc, note, query
from scenarios.trace import StepKind


@query("repeat_choices")
def repeat_choices(game: Game, card, act, context) -> list[dict]:
    """The targets of each extra execution the player pays for (one mapping of target slots per Repeat)."""
    costs = card.definition.repeat
    if act.repeat < 0 or act.repeat > len(costs):
        if not costs:
            raise Refusal("820.1.a", f"{card.id} has no Repeat")
        raise Refusal("820.1.c.3", f"{card.id} has {len(costs)} Repeat cost(s); each can be paid only once")
    if len(act.repeat_targets) > act.repeat:
        raise Refusal("820.2", f"targets are given for {len(act.repeat_targets)} extra executions, {act.repeat} paid")
    specs = tuple(card.definition.targets.items())
    picks = [*act.repeat_targets, *[{}] * (act.repeat - len(act.repeat_targets))]
    return [calc.choose_targets(game, specs, dict(pick), context) for pick in picks]


@query("repeat_execution")
def repeat_execution(game: Game, item, because: str, number: int, targets: dict) -> None:
    """820.1.d.1: the spell's instructions are executed once more, with this execution's own choices."""
    chosen = ", ".join(f"{slot}={ref[0]}" for slot, refs in targets.items() for ref in refs if not isinstance(ref, str))
    note(
        game,
        StepKind.EFFECT,
        "repeat",
        f"{item.label}: Repeat paid: its instructions execute again (execution {number + 1})"
        + (f" choosing {chosen}" if chosen else ""),
        because,
        ("820.1.d.1",),
        [item.source],
    )
    calc.execute(game, calc.resolution(game, item, because, targets), item.effects)
