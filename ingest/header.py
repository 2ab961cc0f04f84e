"""What a rulebook says about itself in its first lines: title, rulebook, version date and label.

Extractions of one document differ in how they print it: ``Last Updated: 2025-06-02``,
``Last Updated 7/16/2026`` (no colon, month first), ``Last updated — June 18, 2026``,
``**Last Updated:** 18 June 2026``, ``Version 1.4``, ``v1.4 "Vendetta"``. Dates come back as
ISO dates; a text that gives none leaves the version to the manifest or the file name.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

HEADER_LINES = 25  # the header is within the first lines; later dates are rule text

_MONTHS = {
    name: number
    for number, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for name in names
}
_MONTH = r"(?P<month_name>[A-Za-z]{3,9})\.?"
_DATE_FORMS = [
    re.compile(r"(?P<year>\d{4})[-./](?P<month>\d{1,2})[-./](?P<day>\d{1,2})"),  # 2025-06-02
    re.compile(r"(?P<month>\d{1,2})/(?P<day>\d{1,2})/(?P<year>\d{4})"),  # 7/16/2026 (US order)
    re.compile(rf"{_MONTH}\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<year>\d{{4}})"),  # June 18, 2026
    re.compile(rf"(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\s+{_MONTH},?\s+(?P<year>\d{{4}})"),  # 18 June 2026
]
_LAST_UPDATED = re.compile(r"\b(?:last\s+)?updated\b[\s:*_\-\u2013\u2014]*(?P<rest>.*)", re.IGNORECASE)
_LABEL = re.compile(r"(?:\bversion\s*|\bv)(?P<label>\d+(?:\.\d+)+)\b", re.IGNORECASE)
_MARKUP = re.compile(r"<[^>]*>|^[#>\s]+|[*_`]+")
_MARKUP_CHARACTER = re.compile(r"[<>#*_`]")  # in no line without markup: most lines skip the substitution
# Words of a title that name no particular rulebook.
_GENERIC = {"rules", "rule", "rulebook", "document", "comprehensive", "official", "the", "of"}


@dataclass(frozen=True)
class Header:
    title: str | None
    version_date: str | None  # ISO
    version_label: str | None
    title_line: int | None = None  # 1-based
    date_line: int | None = None


def clean(line: str) -> str:
    """A header line without markup: markdown heading marks, emphasis, HTML tags and entities."""
    text = html.unescape(line)
    return _MARKUP.sub("", text).strip() if _MARKUP_CHARACTER.search(text) else text.strip()


def read_header(lines: list[str]) -> Header:
    """Title (the first line with text), the ``Last Updated`` date and a version label, if given."""
    title = title_line = date = date_line = label = None
    for index, text in _shown_lines(lines[:HEADER_LINES]):
        if title is None:
            title, title_line = _title(text), index
        updated = _LAST_UPDATED.search(text)
        if date is None and updated and (found := parse_date(updated.group("rest"))):
            date, date_line = found, index
        if label is None and (match := _LABEL.search(text)):
            label = match.group("label")
    return Header(title, date, label, title_line, date_line)


# What a page does not show: a style sheet, a script, a comment, a document type declaration.
_HIDDEN_BLOCK = re.compile(r"<(style|script)\b[^>]*>.*?</\1\s*>|<!--.*?-->|<![A-Za-z][^>]*>", re.IGNORECASE | re.DOTALL)


def _shown_lines(lines: list[str]):
    """(line number, text) of each line that shows text once markup is gone: an HTML page's style sheet or
    script is not its title, whatever line it starts on."""
    text = "\n".join(lines)
    if "<" in text:  # blanked, not removed: the line numbers stay the file's
        text = _HIDDEN_BLOCK.sub(lambda block: "\n" * block.group().count("\n"), text)
    for index, line in enumerate(text.split("\n"), start=1):
        shown = clean(line)
        if shown:
            yield index, shown


def _title(text: str) -> str:
    """The title line without a date printed on it ("Riftbound Tournament Rules Last Updated 7/16/2026",
    one line where an extraction joined the header)."""
    updated = _LAST_UPDATED.search(text)
    if updated is None or updated.start() == 0:
        return text
    return text[: updated.start()].rstrip(" \t|,;:-\u2013\u2014") or text


def parse_date(text: str) -> str | None:
    """The first date in ``text`` as ``YYYY-MM-DD``, or None."""
    for form in _DATE_FORMS:
        match = form.search(text)
        if match is None:
            continue
        fields = match.groupdict()
        month = int(fields["month"]) if fields.get("month") else _MONTHS.get(fields["month_name"].lower())
        day, year = int(fields["day"]), int(fields["year"])
        if month and 1 <= month <= 12 and 1 <= day <= 31:
            return f"{year:04d}-{month:02d}-{day:02d}"
    return None


def rulebook_slug(title: str | None, game_name: str) -> str | None:
    """Which of the game's rulebooks a title names: "Riftbound Tournament Rules" -> "tournament",
    "Riftbound Core Rules" -> "core"; None when the title names none beyond the game."""
    if not title:
        return None
    # The version label names no rulebook, and what follows the word "Rules" is a subtitle:
    # "Core Rules v1.4 “Vendetta”" is the Core Rules.
    named = re.split(r"(?i)\b(?:rules|rulebook)\b", _LABEL.sub(" ", title), maxsplit=1)[0]
    words = re.findall(r"[a-z]+", named.lower().replace(game_name.lower(), " "))
    specific = [word for word in words if word not in _GENERIC]
    return "-".join(specific) or None
