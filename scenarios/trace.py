"""The trace: a tree of steps, each opened by the kernel's dispatcher for one procedure or choice.

A step records what happened (`procedure`, `summary`, `objects`), why it happened (`because`: the rule of
the turn, combat or chain step that orders it) and what it does (`defines`: the rules that define the
action), and the state it changed (`change`, computed from the journal entries written while it was open).
Only the kernel (`scenarios.kernel`) opens and closes steps.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any

from scenarios.journal import MISSING


class StepKind(enum.StrEnum):
    ACTION = "action"
    CHAIN_ITEM = "chain item"
    TRIGGER = "trigger"
    REPLACEMENT = "replacement"
    CLEANUP = "cleanup"
    COMBAT_STEP = "combat step"
    LAYER_CALCULATION = "layer calculation"
    CHOICE = "choice"
    REFUSAL = "refusal"
    SHOWDOWN = "showdown"
    EFFECT = "effect"
    MOVEMENT = "movement"
    SCORING = "scoring"
    TURN = "turn"


NO_STEPS: list = []  # shared, never appended to: most steps have no children and write nothing
NO_ENTRIES: list = []


class Step:
    """One node of the trace (a plain slotted class: the engine makes thousands of them per replay)."""

    __slots__ = ("kind", "procedure", "summary", "because", "defines", "objects", "children", "entries", "log", "at")

    def __init__(self, kind, procedure: str, summary: str, because: tuple, defines: tuple, objects=(), log=None):
        self.kind = kind
        self.procedure = procedure
        self.summary = summary
        self.because: tuple[str, ...] = because
        self.defines: tuple[str, ...] = defines
        self.objects = objects
        self.children: list[Step] = NO_STEPS  # a list of its own once a child is added (see `add`)
        self.entries: list[tuple] = NO_ENTRIES  # the journal entries written while the step was open
        self.log = log  # (log name, entry, sequence): what `GameState.log` shows for this step
        self.at = 0  # the journal's length when the step opened: the state just before it (see scenarios/board.py)

    def __repr__(self) -> str:
        return f"Step({self.procedure!r}, {self.summary!r}, because={self.because}, defines={self.defines})"

    def add(self, child: Step) -> None:
        if self.children is NO_STEPS:
            self.children = [child]
        else:
            self.children.append(child)

    def object_ids(self) -> list[str]:
        return [str(o) for o in self.objects if o is not None]

    @property
    def rules(self) -> list[str]:
        """Every rule the step cites: why it happens first, then what defines it."""
        return list(dict.fromkeys(self.because + self.defines))

    @property
    def change(self) -> dict[str, dict[str, list]]:
        """What the step changed: {object: {attribute: [before, after]}}."""
        first: dict[tuple, tuple] = {}
        last: dict[tuple, Any] = {}
        for target, key, old, new in self.entries:
            slot = (id(target), key)
            first.setdefault(slot, (target, key, old))
            last[slot] = new
        change: dict[str, dict[str, list]] = {}
        for slot, (target, key, old) in first.items():
            new = last[slot]
            if isinstance(target, dict):
                label = (key, "created") if old is MISSING else None
                old, new = None, getattr(new, "card", True)
            else:
                label = target.change_label(key)
            if label is None or plain(old) == plain(new):
                continue
            change.setdefault(label[0], {})[label[1]] = [plain(old), plain(new)]
        return change

    def walk(self, depth: int = 0):
        yield depth, self
        for child in self.children:
            yield from child.walk(depth + 1)

    def to_dict(self) -> dict:
        return {
            "kind": str(self.kind),
            "procedure": self.procedure,
            "summary": self.summary,
            "rules": self.rules,
            "because": list(self.because),
            "defines": list(self.defines),
            "objects": self.object_ids(),
            "change": self.change,
            "children": [child.to_dict() for child in self.children],
        }


def plain(value):
    """A state value as plain data (for YAML, JSON and comparisons)."""
    if value is MISSING or value is None or isinstance(value, bool | int | float):
        return None if value is MISSING else value
    if isinstance(value, str):
        return str(value)
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [plain(v) for v in value]
    if hasattr(value, "plain"):
        return value.plain()
    if dataclasses.is_dataclass(value):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value) if not f.name.startswith("_")}
    if hasattr(value, "model_dump"):
        return value.model_dump(exclude_none=True, exclude_defaults=True)
    return str(value)


# A step as the engine writes it: one flat record per step, in the order the steps opened (see `Tracer`).
KIND, PROCEDURE, SUMMARY, BECAUSE, DEFINES, OBJECTS, LOG, AT, END, DEPTH, DESCRIBE = range(11)


class Tracer:
    """The steps of a game as flat records (lists indexed by KIND ... DESCRIBE above), in the order they opened,
    and how many of them are open now (`depth`, the depth of the next record). The tree of `Step`s is built from them only when it is read
    (`roots`, `steps()`): a replay writes thousands of steps and most are never read one by one.

    A record's journal entries are `journal[AT:END]` (END is set when the step closes); a record's parent is
    the nearest earlier record one level less deep; the innermost open step is the last record whose END is not
    set yet (see `open_step`). A pure procedure's record leaves SUMMARY, DEFINES and
    OBJECTS empty and keeps DESCRIBE, (procedure, arguments), to work them out when read.
    BECAUSE is one rule (a string) or a tuple of them."""

    __slots__ = ("records", "depth", "journal")

    def __init__(self, journal: list) -> None:
        self.records: list[list] = []
        self.depth = 0
        self.journal = journal  # the game's journal entries (one list, rewound and extended in place)

    def mark(self) -> int:
        return len(self.records)

    def rewind(self, mark: int) -> list[list]:
        """Drop the records after `mark` (returned, for a later `restore`)."""
        dropped = self.records[mark:]
        del self.records[mark:]
        self.depth = 0
        return dropped

    def restore(self, mark: int, dropped: list[list]) -> None:
        self.rewind(mark)
        self.records.extend(dropped)

    def open_step(self) -> list | None:
        """The record of the innermost step still open (None at the top level). Asked only when a log entry is
        made, so no stack of open records is kept for it: a step's dispatcher only counts the depth."""
        if self.depth:
            for record in reversed(self.records):
                if record[END] is None:
                    return record
        return None

    @property
    def roots(self) -> list[Step]:
        """The trace as a forest of steps (built from the records)."""
        return self.tree(len(self.records))

    def tree(self, end: int) -> list[Step]:
        """The forest of the first `end` records' steps."""
        roots: list[Step] = []
        path: list[Step] = []  # the last step built at each depth
        journal = self.journal
        for record in self.records[:end]:
            because = record[BECAUSE]
            if type(because) is str:  # one rule, kept as given while the game ran
                because = (because,)
            if record[DESCRIBE] is None:
                summary, defines, objects = record[SUMMARY], record[DEFINES], record[OBJECTS]
            else:
                procedure, positional = record[DESCRIBE]
                summary, defines, objects = procedure.describe(positional)
            step = Step(record[KIND], record[PROCEDURE], summary, because, defines, objects, record[LOG])
            step.at = at = record[AT]
            end = record[END]
            if end is not None and end > at:
                step.entries = journal[at:end]
            depth = record[DEPTH]
            del path[depth:]
            if depth:
                path[-1].add(step)
            else:
                roots.append(step)
            path.append(step)
        return roots

    def logs(self):
        """The game-log entries of the steps, (name, entry, sequence), in the order the steps opened."""
        return (record[LOG] for record in self.records if record[LOG])

    def steps(self):
        for root in self.roots:
            yield from root.walk()

    def count(self) -> int:
        return len(self.records)
