"""Replacement effects 364-368: "instead".

When several replacement effects would apply to the same death, the owner of the
unit chooses which applies (368, an explicit choice); once it has replaced the
death, the event no longer happens and the others have nothing to replace.
"""

from __future__ import annotations

from scenarios.choices import ask
from scenarios.trace import procedure


def applicable(game, unit) -> list[tuple[str, object]]:
    found = []
    for gear in game.objects.values():
        if gear.zone != "board":
            continue
        for effect in gear.definition.replacements:
            if effect.would != "die":
                continue
            if (
                effect.scope == "equipped_unit"
                and gear.attached_to == unit.id
                or effect.scope == "friendly_unit"
                and not gear.attached_to
                and gear.controller == unit.controller
            ):
                found.append((gear.id, effect))
    return found


def would_die(game, unit):
    """Returns True when a replacement effect replaced the death."""
    options = applicable(game, unit)
    if not options:
        return False
    ids = [gear_id for gear_id, _ in options]
    chosen = yield from ask(
        game, "replacement", unit.owner, f"which replacement effect applies to the death of {unit.id}", ids, "368"
    )
    effect = dict(options)[chosen]
    yield from _apply(game, unit, chosen, effect)
    return True


@procedure(
    "replacement",
    "366",
    "366.1",
    "368",
    summary=lambda g, unit, gear_id, effect: f"{g.obj(gear_id).card} replaces the death of {unit.id}",
    objects=lambda g, unit, gear_id, effect: [gear_id, unit.id],
)
def _apply(game, unit, gear_id, effect):
    from scenarios import effects

    item = {
        "id": f"replacement:{gear_id}",
        "label": game.obj(gear_id).card,
        "source": gear_id,
        "controller": game.obj(gear_id).controller,
        "targets": {},
        "target_specs": {},
        "context": {"affected": unit.id, "location": unit.location},
    }
    for instruction in effect.instead:
        yield from effects.execute(game, item, instruction)
