"""What a rulebook's first lines say about it, in every way extractions print it."""

from __future__ import annotations

import pytest

from ingest.header import parse_date, read_header, rulebook_slug


@pytest.mark.parametrize(
    "line, date",
    [
        ("Last Updated: 2025-06-02", "2025-06-02"),
        ("Last Updated 7/16/2026", "2026-07-16"),
        ("Last updated — June 18, 2026", "2026-06-18"),
        ("**Last Updated:** 18 June 2026", "2026-06-18"),
        ("## Last Updated: Jun. 3rd, 2026", "2026-06-03"),
        ("<p>Last&nbsp;Updated: 2026/06/18</p>", "2026-06-18"),
        ("Last Updated: 3/25/2026", "2026-03-25"),
    ],
)
def test_last_updated_in_every_form(line, date):
    header = read_header(["Riftbound Core Rules", "", line, "000. Golden Rules"])
    assert header.version_date == date and header.date_line == 3
    assert header.title == "Riftbound Core Rules"


def test_no_date_and_impossible_dates():
    assert read_header(["Riftbound Core Rules", "101. Deck Construction"]).version_date is None
    assert parse_date("13/45/2026") is None


def test_version_label():
    assert read_header(["# Riftbound Core Rules v1.4 “Vendetta”", "Last Updated: 2026-06-18"]).version_label == "1.4"
    assert read_header(["Riftbound Core Rules", "Version 1.3"]).version_label == "1.3"


@pytest.mark.parametrize(
    "title, slug",
    [
        ("Riftbound Tournament Rules", "tournament"),
        ("Riftbound Core Rules", "core"),
        ("RIFTBOUND CORE RULES", "core"),
        ("Riftbound Comprehensive Rules", None),
        ("Riftbound Core Rules v1.4 \u201cVendetta\u201d", "core"),  # a label and a subtitle name no rulebook
        ("Version 1.3 Riftbound Core Rules", "core"),
        (None, None),
    ],
)
def test_rulebook_from_title(title, slug):
    assert rulebook_slug(title, "Riftbound") == slug


@pytest.mark.parametrize(
    "joined", ["Last Updated 7/16/2026", "\u2014 Last Updated: 2026-07-16", "| updated 16 July 2026"]
)
def test_a_date_printed_on_the_title_line_is_not_part_of_the_title(joined):
    """Extractions that join the header into one line."""
    header = read_header([f"Riftbound Tournament Rules {joined}", "000. Golden Rule"])
    assert (header.title, header.version_date, header.date_line) == ("Riftbound Tournament Rules", "2026-07-16", 1)
    assert rulebook_slug(header.title, "Riftbound") == "tournament"
