"""A wrong engine must fail its scenarios: each mutant breaks one rule, and the library must notice.

Each mutant replaces one engine function with a plausible misreading of the rules (the kind of mistake
open-source engines make) and replays the scenarios that pin that rule down; at least one must mismatch.
"""

from __future__ import annotations

import pytest

import scenarios
from scenarios import cleanups, effects, layers, movement, replacement, schema, triggers
from scenarios.replay import replay_file, replay_variant


def paths(*positions):
    wanted = {f"ruling-{n:02d}-" for n in positions}
    return [p for p in scenarios.library_paths() if any(p.name.startswith(w) for w in wanted)]


def recall_also_exhausts(original):
    def mutant(game, unit_id, rule="433"):
        original(game, unit_id, rule)
        game.obj(unit_id).exhausted = True

    return mutant


def recall_also_heals(original):
    def mutant(game, unit_id, rule="433"):
        original(game, unit_id, rule)
        game.obj(unit_id).damage = 0

    return mutant


def no_snapshot(original):
    return lambda game, unit, amount, minimum: amount


def replacements_ignored(original):
    def mutant(game, unit):
        return False
        yield

    return mutant


def triggers_in_reverse_turn_order(original):
    def mutant(game, first=(), last=(), rule="376.3.b.1"):
        return original(game, first=last, last=first, rule=rule)

    return mutant


def cleanup_never_repeats(original):
    def mutant(game, reason="", special=None):
        yield from cleanups._cleanup_once(game, reason, special)

    return mutant


def trigger_controller_follows_its_source(original):
    def mutant(game, item):
        source = game.objects.get(item["source"])
        if source is not None and source.zone == "board" and source.kind == "unit":
            item["controller"] = source.controller
        yield from original(game, item)

    return mutant


def decreases_before_increases(original):
    def mutant(game, unit):
        base, increases, decreases = layers.might_parts(game, unit)
        value = base
        for _, amount, minimum, _ in decreases:
            value -= amount if minimum is None else min(amount, max(0, value - minimum))
        return value + sum(amount for _, amount, _, _ in increases), "mutant"

    return mutant


MUTANTS = [
    ("a cleanup never repeats", cleanups, "cleanup", cleanup_never_repeats, (29,)),
    ("a trigger's controller follows its source", effects, "execute_all", trigger_controller_follows_its_source, (21,)),
    ("decreases before increases", layers, "_apply", decreases_before_increases, (14,)),
    ("recall exhausts the unit", movement, "recall", recall_also_exhausts, (20, 24)),
    ("recall heals the unit", movement, "recall", recall_also_heals, (22,)),
    ("might limits are not snapshotted", effects, "snapshot_modifier", no_snapshot, (10, 41, 42)),
    ("replacement effects never apply", replacement, "would_die", replacements_ignored, (3, 9, 13)),
    ("defender's triggers go on the chain first", triggers, "place_pending", triggers_in_reverse_turn_order, (37,)),
]


def verdicts(positions) -> dict[str, str]:
    """Every scenario and variant of the given rulings, with its verdict."""
    found = {}
    for path in paths(*positions):
        found[path.name] = replay_file(path).verdict
        for variant in schema.load(path)[0].variants:
            found[f"{path.name}:{variant.id}"] = replay_variant(path, variant.id).verdict
    return found


@pytest.mark.parametrize("name,module,attribute,mutate,positions", MUTANTS, ids=[m[0] for m in MUTANTS])
def test_the_library_kills_the_mutant(monkeypatch, name, module, attribute, mutate, positions):
    assert set(verdicts(positions).values()) == {"match"}
    monkeypatch.setattr(module, attribute, mutate(getattr(module, attribute)))
    after = verdicts(positions)
    assert "mismatch" in after.values(), f"mutant '{name}' survived: {after}"
