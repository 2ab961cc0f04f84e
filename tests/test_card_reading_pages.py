"""The page of the cards the engine reads (/cards-read) and the dispute builder's card list with read cards."""

from __future__ import annotations

import shutil

import pytest
import sqlite_utils
from servers import in_process

from rules_db import card_readings, dispute


@pytest.fixture(scope="module")
def read_db(fixture_db, tmp_path_factory):
    """The fixture database with its cards read (Garen's [Tank] read; Zhonya's replacement not)."""
    path = tmp_path_factory.mktemp("read") / "rules.db"
    shutil.copy(fixture_db, path)
    db = sqlite_utils.Database(path)
    db["cards"].insert(
        {
            "id": 3,
            "game_id": "riftbound",
            "name": "Crackshot <Corsair>",
            "slug": "crackshot-corsair",
            "card_type": "Unit",
            "energy": 3,
            "might": 3,
            "current_text": "When I attack, deal 1 to an enemy unit here.",
            "in_card_list": 1,
        }
    )
    card_readings.store_readings(db, "riftbound")
    db.close()
    return path


async def test_the_page_shows_coverage_per_set_and_each_unread_card_with_its_words(read_db):
    datasette = in_process(read_db)
    response = await datasette.client.get("/cards-read")
    assert response.status_code == 200
    html = response.text
    assert "<h1>Cards the engine reads</h1>" in html
    assert '<a href="/cards-read?set=OGN">OGN</a>' in html
    unread = html.split('id="unread"')[1]
    assert "Zhonya&#39;s Hourglass" in unread and "when a friendly unit would die" in unread
    assert "Garen" not in unread and "Corsair" not in unread
    data = (await datasette.client.get("/cards-read.json?set=OGN")).json()
    assert data["coverage"]["read"] == 2 and data["coverage"]["total"] == 3 and data["set"] == "OGN"
    assert [card["name"] for card in data["unread"]] == ["Zhonya's Hourglass"]
    cards = (await datasette.client.get("/cards")).text
    assert 'href="/cards-read"' in cards


def test_the_builder_offers_read_cards_by_name_in_any_case(read_db, monkeypatch):
    monkeypatch.setenv("RULES_DB_READ_CARDS", str(read_db))
    try:
        names = {card["name"]: card for card in dispute.builder_cards()}
        assert names["Crackshot <Corsair>"]["text"] == "When I attack, deal 1 to an enemy unit here."
        assert dispute.find_card("crackshot corsair", {"unit"})["name"] == "Crackshot <Corsair>"
        assert "Zhonya's Hourglass" in names  # hand-written: it overrides the card's (unread) reading
        assert names["Garen, Rugged"]["kind"] == "unit"
    finally:
        monkeypatch.delenv("RULES_DB_READ_CARDS")
        card_readings.load_read_cards()  # back to the cards of the default database


def test_the_read_cards_come_from_a_database_whose_path_holds_uri_characters(read_db, tmp_path):
    folder = tmp_path / "a?b#c%20d"  # each a URI's character, here the file's
    folder.mkdir()
    shutil.copy(read_db, folder / "rules.db")
    definitions = card_readings.read_definitions(folder / "rules.db")
    assert "Crackshot <Corsair>" in definitions
    assert definitions == card_readings.read_definitions(read_db)


def test_a_typed_dispute_may_name_the_read_cards_of_the_database_it_is_served_with(read_db, fixture_db, monkeypatch):
    """Every entry that parses a typed scenario (here check_text and legal) parses it against the cards read from
    the database the environment names, loaded where it is parsed (replay_view.parse_scenario)."""
    text = dispute.NEW_DISPUTE.replace("A: {}", "A: {base: [{id: u1, card: Crackshot <Corsair>}]}")
    try:
        monkeypatch.setenv("RULES_DB_READ_CARDS", str(read_db))
        assert dispute.check_text(text, "typed") is None
        assert dispute.legal(text, "typed")["error"] is None
        monkeypatch.setenv("RULES_DB_READ_CARDS", str(fixture_db))  # its cards were never read
        assert "Crackshot <Corsair>" in dispute.check_text(text, "typed")["message"]
    finally:
        monkeypatch.delenv("RULES_DB_READ_CARDS")
        card_readings.load_read_cards()  # back to the cards of the default database
