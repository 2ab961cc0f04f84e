"""Passive abilities that make other triggered abilities trigger an additional time (364, 383): "Your [Deathknell]
effects trigger an additional time" (Deathknell effects, 808.1.c.1), "Your conquer effects for conquering here
trigger an additional time" (Conquer Effects, 383.4.c.3; Hold Effects, 383.4.d).

A passive's `retriggers` names the kind of triggered ability (`cards.RETRIGGERS`); its filter `to` names whose
abilities ("your": the objects its controller controls). Each such passive active as an ability triggers makes one
more instance of it (a separate trigger instance: each goes on the Chain and resolves on its own, 383.3).
"""

from __future__ import annotations

from scenarios.game import Game
from scenarios.kernel import calc, query
from scenarios.objects import Event, Obj

SELF_WORDS = ("self", "me", "this", "i")


def _kind_of(source: Obj, trigger, event: Event, here: str | None) -> str | None:
    """The word a `retriggers` names this triggering by: a Deathknell (its card has the keyword and the ability is
    its "When I die", 808.1.c), or a conquer / hold effect (383.4.c, 383.4.d) at the passive's `here`."""
    when = trigger.when
    # [Deathknell] is printed on the card and stands for its "When I die" ability, read from its text (808.1.c): not
    # a keyword the engine gives or takes away, so it is read off the card's printed keywords, not `has_keyword`
    printed = source.definition.keywords
    if when.event == "die" and when.who in SELF_WORDS and "Deathknell" in printed:
        return "deathknell"
    if when.event in ("conquer", "hold") and event.kind == when.event and event.location == here:
        return f"{when.event} here"
    return None


@query("additional_triggers")
def additional_triggers(game: Game, source: Obj, trigger, event: Event) -> list[str]:
    """The cards whose passives make this triggering of `trigger` (an ability of `source`) happen once more, one
    entry per additional time."""
    if not game.passive_sources:
        return []
    found = []
    for giver, passive, view in calc.passives(game):
        kind = _kind_of(source, trigger, event, view.here) if passive.retriggers else None
        if kind in passive.retriggers and calc.matches_object(game, passive.to, view, source):
            found.append(giver.card)
    return found
