"""The judge's view of a replay: the board at every step, every step in words, what-ifs.

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

`view` takes and returns plain data: it runs in a sandbox worker (rules_db/sandbox.py, told its worker module
rules_db/replay_worker.py by name), as the dispute builder's `legal` and `attempt` do (rules_db/dispute.py).
`Replays` is the page side: a cache in front of the sandbox. `compare` lines up two views (a what-if against
the original) and finds the first step where they diverge. Scenarios travel in URLs as `encode`/`decode` tokens
(zlib, then base64url), bounded like any scenario typed into a page.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
import threading
import zlib
from collections import OrderedDict
from collections.abc import Collection
from functools import cache
from typing import Any

import yaml

from rules_db import verdict
from rules_db.card_readings import engine_cards, load_read_cards
from rules_db.sandbox import Sandbox, SandboxError
from rules_db.typed_actions import value_words
from scenarios import schema
from scenarios.board import step_boards
from scenarios.kernel import RULES_VERSION, Budget, BudgetExceeded
from scenarios.replay import observe, replay_scenario
from scenarios.state import GameState
from scenarios.versions import reading_version

PAGE_STEPS, PAGE_SECONDS = 200_000, 4.0  # one replay asked from a page (the sandbox adds a deadline)
MAX_URL_TOKEN = 12_000  # characters of a scenario encoded in a URL
MAX_ALTERNATIVES = 12  # other answers offered per question in the what-if form

# -- running a scenario (in a sandbox worker) -----------------------------------------------------------------


def parse_scenario(text: str, source: str) -> tuple[schema.Scenario, dict]:
    """A scenario typed into a page (or stored), parsed under the page limits against every card the engine can
    use: where the pages' engine gets the cards read from their text (`view`, and the dispute builder's
    `legal`, `attempt` and `check_text` all parse here)."""
    load_read_cards()
    return schema.parse(text, source, schema.PAGE_LIMITS)


def view(
    text: str, source: str, variant: str | None = None, changes: list[dict] | None = None, deciding: bool = True
) -> dict:
    """Replay a scenario's text (one of its variants, or with a what-if's changes) and describe every step, with
    the board after each; ``deciding=False`` skips the steps that decide it (``verdict.deciding``: up to two dozen
    what-ifs replayed), for a page that does not show them."""
    described, game = replayed_view(text, source, variant, changes, deciding)
    return described if game is None else with_boards(described, game)


def replayed_view(
    text: str, source: str, variant: str | None = None, changes: list[dict] | None = None, deciding: bool = True
) -> tuple[dict, GameState | None]:
    """The view of a replay without its boards, and the replayed game to read them from (``with_boards``); the
    error and None when the scenario cannot be replayed."""
    try:
        scenario, data = parse_scenario(text, source)
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
        replay = replay_scenario(scenario, source, page_budget())
    except (schema.ScenarioError, BudgetExceeded) as error:
        return {"error": problem(error)}, None
    game = replay.state
    names = object_names(game)
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
    outcome = verdict.game_outcome(game, expect)  # a what-if: the original's outcome
    found = verdict.readings(game, outcome)  # the outcome's values after every step
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
        "inputs": (inputs := _inputs(scenario, data, replay.questions, say)),
        # the steps a what-if would flip (rules_db.verdict), for the scenario as it is: a what-if has its comparison
        "decided": verdict.deciding(data, source, game, inputs, outcome, found) if deciding and not changes else [],
        "outcome_trail": verdict.trail(found),
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


def page_budget() -> Budget:
    return Budget(max_steps=PAGE_STEPS, seconds=PAGE_SECONDS)


def problem(error: Exception) -> dict:
    """An error for the page: its message, and the line and field when it is a scenario's."""
    if isinstance(error, schema.ScenarioError):
        return {"message": error.message, "line": error.line, "field": error.field}
    return {"message": str(error), "line": None, "field": "actions"}


# -- words for judges -------------------------------------------------------------------------------------------


def object_names(game) -> dict[str, dict]:
    library = engine_cards()
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
                    "picked": say(value_words(picked)),
                    "alternatives": [{"value": answer, "words": say(value_words(answer))} for answer in others],
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
    definition = engine_cards()[entry.card]
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
    for card in engine_cards().values():
        found.update(card.keywords)
        for passive in card.passives:
            found.update(passive.keywords)
    return sorted(found)


@cache
def unit_cards() -> list[str]:
    return sorted(name for name, card in engine_cards().items() if card.object_kind == "unit")


# -- comparing two runs -----------------------------------------------------------------------------------------


def compare(original: dict, what_if: dict) -> dict:
    """The first step where two views differ in what happened (None when the same steps happen), the first step
    after which their outcomes differ (``deciding``, None when they never do; it may be past the what-if's end),
    the what-if step to show for them (``marked``), and their outcomes side by side."""
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
    deciding = verdict.first_outcome_difference(original["outcome_trail"], what_if["outcome_trail"])
    return {
        "divergence": divergence,
        "deciding": deciding,  # the first step after which the outcome differs: the difference that decides
        # The what-if's step a page opens at and marks: the deciding one, unless the what-if ended before it.
        "marked": deciding if deciding and deciding <= len(what_if["steps"]) else divergence,
        "outcome": rows,
        "flipped": any(row["differs"] for row in rows),
    }


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
        self.sandbox = sandbox or Sandbox("rules_db.replay_worker")  # its workers run that module's WORKER_FUNCTIONS
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
        deciding: bool = True,
    ) -> dict:
        """The view of a scenario, with the boards after the steps numbered in ``boards`` (every board when
        None; a view from the sandbox always has every board), and the steps that decide it unless ``deciding`` is
        False (library replays always have them)."""
        if trusted and not changes:
            return self._library_view(text, source, variant, boards)  # type: ignore[return-value]  # replayed
        return self._cached("view", text=text, source=source, variant=variant, changes=changes or [], deciding=deciding)

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


def flow(value) -> str:
    """A value as one line of YAML (`3`, `zh`, `[a, b]`, `{card: Test Unit}`): what a what-if URL carries."""
    text = yaml.safe_dump(value, default_flow_style=True, width=10**6, allow_unicode=True).strip()
    return text.removesuffix("\n...").removesuffix("...").strip()
