"""The Riftbound rules engine and the scenario library that replays the rulings.

`GameState` (state.py) holds the whole game: `push`, `pop`, `legal_actions`, `outcome`. The kernel
(kernel.py) dispatches every procedure and writes the trace; the rule modules in `rules/` are named after the
sections they implement (chain, cleanups, showdowns, combat, playing, abilities, triggers, replacement,
damage, movement, control, scoring, layers, targeting, turn, ...) and never import each other. Cards are data
(cards.yaml); scenarios are YAML files under library/, one per ruling, replayed by replay.py.
See README.md in this folder.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

LIBRARY_DIR = Path(str(resources.files("scenarios") / "library"))


def library_paths() -> list[Path]:
    """Every scenario file of the library, in ruling order."""
    return sorted(LIBRARY_DIR.glob("*.yaml"))
