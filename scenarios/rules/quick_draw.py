"""Quick-Draw 819: short for "[Reaction]" and "When you play this, attach it to a unit you control"
(819.1.d): a gear with Quick-Draw has Reaction (819.1.b), so it may be played in a Closed State or a
showdown, and attaches as its play effect resolves. Several instances do nothing more (819.2); on the board it
has no function (819). A gear attached this way is equipped, as by Equip (818.2).
"""

from __future__ import annotations

from scenarios.cards import Trigger
from scenarios.kernel import keyword_ability

keyword_ability(
    "Quick-Draw",
    "819.1.d",
    Trigger.model_validate(
        {
            "when": {"event": "play", "who": "self"},
            "label": "Quick-Draw: attach this to a unit you control",
            "targets": {"unit": {"type": "unit", "side": "friendly"}},
            "effects": [{"op": "attach", "what": "this", "to": "unit"}],
        }
    ),
    implies=("Reaction",),
)
