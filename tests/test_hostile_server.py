"""Hostile requests (issue 16): every connection bounded (``rules_db.guard``), errors answered without a
traceback or a file path (``datasette_plugins.errors``), through Datasette's own client on the fixture."""

from __future__ import annotations

import sqlite3

import pytest
from datasette.app import Datasette

from rules_db import guard
from rules_db.serve import metadata


@pytest.fixture
def datasette(fixture_db):
    return Datasette(immutables=[str(fixture_db)], metadata=metadata(fixture_db))


async def sql(datasette, fixture_db, query: str):
    return await datasette.client.get(f"/{fixture_db.stem}.json", params={"sql": query})


async def test_a_gigabyte_printf_is_bounded_through_the_sql_page(datasette, fixture_db):
    """One function call is one step of SQLite's machine, which Datasette's time limit never interrupts: it
    built 1.1 GB in 8.9 s. The length limit ends it at once (SQLite's printf answers NULL past it)."""
    response = await sql(datasette, fixture_db, "select printf('%.*c', 1e9, 'x') as big")
    assert response.status_code in (200, 400)
    assert len(response.content) < 10_000
    if response.status_code == 200:
        assert response.json()["rows"] == [[None]]
    for query in ("select length(zeroblob(1e9))", "select length(replace(hex(zeroblob(5e6)), '0', 'aa'))"):
        response = await sql(datasette, fixture_db, query)
        assert response.status_code == 400 and "too big" in response.json()["error"]


@pytest.mark.parametrize(
    "query",
    ["select fts3_tokenizer('simple')", "select load_extension('/tmp/x')", "select hex(fts3_tokenizer('porter'))"],
)
async def test_dangerous_functions_are_refused_through_the_sql_page(datasette, fixture_db, query):
    response = await sql(datasette, fixture_db, query)
    assert response.status_code == 400
    assert "not authorized" in response.json()["error"]


async def test_attaching_another_file_is_refused(datasette, fixture_db, tmp_path):
    response = await sql(datasette, fixture_db, f"attach database '{tmp_path / 'x.db'}' as x")
    assert response.status_code == 400


def test_every_limit_is_applied_to_a_connection():
    conn = sqlite3.connect(":memory:")
    guard.harden(conn)
    for limit, value in guard.CONNECTION_LIMITS.items():
        assert conn.getlimit(limit) == value
    with pytest.raises(sqlite3.DataError):
        conn.execute("select zeroblob(?)", [guard.MAX_VALUE_BYTES + 1]).fetchall()
    with pytest.raises(sqlite3.OperationalError, match="depth"):
        conn.execute("select " + " + ".join(["1"] * 200)).fetchall()
    assert conn.execute("select upper('ordinary queries work')").fetchone() == ("ORDINARY QUERIES WORK",)


@pytest.mark.parametrize(
    "path",
    [
        "/{db}/rules.json?_sort=no_such_column",
        "/{db}/rules?_sort_desc=no_such_column",
        "/{db}/rules.json?id__gt=" + "9" * 5000,
        "/{db}/rules/" + "9" * 5000,
        "/{db}/rules/9223372036854775808.json",
        "/rulings/9223372036854775808",
        "/rulings/" + "9" * 5000,
        "/rules/riftbound/" + "1" * 5000,
        "/no/such/page",
    ],
)
async def test_unknown_ids_and_numbers_answer_404_without_a_traceback(datasette, fixture_db, capfd, caplog, path):
    response = await datasette.client.get(path.format(db=fixture_db.stem))
    assert response.status_code == 404
    assert len(response.content) < 100_000 and "Traceback" not in response.text
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err + caplog.text
    assert len(out + err + caplog.text) < 2_000


async def test_a_server_failure_is_a_500_that_shows_nothing_of_the_server(datasette, fixture_db, caplog):
    """The error handler on its own (a pluggy hook wrapper): what a page that fails answers."""
    from datasette_plugins import errors

    class Request:
        path, method = "/x.json", "GET"

    class Outcome:
        def force_result(self, result):
            self.result = result

    wrapper = errors.handle_exception(datasette, Request(), RuntimeError(f"secret detail at {fixture_db}"))
    next(wrapper)
    outcome = Outcome()
    with pytest.raises(StopIteration):
        wrapper.send(outcome)
    response = await outcome.result[0]()
    assert response.status == 500 and str(fixture_db) not in response.body
    assert errors.SERVER_FAILED in response.body
    assert str(fixture_db) in caplog.text and len(caplog.text) < 2_000  # one line in the log, for the operator


@pytest.mark.parametrize(
    "path", ["/", "/{db}", "/{db}/rules", "/-/databases.json", "/-/plugins.json", "/-/metadata.json"]
)
async def test_no_page_shows_a_file_path(datasette, fixture_db, path):
    response = await datasette.client.get(path.format(db=fixture_db.stem))
    assert str(fixture_db.parent) not in response.text
