"""The board as a judge sees it: a plain snapshot of the game, and the board after every step of a trace.

`snapshot(game)` reads the state through the engine's own queries (`calc.might`, `calc.keyword_value`), so a
unit shows the Might the rules compute now, next to the Might it was printed or set up with. `step_boards(game)`
walks the trace in order and gives, for each step (or only the steps asked for), the board just after it (where
the next step opens, or after the step's own last write when it writes after its nested steps, see `_ends`): the
undo journal is rewound to that mark (`Step.at`, the journal's length when a step opened), read, and redone, so the
game ends exactly as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Container
from typing import Any, TypeVar

from scenarios.kernel import calc
from scenarios.objects import BATTLEFIELD, BOARD, CHAIN, FACEDOWN, LEGEND, UNIT, Kind, Obj, Zone
from scenarios.trace import Step, plain

T = TypeVar("T")


def snapshot(game) -> dict[str, Any]:
    """The whole board as plain data: the turn, each player's zones, each battlefield, every object."""
    objects = {obj.id: _object(game, obj) for obj in game.objects.values()}
    owned: dict[str, list[Obj]] = {name: [] for name in game.turn_order}
    for obj in game.objects.values():
        owned.setdefault(obj.owner, []).append(obj)
    return {
        "turn": {
            "player": game.turn_player,
            "number": game.turn_number,
            "phase": game.word(game.phase),  # the words of the version judged under
            "state": game.state_name(),
            "priority": game.priority,
        },
        "winner": game.winner,
        "victory_score": calc.victory_score(game),
        "players": [_player(game, name, owned[name]) for name in game.turn_order],
        "battlefields": [
            {
                "id": bf.id,
                "units": [o.id for o in game.units(bf.id)],
                "sides": [  # the units there, by the player who controls them
                    {"player": name, "units": [o.id for o in game.units(bf.id, name)]}
                    for name in game.turn_order
                    if game.units(bf.id, name)
                ],
                "gear": [o.id for o in _at(game, bf.id) if o.kind != UNIT and not o.attached_to],
                "hidden": [o.id for o in _hidden(game, bf.id)],
            }
            for bf in game.battlefields()
        ],
        "chain": [
            {"label": item.label, "kind": str(item.kind), "controller": item.controller, "source": item.source}
            for item in game.chain
        ],
        "combat": plain(game.combat),
        "showdown": plain(game.showdown),
        "pending": game.pending.plain() if game.pending else None,
        "objects": objects,
    }


def step_boards(game, wanted: Container[int] | None = None) -> tuple[dict | None, list[tuple[int, Step, dict | None]]]:
    """The board before the first step, and every step of the trace (in order, with its depth) with the board
    just after it. With ``wanted`` (step numbers: 1 the first step, 0 the board before it) only those boards
    are read and the others are None: a page showing one step reads one or two boards, not one per step."""
    return step_reads(game, snapshot, wanted)


def step_reads(
    game, read: Callable[[Any], T], wanted: Container[int] | None = None
) -> tuple[T | None, list[tuple[int, Step, T | None]]]:
    """What ``read(game)`` gives before the first step and just after each step (where its board is read,
    ``step_boards``); only for the ``wanted`` step numbers when given. The game is left exactly as it was."""
    walked = list(game.trace.steps())
    journal = game.journal
    ends = _ends(walked, journal.mark())
    found: list[T | None] = [None] * len(walked)
    kept: dict[int, T] = {}
    undone: list = []
    start = None
    chosen = [index for index in range(len(walked)) if wanted is None or index + 1 in wanted]
    try:
        for index in sorted(chosen, key=lambda index: -ends[index]):  # the journal only rewinds backwards
            if ends[index] not in kept:
                undone = journal.rewind(ends[index]) + undone
                kept[ends[index]] = read(game)
            found[index] = kept[ends[index]]  # nothing written in between: the same reading
        if wanted is None or 0 in wanted:
            undone = journal.rewind(0) + undone
            start = read(game)
    finally:
        journal.redo(undone)
    return start, [(depth, step, value) for (depth, step), value in zip(walked, found)]


def _ends(walked: list[tuple[int, Step]], last: int) -> list[int]:
    """Each step's board mark: where the next step opens (the journal's end after the last step), or later when
    the step writes after a nested step that writes nothing opened (`_own_end`), and never before the step
    before's mark. So "give d1 -2 might" shows the -2 although its "d1 has 3 Might" child opens before the change is
    written, a step whose nested steps do the work shows the board before them (each nested step then shows its
    own part), and stepping forward never goes back in time."""
    ends: list[int] = []
    for index, (_, step) in enumerate(walked):
        following = walked[index + 1][1].at if index + 1 < len(walked) else last
        ends.append(max(following, _own_end(step), ends[-1] if ends else 0))
    return ends


def _own_end(step: Step) -> int:
    """The journal's length after the writes the step makes before any nested step of it writes (all of its
    writes when none does): a nested step that only says something ("d1 has 5 Might: it gets -4") leaves the write
    it announces to its step, and one that writes does its own part, shown beside it."""
    for child in step.children:
        if child.entries:
            return child.at
    return step.at + len(step.entries)


def _player(game, name: str, mine: list[Obj]) -> dict:
    player = game.players[name]
    return {
        "name": name,
        "points": player.points,
        "energy": player.energy,
        "power": player.power,
        "domain_power": dict(player.domain_power),
        "runes": [o.id for o in mine if o.kind == Kind.RUNE and o.zone == BOARD],
        "runes_exhausted": sum(1 for o in mine if o.kind == Kind.RUNE and o.zone == BOARD and o.exhausted),
        "rune_deck": sum(1 for o in mine if o.zone == Zone.RUNE_DECK),
        "hand": [o.id for o in sorted((o for o in mine if o.zone == Zone.HAND), key=lambda o: o.order)],
        "deck": sum(1 for o in mine if o.zone == Zone.DECK),
        "legend": next((o.id for o in mine if o.kind == LEGEND and o.zone == BOARD), None),
        "base": [
            o.id
            for o in game.objects.values()
            if o.zone == BOARD
            and o.location == "base"
            and o.controller == name
            and o.kind not in (LEGEND, BATTLEFIELD, Kind.RUNE)
            and not o.attached_to
        ],
        "trash": [o.id for o in mine if o.zone == Zone.TRASH],
        "banishment": [o.id for o in mine if o.zone == Zone.BANISHMENT],
    }


def _at(game, location: str) -> list[Obj]:
    return [o for o in game.objects.values() if o.zone == BOARD and o.location == location and o.kind != BATTLEFIELD]


def _hidden(game, location: str) -> list[Obj]:
    return [o for o in game.objects.values() if o.zone == FACEDOWN and o.location == location]


def _object(game, obj: Obj) -> dict:
    on_board = obj.zone == BOARD
    data: dict[str, Any] = {
        "id": obj.id,
        "card": obj.card,
        "kind": str(obj.kind),
        "owner": obj.owner,
        "controller": obj.battlefield_controller if obj.kind == BATTLEFIELD else obj.controller,
        "zone": str(obj.zone),
        "location": obj.location if on_board or obj.zone == FACEDOWN else None,
    }
    if obj.kind == BATTLEFIELD:
        data.update(contested_by=obj.contested_by, staged=obj.staged)
        return data
    if obj.kind == UNIT:
        data.update(
            might_base=obj.might_base,
            might=calc.might(game, obj) if on_board else None,
            damage=obj.damage,
            stunned=obj.stunned,
            buffs=obj.buffs,
            designation=plain(obj.designation),
            keywords=keywords(game, obj) if on_board else {},
            gear=[gear.id for gear in game.attached(obj.id)] if on_board else [],
        )
    data.update(
        exhausted=obj.exhausted,
        attached_to=obj.attached_to if on_board else None,
        hidden=obj.zone == FACEDOWN,
        on_chain=obj.zone == CHAIN,
    )
    return data


def keywords(game, obj: Obj) -> dict[str, int]:
    """Every keyword the object has now, with its value: from its card, from effects, from passives."""
    names = set(obj.definition.keywords if obj.definition else ()) | {grant.keyword for grant in obj.granted}
    for _source, passive, _view in calc.passives(game):
        names.update(passive.keywords)
    found = {name: calc.keyword_value(game, obj, name) for name in sorted(names)}
    return {name: value for name, value in found.items() if value}
