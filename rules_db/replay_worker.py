"""What a replay sandbox's worker runs (rules_db/sandbox.py names this module, and imports nothing back).

The replay pages' `view` (rules_db/replay_view.py) and the dispute builder's `legal` and `attempt`
(rules_db/dispute.py) run the engine on a scenario a judge typed in or changed: in a worker process, under its
memory limit and deadline. Arguments and results are plain data.
"""

from __future__ import annotations

from collections.abc import Callable

from rules_db.dispute import NEW_DISPUTE, attempt, legal
from rules_db.replay_view import view


def warm_up() -> None:
    """Load what every replay needs (the card library, the rule modules, the models) once per worker."""
    view(NEW_DISPUTE, "warm-up")


WORKER_FUNCTIONS: dict[str, Callable[..., dict]] = {"view": view, "legal": legal, "attempt": attempt}
