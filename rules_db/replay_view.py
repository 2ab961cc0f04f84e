"""The judge's view of a replay: the board at every step, every step in words, what-ifs and a dispute typed in.

The engine (scenarios/) replays a scenario's text; this module turns its trace and state into plain data a page
shows, with no engine id left for the judge to decode:

* `names`: each object id as its card, owner and kind (and the printed card it models), so the page names a
  card where the trace has `d1`;
* `start` and every step's `board` (scenarios/board.py: read from the engine's state, journal rewound to each
  step), with what changed since the step before;
* every step's `words`: its summary as text pieces and object references, engine notation (`target=d1`,
  `['a1', 'a2']`, `->`, `takes_damage`) put in words;
* `inputs`: what a what-if may change (units' numbers and state, each answered question's other legal answers,
  an extra unit or keyword, whose turn it is), each as a path into the scenario document.

`view`, `legal` and `attempt` take and return plain data: they run in a sandbox worker (rules_db/sandbox.py).
`Replays` is the page side: a cache in front of the sandbox. `compare` lines up two views (a what-if against
the original) and finds the first step where they diverge. Scenarios travel in URLs as `encode`/`decode` tokens
(zlib, then base64url), bounded like any scenario typed into a page.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import itertools
import re
import threading
import typing
import zlib
from collections import OrderedDict
from collections.abc import Callable, Collection
from functools import cache
from typing import Any

import yaml

from rules_db.sandbox import Sandbox, SandboxError
from scenarios import kernel, schema
from scenarios.actions import Choose, parse_action
from scenarios.board import step_boards
from scenarios.cards import load_library
from scenarios.kernel import RULES_VERSION, Budget, BudgetExceeded, Refusal
from scenarios.replay import observe, replay_scenario
from scenarios.state import GameState
from scenarios.versions import NEWEST_VERSION, reading_version

PAGE_STEPS, PAGE_SECONDS = 200_000, 4.0  # one replay asked from a page (the sandbox adds a deadline)
MAX_URL_TOKEN = 12_000  # characters of a scenario encoded in a URL
MAX_ALTERNATIVES = 12  # other answers offered per question in the what-if form

# -- running a scenario (in a sandbox worker) -----------------------------------------------------------------


def view(text: str, source: str, variant: str | None = None, changes: list[dict] | None = None) -> dict:
    """Replay a scenario's text (one of its variants, or with a what-if's changes) and describe every step, with
    the board after each."""
    described, game = replayed_view(text, source, variant, changes)
    return described if game is None else with_boards(described, game)


def replayed_view(
    text: str, source: str, variant: str | None = None, changes: list[dict] | None = None
) -> tuple[dict, GameState | None]:
    """The view of a replay without its boards, and the replayed game to read them from (``with_boards``); the
    error and None when the scenario cannot be replayed."""
    try:
        scenario, data = schema.parse(text, source, schema.PAGE_LIMITS)
        original = scenario
        if variant:
            chosen = next((v for v in scenario.variants if v.id == variant), None)
            if chosen is None:
                raise schema.ScenarioError(source, None, "variant", f"this scenario has no variant {variant!r}")
            data = schema.variant_document(data, chosen, source)
            scenario = schema.validate(data, {}, source)
        expect = scenario.expect
        if changes:
            changed = schema.with_changes(data, [schema.Change(**c) for c in changes], source, "what-if")
            changed.update(expect={}, checkpoints=[], variants=[])  # observed below, as in the original
            scenario = schema.validate(changed, {}, source)
        replay = replay_scenario(scenario, source, _page_budget())
    except (schema.ScenarioError, BudgetExceeded) as error:
        return {"error": _problem(error)}, None
    game = replay.state
    names = _names(game)
    say = Words(names)
    steps = [
        {
            "number": number,
            "depth": depth,
            "kind": str(step.kind),
            "procedure": step.procedure,
            "summary": step.summary,
            "words": say(step.summary),
            "rules": step.rules,
            "change": step.change,
        }
        for number, (depth, step) in enumerate(game.trace.steps(), start=1)
    ]
    computed = observe(game, expect)
    described = {
        "error": None,
        "scenario": {
            "id": original.meta.id,
            "title": original.meta.title,
            "ruling": original.meta.ruling,
            "answer": original.answer,
            "disagreement": original.disagreement,
            "note": original.note,
            "rules_version": scenario.rules.core,  # the version it is judged under (a variant may change it)
            "readings_of": reading_version(scenario.rules.core),  # the known version whose rulings the engine applies
            "cited_version": RULES_VERSION,
            "variants": [{"id": v.id, "title": v.title} for v in original.variants],
        },
        "variant": variant,
        "changes": changes or [],
        "verdict": (("mismatch" if replay.mismatches else "match") if expect and not changes else None),
        "mismatches": [] if changes else replay.mismatches,
        "names": names,
        "steps": steps,
        "expected": expect,
        "computed": computed,
        "outcome": outcome_rows(expect, computed, names),
        "pending": game.pending.plain() if game.pending else None,
        "winner": game.winner,
        "inputs": _inputs(scenario, data, replay.questions, say),
    }
    return described, game


def with_boards(described: dict, game: GameState, steps: Collection[int] | None = None) -> dict:
    """A view (``replayed_view``) with ``start``, the starting board, and each step's ``board`` and ``changed``
    (what differs from the board before), read from its replayed game; only for ``steps`` (step numbers, 0 the
    start) when given: a page shows one board, and reading one per step was a third of a replay's cost."""
    start, walked = step_boards(game, None if steps is None else set(steps))
    shown, before = [], start
    for step, (_, _, board) in zip(described["steps"], walked):
        read = _board_and_changes(before, board)
        shown.append({**step, **read} if read else step)
        before = board
    return {**described, "start": start, "steps": shown}


def shown_boards(step: int) -> list[int]:
    """The boards a page showing ``step`` reads (``with_boards``): that step's, and the one before it, which tells
    what the step changed."""
    return [step - 1, step] if step > 0 else [0]


def _board_and_changes(before: dict | None, board: dict | None) -> dict:
    """A step's board and what changed since the step before, where both were read."""
    if board is None:
        return {}
    if before is None:
        return {"board": board}
    return {"board": board, "changed": board_changes(before, board) if board is not before else NO_CHANGE}


def legal(text: str, source: str) -> dict:
    """The actions the rules allow next, after a scenario's actions (the dispute builder offers these)."""
    try:
        scenario, _ = schema.parse(text, source, schema.PAGE_LIMITS)
        replay = replay_scenario(scenario, source, _page_budget())
    except (schema.ScenarioError, BudgetExceeded) as error:
        return {"error": _problem(error), "actions": []}
    game = replay.state
    say = Words(_names(game))
    actions = [action.to_dict() for action in game.legal_actions()]
    return {
        "error": None,
        "pending": game.pending.plain() if game.pending else None,
        "winner": game.winner,
        "mismatches": replay.mismatches,
        "actions": [{"action": action, "words": say(describe_action(action))} for action in actions],
    }


class MalformedAction(ValueError):
    """An action typed in a form that reads as no action: its form is wrong, no rule forbids it."""


def attempt(text: str, source: str, action: dict) -> dict:
    """Try one more action after a scenario's actions: accepted, or refused with the rule that forbids it."""
    try:
        scenario, _ = schema.parse(text, source, schema.PAGE_LIMITS)
        replay = replay_scenario(scenario, source, _page_budget())
        typed = _typed_action(replay.state, action)
        replay.state.push(typed)
    except (schema.ScenarioError, BudgetExceeded, MalformedAction) as error:  # an engine's ValueError is a bug
        return {"error": _problem(error)}
    except Refusal as refusal:
        names = _names(replay.state)
        refused = {"rule": refusal.rule, "also": list(refusal.also), "words": words(refusal.message, names)}
        return {"error": None, "refused": refused}
    return {"error": None, "refused": None, "action": typed.to_dict()}


def _typed_action(game: GameState, typed):
    """The action a judge typed: a sentence as the list of legal actions says it, or a YAML mapping whose objects
    may be named by their cards. A malformed one is a `MalformedAction`."""
    if isinstance(typed, str):
        return _said_action(game, typed)
    try:
        return parse_action(_ids_for_names(game, typed))
    except Refusal as malformed:
        raise MalformedAction(malformed.message) from None


def _said_action(game: GameState, sentence: str):
    """The action a sentence names, whether or not the rules allow it (so the engine's refusal says which rule
    forbids it): the sentence read back into the YAML form `describe_action` says it in, objects named by their
    card or their id in any case, then parsed as a YAML action is."""
    data = _SentenceReader(game, sentence).action()
    try:
        return parse_action(data)
    except Refusal as malformed:
        raise MalformedAction(f"{sentence!r} does not read as an action: {malformed.message}") from None


class _SentenceReader:
    """A sentence as `describe_action` says an action ("A plays Quick Jab at bf1 choosing target: u2, accelerate
    True"), read as words (folded: case and punctuation dropped) and objects (an id or a card's name, longest
    first), then back into the fields of its action."""

    def __init__(self, game: GameState, sentence: str):
        self.game, self.sentence = game, sentence
        self.named = _objects_by_name(game)
        self.longest = max(map(len, self.named), default=0)
        self.tokens = self.tokens_of(sentence)

    def tokens_of(self, text: str) -> list[str | tuple[str, list[str]]]:
        """Each word of the text, or (the name typed, the objects it names) for each name of an object."""
        words = folded(text).split()
        tokens: list[str | tuple[str, list[str]]] = []
        position = 0
        while position < len(words):
            size = next(
                (n for n in range(self.longest, 0, -1) if tuple(words[position : position + n]) in self.named), 0
            )
            if size:
                name = tuple(words[position : position + size])
                tokens.append((" ".join(name), self.named[name]))
            else:
                tokens.append(words[position])
            position += size or 1
        return tokens

    def not_read(self, why: str) -> MalformedAction:
        return MalformedAction(
            f"no action reads {self.sentence!r}: {why}. Type one as the list says it (“A moves Test Unit to Neutral "
            "Ground”), or as YAML ({by: A, do: move, units: [u1], to: bf1})"
        )

    def action(self) -> dict:
        if not self.tokens:
            raise self.not_read("it holds no words")
        first = self.tokens[0]
        by = next((p for p in self.game.players if isinstance(first, str) and folded(p) == first), None)
        if by is None:
            raise self.not_read(f"it starts with no player ({', '.join(self.game.players)})")
        rest = self.tokens[1:]
        if rest[:2] == ["answers", "the"] and "question" in rest:
            asked = rest.index("question")
            return {
                "by": by,
                "do": "choose",
                "choice": "_".join(map(str, rest[2:asked])),
                "pick": self.pick(rest[asked + 1 :]),
            }
        verbs = {do: folded(_VERBS.get(do, do + "s")).split() for do in kernel.ACTIONS}
        do = next((do for do, verb in verbs.items() if rest[: len(verb)] == verb), None)
        if do is None:
            said = ", ".join(" ".join(verb) for verb in verbs.values())
            raise self.not_read(f"{self.typed(rest[:1]) or 'nothing'!r} after the player names no action ({said})")
        return {"by": by, "do": do, **self.fields(kernel.ACTIONS[do].model, rest[len(verbs[do]) :])}

    def fields(self, model, tokens: list) -> dict:
        """The fields after the verb: what it acts on, then groups of words each followed by objects or a value
        ("to bf1", "choosing target: u2", "accelerate True", "repeat_targets target: u3")."""
        data: dict[str, Any] = {}
        acted = self.objects_from(tokens)
        if acted:
            acted_on = next(f for f in _ACTED_ON if f in model.model_fields)
            listed = typing.get_origin(model.model_fields[acted_on].annotation) is tuple  # `units`: always a list
            data[acted_on] = acted if listed else _one_or_all(acted)
        rest, slots = tokens[len(acted) :], None
        while rest:
            key, values, rest = self.group(rest)
            field, size = ("targets", 1) if key[0] == "choosing" else _field_named(model, key)
            if field is not None and isinstance(model.model_fields[field].default, dict | tuple):
                slots, key = field, key[size:]
            if not key:
                raise self.not_read("a target is said with its name (“choosing target: Test Unit”)")
            name = "_".join(key)
            if slots is not None and all(isinstance(value, str) and value in self.game.objects for value in values):
                per_execution = isinstance(model.model_fields[slots].default, tuple)
                if not per_execution and name in data.get(slots, {}):
                    raise self.not_read(f"{' '.join(key)!r} is said twice")
                _add_slot(data, slots, per_execution, name, _one_or_all(values))
            elif name in data:
                raise self.not_read(f"{' '.join(key)!r} is said twice")
            else:
                data[name] = _one_or_all(values)
        return data

    def group(self, tokens: list) -> tuple[list[str], list, list]:
        """The words at the start of tokens, the objects (or the one value) after them, and what follows."""
        key = list(itertools.takewhile(lambda token: isinstance(token, str) and _scalar(token) is None, tokens))
        unnamed = list(itertools.takewhile(lambda word: word not in _KEYWORDS, key))
        if unnamed and (len(unnamed) < len(key) or len(key) == len(tokens)):  # "Foo to bf1", or "Foo" at the end
            raise self.not_read(f"{' '.join(unnamed)!r} names no object of this dispute")
        if key and key[0] in _PLACES:  # a place: an object, or a word ("base")
            key = key[:1]
        if len(key) == len(tokens):
            raise self.not_read(f"no object of this dispute follows {key[-1]!r}")
        if not key:
            raise self.not_read(f"{self.typed(tokens[:1])!r} follows no word saying what it is")
        values = self.objects_from(tokens[len(key) :]) or [self.word(tokens[len(key)])]
        return key, values, tokens[len(key) + len(values) :]

    def objects_from(self, tokens: list) -> list[str]:
        """The ids of the objects named at the start of tokens (a name shared by several objects is refused)."""
        named = itertools.takewhile(lambda token: isinstance(token, tuple), tokens)
        return [_one_object(self.game, ids) for _, ids in named]

    def pick(self, tokens: list):
        """An answer: the one the question offers that the words say (an order of abilities, said by their
        labels), else objects, players or values (objects each followed by a number are an assignment)."""
        offered = [c.pick for c in self.game.candidates() if isinstance(c, Choose)]
        said = [pick for pick in offered if _says(tokens, self.tokens_of(_value(pick)))]
        if len(said) > 1:
            raise self.not_read(
                f"it says {len(said)} of the answers offered, told apart only in brackets: type it as YAML "
                "({by: A, do: choose, choice: order, pick: [...]}) with the pick the list's YAML gives"
            )
        if said:
            return said[0]
        values = [self.objects_from([token])[0] if isinstance(token, tuple) else self.word(token) for token in tokens]
        if len(values) > 1 and len(values) % 2 == 0 and all(isinstance(v, int) for v in values[1::2]):
            return dict(zip(values[::2], values[1::2], strict=True))
        return _one_or_all(values)

    def word(self, word: str):
        """A word of an answer: a player's name, a value, or the word itself."""
        player = next((p for p in self.game.players if folded(p) == word), None)
        scalar = _scalar(word)
        return player if player is not None else word if scalar is None else scalar

    @staticmethod
    def typed(tokens: list) -> str:
        return " ".join(token[0] if isinstance(token, tuple) else token for token in tokens)


def _says(typed: list, offered: list) -> bool:
    """Whether typed words say the offered ones: the same words, each object named by its id or its card."""
    return len(typed) == len(offered) and all(
        t == o if isinstance(t, str) or isinstance(o, str) else set(o[1]) <= set(t[1])
        for t, o in zip(typed, offered, strict=True)
    )


def _field_named(model, words: list[str]) -> tuple[str | None, int]:
    """The field of an action model the first words name (`repeat targets` or `repeat_targets`), and how many
    words name it; (None, 0) when they name none."""
    for size in range(len(words), 0, -1):
        if (field := "_".join(words[:size])) in model.model_fields:
            return field, size
    return None, 0


def _add_slot(data: dict, field: str, per_execution: bool, slot: str, value) -> None:
    """A target said for a slot: into the field's mapping, or (a field of one mapping per execution, as
    `repeat_targets`) into a new mapping when the last one has that slot already."""
    if not per_execution:
        data.setdefault(field, {})[slot] = value
        return
    executions = data.setdefault(field, [])
    if not executions or slot in executions[-1]:
        executions.append({})
    executions[-1][slot] = value


def _one_or_all(values: list):
    return values[0] if len(values) == 1 else values


def _scalar(word: str):
    """A value word said in a sentence (`True`, `2`) as YAML reads it, or None."""
    if word in ("true", "false"):
        return word == "true"
    return int(word) if word.isdigit() else None


def _ids_for_names(game: GameState, node):
    """A typed action with each card name (or id, in any case) that names an object replaced by that object's id."""
    named = _objects_by_name(game)

    def replaced(node):
        if isinstance(node, dict):
            return {key: value if key in ("by", "do") else replaced(value) for key, value in node.items()}
        if isinstance(node, list):
            return [replaced(value) for value in node]
        if not isinstance(node, str) or node in game.objects:
            return node
        ids = named.get(tuple(folded(node).split()))
        return _one_object(game, ids) if ids else node

    return replaced(node)


def _objects_by_name(game: GameState) -> dict[tuple[str, ...], list[str]]:
    """The objects each name names, a name as its folded words: every object's id and its card's name."""
    named: dict[tuple[str, ...], list[str]] = {}
    for obj in game.objects.values():
        for name in {folded(obj.id), folded(obj.card)}:
            named.setdefault(tuple(name.split()), []).append(obj.id)
    named.pop((), None)
    return named


def _one_object(game: GameState, ids: list[str]) -> str:
    """The one object a name names; a name several objects share asks for an id."""
    if len(ids) > 1:
        card = game.objects[ids[0]].card
        raise MalformedAction(f"{card!r} names {len(ids)} objects ({', '.join(ids)}): name one by its id")
    return ids[0]


def folded(text: str) -> str:
    """A name or sentence as a judge may type it: any case, without punctuation or the owner in brackets."""
    text = re.sub(r"\([^()]*\)", " ", text.casefold())  # innermost brackets: linear on a run of "("
    return " ".join(re.sub(r"[^\w\s]", "", text).split())


def _page_budget() -> Budget:
    return Budget(max_steps=PAGE_STEPS, seconds=PAGE_SECONDS)


def _problem(error: Exception) -> dict:
    """An error for the page: its message, and the line and field when it is a scenario's."""
    if isinstance(error, schema.ScenarioError):
        return {"message": error.message, "line": error.line, "field": error.field}
    return {"message": str(error), "line": None, "field": "actions"}


def warm_up() -> None:
    """Load what every replay needs (the card library, the rule modules, the models) once per worker."""
    view(NEW_DISPUTE, "warm-up")


WORKER_FUNCTIONS: dict[str, Callable[..., dict]] = {"view": view, "legal": legal, "attempt": attempt}


# -- words for judges -------------------------------------------------------------------------------------------


def _names(game) -> dict[str, dict]:
    library = load_library()
    return {
        obj.id: {
            "card": obj.card,
            "owner": obj.owner,
            "kind": str(obj.kind),
            "real": library[obj.card].real if obj.card in library else None,
        }
        for obj in game.objects.values()
    }


_LIST = re.compile(r"\[('[^'\[\]]*'(?:, '[^'\[\]]*')*)\]")
_ASSIGNED = re.compile(r"(?<![\w#-])([A-Za-z0-9][\w#-]*)=")


class Words:
    """Trace summaries as pieces: {"text": ...} and {"object": id}. Object ids become references (the page shows
    the card's name and owner); the engine's notation is put in words."""

    def __init__(self, names: dict[str, dict]):
        self.names = names
        ids = "|".join(re.escape(i) for i in sorted(names, key=len, reverse=True))
        self.pattern = re.compile(rf"(?<![\w#'-])({ids})(?![\w#-])") if names else None

    def __call__(self, text: str) -> list[dict]:
        text = _LIST.sub(lambda m: ", ".join(part.strip("'") for part in m.group(1).split(", ")), text)
        text = _ASSIGNED.sub(r"\1: ", text).replace(" -> ", " → ")
        if self.pattern is None:
            return [{"text": _plain(text)}]
        pieces: list[dict] = []
        position = 0
        for match in self.pattern.finditer(text):
            if match.start() > position:
                pieces.append({"text": _plain(text[position : match.start()])})
            object_id = match.group(1)
            pieces.append({"object": object_id})
            position = match.end()
            named = f" ({self.names[object_id]['card']})"
            if text.startswith(named, position):  # "smoke (Smoke Screen)": the card is named once
                position += len(named)
        if position < len(text):
            pieces.append({"text": _plain(text[position:])})
        return pieces


def words(text: str, names: dict[str, dict]) -> list[dict]:
    """One summary in words (see `Words`)."""
    return Words(names)(text)


def _plain(text: str) -> str:
    return re.sub(r"(?<=[a-z])_(?=[a-z])", " ", text)


_VERBS = {"move": "moves", "play": "plays", "pass": "passes", "end_turn": "ends the turn", "hide": "hides"}
_ACTED_ON = ("card", "source", "units")  # what the verb acts on: named right after it
_PLACES = ("to", "at")  # where it goes: after that
_KEYWORDS = {*_PLACES, "choosing"}  # the words before a place or the targets (how `_SentenceReader` tells them)


def describe_action(action: dict) -> str:
    """A player action in words, ids left for `words` to name, in the order a judge says it: "A plays smoke at
    bf1 choosing target: d1", as the trace says a step."""
    details = {k: v for k, v in action.items() if k not in ("by", "do")}
    if action["do"] == "choose":
        return f"{action['by']} answers the {details['choice']} question: {_value(details.get('pick'))}"
    words = [action["by"], _VERBS.get(action["do"], action["do"] + "s")]
    words += [_value(details.pop(key)) for key in _ACTED_ON if key in details]
    words += [f"{key} {_value(details.pop(key))}" for key in _PLACES if key in details]
    if "targets" in details:
        words.append(f"choosing {_value(details.pop('targets'))}")
    return " ".join(words) + "".join(f", {key} {_value(value)}" for key, value in details.items())


def _value(value) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{key}: {_value(v)}" for key, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(_value(v) for v in value)
    return str(value)


NO_CHANGE: dict = {"objects": {}, "players": {}, "turn": False, "chain": False}


def board_changes(before: dict, after: dict) -> dict:
    """What differs between two boards: for each object and player, the fields that changed."""
    objects = {}
    for object_id, now in after["objects"].items():
        then = before["objects"].get(object_id)
        fields = [key for key, value in now.items() if then is None or then.get(key) != value]
        if fields:
            objects[object_id] = fields
    players = {}
    for now, then in zip(after["players"], before["players"]):
        fields = [key for key, value in now.items() if then.get(key) != value]
        if fields:
            players[now["name"]] = fields
    return {
        "objects": objects,
        "players": players,
        "turn": after["turn"] != before["turn"],
        "chain": after["chain"] != before["chain"],
    }


def outcome_rows(expect: dict, computed: dict, names: dict[str, dict]) -> list[dict]:
    """The outcome a scenario looks at, one row per observed value: what (an object and a field, a player's
    count, a game value), expected and computed."""
    rows = []
    for key, spec in expect.items():
        got = computed.get(key)
        if key in names and isinstance(spec, dict):
            for field, value in spec.items():
                found = got.get(field) if isinstance(got, dict) else None
                rows.append({"object": key, "field": field, "expected": value, "computed": found})
        elif key == "players" and isinstance(spec, dict):
            for player, fields in spec.items():
                for field, value in (fields or {}).items():
                    found = ((got or {}).get(player) or {}).get(field) if isinstance(got, dict) else None
                    rows.append({"player": player, "field": field, "expected": value, "computed": found})
        else:
            rows.append({"field": key, "expected": spec, "computed": got})
    return rows


# -- what a what-if may change ----------------------------------------------------------------------------------


def _inputs(scenario: schema.Scenario, data: dict, questions: dict[int, dict], say: Words) -> dict:
    setup = scenario.setup
    units: list[dict] = []
    locations: list[dict] = []
    for name, player in setup.players.items():
        locations.append({"path": f"setup.players.{name}.base", "label": f"{name}'s base", "controller": name})
        units += [_unit(f"setup.players.{name}.base.{i}", entry, name) for i, entry in enumerate(player.base)]
    for index, field in enumerate(setup.battlefields):
        locations.append({"path": f"setup.battlefields.{index}.units", "object": field.id, "controller": None})
        units += [
            _unit(f"setup.battlefields.{index}.units.{i}", entry, entry.controller or "")
            for i, entry in enumerate(field.units)
        ]
    choices = []
    for index, question in sorted(questions.items()):
        picked = data["actions"][index].get("pick") if index < len(data.get("actions", [])) else None
        others = [answer for answer in question.get("answers", []) if answer != picked][:MAX_ALTERNATIVES]
        if others:
            choices.append(
                {
                    "path": f"actions.{index}.pick",
                    "action": index + 1,
                    "player": question["player"],
                    "prompt": say(question["prompt"]),
                    "picked": say(_value(picked)),
                    "alternatives": [{"value": answer, "words": say(_value(answer))} for answer in others],
                }
            )
    return {
        "units": [unit for unit in units if unit["kind"] == "unit"],
        "choices": choices,
        "players": list(setup.players),
        "turn_player": setup.turn.player,
        "locations": locations,
        "keywords": engine_keywords(),
        "unit_cards": unit_cards(),
    }


def _unit(path: str, entry: schema.UnitSetup, controller: str) -> dict:
    definition = load_library()[entry.card]
    return {
        "path": path,
        "id": entry.id,
        "kind": definition.object_kind,
        "controller": controller,
        "might": entry.might if entry.might is not None else definition.might,
        "damage": entry.damage,
        "exhausted": entry.exhausted,
        "stunned": entry.stunned,
        "buff": entry.buff,
    }


@cache
def engine_keywords() -> list[str]:
    """The keywords the engine's cards use (on cards, and given by passives)."""
    found: set[str] = set()
    for card in load_library().values():
        found.update(card.keywords)
        for passive in card.passives:
            found.update(passive.keywords)
    return sorted(found)


@cache
def unit_cards() -> list[str]:
    return sorted(name for name, card in load_library().items() if card.object_kind == "unit")


def library_cards() -> list[dict]:
    """Every card the engine models, for the dispute builder's pickers."""
    return [
        {"name": name, "kind": card.object_kind, "might": card.might, "real": card.real, "text": card.text}
        for name, card in sorted(load_library().items())
    ]


# -- comparing two runs -----------------------------------------------------------------------------------------


def compare(original: dict, what_if: dict) -> dict:
    """The first step where two views differ in what happened (None when the same steps happen), and their
    outcomes side by side."""
    divergence = None
    for index, (one, other) in enumerate(zip(original["steps"], what_if["steps"])):
        if one["summary"] != other["summary"]:
            divergence = index + 1
            break
    else:
        if len(original["steps"]) != len(what_if["steps"]):
            divergence = min(len(original["steps"]), len(what_if["steps"])) + 1
    rows = []
    for mine, theirs in zip(original["outcome"], what_if["outcome"]):
        rows.append({**mine, "what_if": theirs["computed"], "differs": mine["computed"] != theirs["computed"]})
    return {"divergence": divergence, "outcome": rows, "flipped": any(row["differs"] for row in rows)}


# -- the page side: a cache in front of the sandbox ---------------------------------------------------------------


class Replays:
    """Views of scenarios for pages, kept in a small cache (a judge stepping through a replay asks for the same view
    at every step). A scenario typed in, or changed by a what-if, is replayed in the sandbox. A scenario of the
    library as it is (``trusted``: the build replayed it already, and a page can only pick one of its variants)
    is replayed in this process instead, as the sandbox's workers yield to the server's pages (under load they
    kept a library replay waiting longest); its replayed game is kept with its view, so that a page reads only
    the boards it shows (``boards``, see ``with_boards``), at any step, without replaying again. Library replays
    are kept apart (``library_size``, more than the library holds): each is a scenario of the database as ruled or
    one of its variants, never a request's text, and pushed out by what-ifs and disputes, or by each other in a
    cache smaller than the library, a replay's page ran the engine again (a tenth of a millisecond kept against
    8-15 ms replayed: bench_pages.py's replay page p99)."""

    def __init__(self, sandbox: Sandbox | None = None, size: int = 128, library_size: int = 1024):
        self.sandbox = sandbox or Sandbox(__name__)  # its workers run this module's WORKER_FUNCTIONS
        self.size, self.library_size = size, library_size
        self._cache: OrderedDict[str, Any] = OrderedDict()
        self._library: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()

    def view(
        self,
        text: str,
        source: str,
        variant: str | None = None,
        changes: list[dict] | None = None,
        *,
        trusted: bool = False,
        boards: Collection[int] | None = None,
    ) -> dict:
        """The view of a scenario, with the boards after the steps numbered in ``boards`` (every board when
        None; a view from the sandbox always has every board)."""
        if trusted and not changes:
            return self._library_view(text, source, variant, boards)  # type: ignore[return-value]  # replayed
        return self._cached("view", text=text, source=source, variant=variant, changes=changes or [])

    def legal(self, text: str, source: str) -> dict:
        return self._cached("legal", text=text, source=source)

    def attempt(self, text: str, source: str, action: dict) -> dict:
        return self._cached("attempt", text=text, source=source, action=action)

    def kept_view(
        self, text: str, source: str, variant: str | None = None, *, boards: Collection[int] | None = None
    ) -> dict | None:
        """What ``view(..., trusted=True)`` answers when that library replay is kept already, else None (nothing is
        replayed): reading a kept game's boards, a tenth of a millisecond, costs a page less than a thread's round
        trip, which under load waits its turn."""
        return self._library_view(text, source, variant, boards, replay=False)

    def _library_view(
        self, text: str, source: str, variant: str | None, boards: Collection[int] | None, replay: bool = True
    ) -> dict | None:
        key = self._key("library view", text=text, source=source, variant=variant)
        kept = self._kept(key, self._library)
        if kept is None and not replay:
            return None
        if kept is None:
            described, game = replayed_view(text, source, variant)
            if game is None:  # the scenario's own error, or a variant it does not have: not kept
                return described
            kept = self._keep(key, (described, game, threading.Lock()), self._library, self.library_size)
        described, game, reading = kept
        with reading:  # reading a board rewinds the game's journal: one page at a time
            return with_boards(described, game, boards)

    def _cached(self, function: str, **arguments) -> dict:
        key = self._key(function, **arguments)
        kept = self._kept(key, self._cache)
        if kept is not None:
            return kept
        try:
            result = self.sandbox.call(function, **arguments)
        except SandboxError as error:  # not kept: the same request may well succeed in a moment
            return {"error": {"message": str(error), "line": None, "field": None, "transient": True}}
        return self._keep(key, result, self._cache, self.size)

    @staticmethod
    def _key(function: str, **arguments) -> str:
        return hashlib.sha256(repr((function, sorted(arguments.items()))).encode()).hexdigest()

    def _kept(self, key: str, cache: OrderedDict[str, Any]) -> Any:
        with self._lock:
            if key in cache:
                cache.move_to_end(key)
                return cache[key]
        return None

    def _keep(self, key: str, value: Any, cache: OrderedDict[str, Any], size: int) -> Any:
        with self._lock:
            cache[key] = value
            while len(cache) > size:
                cache.popitem(last=False)
        return value


# -- scenarios in URLs, and changes typed into a form ------------------------------------------------------------


def encode(text: str) -> str:
    """A scenario's text as a URL-safe token: zlib-compressed, base64url, no padding."""
    return base64.urlsafe_b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii").rstrip("=")


def decode(token: str) -> str:
    """The scenario text a token holds; ValueError (for the judge: what is wrong and what to do) when it is not
    one or holds too much."""
    if len(token) > MAX_URL_TOKEN:
        raise ValueError(
            f"The dispute in this link is {len(token):,} characters long, more than a link may hold "
            f"({MAX_URL_TOKEN:,}): paste the scenario's YAML into the dispute builder instead."
        )
    damaged = ValueError(
        "The dispute in this link is damaged (it does not decode; was the link cut short?): copy the whole link "
        "again, or paste the scenario's YAML into the dispute builder."
    )
    try:
        packed = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        inflater = zlib.decompressobj()
        raw = inflater.decompress(packed, schema.PAGE_LIMITS.max_bytes + 1)
    except (binascii.Error, zlib.error, ValueError):
        raise damaged from None
    if len(raw) > schema.PAGE_LIMITS.max_bytes or inflater.unconsumed_tail:
        raise ValueError(
            f"The dispute in this link holds more than {schema.PAGE_LIMITS.max_bytes:,} bytes, more than a page "
            "replays: shorten the scenario."
        )
    if not inflater.eof:  # a link cut short inflates to the start of its scenario, which would read as a YAML error
        raise damaged
    return raw.decode("utf-8", errors="replace")


def parse_value(text: str):
    """A value typed into a what-if form (YAML: `3`, `zh`, `[a, b]`, `{card: X}`), bounded like a scenario."""
    wrapped = f"value: {text}" if "\n" not in text else "value:\n" + text
    try:
        data, _ = schema.parse_text(wrapped, "what-if", schema.PAGE_LIMITS)
    except schema.ScenarioError as error:
        raise ValueError(f"the value {text!r} is not one the form can read: {error.message}") from None
    return data.get("value")


def typed_action(text: str):
    """What a judge typed as an action: a YAML mapping when it is written as one (`{by: A, do: pass}`), else the
    sentence itself (`A plays Gust choosing target: Test Defender`, which YAML would misread), as long as a
    value of a scenario may be."""
    if text.lstrip().startswith("{"):
        return parse_value(text)
    sentence = text.strip()
    if len(sentence) > schema.PAGE_LIMITS.max_text:
        raise ValueError(
            f"the action typed is {len(sentence):,} characters long, more than an action may be "
            f"({schema.PAGE_LIMITS.max_text:,}): type it as the list of actions says it"
        )
    return sentence


def dump(data: dict) -> str:
    """A scenario document as YAML (block style, keys in their order), for the builder and downloads."""
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=110, default_flow_style=None)


def flow(value) -> str:
    """A value as one line of YAML (`3`, `zh`, `[a, b]`, `{card: Test Unit}`): what a what-if URL carries."""
    text = yaml.safe_dump(value, default_flow_style=True, width=10**6, allow_unicode=True).strip()
    return text.removesuffix("\n...").removesuffix("...").strip()


# -- the dispute builder: a scenario document edited one form at a time --------------------------------------------


def new_dispute(version: str = NEWEST_VERSION) -> str:
    """An empty dispute, judged under the Core Rules `version` (a page gives the newest its database holds)."""
    return dump(
        {
            "meta": {"id": "dispute", "title": "A new dispute"},
            "rules": {"core": version},
            "answer": "",
            "setup": {
                "turn": {"player": "A"},
                "players": {"A": {}, "B": {}},
                "battlefields": [{"id": "bf1", "card": "Neutral Ground"}],
            },
            "actions": [],
        }
    )


NEW_DISPUTE = new_dispute()
_PREFIX = {"unit": "u", "gear": "g", "spell": "s", "battlefield": "bf", "legend": "l", "rune": "r"}
_ZONES = ("hand", "deck", "trash")


def document(text: str) -> dict:
    """The scenario document a text holds (empty when it does not parse), for the builder's forms."""
    try:
        data, _ = schema.parse_text(text, "scenario", schema.PAGE_LIMITS)
    except schema.ScenarioError:
        return {}
    return data


def check_text(text: str, source: str) -> dict | None:
    """None when a scenario's text is valid, else its first problem with its line and field."""
    try:
        schema.parse(text, source, schema.PAGE_LIMITS)
    except schema.ScenarioError as error:
        return _problem(error)
    return None


def edit(text: str, source: str, op: str, args: dict) -> str:
    """The scenario after one builder form: `add` a card (to a base, a battlefield, a hand, deck or trash),
    `battlefield` (add one), `control` (who controls a battlefield, nobody included), `remove` an object, `turn`
    (whose turn it is), `score` (the Victory Score), `pool` (a player's points and Rune Pool), `rune` (a rune on the
    board, ready or exhausted), `title`, `append` an action (checked by the engine first: see `attempt`), `undo` the
    last action. ValueError names what is wrong."""
    data, _ = schema.parse_text(text, source, schema.PAGE_LIMITS)
    setup = data.setdefault("setup", {})
    players = setup.setdefault("players", {})
    if op == "add":
        _add_card(data, args)
    elif op == "battlefield":
        card = _card(args.get("card", ""), {"battlefield"})
        field = {"id": _free_id(data, "battlefield"), "card": card}
        if args.get("controller") in players:
            field["controller"] = args["controller"]
        setup.setdefault("battlefields", []).append(field)
    elif op == "control":
        _set_controller(setup, players, args)
    elif op == "remove":
        if not _remove(setup, args.get("id", "")):
            raise ValueError(f"there is no {args.get('id')!r} to remove")
    elif op == "turn":
        setup.setdefault("turn", {})["player"] = _player(players, args)
    elif op == "score":
        _set_numbers(setup, args, ("victory_score",))
    elif op == "pool":
        _set_numbers(_player_setup(players, args), args, ("points", "energy", "power"))
    elif op == "rune":
        rune: dict = {"id": _free_id(data, "rune"), "card": _card(args.get("card", ""), {"rune"})}
        rune.update({"exhausted": True} if args.get("exhausted") else {})
        _player_setup(players, args).setdefault("runes", []).append(rune)
    elif op == "version":
        data["rules"] = {"core": str(args.get("version", "")).strip()}
    elif op == "title":
        data.setdefault("meta", {})["title"] = args.get("title", "").strip()[:200] or "A new dispute"
    elif op == "append":
        data.setdefault("actions", []).append(args["action"])
    elif op == "undo":
        if not data.get("actions"):
            raise ValueError("there is no action to undo")
        data["actions"].pop()
    else:
        raise ValueError(f"unknown form {op!r}")
    changed = dump(data)
    problem = check_text(changed, source)
    if problem:
        where = f"line {problem['line']}, " if problem["line"] else ""
        raise ValueError(f"{where}{problem['field']}: {problem['message']}")
    return changed


def _player(players: dict, args: dict) -> str:
    if args.get("player") not in players:
        raise ValueError(f"{args.get('player')!r} is not a player")
    return args["player"]


def _player_setup(players: dict, args: dict) -> dict:
    """The setup of the player a form names, made a mapping when the scenario left it empty (``B:``)."""
    player = _player(players, args)
    players[player] = players[player] or {}
    return players[player]


def _set_numbers(entry: dict, args: dict, fields: tuple[str, ...]) -> None:
    """The fields a form filled in, each a whole number (a field left blank keeps its value)."""
    for field in fields:
        if str(args.get(field, "")).strip():
            try:
                entry[field] = int(args[field])
            except ValueError:
                raise ValueError(f"{field.replace('_', ' ')} is a whole number, not {args[field]!r}") from None


def _card(name: str, kinds: set[str]) -> str:
    library = load_library()
    typed = folded(name)  # empty for a blank or punctuation-only name, which names no card
    card = library.get(name) or next(
        (c for c in library.values() if typed and typed in (folded(c.name), folded(c.real or ""))), None
    )
    if card is None:
        raise ValueError(f"the engine does not model a card named {name!r} (its cards are listed in the form)")
    if card.object_kind not in kinds:
        raise ValueError(
            f"{card.name} is a {card.object_kind} card; here the form needs a {' or '.join(sorted(kinds))}"
        )
    return card.name


def _add_card(data: dict, args: dict) -> None:
    setup = data["setup"]
    player, where = args.get("player", ""), args.get("where", "base")
    if player not in setup["players"]:
        raise ValueError(f"{player!r} is not a player")
    mine = setup["players"][player] or {}
    setup["players"][player] = mine
    if where in _ZONES:
        card = _card(args.get("card", ""), {"unit", "gear", "spell", "legend"})
        mine.setdefault(where, []).append({"id": _free_id(data, load_library()[card].object_kind), "card": card})
        return
    card = _card(args.get("card", ""), {"unit", "gear", "legend"} if where == "base" else {"unit"})
    kind = load_library()[card].object_kind
    entry: dict = {"id": _free_id(data, kind), "card": card}
    if kind == "legend":
        mine["legend"] = entry
        return
    _set_numbers(entry, args, ("might", "damage"))
    entry.update({flag: True for flag in ("exhausted", "stunned", "buff") if args.get(flag)})
    if where == "base":
        mine.setdefault("base", []).append(entry)
        return
    battlefield = next((f for f in setup.get("battlefields", []) if f.get("id") == where), None)
    if battlefield is None:
        raise ValueError(f"there is no battlefield {where!r}")
    units = battlefield.setdefault("units", [])
    if "controller" not in battlefield and all(unit.get("controller") == player for unit in units):
        battlefield["controller"] = player  # units alone at a battlefield in an open state control it (190.4 in 1.4)
    units.append({**entry, "controller": player})


def _set_controller(setup: dict, players: dict, args: dict) -> None:
    """A battlefield's controller as the judge sets it, "nobody" written as such (``controller: null``): a unit
    added there later no longer makes its player the controller (190.4), so a board mid-showdown can be built."""
    battlefield = next((f for f in setup.get("battlefields", []) if f.get("id") == args.get("id")), None)
    if battlefield is None:
        raise ValueError(f"there is no battlefield {args.get('id')!r}")
    battlefield["controller"] = _player(players, args) if args.get("player") else None


def _free_id(data: dict, kind: str) -> str:
    taken = schema.entry_ids(data.get("setup", {}))
    prefix = _PREFIX.get(kind, "c")
    return next(f"{prefix}{n}" for n in range(1, 10_000) if f"{prefix}{n}" not in taken)


def _remove(node, object_id: str) -> bool:
    """Remove the entry with this id (and what it carries) wherever it is in the setup."""
    if isinstance(node, dict):
        for key, value in list(node.items()):
            if isinstance(value, dict) and value.get("id") == object_id and "card" in value:
                del node[key]
                return True
            if _remove(value, object_id):
                return True
    elif isinstance(node, list):
        for index, value in enumerate(node):
            if isinstance(value, dict) and value.get("id") == object_id:
                del node[index]
                return True
            if _remove(value, object_id):
                return True
    return False
