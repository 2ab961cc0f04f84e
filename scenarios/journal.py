"""The undo journal: every write to the game state is recorded, so any earlier state comes back in one step.

A game object (a `Journaled` dataclass adopted by a game) records each attribute write as an entry
``(target, key, old, new)``; so does the game's `objects` dictionary when an object is created.
`Journal.rewind(mark)` undoes the writes made since `mark` and hands them back; `Journal.redo(entries)`
applies them again. `GameState.pop()` is one rewind (and, after an answered choice, one redo), and a
trace step's `change` is the journal entries written while the step was open.

Lists inside the state are tuples that are replaced on change, so a list change is one recorded write.

A check that reads a few attributes (a cleanup's victory check reads points) can skip its work while none of
them has changed: `watch(attributes)` gives it a bit of `Journal.changed`, which the write path sets whenever one
of those attributes is written. Rewinding, redoing and creating an object set every bit (they bypass the write
path, or change what exists), so a skipped check never misses a change.
"""

from __future__ import annotations

import itertools
from typing import Any

MISSING: Any = type("Missing", (), {"__repr__": lambda self: "MISSING"})()

EVERY_CHECK = -1  # all bits set: every watching check is due
WATCHERS: dict[str, int] = {}  # attribute name -> the bits of the checks that read it
WATCH_GROUPS: dict[str, int] = {}  # group name -> the bits of the checks in it (see `watch`)
_BIT_NUMBERS = itertools.count()


def watch(attributes, group: str | None = None) -> int:
    """A new bit of `Journal.changed`, set whenever one of `attributes` is written (see the module docstring).
    The checks of one `group` (a Cleanup's, "cleanup") can be tested at once: `changed & WATCH_GROUPS[group]`."""
    bit = 1 << next(_BIT_NUMBERS)
    for name in attributes:
        WATCHERS[name] = WATCHERS.get(name, 0) | bit
    if group is not None:
        WATCH_GROUPS[group] = WATCH_GROUPS.get(group, 0) | bit
    return bit


class Journal:
    __slots__ = ("entries", "changed")

    def __init__(self) -> None:
        self.entries: list[tuple] = []
        self.changed = EVERY_CHECK  # the bits of the checks due (see `watch`): all, until each has run once

    def due(self, bit: int) -> bool:
        """Has something the check with this bit reads changed since it last ran? If so it runs now: clear it."""
        if self.changed & bit:
            self.changed &= ~bit
            return True
        return False

    def mark(self) -> int:
        return len(self.entries)

    def rewind(self, mark: int) -> list[tuple]:
        """Undo every write made since `mark`, newest first; returns the undone entries (oldest first)."""
        undone = self.entries[mark:]
        del self.entries[mark:]
        for target, key, old, _ in reversed(undone):
            _write(target, key, old)
        self.changed = EVERY_CHECK
        return undone

    def redo(self, entries: list[tuple]) -> None:
        for target, key, _, new in entries:
            _write(target, key, new)
        self.entries.extend(entries)
        self.changed = EVERY_CHECK

    def record_item(self, mapping: dict, key, value) -> None:
        """Set `mapping[key]` (the game's object table), journaled."""
        self.entries.append((mapping, key, mapping.get(key, MISSING), value))
        _write(mapping, key, value)
        self.changed = EVERY_CHECK


def _write(target, key, value) -> None:
    if isinstance(target, dict):
        if value is MISSING:
            target.pop(key, None)
        else:
            target[key] = value
    elif value is MISSING:
        object.__delattr__(target, key)
    else:
        object.__setattr__(target, key, value)


class Journaled:
    """A piece of game state whose attribute writes are journaled once `adopt` ties it to a game's journal.

    A write of an equal value is not a change and is not recorded: a Cleanup that changes nothing leaves the
    journal as it was (322). State made during play (a combat, a chain item, a tuple of them) joins the journal
    when it is first written into journaled state."""

    _journal: Journal | None = None

    def __setattr__(self, name: str, value) -> None:
        journal = self._journal
        if journal is None:
            object.__setattr__(self, name, value)
            return
        attributes = self.__dict__  # game state is plain attributes (no descriptors): written directly, the hot path
        old = attributes.get(name, MISSING)
        if old is value or (type(old) is type(value) and old == value):
            return
        if isinstance(value, Journaled):
            if value._journal is None:
                value.adopt(journal)
        elif type(value) is tuple and value and isinstance(value[-1], Journaled):
            for part in value:
                if part._journal is None:
                    part.adopt(journal)
        journal.entries.append((self, name, old, value))
        journal.changed |= WATCHERS.get(name, 0)
        attributes[name] = value

    def adopt(self, journal: Journal) -> None:
        object.__setattr__(self, "_journal", journal)

    def change_label(self, key: str) -> tuple[str, str] | None:
        """How a write to `key` appears in a trace step's change: (what changed, which attribute), or None
        for engine bookkeeping that a reader need not see."""
        return None
