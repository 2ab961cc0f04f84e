"""What a scenario's `expect` may name, and reading it off a game: every observable key, read by name (never an
arbitrary attribute). The loader checks a scenario's expectations against these names (`scenarios.document_checks`) and
the replay reads them (`scenarios.replay`); both import this module, which imports neither.
"""

from __future__ import annotations

from scenarios.kernel import KEYWORDS, calc
from scenarios.objects import BOARD, GEAR
from scenarios.state import GameState
from scenarios.trace import plain

OBJECT_FIELDS = {
    "zone": lambda g, o: o.where(),
    "location": lambda g, o: o.location,
    "damage": lambda g, o: o.damage,
    "exhausted": lambda g, o: o.exhausted,
    "might": lambda g, o: calc.might(g, o) if o.zone == "board" else None,
    "stunned": lambda g, o: o.stunned,
    "designation": lambda g, o: o.designation,
    "buffs": lambda g, o: o.buffs,
    "controller": lambda g, o: o.battlefield_controller if o.kind == "battlefield" else o.controller,
    "owner": lambda g, o: o.owner,
    "attached": lambda g, o: sorted(x.id for x in g.attached(o.id)),
    "attached_to": lambda g, o: o.attached_to,
    "incarnation": lambda g, o: o.incarnation,
    "moves_this_turn": lambda g, o: o.moves_this_turn,
    "empowered": lambda g, o: o.empowered,
    "contested_by": lambda g, o: o.contested_by,
    "staged": lambda g, o: o.staged,
    "banished_by": lambda g, o: o.banished_by,
    "keywords": lambda g, o: {
        k: value
        for k in KEYWORDS
        if (value := calc.keyword_value(g, o, k))  # every keyword the engine registers
    },
}
PLAYER_FIELDS = {
    "points": lambda g, name: g.players[name].points,
    "xp": lambda g, name: g.players[name].xp,
    "turns_taken": lambda g, name: g.players[name].turns_taken,
    "energy": lambda g, name: g.players[name].energy,
    "power": lambda g, name: g.players[name].power,
    "restricted_energy": lambda g, name: sum(entry[1] for entry in g.players[name].restricted),
    "restricted_power": lambda g, name: sum(entry[2] for entry in g.players[name].restricted),
    "domain_power": lambda g, name: dict(g.players[name].domain_power),
    "runes": lambda g, name: len(calc.runes_on_board(g, name)),
    "rune_deck": lambda g, name: len(calc.rune_deck(g, name)),
    "played_this_turn": lambda g, name: list(g.players[name].played_this_turn),
    "cards_played_this_turn": lambda g, name: g.players[name].cards_played_this_turn,
    "hand": lambda g, name: len(g.hand(name)),
    "deck": lambda g, name: len(g.deck(name)),
    "deck_top": lambda g, name: g.deck(name)[0].id if g.deck(name) else None,
    "trash": lambda g, name: sorted(o.id for o in g.objects.values() if o.owner == name and o.zone == "trash"),
    # the units a player controls on the board, each as "<card> at <location>" (tokens too, whose ids are made up)
    "units": lambda g, name: sorted(f"{o.card} at {o.location}" for o in g.units(controller=name)),
    # the gear a player controls on the board, each as "<card> at <location>", ", exhausted" when it is (tokens too)
    "gear": lambda g, name: sorted(
        f"{o.card} at {o.location}" + (", exhausted" if o.exhausted else "")
        for o in g.objects.values()
        if o.zone == BOARD and o.kind == GEAR and o.controller == name
    ),
}
GAME_KEYS = {
    "state": lambda g, spec: g.state_name(),
    "priority": lambda g, spec: g.priority,
    "winner": lambda g, spec: g.winner,
    "turn_player": lambda g, spec: g.turn_player,
    "chain": lambda g, spec: [item.label for item in g.chain],
    "log": lambda g, spec: {name: plain(g.log.get(name, [])) for name in spec},
    "players": lambda g, spec: {
        name: {f: _field(PLAYER_FIELDS, f, g, name) for f in fields}
        if name in g.players
        else {"error": f"no player {name!r}"}
        for name, fields in spec.items()
    },
    "combat": lambda g, spec: None if not g.combat else {k: g.combat.plain().get(k) for k in spec or {}},
    "showdown": lambda g, spec: None if not g.showdown else {k: g.showdown.plain().get(k) for k in spec or {}},
    "pending": lambda g, spec: None if not g.pending else {k: g.pending.plain().get(k) for k in spec or {}},
}


def _field(table: dict, name: str, *args):
    reader = table.get(name)
    return plain(reader(*args)) if reader else {"error": f"unknown field {name!r} (known: {', '.join(table)})"}


def observe(game: GameState, expected: dict) -> dict:
    return {key: _observe_key(game, key, spec) for key, spec in expected.items()}


def _observe_key(game, key: str, spec):
    if key in GAME_KEYS:
        return GAME_KEYS[key](game, spec)
    obj = game.objects.get(key)
    if obj is None:
        return {"error": f"no object {key!r}"}
    if not isinstance(spec, dict):
        return {"error": f"{key}: expected a mapping of fields"}
    return {f: _field(OBJECT_FIELDS, f, game, obj) for f in spec}
