"""A request whose client leaves stops its SQLite work (``datasette_plugins.cancellation``): through uvicorn on a
real socket, and the thread pool on its own."""

from __future__ import annotations

import asyncio
import contextvars
import logging
import socket
import sqlite3
import threading
import time

import pytest
import uvicorn
from servers import in_process

from datasette_plugins import cancellation
from rules_db.search import answer

# A query that runs for minutes unless it is interrupted: it counts to ten billion.
ENDLESS = "with recursive c(x) as (select 1 union all select x + 1 from c) select count(*) from c where x < 1e10"

COUNT_TO_A_HUNDRED_THOUSAND = (
    "with recursive c(x) as (select 1 union all select x + 1 from c where x < 1e5) select count(*) from c"
)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class SlowSearch:
    """``answer._search`` preceded by ``ENDLESS`` on the search's own connection: a search that runs until its
    time budget (20 s). Records when that query ended and how."""

    def __init__(self, monkeypatch, budget: float = 20):
        self.started, self.ended = threading.Event(), threading.Event()
        self.error: BaseException | None = None
        self.ended_at = 0.0
        search = answer._search

        def slow_search(conn, *args):
            self.started.set()
            try:
                conn.execute(ENDLESS).fetchall()
            except sqlite3.OperationalError as error:
                self.error = error
                raise
            finally:
                self.ended_at = time.monotonic()
                self.ended.set()
            return search(conn, *args)

        monkeypatch.setattr(answer, "_search", slow_search)
        monkeypatch.setattr(answer, "TIME_BUDGET", budget)  # by default far past the second the test allows


@pytest.fixture
async def server(fixture_db):
    """uvicorn serving Datasette on the fixture with ONE thread for SQL: a query left running would hold every
    page up."""
    datasette = in_process(fixture_db, num_sql_threads=1)
    port = _free_port()
    uvicorn_server = uvicorn.Server(uvicorn.Config(datasette.app(), port=port, log_level="warning", lifespan="off"))
    serving = asyncio.create_task(uvicorn_server.serve())
    while not uvicorn_server.started:
        await asyncio.sleep(0.02)
    yield port
    uvicorn_server.should_exit = True
    await serving


async def _get(port: int, path: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".encode())
    await writer.drain()
    return reader, writer


async def test_a_search_whose_client_leaves_stops_and_the_server_keeps_answering(server, monkeypatch, caplog):
    slow = SlowSearch(monkeypatch)
    _, writer = await _get(server, "/search?q=combat+damage")
    assert await asyncio.to_thread(slow.started.wait, 10)
    writer.close()  # the judge closed the tab
    left_at = time.monotonic()
    assert await asyncio.to_thread(slow.ended.wait, 5), "the search's query went on after its client left"
    assert slow.ended_at - left_at < 2.0  # its budget was 20 s (a busy machine may take a moment to notice)
    assert "interrupted" in str(slow.error)

    monkeypatch.undo()  # the next search is an ordinary one, on the one SQL thread the slow one held
    reader, writer = await _get(server, "/search?q=combat+damage")
    answer = await asyncio.wait_for(reader.read(), timeout=10)
    writer.close()
    assert answer.startswith(b"HTTP/1.1 200") and b"combat" in answer
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
    assert "Traceback" not in caplog.text


async def test_a_page_read_to_its_end_is_not_cancelled(server):
    reader, writer = await _get(server, "/search?q=combat+damage")
    answer = await asyncio.wait_for(reader.read(), timeout=10)
    writer.close()
    assert answer.startswith(b"HTTP/1.1 200") and answer.endswith(b"</html>\r\n0\r\n\r\n")  # the whole page


async def test_a_search_past_its_time_budget_says_so(fixture_db, monkeypatch):
    """Its client still there, the search is stopped by its own budget: the page says so (it was a 500)."""
    slow = SlowSearch(monkeypatch, budget=0.2)
    datasette = in_process(fixture_db)
    response = await datasette.client.get("/search?q=combat+damage")
    assert response.status_code == 200
    assert "Try a shorter question" in response.text and "interrupted" in str(slow.error)


def test_a_search_waiting_for_the_cpu_is_not_charged_for_the_wait(fixture_db, monkeypatch):
    """On a loaded machine a search's thread waits for the CPU far longer than it works: the budget counts only the
    work, so the question is answered (under a load of 20 a cold server's first search was cut to no results)."""
    search = answer._search

    def descheduled_search(conn, *args):
        time.sleep(0.8)  # waiting, as a thread does on a busy machine: no CPU spent
        conn.execute(
            COUNT_TO_A_HUNDRED_THOUSAND
        ).fetchone()  # steps enough for the budget to be checked, a few ms of CPU
        return search(conn, *args)

    monkeypatch.setattr(answer, "_search", descheduled_search)
    monkeypatch.setattr(answer, "TIME_BUDGET", 0.5)
    conn = sqlite3.connect(fixture_db)
    try:
        assert answer.search(conn, "combat damage")["total"] > 0
        # ... up to a limit on the clock: a search waiting on something (a cold disk) holds its thread no longer
        monkeypatch.setattr(answer, "WAIT_BUDGET", 0.5)
        with pytest.raises(answer.SearchTooSlow, match="s in all"):
            answer.search(conn, "combat damage")
    finally:
        conn.close()


def _submit(executor, work: cancellation.RequestWork | None, fn):
    """``fn`` submitted to ``executor`` by ``work``'s request (as the ASGI middleware's task would)."""
    context = contextvars.copy_context()
    context.run(cancellation.REQUEST.set, work)
    return context.run(executor.submit, fn)


def _connection() -> sqlite3.Connection:
    """A connection of this pool thread, whose queries end after 20 s anyway (so a failing test ends too)."""
    conn = sqlite3.connect(":memory:", check_same_thread=False)
    deadline = time.monotonic() + 20
    conn.set_progress_handler(lambda: time.monotonic() > deadline, 10_000)
    cancellation.adopt(conn)
    return conn


def test_cancelling_one_request_interrupts_its_query_and_not_another_requests():
    executor = cancellation.CancellableExecutor(max_workers=2)
    leaving, staying = cancellation.RequestWork(), cancellation.RequestWork()
    started = threading.Barrier(3)

    def query(sql: str):
        conn = _connection()
        started.wait()
        return conn.execute(sql).fetchone()[0]

    try:
        left = _submit(executor, leaving, lambda: query(ENDLESS))
        stays = _submit(
            executor,
            staying,
            lambda: query(
                "with recursive c(x) as (select 1 union all select x + 1 from c where x < 500000) select count(*) from c"
            ),
        )
    except Exception:
        executor.shutdown(wait=False)
        raise
    started.wait()
    time.sleep(0.05)
    while leaving.interrupt():
        time.sleep(0.02)
    with pytest.raises(sqlite3.OperationalError, match="interrupted"):
        left.result(timeout=5)
    assert stays.result(timeout=60) == 500_000
    executor.shutdown()


def test_a_task_of_a_cancelled_request_never_starts():
    executor = cancellation.CancellableExecutor(max_workers=1)
    work = cancellation.RequestWork()
    work.interrupt()
    ran = []
    with pytest.raises(cancellation.RequestCancelled):
        _submit(executor, work, lambda: ran.append(1)).result(timeout=5)
    assert ran == [] and not work.running
    assert _submit(executor, None, lambda: "work of no request runs").result(timeout=5) == "work of no request runs"
    executor.shutdown()
