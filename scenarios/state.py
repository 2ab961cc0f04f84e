"""`GameState`: the whole game in one object, in the manner of python-chess's `Board`.

* `push(action)` applies one player action (or one answer to the pending question); a refused action
  raises `Refusal` naming the rule that forbids it and leaves the state exactly as it was.
* `pop()` restores the state before the last push in one step, from the undo journal (journal.py).
* `legal_actions()` yields every action some player may take now (the answers, while a question is pending).
* `outcome()` is a value: winner, points, reason.
* `to_dict()` / `from_dict()` round-trip the game through plain data (YAML/JSON): the setup and the actions
  played, like a PGN, plus a readable board.

When a player must choose, the engine stops with `pending` set to the question and the state as it is at
that moment; the next push must answer it.
"""

from __future__ import annotations

from typing import Any, NamedTuple, TypeGuard

import scenarios.rules  # noqa: F401  (registers every rule module with the kernel)
from scenarios import kernel, versions
from scenarios.actions import Action, Choose, parse_action
from scenarios.game import Game
from scenarios.journal import Journal, Journaled, watch
from scenarios.kernel import Budget, EngineError, GameOver, NeedChoice, Refusal, Run, UnansweredChoice, calc
from scenarios.objects import BATTLEFIELD, BOARD, GEAR, UNIT, Obj, Outcome, Player, Zone
from scenarios.setup import build
from scenarios.trace import StepKind, Tracer, plain

__all__ = ["GameState", "Refusal", "UnansweredChoice", "EngineError", "Budget"]

PERMANENT_KINDS = (UNIT, GEAR)
ZONE_CONTENTS_READS = watch(("zone", "owner", "order"))  # what `cards_in` reads (a new object, too)

_GAME_SHOWN = {"turn_player", "phase", "turn_number", "priority", "winner", "chain", "combat", "showdown"}


class _Pushed(NamedTuple):
    """What `pop` needs to undo one push: the journal and trace marks to rewind to, and what the push undid
    (an answer re-runs its action from the action's start) to put back. (A named tuple: one is made per action,
    and a frozen dataclass is several times slower to make.)"""

    action: Action
    journal_mark: int
    trace_mark: int
    undone: list
    dropped: tuple | None


class GameState(Journaled):
    # The runtime around the game, set outside the journal (so pop never rewinds it).
    setup: dict
    journal: Journal
    trace: Tracer
    budget: Budget
    run: Run
    history: list
    objects: dict[str, Obj]
    zone_contents: dict[tuple[Zone, str], list[Obj]]
    rules_version: str  # the Core Rules version the game is judged under (scenarios/versions.py)
    readings: dict[str, versions.Reading]  # each version-dependent behaviour's reading under it

    def __init__(self, setup: dict, budget: Budget | None = None, rules_version: str = kernel.DEFAULT_VERSION):
        journal = Journal()
        runtime = {
            "setup": setup,
            "rules_version": rules_version,
            "readings": versions.readings_under(rules_version),
            "journal": journal,
            "trace": Tracer(journal.entries),
            "budget": budget or Budget(),
            "run": Run(),
            "history": [],
            "objects": {},
            "zone_contents": {},  # (zone, player) -> cards_in's answer, until a card changes zone (see cards_in)
        }
        for name, value in runtime.items():
            object.__setattr__(self, name, value)
        self.players: dict[str, Player] = {}
        self.unit_objects: tuple[Obj, ...] = ()  # the objects of each kind (an object's kind never changes)
        self.battlefield_objects: tuple[Obj, ...] = ()
        self.gear_objects: tuple[Obj, ...] = ()
        self.permanent_objects: tuple[Obj, ...] = ()  # units and gear, in the order they were made
        self.listeners: tuple[Obj, ...] = ()  # objects whose cards have triggered abilities
        self.passive_sources: tuple[Obj, ...] = ()  # ... passive abilities
        self.passive_keywords: frozenset[str] = frozenset()  # every keyword their passives give (usually none)
        self.passive_tags: frozenset[str] = frozenset()  # every tag their passives give ("I am a Mech"; usually none)
        self.replacement_sources: tuple[Obj, ...] = ()  # ... replacement effects
        self.turn_order: tuple[str, ...] = ()
        self.turn_player = ""
        self.phase = "main"
        self.turn_number = 1
        # Additional Turns queued after this one, next first (734-738); the player of the last turn that was not one
        self.additional_turns: tuple[str, ...] = ()
        self.regular_turn_player = ""
        self.victory_score = 8
        self.priority: str | None = None
        self.passes: tuple[str, ...] = ()
        self.showdown = None
        self.combat = None
        self.chain: tuple = ()
        self.triggered: tuple = ()  # trigger instances waiting to be put on the Chain
        self.delayed: tuple = ()
        self.lasting: tuple = ()  # replacement effects created by resolving effects
        self.lasting_restrictions: tuple = ()  # (subject, incarnation, word, source, turn, about): "... can't ... this turn"
        self.trigger_marks: tuple = ()  # this turn's uses: once-per-turn abilities, modes chosen (rules/modes.py)
        self.winner: str | None = None
        self.continuation: str | None = None
        self.clock = 0
        self.next_id = 0
        self.pending: kernel.Choice | None = None
        self.current_action: Action | None = None
        self.answers: tuple = ()
        self.action_start: tuple[int, int] | None = None
        build(self, setup)
        for item in (*self.objects.values(), *self.players.values(), self.combat, self.showdown, self):
            if item is not None:
                item.adopt(self.journal)

    def change_label(self, key: str):
        return ("game", key) if key in _GAME_SHOWN else None

    def reading(self, behaviour: versions.BehaviourName) -> versions.Reading:
        """How the version the game is judged under reads a behaviour the versions disagree on."""
        return self.readings[behaviour]

    def word(self, engine_word: str) -> str:
        """What the version the game is judged under calls the engine's `engine_word` ("main": the Action Phase
        of 2025-12-01)."""
        return versions.word(engine_word, self.rules_version)

    # -- bookkeeping ---------------------------------------------------------------------------------------
    def tick(self) -> int:
        """A fresh timestamp (480.1)."""
        self.clock += 1
        return self.clock

    def new_id(self, prefix: str) -> str:
        self.next_id += 1
        return f"{prefix}#{self.next_id}"

    def add_object(self, obj: Obj) -> Obj:
        """A new game object (a token, a copy); its creation is journaled like any other change."""
        if obj.id in self.objects:
            raise EngineError(f"object id {obj.id!r} used twice")
        obj.adopt(self.journal)
        self.journal.record_item(self.objects, obj.id, obj)
        self.index(obj)
        return obj

    def index(self, obj: Obj) -> None:
        """Add `obj` to the list of objects of its kind, and to those of the abilities its card has (an object's
        kind and card never change), so that a rule reading them never scans every object of the game."""
        name = {UNIT: "unit_objects", BATTLEFIELD: "battlefield_objects", GEAR: "gear_objects"}.get(obj.kind)
        if name is not None:
            setattr(self, name, (*getattr(self, name), obj))
        if obj.kind in PERMANENT_KINDS:
            self.permanent_objects = (*self.permanent_objects, obj)
        definition = obj.definition
        if definition is not None:
            if definition.triggers:
                self.listeners = (*self.listeners, obj)
            if definition.passives:
                self.passive_sources = (*self.passive_sources, obj)
                given = (keyword for passive in definition.passives for keyword in passive.keywords)
                self.passive_keywords = self.passive_keywords.union(given)
                self.passive_tags = self.passive_tags.union(t for passive in definition.passives for t in passive.tags)
            if definition.replacements:
                self.replacement_sources = (*self.replacement_sources, obj)

    # -- queries -------------------------------------------------------------------------------------------
    def obj(self, object_id: str) -> Obj:
        try:
            return self.objects[object_id]
        except KeyError:
            raise Refusal("410", f"the action names an object that does not exist: {object_id!r}") from None

    def units(self, location: str | None = None, controller: str | None = None) -> list[Obj]:
        """Units on the board (at `location`, controlled by `controller`)."""
        return [
            o
            for o in self.unit_objects
            if o.zone == BOARD
            and (location is None or o.location == location)
            and (controller is None or o.controller == controller)
        ]

    def friendly_others(self, unit: Obj) -> list[Obj]:
        """The other units on the board at a unit's location that its controller controls."""
        return [o for o in self.units(unit.location, unit.controller) if o is not unit]

    def battlefields(self) -> tuple[Obj, ...]:
        return self.battlefield_objects

    def has_units(self, location: str) -> bool:
        """Is there a unit on the board at `location`? (What `units` answers, without building the list.)"""
        for unit in self.unit_objects:  # noqa: SIM110 (a loop is faster than any(); every cleanup asks)
            if unit.location == location and unit.zone == BOARD:
                return True
        return False

    def is_battlefield(self, location) -> TypeGuard[str]:
        found = self.objects.get(location) if type(location) is str else None
        return found is not None and found.kind == BATTLEFIELD

    def opponents(self, player: str) -> list[str]:
        return [p for p in self.turn_order if p != player]

    def in_turn_order(self, players) -> list[str]:
        start = self.turn_order.index(self.turn_player)
        rotation = self.turn_order[start:] + self.turn_order[:start]
        wanted = set(players)
        return [p for p in rotation if p in wanted]

    def next_player(self, player: str) -> str:
        return self.turn_order[(self.turn_order.index(player) + 1) % len(self.turn_order)]

    def cards_in(self, zone: Zone, player: str) -> list[Obj]:
        """The cards `player` owns in `zone`, in order. Kept per zone and player while no card changes zone,
        owner or order (a deck is read at every draw and channel; sorting every object each time was costly)."""
        zone_contents = self.zone_contents
        if self.journal.due(ZONE_CONTENTS_READS):
            zone_contents.clear()
        found = zone_contents.get((zone, player))
        if found is None:
            found = zone_contents[zone, player] = sorted(
                (o for o in self.objects.values() if o.zone == zone and o.owner == player), key=lambda o: o.order
            )
        return list(found)  # a copy: the kept list must not change under a caller

    def hand(self, player: str) -> list[Obj]:
        return self.cards_in(Zone.HAND, player)

    def deck(self, player: str) -> list[Obj]:
        return self.cards_in(Zone.DECK, player)

    def attached(self, unit_id: str) -> list[Obj]:
        return [o for o in self.gear_objects if o.attached_to == unit_id and o.zone == BOARD]

    def state_name(self) -> str:
        return ("showdown" if self.showdown else "neutral") + ("-closed" if self.chain else "-open")

    @property
    def log(self) -> dict[str, list]:
        """What resolved, triggered, scored, was refused and was ignored (an instruction on an object that had
        ceased to exist), in order (read from the trace)."""
        found: dict[str, list] = {
            "resolved": [],
            "triggered": [],
            "refused": [],
            "scored": [],
            "ignored": [],
            "negated": [],
        }
        for name, entry, _ in sorted(self.trace.logs(), key=lambda log: log[2]):
            found.setdefault(name, []).append(entry)
        return found

    # -- push / pop ----------------------------------------------------------------------------------------
    def push(self, action: Action | dict) -> None:
        """Apply one action; a refusal leaves the state exactly as it was, and is traced."""
        typed = parse_action(action)
        try:
            self._push(typed)
        except Refusal as refusal:
            self.budget.logged += 1
            kernel.note(
                self,
                StepKind.REFUSAL,
                "refusal",
                f"{typed.by} {typed.do}: {refusal.message}",
                refusal.rule,
                refusal.also,
                log=("refused", {"action": typed.do, "rule": refusal.rule}, self.budget.logged),
            )
            raise

    def _push(self, action: Action) -> None:
        journal_mark, trace_mark = self.journal.mark(), self.trace.mark()
        undone: list = []
        dropped: tuple | None = None
        base = (journal_mark, trace_mark)
        try:
            if self.winner is not None:
                raise Refusal("472", f"the game is over: {self.winner} won")
            if self.pending is not None:
                answer = self._answer(self.pending, action)
                current, start = self.current_action, self.action_start
                assert current is not None and start is not None, "a pending choice keeps the action it suspended"
                answers, base = (*self.answers, answer), start
                undone = self.journal.rewind(base[0])
                dropped = self.trace.rewind(base[1])
                self._run(current, answers, base)
            elif isinstance(action, Choose):
                raise Refusal("410.2.b", "there is no pending choice to answer")
            else:
                self._run(action, (), base)
        except Exception:
            self.journal.rewind(base[0])
            self.journal.redo(undone)
            self.trace.restore(base[1], dropped)
            raise
        self.history.append(_Pushed(action, base[0], base[1], undone, dropped))

    def _answer(self, choice: kernel.Choice, action: Action):
        if not isinstance(action, Choose):
            raise Refusal(choice.rule or "312.1.b.1", f"{choice.player} must first answer: {choice.prompt}")
        if action.by != choice.player:
            raise Refusal(choice.rule or "312.1.b.1", f"{choice.player} must answer '{choice.prompt}', not {action.by}")
        if action.choice != choice.kind:
            raise Refusal(choice.rule, f"the pending choice is {choice.kind}, not {action.choice}")
        return kernel.check_answer(self, choice, action.pick)

    def _run(self, action: Action, answers: tuple, base: tuple[int, int]) -> None:
        object.__setattr__(self, "run", Run(answers))
        try:
            kernel.run_action(self, action)
        except NeedChoice as need:  # suspended: remember how to resume (journaled, so `pop` restores it)
            self.pending, self.current_action, self.answers, self.action_start = need.choice, action, answers, base
            return
        except GameOver:  # a player won mid-action: the game ends there (196), the rest is not done
            self.pending, self.current_action, self.answers, self.action_start = None, None, (), None
            return
        if self.run.position != len(answers):
            raise EngineError(f"{action.describe()}: the answers given did not match the questions asked")
        if self.pending is not None:
            self.pending, self.current_action, self.answers, self.action_start = None, None, (), None

    def pop(self) -> Action:
        """Undo the last push; returns its action."""
        if not self.history:
            raise IndexError("pop from an empty history")
        pushed = self.history.pop()
        self.journal.rewind(pushed.journal_mark)
        self.journal.redo(pushed.undone)
        self.trace.restore(pushed.trace_mark, pushed.dropped)
        return pushed.action

    def accepts(self, action: Action | dict) -> bool:
        """Would `push` accept this action? (Tried and undone: the state and its trace are unchanged.)"""
        typed = parse_action(action)
        try:
            self._push(typed)
        except Refusal:
            return False
        self.pop()
        return True

    def legal_actions(self):
        """Every action some player may take now: generated from what the rules could allow, each kept only
        if `push` accepts it (so the list and `push` cannot disagree)."""
        for candidate in self.candidates():
            if self.accepts(candidate):
                yield candidate

    def candidates(self):
        """What the rules could allow now, unchecked (`legal_actions` keeps those `push` accepts)."""
        if self.winner is not None:
            return
        if self.pending is not None:
            choice = self.pending
            for pick in kernel.answer_candidates(self, choice):
                yield Choose(by=choice.player, choice=choice.kind, pick=pick)
            return
        seen = set()
        for player in self.turn_order:
            for spec in kernel.ACTIONS.values():
                if spec.candidates is None:
                    continue
                for candidate in spec.candidates(self, player):
                    key = repr(candidate.to_dict())
                    if key not in seen:
                        seen.add(key)
                        yield candidate

    def finish(self) -> None:
        if self.pending:
            raise UnansweredChoice(
                f"unanswered choice for {self.pending.player}: {self.pending.prompt} "
                f"(options: {plain(self.pending.options)})"
            )

    def outcome(self) -> Outcome:
        points = {name: player.points for name, player in self.players.items()}
        if self.winner is not None:
            reason = f"{self.winner} reached the Victory Score of {calc.victory_score(self)} (472)"
        elif self.pending is not None:
            reason = f"in progress: {self.pending.player} must choose: {self.pending.prompt}"
        else:
            reason = f"in progress: {self.priority or self.turn_player} to act ({self.state_name()})"
        return Outcome(self.winner, points, reason)

    # -- text round trip -----------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        return {
            "setup": plain(self.setup),
            "rules_version": self.rules_version,
            "history": [pushed.action.to_dict() for pushed in self.history],
            "board": self.board(),
            "pending": self.pending.plain() if self.pending else None,
        }

    @classmethod
    def from_dict(cls, data: dict, budget: Budget | None = None) -> GameState:
        state = cls(data["setup"], budget, data.get("rules_version", kernel.DEFAULT_VERSION))
        for action in data.get("history", []):
            state.push(action)
        return state

    def board(self) -> dict[str, Any]:
        return {
            "turn": {
                "player": self.turn_player,
                "number": self.turn_number,
                "phase": self.phase,
                "state": self.state_name(),
                "priority": self.priority,
            },
            "players": {name: player.plain() for name, player in self.players.items()},
            "objects": {object_id: obj.plain() for object_id, obj in self.objects.items()},
            "chain": [item.plain() for item in self.chain],
            "combat": self.combat.plain() if self.combat else None,
            "showdown": self.showdown.plain() if self.showdown else None,
            "winner": self.winner,
        }


def _is_a_game(state: GameState) -> Game:
    """Never called: mypy checks here that `GameState` is the `Game` the rule modules are annotated with."""
    return state
