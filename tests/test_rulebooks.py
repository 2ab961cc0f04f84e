"""Rulebooks: a game's Core Rules and Tournament Rules, each with its own versions, newest and URLs."""

from __future__ import annotations

import pytest
from servers import in_process

from rules_db import guard, versions


@pytest.fixture(scope="module")
def datasette(fixture_db):
    return in_process(fixture_db)


@pytest.fixture
def conn(fixture_db):
    connection = guard.read_only(fixture_db)
    yield connection
    connection.close()


async def _get(datasette, path, status=200):
    response = await datasette.client.get(path)
    assert response.status_code == status, (path, response.status_code, response.text[:300])
    return response


def test_the_default_rulebook_is_meant_when_none_is_named(conn):
    assert versions.rules_document(conn, "riftbound")["version"] == "2025-12-01"
    assert versions.rules_document(conn, "riftbound", "2025-06-02")["id"] == "riftbound-core-rules-2025-06-02"
    assert versions.rules_document(conn, "riftbound", "2026-07-16") is None  # a Tournament Rules version
    tournament = versions.rules_document(conn, "riftbound", slug="tournament")
    assert tournament["version"] == "2026-07-16" and tournament["rulebook"] == "tournament"
    assert [document["version"] for document in versions.versions(conn, "riftbound")] == ["2025-06-02", "2025-12-01"]


def test_url_segments_name_a_version_a_rulebook_or_both(conn):
    assert versions.resolve_path(conn, "riftbound", "2025-12-01")["version"] == "2025-12-01"
    assert versions.resolve_path(conn, "riftbound", "tournament")["version"] == "2026-07-16"
    assert versions.resolve_path(conn, "riftbound", "tournament", "2026-07-16")["rulebook"] == "tournament"
    assert versions.resolve_path(conn, "riftbound", "core", "2025-06-02")["version"] == "2025-06-02"
    assert versions.resolve_path(conn, "riftbound", "tournament", "2025-12-01") is None
    assert versions.resolve_path(conn, "riftbound", "nonsense") is None
    assert versions.resolve_path(conn, "riftbound", "nonsense", "2025-12-01") is None


@pytest.mark.parametrize(
    "path",
    [
        "/rules/riftbound/tournament/702.2",
        "/rules/riftbound/tournament/2026-07-16/702.2",
        "/rules/riftbound/tournament/2026-07-16/702.2.json",
    ],
)
async def test_tournament_rules_have_their_own_urls(datasette, path):
    response = await _get(datasette, path)
    if path.endswith(".json"):
        data = response.json()
        assert data["rule"]["number"] == "702.2" and data["document"]["rulebook"] == "tournament"
    else:
        assert "Missed Trigger" in response.text


async def test_core_rules_urls_are_unchanged(datasette):
    html = (await _get(datasette, "/rules/riftbound/2025-12-01/443.1")).text
    assert "combat damage is dealt" in html
    await _get(datasette, "/rules/riftbound/core/2025-12-01/443.1")
    # a Tournament Rules number is not a Core Rules rule, and a Core Rules version is not a Tournament one
    await _get(datasette, "/rules/riftbound/702.2", status=404)
    await _get(datasette, "/rules/riftbound/2026-07-16/702.2", status=404)
    await _get(datasette, "/rules/riftbound/tournament/2025-12-01/443.1", status=404)


async def test_links_to_tournament_rules_name_the_rulebook(datasette):
    html = (await _get(datasette, "/rules/riftbound/tournament/702")).text
    assert 'href="/rules/riftbound/tournament/2026-07-16/702.2"' in html


def test_a_tournament_rules_file_is_its_own_rulebook_dated_by_its_text():
    from ingest.documents import CORPUS_DIR
    from ingest.formats import spec_for

    spec = spec_for(CORPUS_DIR / "riftbound-tournament-rules-2026-07-16.txt")
    assert (spec.game, spec.rulebook, spec.version, spec.version_date) == (
        "riftbound",
        "tournament",
        "2026-07-16",
        "2026-07-16",
    )
