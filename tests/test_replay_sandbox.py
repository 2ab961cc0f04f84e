"""The sandbox that runs the engine for pages (rules_db/sandbox.py): a call past its deadline ends with a clear
error and a fresh worker, and the next call is answered; a worker's error comes back as a message."""

from __future__ import annotations

import dataclasses

import pytest

from rules_db import dispute
from rules_db.sandbox import Sandbox, SandboxError, SandboxLimits
from scenarios import library_paths


@pytest.fixture(scope="module")
def sandbox():
    started = Sandbox("rules_db.replay_worker", SandboxLimits(workers=1))
    yield started
    started.close()


def test_a_call_past_its_deadline_kills_its_worker_and_the_next_call_is_answered(sandbox):
    text = next(path for path in library_paths() if path.name.startswith("ruling-19-")).read_text(encoding="utf-8")
    assert sandbox.call("view", text=text, source="first")["steps"]  # started and warm
    (worker,) = list(sandbox._idle.queue)
    sandbox.limits = dataclasses.replace(sandbox.limits, seconds=0.001)
    with pytest.raises(SandboxError, match="took longer than 0.001 s and was stopped"):
        sandbox.call("view", text=text, source="again")
    assert worker.process.poll() is not None  # killed
    sandbox.limits = dataclasses.replace(sandbox.limits, seconds=60)
    (fresh,) = list(sandbox._idle.queue)
    assert fresh is not worker
    assert sandbox.call("view", text=text, source="after")["steps"]


def test_errors_in_a_worker_come_back_as_messages(sandbox):
    with pytest.raises(SandboxError, match="TypeError"):
        sandbox.call("view", text=dispute.NEW_DISPUTE)  # no source: the function's own error
    problem = sandbox.call("view", text="meta: [", source="typed")["error"]
    assert problem["line"] in (1, 2) and problem["field"] == "(yaml)"
