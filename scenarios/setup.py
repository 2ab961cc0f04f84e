"""Build a `GameState` from a scenario's (already validated) `setup:` block."""

from __future__ import annotations

from scenarios.cards import card as card_named
from scenarios.state import Obj, Player


def build(game, setup: dict) -> None:
    turn = setup["turn"]
    game.turn_order = list(setup["players"].keys())
    game.turn_player = turn["player"]
    game.priority = turn["player"]  # 312.2.a: Neutral Open, the turn player's Action Phase
    game.phase = turn.get("phase", "action")
    game.victory_score = setup.get("victory_score", 8)
    for name, spec in setup["players"].items():
        game.players[name] = Player(
            name,
            points=spec.get("points", 0),
            energy=spec.get("energy", 99),
            power=spec.get("power", 99),
            runes=spec.get("runes", 0),
            cards_played_this_turn=spec.get("cards_played_this_turn", 0),
        )
        if spec.get("legend"):
            _add(game, spec["legend"], owner=name, kind="legend", zone="board", location="base")
        for unit in spec.get("base", []):
            _add_permanent(game, unit, owner=name, location="base")
        for zone in ("hand", "deck", "trash", "banishment"):
            for position, entry in enumerate(spec.get(zone, [])):
                obj = _add(game, entry, owner=name, kind=_kind_of(entry["card"]), zone=zone)
                obj.order = position
        for entry in spec.get("facedown", []):
            obj = _add(game, entry, owner=name, kind=_kind_of(entry["card"]), zone="facedown")
            obj.location = entry["at"]
    for field in setup.get("battlefields", []):
        bf = _add(
            game,
            field,
            owner=field.get("controller") or game.turn_order[0],
            kind="battlefield",
            zone="board",
            location=field["id"],
        )
        bf.battlefield_controller = field.get("controller")
        bf.contested_by = field.get("contested_by")
        bf.scored_this_turn = list(field.get("scored_this_turn", []))
        for unit in field.get("units", []):
            _add_permanent(game, unit, owner=unit["controller"], location=field["id"])
    if turn.get("showdown"):
        _open_showdown(game, turn["showdown"])


def _kind_of(name: str) -> str:
    kind = card_named(name).type
    return "unit" if kind == "token" else kind


def _add(game, entry: dict, owner: str, kind: str, zone: str, location: str | None = None) -> Obj:
    if entry["id"] in game.objects:
        raise ValueError(f"object id {entry['id']!r} used twice")
    definition = card_named(entry["card"])
    obj = Obj(
        id=entry["id"],
        card=definition.name,
        owner=owner,
        controller=entry.get("controller") or owner,
        kind=kind,
        zone=zone,
        location=location,
        timestamp=game.tick(),
    )
    obj.might_base = entry["might"] if entry.get("might") is not None else definition.might
    obj.exhausted = entry.get("exhausted", False)
    game.objects[obj.id] = obj
    return obj


def _add_permanent(game, entry: dict, owner: str, location: str) -> Obj:
    kind = _kind_of(entry["card"])
    obj = _add(game, entry, owner=owner, kind=kind, zone="board", location=location)
    obj.damage = entry.get("damage", 0)
    obj.stunned = entry.get("stunned", False)
    obj.buffs = 1 if entry.get("buff") else 0
    obj.moves_this_turn = entry.get("moves_this_turn", 0)
    for keyword, value in entry.get("keywords", {}).items():
        obj.granted.append({"keyword": keyword, "value": value, "until": "permanent"})
    for modifier in entry.get("modifiers", []):
        obj.modifiers.append({"amount": modifier, "source": "setup", "timestamp": game.tick(), "until": "turn"})
    for gear in entry.get("gear", []):
        attached = _add(game, gear, owner=obj.controller, kind="gear", zone="board", location=location)
        attached.attached_to = obj.id
    return obj


def _open_showdown(game, spec: dict) -> None:
    """A scenario that starts mid-showdown: a combat if two players have units there (roles from Contested,
    442.1.a), with the designations already given, so attack and defend triggers have had their turn."""
    bf = game.obj(spec["battlefield"])
    players = {u.controller for u in game.units(bf.id)}
    focus = spec.get("focus") or bf.contested_by
    combat = len(players) >= 2
    if combat:
        defender = next(p for p in players if p != bf.contested_by)
        game.combat = {"battlefield": bf.id, "attacker": bf.contested_by, "defender": defender, "resolving": False}
        for unit in game.units(bf.id):
            unit.designation = "attacker" if unit.controller == bf.contested_by else "defender"
            unit.triggered_in_combat = [unit.designation]
    game.showdown = {"battlefield": bf.id, "combat": combat, "focus": focus, "passes": [], "initial": False}
    game.priority = focus
