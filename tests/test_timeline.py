"""The build's timeline: a task's wrapper settles however its task ends, so no wait for it can block forever."""

from concurrent.futures import CancelledError, Future

import pytest

from rules_db.timeline import Timeline, _TimedTask


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
