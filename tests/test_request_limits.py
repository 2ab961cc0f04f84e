"""What one request may ask of the server (issue 35): checked before any view reads it
(``datasette_plugins.request_limits``), each refusal a 4xx naming what was expected, never a 500; SQL functions
that could outrun the time limit in one call replaced (``rules_db.guard``)."""

from __future__ import annotations

import sqlite3
import time

import pytest
from servers import in_process

from datasette_plugins import request_limits
from rules_db import guard


@pytest.fixture(scope="module")
def datasette(fixture_db):
    return in_process(fixture_db)


@pytest.mark.parametrize("digit", ["²", "٣", "１", "1.5", "-1", "0", "9999999"])
@pytest.mark.parametrize(
    "path",
    [
        "/rulings",
        "/cards",
        "/replays",
        "/search?q=tank",
        "/keywords/riftbound/Tank",
        "/diff/riftbound/2025-06-02/2025-12-01",
    ],
)
async def test_a_page_number_that_is_no_ascii_whole_number_in_bounds_is_a_400_saying_so(datasette, path, digit):
    joiner = "&" if "?" in path else "?"
    response = await datasette.client.get(f"{path}{joiner}page={digit}")
    assert response.status_code == 400, (path, digit, response.status_code)
    assert "takes a whole number from 1 to 999,999" in response.text


async def test_a_good_page_number_still_pages(datasette):
    assert (await datasette.client.get("/rulings?page=1")).status_code == 200
    assert (await datasette.client.get("/replays.json?ruling=٣")).status_code == 400


@pytest.mark.parametrize("method", ["TRACE", "PUT", "DELETE", "PATCH", "CONNECT", "PROPFIND"])
@pytest.mark.parametrize("path", ["/", "/rules/riftbound/336.1", "/fixture/rules", "/fixture/rules.json"])
async def test_a_method_the_server_does_not_answer_is_a_405_with_the_methods_it_does(datasette, method, path):
    response = await datasette.client.request(method, path.replace("fixture", "rules"))
    assert response.status_code == 405 and response.headers["allow"] == "GET, HEAD, OPTIONS, POST"


@pytest.mark.parametrize("option", ["_facet", "_facet_array", "_facet_date"])
@pytest.mark.parametrize("value", ["{", "{'a': 1", '{"a": '])
async def test_a_facet_that_is_broken_json_is_a_400(datasette, fixture_db, option, value):
    response = await datasette.client.get(f"/{fixture_db.stem}/rules", params={option: value})
    assert response.status_code == 400 and "a column name or a JSON object" in response.text


async def test_a_thousand_query_parameters_are_refused_at_once(datasette, fixture_db):
    query = "&".join(f"x{index}=a" for index in range(1_000))
    started = time.monotonic()
    response = await datasette.client.get(f"/{fixture_db.stem}/rules.json?{query}")
    assert time.monotonic() - started < 5  # a safety net against a hang (Datasette alone took 2.8 s of the loop)
    assert response.status_code == 400 and response.json()["error"].endswith("at most 64 query parameters.")


async def test_an_address_past_the_limit_is_a_414(datasette):
    response = await datasette.client.get("/search?q=" + "a" * request_limits.MAX_TARGET_BYTES)
    assert response.status_code == 414


async def test_a_body_past_the_limit_is_refused_whether_it_gives_its_length_or_not(datasette):
    big = b"s=" + b"a" * (request_limits.MAX_BODY_BYTES + 10)
    said = await datasette.client.post("/dispute", content=big)
    assert said.status_code == 413 and len(said.content) < 1_000

    async def streamed():
        for _ in range(40):
            yield b"a" * 10_000

    unsaid = await datasette.client.post("/dispute", content=streamed())
    assert unsaid.status_code == 413 and len(unsaid.content) < 1_000


def test_instr_is_linear_and_answers_as_sqlites_own():
    served, plain = sqlite3.connect(":memory:"), sqlite3.connect(":memory:")
    guard.harden(served)
    calls = (
        "instr('abcé', 'é'), instr(x'0102', x'02'), instr(null, 'a'), instr(12345, 34), instr('a', ''), instr('', 'a')"
    )
    assert served.execute(f"select {calls}").fetchone() == plain.execute(f"select {calls}").fetchone()
    size = 2_000_000
    started = time.monotonic()
    served.execute(f"select instr(hex(zeroblob({size})) || 'b', substr(hex(zeroblob({size})), 1, {size}) || 'b')")
    assert time.monotonic() - started < 5  # SQLite's own takes minutes on these (30 s at 3 MB)


async def test_a_database_changed_on_disk_while_served_is_a_503_saying_to_restart(fixture_db, tmp_path, monkeypatch):
    from datasette_plugins import database_watch

    monkeypatch.setattr(database_watch, "CHECK_EVERY", 0)
    served = tmp_path / "rules.db"
    served.write_bytes(fixture_db.read_bytes())
    datasette = in_process(served)
    assert (await datasette.client.get("/rulings")).status_code == 200
    with sqlite3.connect(served) as conn:  # rewritten in place, as a careless copy would
        conn.execute("create table added (x)")
    for path in ("/rulings", "/rulings.json", "/"):
        response = await datasette.client.get(path)
        assert response.status_code == 503 and "Restart the server" in response.text, path
