"""Conditional text 364.3 and 812: "if ..., [text]". A condition word (registered by the rule module that
defines it, e.g. Legion) decides whether a triggered ability triggers (`condition:` on a trigger), whether a
discount applies (`condition:` on a discount), or which instructions an `if` instruction executes.

An `if` is read from the point of view of the item that executes it: a spell's text and a permanent's play
effect are their card's own play (Legion counts the cards played before it, 812.1.b.1); any other ability's
text is not (812.1.b).

"You may <instructions>" (`may`) is decided as it resolves: after the first part of a triggered ability's effect
(383.3.a.3; one at its start is the trigger's own decision, made as it is finalized, 383.3.a), in a spell or an
activated ability (355.17).
"""

from __future__ import annotations

from typing import cast

from scenarios.game import BehaviourName, Game
from scenarios.kernel import CONDITIONS, Condition, calc, choose, instruction, note, query
from scenarios.objects import ItemKind
from scenarios.trace import StepKind


@query("condition_holds")
def condition_holds(game: Game, word: str, context: Condition) -> bool:
    predicate, _rule, _reads = CONDITIONS[word]
    return predicate(game, context)


@query("decide_condition")
def decide_condition(game: Game, word: str, context: Condition, label: str, applies: str, because) -> bool:
    """Whether a condition holds, shown as a step citing the rule that defines it and, for a condition the
    versions read differently, the rules of the version the game is judged under."""
    holds = calc.condition_holds(game, word, context)
    _predicate, rule, reads = CONDITIONS[word]
    note(
        game,
        StepKind.EFFECT,
        "condition",
        f"{label}: {word} " + (f"holds: {applies}" if holds else "does not hold"),
        because,
        (
            rule,
            *(game.reading(cast(BehaviourName, reads)).cited if reads else ()),
        ),  # names checked: test_engine_versions
        [context.player],
    )
    return holds


def own_play(item) -> bool:
    """Is this item its card's own play: a spell, or a play effect of the permanent that was played?"""
    if item.kind == ItemKind.SPELL:
        return True
    trigger = item.trigger
    return trigger is not None and trigger.event.kind == "play" and trigger.event.unit == item.source


@instruction("if")
def op_if(game: Game, run, ins) -> None:
    """`{op: if, condition: <word>, then: [...], else: [...]}`: "if <condition>, <then>" (364.3.a); with
    `other_than: <reference>`, the objects it names are not counted by the condition ("another spell")."""
    item = run.item
    word = ins["condition"]
    other = tuple(calc.refs(game, run, ins["other_than"])) if "other_than" in ins else ()
    context = Condition(item.controller, item.source, own_play(item), item.noted_might, item.noted_company, other)
    holds = calc.decide_condition(game, word, context, item.label, "its text applies", run.because)
    calc.execute(game, run, ins.get("then" if holds else "else", []))


@instruction("may")
def op_may(game: Game, run, ins) -> None:
    """`{op: may, then: [...]}`: "you may <then>", decided by its controller as it resolves: in a later part of a
    triggered ability's effect (383.3.a.3), in a spell or an activated ability (355.17: a choice not made as it is
    played is made on resolution)."""
    prompt = f"{run.item.label}: do it?"
    rule = "383.3.a.3" if run.item.trigger is not None else "355.17"
    if choose(game, "may", run.item.controller, prompt, ["yes", "no"], rule) == "yes":
        calc.execute(game, run, ins["then"])
