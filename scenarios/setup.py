"""Build a game from a scenario's (validated) `setup:` block: players, their zones, battlefields, a showdown."""

from __future__ import annotations

from scenarios.cards import card as card_named
from scenarios.kernel import EngineError
from scenarios.objects import Combat, Grant, Kind, Modifier, Obj, Player, Role, Showdown, Zone


def _turns_taken(game, name: str, spec: dict) -> int:
    """The turns `name` has begun: as the setup says, else the game's first round (Turn Order from its first player,
    303.2): a player up to the turn player has begun their first turn, one after it none yet."""
    if spec.get("turns_taken") is not None:
        return spec["turns_taken"]
    order = game.turn_order
    return 1 if order.index(name) <= order.index(game.turn_player) else 0


def build(game, setup: dict) -> None:
    turn = setup["turn"]
    game.turn_order = tuple(setup["players"])
    game.turn_player = turn["player"]
    game.priority = turn["player"]  # 312.2.a: Neutral Open, the turn player's Main Phase
    game.phase = "main"  # `phase: action`, the word of 2025-12-01, is the same phase
    game.victory_score = setup.get("victory_score", 8)
    for name, spec in setup["players"].items():
        game.players[name] = Player(
            name,
            points=spec.get("points", 0),
            energy=spec.get("energy", 99),
            power=spec.get("power", 99),
            domain_power=tuple(sorted(spec.get("domain_power", {}).items())),
            cards_played_this_turn=spec.get("cards_played_this_turn", 0),
            cards_finalized_this_turn=spec.get("cards_played_this_turn", 0),  # a card played was Finalized
            xp=spec.get("xp", 0),
            turns_taken=_turns_taken(game, name, spec),
        )
        if spec.get("legend"):
            _add(game, spec["legend"], owner=name, zone=Zone.BOARD, location="base")
        for unit in spec.get("base", []):
            _add_permanent(game, unit, owner=name, location="base")
        for zone in (Zone.HAND, Zone.DECK, Zone.TRASH, Zone.BANISHMENT):
            for position, entry in enumerate(spec.get(str(zone), [])):
                _add(game, entry, owner=name, zone=zone).order = position
        for rune in spec.get("runes", []):  # runes on the board are in their controller's base (105)
            _add(game, rune, owner=name, zone=Zone.BOARD, location="base")
        for position, entry in enumerate(spec.get("rune_deck", [])):
            _add(game, entry, owner=name, zone=Zone.RUNE_DECK).order = position
        for entry in spec.get("facedown", []):
            hidden = _add(game, entry, owner=name, zone=Zone.FACEDOWN, location=entry["at"])
            hidden.hidden_turn = 0  # hidden on an earlier turn: playable now (811.1.b)
    for field in setup.get("battlefields", []):
        owner = field.get("controller") or game.turn_order[0]
        bf = _add(game, field, owner=owner, zone=Zone.BOARD, location=field["id"])
        bf.battlefield_controller = field.get("controller")
        bf.contested_by = field.get("contested_by")
        bf.scored_this_turn = tuple(field.get("scored_this_turn", []))
        bf.conquered_this_turn = tuple(field.get("conquered_this_turn", []))
        for unit in field.get("units", []):
            _add_permanent(game, unit, owner=unit["controller"], location=field["id"])
    if turn.get("showdown"):
        _open_showdown(game, turn["showdown"])


def _add(game, entry: dict, owner: str, zone: Zone, location: str | None = None) -> Obj:
    if entry["id"] in game.objects:
        raise EngineError(f"object id {entry['id']!r} used twice")
    definition = card_named(entry["card"])
    obj = Obj(
        id=entry["id"],
        card=definition.name,
        owner=owner,
        controller=entry.get("controller") or owner,
        kind=Kind(definition.object_kind),
        zone=zone,
        location=location,
        timestamp=game.tick(),
        might_base=entry["might"] if entry.get("might") is not None else definition.might,
        exhausted=entry.get("exhausted", False),
        definition=definition,
    )
    game.objects[obj.id] = obj
    game.index(obj)
    return obj


def _add_permanent(game, entry: dict, owner: str, location: str) -> Obj:
    obj = _add(game, entry, owner=owner, zone=Zone.BOARD, location=location)
    obj.damage = entry.get("damage", 0)
    obj.stunned = entry.get("stunned", False)
    obj.buffs = 1 if entry.get("buff") else 0
    obj.moves_this_turn = entry.get("moves_this_turn", 0)
    obj.empowered = entry.get("empowered", False)
    obj.granted = tuple(Grant(k, v, "permanent") for k, v in entry.get("keywords", {}).items())
    obj.modifiers = tuple(Modifier(amount, "setup", game.tick()) for amount in entry.get("modifiers", []))
    for gear in entry.get("gear", []):
        attached = _add(game, gear, owner=obj.controller, zone=Zone.BOARD, location=location)
        attached.attached_to = obj.id
    return obj


def _open_showdown(game, spec: dict) -> None:
    """A scenario that starts mid-showdown: a combat if two players have units there (roles from Contested,
    464.2.c), with the designations already given, so attack and defend triggers have had their turn."""
    bf = game.objects[spec["battlefield"]]
    players = {u.controller for u in game.units(bf.id)}
    focus = spec.get("focus") or bf.contested_by
    combat = len(players) >= 2
    if combat:
        defender = next(p for p in game.turn_order if p in players and p != bf.contested_by)
        game.combat = Combat(bf.id, bf.contested_by, defender)
        for unit in game.units(bf.id):
            unit.designation = Role.ATTACKER if unit.controller == bf.contested_by else Role.DEFENDER
            unit.triggered_in_combat = (str(unit.designation),)
    game.showdown = Showdown(bf.id, combat, focus)
    game.priority = focus
