"""What the read-card tests share: every card of the real database read as the reader reads it now (a mutant of
the reader in place), and the read-card disputes' verdicts with those cards, each dispute's variants included."""

from __future__ import annotations

import copy
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rules_db import card_readings, guard
from scenarios import schema
from scenarios.card_reader import read_card, readers
from scenarios.cards import UnknownCard, use_read_cards
from scenarios.replay import replay_file, replay_variant
from scenarios.schema import ScenarioError


def read_every_card(db_path: Path) -> dict[str, dict]:
    """Each card the reader reads fully, by name, as its definition."""
    conn = guard.read_only(db_path)
    conn.row_factory = sqlite3.Row
    try:
        rows = [dict(row) for row in conn.execute(card_readings._CARDS, ["riftbound"])]
    finally:
        conn.close()
    definitions = {}
    for row in rows:
        reading = read_card(card_readings.card_text(row))
        if reading.status == "read":
            definitions[row["name"]] = reading.definition
    return definitions


def verdicts_with(definitions: dict[str, dict], disputes: list[Path]) -> list[str]:
    """Each dispute's verdict and its variants' with these read cards in the engine; a dispute naming a card they
    leave unread is a mismatch as surely (it can't be judged with it)."""
    use_read_cards(definitions)
    verdicts = []
    try:
        for path in disputes:
            try:
                verdicts.append(replay_file(path).verdict)
                scenario, _ = schema.load(path)
                verdicts += [replay_variant(path, v.id).verdict for v in scenario.variants]
            except (ScenarioError, UnknownCard):  # a card the reader (or a mutant of it) leaves unread
                verdicts.append("mismatch")
    finally:
        use_read_cards({})
    return verdicts


def read_every_card_changed(db_path: Path, change: Callable[[dict], None]) -> dict[str, dict]:
    """Every card read, with `change` applied to each mapping inside each definition (a mutant of the readings made
    after the reader has run)."""
    return {name: _walk(copy.deepcopy(definition), change) for name, definition in read_every_card(db_path).items()}


def _walk(value: Any, change: Callable[[dict], None]) -> Any:
    if isinstance(value, dict):
        change(value)
        for item in value.values():
            _walk(item, change)
    elif isinstance(value, list):
        for item in value:
            _walk(item, change)
    return value


def swap_reader(monkeypatch, original: Callable[..., bool], replacement: Callable[..., bool]) -> None:
    """A mutant of one paragraph reader: `replacement` tried where `original` is, in `readers.READERS`."""
    swapped = [(stage, replacement if read is original else read) for stage, read in readers.READERS]
    assert swapped != readers.READERS, f"{original.__name__} is not a registered paragraph reader"
    monkeypatch.setattr(readers, "READERS", swapped)
