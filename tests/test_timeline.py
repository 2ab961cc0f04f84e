"""The build's timeline: a task's wrapper settles however its task ends, so no wait for it can block forever; a
movable task still queued is run by the process that waits for it."""

import threading
from concurrent.futures import CancelledError, Future, ThreadPoolExecutor

import pytest

from rules_db.timeline import TAKEN_OVER, Timeline, _TimedTask


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
        threading.Timer(0.2, release.set).start()
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
        threading.Timer(0.2, release.set).start()
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
