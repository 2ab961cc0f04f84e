"""A request whose client has gone stops its SQLite work: the page is never read, so nothing should run for it.

Datasette runs every query of a page in a thread of its pool (``execute_fn``), and uvicorn lets a page run to its
end after the client has closed the connection, so a long search went on holding a thread (three of them stopped
every page for minutes). ``asgi_wrapper`` puts three pieces together:

- ``cancel_on_disconnect`` (the ASGI middleware) reads the server's ``receive()`` while the page runs, handing the
  page its messages; when the client disconnects before the response is complete, it cancels the page's task and
  its ``RequestWork``.
- ``CancellableExecutor`` replaces Datasette's thread pool: each task runs in the context of the request that
  submitted it (``REQUEST``, as ``asyncio.to_thread`` does), is skipped if that request is already cancelled, and
  marks its thread as working for the request meanwhile.
- ``adopt`` (called by the ``prepare_connection`` hook, in the thread that opens the connection) records each
  connection of a pool thread, so a cancellation interrupts the connections of the threads working for it.

``sqlite3_interrupt`` ends the statement running now; a statement started later on the same connection runs again,
so ``RequestWork.stop`` interrupts every ``INTERRUPT_EVERY`` seconds until the request's tasks have ended (the
Python between two statements cannot be interrupted, only the statements). A task of another request is never
interrupted: a thread is interrupted only while it is marked as working for the cancelled request, under a lock.
"""

from __future__ import annotations

import asyncio
import contextvars
import sqlite3
import threading
from concurrent.futures import Future, ThreadPoolExecutor

INTERRUPT_EVERY = 0.02  # seconds between two interruptions of a cancelled request's running statements
STOP_WAIT = 30.0  # seconds a cancelled request's tasks are interrupted at most (they end at their next statement)


class RequestCancelled(Exception):
    """The request that submitted this task has been cancelled (its client left) before the task started."""


class PoolThread:
    """One thread of the pool and the SQLite connections it has opened (Datasette keeps one per database)."""

    def __init__(self) -> None:
        self.connections: list[sqlite3.Connection] = []

    def interrupt(self) -> None:
        for connection in self.connections:
            connection.interrupt()  # sqlite3_interrupt may be called from any thread


class RequestWork:
    """The pool threads working for one request now, and whether its client has left."""

    def __init__(self) -> None:
        self.cancelled = False
        self.running: dict[PoolThread, int] = {}  # thread -> tasks of this request it is running
        self._lock = threading.Lock()

    def run(self, thread: PoolThread, fn, /, *args, **kwargs):
        with self._lock:
            if self.cancelled:
                raise RequestCancelled
            self.running[thread] = self.running.get(thread, 0) + 1
        try:
            return fn(*args, **kwargs)
        finally:
            with self._lock:
                self.running[thread] -= 1
                if not self.running[thread]:
                    del self.running[thread]

    def interrupt(self) -> bool:
        """Cancel the request and interrupt its running statements; whether any task of it is still running."""
        with self._lock:
            self.cancelled = True
            for thread in self.running:
                thread.interrupt()
            return bool(self.running)

    async def stop(self) -> None:
        """Cancel the request and interrupt its statements until its tasks have ended (or ``STOP_WAIT`` passed)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + STOP_WAIT
        while self.interrupt() and loop.time() < deadline:
            await asyncio.sleep(INTERRUPT_EVERY)


REQUEST: contextvars.ContextVar[RequestWork | None] = contextvars.ContextVar("request_work", default=None)
_this_thread = threading.local()


def _pool_thread() -> PoolThread:
    if not hasattr(_this_thread, "pool_thread"):
        _this_thread.pool_thread = PoolThread()
    return _this_thread.pool_thread


def adopt(connection: sqlite3.Connection) -> None:
    """Record ``connection`` as one of this pool thread's (nothing outside a ``CancellableExecutor`` thread)."""
    if getattr(_this_thread, "in_pool", False):
        _pool_thread().connections.append(connection)


class CancellableExecutor(ThreadPoolExecutor):
    """A thread pool whose tasks run in their request's context and stop with it (see the module's docstring)."""

    def submit(self, fn, /, *args, **kwargs) -> Future:
        return super().submit(contextvars.copy_context().run, self._run, fn, *args, **kwargs)

    @staticmethod
    def _run(fn, /, *args, **kwargs):
        _this_thread.in_pool = True
        work = REQUEST.get()
        if work is None:  # work of no request (startup, a test calling the database directly)
            return fn(*args, **kwargs)
        return work.run(_pool_thread(), fn, *args, **kwargs)


def cancel_on_disconnect(app):
    """ASGI middleware: an HTTP request runs as its own task, cancelled with its SQLite work when the client
    disconnects before the response is complete."""

    async def cancellable(scope, receive, send):
        if scope["type"] != "http":
            return await app(scope, receive, send)
        work = RequestWork()
        messages: asyncio.Queue = asyncio.Queue()
        response_complete = False

        async def sent(message) -> None:
            nonlocal response_complete
            await send(message)
            if message["type"] == "http.response.body" and not message.get("more_body", False):
                response_complete = True

        token = REQUEST.set(work)
        try:
            page = asyncio.ensure_future(app(scope, messages.get, sent))  # the task copies the context with REQUEST
        finally:
            REQUEST.reset(token)
        try:
            while True:
                receiving = asyncio.ensure_future(receive())
                await asyncio.wait({page, receiving}, return_when=asyncio.FIRST_COMPLETED)
                if page.done():
                    receiving.cancel()
                    return page.result()
                message = receiving.result()
                messages.put_nowait(message)
                if message["type"] != "http.disconnect":
                    continue
                if response_complete:  # the page has answered; let it finish as it would
                    return await page
                page.cancel()
                await work.stop()
                await asyncio.gather(page, return_exceptions=True)  # the page's own end, not logged
                return
        finally:
            if not page.done():  # this task itself was cancelled (the server is stopping)
                page.cancel()

    return cancellable


def install(datasette) -> None:
    """Datasette's thread pool replaced by a ``CancellableExecutor`` of the same size (no-op without threads)."""
    if datasette.executor is not None and not isinstance(datasette.executor, CancellableExecutor):
        datasette.executor.shutdown(wait=False)
        datasette.executor = CancellableExecutor(max_workers=datasette.setting("num_sql_threads"))
