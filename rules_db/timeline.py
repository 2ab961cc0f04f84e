"""When each stage of a build ran, in which process, and what CPU it cost: the build's timeline.

A build runs in two processes (``rules_db.build``): the first parses, writes, links and indexes; the second
tags text, matches the versions' lineage and replays the scenarios. A flat profile hides which of them waits
for the other; the timeline shows it: every stage of the first process, every task of the second, and every
time the first waited for a task's result, each with its start and end (``time.perf_counter``, one clock for
every process of the machine) and the CPU seconds of the process that ran it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from contextlib import contextmanager
from dataclasses import dataclass


@dataclass(frozen=True)
class Span:
    """One stretch of a build's work: what ran, in which process (its id), when, and its CPU seconds."""

    stage: str
    pid: int
    start: float
    end: float
    cpu: float

    @property
    def seconds(self) -> float:
        return self.end - self.start


class Timeline:
    """The spans of one build, recorded as they end."""

    def __init__(self) -> None:
        self.spans: list[Span] = []
        self.movable: list[_TimedTask] = []  # submitted tasks this process may take over, the last submitted last

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        """A stage of this process."""
        start, cpu = time.perf_counter(), time.process_time()
        try:
            yield
        finally:
            self.spans.append(Span(name, os.getpid(), start, time.perf_counter(), time.process_time() - cpu))

    def submit(self, executor: Executor, name: str, fn: Callable, *args, movable: bool = False) -> Future:
        """``fn(*args)`` run by ``executor``, timed where it runs; waiting for its result is timed here. A
        ``movable`` task needs nothing that only the executor's process holds: this process may run it instead
        (``take_over``) while the executor has not started it."""
        task = _TimedTask(self, name, (fn, args) if movable else None)
        task.timed = executor.submit(_timed_call, name, fn, *args)
        task.timed.add_done_callback(task.settle)
        if movable:
            self.movable.append(task)
        return task

    def take_over(self) -> bool:
        """Run here the last movable task the executor has not started yet, if there is one."""
        while self.movable:
            if self.movable.pop().run_here():
                return True
        return False


class _TimedTask(Future):
    """A task's result: the span of its run joins the timeline when it is done, and every wait for its result
    that blocks joins it as a span of the waiting process; before blocking, the waiting process takes over the
    movable tasks still queued (``Timeline.take_over``)."""

    def __init__(self, timeline: Timeline, name: str, call: tuple[Callable, tuple] | None = None):
        super().__init__()
        self.timeline, self.name = timeline, name
        self.call = call  # what to run, for a task this process may take over
        self.timed: Future | None = None  # the executor's future, while this process may still take the task over
        self.taken_over = False

    def run_here(self) -> bool:
        """Run the task in this process, if the executor has not started it (its future is then cancelled)."""
        timed, call = self.timed, self.call  # read once: the executor's thread clears them when the task ends there
        if timed is None or call is None:
            return False
        self.taken_over = True  # before cancelling: cancel() calls settle at once, which leaves the task to run here
        if not timed.cancel():
            self.taken_over = False
            return False
        self.timed = self.call = None
        fn, args = call
        try:
            value, span = _timed_call(f"{self.name}{TAKEN_OVER}", fn, *args)
        except Exception as error:
            self.set_exception(error)
        else:
            self.timeline.spans.append(span)
            self.set_result(value)
        return True

    def settle(self, timed: Future) -> None:
        if timed.cancelled():  # exception() would raise inside this callback, leaving every waiter blocked
            if self.taken_over:  # run_here runs it
                return
            self.cancel()
            self.set_running_or_notify_cancel()
            return
        self.timed = self.call = None
        if error := timed.exception():
            self.set_exception(error)
            return
        value, span = timed.result()
        self.timeline.spans.append(span)
        self.set_result(value)

    def result(self, timeout: float | None = None):
        while not self.done() and self.timeline.take_over():
            pass
        if self.done():
            return super().result(timeout)
        with self.timeline.stage(f"wait for {self.name}"):
            return super().result(timeout)


# Marks a task the first process took over: its span lies within one of that process's stages, as a wait does.
TAKEN_OVER = " (taken over)"


def _timed_call(name: str, fn: Callable, *args):
    """``fn(*args)`` and the span of its run (in whatever process runs it)."""
    timeline = Timeline()
    with timeline.stage(name):
        value = fn(*args)
    return value, timeline.spans[0]


def table(spans: list[Span], first_pid: int) -> str:
    """The spans as a table, in the order they started, times from the first start; then each process's
    CPU seconds and its seconds spent waiting for the other."""
    origin = min(span.start for span in spans)
    lines = [f"{'process':<8} {'stage':<38} {'start':>7} {'end':>7} {'wall':>7} {'cpu':>7}"]
    for span in sorted(spans, key=lambda span: span.start):
        process = "first" if span.pid == first_pid else "second"
        lines.append(
            f"{process:<8} {span.stage:<38} {span.start - origin:7.3f} {span.end - origin:7.3f} "
            f"{span.seconds:7.3f} {span.cpu:7.3f}"
        )
    for pid in dict.fromkeys(span.pid for span in spans):
        own = [span for span in spans if span.pid == pid]
        waits = [span for span in own if span.stage.startswith("wait for ")]
        within = waits + [span for span in own if span.stage.endswith(TAKEN_OVER)]  # each lies within a stage
        cpu = sum(span.cpu for span in own if span not in within)
        lines.append(
            f"{'first' if pid == first_pid else 'second'} process: cpu {cpu:.3f} s, "
            f"waiting {sum(span.seconds for span in waits):.3f} s"
        )
    return "\n".join(lines)
