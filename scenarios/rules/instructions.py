"""Executing the instructions of a spell or ability, top to bottom (359.3.d, 406.5), and what they refer to.

Each instruction is a mapping with an `op` registered by the rule module that owns the action
(`kernel.INSTRUCTIONS`). Objects are named by reference: a target slot of the item ("target", "unit", ...),
`this` (the source), `affected` (the object a replacement effect is about), `it` (a delayed ability's
object), `trigger_unit` (the unit its triggering event was about), `equipped` (the unit the source is
attached to), or a group `{all: <object filter>}`. Targets are checked once, as the item begins to resolve
(359.3.e.2); an illegal target is unaffected (359.3.e.5) and an impossible instruction is ignored (055).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scenarios.game import Game
from scenarios.kernel import INSTRUCTIONS, EngineError, StepKind, calc, note, query
from scenarios.objects import ChainItem, ItemKind, View, Zone
from scenarios.selectors import ObjectFilter


@dataclass
class Resolution:
    """One execution of an item's instructions: the item, the rule it executes under, its legal targets."""

    item: ChainItem
    because: str
    legal: dict = field(default_factory=dict)
    view: View | None = None
    source_gone: bool = False  # the ability's source has left the board: its information is null (359.3.e.12)


@query("resolution")
def resolution(game: Game, item: ChainItem, because: str, targets: dict | None = None) -> Resolution:
    """Start executing `item` (with `targets`, the choices of one of its executions, by default its own): its
    targets are checked now and kept for all its instructions (359.3.e.2)."""
    targets = (item.targets or {}) if targets is None else targets
    legal = {slot: _still_legal(game, item, slot, targets) for slot in targets}
    card = game.objects.get(item.card) if item.card else None
    if card is not None and card.killed_to_play:  # "the killed unit": what its additional cost killed (359.3.e.14)
        legal["killed"] = list(card.killed_to_play)
    source = game.objects.get(item.source)
    slots = dict(legal)
    event = item.trigger.event if item.trigger is not None else None
    if event is not None and event.location is not None:  # "at that battlefield": its event's (359.3.f.3)
        slots["trigger_location"] = [event.location]
    view = calc.view_of(game, source, it=item.it, slots=slots) if source else View()
    if item.it and item.it in game.objects:
        view = View(view.source, view.you, view.here, item.it, None, view.slots)
    here = calc.targeting_of(game, item).here
    view = View(view.source, view.you, here, view.it, view.it_incarnation, view.slots)
    return Resolution(item, because, legal, view, calc.source_gone(game, item, source))


@query("source_gone")
def source_gone(game: Game, item: ChainItem, source) -> bool:
    """Has the permanent whose ability this is left the board since the ability was made (a unit that left and
    came back is a new object, 359.3.e.4)? Then it has no location ("here" is null) and no Might, and what is
    computed from them is ignored (359.3.e.12, 406.5). A trigger of the source's own death keeps what was
    noted as it died (808.1.d.3); a delayed ability's information is taken as it is made, not from the
    source as it executes (359.3.f.3.a in Core Rules 1.4)."""
    if item.kind == ItemKind.SPELL or source is None or item.of_its_sources_death:
        return False
    if item.trigger is not None and item.trigger.delayed:
        return False
    moved = item.source_incarnation is not None and source.incarnation != item.source_incarnation
    return source.zone != Zone.BOARD or moved


@query("execute")
def execute(game: Game, run: Resolution, instructions) -> None:
    for instruction in instructions:
        handler = INSTRUCTIONS.get(instruction.get("op"))
        if handler is None:
            raise EngineError(f"unknown instruction {instruction.get('op')!r}")
        handler(game, run, instruction)


def _still_legal(game: Game, item: ChainItem, slot: str, targets: dict) -> list[str]:
    spec = item.spec(slot)
    targeting = calc.targeting_of(game, item)
    legal = []
    for reference in targets.get(slot, ()):
        if spec is None and not isinstance(reference, str):  # kept from the item that made it (388.1): the same
            obj = game.objects.get(reference[0])  # object, unless it changed zones since (359.3.e.4)
            if obj is not None and obj.incarnation == reference[1]:
                legal.append(reference[0])
            continue
        if isinstance(reference, str) or calc.still_legal(game, reference, spec, targeting):
            legal.append(reference if isinstance(reference, str) else reference[0])
        else:
            note(
                game,
                StepKind.EFFECT,
                "mistargeted",
                f"{reference[0]} is no longer a legal target of {item.label}: unaffected",
                ("359.3.e.2", "359.3.e.5"),
                objects=[reference[0]],
            )
    if spec is not None and spec.any_number:  # the group as a whole, checked again (355.11.b)
        return calc.regroup(game, item, slot, spec, legal)
    return legal


@query("refs")
def refs(game: Game, run: Resolution, reference) -> list[str]:
    """The objects (or locations) an instruction names."""
    item = run.item
    if isinstance(reference, list):  # several objects of one instruction, acted on together (370.1.a.2)
        return [found for each in reference for found in refs(game, run, each)]
    if isinstance(reference, dict):
        flt = ObjectFilter.model_validate(reference["all"])
        return [o.id for o in game.objects.values() if calc.matches_object(game, flt, run.view, o)]
    if reference in ("this", "self"):
        return [item.source]
    if reference == "affected":
        return [item.affected] if item.affected else []
    if reference == "it":
        return [item.it] if item.it else []
    if reference == "trigger_unit":  # the unit its event was about, or the card a player played (419.4)
        event = item.trigger.event if item.trigger else None
        subject = (event.unit or event.card) if event else None
        return [subject] if subject else []
    if reference == "equipped":
        source = game.objects.get(item.source)
        return [source.attached_to] if source is not None and source.attached_to else []
    if reference in run.legal:
        return list(run.legal[reference])
    raise EngineError(f"{item.label}: unknown reference {reference!r}")


@query("still_there")
def still_there(game: Game, run: Resolution, reference, doing: str) -> list[str]:
    """The objects an instruction acts on the board with: those it names that still exist as the objects it named,
    on the board and, for a delayed ability's "it", not a new object since (a zone change makes a new object, 124).
    An object that has ceased to exist can't be moved, killed, dealt damage or otherwise acted on: for each one
    named by itself (not a group an instruction selects, nor a target already found illegal) the instruction is
    ignored for it, and a step says so (055, 359.3.e.6). Every instruction acting on objects on the board asks
    here, whatever card gives it."""
    found = []
    for object_id in refs(game, run, reference):
        obj = game.objects.get(object_id)
        moved = (
            reference == "it"
            and run.item.it_incarnation is not None
            and obj is not None
            and obj.incarnation != run.item.it_incarnation
        )
        if obj is not None and obj.zone == Zone.BOARD and not moved:
            found.append(object_id)
        elif isinstance(reference, str) and reference not in run.legal:
            where = "is a new object since it changed zones" if moved else "is no longer on the board"
            reading = game.reading("instruction_on_a_vanished_object")  # "ignored", or "negated" (Vendetta FAQ)
            game.budget.logged += 1  # the game log's `ignored` / `negated`: what a judge sees was not done
            note(
                game,
                StepKind.EFFECT,
                "impossible",
                f"{run.item.label}: {object_id} {where}: {doing} it is {reading.choice}",
                run.because,
                reading.cited,
                [object_id],
                log=(reading.choice, f"{run.item.label}: {doing} {object_id}", game.budget.logged),
            )
    return found


@query("show_refs")
def show_refs(game: Game, run: Resolution, reference) -> str:
    """A reference as the objects it names, for step summaries ("target" -> "d1")."""
    ids = refs(game, run, reference)
    return ", ".join(ids) if ids else f"{reference if isinstance(reference, str) else 'no object'} (none)"


@query("amount")
def amount(game: Game, run: Resolution, value) -> int | None:
    """An instruction's amount: a number, a quantity counted now (`scenarios/rules/amounts.py`, 359.3.f.2, its
    step says what it counted), or None when what it is about has no information left (359.3.e.12)."""
    if isinstance(value, int):
        return value
    if isinstance(value, dict):
        counted = calc.quantity(game, run.view, value, run)
        calc.show_quantity(game, run, value, counted)
        return counted
    if isinstance(value, str) and value.startswith("might_of:"):
        ids = refs(game, run, value.split(":", 1)[1])
        unit = game.objects[ids[0]] if ids else None
        if unit is not None and unit.id == run.item.source:
            if run.item.of_its_sources_death:
                return run.item.noted_might  # a Deathknell reads its unit as it died (808.1.d.3)
            gone = run.source_gone
        else:
            gone = unit is None or unit.zone != Zone.BOARD
        return None if gone else calc.might(game, unit)  # a unit no longer on the board has null Might (359.3.e.12)
    raise EngineError(f"unknown amount {value!r}")


@query("impossible")
def impossible(game: Game, run: Resolution, text: str, rule: str | None = None) -> None:
    """An instruction that can't be followed is ignored (055, 359.3.e.6); `rule` is the one that says why, cited
    with the step (so a trace in another version's numbers cites its counterpart)."""
    defines = ("055", rule) if rule else ("055",)
    note(game, StepKind.EFFECT, "impossible", f"{run.item.label}: {text}", run.because, defines)
