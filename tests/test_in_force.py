"""What is in force on a day: the Core and Tournament Rules versions, the official FAQs, the legal sets and the
bans, on dates across 2025-2026 before and after each Core Rules change and ban wave. The effective dates are the
real data file (rules_db/data/in_force.yaml); the documents those of the corpus; the sets and bans tables are
made here in the shape the card pipeline stores them (sets(id, name, release_date), bans(card_id, format,
effective_date, source)), with a disputed date as the corpus's ban sources have one, and an undated claim that disputes nothing."""

from __future__ import annotations

import pytest
import sqlite_utils

from rules_db import in_force, schema

CORE = [("2025-06-02", None), ("2025-12-01", None), ("2026-06-18", "1.4")]


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = tmp_path_factory.mktemp("in_force") / "rules.db"
    db = sqlite_utils.Database(path)
    schema.create(db)
    db["games"].insert({"id": "riftbound", "name": "Riftbound"})
    db["rulebooks"].insert_all(
        [
            {"id": "riftbound-core", "game_id": "riftbound", "slug": "core", "title": "Core Rules", "is_default": 1},
            {
                "id": "riftbound-tournament",
                "game_id": "riftbound",
                "slug": "tournament",
                "title": "Tournament Rules",
                "is_default": 0,
            },
        ]
    )
    documents = [
        {"id": f"core-{version}", "version": version, "version_label": label, "rulebook_id": "riftbound-core"}
        for version, label in CORE
    ] + [
        {
            "id": "tournament-2026-07-16",
            "version": "2026-07-16",
            "version_label": None,
            "rulebook_id": "riftbound-tournament",
        }
    ]
    for document in documents:
        db["documents"].insert(
            {
                **document,
                "game_id": "riftbound",
                "title": "Rules",
                "kind": "rules",
                "version_date": document["version"],
                "is_newest": int(document["version"] in ("2026-06-18", "2026-07-16")),
            }
        )
    in_force.store(db, games={"riftbound"})
    for document_id, published, precedence in (
        ("origins-faq", "2025-10-16", None),
        ("unleashed-faq", "2026-04-29", "this document will take precedence"),
        ("vendetta-faq", "2026-08-14", "the FAQ takes precedence"),
    ):
        db["documents"].insert(
            {"id": document_id, "game_id": "riftbound", "title": document_id, "kind": "rulings", "version": published}
        )
        db["faq_articles"].insert(
            {
                "document_id": document_id,
                "game_id": "riftbound",
                "title": document_id,
                "published": published,
                "publisher": "Riot Games",
                "official": 1,
                "precedence": precedence,
            }
        )
    db["cards"].insert_all(
        [
            {"id": n, "game_id": "riftbound", "name": name, "slug": name.lower().replace(" ", "-")}
            for n, name in enumerate(["Called Shot", "Draven", "Ekko", "Stacked Deck"], start=1)
        ]
    )
    db["sets"].insert_all(
        [
            {"id": "OGN", "name": "Origins", "release_date": "2025-10-31"},
            {"id": "SFD", "name": "Spiritforged", "release_date": "2026-02-13"},
            {"id": "UNL", "name": "Unleashed", "release_date": "2026-05-08"},
            {"id": "VEN", "name": "Vendetta", "release_date": "2026-07-31"},
        ],
        pk="id",
    )
    db["bans"].insert_all(
        [
            {"card_id": 1, "format": "Constructed", "effective_date": "2026-03-31", "source": "banned list"},
            {"card_id": 1, "format": "Constructed", "effective_date": "2026-07-24", "source": "Korean ban list"},
            {"card_id": 3, "format": "Constructed", "effective_date": "2026-09-18", "source": "Korean ban list"},
            {"card_id": 4, "format": "2v2", "effective_date": "2026-09-18", "source": "Korean ban list"},
            # a wordy ban notice that names the card without a date: it confirms the ban, it disputes no date
            {"card_id": 4, "format": "2v2", "effective_date": None, "source": "ban notice"},
        ]
    )
    return db


def _summary(db, day: str) -> dict:
    found = in_force.in_force_on(db.conn, "riftbound", day)
    books = {item["rulebook"]["slug"]: item["version"] for item in found["rulebooks"]}
    core, tournament = books["core"], books["tournament"]
    return {
        "core": core and (core["label"], core["how"], core["reading"]["version"]),
        "tournament": tournament and tournament["reading"]["version"],
        "faqs": [(faq["document_id"], bool(faq["superseded_by"])) for faq in found["faqs"]],
        "sets": [row["name"] for row in found["sets"]["legal"]],
        "bans": {
            f["format"]: [(c["name"], c["since"], c["disputed"]) for c in f["cards"]] for f in found["bans"]["formats"]
        },
    }


@pytest.mark.parametrize(
    ("day", "expected"),
    [
        (
            "2025-05-01",
            {"core": None, "tournament": None, "faqs": [], "sets": [], "bans": {"Constructed": [], "2v2": []}},
        ),
        (
            "2025-10-23",
            {
                "core": ("1.0", "stored", "2025-06-02"),
                "tournament": None,
                "faqs": [("origins-faq", False)],
                "sets": [],
                "bans": {"Constructed": [], "2v2": []},
            },
        ),
        (
            "2025-10-24",
            {
                "core": ("1.1", "earlier", "2025-06-02"),
                "tournament": None,
                "faqs": [("origins-faq", True)],
                "sets": [],
                "bans": {"Constructed": [], "2v2": []},
            },
        ),
        (
            "2025-12-12",
            {
                "core": ("1.2", "stored", "2025-12-01"),
                "tournament": None,
                "faqs": [("origins-faq", True)],
                "sets": ["Origins"],
                "bans": {"Constructed": [], "2v2": []},
            },
        ),
        (
            "2026-03-30",
            {
                "core": ("1.3", "stand-in", "2026-06-18"),
                "tournament": None,
                "faqs": [("origins-faq", True)],
                "sets": ["Origins", "Spiritforged"],
                "bans": {"Constructed": [], "2v2": []},
            },
        ),
        (
            "2026-03-31",
            {
                "core": ("1.3", "stand-in", "2026-06-18"),
                "tournament": None,
                "faqs": [("origins-faq", True)],
                "sets": ["Origins", "Spiritforged"],
                "bans": {"Constructed": [("Called Shot", "2026-03-31", True)], "2v2": []},
            },
        ),
        (
            "2026-07-23",
            {
                "core": ("1.3", "stand-in", "2026-06-18"),
                "tournament": "2026-07-16",
                "faqs": [("unleashed-faq", False), ("origins-faq", True)],
                "sets": ["Origins", "Spiritforged", "Unleashed"],
                "bans": {"Constructed": [("Called Shot", "2026-03-31", True)], "2v2": []},
            },
        ),
        (
            "2026-07-24",
            {
                "core": ("1.4", "stored", "2026-06-18"),
                "tournament": "2026-07-16",
                "faqs": [("unleashed-faq", True), ("origins-faq", True)],
                "sets": ["Origins", "Spiritforged", "Unleashed"],
                "bans": {"Constructed": [("Called Shot", "2026-03-31", True)], "2v2": []},
            },
        ),
        (
            "2026-09-18",
            {
                "core": ("1.4", "stored", "2026-06-18"),
                "tournament": "2026-07-16",
                "faqs": [("vendetta-faq", False), ("unleashed-faq", True), ("origins-faq", True)],
                "sets": ["Origins", "Spiritforged", "Unleashed", "Vendetta"],
                "bans": {
                    "Constructed": [("Called Shot", "2026-03-31", True), ("Ekko", "2026-09-18", False)],
                    "2v2": [("Stacked Deck", "2026-09-18", False)],
                },
            },
        ),
    ],
)
def test_in_force_on_a_day(db, day, expected):
    assert _summary(db, day) == expected


def test_the_rules_read_for_a_day_follow_the_effective_dates_not_the_last_updated_dates(db):
    # 2025-12-01 is the Last Updated date of 1.2, which took effect on 2025-12-12: 1.1 (read as 1.0's text) before
    assert in_force.reading_on(db.conn, "riftbound", "2025-12-05")["version"] == "2025-06-02"
    assert in_force.reading_on(db.conn, "riftbound", "2025-12-12")["version"] == "2025-12-01"
    # 2026-06-18 (1.4) was printed before 1.4 took effect on 2026-07-24; the days between read it as 1.3's stand-in
    assert in_force.version_on(db.conn, "riftbound", "2026-07-01")["label"] == "1.3"


def test_patch_notes_between_two_stored_versions_are_every_version_between(db):
    labels = [row["label"] for row in in_force.patch_notes_between(db.conn, "riftbound", "2025-06-02", "2025-12-01")]
    assert labels == ["1.1", "1.2"]
    labels = [row["label"] for row in in_force.patch_notes_between(db.conn, "riftbound", "2025-12-01", "2026-06-18")]
    assert labels == ["1.3", "1.4"]
    assert in_force.patch_notes_between(db.conn, "riftbound", "2026-06-18", "2025-12-01") == []
    assert db["patch_notes"].count == 4 and "Vendetta" in db["patch_notes"].get(4)["title"]


def test_a_card_page_day_shows_every_source_of_a_ban(db):
    found = in_force.card_bans_on(db.conn, 1, "2026-05-01")
    (constructed,) = found["formats"]
    assert constructed["banned"] and [c["source"] for c in constructed["claims"]] == ["banned list", "Korean ban list"]
    assert not in_force.card_bans_on(db.conn, 3, "2026-09-17")["formats"][0]["banned"]


def test_without_the_sets_and_bans_tables_the_answer_says_it_does_not_know(tmp_path):
    db = sqlite_utils.Database(tmp_path / "bare.db")
    schema.create(db)
    # The schema has the tables since the card sets and bans came (rules_db.bans); a database built before has not.
    for table in ("bans", "sets"):
        db.execute(f"drop table {table}")
    assert in_force.sets_on(db.conn, "riftbound", "2026-01-01") == {"known": False, "legal": [], "upcoming": []}
    assert in_force.bans_on(db.conn, "riftbound", "2026-01-01") == {"known": False, "formats": []}


def test_a_malformed_dates_file_names_the_file_and_the_entry(tmp_path):
    path = tmp_path / "in_force.yaml"
    path.write_text("riftbound:\n  core:\n    - label: '1.0'\n      effective: soon\n")
    with pytest.raises(in_force.InForceDataError, match=r"in_force.yaml: riftbound core entry 1"):
        in_force.load(path)
    assert in_force.iso_date("2026-02-30") is None and in_force.iso_date("2026-02-28") == "2026-02-28"
