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


async def test_a_card_page_says_whether_the_dispute_builder_offers_the_card(read_db, tmp_path, monkeypatch):
    """A read or hand-written card links to a new dispute holding it in the add form (a spell to its owner's hand);
    a card the engine does not read says which words it cannot read."""
    path = tmp_path / "rules.db"
    shutil.copy(read_db, path)
    db = sqlite_utils.Database(path)
    spell = {
        "id": 4,
        "game_id": "riftbound",
        "slug": "second-wind",
        "card_type": "Spell",
        "energy": 2,
        "in_card_list": 1,
    }
    db["cards"].insert({**spell, "name": "Second Wind", "current_text": "Draw 1."})
    db["cards"].insert(
        {**spell, "id": 5, "name": "Time Loop", "slug": "time-loop", "current_text": "Swap hands with an opponent."}
    )
    card_readings.store_readings(db, "riftbound")
    db.close()
    monkeypatch.setenv("RULES_DB_READ_CARDS", str(path))
    try:
        datasette = in_process(path)
        corsair = (await datasette.client.get("/cards/crackshot-corsair")).text.split('class="in-engine"')[1]
        assert 'href="/dispute?card=Crackshot+%3CCorsair%3E#add"' in corsair and "Crackshot &lt;Corsair&gt;" in corsair
        spell_page = (await datasette.client.get("/cards/second-wind.json")).json()
        assert spell_page["in_builder"] == [{"name": "Second Wind", "where": "hand"}]
        zhonya = (await datasette.client.get("/cards/zhonyas-hourglass")).text.split('class="in-engine"')[1]
        assert "/dispute?card=Zhonya" in zhonya  # hand-written: offered though its text is not read
        loop = (await datasette.client.get("/cards/time-loop")).text.split('class="in-engine"')[1]
        assert "Not yet" in loop and "swap hands with an opponent" in loop.lower() and "/dispute?" not in loop
        assert (await datasette.client.get("/cards/time-loop.json")).json()["reading"]["status"] == "unread"
        builder = (await datasette.client.get("/dispute?card=Second+Wind&where=hand")).text
        assert 'value="Second Wind"' in builder and 'name="where" value="hand" checked' in builder
    finally:
        monkeypatch.delenv("RULES_DB_READ_CARDS")
        card_readings.load_read_cards()  # back to the cards of the default database
