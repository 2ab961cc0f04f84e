"""Replaying a scenario file: run its actions through the engine and compare the computed outcome.

`replay_file(path)` returns a `Replay` (verdict "match" or "mismatch", expected and computed outcomes, the
trace tree, mismatches as "expected X, computed Y" lines). `replay_variant(path, variant_id)` replays the
same file with one input changed. `render_tree(replay)` prints the trace as a tree with citations.

The trace cites the engine's Core Rules version (`kernel.RULES_VERSION`). A scenario naming another version
keeps it in `rules_version`; `rules_db` translates the citations through the stored rule lineage.
A replay runs under a `Budget` (steps and seconds): a runaway one ends with `BudgetExceeded`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import cached_property
from itertools import islice
from pathlib import Path
from typing import Any

from scenarios import kernel, schema
from scenarios.collector import collector_paused
from scenarios.kernel import RULES_VERSION, Budget, BudgetExceeded, Refusal, UnansweredChoice
from scenarios.observe import observe
from scenarios.state import GameState
from scenarios.trace import Step, plain

MAX_ANSWERS_SHOWN = 24  # legal answers kept per question a scenario answers (a what-if offers them)

__all__ = ["Replay", "replay_file", "replay_variant", "render_tree", "observe", "compare", "BudgetExceeded"]


@dataclass
class Replay:
    scenario_id: str
    ruling_position: int | None  # None: a scenario written from the Core Rules, not from a ruling
    title: str
    rules_version: str  # the version the scenario asks its citations in
    verdict: str
    expected: dict
    computed: dict
    mismatches: list[str]
    disagreement: str | None
    file: str = ""
    answer: str = ""
    seconds: float = 0.0
    action_count: int = 0
    variant: str | None = None
    cited_version: str = RULES_VERSION  # the version the step citations are numbered in
    state: Any = field(default=None, repr=False)
    questions: dict[int, dict] = field(default_factory=dict)  # action index (from 0) -> the question it answered
    step_count: int = 0  # the steps of the trace (the game's first `step_count` trace records)

    @cached_property
    def steps(self) -> list[Step]:
        """The trace as a tree, built when first read (most replays are only compared, never read step by step)."""
        return self.state.trace.tree(self.step_count)

    def cited_numbers(self) -> set[str]:
        return {number for _, step in self.walk() for number in step.rules}

    def walk(self):
        for root in self.steps:
            yield from root.walk()


def replay_file(path, budget: Budget | None = None) -> Replay:
    scenario, _ = schema.load(Path(path))
    return replay_scenario(scenario, Path(path), budget)


def replay_variant(path, variant_id: str, budget: Budget | None = None) -> Replay:
    scenario, raw = schema.load(Path(path))
    variant = next((v for v in scenario.variants if v.id == variant_id), None)
    if variant is None:
        raise KeyError(f"{path}: no variant {variant_id!r}")
    modified = schema.validate(schema.variant_document(raw, variant, Path(path)), {}, Path(path))
    result = replay_scenario(modified, Path(path), budget)
    result.variant = variant_id
    result.title = f"{scenario.meta.title} [variant: {variant.title}]"
    return result


def replay_scenario(scenario: schema.Scenario, path, budget: Budget | None = None) -> Replay:
    """Replay a validated scenario (from a file, a variant or a page) and compare its outcome."""
    with collector_paused():
        return _replay(scenario, path, budget)


def _replay(scenario: schema.Scenario, path, budget: Budget | None) -> Replay:
    started = time.perf_counter()
    game = GameState(scenario.setup.model_dump(exclude_none=True), budget or Budget(), scenario.rules.core)
    mismatches: list[str] = []
    checkpoints = {c.after: c for c in scenario.checkpoints}
    computed_checkpoints = {}
    questions: dict[int, dict] = {}
    for index, action in enumerate(scenario.actions, start=1):
        name = action.label or f"action {index}"
        if game.pending is not None:  # the question this action answers, and (some of) its legal answers
            answers = islice(kernel.answer_candidates(game, game.pending), MAX_ANSWERS_SHOWN)
            questions[index - 1] = {**game.pending.plain(), "answers": plain(list(answers))}
        try:
            game.push(action.typed)
            if action.expect_refusal:
                mismatches.append(
                    f"{name}: expected a refusal citing {action.expect_refusal}, but the engine allowed it"
                )
        except Refusal as refusal:
            if action.expect_refusal != refusal.rule:
                wanted = (
                    f"a refusal citing {action.expect_refusal}" if action.expect_refusal else "the action to be allowed"
                )
                mismatches.append(f"{name}: expected {wanted}, computed: {refusal}")
                if not action.expect_refusal:
                    break
        except BudgetExceeded:
            raise
        except Exception as error:  # an engine fault is reported against the action that caused it
            mismatches.append(f"{name}: engine error {type(error).__name__}: {error}")
            break
        if action.label in checkpoints:
            expected = checkpoints[action.label].expect
            got = observe(game, expected)
            computed_checkpoints[action.label] = got
            mismatches.extend(f"checkpoint after {action.label}: {line}" for line in compare(expected, got))
    try:
        game.finish()
    except UnansweredChoice as error:
        mismatches.append(str(error))
    computed = observe(game, scenario.expect)
    mismatches.extend(compare(scenario.expect, computed))
    expected = {
        "outcome": scenario.expect,
        **({"checkpoints": {c.after: c.expect for c in scenario.checkpoints}} if scenario.checkpoints else {}),
    }
    computed_all = {"outcome": computed, **({"checkpoints": computed_checkpoints} if computed_checkpoints else {})}
    return Replay(
        scenario_id=scenario.meta.id,
        ruling_position=scenario.meta.ruling,
        title=scenario.meta.title,
        rules_version=scenario.rules.core,
        verdict="mismatch" if mismatches else "match",
        expected=expected,
        computed=computed_all,
        mismatches=mismatches,
        disagreement=scenario.disagreement,
        file=str(path),
        answer=scenario.answer,
        seconds=time.perf_counter() - started,
        action_count=len(scenario.actions),
        state=game,
        questions=questions,
        step_count=game.trace.mark(),
    )


def compare(expected, computed, prefix: str = "") -> list[str]:
    lines = []
    if isinstance(expected, dict) and isinstance(computed, dict):
        for key, value in expected.items():
            lines.extend(compare(value, computed.get(key), f"{prefix}{key}."))
        return lines
    if expected != computed:
        lines.append(f"{prefix.rstrip('.')}: expected {expected!r}, computed {computed!r}")
    return lines


# -- rendering ---------------------------------------------------------------------------------------------


def render_tree(replay: Replay, max_depth: int | None = None, cite=None) -> str:
    """The trace as a numbered tree with citations; `max_depth=0` gives the judge's short view (actions only).
    `cite` maps a step's rule numbers to the ones to print (rules_db translates them into another version)."""
    out = [
        f"{replay.scenario_id}: {replay.title}",
        (f"ruling {replay.ruling_position}" if replay.ruling_position else "from the Core Rules")
        + f" | judged under Core Rules {replay.rules_version} | verdict: {replay.verdict.upper()}",
    ]
    if replay.disagreement:
        out.append(f"disagreement: {replay.disagreement}")
    number = 0
    for root in replay.steps:
        for depth, step in root.walk():
            if max_depth is not None and depth > max_depth:
                continue
            number += 1
            rules = cite(step.rules) if cite else step.rules
            cites = f"  [{', '.join(rules)}]" if rules else ""
            out.append(f"{number:>4}. {'  ' * depth}{step.kind}: {step.summary}{cites}")
    if replay.mismatches:
        out.append("MISMATCHES (expected vs computed):")
        out.extend(f"  - {line}" for line in replay.mismatches)
    else:
        out.append("outcome matches the ruling: " + replay.answer)
    return "\n".join(out)
