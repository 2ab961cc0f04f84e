"""Replaying a scenario file: run its actions through the engine and compare the computed outcome.

`replay_file(path)` returns a `Replay` (verdict "match" or "mismatch", expected and
computed outcomes, the trace tree, mismatches as "expected X, computed Y" lines).
`replay_variant(path, variant_id)` replays the same file with one input changed.
`render_tree(replay)` prints the trace as a readable tree with citations.
"""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scenarios import schema
from scenarios.layers import might
from scenarios.numbering import ENGINE_VERSION, translate
from scenarios.state import GameState, Refusal, UnansweredChoice
from scenarios.trace import Step

ENGINE_ONLY = ("label", "expect_refusal", "note")


@dataclass
class Replay:
    scenario_id: str
    ruling_position: int
    title: str
    rules_version: str
    verdict: str
    expected: dict
    computed: dict
    steps: list[Step]
    mismatches: list[str]
    disagreement: str | None
    file: str = ""
    answer: str = ""
    seconds: float = 0.0
    action_count: int = 0
    variant: str | None = None
    state: Any = field(default=None, repr=False)

    @property
    def step_count(self) -> int:
        return sum(1 for root in self.steps for _ in root.walk())

    def cited_numbers(self) -> set[str]:
        return {number for root in self.steps for _, step in root.walk() for number in step.rules}

    def walk(self):
        for root in self.steps:
            yield from root.walk()


def replay_file(path) -> Replay:
    scenario, raw = schema.load(Path(path))
    return _replay(scenario, Path(path))


def replay_variant(path, variant_id: str) -> Replay:
    scenario, raw = schema.load(Path(path))
    variant = next((v for v in scenario.variants if v.id == variant_id), None)
    if variant is None:
        raise KeyError(f"{path}: no variant {variant_id!r}")
    changed = copy.deepcopy(raw)
    _set_path(changed, variant.change.path, variant.change.value)
    changed["expect"] = variant.expect
    changed["checkpoints"] = []
    changed.pop("variants", None)
    try:
        modified = schema.Scenario.model_validate(changed)
    except Exception as error:
        raise schema.ScenarioError(Path(path), None, f"variants.{variant_id}.change", str(error)) from None
    result = _replay(modified, Path(path))
    result.variant = variant_id
    result.title = f"{scenario.meta.title} [variant: {variant.title}]"
    return result


def _set_path(data, dotted: str, value) -> None:
    parts = [int(p) if p.isdigit() else p for p in dotted.split(".")]
    target = data
    for part in parts[:-1]:
        target = target[part]
    target[parts[-1]] = value


def _replay(scenario: schema.Scenario, path: Path) -> Replay:
    started = time.perf_counter()
    setup = scenario.setup.model_dump(exclude_none=True)
    game = GameState(setup, scenario.rules.core)
    mismatches: list[str] = []
    checkpoints = {c.after: c for c in scenario.checkpoints}
    computed_checkpoints = {}
    for index, action in enumerate(scenario.actions, start=1):
        payload = {k: v for k, v in action.model_dump(exclude_none=True).items() if k not in ENGINE_ONLY}
        name = action.label or f"action {index}"
        try:
            game.push(payload)
            if action.expect_refusal:
                mismatches.append(
                    f"{name}: expected a refusal citing {action.expect_refusal}, but the engine allowed it"
                )
        except Refusal as refusal:
            if action.expect_refusal != refusal.rule:
                mismatches.append(
                    f"{name}: expected "
                    + (
                        f"a refusal citing {action.expect_refusal}"
                        if action.expect_refusal
                        else "the action to be allowed"
                    )
                    + f", computed: {refusal}"
                )
                if not action.expect_refusal:
                    break
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
    _cite_version(game.trace.roots, scenario.rules.core)
    return Replay(
        scenario_id=scenario.meta.id,
        ruling_position=scenario.meta.ruling,
        title=scenario.meta.title,
        rules_version=scenario.rules.core,
        verdict="mismatch" if mismatches else "match",
        expected=expected,
        computed=computed_all,
        steps=list(game.trace.roots),
        mismatches=mismatches,
        disagreement=scenario.disagreement,
        file=str(path),
        answer=scenario.answer,
        seconds=time.perf_counter() - started,
        action_count=len(scenario.actions),
        state=game,
    )


def _cite_version(roots, version: str) -> None:
    """Rewrite citations into the numbering of the version the scenario names (see numbering.py)."""
    if version == ENGINE_VERSION:
        return
    for root in roots:
        for _, step in root.walk():
            translated = [translate(number, version) for number in step.rules]
            step.rules = list(dict.fromkeys(n for n in translated if n))


# -- observing the outcome --------------------------------------------------------------------------------


def observe(game: GameState, expected: dict) -> dict:
    return {key: _observe_key(game, key, spec) for key, spec in expected.items()}


def _observe_key(game, key: str, spec):
    if key == "players":
        return {name: {f: _player_field(game, name, f) for f in fields} for name, fields in spec.items()}
    if key == "log":
        return {name: list(game.log.get(name, [])) for name in spec}
    if key == "state":
        return game.state_name()
    if key == "priority":
        return game.priority
    if key == "winner":
        return game.flags.get("winner")
    if key == "turn_player":
        return game.turn_player
    if key == "chain":
        return [item["label"] for item in game.chain]
    if key == "combat":
        return None if not game.combat else {k: game.combat.get(k) for k in (spec or {})}
    if key == "showdown":
        return None if not game.showdown else {k: game.showdown.get(k) for k in (spec or {})}
    if key == "pending":
        return None if not game.pending else {k: getattr(game.pending, k) for k in (spec or {})}
    if key not in game.objects:
        return {"error": f"no object {key!r}"}
    obj = game.objects[key]
    return {f: _object_field(game, obj, f) for f in spec}


def _player_field(game, name: str, f: str):
    player = game.players[name]
    if f == "hand":
        return len(game.hand(name))
    if f == "trash":
        return sorted(o.id for o in game.objects.values() if o.owner == name and o.zone == "trash")
    return getattr(player, f)


def _object_field(game, obj, f: str):
    if f == "zone":
        return obj.where()
    if f == "might":
        return might(game, obj) if obj.zone == "board" else None
    if f == "attached":
        return sorted(g.id for g in game.attached(obj.id))
    if f == "controller" and obj.kind == "battlefield":
        return obj.battlefield_controller
    if f == "keywords":
        from scenarios.layers import keyword_value

        return {k: keyword_value(game, obj, k) for k in ("Assault", "Shield") if keyword_value(game, obj, k)}
    return getattr(obj, f)


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


def render_tree(replay: Replay, max_depth: int | None = None) -> str:
    """The trace as a numbered tree with citations; `max_depth=0` gives the judge's short view (actions only)."""
    out = [
        f"{replay.scenario_id}: {replay.title}",
        f"ruling {replay.ruling_position} | Core Rules {replay.rules_version} | verdict: {replay.verdict.upper()}",
    ]
    if replay.disagreement:
        out.append(f"disagreement: {replay.disagreement}")
    number = 0
    for root in replay.steps:
        for depth, step in root.walk():
            if max_depth is not None and depth > max_depth:
                continue
            number += 1
            cites = f"  [{', '.join(step.rules)}]" if step.rules else ""
            out.append(f"{number:>4}. {'  ' * depth}{step.kind}: {step.summary}{cites}")
    if replay.mismatches:
        out.append("MISMATCHES (expected vs computed):")
        out.extend(f"  - {line}" for line in replay.mismatches)
    else:
        out.append("outcome matches the ruling: " + replay.answer)
    return "\n".join(out)
