"""The cyclic garbage collector paused while the engine builds something that all stays alive."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for one replay, or one scenario's load (reference counting still
    frees everything).

    What a replay allocates (trace steps, journal entries) lives as long as the replay, and what a load builds
    (the parsed document, the validated scenario) as long as the scenario, so the collector's full passes, each
    over the whole growing heap, free nothing and made the cost per action grow with the game's length
    (benchmarks/bench_replay.py: a 20,000-action file's load spent a third of its time in six full passes).

    When the collector resumes, what it made is handed to its oldest generation untouched (`gc.freeze`
    then `gc.unfreeze`): resumed as it was, its first young pass would walk every object it made, all
    still alive (the Replay keeps its game), at some 25 us per action. The oldest generation's full passes still
    walk them, and free a dropped game (its objects and its journal refer to each other). When something is
    frozen for good already (a served worker freezes what it warmed up), the hand-off is skipped: `gc.unfreeze`
    would release that too, and bring back the full passes over it that the freeze took out of the pages."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            if not gc.get_freeze_count():
                gc.freeze()
                gc.unfreeze()
            gc.enable()
