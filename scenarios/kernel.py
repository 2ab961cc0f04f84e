"""The engine kernel: the registry of procedures and the one dispatcher that applies them and writes the trace.

Rule modules (`scenarios/rules/*.py`) never import each other. Each registers what it implements:

* `@procedure(name, kind, defines=(...))`: a step of the game (deal damage, recall, resolve a chain item).
  Call it as `do.<name>(game, ..., because="465.2.d")`, its arguments by position: `because` is the rule that
  makes the step happen (the step of the turn, combat or chain that orders it), `defines` the rules that define
  what it does.
  The dispatcher opens a trace step citing both, runs the body, and records what changed.
* `@query(name)`: a computation without a step of its own (a unit's Might, legal targets): `calc.<name>(...)`.

mypy reads `do` and `calc` as `registry_types.TypedProcedures` and `TypedQueries`, written from the registered
functions' signatures (`tests/test_registry_types.py`): a call with the wrong arguments fails `make lint`.
* `@instruction(op)`: a word of the card vocabulary ("deal", "recall") executed by spells and abilities.
* `@action(do, Model)`: a player action (`push`ed on the game state), with its typed model.
* `@event_kind(name)`, `@who(word)`, `@where(word)`: words of the event and object filters cards use.

A new mechanic is a new rule module registering its procedures and vocabulary; nothing here changes.

Choices: `choose(...)` returns the answer a player gave. An action runs top to bottom with the answers given
so far; when it needs one more, `NeedChoice` suspends it with the state as it is at that moment, and the
answering `choose` action re-runs it from its start with one more answer (the engine is deterministic).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from scenarios.trace import END, StepKind

RULES_VERSION = "2026-06-18"  # the Core Rules version whose numbers the engine cites: the one in force (1.4)
# The version a scenario or a game that names none is judged under: the library was first written under it, and
# its citations are translated into it from the engine's through the stored lineage (rules_db/replays.py).
DEFAULT_VERSION = "2025-12-01"


class Refusal(Exception):
    """The rules forbid an action; `rule` is the number that forbids it, `also` the rules the message names
    (a keyword it lacks, a cost it can't pay): cited beside it, never written into the words, which are not
    translated into the version a trace cites."""

    def __init__(self, rule: str, message: str, also: tuple[str, ...] = ()):
        super().__init__(f"refused ({rule}): {message}")
        self.rule = rule
        self.message = message
        self.also = also


class EngineError(RuntimeError):
    """The engine reached a state its rules do not cover (a bug or an unsupported card), never a player error."""


class BudgetExceeded(RuntimeError):
    """A replay ran past its step or time budget; the message names the limit."""


class UnansweredChoice(Exception):
    pass


@dataclass(frozen=True)
class Choice:
    """A question the engine asks a player; `options` lists the legal answers (for `assign`: the units and
    total; for `order`: the items to order)."""

    kind: str
    player: str
    prompt: str
    options: Any
    rule: str

    def plain(self) -> dict:
        from scenarios.trace import plain

        return {"kind": self.kind, "player": self.player, "prompt": self.prompt, "options": plain(self.options)}


class GameOver(Exception):
    """A player has won: the game ends at once (196 in Core Rules 1.4), whatever was under way; the action that
    won it is complete there (`GameState` catches it), and no other is accepted."""


class NeedChoice(Exception):
    def __init__(self, choice: Choice):
        super().__init__(choice.prompt)
        self.choice = choice


@dataclass
class Budget:
    """Limits on one game: engine steps (procedures, notes and choices) and seconds of wall time."""

    max_steps: int = 1_000_000
    seconds: float | None = 60.0
    started: float = field(default_factory=time.monotonic)
    steps: int = 0
    logged: int = 0

    def tick(self) -> None:
        """One engine step; the clock is read every 256 steps."""
        self.steps += 1
        if self.steps > self.max_steps or not self.steps & 255:
            self.check()

    def check(self) -> None:
        if self.steps > self.max_steps:
            raise BudgetExceeded(f"replay stopped: more than {self.max_steps:,} engine steps (the max_steps budget)")
        if self.seconds is not None and time.monotonic() - self.started > self.seconds:
            raise BudgetExceeded(f"replay stopped: it ran past its deadline of {self.seconds:g} s (the seconds budget)")


# -- registries ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Procedure:
    name: str
    kind: StepKind
    defines: tuple[str, ...]
    fn: Callable
    summary: Callable | str | None = None
    objects: Callable | None = None
    cite: Callable | None = None
    module: str = ""
    pure: bool = False  # summary, objects and cite read only the arguments: worked out when the trace is read

    def describe(self, positional: tuple) -> tuple[str, tuple[str, ...], Any]:
        """What a step of this procedure says: its summary, the rules that define it (with those `cite` adds for
        these arguments) and the objects it names."""
        summary = self.summary
        if summary is None:
            text = self.name.replace("_", " ")
        elif isinstance(summary, str):
            text = summary
        else:
            text = summary(*positional)
        defines = self.defines
        if self.cite is not None:
            cited = self.cite(*positional)
            if cited:
                extra = [r for r in cited if r not in defines]
                if extra:
                    defines = defines + tuple(extra)
        if self.objects is None:
            return text, defines, ()
        return text, defines, self.objects(*positional)


@dataclass(frozen=True)
class ActionSpec:
    do: str
    model: type
    procedure: str
    because: tuple[str, ...] | Callable  # the rules that let a player take it (or game, action -> rules)
    candidates: Callable | None = None  # game, player -> actions worth trying for `legal_actions`


@dataclass(frozen=True)
class AnswerKind:
    """How answers to one kind of question are checked (returning the answer as the engine uses it, or
    raising Refusal) and listed for `legal_actions`."""

    check: Callable
    candidates: Callable


@dataclass(frozen=True)
class EventKind:
    """An event kind: the rule that defines it, and the words for "would <do it>" (a replacement's summary)."""

    rule: str
    would: str


PROCEDURES: dict[str, Procedure] = {}
ANSWER_KINDS: dict[str, AnswerKind] = {}
QUERIES: dict[str, Callable] = {}
INSTRUCTIONS: dict[str, Callable] = {}
ACTIONS: dict[str, ActionSpec] = {}
EVENT_KINDS: dict[str, EventKind] = {}  # event name -> its rule and its verb phrase
WHO: dict[str, Callable] = {}  # filter word -> predicate(game, source, subject) on objects or players
WHERE: dict[str, Callable] = {}  # filter word -> predicate(game, source, location, item)
# condition word -> (predicate(game, Condition), its rule, the version-dependent behaviour it reads or None)
CONDITIONS: dict[str, tuple[Callable, str, str | None]] = {}


class KeywordAbilities(dict[str, "KeywordAbility"]):
    """keyword -> the triggered ability it stands for, with two look-ups read for every event and every keyword
    asked: the abilities an event kind may trigger, and the keywords that give a keyword (819.1.b). Both are
    rebuilt after any change to the table (a test may replace an entry)."""

    def __init__(self) -> None:
        super().__init__()
        self._by_event: dict[str, tuple[KeywordAbility, ...]] | None = None
        self._implied_by: dict[str, tuple[str, ...]] | None = None

    def __setitem__(self, keyword: str, ability: KeywordAbility) -> None:
        super().__setitem__(keyword, ability)
        self._by_event = self._implied_by = None

    def __delitem__(self, keyword: str) -> None:
        super().__delitem__(keyword)
        self._by_event = self._implied_by = None

    def triggered_by(self, event_kind: str) -> tuple[KeywordAbility, ...]:
        """The keyword abilities whose trigger names this event kind."""
        if self._by_event is None:
            by_event: dict[str, tuple[KeywordAbility, ...]] = {}
            for ability in self.values():
                kind = ability.trigger.when.event
                by_event[kind] = (*by_event.get(kind, ()), ability)
            self._by_event = by_event
        return self._by_event.get(event_kind, ())

    def implying(self, keyword: str) -> tuple[str, ...]:
        """The keywords whose ability gives `keyword` too (Quick-Draw gives Reaction, 819.1.b)."""
        if self._implied_by is None:
            implied_by: dict[str, tuple[str, ...]] = {}
            for ability in self.values():
                for implied in ability.implies:
                    implied_by[implied] = (*implied_by.get(implied, ()), ability.keyword)
            self._implied_by = implied_by
        return self._implied_by.get(keyword, ())


KEYWORD_ABILITIES = KeywordAbilities()


@dataclass(frozen=True)
class Keyword:
    """A keyword the engine implements that an object has on its own, without a text after it ("Tank",
    "Shield 2"): the rule that defines it, and whether it carries a number, summed over its instances (Assault,
    Shield, Deflect: `valued`) or is simply had. A keyword that heads a text (Deathknell, Legion) is its card's
    ability, not one of these. A scenario's setup may give a unit any of them (`keywords: {Tank: 1}`)."""

    name: str
    rule: str
    valued: bool = False


KEYWORDS: dict[str, Keyword] = {}


@dataclass(frozen=True)
class Condition:
    """What a condition word is asked about: the player whose card it is, the card (or object) whose text
    it is, and whether that text is a spell's or a play effect's (Legion counts cards played before it)."""

    player: str
    source: str | None
    own_play: bool
    noted_might: int | None = None  # the source's Might noted as it died, for its Deathknell (808.1.d.3)
    noted_company: tuple[str, ...] | None = None  # the other friendly units where it died, likewise
    other_than: tuple[str, ...] = ()  # "another spell": the objects the instruction chose, not counted


@dataclass(frozen=True)
class KeywordAbility:
    """A keyword that is short for a triggered ability (Vision 817, Temporary 816, ...): the ability as card
    data (a `cards.Trigger` mapping), the rule that defines it, whether several instances on one object
    trigger separately, and keywords it gives its card (Quick-Draw gives Reaction, 819.1.b)."""

    keyword: str
    rule: str
    trigger: Any
    stacks: bool = False
    implies: tuple[str, ...] = ()
    reads: str | None = None  # a behaviour (versions.py) whose reading picks the ability's text ...
    texts: tuple[tuple[str, Any], ...] = ()  # ... (reading's choice, trigger), when the versions word it differently

    def trigger_under(self, game) -> Any:
        """The ability as the version the game is judged under words it (`trigger` unless `texts` has its own)."""
        if self.reads is None:
            return self.trigger
        choice = game.reading(self.reads).choice
        return next((trigger for name, trigger in self.texts if name == choice), self.trigger)


class _Namespace:
    """`do.recall(...)`, `calc.might(...)`: the registered callables by name. The namespace's attributes are
    the registry itself, so a name is found at call time (a replaced entry takes effect at once). An unknown
    name raises AttributeError naming the namespace (`Procedures`, `Queries`). No `__getattr__` on purpose:
    Python looks a name up on a class without one some four times faster, and an action asks ~40 names."""

    def __init__(self, table: dict):
        object.__setattr__(self, "__dict__", table)

    if TYPE_CHECKING:  # for the type checker only: every registered name is a callable

        def __getattr__(self, name: str) -> Callable[..., Any]: ...


class Procedures(_Namespace):
    """`do`: the dispatchers of the registered procedures."""


class Queries(_Namespace):
    """`calc`: the registered queries."""


_DISPATCHERS: dict[str, Callable] = {}
if TYPE_CHECKING:  # each registered name with its arguments (scenarios/registry_types.py, generated)
    from scenarios.registry_types import TypedProcedures, TypedQueries

    do: TypedProcedures
    calc: TypedQueries
do = Procedures(_DISPATCHERS)
calc = Queries(QUERIES)


def _register(table: dict, name: str, value, what: str) -> None:
    if name in table:
        raise EngineError(f"{what} {name!r} registered twice")
    table[name] = value


def procedure(
    name: str,
    kind: StepKind,
    *,
    defines: tuple[str, ...] = (),
    summary: Callable | str | None = None,
    objects: Callable | None = None,
    cite: Callable | None = None,
    pure: bool = False,
):
    """Register a procedure; the decorated name becomes its dispatcher (`because=` required at each call).

    `pure=True` says that its summary, objects and cite read nothing but the procedure's arguments (names,
    numbers, labels, actions, events, an object's id or card: values that never change), so the trace works them
    out only when it is read (most steps of a replay are never read one by one). One that reads the game state
    (a player's points, an object's location) must be worked out as the step happens: leave `pure` False.
    A procedure whose summary is fixed text, with no objects or extra citations, reads nothing: it is pure."""
    pure = pure or (not callable(summary) and objects is None and cite is None)

    def decorate(fn: Callable) -> Callable:
        _register(
            PROCEDURES,
            name,
            Procedure(name, kind, tuple(defines), fn, summary, objects, cite, fn.__module__, pure),
            "procedure",
        )

        dispatch = _dispatcher(name)
        dispatch.__name__ = dispatch.__qualname__ = name
        dispatch.__doc__ = fn.__doc__
        _DISPATCHERS[name] = dispatch
        return dispatch

    return decorate


def query(name: str):
    def decorate(fn: Callable) -> Callable:
        _register(QUERIES, name, fn, "query")
        return fn

    return decorate


def instruction(op: str):
    """Register an instruction of the card vocabulary: fn(game, run, instruction) where `run` is the
    resolving item's `Resolution` (see rules/instructions.py)."""

    def decorate(fn: Callable) -> Callable:
        _register(INSTRUCTIONS, op, fn, "instruction")
        return fn

    return decorate


def action(do_name: str, model: type, *, because: tuple[str, ...] | Callable, candidates: Callable | None = None):
    """Register a player action: `model` is its typed form, the decorated dispatcher its procedure."""

    def decorate(dispatcher: Callable) -> Callable:
        rules = because if callable(because) else tuple(because)
        _register(ACTIONS, do_name, ActionSpec(do_name, model, dispatcher.__name__, rules, candidates), "action")
        return dispatcher

    return decorate


def answer_kind(kind: str, check: Callable, candidates: Callable) -> None:
    _register(ANSWER_KINDS, kind, AnswerKind(check, candidates), "answer kind")


def check_answer(game, choice: Choice, pick):
    """The answer as the engine uses it; Refusal (citing the question's rule) when it is not a legal one."""
    spec = ANSWER_KINDS.get(choice.kind)
    if spec is not None:
        return spec.check(game, choice, pick)
    if pick not in choice.options:
        raise Refusal(choice.rule, f"{pick!r} is not a legal answer to '{choice.prompt}' (legal: {choice.options})")
    return pick


def answer_candidates(game, choice: Choice):
    spec = ANSWER_KINDS.get(choice.kind)
    yield from spec.candidates(game, choice) if spec is not None else choice.options


def event_kind(name: str, rule: str, would: str | None = None) -> None:
    """An event cards may name; `would` is what it is said to do after "would" in step summaries ("take
    damage"), by default its name in words."""
    _register(EVENT_KINDS, name, EventKind(rule, would or name.replace("_", " ")), "event kind")


def who(word: str):
    def decorate(fn: Callable) -> Callable:
        _register(WHO, word, fn, "filter word (who)")
        return fn

    return decorate


def where(word: str):
    def decorate(fn: Callable) -> Callable:
        _register(WHERE, word, fn, "filter word (where)")
        return fn

    return decorate


def condition(word: str, rule: str, reads: str | None = None):
    """Register a condition word (`condition: legion` on a trigger, a discount or an `if` instruction), the
    rule that defines it, and the version-dependent behaviour it reads (`scenarios/versions.py`), whose
    reading's rules a step deciding it cites too."""

    def decorate(fn: Callable) -> Callable:
        _register(CONDITIONS, word, (fn, rule, reads), "condition word")
        return fn

    return decorate


def keyword(name: str, rule: str, *, valued: bool = False) -> None:
    """Register a keyword the rule module implements (`Keyword`): `calc.has_keyword` and `calc.keyword_value` read
    it, and the pages offer it wherever a unit may be given a keyword."""
    _register(KEYWORDS, name, Keyword(name, rule, valued), "keyword")


def keyword_ability(
    keyword: str, rule: str, trigger: Any, *, stacks: bool = False, implies=(), reads=None, texts=None
) -> None:
    """Register a keyword that stands for a triggered ability (the rule module's reading of its glossary entry);
    where versions word it differently, `reads` names the behaviour and `texts` maps its choices to triggers."""
    texts = tuple((texts or {}).items())
    if any(t.when != trigger.when for _, t in texts):
        raise EngineError(f"keyword ability {keyword!r}: every version's text triggers on the same event")
    ability = KeywordAbility(keyword, rule, trigger, stacks, tuple(implies), reads, texts)
    _register(KEYWORD_ABILITIES, keyword, ability, "keyword ability")
    _register(KEYWORDS, keyword, Keyword(keyword, rule), "keyword")


# -- the dispatcher -----------------------------------------------------------------------------------------


def _dispatcher(name: str) -> Callable:
    def dispatch(*positional, because):
        """Apply the procedure: open its trace step, run it, record the journal entries it wrote.

        This runs for every step of every replay, so it avoids work it does not need: the arguments, the game
        first, arrive as one tuple that is passed on and kept as it is (no keyword dict, no second tuple); the
        budget is counted inline; a single rule is kept as given; a pure procedure's step is described only
        when the trace is read."""
        game = positional[0]
        proc = PROCEDURES[name]  # looked up at call time: a test may replace the entry
        budget = game.budget
        steps = budget.steps = budget.steps + 1
        if steps > budget.max_steps or not steps & 255:
            budget.check()
        if type(because) is not str:
            because = tuple(because)
            if not because:
                raise EngineError(f"procedure {name!r} called without the rule that makes it happen (because=)")
        trace = game.trace
        journal, depth = trace.journal, trace.depth
        if proc.pure:  # described when the trace is read, from the procedure and its arguments
            record = [proc, positional, because, len(journal), depth, None]
        else:
            record = [None, (proc.kind, name, *proc.describe(positional)), because, len(journal), depth, None]
        trace.records.append(record)
        trace.depth = depth + 1
        try:
            return proc.fn(*positional)
        finally:
            record[END] = len(journal)
            trace.depth = depth

    return dispatch


def perform(game, name: str, args: tuple, because) -> Any:
    """Apply procedure `name` (what `do.<name>(game, *args, because=...)` does)."""
    return _DISPATCHERS[name](game, *args, because=because)


def note(game, kind: StepKind, name: str, summary: str, because, defines=(), objects=(), log=None) -> None:
    """A leaf step: a calculation shown, a choice made, a refusal, an event that changes nothing."""
    game.budget.tick()
    because = because if type(because) is str else tuple(because)
    trace = game.trace  # a leaf: recorded inside the open step (or as a root), never opened itself
    at = len(game.journal.entries)
    defines = defines if type(defines) is tuple else tuple(defines)
    if log is not None:
        trace.log_entries[len(trace.records)] = log
    trace.records.append([None, (kind, name, summary, defines, objects), because, at, trace.depth, at])


def standing_notes(game, kind: StepKind, name: str, situations: dict[str, str], because) -> None:
    """Note the lasting situations a check finds now (the object each is about -> its summary), each once: when
    it begins or what it says changes, not again at every check while it lasts. A situation the check no longer
    finds has ended, and is noted again if it comes back."""
    trace = game.trace
    standing = trace.standing
    if standing:
        for key in [key for key in standing if key[0] == name and key[1] not in situations]:
            trace.set_standing(key, None)
    for about, summary in situations.items():
        if standing.get((name, about)) != summary:
            trace.set_standing((name, about), summary)
            note(game, kind, name, summary, because, objects=[about])


def log(game, name: str, entry, because, defines=()) -> None:
    """Record an entry of the game log (`resolved`, `triggered`, `scored`, `refused`) on the open step (or on a
    leaf step of its own when the open step already carries one)."""
    game.budget.logged += 1  # entries are read back in the order they were made
    trace = game.trace
    step = trace.open_step()
    if step is not None and step not in trace.log_entries:
        trace.log_entries[step] = (name, entry, game.budget.logged)
    else:
        note(game, StepKind.EFFECT, f"log {name}", str(entry), because, defines, log=(name, entry, game.budget.logged))


def choose(game, kind: str, player: str, prompt: str, options, rule: str, forced_ok: bool = True, also=()):
    """The answer `player` gives to a question; a question with one legal answer is recorded as forced. The step
    cites `rule`, the rule that gives the choice, and `also`: the rules of what restricts the choice here (a
    keyword such as Tank that decides which answers are legal)."""
    rule_cited = (rule, *also) if also else rule
    if isinstance(options, list | tuple) and not options:
        raise EngineError(f"no legal options for {kind}: {prompt}")
    if forced_ok and isinstance(options, list | tuple) and len(options) == 1:
        note(
            game,
            StepKind.CHOICE,
            "choice",
            f"{player}: {prompt} -> {options[0]} (only legal option)",
            rule_cited,
            (),
            [player],
        )
        return options[0]
    run = game.run
    if run.position < len(run.answers):
        answer = run.answers[run.position]
        run.position += 1
        note(game, StepKind.CHOICE, "choice", f"{player}: {prompt} -> {_show(answer)}", rule_cited, (), [player])
        return answer
    question = Choice(kind, player, prompt, options, rule)
    note(game, StepKind.CHOICE, "question", f"{player} must choose: {prompt}", rule_cited, (), [player])
    raise NeedChoice(question)


def _show(answer) -> str:
    if isinstance(answer, dict):
        return ", ".join(f"{k}: {v}" for k, v in answer.items())
    if isinstance(answer, list | tuple):
        return ", ".join(map(str, answer))
    return str(answer)


@dataclass
class Run:
    """The answers given so far to the current action's questions, and how many it has consumed."""

    answers: tuple = ()
    position: int = 0
    replacing: set = field(default_factory=set)  # replacement effects executing now (none applies to its own events)


def run_action(game, action) -> None:
    """Apply a typed player action through its registered procedure (the root step of its trace)."""
    spec = ACTIONS[action.do]
    because = spec.because(game, action) if callable(spec.because) else spec.because
    _DISPATCHERS[spec.procedure](game, action, because=because)


def load_rules() -> None:
    """Import every rule module once, so that the registries are complete."""
    import scenarios.rules  # noqa: F401  (importing the package registers every module in it)
