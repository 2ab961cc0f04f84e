"""The build's timeline: a task's wrapper settles however its task ends, so no wait for it can block forever; a
movable task still queued is run by the process that waits for it."""

import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import pytest

from rules_db.timeline import TAKEN_OVER, Timeline, _TimedTask


def _release_when_waited(timeline: Timeline, release: Callable[[], None]) -> None:
    """Call ``release`` as soon as this process starts waiting for a task (a "wait for" stage): the task that
    holds the executor ends only once a wait has begun, however late the waiting thread gets to run."""
    stage = timeline.stage

    @contextmanager
    def releasing(name: str):
        with stage(name):
            if name.startswith("wait for "):
                release()
            yield

    timeline.stage = releasing


def _wrapped(timeline: Timeline) -> tuple[Future, _TimedTask]:
    timed, task = Future(), _TimedTask(timeline, "a task")
    timed.add_done_callback(task.settle)
    return timed, task


def test_a_cancelled_task_cancels_the_wait_for_its_result():
    timed, task = _wrapped(Timeline())
    timed.cancel()
    with pytest.raises(CancelledError):
        task.result(timeout=5)


def test_a_failed_task_raises_its_error_where_its_result_is_awaited():
    timed, task = _wrapped(Timeline())
    timed.set_exception(ValueError("bad row"))
    with pytest.raises(ValueError, match="bad row"):
        task.result(timeout=5)


def test_a_movable_task_still_queued_runs_where_its_result_is_awaited():
    """While the executor is busy, waiting for a movable task runs it here (once), and the timeline says so."""
    timeline, release = Timeline(), threading.Event()
    with ThreadPoolExecutor(max_workers=1) as executor:
        busy = timeline.submit(executor, "busy", release.wait, 5)
        calls: list[int] = []
        moved = timeline.submit(executor, "moved", calls.append, 1, movable=True)
        assert moved.result(timeout=5) is None and calls == [1]
        release.set()
        assert busy.result(timeout=5) is True
    assert calls == [1]  # the executor never ran it too
    stages = [span.stage for span in timeline.spans]
    assert f"moved{TAKEN_OVER}" in stages and "busy" in stages and "moved" not in stages
    assert "wait for moved" not in stages


def test_a_task_that_is_not_movable_is_waited_for():
    timeline, release = Timeline(), threading.Event()
    with ThreadPoolExecutor(max_workers=1) as executor:
        timeline.submit(executor, "busy", release.wait, 5)
        queued = timeline.submit(executor, "queued", threading.get_ident)
        _release_when_waited(timeline, release.set)
        assert queued.result(timeout=5) != threading.get_ident()  # the executor's thread ran it
    assert "wait for queued" in [span.stage for span in timeline.spans]


def test_a_movable_task_the_executor_started_is_not_run_again():
    timeline, started, release = Timeline(), threading.Event(), threading.Event()
    calls: list[int] = []

    def run() -> int:
        calls.append(1)
        started.set()
        release.wait(5)
        return len(calls)

    with ThreadPoolExecutor(max_workers=1) as executor:
        running = timeline.submit(executor, "running", run, movable=True)
        started.wait(5)
        _release_when_waited(timeline, release.set)
        assert running.result(timeout=5) == 1
    assert calls == [1]


def test_a_movable_task_that_fails_here_raises_where_its_result_is_awaited():
    timeline, release = Timeline(), threading.Event()
    with ThreadPoolExecutor(max_workers=1) as executor:
        timeline.submit(executor, "busy", release.wait, 5)
        failing = timeline.submit(executor, "failing", int, "not a number", movable=True)
        with pytest.raises(ValueError):
            failing.result(timeout=5)
        release.set()


def _record_run(runs: Path, number: int) -> tuple[int, int]:
    """A movable task of the process-pool test: notes each run of it in ``runs`` (whichever process runs it);
    its number and the process that ran it."""
    with runs.open("a") as log:
        log.write(f"{number}\n")
    return number, os.getpid()


def _hold_until(flag: Path, timeout: float) -> int:
    """Keep the executor's one process busy until ``flag`` exists; that process's id."""
    deadline = time.monotonic() + timeout
    while not flag.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    return os.getpid()


def test_movable_tasks_of_a_process_pool_each_give_their_result_once_in_order(tmp_path):
    """The build's executor: a process pool, whose first max_workers + 1 queued items are already in its call
    queue (they cannot be cancelled: that process runs them) and whose callbacks run in its management thread.
    While its one process is busy, the tasks past the call queue are taken over here; every task's result
    arrives exactly once, in order, whichever process ran it, and the timeline has one span for each."""
    timeline, runs, flag = Timeline(), tmp_path / "runs", tmp_path / "release"
    _release_when_waited(timeline, flag.touch)
    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("fork")) as executor:
        try:
            busy = timeline.submit(executor, "busy", _hold_until, flag, 120)
            tasks = [timeline.submit(executor, f"task {n}", _record_run, runs, n, movable=True) for n in range(4)]
            results = [task.result(timeout=60) for task in tasks]
            worker = busy.result(timeout=60)
        finally:
            flag.touch()
    assert [number for number, _ in results] == [0, 1, 2, 3]
    assert sorted(runs.read_text().split()) == ["0", "1", "2", "3"]  # neither process ran a task twice
    here = os.getpid()
    assert {pid for _, pid in results} <= {here, worker} and worker != here
    assert [pid for _, pid in results[2:]] == [here, here]  # past the call queue while the process was busy
    for number, pid in results:
        spans = [span for span in timeline.spans if span.stage in (f"task {number}", f"task {number}{TAKEN_OVER}")]
        assert len(spans) == 1, spans
        assert spans[0].pid == pid and spans[0].stage.endswith(TAKEN_OVER) == (pid == here)
