"""Riftbound card list, errata, card names in rulings, and their storage."""

from __future__ import annotations

import json
from collections import Counter

import pytest
import sqlite_utils
import yaml

from ingest.card_exports import parse_file
from ingest.card_names import (
    ALIASES_FILE,
    CardMention,
    UnresolvedName,
    card_name_index,
    find_card_mentions,
    load_aliases,
)
from ingest.cards import card_keywords, parse_cards, parse_errata, render_text
from ingest.documents import CORPUS_DIR
from ingest.errors import IngestError
from ingest.rulings import parse as parse_rulings
from ingest.source import read_lines
from rules_db import schema
from rules_db.cards import link_card_keywords, link_card_mentions, store_card_mentions, store_cards, store_errata

CARDS = CORPUS_DIR / "riftbound-cards.json"
ERRATA = CORPUS_DIR / "riftbound-errata.json"
RULINGS = CORPUS_DIR / "riftbound-qa-rulings.txt"


@pytest.fixture(scope="module")
def raw_cards() -> list[dict]:
    return json.loads(CARDS.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def cards():
    return parse_cards(CARDS)


@pytest.fixture(scope="module")
def errata():
    return parse_errata(ERRATA)


@pytest.fixture(scope="module")
def by_name(cards):
    return {card.name: card for card in cards.cards}


@pytest.fixture(scope="module")
def rulings():
    return parse_rulings(read_lines(RULINGS), RULINGS).rulings


@pytest.fixture(scope="module")
def mentions(rulings, cards):
    return find_card_mentions(rulings, cards.cards, load_aliases())


# ----------------------------------------------------------------------------- card list


def test_one_card_per_name_with_every_printing(cards, raw_cards):
    assert cards.entries == len(raw_cards) == 664
    assert len(cards.cards) == len({entry["name"] for entry in raw_cards})
    printings = [printing for card in cards.cards for printing in card.printings]
    assert sorted(printing.id for printing in printings) == sorted(entry["id"] for entry in raw_cards)
    assert all(printing.printed_name == card.name for card in cards.cards for printing in card.printings)
    assert Counter(card.card_type for card in cards.cards)["Legend"] == len(
        {entry["name"] for entry in raw_cards if entry["card_type"] == "Legend"}
    )


def test_printings_keep_set_number_rarity_and_image(by_name):
    fox = by_name["Nine-Tailed Fox"]
    assert fox.card_type == "Legend" and fox.domains == ["Calm", "Mind"]
    assert len(fox.printings) == 3
    assert {printing.card_set for printing in fox.printings} <= {"Origins", "Spiritforged", "Proving Grounds"}
    assert all(printing.image_url.startswith("https://") and printing.rarity for printing in fox.printings)


def test_printings_that_disagree_are_reported_and_keep_their_own_text(cards, by_name):
    emperor = by_name["Emperor of the Sands"]
    assert len({printing.ability_raw for printing in emperor.printings}) == 2
    assert emperor.ability_raw == emperor.printings[0].ability_raw
    assert [issue.number for issue in cards.issues if issue.kind == "duplicate"] == [emperor.printings[1].id]


def test_icon_tokens_render_as_words(cards, by_name):
    assert (
        render_text(":rb_energy_1::rb_rune_order:, :rb_exhaust:: Kill a friendly unit. +2 :rb_might:")
        == "[1 Energy][Order rune], [Exhaust]: Kill a friendly unit. +2 [Might]"
    )
    assert render_text("[Add] :rb_rune_rainbow: or :rb_rune_calm:") == "[Add] [Any rune] or [Calm rune]"
    assert all(":rb_" not in card.ability_text for card in cards.cards)
    assert ":rb_" in by_name["Baited Hook"].ability_raw


def test_rules_shorthand_in_errata_renders_with_the_cards_domain():
    assert render_text("[1][C], [E]: Kill.", ["Order"]) == "[1 Energy][Order rune], [Exhaust]: Kill."
    assert render_text("pay [C]", ["Calm", "Body"]) == "pay [Any rune]"
    assert render_text("+[M] and +[S]") == "+[Might] and +[Might]"


def test_an_unknown_icon_token_is_shown_by_name_and_reported(tmp_path):
    entry = {
        "id": "x-1",
        "name": "Test Card",
        "card_type": "Spell",
        "domain": "Fury",
        "card_set": "Test",
        "collector_number": 1,
        "ability": "Pay :rb_rune_void:.",
    }
    path = tmp_path / "cards.json"
    path.write_text(json.dumps([entry]), encoding="utf-8")
    parsed = parse_cards(path)
    assert parsed.cards[0].ability_text == "Pay [Rune void]."
    assert any("rb_rune_void" in issue.message for issue in parsed.issues)


def test_bracketed_keywords_with_values(by_name):
    volibear = by_name["Volibear, Imposing"]
    assert [(keyword.term, keyword.value) for keyword in volibear.keywords] == [("Shield", 3), ("Tank", None)]
    assert [(k.term, k.value, k.raw_text) for k in by_name["Volibear, Furious"].keywords] == [
        ("Deflect", 2, "[Deflect 2]")
    ]


def test_icons_in_brackets_are_not_keywords():
    found = card_keywords("[Repeat] [2][C] — [Hidden]. Choose one — [A] [or] [Assault 2] [Quick-Draw] [E]")
    assert [(keyword.term, keyword.value) for keyword in found] == [
        ("Repeat", None),
        ("Hidden", None),
        ("Assault", 2),
        ("Quick-Draw", None),
    ]


def test_keyword_totals_over_the_card_list(cards):
    terms = Counter(keyword.term.casefold() for card in cards.cards for keyword in card.keywords)
    assert {"tank", "deflect", "hidden", "assault", "legion", "shield", "accelerate"} <= set(terms)
    assert not any(len(term) == 1 or term.isdigit() for term in terms)


# ----------------------------------------------------------------------------- errata


def test_errata_are_all_parsed(errata):
    assert errata.entries == len(errata.errata) == 57


def test_faq_only_entries_keep_their_questions(errata):
    faq_only = [erratum for erratum in errata.errata if erratum.old_text is None]
    assert len(faq_only) == 10
    assert all(erratum.new_text is None and erratum.faqs for erratum in faq_only)
    assert all(question and answer for erratum in faq_only for question, answer in erratum.faqs)


def test_parse_file_dispatches_on_kind(tmp_path):
    assert len(parse_file(ERRATA, "errata").errata) == 57
    with pytest.raises(IngestError):
        parse_file(ERRATA, "rules")


# ----------------------------------------------------------------------------- malformed input


def write(tmp_path, text: str):
    path = tmp_path / "broken.json"
    path.write_text(text, encoding="utf-8")
    return path


GOOD = {
    "id": "x-1",
    "name": "Good",
    "card_type": "Unit",
    "domain": "Fury",
    "card_set": "Test",
    "collector_number": 1,
    "energy": 2,
    "might": 2,
    "ability": "",
}


def test_not_json_names_file_and_line(tmp_path):
    path = write(tmp_path, '[\n {"name": "a",\n  oops}\n]')
    with pytest.raises(IngestError) as raised:
        parse_cards(path)
    assert raised.value.path == str(path) and raised.value.line == 3
    assert "JSON" in raised.value.expected


def test_missing_name_names_the_entry_and_its_line(tmp_path):
    nameless = {key: value for key, value in GOOD.items() if key != "name"}
    path = write(tmp_path, json.dumps([GOOD, nameless], indent=1))
    with pytest.raises(IngestError) as raised:
        parse_cards(path)
    error = raised.value
    assert error.path == str(path)
    assert error.line == 2 + len(json.dumps(GOOD, indent=1).splitlines())  # where entry 2 starts
    assert "card entry 2" in error.expected and "'name'" in error.expected


def test_wrong_types_are_not_coerced(tmp_path):
    path = write(tmp_path, json.dumps([GOOD, {**GOOD, "name": "Bad", "energy": "3"}]))
    with pytest.raises(IngestError) as raised:
        parse_cards(path)
    assert "card entry 2 ('Bad')" in raised.value.expected and "'energy'" in raised.value.expected
    assert raised.value.found == "'3'"
    with pytest.raises(IngestError):
        parse_cards(write(tmp_path, json.dumps([{**GOOD, "name": ""}])))
    with pytest.raises(IngestError):
        parse_cards(write(tmp_path, json.dumps([GOOD, ["not", "an", "object"]])))
    with pytest.raises(IngestError) as raised:
        parse_cards(write(tmp_path, json.dumps({"cards": [GOOD]})))
    assert "a JSON list" in raised.value.expected


def test_malformed_errata(tmp_path):
    with pytest.raises(IngestError) as raised:
        parse_errata(write(tmp_path, json.dumps([{"name": "X", "oldText": "a", "set": "OGN"}])))
    assert "erratum entry 1 ('X')" in raised.value.expected
    with pytest.raises(IngestError):
        parse_errata(write(tmp_path, json.dumps([{"oldText": "a", "newText": "b"}])))
    with pytest.raises(IngestError):
        parse_errata(write(tmp_path, json.dumps([{"name": "X", "faqs": [{"question": 1, "answer": "a"}]}])))


# ----------------------------------------------------------------------------- names


def test_alias_resolution(cards):
    index = card_name_index(cards.cards, load_aliases())
    for surface, card in [
        ("Zhonyas", "Zhonya's Hourglass"),
        ("Hourglass", "Zhonya's Hourglass"),
        ("Zhonya's", "Zhonya's Hourglass"),
        ("Ahri Legend", "Nine-Tailed Fox"),
        ("Ahri's Legend", "Nine-Tailed Fox"),
        ("Voli Legend", "Relentless Storm"),
        ("Master Yi Legend", "Wuju Bladesman - Starter"),
        ("Darius Executioner", "Darius, Executioner"),
        ("Zero Drive", "The Zero Drive"),
        ("Dragon Rage", "Dragon's Rage"),
        ("GA", "Guardian Angel"),
        ("Guillotine", "Noxian Guillotine"),
    ]:
        assert index.surfaces[surface] == {card}, surface
    assert index.surfaces["Ahri"] == {"Ahri, Alluring", "Ahri, Inquisitive", "Nine-Tailed Fox"}
    assert "Boss" not in index.surfaces  # "The Boss" keeps its article: "boss" is an ordinary word
    assert index.problems == []


def test_curated_legends_are_legends_of_that_champion(cards, by_name):
    curated = yaml.safe_load(ALIASES_FILE.read_text(encoding="utf-8"))["legends"]
    legends = {card.name.removesuffix(" - Starter"): card for card in cards.cards if card.card_type == "Legend"}
    assert set(curated.values()) == set(legends)  # every Legend has its champion, and only Legends are listed
    for champion, title in curated.items():
        units = [card for card in cards.cards if card.name.startswith(f"{champion}, ")]
        assert units, champion
        assert all(set(unit.domains) <= set(legends[title].domains) for unit in units), champion


def test_an_alias_to_a_card_the_list_lacks_is_reported(cards, tmp_path):
    path = tmp_path / "aliases.yaml"
    path.write_text("aliases:\n  Imaginary Card: [Imaginary]\n", encoding="utf-8")
    index = card_name_index(cards.cards, load_aliases(path))
    assert index.surfaces["Imaginary"] == {"Imaginary Card"}
    assert index.not_in_card_list == {"Imaginary Card"}
    assert [problem.name for problem in index.problems] == ["Imaginary Card"]


# Card names in the rulings (HAZARDS.md 7.3): ruling -> cards, with legends and
# champions as the ruling's context shows (ruling 2's "-1 might" Ahri is her Legend).
AUDITED = {
    1: {"Symbol of the Solari"},
    2: {"Nine-Tailed Fox", "Discipline"},
    3: {"Zhonya's Hourglass", "Smoke Screen", "Void Seeker"},
    5: {"Portal Rescue"},
    6: {"Skyfall of Areion"},
    7: {"The Zero Drive"},
    8: {"Vilemaw's Lair", "Charm", "Ride the Wind", "Tideturner"},
    9: {"Zhonya's Hourglass", "Guardian Angel"},
    10: {"Smoke Screen"},
    11: {"Portal Rescue", "Icathian Rain"},
    12: {"Portal Rescue", "Riptide Rex", "Charm"},
    13: {"Noxian Guillotine", "Zhonya's Hourglass", "Imperial Decree"},
    14: {"Wuju Bladesman - Starter", "Leona, Zealot"},
    16: {"Dragon's Rage", "Nine-Tailed Fox"},
    17: {"Charm", "Unforgiven"},
    18: {"Wuju Bladesman - Starter", "Warwick, Hunter", "Stormbringer"},
    19: {"Ride the Wind", "Nine-Tailed Fox"},
    20: {"Zenith Blade"},
    21: {"Hostile Takeover"},
    22: {"Zhonya's Hourglass", "Yasuo"},
    24: {"Ride the Wind"},
    25: {"Fight or Flight", "Yasuo", "Ride the Wind"},
    26: {"Zhonya's Hourglass", "Guardian Angel"},
    27: {"Zhonya's Hourglass", "Guardian Angel"},
    29: {"Cleave"},
    30: {"Nine-Tailed Fox"},
    32: {"Ride the Wind"},
    33: {"Ride the Wind"},
    35: {"Zenith Blade"},
    37: {"Reaver's Row", "Anivia, Primal"},
    38: {"The Dreaming Tree", "Cleave", "Defy"},
    39: {"Dazzling Aurora"},
    41: {"Thousand-Tailed Watcher", "Stupefy", "Clockwork Keeper", "Wuju Bladesman - Starter"},
    42: {"Discipline", "Nine-Tailed Fox"},
    45: {"Ride the Wind"},
    47: {"Fortified Position"},
    48: {"Traveling Merchant", "Gust", "Cleave"},
    49: {"Darius, Executioner", "Smoke Screen"},
    50: {"Trifarian War Camp", "Relentless Storm"},
}


def test_card_names_in_rulings_resolve(mentions):
    found = {(mention.ruling_position, mention.card_name) for mention in mentions.mentions}
    expected = {(position, card) for position, cards in AUDITED.items() for card in cards}
    assert found <= expected  # nothing that is not a card name
    missing = expected - found
    assert len(missing) <= 4
    assert {card for _, card in missing} <= {"Portal Rescue", "Yasuo", "Wuju Bladesman - Starter"}
    assert len({card for _, card in found}) >= 38
    assert {mention.ruling_position for mention in mentions.mentions} >= set(AUDITED) - {5, 22, 25}


# The 43 distinct names of HAZARDS.md 7.3, each with the surfaces the rulings write it as.
AUDITED_NAMES = {
    "Symbol of the Solari": ["Symbol of the Solari"],
    "Ahri": ["Ahri"],
    "Discipline": ["Discipline"],
    "Zhonya's Hourglass": ["Hourglass", "Zhonyas", "Zhonya's", "Zhonya's Hourglass"],
    "Smoke Screen": ["Smoke Screen"],
    "Void Seeker": ["Void Seeker"],
    "Portal Rescue": ["Portal", "Portal Rescue"],
    "Skyfall": ["Skyfall"],
    "Zero Drive": ["Zero Drive"],
    "Vilemaw's Lair": ["Vilemaw's Lair"],
    "Charm": ["Charm"],
    "Ride the Wind": ["Ride the Wind"],
    "Tideturner": ["Tideturner"],
    "Guardian Angel": ["Guardian Angel", "GA"],
    "Icathian Rain": ["Icathian Rain"],
    "Riptide Rex": ["Riptide Rex", "Rex"],
    "Noxian Guillotine": ["Noxian Guillotine", "Guillotine"],
    "Imperial Decree": ["Imperial Decree", "Decree"],
    "Yi": ["Yi", "Master Yi"],
    "Leona Zealot": ["Leona Zealot"],
    "Dragon Rage": ["Dragon Rage"],
    "Nine-Tailed Fox": ["Ahri Legend", "Nine-Tailed Fox"],
    "Yasuo": ["Yasuo"],
    "Warwick": ["Warwick"],
    "Stormbringer": ["Stormbringer"],
    "Zenith Blade": ["Zenith Blade"],
    "Hostile Takeover": ["Hostile Takeover"],
    "Fight or Flight": ["Fight or Flight"],
    "Cleave": ["Cleave"],
    "Reaver's Row": ["Reaver's Row"],
    "Anivia": ["Anivia"],
    "The Dreaming Tree": ["The Dreaming Tree"],
    "Defy": ["Defy"],
    "Dazzling Aurora": ["Dazzling Aurora"],
    "Thousand-Tailed Watcher": ["Thousands-Tailed Watcher", "Watcher"],
    "Stupefy": ["Stupify"],
    "Clockwork Keeper": ["Clockworker Keeper"],
    "Fortified Position": ["Fortified Position"],
    "Traveling Merchant": ["Traveling Merchant", "Merchant"],
    "Gust": ["Gust"],
    "Darius Executioner": ["Darius Executioner"],
    "Trifarian War Camp": ["Trifarian War Camp", "War Camp"],
    "Voli Legend": ["Voli Legend", "Voli"],
}


def test_at_least_40_of_the_43_audited_names_resolve_wherever_they_occur(mentions):
    assert len(AUDITED_NAMES) == 43
    resolved_surfaces = {mention.surface for mention in mentions.mentions}
    unresolved_surfaces = {name.surface for name in mentions.unresolved}
    resolved = [
        name
        for name, surfaces in AUDITED_NAMES.items()
        if resolved_surfaces & set(surfaces) and not unresolved_surfaces & set(surfaces)
    ]
    assert len(resolved) >= 40
    assert set(AUDITED_NAMES) - set(resolved) <= {"Portal Rescue", "Yi", "Yasuo"}


def test_unresolved_names_are_listed_with_a_reason(mentions):
    unresolved = {name.surface: name for name in mentions.unresolved}
    assert set(unresolved) <= {"Portal", "Yasuo", "Master Yi"}
    assert unresolved["Portal"].rulings == (5,) and "Temporal Portal" in unresolved["Portal"].reason
    assert all(name.reason for name in mentions.unresolved)


def test_ordinary_words_keywords_and_possessives(mentions, rulings):
    surfaces = {mention.surface for mention in mentions.mentions}
    assert "charmed" not in surfaces and "Charm" in surfaces
    assert not surfaces & {"Accelerate", "Ganking", "Assault", "Shield", "Might", "Buff", "deathknell"}
    yi = [mention for mention in mentions.mentions if mention.ruling_position == 14 and mention.surface == "Yi"]
    assert yi and yi[0].card_name == "Wuju Bladesman - Starter"  # from "Yi's +2 might"
    assert "Yi's" in rulings[13].question


# ----------------------------------------------------------------------------- storage


@pytest.fixture
def db():
    database = sqlite_utils.Database(memory=True)
    schema.create(database)
    database["games"].insert({"id": "riftbound", "name": "Riftbound"})
    database["rulebooks"].insert({"id": "riftbound-core", "game_id": "riftbound", "slug": "core", "is_default": 1})
    for slug, kind, newest in [
        ("rules-old", "rules", 0),
        ("rules-new", "rules", 1),
        ("qa", "rulings", 0),
        ("card-list", "cards", 0),
        ("errata", "errata", 0),
    ]:
        database["documents"].insert(
            {
                "id": slug,
                "game_id": "riftbound",
                "kind": kind,
                "is_newest": newest,
                "version": slug,
                "rulebook_id": "riftbound-core" if kind == "rules" else None,
            }
        )
    database["keywords"].insert_all(
        [
            {"game_id": "riftbound", "document_id": "rules-new", "term": "Tank", "kind": "keyword", "aliases": "[]"},
            {"game_id": "riftbound", "document_id": "rules-new", "term": "Deflect", "kind": "keyword", "aliases": "[]"},
            {"game_id": "riftbound", "document_id": "rules-old", "term": "Shield", "kind": "keyword", "aliases": "[]"},
        ]
    )
    database["rulings"].insert_all(
        {
            "id": 100 + position,
            "game_id": "riftbound",
            "document_id": "qa",
            "position": position,
            "question": "?",
            "ruling": "!",
        }
        for position in (1, 2)
    )
    return database


def test_store_cards_printings_keywords_and_aliases(db, cards, errata):
    counts = store_cards(db, "riftbound", "card-list", cards, errata, errata_document_id="errata")
    assert counts["cards"] == db["cards"].count == len(cards.cards)
    assert db["card_printings"].count == 664
    assert db.execute("select count(*) from cards where in_card_list = 1").fetchone()[0] == len(cards.cards)
    fox = next(db.query("select * from cards where name = 'Nine-Tailed Fox'"))
    assert fox["domain"] == "Calm, Mind" and "[Might]" in fox["ability_text"] and fox["slug"] == "nine-tailed-fox"
    aliases = {
        row["alias"]
        for row in db.query(
            "select alias from card_aliases join cards on cards.id = card_id where name = ?", ["Zhonya's Hourglass"]
        )
    }
    assert {"Zhonyas", "Hourglass", "Zhonya's"} <= aliases
    assert counts["errata"] == 57 and counts["errata linked"] == 55
    assert db.execute("select count(*) from card_errata where card_id is null").fetchone()[0] == 2
    faqs = next(db.query("select faqs from card_errata where name = 'Pickpocket'"))["faqs"]
    assert json.loads(faqs)[0]["question"].startswith("Can Pickpocket")


def test_errata_stored_separately_link_to_stored_cards(db, cards, errata):
    store_cards(db, "riftbound", "card-list", cards)
    counts = store_errata(db, "riftbound", "errata", errata)
    assert counts["errata linked"] == 55 and sorted(counts["errata unmatched"]) == [
        "Cards that Reduce Might",
        "Cards with Weaponmaster",
    ]
    linked = db.execute(
        "select cards.name from card_errata join cards on cards.id = card_id where card_errata.name = 'Dark Child'"
    ).fetchall()
    assert linked == [("Dark Child - Starter",)]  # the product label is not part of the name


def test_current_text_is_the_newest_errata_wording(db, cards, errata):
    store_cards(db, "riftbound", "card-list", cards)
    listed = {row["name"]: row for row in db.query("select * from cards")}
    store_errata(db, "riftbound", "errata", errata)
    current = {row["name"]: row for row in db.query("select * from cards")}
    zhonya = current["Zhonya's Hourglass"]
    assert "Recall that unit exhausted" in zhonya["ability_text"]
    assert "Heal that unit, exhaust it, and recall it" in zhonya["current_text"]
    assert "[Any rune]" in zhonya["current_text"] and "[A]" not in zhonya["current_text"]  # worded like ability_text
    # The errata list's Ava Achiever pays [C]: worded as her own domain's rune, as on the printed card.
    assert "pay [Mind rune] to play a card" in current["Ava Achiever"]["current_text"]
    errata_names = {erratum.name for erratum in errata.errata if erratum.new_text}
    errata_names |= {card.name for card in cards.cards if card.listed_errata}
    never_errata = [name for name in current if name not in errata_names]
    assert never_errata and all(current[name]["current_text"] == current[name]["ability_text"] for name in never_errata)
    # The card list's own errata already apply before the errata list is read.
    assert listed["Zhonya's Hourglass"]["current_text"].split() == zhonya["current_text"].split()


def test_card_keywords_link_to_the_newest_glossary_only(db, cards):
    store_cards(db, "riftbound", "card-list", cards)
    report = link_card_keywords(db, "riftbound")
    assert report["glossary document"] == "rules-new"
    linked = {
        row["term"]: row["keyword_id"]
        for row in db.query(
            "select ck.term, ck.keyword_id from card_keywords ck join cards c on c.id = ck.card_id "
            "where c.name = 'Volibear, Imposing'"
        )
    }
    tank = next(db.query("select id from keywords where term = 'Tank'"))["id"]
    assert linked == {"Shield": None, "Tank": tank}  # Shield is only in the older rules document
    assert "Shield" in report["card keywords not in the glossary"]
    assert (
        db.execute("select count(*) from card_keywords where term = 'Deflect' and keyword_id is null").fetchone()[0]
        == 0
    )


def test_store_card_mentions(db, cards):
    store_cards(db, "riftbound", "card-list", cards)
    counts = store_card_mentions(
        db,
        "riftbound",
        [
            CardMention(1, "Symbol of the Solari", "Symbol of the Solari", "name"),
            CardMention(2, "Lost Card", "Lost", "alias"),
        ],
        [UnresolvedName("Portal", (2,), "could be either")],
    )
    assert counts["card mentions"] == 2
    rows = list(
        db.query(
            "select m.ruling_id, m.surface, c.name, c.in_card_list from card_mentions m "
            "join cards c on c.id = m.card_id order by m.id"
        )
    )
    assert [(row["ruling_id"], row["name"], row["in_card_list"]) for row in rows] == [
        (101, "Symbol of the Solari", 1),
        (102, "Lost Card", 0),
    ]
    issue = next(db.query("select * from parse_issues"))
    assert issue["document_id"] == "qa" and "Portal" in issue["message"]


def test_link_card_mentions_reads_stored_rulings_and_cards(db, cards, rulings, mentions):
    store_cards(db, "riftbound", "card-list", cards)
    db["documents"].insert({"id": "qa-full", "game_id": "riftbound", "kind": "rulings", "version": "full"})
    for ruling in rulings:
        ruling_id = 1000 + ruling.position
        db["rulings"].insert(
            {
                "id": ruling_id,
                "game_id": "riftbound",
                "document_id": "qa-full",
                "position": ruling.position,
                "question": ruling.question,
                "ruling": ruling.ruling,
            }
        )
        db["ruling_steps"].insert_all(
            {"ruling_id": ruling_id, "branch": step.branch, "position": step.position, "text": step.text}
            for step in ruling.steps
        )
        db["ruling_nuances"].insert_all(
            {"ruling_id": ruling_id, "position": position, "text": text}
            for position, text in enumerate(ruling.nuances, start=1)
        )
    counts = link_card_mentions(db, "riftbound", document_id="qa-full")
    assert counts["card mentions"] == len(mentions.mentions)
    assert counts["rulings naming cards"] == len({mention.ruling_position for mention in mentions.mentions})
    assert len(counts["card names unresolved"]) == len(mentions.unresolved)
    fox = db.execute(
        "select count(distinct ruling_id) from card_mentions m join cards c on c.id = m.card_id "
        "where c.name = 'Nine-Tailed Fox'"
    ).fetchone()[0]
    assert fox == 5  # rulings 2, 16, 19, 30, 42
