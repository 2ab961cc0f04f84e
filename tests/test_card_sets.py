"""Every card of every released set (two exports merged), dated errata, bans and sets: parsed, stored, shown."""

from __future__ import annotations

import hashlib
import json
import shutil
from collections import Counter
from html import escape
from pathlib import Path
from urllib.parse import quote

import pytest
from servers import in_process

from ingest import bans as ban_lists
from ingest import card_exports
from ingest.card_exports import parse_file
from ingest.cards import name_key
from ingest.documents import CORPUS_DIR
from ingest.errors import IngestError
from rules_db import guard
from rules_db.build import BuildFailed, build, specs_for
from rules_db.errata import apply

GALLERY = CORPUS_DIR / "riftbound-card-gallery-2026-07-20.json"
OLD_CARDS = CORPUS_DIR / "riftbound-cards.json"
DATED_ERRATA = CORPUS_DIR / "riftbound-errata-2026-08-17.json"
BANNED_JSON = CORPUS_DIR / "riftbound-banned-2026-08-30.json"
BANLIST_MD = CORPUS_DIR / "riftbound-banlist-2026-09-18.md"
SETS_AND_BANS = CORPUS_DIR / "riftbound-sets-and-bans-2026-09-27.txt"

# The twelve Constructed bans after the 2026-09-18 wave, and the one more 2v2 bans (riftbound-banlist-2026-09-18.md).
CONSTRUCTED = {
    "Fight or Flight",
    "Scrapheap",
    "Stealthy Pursuer",
    "Called Shot",
    "Draven, Vanquisher",
    "Ekko, Recurrent",
    "Stacked Deck",
    "The Dreaming Tree",
    "Obelisk of Power",
    "Reaver's Row",
    "The Arena's Greatest",
    "Aspirant's Climb",
}


@pytest.fixture(scope="module")
def gallery():
    return parse_file(GALLERY, "cards")


@pytest.fixture(scope="module")
def raw_gallery() -> list[dict]:
    return json.loads(GALLERY.read_text(encoding="utf-8"))["cards"]


# ----------------------------------------------------------------------------- the gallery


def test_the_gallery_has_933_cards_once_its_two_tokens_are_set_aside(gallery, raw_gallery):
    """Counted from the raw file: the distinct names of the printings that have a type (the two tokens have none),
    runes included; and the adapter's count, grouped by name the same way, agrees."""
    typed = {entry["name"] for entry in raw_gallery if entry["type"] is not None}
    assert len(raw_gallery) == 1178 and len(typed) == 933
    assert {entry["name"] for entry in raw_gallery if entry["type"] is None} == {"Buff", "XP Tracker"}
    assert len({entry["name"] for entry in raw_gallery if entry["type"] == "Rune"}) == 6
    assert len(gallery.cards) == 933 and {token.name for token in gallery.tokens} == {"Buff", "XP Tracker"}
    assert sum(len(card.printings) for card in gallery.cards) == 1176
    assert gallery.generated_on == "2026-07-20"
    per_set = Counter(printing.set_id for card in gallery.cards for printing in card.printings)
    assert per_set == {"OGN": 352, "SFD": 288, "UNL": 286, "VEN": 226, "OGS": 24}


def test_gallery_numbers_and_text_are_read(gallery):
    by_name = {card.name: card for card in gallery.cards}
    sword = by_name["B.F. Sword"]
    assert (sword.card_type, sword.energy, sword.might_bonus, sword.tags) == ("Gear", 4, 3, ["Equipment"])
    assert "[Order rune]" in sword.ability_text
    # List items and line breaks become lines; "[NO TEXT]" is the gallery's word for none.
    assert "turn —\n• Ready 2 runes.\n• Channel 1 rune exhausted." in by_name["Aphelios, Exalted"].ability_raw
    assert by_name["Body Rune"].ability_raw == "" and by_name["Body Rune"].card_type == "Rune"
    # Alternate arts leave the reminder text out: the card keeps the fuller wording.
    assert "Empower me. Use only if not Empowered." in by_name["Akali, Deadly Weapon"].ability_raw


def test_an_ability_in_html_reads_as_lines():
    text = card_exports.ability_from_html(
        "<p>Choose one &gt;</p><ul><li>Ready 2 runes.</li><li>Draw 1.</li></ul>", "<p>[Ganking]<br />More.</p>"
    )
    assert text == "Choose one >\n• Ready 2 runes.\n• Draw 1.\n[Ganking]\nMore."


def _gallery_file(tmp_path: Path, cards: list[dict], name: str = "riftbound-card-gallery-2026-07-20.json") -> Path:
    path = tmp_path / name
    lines = ['{"generatedAt": "2026-09-01T00:00:00Z",', ' "cards": [']
    lines += [" " + json.dumps(card) + ("," if index < len(cards) - 1 else "") for index, card in enumerate(cards)]
    lines += [" ]", "}"]
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda entry: entry.update(flavour="new field"), "'flavour'"),
        (lambda entry: entry.pop("setId"), "'setId'"),
        (lambda entry: entry.update(energy="two"), "'energy'"),
    ],
    ids=["unknown field", "missing field", "broken value"],
)
def test_a_bad_gallery_entry_names_the_file_the_line_and_the_entry(tmp_path, raw_gallery, change, message):
    entries = [dict(entry) for entry in raw_gallery[:3]]
    change(entries[1])
    path = _gallery_file(tmp_path, entries)
    with pytest.raises(IngestError) as caught:
        parse_file(path, "cards")
    assert caught.value.path == str(path) and caught.value.line == 4
    assert "card entry 2" in str(caught.value) and message in str(caught.value)


def test_a_broken_row_names_the_line(tmp_path, raw_gallery):
    path = _gallery_file(tmp_path, raw_gallery[:2])
    path.write_text(path.read_text(encoding="utf-8").replace('"rarity": ', '"rarity" ', 1), encoding="utf-8")
    with pytest.raises(IngestError) as caught:
        parse_file(path, "cards")
    assert caught.value.path == str(path) and caught.value.line == 3


def test_a_bad_card_export_leaves_the_previous_database(tmp_path, raw_gallery):
    db_path = tmp_path / "rules.db"
    build(db_path, specs_for([CORPUS_DIR / "pox-nora-rules.txt"]))
    before = hashlib.sha256(db_path.read_bytes()).hexdigest()
    entries = [dict(entry) for entry in raw_gallery[:5]]
    entries[3]["surprise"] = 1
    bad = _gallery_file(tmp_path, entries)
    with pytest.raises(BuildFailed) as caught:
        build(db_path, specs_for([OLD_CARDS, bad]))
    assert f"{bad}:6" in str(caught.value) and "card entry 4" in str(caught.value)
    assert hashlib.sha256(db_path.read_bytes()).hexdigest() == before


def test_a_card_export_under_another_name_is_recognised_by_its_shape(tmp_path, raw_gallery):
    (spec,) = specs_for([_gallery_file(tmp_path, raw_gallery[:3], "vendetta-export.json")])
    assert (spec.kind, spec.format) == ("cards", "cards")
    copy = tmp_path / "sets.json"
    shutil.copy(SETS_AND_BANS, copy)
    assert specs_for([copy])[0].kind == "bans"


# ----------------------------------------------------------------------------- errata


def test_the_dated_errata_are_63_each_with_announcement_date_and_set():
    errata = parse_file(DATED_ERRATA, "errata")
    assert errata.dated and len(errata.errata) == 63
    assert Counter(erratum.announced_on for erratum in errata.errata) == {
        "2025-10-28": 31,
        "2026-01-14": 16,
        "2026-04-03": 8,
        "2026-07-24": 8,
    }
    # The set each card was printed in, which an announcement need not be named after (Vendetta's errata
    # change Origins and Spiritforged cards too).
    raw = json.loads(DATED_ERRATA.read_text(encoding="utf-8"))["entries"]
    assert [erratum.card_set for erratum in errata.errata] == [entry["printed_set"] for entry in raw]
    assert Counter(erratum.card_set for erratum in errata.errata)["Unleashed"] == 8


def test_an_erratum_quoted_short_is_patched_into_the_printed_text():
    printed = "[Hidden] (Hide now for [Any rune].)\nPlay a 2 [Might] Sand Soldier unit token. You may pay [Order rune] to ready it."
    old = "[Hidden] (...) Play a 2 [Might] Sand Soldier unit token. You may pay [Order rune] to ready it."
    new = "[Hidden] (...) Play a 2 [Might] Sand Soldier unit token. Then do this: You may pay [Order rune] to ready it."
    text, how = apply(printed, old, new)
    assert how == "patched"
    assert text == printed.replace("token. You may", "token. Then do this: You may")
    assert apply("Deal 3. Draw 1.", "Draw 1.", "Draw 2.") == ("Deal 3. Draw 2.", "replaced")
    assert apply("Deal 3. Draw 2.", "Draw 1.", "Draw 2.") == ("Deal 3. Draw 2.", "already printed")
    assert apply("Something else entirely.", "Draw 1.", "Draw 2.") == ("Draw 2.", "whole text")


def test_stored_errata_are_dated_and_applied(real_connection):
    dated = real_connection.execute(
        "select count(*), count(distinct card_id) from card_errata where announced_on is not null"
    ).fetchone()
    assert dated == (63, 63)
    undated_in_force = real_connection.execute(
        "select count(*) from card_errata where announced_on is null and new_text is not null and superseded_by is null"
    ).fetchone()[0]
    assert undated_in_force == 0  # every text change of the old list is one the dated list has too
    how = dict(
        real_connection.execute("select applied_as, count(*) from card_errata where applied_as is not null group by 1")
    )
    assert sum(how.values()) == 63 and how.get("whole text", 0) == 0
    text = real_connection.execute("select current_text from cards where name = 'Diana, Lunari'").fetchone()[0]
    assert "you may pay [1 Energy] to [Predict], then reveal" in text


# ----------------------------------------------------------------------------- merged cards


def test_the_two_exports_merge_into_one_card_per_card(real_connection, raw_gallery):
    names = [row[0] for row in real_connection.execute("select name from cards where in_card_list = 1")]
    assert len(names) == 933 and len({name_key(name) for name in names}) == 933
    printings = [row[0] for row in real_connection.execute("select id from card_printings")]
    old_ids = {entry["id"] for entry in json.loads(OLD_CARDS.read_text(encoding="utf-8"))}
    gallery_ids = {entry["id"] for entry in raw_gallery if entry["type"] is not None}
    assert len(printings) == len(set(printings)) == len(old_ids | gallery_ids) == 1176
    assert real_connection.execute("select count(*) from card_tokens").fetchone()[0] == 2
    assert not real_connection.execute("select 1 from cards where name in ('Buff', 'XP Tracker')").fetchall()
    # The newer list's wording is the card's; each list's is kept.
    sources = real_connection.execute(
        """select t.document_id from card_texts t join cards c on c.id = t.card_id
        where c.name = 'Baited Hook' order by t.document_id"""
    ).fetchall()
    assert sources == [("riftbound-card-gallery-2026-07-20",), ("riftbound-cards",)]
    assert real_connection.execute("select document_id from cards where name = 'Baited Hook'").fetchone() == (
        "riftbound-card-gallery-2026-07-20",
    )


def test_nicknames_and_legend_names_still_find_their_cards(real_connection):
    def aliases(name):
        return {
            row[0]
            for row in real_connection.execute(
                "select a.alias from card_aliases a join cards c on c.id = a.card_id where c.name = ?", [name]
            )
        }

    assert {"Ahri Legend", "Ahri", "Ahri, Nine-Tailed Fox"} <= aliases("Nine-Tailed Fox")
    assert "Zhonyas" in aliases("Zhonya's Hourglass")
    # A Legend of the new sets, which the curated list does not name: the gallery's tag says whose it is.
    assert {"Ambessa Legend", "Ambessa's Legend", "Ambessa, Matriarch of War"} <= aliases("Matriarch of War")
    # The curated Legend keeps its names; the ban list's "Master Yi, Wuju Bladesman" is one of them.
    assert {"Master Yi Legend", "Master Yi, Wuju Bladesman"} <= aliases("Wuju Bladesman - Starter")
    assert "Master Yi Legend" not in aliases("Wuju Master")


# ----------------------------------------------------------------------------- bans and sets


def test_the_sets_file_cut_short_is_read_as_far_as_it_goes():
    parsed = ban_lists.parse_file(SETS_AND_BANS)
    assert [issue.kind for issue in parsed.issues] == ["malformed"] and "cut short" in parsed.issues[0].message
    assert {s.id: s.release_date for s in parsed.sets}["UNL"] == "2026-05-08" and len(parsed.sets) == 8
    assert len(parsed.bans) == 12 and all(ban.effective_date for ban in parsed.bans)


def test_json_cut_anywhere_keeps_what_came_before_the_cut():
    text = SETS_AND_BANS.read_text(encoding="utf-8")
    whole = ban_lists.complete_truncated(text)[0]
    full = json.loads(whole)
    for cut in range(text.index('"banned"'), len(text)):
        data = json.loads(ban_lists.complete_truncated(text[:cut])[0])
        assert data["sets"] == full["sets"]
        banned = data.get("banned") or {}
        assert list(banned) == list(full["banned"])[: len(banned)]


def test_each_ban_source_is_read():
    exported = ban_lists.parse_file(BANNED_JSON)
    assert exported.as_of == "2026-08-30" and len(exported.bans) == 11
    assert [(ban.format, ban.effective_date) for ban in exported.bans if ban.format == "2v2"] == [("2v2", "2026-07-24")]
    korean = ban_lists.parse_file(BANLIST_MD)
    assert {ban.name for ban in korean.bans if ban.format == "Constructed"} == CONSTRUCTED
    assert [ban.name for ban in korean.bans if ban.format == "2v2"] == ["Master Yi, Wuju Bladesman"]


def test_bans_are_stored_with_their_sources_and_the_disagreement_kept(real_connection):
    constructed = {
        row[0]
        for row in real_connection.execute(
            "select c.name from bans b join cards c on c.id = b.card_id where b.format = 'Constructed'"
        )
    }
    assert constructed == CONSTRUCTED
    assert real_connection.execute("select count(*) from bans where card_id is null").fetchone()[0] == 0
    two = real_connection.execute(
        "select distinct c.name from bans b join cards c on c.id = b.card_id where b.format = '2v2'"
    ).fetchall()
    assert two == [("Wuju Bladesman - Starter",)]
    for name in ("Called Shot", "Draven, Vanquisher"):
        claims = real_connection.execute(
            """select b.effective_date, b.document_id from bans b join cards c on c.id = b.card_id
            where c.name = ? and b.effective_date is not null order by 1, 2""",
            [name],
        ).fetchall()
        assert claims == [
            ("2026-03-31", "riftbound-sets-and-bans-2026-09-27"),
            ("2026-07-24", "riftbound-banlist-2026-09-18"),
        ]
    sets = dict(real_connection.execute("select id, release_date from sets"))
    assert sets["VEN"] == "2026-07-31" and sets["RAD"] == "2026-10-23" and len(sets) == 8
    assert real_connection.execute("select name from sets where id = 'UNL'").fetchone() == ("Unleashed",)


# ----------------------------------------------------------------------------- pages


async def test_a_banned_card_says_so_at_the_top(datasette):
    html = (await datasette.client.get("/cards/ekko-recurrent")).text
    notice = html.index("Banned in Constructed")
    assert notice < html.index("<h1>")
    assert 'Banned in Constructed</strong> since <time datetime="2026-09-18">2026-09-18</time>' in html
    disputed = (await datasette.client.get("/cards/called-shot")).text
    assert "2026-03-31" in disputed and "2026-07-24" in disputed and "the sources disagree" in disputed
    assert "Riftbound Sets and Bans" in disputed and "Riftbound Ban List (Korean rules hub)" in disputed
    legal = (await datasette.client.get("/cards/baited-hook")).text
    assert "Banned in" not in legal


async def test_a_card_with_an_erratum_shows_its_date(datasette):
    data = (await datasette.client.get("/cards/diana-lunari.json")).json()
    (erratum,) = data["dated_errata"]
    assert erratum["announced_on"] == "2026-07-24" and erratum["card_set"] == "Unleashed"
    assert erratum["announcement"] == "Vendetta Errata Updates"
    html = (await datasette.client.get("/cards/diana-lunari")).text
    # The current wording first, then the printed one with the change marked and the erratum's date.
    current, printed = html.index('class="card-text"'), html.index('class="printed-text"')
    assert current < printed < html.index('<time datetime="2026-07-24">', printed)
    assert "<del" in html[printed:] and "<ins" in html[printed:]


async def test_the_cards_list_filters_by_legality(datasette):
    banned = (await datasette.client.get("/cards.json?legality=banned")).json()
    assert {row["name"] for row in banned["rows"]} == CONSTRUCTED and banned["total"] == 12
    two = (await datasette.client.get("/cards.json?legality=banned&format=2v2")).json()
    assert two["total"] == 13
    legal = (await datasette.client.get("/cards.json?legality=legal")).json()
    assert legal["total"] == 933 - 12  # cards of the card lists only, not those known only from rulings
    legal_2v2 = (await datasette.client.get("/cards.json?legality=legal&format=2v2")).json()
    assert legal_2v2["total"] == 933 - 13


async def test_the_bans_page_lists_each_format_with_dates_and_sources(datasette):
    data = (await datasette.client.get("/bans/riftbound.json")).json()
    constructed, two = data["formats"]
    assert constructed["format"] == "Constructed" and len(constructed["cards"]) == 12
    disputed = {card["name"] for card in constructed["cards"] if card["disputed"]}
    assert disputed == {"Called Shot", "Draven, Vanquisher"}
    assert two["format"] == "2v2" and [card["name"] for card in two["cards"]] == ["Wuju Bladesman - Starter"]
    assert (await datasette.client.get("/bans/no-such-game")).status_code == 404


async def test_search_finds_new_cards_and_errata(datasette):
    found = (await datasette.client.get("/search.json?q=Diana+Lunari")).json()
    assert found["results"][0]["slug"] == "diana-lunari"  # an Unleashed card, only in the gallery
    # A word only the erratum's wording has ("uncontrolled": its printed text has none) finds the card.
    errata = (await datasette.client.get("/search.json?q=uncontrolled+battlefield&kind=card&game=riftbound")).json()
    assert [hit["slug"] for hit in errata["results"]] == ["yone-blademaster"]


async def test_a_card_the_lists_word_differently_shows_where_each_wording_came_from(datasette):
    data = (await datasette.client.get("/cards/baited-hook.json")).json()
    assert [(source["document_id"], source["current"]) for source in data["sources"]] == [
        ("riftbound-card-gallery-2026-07-20", 1),
        ("riftbound-cards", 0),
    ]
    html = (await datasette.client.get("/cards/baited-hook")).text
    section = html[html.index("Where the text comes from") :]
    assert "Riftbound Card Gallery" in section and "Riftbound Card List" in section
    assert "You may play a unit from among them" in section  # the older list's wording, before the erratum


# ----------------------------------------------------------------------------- card addresses


async def test_cards_whose_names_collide_or_are_not_ascii_get_distinct_stable_addresses(tmp_path, raw_gallery):
    """Real gallery names beside names that differ from them only in punctuation or accents, in another script,
    or of punctuation alone: each card its own slug, a working page, and the same slugs at the next build; the
    gallery's own names keep their plain slugs (the first card to hold a slug keeps it)."""
    real = ["Back-Alley Bar", "B.F. Sword", "Dr. Mundo, Expert", "Wuju Bladesman - Starter"]
    entries = [dict(entry) for entry in raw_gallery if entry["name"] in real]
    assert sorted({entry["name"] for entry in entries}) == sorted(real)
    entries = list({entry["name"]: entry for entry in entries}.values())
    others = ["Back Alley Bar", "B F Sword", "Dr. Mündo, Expért", "ドクター・ムンド", "Wuju Bladesman: Starter", "!!!"]
    for number, name in enumerate(others, start=1):
        entries.append(
            {**entries[number % len(real)], "id": f"tst-{number}-9", "code": f"TST-{number}/9", "name": name}
        )
    path = _gallery_file(tmp_path, entries)
    db_path = tmp_path / "cards.db"
    slugs = []
    for _ in range(2):
        build(db_path, specs_for([path]))
        with guard.read_only(db_path) as connection:
            slugs.append(dict(connection.execute("select name, slug from cards").fetchall()))
    assert slugs[0] == slugs[1]
    assert len(set(slugs[0].values())) == len(slugs[0]) and all(slugs[0].values())  # the engine's cards too
    found = {name: slugs[0][name] for name in real + others}
    assert found["Back-Alley Bar"] == "back-alley-bar" and found["B.F. Sword"] == "b-f-sword"
    assert found["Back Alley Bar"].startswith("back-alley-bar-") and found["Dr. Mündo, Expért"].startswith(
        "dr-mundo-expert-"
    )
    assert found["ドクター・ムンド"] == "ドクター-ムンド"  # letters of any script kept
    datasette = in_process(db_path)
    for name, slug in found.items():
        response = await datasette.client.get("/cards/" + quote(slug))
        assert response.status_code == 200, (name, slug)
        assert f"<h1>{escape(name)}" in response.text or escape(name) in response.text
