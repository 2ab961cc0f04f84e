"""The undo journal: every write to the game state is recorded, so any earlier state comes back in one step.

A game object (a `Journaled` dataclass adopted by a game) records each attribute write as an entry
``(target, key, old, new)``; so does the game's `objects` dictionary when an object is created.
`Journal.rewind(mark)` undoes the writes made since `mark` and hands them back; `Journal.redo(entries)`
applies them again. `GameState.pop()` is one rewind (and, after an answered choice, one redo), and a
trace step's `change` is the journal entries written while the step was open.

Lists inside the state are tuples that are replaced on change, so a list change is one recorded write.
"""

from __future__ import annotations

from typing import Any

MISSING: Any = type("Missing", (), {"__repr__": lambda self: "MISSING"})()


class Journal:
    __slots__ = ("entries",)

    def __init__(self) -> None:
        self.entries: list[tuple] = []

    def mark(self) -> int:
        return len(self.entries)

    def rewind(self, mark: int) -> list[tuple]:
        """Undo every write made since `mark`, newest first; returns the undone entries (oldest first)."""
        undone = self.entries[mark:]
        del self.entries[mark:]
        for target, key, old, _ in reversed(undone):
            _write(target, key, old)
        return undone

    def redo(self, entries: list[tuple]) -> None:
        for target, key, _, new in entries:
            _write(target, key, new)
        self.entries.extend(entries)

    def record_item(self, mapping: dict, key, value) -> None:
        """Set `mapping[key]` (the game's object table), journaled."""
        self.entries.append((mapping, key, mapping.get(key, MISSING), value))
        _write(mapping, key, value)


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
    journal as it was (321). State made during play (a combat, a chain item, a tuple of them) joins the journal
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
        attributes[name] = value

    def adopt(self, journal: Journal) -> None:
        object.__setattr__(self, "_journal", journal)

    def change_label(self, key: str) -> tuple[str, str] | None:
        """How a write to `key` appears in a trace step's change: (what changed, which attribute), or None
        for engine bookkeeping that a reader need not see."""
        return None
