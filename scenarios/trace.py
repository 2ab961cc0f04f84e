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
            if label is None:
                continue
            before, after = plain(old), plain(new)
            if before != after:
                change.setdefault(label[0], {})[label[1]] = [before, after]
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


# A step as the engine writes it: a list [procedure, detail, because, at, depth, end] (see `Tracer`).
END = 5


class Tracer:
    """The steps of a game as flat records, in the order they opened, and how many of them are open now (`depth`,
    the depth of the next record). The tree of `Step`s is built from them only when it is read (`roots`,
    `steps()`): a replay writes thousands of steps and most are never read one by one.

    A record is a list `[procedure, detail, because, at, depth, end]`. A pure procedure's step keeps the procedure
    and its arguments as detail, and is described when read; any other step has None and its description made
    already, `(kind, name, summary, defines, objects)`. BECAUSE is one rule (a string) or a tuple of them; AT and
    END the journal's length when the step opened and closed (END is None while it is open): its journal entries
    are `journal[at:end]`. A step's game-log entry, rare, is kept in `log_entries` under its record's index.
    (Six fields rather than one for each attribute of a `Step`: a record is made some 16 times per action and kept
    for the whole game; a 20,000-action game's process held 191 MB with eleven, 157 MB with six.)

    A record's parent is the nearest earlier record one level less deep; the innermost open step is the last
    record whose END is not set yet (see `open_step`)."""

    __slots__ = ("records", "log_entries", "depth", "journal", "standing", "standing_changes")

    def __init__(self, journal: list) -> None:
        self.records: list[list] = []
        self.log_entries: dict[int, tuple] = {}  # record index -> (log name, entry, sequence)
        self.depth = 0
        self.journal = journal  # the game's journal entries (one list, rewound and extended in place)
        self.standing: dict[tuple, str] = {}  # (note name, object) -> summary of a lasting situation noted
        self.standing_changes: list[tuple] = []  # (record count, key, old, new) of each change, rewound with them

    def mark(self) -> int:
        return len(self.records)

    def rewind(self, mark: int) -> tuple[list, dict, list]:
        """Drop the records after `mark` (returned with their log entries and standing changes, for a later
        `restore`). A mark is taken between actions, when no step is open, so the log entries of the records after
        it were all made after those of the records before it: they are the newest entries of `log_entries`."""
        logs = self.log_entries
        dropped_logs = {}
        while logs and next(reversed(logs)) >= mark:
            index, entry = logs.popitem()
            dropped_logs[index] = entry
        changes = self.standing_changes
        dropped_changes = []
        while changes and changes[-1][0] >= mark:
            change = changes.pop()
            self._set_standing(change[1], change[2])
            dropped_changes.append(change)
        dropped_changes.reverse()
        dropped = self.records[mark:]
        del self.records[mark:]
        self.depth = 0
        return dropped, dropped_logs, dropped_changes

    def restore(self, mark: int, dropped: tuple[list, dict, list] | None) -> None:
        self.rewind(mark)
        if dropped:
            records, logs, changes = dropped
            self.records.extend(records)
            self.log_entries.update(sorted(logs.items()))
            for change in changes:
                self._set_standing(change[1], change[3])
            self.standing_changes.extend(changes)

    def set_standing(self, key: tuple, summary: str | None) -> None:
        """Remember the summary noted for a lasting situation (None: it has ended), rewound with the records."""
        self.standing_changes.append((len(self.records), key, self.standing.get(key), summary))
        self._set_standing(key, summary)

    def _set_standing(self, key: tuple, summary: str | None) -> None:
        if summary is None:
            self.standing.pop(key, None)
        else:
            self.standing[key] = summary

    def open_step(self) -> int | None:
        """The index of the innermost step still open (None at the top level). Asked only when a log entry is
        made, so no stack of open records is kept for it: a step's dispatcher only counts the depth."""
        if self.depth:
            records = self.records
            for index in range(len(records) - 1, -1, -1):
                if records[index][END] is None:
                    return index
        return None

    @property
    def roots(self) -> list[Step]:
        """The trace as a forest of steps (built from the records)."""
        return self.tree(len(self.records))

    def tree(self, end: int) -> list[Step]:
        """The forest of the first `end` records' steps."""
        roots: list[Step] = []
        path: list[Step] = []  # the last step built at each depth
        journal, logs = self.journal, self.log_entries
        for index, (procedure, detail, because, at, depth, closed) in enumerate(self.records[:end]):
            if type(because) is str:  # one rule, kept as given while the game ran
                because = (because,)
            if procedure is None:
                kind, name, summary, defines, objects = detail
            else:
                kind, name = procedure.kind, procedure.name
                summary, defines, objects = procedure.describe(detail)
            step = Step(kind, name, summary, because, defines, objects, logs.get(index))
            step.at = at
            if closed is not None and closed > at:
                step.entries = journal[at:closed]
            del path[depth:]
            if depth:
                path[-1].add(step)
            else:
                roots.append(step)
            path.append(step)
        return roots

    def logs(self):
        """The game-log entries of the steps, (name, entry, sequence), in the order the steps opened."""
        return (self.log_entries[index] for index in sorted(self.log_entries))

    def steps(self):
        for root in self.roots:
            yield from root.walk()

    def count(self) -> int:
        return len(self.records)
