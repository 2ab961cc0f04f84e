"""`GameState`: the whole game in one object; actions are applied by `push`, undone by `pop`.

Like python-chess's Board, the state knows its history: `push(action)` applies one
player action (or one answer to a pending choice), `pop()` undoes the last one by
rebuilding from the setup and the remaining history (the engine is deterministic,
so replaying the log is exact). `to_dict()` / `from_dict()` round-trip the state to
plain data (YAML/JSON): the setup, the action log, and a readable board.

The engine suspends itself when a player must choose (damage assignment, which
replacement applies, order of simultaneous triggers, targets): the pending
`Choice` is visible as `state.pending`, and the next pushed action must answer it.
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field
from typing import Any

from scenarios.cards import card as card_named
from scenarios.trace import Tracer

RULES_VERSION = "2025-12-01"


class Refusal(Exception):
    """The rules forbid an action; `rule` is the number that forbids it."""

    def __init__(self, rule: str, message: str):
        super().__init__(f"refused ({rule}): {message}")
        self.rule = rule
        self.message = message


class UnansweredChoice(Exception):
    pass


class UnknownObject(KeyError):
    """An action names an object id that the game does not have."""


@dataclass
class Choice:
    """A question the engine asks a player; `options` lists the legal answers (None: validated by `check`)."""

    kind: str
    player: str
    prompt: str
    options: list | None = None
    rule: str = ""

    def to_dict(self) -> dict:
        return {"kind": self.kind, "player": self.player, "prompt": self.prompt, "options": self.options}


@dataclass
class Obj:
    """One game object: a unit, gear, spell, battlefield, legend, or a card in a hidden zone."""

    id: str
    card: str
    owner: str
    controller: str
    kind: str
    zone: str = "board"  # board, hand, deck, trash, banishment, chain, facedown
    location: str | None = None  # "base" or a battlefield id, while on the board
    exhausted: bool = False
    damage: int = 0
    stunned: bool = False
    buffs: int = 0
    might_base: int | None = None
    attached_to: str | None = None
    designation: str | None = None  # attacker / defender
    moves_this_turn: int = 0
    incarnation: int = 0
    timestamp: int = 0
    order: int = 0
    granted: list = field(default_factory=list)  # [{keyword, value, until}]
    modifiers: list = field(default_factory=list)  # fixed might modifiers [{amount, source, timestamp, until}]
    triggered_in_combat: list = field(default_factory=list)
    banished_by: str | None = None
    # battlefields
    battlefield_controller: str | None = None
    contested_by: str | None = None
    staged: str | None = None  # showdown / combat
    scored_this_turn: list = field(default_factory=list)

    @property
    def definition(self):
        return card_named(self.card)

    def where(self) -> str:
        return self.location if self.zone == "board" else self.zone


@dataclass
class Player:
    name: str
    points: int = 0
    energy: int = 99
    power: int = 99
    runes: int = 0
    cards_played_this_turn: int = 0


class GameState:
    def __init__(self, setup: dict, rules_version: str = RULES_VERSION):
        from scenarios import setup as setup_module

        self.setup = copy.deepcopy(setup)
        self.rules_version = rules_version
        self.history: list[dict] = []
        self._reset()
        setup_module.build(self, self.setup)

    # -- construction -------------------------------------------------------------------------------
    def _reset(self) -> None:
        self.trace = Tracer()
        self.players: dict[str, Player] = {}
        self.turn_order: list[str] = []
        self.turn_player = ""
        self.phase = "action"
        self.turn_number = 1
        self.victory_score = 8
        self.objects: dict[str, Obj] = {}
        self.chain: list[dict] = []
        self.priority: str | None = None
        self.passes: list[str] = []
        self.showdown: dict | None = None
        self.combat: dict | None = None
        self.delayed: list[dict] = []
        self.clock = 0
        self.log: dict[str, list] = {"resolved": [], "triggered": [], "refused": [], "scored": []}
        self.flags: dict[str, Any] = {}
        self.pending: Choice | None = None
        self._suspended = None
        self._answer = None
        self._next_id = 0

    def tick(self) -> int:
        self.clock += 1
        return self.clock

    def new_id(self, prefix: str) -> str:
        self._next_id += 1
        return f"{prefix}#{self._next_id}"

    # -- queries ------------------------------------------------------------------------------------
    def obj(self, object_id: str) -> Obj:
        if object_id not in self.objects:
            raise UnknownObject(f"no object {object_id!r}")
        return self.objects[object_id]

    def units(self, location: str | None = None, controller: str | None = None) -> list[Obj]:
        return [
            o
            for o in self.objects.values()
            if o.kind == "unit"
            and o.zone == "board"
            and (location is None or o.location == location)
            and (controller is None or o.controller == controller)
        ]

    def battlefields(self) -> list[Obj]:
        return [o for o in self.objects.values() if o.kind == "battlefield"]

    def is_battlefield(self, location: str | None) -> bool:
        return location in self.objects and self.objects[location].kind == "battlefield"

    def opponents(self, player: str) -> list[str]:
        return [p for p in self.turn_order if p != player]

    def in_turn_order(self, players) -> list[str]:
        start = self.turn_order.index(self.turn_player)
        rotation = self.turn_order[start:] + self.turn_order[:start]
        return [p for p in rotation if p in set(players)]

    def next_player(self, player: str) -> str:
        i = self.turn_order.index(player)
        return self.turn_order[(i + 1) % len(self.turn_order)]

    def hand(self, player: str) -> list[Obj]:
        return sorted(
            (o for o in self.objects.values() if o.zone == "hand" and o.owner == player), key=lambda o: o.order
        )

    def deck(self, player: str) -> list[Obj]:
        return sorted(
            (o for o in self.objects.values() if o.zone == "deck" and o.owner == player), key=lambda o: o.order
        )

    def attached(self, unit_id: str) -> list[Obj]:
        return [o for o in self.objects.values() if o.attached_to == unit_id]

    def state_name(self) -> str:
        return ("showdown" if self.showdown else "neutral") + ("-closed" if self.chain else "-open")

    def fingerprint(self) -> dict:
        """A compact view of everything a trace step may change (diffed per step)."""
        from scenarios.layers import might

        view = {}
        for o in self.objects.values():
            entry = {"zone": o.where(), "controller": o.controller}
            if o.kind == "unit" and o.zone == "board":
                entry.update(
                    damage=o.damage,
                    exhausted=o.exhausted,
                    might=might(self, o),
                    stunned=o.stunned,
                    designation=o.designation,
                    buffs=o.buffs,
                )
            elif o.kind == "gear":
                entry.update(exhausted=o.exhausted, attached_to=o.attached_to)
            elif o.kind == "battlefield":
                entry = {"controller": o.battlefield_controller, "contested_by": o.contested_by, "staged": o.staged}
            elif o.kind == "legend":
                entry.update(exhausted=o.exhausted)
            view[o.id] = entry
        for p in self.players.values():
            view[f"player {p.name}"] = {"points": p.points, "hand": len(self.hand(p.name)), "runes": p.runes}
        view["chain"] = {"items": [item["label"] for item in self.chain]}
        return view

    # -- push / pop ---------------------------------------------------------------------------------
    def push(self, action: dict) -> None:
        """Apply one action; on a refusal the state is left exactly as it was and Refusal is raised."""
        from scenarios import actions

        saved = self._snapshot()
        try:
            try:
                actions.apply(self, action)
            except UnknownObject as missing:
                raise Refusal("398", f"the action names an object that does not exist: {missing}") from None
        except Refusal as refusal:
            self._restore(saved)
            self.trace.note(
                "refusal",
                f"{action.get('by', '')} {action.get('do', '')}: {refusal.message}",
                [refusal.rule],
                objects=_action_objects(action),
            )
            self.log["refused"].append({"action": action.get("do"), "rule": refusal.rule})
            raise
        self.history.append(copy.deepcopy(action))

    def pop(self) -> dict:
        if not self.history:
            raise IndexError("pop from an empty history")
        last = self.history[-1]
        rebuilt = GameState(self.setup, self.rules_version)
        for action in self.history[:-1]:
            rebuilt.push(action)
        self.__dict__.update(rebuilt.__dict__)
        return last

    # grow-only records are restored by truncation, so a push costs the same however long the game is
    _GROWING = ("trace", "_suspended", "history", "log")

    def _snapshot(self):
        keep = {k: v for k, v in self.__dict__.items() if k not in self._GROWING}
        return (
            copy.deepcopy(keep),
            self._suspended,
            len(self.trace.roots),
            {name: len(entries) for name, entries in self.log.items()},
        )

    def _restore(self, saved) -> None:
        data, suspended, roots, log_sizes = saved
        self.__dict__.update(data)
        self._suspended = suspended
        self.trace.unwind()
        del self.trace.roots[roots:]
        for name, size in log_sizes.items():
            del self.log[name][size:]

    def finish(self) -> None:
        if self.pending:
            raise UnansweredChoice(
                f"unanswered choice for {self.pending.player}: {self.pending.prompt} (options: {self.pending.options})"
            )

    # -- text round trip ----------------------------------------------------------------------------
    def to_dict(self) -> dict:
        return {
            "rules_version": self.rules_version,
            "setup": copy.deepcopy(self.setup),
            "history": copy.deepcopy(self.history),
            "board": self.board(),
            "pending": self.pending.to_dict() if self.pending else None,
        }

    @classmethod
    def from_dict(cls, data: dict) -> GameState:
        state = cls(data["setup"], data.get("rules_version", RULES_VERSION))
        for action in data.get("history", []):
            state.push(action)
        return state

    def board(self) -> dict:
        return {
            "turn": {"player": self.turn_player, "phase": self.phase, "state": self.state_name()},
            "players": {p.name: asdict(p) for p in self.players.values()},
            "objects": {o.id: asdict(o) for o in self.objects.values()},
            "chain": [
                {**item, "target_specs": {slot: spec.model_dump() for slot, spec in item["target_specs"].items()}}
                for item in copy.deepcopy(self.chain)
            ],
        }


def _action_objects(action: dict) -> list[str]:
    found = []
    for key in ("card", "unit", "units", "source"):
        value = action.get(key)
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, list):
            found.extend(map(str, value))
    return found
