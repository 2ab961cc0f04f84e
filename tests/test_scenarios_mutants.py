"""A wrong engine must fail its scenarios: each mutant breaks one rule, and the library must notice.

Each mutant replaces one registered procedure or query of the kernel (the way a rule module plugs into the
engine) with a plausible misreading of the rules (the kind of mistake open-source engines make) and replays
the scenarios that pin that rule down; at least one of them or of their variants must mismatch.
"""

from __future__ import annotations

import dataclasses

import pytest

import scenarios
from scenarios import kernel, schema
from scenarios.objects import Zone
from scenarios.replay import replay_file, replay_variant


def paths(*positions):
    wanted = {f"ruling-{n:02d}-" for n in positions}
    return [p for p in scenarios.library_paths() if any(p.name.startswith(w) for w in wanted)]


def recall_also_exhausts(original):
    def mutant(game, object_id):
        original(game, object_id)
        game.objects[object_id].exhausted = True

    return mutant


def recall_also_heals(original):
    def mutant(game, object_id):
        original(game, object_id)
        game.objects[object_id].damage = 0

    return mutant


def no_snapshot(original):
    return lambda game, unit, amount, minimum: amount


def replacements_ignored(original):
    return lambda game, event: False


def triggers_in_reverse_turn_order(original):
    def mutant(game, first=(), last=(), because="376.3.b.1"):
        return original(game, last, first, because)

    return mutant


def cleanup_never_repeats(original):
    def mutant(game, reason, because, special=None):
        kernel.do.cleanup_pass(game, reason, special, because=because)

    return mutant


def trigger_controller_follows_its_source(original):
    def mutant(game, item, because):
        source = game.objects.get(item.source)
        if source is not None and source.zone == Zone.BOARD and source.kind == "unit":
            item.controller = source.controller
        return original(game, item, because)

    return mutant


def decreases_before_increases(original):
    def mutant(game, unit):
        from scenarios.rules.layers import might_parts

        base, increases, decreases = might_parts(game, unit)
        value = base
        for _, amount, minimum, _ in decreases:
            value -= amount if minimum is None else min(amount, max(0, value - minimum))
        return value + sum(amount for _, amount, _, _ in increases), "mutant"

    return mutant


# (name, registry, entry, mutation, rulings that pin the rule down)
MUTANTS = [
    ("a cleanup never repeats", "query", "cleanup", cleanup_never_repeats, (29,)),
    ("a trigger's controller follows its source", "query", "resolution", trigger_controller_follows_its_source, (21,)),
    ("decreases before increases", "query", "apply_layers", decreases_before_increases, (14,)),
    ("recall exhausts the unit", "procedure", "recall", recall_also_exhausts, (20, 24)),
    ("recall heals the unit", "procedure", "recall", recall_also_heals, (22,)),
    ("might limits are not snapshotted", "query", "snapshot_modifier", no_snapshot, (10, 41, 42)),
    ("replacement effects never apply", "query", "would", replacements_ignored, (3, 9, 13)),
    ("defender's triggers go on the chain first", "query", "place_triggers", triggers_in_reverse_turn_order, (37,)),
]


def mutate(monkeypatch, registry: str, name: str, mutation) -> None:
    if registry == "procedure":
        procedure = kernel.PROCEDURES[name]
        monkeypatch.setitem(kernel.PROCEDURES, name, dataclasses.replace(procedure, fn=mutation(procedure.fn)))
    else:
        monkeypatch.setitem(kernel.QUERIES, name, mutation(kernel.QUERIES[name]))


def verdicts(positions) -> dict[str, str]:
    """Every scenario and variant of the given rulings, with its verdict."""
    found = {}
    for path in paths(*positions):
        found[path.name] = replay_file(path).verdict
        for variant in schema.load(path)[0].variants:
            found[f"{path.name}:{variant.id}"] = replay_variant(path, variant.id).verdict
    return found


@pytest.mark.parametrize("name,registry,entry,mutation,positions", MUTANTS, ids=[m[0] for m in MUTANTS])
def test_the_library_kills_the_mutant(monkeypatch, name, registry, entry, mutation, positions):
    assert set(verdicts(positions).values()) == {"match"}
    mutate(monkeypatch, registry, entry, mutation)
    after = verdicts(positions)
    assert "mismatch" in after.values(), f"mutant '{name}' survived: {after}"
