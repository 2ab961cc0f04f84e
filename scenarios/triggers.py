"""Triggered, reflexive and delayed abilities 375-385.

`fire(event, **data)` evaluates every trigger condition right after the event
(376.2.c) and remembers the abilities that triggered. `place_pending` puts them on
the Chain as pending items: each player orders their own simultaneous triggers
(376.3.b, an explicit choice when there are several), players in turn order
(376.3.b.1) or, for a combat's Initial Chain, attacker first and defender last
(442.1.b.1). The controller of a triggered ability is fixed here (it does not
follow the source if control of the source changes later).
"""

from __future__ import annotations

from scenarios.choices import ask
from scenarios.layers import might
from scenarios.trace import procedure

RULES = {
    "play": "376.4.a",
    "attack": "376.4.d",
    "defend": "376.4.e",
    "conquer": "376.4.b",
    "hold": "376.4.c",
    "die": "734.1.c",
    "move": "376.1",
    "delayed": "383.2",
    "you_play_mighty_unit": "708",
}  # 708: Mighty while Might is 5+, checked as the condition is evaluated


def _conditions():
    def unit_is_source(g, src, d):
        return d.get("unit") == src.id

    def battlefield_controlled_by_you(g, src, location):
        return g.is_battlefield(location) and g.obj(location).battlefield_controller == src.controller

    return {
        "play": unit_is_source,
        "attack": unit_is_source,
        "defend": unit_is_source,
        "move": unit_is_source,
        "third_move": lambda g, src, d: d.get("unit") == src.id and src.moves_this_turn == 3,
        "unit_moves_here": lambda g, src, d: src.kind == "battlefield" and d.get("location") == src.id,
        "conquer": lambda g, src, d: src.id in d.get("units", []) and d["player"] == src.controller,
        "hold": lambda g, src, d: src.id in d.get("units", []) and d["player"] == src.controller,
        "enemy_attacks_your_battlefield": lambda g, src, d: (
            g.obj(d["unit"]).controller != src.controller and battlefield_controlled_by_you(g, src, d["location"])
        ),
        "you_defend_here": lambda g, src, d: d["location"] == src.id and src.battlefield_controller == d["player"],
        "you_hold_here": lambda g, src, d: d["location"] == src.id and d["player"] == src.battlefield_controller,
        "you_choose_friendly_unit": lambda g, src, d: (
            d["player"] == src.controller and g.obj(d["unit"]).controller == src.controller
        ),
        "first_choose_friendly_with_spell_here": lambda g, src, d: (
            d.get("with_spell")
            and g.obj(d["unit"]).location == src.id
            and src.battlefield_controller == d["player"] == g.obj(d["unit"]).controller
            and f"tree:{src.id}:{d['player']}" not in g.flags.get("once_per_turn", [])
        ),
        "you_play_mighty_unit": lambda g, src, d: (
            g.obj(d["unit"]).controller == src.controller and might(g, g.obj(d["unit"])) >= 5
        ),
        "end_of_your_turn": lambda g, src, d: d["player"] == src.controller,
        "second_card": lambda g, src, d: d["player"] == src.controller and d["count"] == 2,
    }


CONDITIONS = _conditions()
EVENT_OF = {
    "enemy_attacks_your_battlefield": "attack",
    "third_move": "move",
    "unit_moves_here": "move",
    "you_choose_friendly_unit": "choose",
    "first_choose_friendly_with_spell_here": "choose",
    "you_play_mighty_unit": "play",
    "end_of_your_turn": "end_of_turn",
    "second_card": "card_played",
    "you_hold_here": "hold",
}


def _granted_events(game, src, event):
    """Skyfall-style grants: gear attached to a unit makes its conquer and hold triggers answer both events."""
    if (
        src.kind == "unit"
        and event in ("conquer", "hold")
        and any("conquer_and_hold_both" in g.definition.grants for g in game.attached(src.id))
    ):
        return {"conquer", "hold"}
    return {event}


def fire(game, event: str, **data) -> None:
    found = game.flags.setdefault("triggered", [])
    for src in list(game.objects.values()):
        if src.zone != "board" or (src.attached_to and src.kind == "gear"):
            continue
        events = _granted_events(game, src, event)
        for index, trigger in enumerate(src.definition.triggers):
            if EVENT_OF.get(trigger.when, trigger.when) not in events:
                continue
            if not CONDITIONS[trigger.when](game, src, data):
                continue
            if trigger.when == "first_choose_friendly_with_spell_here":
                game.flags.setdefault("once_per_turn", []).append(f"tree:{src.id}:{data['player']}")
            controller = src.battlefield_controller if src.kind == "battlefield" else src.controller
            label = trigger.label or f"{src.card}: {trigger.when}"
            found.append(
                {
                    "source": src.id,
                    "index": index,
                    "controller": controller,
                    "label": label,
                    "context": {k: v for k, v in data.items() if isinstance(v, (str, int, list))},
                    "rule": RULES.get(trigger.when, "376.1"),
                    "delayed": None,
                }
            )
    for delayed in list(game.delayed):
        if delayed["event"] == event and _same_object(game, delayed, data.get("unit")):
            found.append(
                {
                    "source": delayed["source"],
                    "index": None,
                    "controller": delayed["controller"],
                    "label": delayed["label"],
                    "context": {**data},
                    "rule": "383.2",
                    "delayed": delayed,
                }
            )
            if delayed.get("once"):
                game.delayed.remove(delayed)


def _same_object(game, delayed, unit_id) -> bool:
    """A delayed trigger about "it" follows that object only, not a new object with the same card (356.3.e.4)."""
    if delayed.get("unit") is None:
        return True
    return delayed["unit"] == unit_id and game.obj(unit_id).incarnation == delayed.get("incarnation")


def add_deathknell(game, unit) -> None:
    """734.1.d.2-3: the Deathknell goes on the Chain pending before the card moves to the Trash."""
    for index, trigger in enumerate(unit.definition.triggers):
        if trigger.when == "die":
            game.flags.setdefault("triggered", []).append(
                {
                    "source": unit.id,
                    "index": index,
                    "controller": unit.controller,
                    "label": trigger.label or f"{unit.card}: Deathknell",
                    "context": {"unit": unit.id, "location": unit.location},
                    "rule": "734.1.d.2",
                    "delayed": None,
                }
            )


def place_pending(game, first=(), last=(), rule: str = "376.3.b.1"):
    found = game.flags.get("triggered", [])
    if not found:
        return
    game.flags["triggered"] = []
    middle = [p for p in game.in_turn_order({t["controller"] for t in found}) if p not in first and p not in last]
    for player in [p for p in first] + middle + [p for p in last]:
        own = [t for t in found if t["controller"] == player]
        if not own:
            continue
        if len(own) > 1:
            labels = [f"{t['label']} ({t['source']})" for t in own]
            order = yield from ask(
                game, "order", player, f"order of simultaneous triggers {labels}", labels, "376.3.b", forced_ok=False
            )
            own = [own[labels.index(label)] for label in order]
        for instance in own:
            _put_on_chain(game, instance, rule)


@procedure(
    "trigger",
    "376.3",
    summary=lambda g, t, rule: f"{t['label']} triggers (controller {t['controller']}): pending on the Chain",
    objects=lambda g, t, rule: [t["source"]],
)
def _put_on_chain(game, instance, rule):
    from scenarios import chain

    game.trace.note("trigger", f"ordering per {rule}", [rule, instance["rule"]], [instance["source"]])
    game.log["triggered"].append(instance["label"])
    if instance["delayed"]:
        delayed = instance["delayed"]
        chain.add_item(
            game,
            instance["label"],
            "trigger",
            instance["source"],
            instance["controller"],
            delayed["effects"],
            context={**instance["context"], **delayed.get("context", {})},
        )
        return
    src = game.obj(instance["source"])
    trigger = src.definition.triggers[instance["index"]]
    chain.add_item(
        game,
        instance["label"],
        "trigger",
        src.id,
        instance["controller"],
        trigger.effects,
        target_specs=trigger.targets,
        targets=None,
        context={
            **instance["context"],
            "location": instance["context"].get("location") or (src.id if src.kind == "battlefield" else src.location),
        },
        optional=trigger.optional,
        cost=trigger.cost,
    )
