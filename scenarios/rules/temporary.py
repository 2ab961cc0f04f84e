"""Temporary 816: "At the start of this permanent's controller's Beginning Phase, before scoring, kill this"
(816.1.b). It triggers in its controller's Beginning Step (816.1.c, 315.2.a), so it resolves, and a
battlefield left without units is lost in the Cleanup that follows (323), before the Scoring Step holds
(315.2.b). Several instances are redundant (816.2).
"""

from __future__ import annotations

from scenarios.cards import Trigger
from scenarios.kernel import keyword_ability

keyword_ability(
    "Temporary",
    "816.1.b",
    Trigger.model_validate(
        {
            "when": {"event": "beginning", "who": "you"},
            "label": "Temporary: kill this",
            "effects": [{"op": "kill", "what": "this"}],
        }
    ),
)
