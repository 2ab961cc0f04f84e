"""The refined order: the cross-encoder (``models.cross_encoder``) reads the question with each of the first results of
the fused response and orders them again, its score fused with their first order (``refined``).

A server runs it in bounded capacity (``Refiner``): a fixed number of worker threads at a lower scheduling priority
than the pages' threads, and a bounded queue, so a flood of refine requests is answered "busy" rather than queued
without end and never takes the processor from page requests; a request whose client has left is cancelled (a job
not started is dropped; a running one stops at its next batch of texts).
"""

from __future__ import annotations

import contextlib
import os
import queue
import sqlite3
import threading
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field

from rules_db.search import models
from rules_db.search.index_format import embedded_text

CANDIDATES = 3  # the first results the cross-encoder reads again
BATCH = 4  # texts scored at once: a cancelled job stops between two batches
# The refined score: the cross-encoder's logit plus PRIOR_WEIGHT / (its first-order rank): the fused order keeps a
# say where the cross-encoder hesitates (chosen on the tuning questions only, bench_semantic.py --tune-refine). Since
# the fused order lends the rules that matching rulings cite their scores, no pool (3-20) and no weight of the grid
# lets the cross-encoder (ms-marco-MiniLM-L-12-v2) beat it on the tuning questions; at 64 over 3 candidates it can
# only swap the second and third (a logit apart by more than 10), so the refined order is never worse than the fused.
PRIOR_WEIGHT = 64.0
MAX_TEXT_CHARACTERS = 1200


class RefineCancelled(Exception):
    """The request that asked for the refined order has gone."""


class RefineBusy(Exception):
    """Every worker is busy and the queue is full: the fused order stands."""


def candidate_texts(conn: sqlite3.Connection, hits: Sequence[dict]) -> list[str]:
    """The text the cross-encoder reads of each hit (``kind``, ``id`` as /search.json gives them)."""
    if not hits:
        return []
    keys = [(hit["kind"], hit["id"]) for hit in hits]
    found = {}
    for kind in {kind for kind, _ref in keys}:
        refs = [ref for other, ref in keys if other == kind]
        for ref_id, title, terms, path, body in conn.execute(
            f"""select ref_id, title, terms, path, body from search_documents
            where kind = ? and ref_id in ({",".join("?" * len(refs))})""",
            [kind, *refs],
        ):
            found[(kind, ref_id)] = embedded_text(title, terms, path, body)[:MAX_TEXT_CHARACTERS]
    return [found.get(key, "") for key in keys]


def scores(question: str, texts: Sequence[str], cancelled: threading.Event | None = None) -> list[float]:
    """The cross-encoder's logit of each text for the question, a batch at a time."""
    encoder = models.cross_encoder()
    if encoder is None:
        raise models.ModelUnavailable(models.unavailable("cross-encoder") or "the cross-encoder cannot be loaded")
    out: list[float] = []
    for start in range(0, len(texts), BATCH):
        if cancelled is not None and cancelled.is_set():
            raise RefineCancelled
        out += encoder.score(question, texts[start : start + BATCH])
    return out


def refined(logits: Sequence[float], prior_weight: float = PRIOR_WEIGHT) -> list[int]:
    """The positions of the candidates (given in their first order) in the refined order."""
    return sorted(range(len(logits)), key=lambda index: -(logits[index] + prior_weight / (index + 1)))


@dataclass
class _Job:
    question: str
    texts: list[str]
    future: Future = field(default_factory=Future)
    cancelled: threading.Event = field(default_factory=threading.Event)


class Refiner:
    """Bounded capacity for refined orders (see the module's docstring)."""

    def __init__(self, workers: int = 1, waiting: int = 4, niceness: int = 10):
        self.workers, self.niceness = workers, niceness
        self._jobs: queue.Queue[_Job] = queue.Queue(maxsize=waiting)
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self.running = 0  # jobs being scored now (for the tests and the benchmark)

    def submit(self, question: str, texts: list[str]) -> _Job:
        """Queue a job; ``RefineBusy`` when the queue is full."""
        self._start()
        job = _Job(question, texts)
        try:
            self._jobs.put_nowait(job)
        except queue.Full:
            raise RefineBusy from None
        return job

    def _start(self) -> None:
        with self._lock:
            while len(self._threads) < self.workers:
                thread = threading.Thread(target=self._work, name="search-refiner", daemon=True)
                thread.start()
                self._threads.append(thread)

    def _work(self) -> None:
        # This thread yields the processor to the server's other threads (Linux: a thread's own niceness).
        with contextlib.suppress(AttributeError, OSError):
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), self.niceness)
        while True:
            job = self._jobs.get()
            if job.cancelled.is_set() or not job.future.set_running_or_notify_cancel():
                continue
            with self._lock:
                self.running += 1
            try:
                job.future.set_result(scores(job.question, job.texts, job.cancelled))
            except BaseException as error:  # noqa: BLE001 - handed to the waiting request
                job.future.set_exception(error)
            finally:
                with self._lock:
                    self.running -= 1


def apply(result: dict, logits: Sequence[float], prior_weight: float = PRIOR_WEIGHT) -> dict:
    """``result`` (a first page of /search.json) with its first results in the refined order."""
    count = len(logits)
    first = result["results"][:count]
    result["results"][:count] = [first[index] for index in refined(logits, prior_weight)]
    result["refined"] = True
    return result


def refine_in_process(conn: sqlite3.Connection, result: dict, candidates: int = CANDIDATES) -> dict:
    """The refined order computed here and now (the benchmark, a script): no bounded capacity."""
    if result.get("page", 1) != 1 or not result["results"]:
        return result
    hits = result["results"][:candidates]
    return apply(result, scores(result["query"]["searched"], candidate_texts(conn, hits)))
