"""The Chain 326-336 and priority 311-313: items are added pending, finalized, and resolve last in, first out.

A chain item is plain data: its label, kind (spell, trigger, ability), source object,
controller (fixed when it goes on the Chain and never updated, see Hostile Takeover),
effects, chosen targets (object id and incarnation, so a target that left the board
and came back is a new object, 356.3.e.4) and the context of its trigger.
"""

from __future__ import annotations

from scenarios import cleanups, effects, targeting
from scenarios.choices import ask
from scenarios.trace import procedure


def add_item(
    game,
    label: str,
    kind: str,
    source: str,
    controller: str,
    effect_list: list,
    *,
    target_specs=None,
    targets=None,
    context=None,
    card_obj: str | None = None,
    optional: bool = False,
    cost=None,
) -> dict:
    item = {
        "id": game.new_id("item"),
        "label": label,
        "kind": kind,
        "source": source,
        "controller": controller,
        "effects": effect_list,
        "target_specs": target_specs or {},
        "targets": targets or {},
        "context": context or {},
        "card_obj": card_obj,
        "pending": targets is None,
        "optional": optional,
        "cost": cost or {},
    }
    game.chain.append(item)
    game.passes = []  # 335.1: only passes in succession with no item added since let the newest item resolve
    return item


@procedure("chain item", "322.12", "333.1", "390", summary=lambda g: "finalize pending items on the Chain")
def finalize_pending(game):
    """Pending triggered abilities get their targets (390.1); with no legal targets they leave (390.3)."""
    for item in [i for i in game.chain if i["pending"]]:
        chosen = {}
        for slot, spec in item["target_specs"].items():
            options = targeting.legal_targets(game, spec, item)
            if not options:
                if spec.optional:
                    chosen[slot] = []
                    continue
                game.chain.remove(item)
                game.trace.note(
                    "chain item",
                    f"{item['label']} has no legal target for {slot}: removed",
                    ["390.3"],
                    [item["source"]],
                )
                break
            pick = yield from ask(
                game, "target", item["controller"], f"target for {item['label']} ({slot})", options, "390.1"
            )
            chosen[slot] = [targeting.ref(game, pick)]
            if game.objects[pick].kind == "unit":
                from scenarios import triggers

                triggers.fire(game, "choose", player=item["controller"], unit=pick, with_spell=False)
        else:
            item["targets"] = chosen
            item["pending"] = False


def give_priority_to_newest(game) -> None:
    """333.1.c.3 / 336.4: the controller of the newest item gains Priority."""
    game.priority = game.chain[-1]["controller"]
    game.passes = []


@procedure(
    "chain item",
    "336.1",
    summary=lambda g: f"resolve {g.chain[-1]['label']} (controller {g.chain[-1]['controller']})",
    objects=lambda g: [g.chain[-1]["source"]],
)
def resolve_top(game):
    item = game.chain[-1]
    game.flags["resolving"] = item["id"]
    if item["optional"]:
        options = ["yes", "no"] if effects.affordable(game, item) else ["no"]
        accept = yield from ask(game, "may", item["controller"], f"use optional {item['label']}?", options, "376.2")
        if accept == "yes":
            yield from effects.execute_all(game, item)
    else:
        yield from effects.execute_all(game, item)
    game.flags.pop("resolving", None)
    if item in game.chain:
        game.chain.remove(item)
    game.log["resolved"].append(f"{item['label']} [{item['controller']}]")
    if item["card_obj"]:
        spell = game.obj(item["card_obj"])
        if spell.zone == "chain":
            spell.zone = "trash"  # 356.3.d: then placed in its owner's Trash
    yield from cleanups.cleanup(game, reason="a chain item was removed (319.4)")
