"""The trace: a tree of steps, each emitted by the dispatcher that applies a rule.

Engine procedures are declared with `@procedure(kind, *rule_numbers)`. Calling one
opens a trace step, runs the body, records which objects changed (a diff of the
board before and after) and closes the step. Nothing else in the engine writes to
the trace, so no rule can be applied without being recorded and cited.

Procedures may be generators: a generator procedure suspends the whole engine when
it needs a player's choice (it yields a `Choice`) and the step stays open until the
answer arrives.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

KINDS = (
    "action",
    "chain item",
    "trigger",
    "replacement",
    "cleanup",
    "combat step",
    "layer calculation",
    "choice",
    "refusal",
    "showdown",
    "effect",
    "movement",
    "scoring",
    "turn",
)


@dataclass
class Step:
    kind: str
    summary: str
    rules: list[str]
    objects: list[str] = field(default_factory=list)
    change: dict[str, Any] = field(default_factory=dict)
    children: list[Step] = field(default_factory=list)

    def walk(self, depth: int = 0):
        yield depth, self
        for child in self.children:
            yield from child.walk(depth + 1)

    def to_dict(self) -> dict:
        return {
            "kind": self.kind,
            "summary": self.summary,
            "rules": list(self.rules),
            "objects": list(self.objects),
            "change": self.change,
            "children": [c.to_dict() for c in self.children],
        }


class Tracer:
    """Holds the forest of steps and the stack of steps currently open."""

    def __init__(self) -> None:
        self.roots: list[Step] = []
        self._open: list[Step] = []

    def open(self, kind: str, summary: str, rules, objects=()) -> Step:
        if kind not in KINDS:
            raise ValueError(f"unknown step kind {kind!r}")
        step = Step(kind, summary, [str(r) for r in rules], [str(o) for o in objects])
        (self._open[-1].children if self._open else self.roots).append(step)
        self._open.append(step)
        return step

    def close(self, step: Step) -> None:
        if self._open and self._open[-1] is step:
            self._open.pop()

    def note(self, kind: str, summary: str, rules, objects=(), change=None) -> Step:
        """A leaf step (a choice made, a refusal, a layer calculation)."""
        step = self.open(kind, summary, rules, objects)
        step.change = change or {}
        self.close(step)
        return step

    def unwind(self) -> None:
        self._open.clear()

    def steps(self):
        for root in self.roots:
            yield from root.walk()

    def count(self) -> int:
        return sum(1 for _ in self.steps())


def board_diff(before: dict, after: dict) -> dict:
    """Object -> {attribute: [old, new]} for every attribute that changed."""
    change = {}
    for key in before.keys() | after.keys():
        old, new = before.get(key, {}), after.get(key, {})
        if old == new:
            continue
        fields = {
            name: [old.get(name), new.get(name)] for name in old.keys() | new.keys() if old.get(name) != new.get(name)
        }
        if fields:
            change[key] = fields
    return change


def procedure(
    kind: str,
    *rules: str,
    summary: Callable[..., str] | str | None = None,
    objects: Callable[..., list] | None = None,
    cite: Callable[..., list] | None = None,
):
    """Declare an engine procedure: the rule numbers it applies and how to describe a call.

    `cite` adds rule numbers that depend on the call (the same step justified by different rules)."""

    def describe(game, args, kwargs):
        text = summary(game, *args, **kwargs) if callable(summary) else (summary or "")
        objs = objects(game, *args, **kwargs) if objects else []
        extra = cite(game, *args, **kwargs) if cite else []
        return text, objs, list(rules) + [r for r in extra if r not in rules]

    def decorate(fn):
        if inspect.isgeneratorfunction(fn):

            @functools.wraps(fn)
            def generator_wrapper(game, *args, **kwargs):
                text, objs, cited = describe(game, args, kwargs)
                step = game.trace.open(kind, text or fn.__name__, cited, objs)
                before = game.fingerprint()
                result = yield from fn(game, *args, **kwargs)
                step.change = board_diff(before, game.fingerprint())
                game.trace.close(step)
                return result

            generator_wrapper.rules = rules
            return generator_wrapper

        @functools.wraps(fn)
        def wrapper(game, *args, **kwargs):
            text, objs, cited = describe(game, args, kwargs)
            step = game.trace.open(kind, text or fn.__name__, cited, objs)
            before = game.fingerprint()
            result = fn(game, *args, **kwargs)
            step.change = board_diff(before, game.fingerprint())
            game.trace.close(step)
            return result

        wrapper.rules = rules
        return wrapper

    return decorate
