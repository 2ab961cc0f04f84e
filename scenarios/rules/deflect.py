"""Deflect 735: "Spells and abilities an opponent controls that choose me cost [A] more" per point of the
Deflect value (735.1.c), a mandatory additional cost (353.2.a.2) paid with Power of any domain (735.1.c.1).
Deflect values from several sources are summed (735.2), whether printed, granted or given by a passive
("Friendly units have [Deflect]"). A permanent chosen twice by one spell (a Repeat's extra choices) is one
permanent that spell chooses.
"""

from __future__ import annotations

from scenarios.kernel import calc, query
from scenarios.objects import BOARD


@query("deflect_cost")
def deflect_cost(game, player: str, choices) -> int:
    """The Power of any domain that `player`'s spell or ability pays for choosing these targets."""
    chosen = {ref[0] for choice in choices for refs in choice.values() for ref in refs if not isinstance(ref, str)}
    total = 0
    for object_id in sorted(chosen):
        obj = game.objects[object_id]
        if obj.zone == BOARD and obj.controller != player:  # only an opponent's spells and abilities pay
            total += calc.keyword_value(game, obj, "Deflect")
    return total
