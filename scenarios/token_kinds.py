"""The kinds of token cards create (187): unit tokens by the name cards print ("Play a 1 [M] Recruit unit token"),
with their tags, keywords and abilities, and the Gold gear token. Played by `play_token` (scenarios/rules/tokens.py)."""

from __future__ import annotations

from typing import Any

# 187: the unit tokens cards create ("Play a 1 [M] Recruit unit token"), by the name they print: their name, tags
# and keywords (the Might is printed with the instruction), and the rule defining them. Played by `play_token`.
UNIT_TOKENS: dict[str, tuple[str, tuple[str, ...], dict[str, int], str]] = {
    "recruit": ("Recruit", ("Recruit",), {}, "187.1"),
    "sprite": ("Sprite", ("Fae",), {"Temporary": 1}, "187.2"),
    "sand soldier": ("Sand Soldier", ("Shurima",), {}, "187.3"),
    "mech": ("Mech", ("Mech",), {}, "187.4"),
    "reflection": ("Reflection", (), {}, "187.6"),
    "bird": ("Bird", ("Bird",), {"Deflect": 1}, "187.7"),
    "tentacle": ("Tentacle", ("Bilgewater",), {}, "187.10"),
    "shadow clone": ("Shadow Clone", (), {}, "187.11"),
}
# 187.11: the abilities a unit token of a kind has, beyond its keywords ("A 0 [M] Shadow Clone token is a domainless
# unit token with 0 Might and 'When I attack, you may banish a unit from your trash. If you do, give me [Assault 4]
# this turn.'"); as the card reader reads that text (tests/test_card_reader_r6_tokens.py checks they agree)
UNIT_TOKEN_ABILITIES: dict[str, dict[str, Any]] = {
    "shadow clone": {
        "text": "When I attack, you may banish a unit from your trash. If you do, give me [Assault 4] this turn.",
        "triggers": [
            {
                "when": {"event": "attack", "who": "self"},
                "optional": True,
                "targets": {"target": {"type": "unit", "zone": "trash"}},
                "effects": [
                    {
                        "op": "if_done",
                        "do": [{"op": "banish", "what": "target"}],
                        "then": [{"op": "grant", "keyword": "Assault", "to": "this", "value": 4}],
                    }
                ],
                "label": "Shadow Clone: When I attack, you may banish a unit from your trash. If you do, give me "
                "[Assault 4] this turn.",
            }
        ],
    },
}

# 187.5: "A Gold gear token is a domainless gear token with '[Reaction][>] Kill this, [E]: [Add] [A].'"
GEAR_TOKENS: dict[str, tuple[dict[str, Any], str]] = {
    "gold": (
        {
            "name": "Gold",
            "real": "Gold",
            "type": "token",
            "token_of": "gear",
            "text": "[Reaction][>] Kill this, [E]: [Add] [A].",
            "activated": [
                {
                    "cost": {"kill": "this", "exhaust": "this"},
                    "keywords": {"Reaction": 1},
                    "effects": [{"op": "add", "power": 1}],
                    "label": "Gold: Kill this, [E]: [Add] [A]",
                }
            ],
        },
        "187.5",
    )
}
