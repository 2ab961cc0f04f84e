"""Where a build runs and what it leaves: the second process that works beside it, and the temporary database
file it writes before renaming it over the target.

A build writes a temporary file beside the target and renames it over it only when everything succeeded, so a failed
build leaves the previous database exactly as it was. The file's name carries the building process's id: one left
behind by a killed build is removed by the second process as the builder dies, or by the next build.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import tempfile
import time
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path


class InThisProcess(Executor):
    """Runs each task as it is submitted: the build in one process."""

    def submit(self, fn, /, *args, **kwargs) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as error:
            future.set_exception(error)
        return future


def second_process(processes: int, temp_path: str) -> Executor:
    """Where the work that needs nothing from the database being written runs: a second process (forked,
    so it starts with this one's modules loaded; tasks and results travel as plain data), or this one."""
    if processes < 2:
        return InThisProcess()
    return ProcessPoolExecutor(
        max_workers=processes - 1,
        mp_context=multiprocessing.get_context("fork"),
        initializer=_ends_with_its_builder,
        initargs=(temp_path, os.getpid()),
    )


_PR_SET_PDEATHSIG = 1  # linux/prctl.h
BUILDER_EXIT_WAIT = 5.0  # seconds a second process waits for its signalled builder to be gone


def _gone(pid: int) -> bool:
    """Whether the process has ended: no such process, or one that only waits to be reaped (a zombie)."""
    if not _running(pid):
        return True
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except (OSError, IndexError):
        return False


def _ends_with_its_builder(temp_path: str, builder: int) -> None:
    """The second process ends when the building process does, however that one ends (kill -9 included, which
    runs none of its clean-up): the kernel sends it SIGTERM (Linux's parent-death signal), and it removes the
    temporary database the build left, so neither a process nor a file outlives a killed build. Elsewhere the next
    build removes the file (``remove_stale_builds``)."""

    def clean_up(signum, frame) -> None:
        # The signal comes as the builder's thread that forked this process ends: its other threads may still be
        # ending (the process not gone yet), so give it a moment before telling a dying builder from a live one.
        deadline = time.monotonic() + BUILDER_EXIT_WAIT
        while not _gone(builder) and time.monotonic() < deadline:
            time.sleep(0.01)
        if _gone(builder):
            for leftover in (temp_path, f"{temp_path}-journal"):
                Path(leftover).unlink(missing_ok=True)
        os._exit(1)

    signal.signal(signal.SIGTERM, clean_up)
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):  # not Linux: the next build removes what a killed one left
        return
    if _gone(builder):  # the builder died before the signal was asked for
        clean_up(signal.SIGTERM, None)


# A temporary build file whose owner is still running is left alone unless it is older than this (the owner's
# id may have been reused by another process since).
STALE_BUILD_SECONDS = 3600


@contextmanager
def temporary_database(db_path: Path):
    """Yields a temporary path beside db_path and a commit() that renames it over db_path."""
    remove_stale_builds(db_path)
    handle, temp_name = tempfile.mkstemp(
        prefix=_temporary_prefix(db_path, os.getpid()), suffix=".building", dir=db_path.parent
    )
    os.close(handle)
    os.unlink(temp_name)
    committed = False

    def commit() -> None:
        nonlocal committed
        os.replace(temp_name, db_path)
        committed = True

    try:
        yield temp_name, commit
    finally:
        for leftover in ([] if committed else [temp_name]) + [f"{temp_name}-journal"]:
            if os.path.exists(leftover):
                os.unlink(leftover)


def _temporary_prefix(db_path: Path, pid: int) -> str:
    return f".{db_path.name}.{pid}."


def remove_stale_builds(db_path: Path) -> list[Path]:
    """Remove the temporary files (and their SQLite journals) of builds of ``db_path`` that were killed before
    they could clean up: those whose building process is gone, or that are older than ``STALE_BUILD_SECONDS``."""
    removed = []
    for path in db_path.parent.glob(f".{db_path.name}.*.building*"):
        owner = path.name.removeprefix(f".{db_path.name}.").split(".", 1)[0]
        try:
            age = time.time() - path.stat().st_mtime
        except FileNotFoundError:  # its build finished meanwhile
            continue
        if owner.isdigit() and _running(int(owner)) and age < STALE_BUILD_SECONDS:
            continue
        path.unlink(missing_ok=True)
        removed.append(path)
    return removed


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True
