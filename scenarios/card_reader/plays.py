"""Cards an effect plays from a trash (419.3), beyond `costs`' "play a unit from your trash, ignoring its cost":

- "You may pay [1][C] to play me from your trash" (a trigger of a unit in the trash; 385.2: an ability that plays
  its card from the trash describes the trash as where it is active, so its trigger is `active_in: trash`,
  383.2.c.1): `effect_plays.play_from` the card itself, for the cost named in place of its own (356.1.a), that
  cost paid as it is played (357.1, so changes to it still apply, 356.3-356.4).

A spell or gear an effect plays is not read here: the engine plays units and gear tokens by effect, not a spell
from a trash (its targets chosen as it is played) nor a gear card.
"""

from __future__ import annotations

from scenarios.card_reader.effects import template
from scenarios.card_reader.phrases import icons_cost

_ICONS = r"(?P<icons>(?:\[[^\]]+\])+)"


@template("play me from your trash for a cost", r"pay " + _ICONS + r" to play me from your trash")
def _play_me_for(m, ctx):
    """ "Pay [1][C] to play me from your trash": the unit itself, from its owner's trash, its base cost replaced by
    the one named (356.1.a). Only a unit's own text: a spell or gear is not played by effect here."""
    cost = icons_cost(m["icons"])
    if cost is None or ctx.card_type != "unit" or ctx.me != "this":
        return None
    return [{"op": "play_from", "what": "this", "for": cost}]

