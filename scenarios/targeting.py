"""Targeting 352.5-352.11 and mistargeting 356.3.e: which objects a choice may pick, and whether it still may."""

from __future__ import annotations

from scenarios.layers import might
from scenarios.state import Refusal


def ref(game, object_id: str) -> list:
    return [object_id, game.obj(object_id).incarnation]


def _here(game, item) -> str | None:
    context = item.get("context", {})
    if context.get("location"):
        return context["location"]
    source = game.objects.get(item["source"])
    if source is None:
        return None
    return source.id if source.kind == "battlefield" else source.location


def matches(game, spec, obj, item) -> bool:
    controller = item["controller"]
    if spec.type == "spell":
        return (
            obj.zone == "chain"
            and obj.kind == "spell"
            and (spec.max_cost is None or obj.definition.energy <= spec.max_cost)
        )
    if spec.type == "card_in_hand":
        return obj.zone == "hand" and obj.owner == controller
    if spec.type != obj.kind or obj.zone != "board":
        return False
    if spec.side == "friendly" and obj.controller != controller:
        return False
    if spec.side == "enemy" and obj.controller == controller:
        return False
    at_battlefield = game.is_battlefield(obj.location)
    if spec.where == "battlefield" and not at_battlefield:
        return False
    if spec.where == "base" and obj.location != "base":
        return False
    if spec.where == "here" and obj.location != _here(game, item):
        return False
    if spec.where == "other_battlefield" and (not at_battlefield or obj.location == _here(game, item)):
        return False
    if spec.max_might is not None and might(game, obj) > spec.max_might:
        return False
    return spec.stunned is None or obj.stunned == spec.stunned


def legal_targets(game, spec, item) -> list[str]:
    if spec.type == "location":
        return ["base"] + [bf.id for bf in game.battlefields()]
    chosen_elsewhere = set()
    if spec.not_target:
        chosen_elsewhere = {r[0] for r in item["targets"].get(spec.not_target, [])}
    return [o.id for o in game.objects.values() if matches(game, spec, o, item) and o.id not in chosen_elsewhere]


def choose(game, specs: dict, picks: dict, item) -> dict:
    """Targets named by a play or activate action, checked now (352.7-352.8, 355.1)."""
    chosen = {}
    for slot, spec in specs.items():
        value = picks.get(slot)
        if value is None:
            if spec.optional:
                chosen[slot] = []
                continue
            raise Refusal("352.7", f"{item['label']} needs a target for '{slot}'")
        values = value if isinstance(value, list) else [value]
        if spec.type == "location":
            bad = [v for v in values if v != "base" and not game.is_battlefield(v)]
            if bad:
                raise Refusal("352.3", f"{bad} is not a location")
            chosen[slot] = values
            continue
        for v in values:
            if v not in game.objects or not matches(game, spec, game.obj(v), {**item, "targets": chosen}):
                raise Refusal("352.8", f"{v!r} is not a legal target for '{slot}' of {item['label']}")
        chosen[slot] = [ref(game, v) for v in values]
    return chosen


def still_legal(game, reference, spec, item) -> bool:
    """356.3.e.2/4: a target that changed zones is a new object; it must still meet the requirements."""
    if isinstance(reference, str):
        return True
    object_id, incarnation = reference
    obj = game.objects.get(object_id)
    return obj is not None and obj.incarnation == incarnation and matches(game, spec, obj, item)
