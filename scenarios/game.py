"""The game as the rule modules see it: `Game`, a protocol of what a rule function may read and change.

The rule modules are annotated with it (`def deal(game: Game, ...)`) rather than importing the game's class
(`scenarios.state.GameState`, which imports them to register their procedures): a reader jumps from a rule to
what the game offers, and mypy checks each rule's use of the game against this list. `GameState` is the one
implementation (mypy checks that it satisfies the protocol: `state._is_a_game`).
"""

from __future__ import annotations

from typing import Any, Protocol, TypeGuard

from scenarios import versions
from scenarios.journal import Journal
from scenarios.kernel import Budget, Choice, Run
from scenarios.objects import Obj, Player, Zone
from scenarios.trace import Tracer
from scenarios.versions import BehaviourName

__all__ = ["BehaviourName", "Game"]  # BehaviourName: for a rule module holding a behaviour's name in a registry


class Game(Protocol):
    """What a rule function reads and changes of the game (every attribute is journaled: `pop` rewinds it)."""

    # The runtime around the game.
    journal: Journal
    trace: Tracer
    budget: Budget
    run: Run
    objects: dict[str, Obj]
    rules_version: str
    # The objects of each kind, in the order they were made (an object's kind never changes).
    players: dict[str, Player]
    unit_objects: tuple[Obj, ...]
    battlefield_objects: tuple[Obj, ...]
    gear_objects: tuple[Obj, ...]
    permanent_objects: tuple[Obj, ...]
    listeners: tuple[Obj, ...]
    passive_sources: tuple[Obj, ...]
    passive_keywords: frozenset[str]
    passive_tags: frozenset[str]
    replacement_sources: tuple[Obj, ...]
    # The turn, the Chain and what waits on them.
    turn_order: tuple[str, ...]
    turn_player: str
    phase: str
    turn_number: int
    victory_score: int
    priority: str | None
    passes: tuple[str, ...]
    showdown: Any
    combat: Any
    chain: tuple
    triggered: tuple
    delayed: tuple
    lasting: tuple
    lasting_restrictions: tuple
    trigger_marks: tuple
    winner: str | None
    continuation: str | None
    pending: Choice | None

    def reading(self, behaviour: versions.BehaviourName) -> versions.Reading: ...
    def word(self, engine_word: str) -> str: ...
    def tick(self) -> int: ...
    def new_id(self, prefix: str) -> str: ...
    def add_object(self, obj: Obj) -> Obj: ...
    def obj(self, object_id: str) -> Obj: ...
    def units(self, location: str | None = None, controller: str | None = None) -> list[Obj]: ...
    def friendly_others(self, unit: Obj) -> list[Obj]: ...
    def battlefields(self) -> tuple[Obj, ...]: ...
    def has_units(self, location: str) -> bool: ...
    def is_battlefield(self, location: Any) -> TypeGuard[str]: ...
    def opponents(self, player: str) -> list[str]: ...
    def in_turn_order(self, players: Any) -> list[str]: ...
    def next_player(self, player: str) -> str: ...
    def cards_in(self, zone: Zone, player: str) -> list[Obj]: ...
    def hand(self, player: str) -> list[Obj]: ...
    def deck(self, player: str) -> list[Obj]: ...
    def attached(self, unit_id: str) -> list[Obj]: ...
