"""The steps that decide a replay's outcome: those a what-if would flip.

The outcome is what the scenario looks at (its `expect`), or, for a dispute that states none, where every unit,
gear and battlefield ends up (zone, location, controller), each player's points and the winner. Each what-if a
judge reaches in one tap is replayed (every answered question answered otherwise, another player's turn) and a
few one-step changes of each unit of the setup (its Might one more and one less, exhausted or ready, stunned or
not), within a budget of replays and time; a what-if counts only when every action of the scenario is still
allowed as it was (another game is not the same one decided otherwise). When a what-if's outcome differs, the step of the original that last
set one of the differing values decides it (the earliest such step when several differ); a value the original
never changes is decided where the two runs part (the first step whose words differ). The steps most what-ifs
point to, at most three, are the deciding steps, in the order they happen, each with the what-ifs that flip it.
When no what-if flips anything, the steps that set the outcome's values are given instead, with none.

Pure: it takes the scenario's document and the replayed game (rules_db.replay_view.replayed_view) and replays in
the calling process, which is a sandbox worker for a scenario typed in, or the server's own for the library's.
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from collections.abc import Iterable
from typing import Any

from scenarios import schema
from scenarios.board import step_reads
from scenarios.kernel import Budget, BudgetExceeded
from scenarios.observe import observe
from scenarios.replay import replay_scenario
from scenarios.state import GameState

MAX_WHAT_IFS = 24  # what-ifs replayed to find the deciding steps
SECONDS = 0.6  # and the time they may take together (a what-if takes 1-10 ms, a long replay 250)
WHAT_IF_STEPS = 50_000  # steps one what-if may take
MAX_DECIDING = 3
MAX_FLIPS = 3  # what-ifs named per deciding step
# What a dispute stating no outcome is judged on (`outcome_spec`): these fields of each object of these kinds.
OBSERVED_KINDS = ("unit", "gear", "battlefield")
OUTCOME_FIELDS = ("zone", "location", "controller")
Key = tuple


def readings(game: GameState, outcome: dict) -> list[dict[Key, Any]]:
    """The values ``outcome`` names (the scenario's ``expect``, or `outcome_spec`'s when it names none) before
    the first step and after each step (where the step's board is read, scenarios/board.py)."""
    start, walked = step_reads(game, lambda state: flat(observe(state, outcome)))
    return [start or {}] + [reading or {} for _, _, reading in walked]


def trail(found: list[dict[Key, Any]]) -> list[list]:
    """The outcome's values along a run, as its change points: ``[step, {key: fingerprint}]`` for the values
    before the first step (step 0) and for those each later step changes (plain and short, for JSON and the
    sandbox's pipe; `first_outcome_difference` reads two of them)."""
    points: list[list] = []
    before: dict[Key, Any] = {}
    for number, values in enumerate(found):
        changed = {_said(key): _print(value) for key, value in values.items() if before.get(key, _NONE) != value}
        if changed or number == 0:
            points.append([number, changed])
        before = values
    return points


def first_outcome_difference(one: list[list], other: list[list]) -> int | None:
    """The first step after which two runs' outcomes differ otherwise than before the first step (where a what-if
    of the setup may differ already): a value differs that did not, or no longer differs; a run past its end keeps
    its last values. None when no step does."""
    last = max([number for number, _ in one + other], default=0)
    mine, theirs = dict(one[0][1]) if one else {}, dict(other[0][1]) if other else {}
    at_start = _differences(mine, theirs)
    later_one, later_other = dict(one[1:]), dict(other[1:])
    for number in range(1, last + 1):
        mine.update(later_one.get(number, {}))
        theirs.update(later_other.get(number, {}))
        if (number in later_one or number in later_other) and _differences(mine, theirs) != at_start:
            return number
    return None


_NONE = object()


def _differences(mine: dict, theirs: dict) -> set:
    """The outcome's values that differ between two runs (which, not how: a Might set otherwise in the setup
    differs as much after a -4 as before it)."""
    return {key for key in mine.keys() | theirs.keys() if mine.get(key) != theirs.get(key)}


def _said(key: Key) -> str:
    return ".".join(str(part) for part in key)


def _print(value: Any) -> str:
    return hashlib.blake2b(repr(value).encode(), digest_size=6).hexdigest()


def deciding(
    data: dict, source: str, game: GameState, inputs: dict, outcome: dict, found: list[dict[Key, Any]]
) -> list[dict]:
    """The deciding steps of a replayed scenario (its document ``data``, as replayed: a variant's changes made;
    ``found`` its `readings` of ``outcome``), each ``{"number", "flips": [{"path", "value"}, ...]}``, in step
    order (see the module's words)."""
    deadline = time.perf_counter() + SECONDS
    walked = list(game.trace.steps())
    final = found[-1]
    last_change: dict[Key, int] = {}
    for number in range(1, len(found)):
        for key, value in found[number].items():
            if found[number - 1].get(key) != value:
                last_change[key] = number
    summaries = [step.summary for _, step in walked]
    votes: Counter[int] = Counter()
    flips: dict[int, list[dict]] = {}
    for change in what_ifs(inputs)[:MAX_WHAT_IFS]:
        if time.perf_counter() > deadline:
            break
        other = _replay(data, source, change)
        if other is None:
            continue
        differing = [key for key, value in flat(observe(other, outcome)).items() if final.get(key) != value]
        if not differing:
            continue
        numbers = [last_change[key] for key in differing if key in last_change]
        parting = _parting(summaries, [step.summary for _, step in other.trace.steps()])
        decided = min(numbers) if numbers else parting
        if decided:
            votes[decided] += 1
            flips.setdefault(decided, []).append(change)
    if votes:
        chosen = [number for number, _ in votes.most_common(MAX_DECIDING)]
        return [{"number": n, "flips": flips[n][:MAX_FLIPS]} for n in sorted(chosen)]
    setting = sorted({number for key, number in last_change.items() if key in final})
    return [{"number": n, "flips": []} for n in setting[-MAX_DECIDING:]]


def what_ifs(inputs: dict) -> list[dict]:
    """The what-ifs tried, as changes ``{"path", "value"}``: each question answered otherwise, each other player's
    turn, then each unit's Might one more and one less, exhausted or ready, stunned or not."""
    found = [
        {"path": choice["path"], "value": alternative["value"]}
        for choice in inputs.get("choices", [])
        for alternative in choice["alternatives"]
    ]
    found += [
        {"path": "setup.turn.player", "value": player}
        for player in inputs.get("players", [])
        if player != inputs.get("turn_player")
    ]
    for unit in inputs.get("units", []):
        if isinstance(unit.get("might"), int):
            found.append({"path": f"{unit['path']}.might", "value": unit["might"] + 1})
            if unit["might"] > 0:
                found.append({"path": f"{unit['path']}.might", "value": unit["might"] - 1})
        found.append({"path": f"{unit['path']}.exhausted", "value": not unit["exhausted"]})
        found.append({"path": f"{unit['path']}.stunned", "value": not unit["stunned"]})
    return found


def _replay(data: dict, source: str, change: dict) -> GameState | None:
    try:
        changed = schema.with_changes(data, [schema.Change(**change)], source, "what-if")
        changed.update(expect={}, checkpoints=[], variants=[])
        scenario = schema.validate(changed, {}, source)
        replay = replay_scenario(scenario, source, Budget(max_steps=WHAT_IF_STEPS, seconds=SECONDS))
    except (schema.ScenarioError, BudgetExceeded):  # a what-if the loader refuses, or too long: not a flip
        return None
    # An action the rules now refuse (or a question left unanswered) is another game, not the same one decided
    # otherwise: only the same actions, each allowed as before, count.
    return None if replay.mismatches else replay.state


def _parting(one: list[str], other: list[str]) -> int | None:
    """The first step (numbered from 1) of ``one`` whose words differ in ``other``; None when ``one`` has no such
    step."""
    for number, (mine, theirs) in enumerate(zip(one, other), start=1):
        if mine != theirs:
            return number
    return len(other) + 1 if len(one) > len(other) else None


def outcome_spec(kinds: dict[str, str], players: Iterable[str]) -> dict:
    """What a dispute stating no outcome is judged on: where each unit, gear and battlefield ends up, each
    player's points, and the winner (an `expect` document of the engine's observable names), given each object's
    kind by id and the players. The one definition: the deciding steps read it (`readings`), and the dispute
    builder's verdict says each of its changes in words (rules_db.dispute.verdict)."""
    spec: dict[str, Any] = {
        object_id: dict.fromkeys(OUTCOME_FIELDS) for object_id, kind in kinds.items() if kind in OBSERVED_KINDS
    }
    spec["players"] = {name: {"points": None} for name in players}
    spec["winner"] = None
    return spec


def game_outcome(game: GameState, expect: dict) -> dict:
    """What a replayed game is judged on: its scenario's ``expect``, else `outcome_spec` of its objects."""
    return expect or outcome_spec({obj.id: str(obj.kind) for obj in game.objects.values()}, game.turn_order)


def flat(observed: dict) -> dict[Key, Any]:
    """Observed values by key: (object, field), ("players", player, field), or (game key,)."""
    found: dict[Key, Any] = {}
    for key, value in observed.items():
        if key == "players" and isinstance(value, dict):
            for player, fields in value.items():
                for field, item in (fields or {}).items():
                    found[("players", player, field)] = repr(item)
        elif isinstance(value, dict) and "error" not in value and key not in ("combat", "showdown", "pending"):
            for field, item in value.items():
                found[(key, field)] = repr(item)
        else:
            found[(key,)] = repr(value)
    return found
