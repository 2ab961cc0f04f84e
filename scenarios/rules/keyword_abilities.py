"""Keywords that stand for triggered abilities (801, 816-821): each rule module that reads such a keyword's
glossary entry registers the ability it is short for (`kernel.keyword_ability`); `keyword_triggers` tells
the trigger module which objects an event makes it trigger for.

A keyword counts wherever it comes from: printed, granted by an effect, or given by a passive ("Other
friendly units have [Vision]"); on an attached card only a granted or given one, as its printed rules text is
inactive (135.4, 135.4.b). Keywords whose instances trigger separately (Vision 817.2, Weaponmaster
821.1.c.7) trigger once per instance; the others once (Temporary 816.2, Quick-Draw 819.2).
"""

from __future__ import annotations

from scenarios.game import Game
from scenarios.kernel import KEYWORD_ABILITIES, calc, query
from scenarios.objects import BOARD

SELF_WORDS = ("self", "me", "this", "i")


@query("keyword_triggers")
def keyword_triggers(game: Game, event) -> list:
    """(object, keyword ability, number of instances) for each keyword ability `event` may trigger."""
    found = []
    for ability in KEYWORD_ABILITIES.triggered_by(event.kind):
        flt = ability.trigger.when
        if flt.who in SELF_WORDS:
            subject = game.objects.get(event.unit) if event.unit else None
            candidates = [subject] if subject is not None and subject.zone == BOARD else []
        else:
            candidates = [o for o in game.permanent_objects if o.zone == BOARD]
        for obj, value in calc.keyword_holders(game, candidates, ability.keyword):
            if obj.attached_to:  # printed rules text is inactive while attached (135.4), granted text not (135.4.b)
                value -= obj.definition.keywords.get(ability.keyword, 0) if obj.definition else 0
                if value <= 0:
                    continue
            found.append((obj, ability, value if ability.stacks else 1))
    return found
