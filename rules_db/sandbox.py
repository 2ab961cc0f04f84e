"""Running the engine for a page: in worker processes, each under a memory limit, with a deadline per call.

A scenario typed into a page (or a library scenario changed from one) is untrusted: the loader bounds its size
and the engine its steps and seconds, and this module bounds the rest. Each call goes to a warm worker process
(`python -m rules_db.sandbox`, started once, with `RLIMIT_AS` set and a lower priority than the server); a call
past its deadline gets its worker killed and replaced, and a worker that dies (out of memory, say) is replaced
too. Callers run `Sandbox.call` in a thread
(`asyncio.to_thread`), so the web server's event loop keeps answering other pages meanwhile.

A sandbox is named its worker module (`rules_db.replay_view` for the replay pages): the module whose
`WORKER_FUNCTIONS` a worker may run, after its `warm_up()`. The worker imports it by that name, so this module
imports nothing of its callers. Arguments and results are plain data.
"""

from __future__ import annotations

import atexit
import importlib
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any


class SandboxError(RuntimeError):
    """A call the sandbox could not complete; the message is for the judge who asked."""


@dataclass(frozen=True)
class SandboxLimits:
    workers: int = 2
    seconds: float = 6.0  # wall time of one call, after which its worker is killed
    wait: float = 10.0  # how long a call waits for a free worker
    startup: float = 120.0  # how long a new worker may take to import the engine and warm up
    memory_bytes: int = 768 * 1024 * 1024  # address space of one worker


class _Worker:
    """One worker: `python -m rules_db.sandbox` (a fresh interpreter that imports only the engine and this
    layer), talking over two pipes."""

    def __init__(self, module: str, limits: SandboxLimits):
        parent_read, child_write = os.pipe()
        child_read, parent_write = os.pipe()
        command = [
            sys.executable,
            "-m",
            "rules_db.sandbox",
            str(child_read),
            str(child_write),
            str(limits.memory_bytes),
            module,
        ]
        self.process = subprocess.Popen(command, pass_fds=(child_read, child_write), stdin=subprocess.DEVNULL)
        os.close(child_read)
        os.close(child_write)
        self.reader = Connection(parent_read, writable=False)
        self.writer = Connection(parent_write, readable=False)
        self.ready = False

    def wait_until_ready(self, seconds: float) -> None:
        """A new worker says when it has imported the engine; its first call's deadline starts after that."""
        if not self.ready:
            if not self.reader.poll(seconds):
                raise _Replace(f"the replay engine did not start within {seconds:g} s")
            self.reader.recv()
            self.ready = True

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=5)
        self.reader.close()
        self.writer.close()


class Sandbox:
    """A small pool of warm worker processes (see the module's docstring)."""

    def __init__(self, module: str, limits: SandboxLimits | None = None):
        self.module = module  # the worker module: its WORKER_FUNCTIONS are what a call may name
        self.limits = limits or SandboxLimits()
        self._idle: queue.Queue[_Worker] = queue.Queue()
        self._started = 0
        self._lock = threading.Lock()
        atexit.register(self.close)

    def start(self) -> None:
        """Spawn the workers now (a server does it at startup, so the first page does not wait for them)."""
        with self._lock:
            while self._started < self.limits.workers:
                self._idle.put(_Worker(self.module, self.limits))
                self._started += 1

    def call(self, function: str, **arguments: Any) -> Any:
        self.start()
        try:
            worker = self._idle.get(timeout=self.limits.wait)
        except queue.Empty:
            raise SandboxError("the server is busy replaying other scenarios: try again in a moment") from None
        try:
            worker.wait_until_ready(self.limits.startup)
            worker.writer.send((function, arguments))
            if not worker.reader.poll(self.limits.seconds):
                raise _Replace(f"the replay took longer than {self.limits.seconds:g} s and was stopped")
            status, value = worker.reader.recv()
        except (EOFError, OSError, _Replace) as error:
            worker.stop()
            worker = _Worker(self.module, self.limits)
            if isinstance(error, _Replace):
                raise SandboxError(str(error)) from None
            raise SandboxError("the replay used more memory than a page may and was stopped") from None
        finally:
            self._idle.put(worker)
        if status == "error":
            raise SandboxError(value)
        return value

    def close(self) -> None:
        while True:
            try:
                self._idle.get_nowait().stop()
            except queue.Empty:
                return


class _Replace(Exception):
    pass


def _serve(reader: Connection, writer: Connection, memory_bytes: int, module_name: str) -> None:
    """A worker's loop: run the named function of the worker module on each request until the parent goes away."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    os.nice(5)  # a replay yields the processor to the pages the server answers meanwhile
    module = importlib.import_module(module_name)
    functions: dict[str, Callable[..., Any]] = module.WORKER_FUNCTIONS
    module.warm_up()
    writer.send(("ready", None))
    while True:
        try:
            function, arguments = reader.recv()
        except (EOFError, OSError):
            return
        try:
            writer.send(("ok", functions[function](**arguments)))
        except MemoryError:
            return  # the parent sees the worker gone and replaces it
        except Exception as error:  # noqa: BLE001 - reported to the page, never a traceback
            writer.send(("error", f"{type(error).__name__}: {error}"))


if __name__ == "__main__":
    _serve(
        Connection(int(sys.argv[1]), writable=False),
        Connection(int(sys.argv[2]), readable=False),
        int(sys.argv[3]),
        sys.argv[4],
    )
