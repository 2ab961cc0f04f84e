"""The Riftbound rules engine and the scenario library that replays the rulings.

`GameState` (state.py) holds the whole game; `push`/`pop` apply and undo actions.
Engine modules are named after the rule sections they implement: chain.py (326-336),
cleanups.py (318-323), showdowns.py (337-345), playing.py (346-356, 369-394),
replacement.py (364-368), triggers.py (375-385), damage.py (404-415), movement.py
(423-436), combat.py (437-444), scoring.py (445-449), layers.py (450-457),
control.py (182-184), turn.py (314-317). Cards are data (cards.yaml); scenarios are
YAML files under library/, one per ruling, replayed by replay.py.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

LIBRARY_DIR = Path(str(resources.files("scenarios") / "library"))


def library_paths() -> list[Path]:
    """Every scenario file of the library, in ruling order."""
    return sorted(LIBRARY_DIR.glob("*.yaml"))
