"""What is in force on a given day: the rulebook versions, the official FAQs, the legal sets and the bans.

The dates are data: ``data/in_force.yaml`` says when each version of a rulebook took effect (stored in the
table ``effective_dates`` at each build); the FAQs' dates are their publication dates (``faq_articles``); the
sets' release dates and the bans' effective dates are read from the tables ``sets(id, name, release_date)`` and
``bans(card_id, format, effective_date, source)`` when the database has them (another part of the build fills
them; without them the answer says it does not know).

How a day maps to a stored version: the version in force on day D is the newest listed version whose effective
date is on or before D. Its text is the stored document that *is* that version (``document``); when the corpus
does not hold it, its ``stand_in`` if the data names one (a stored version shown to carry its numbering), else
the newest stored version dated on or before its effective date (the text that was in force before it). Either
way the answer says that the version in force is not stored, and which text stands in. A day before every listed
version reads the oldest stored version if that is dated on or before the day; a rulebook the data does not list
(another game's) is read by its stored versions' own dates.
"""

from __future__ import annotations

import datetime
import re
import sqlite3
from importlib import resources
from pathlib import Path

import sqlite_utils

from ingest.documents import CORPUS_DIR
from ingest.source import load_yaml
from rules_db import versions
from rules_db.card_status import FORMATS, IMPLIED_FORMATS

DATA = Path(str(resources.files("rules_db") / "data" / "in_force.yaml"))
_ISO = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_FIELDS = {"label", "effective", "document", "stand_in", "patch_notes"}


class InForceDataError(ValueError):
    """The effective dates file is malformed: the message names the file and the entry."""


def iso_date(value: object) -> str | None:
    """``value`` as an ISO day (YYYY-MM-DD) if it is one, else None: what ``?on=`` accepts."""
    text = str(value or "").strip()
    if not _ISO.match(text):
        return None
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return None
    return text


def load(path: Path = DATA) -> list[dict]:
    """The rows of the effective dates file: game, rulebook, label, effective date and the rest, checked."""
    data = load_yaml(path.read_text(encoding="utf-8")) or {}
    rows = []
    for game, books in data.items():
        for rulebook, entries in (books or {}).items():
            for index, entry in enumerate(entries or [], start=1):
                where = f"{path}: {game} {rulebook} entry {index}"
                if not isinstance(entry, dict) or set(entry) - _FIELDS or "label" not in entry:
                    raise InForceDataError(f"{where}: expected a mapping of {sorted(_FIELDS)} with a label")
                effective = iso_date(entry.get("effective"))
                if effective is None:
                    raise InForceDataError(f"{where}: expected an ISO effective date, found {entry.get('effective')!r}")
                rows.append(
                    {
                        "game_id": str(game),
                        "rulebook": str(rulebook),
                        "label": str(entry["label"]),
                        "effective_date": effective,
                        "document_version": _text(entry.get("document")),
                        "stand_in_version": _text(entry.get("stand_in")),
                        "patch_notes": _text(entry.get("patch_notes")),
                    }
                )
    return rows


def _text(value: object) -> str | None:
    return None if value is None else str(value)


def store(db: sqlite_utils.Database, path: Path = DATA, games: set[str] | None = None) -> int:
    """The effective dates into ``effective_dates``, those of ``games`` (the games the build holds) only, and
    the patch notes they name into ``patch_notes`` (read from the corpus: the served database needs no corpus)."""
    rows = [row for row in load(path) if games is None or row["game_id"] in games]
    if rows:
        db.table("effective_dates").insert_all(rows)
    for row in rows:
        if row["patch_notes"]:
            db.table("patch_notes").insert(
                {
                    "game_id": row["game_id"],
                    "slug": patch_notes_slug(row["patch_notes"]),
                    "label": row["label"],
                    "file": row["patch_notes"],
                    **_read_patch_notes(path, row),
                }
            )
    return len(rows)


_SOURCE_LINE = re.compile(r"^>?\s*Source:\s*(?P<url>https?://\S+)", re.IGNORECASE)


def patch_notes_slug(file: str) -> str:
    """How a patch notes file is named in URLs: its name without folder or suffix (``unleashed``)."""
    return Path(file).stem


def _read_patch_notes(path: Path, row: dict) -> dict:
    """A patch notes file of the corpus: its title (first heading), source link and text."""
    source = CORPUS_DIR / row["patch_notes"]
    if not source.resolve().is_relative_to(CORPUS_DIR.resolve()) or not source.is_file():
        raise InForceDataError(f"{path}: {row['game_id']} {row['label']}: no patch notes file {row['patch_notes']}")
    text = source.read_text(encoding="utf-8")
    lines = text.splitlines()
    title = next((line.lstrip("# ").strip() for line in lines if line.startswith("#")), row["patch_notes"])
    url = next((match.group("url") for line in lines[:10] if (match := _SOURCE_LINE.match(line))), None)
    return {"title": title, "url": url, "text": text}


def _rows(conn, sql: str, params=()) -> list[dict]:
    cursor = versions.connection(conn).execute(sql, params)
    names = [column[0] for column in cursor.description]
    return [dict(zip(names, row)) for row in cursor.fetchall()]


def has_table(conn, name: str, columns: tuple[str, ...] = ()) -> bool:
    """Whether the database has the table, with those columns."""
    found = {row["name"] for row in _rows(conn, f"select name from pragma_table_info('{name}')")} if name else set()
    return bool(found) and set(columns) <= found


def listed_versions(conn, game: str, rulebook: str | None = None) -> list[dict]:
    """A rulebook's versions with their effective dates, oldest first (none when the data does not list it)."""
    if not has_table(conn, "effective_dates"):
        return []
    return _rows(
        conn,
        "select * from effective_dates where game_id = ? and rulebook = ? order by effective_date",
        [game, rulebook or versions.DEFAULT_RULEBOOK],
    )


def _stored(documents: list[dict], version: str | None) -> dict | None:
    return next((document for document in documents if version and document["version"] == version), None)


def _dated_on(documents: list[dict], day: str) -> dict | None:
    """The newest stored document dated on or before ``day``."""
    dated = [document for document in documents if (document["version_date"] or document["version"]) <= day]
    return dated[-1] if dated else None


def version_on(conn, game: str, day: str, rulebook: str | None = None) -> dict | None:
    """The version of a rulebook in force on ``day``: its label and effective date, the stored document that is
    it (None when not stored), the document to read (``reading``: it, or what stands in for it) and why."""
    documents = versions.versions(conn, game, rulebook)
    listed = listed_versions(conn, game, rulebook)
    if not documents:
        return None
    in_force = [row for row in listed if row["effective_date"] <= day]
    if not in_force:
        if listed:  # before every listed version: the oldest stored one, if it existed then
            oldest = documents[0]
            reading = oldest if (oldest["version_date"] or oldest["version"]) <= day else None
        else:
            reading = _dated_on(documents, day)
        if reading is None:
            return None
        return {
            "label": reading["version_label"] or reading["version"],
            "effective_date": reading["version_date"],
            "document": reading,
            "reading": reading,
            "stored": True,
            "how": "its own date",
            "next": _next(listed, day),
        }
    row = in_force[-1]
    document = _stored(documents, row["document_version"]) or next(
        (document for document in documents if document["version_label"] == row["label"]), None
    )
    if document is not None:
        reading, how = document, "stored"
    elif (stand_in := _stored(documents, row["stand_in_version"])) is not None:
        reading, how = stand_in, "stand-in"
    else:
        reading, how = _dated_on(documents, row["effective_date"]), "earlier"
    return {
        "label": row["label"],
        "effective_date": row["effective_date"],
        "document": document,
        "reading": reading,
        "stored": document is not None,
        "how": how,
        "patch_notes": row["patch_notes"],
        "next": _next(listed, day),
    }


def _next(listed: list[dict], day: str) -> dict | None:
    """The next version to take effect after ``day``, if the data knows one."""
    return next((row for row in listed if row["effective_date"] > day), None)


def reading_on(conn, game: str, day: str, rulebook: str | None = None) -> dict | None:
    """The stored document to read for a rulebook on ``day`` (see ``version_on``)."""
    found = version_on(conn, game, day, rulebook)
    return found["reading"] if found else None


def faqs_on(conn, game: str, day: str) -> list[dict]:
    """The official FAQs published on or before ``day``, newest first, each with the Core Rules version that
    took effect after it (on or before ``day``), if any: where the two differ, that newer Core Rules prevail."""
    if not has_table(conn, "faq_articles"):
        return []
    faqs = _rows(
        conn,
        """select f.*, (select count(*) from rulings where document_id = f.document_id) as rulings
        from faq_articles f where f.game_id = ? and f.published <= ? order by f.published desc, f.document_id""",
        [game, day],
    )
    listed = listed_versions(conn, game)
    for faq in faqs:
        later = [row for row in listed if faq["published"] < row["effective_date"] <= day]
        faq["superseded_by"] = later[0] if later else None
    return faqs


def sets_on(conn, game: str, day: str) -> dict:
    """The sets released on or before ``day`` (legal), and whether the database knows the sets at all."""
    if not has_table(conn, "sets", ("id", "name", "release_date")):
        return {"known": False, "legal": [], "upcoming": []}
    rows = _rows(conn, "select id, name, release_date from sets order by release_date, name")
    return {
        "known": True,
        "legal": [row for row in rows if row["release_date"] and row["release_date"] <= day],
        "upcoming": [row for row in rows if not row["release_date"] or row["release_date"] > day],
    }


def bans_on(conn, game: str, day: str) -> dict:
    """The bans in effect on ``day`` by format, each card with every source's date (sources that disagree on a
    date are each shown; ``includes`` names the formats whose bans a format also has), and whether the database
    knows the bans at all. A ban is ``disputed`` only when its sources give different dates: a source that gives
    no date disputes nothing."""
    if not has_table(conn, "bans", ("card_id", "format", "effective_date", "source")):
        return {"known": False, "formats": []}
    rows = _rows(
        conn,
        """select b.format, b.effective_date, b.source, c.id as card_id, c.name, c.slug
        from bans b join cards c on c.id = b.card_id
        where c.game_id = ? order by b.format, c.name, b.effective_date""",
        [game],
    )
    by_format: dict[str, dict[int, dict]] = {}
    for row in rows:
        card = by_format.setdefault(row["format"], {}).setdefault(
            row["card_id"], {"name": row["name"], "slug": row["slug"], "claims": []}
        )
        card["claims"].append({"effective_date": row["effective_date"], "source": row["source"]})
    formats = []
    for name in [*(known for known in FORMATS if known in by_format), *sorted(set(by_format) - set(FORMATS))]:
        cards = by_format[name]
        banned = []
        for card in cards.values():
            dates = {claim["effective_date"] for claim in card["claims"] if claim["effective_date"]}
            in_effect = [
                claim for claim in card["claims"] if claim["effective_date"] and claim["effective_date"] <= day
            ]
            if in_effect:
                card["disputed"] = len(dates) > 1
                card["since"] = min(claim["effective_date"] for claim in in_effect)
                banned.append(card)
            elif card["claims"] and any(claim["effective_date"] for claim in card["claims"]):
                pass  # banned only after the day
        formats.append({"format": name, "cards": banned, "includes": IMPLIED_FORMATS.get(name, ())})
    return {"known": True, "formats": formats}


def in_force_on(conn: sqlite3.Connection, game: str, day: str) -> dict:
    """Everything in force for a game on ``day``: each rulebook's version, the FAQs, the legal sets, the bans."""
    rulebooks = []
    for book in versions.rulebooks(conn, game):
        found = version_on(conn, game, day, book["slug"])
        rulebooks.append(
            {"rulebook": book, "version": found, "listed": bool(listed_versions(conn, game, book["slug"]))}
        )
    return {
        "day": day,
        "rulebooks": rulebooks,
        "faqs": faqs_on(conn, game, day),
        "sets": sets_on(conn, game, day),
        "bans": bans_on(conn, game, day),
    }


def patch_notes_between(conn, game: str, old_version: str, new_version: str, rulebook: str | None = None) -> list[dict]:
    """The patch notes of every listed version after the stored version ``old_version`` up to ``new_version``
    (the diff between them covers each): label, effective date and the corpus file."""
    listed = listed_versions(conn, game, rulebook)
    documents = versions.versions(conn, game, rulebook)
    old, new = _stored(documents, old_version), _stored(documents, new_version)
    if old is None or new is None:
        return []

    def position(document: dict) -> int | None:
        return next((index for index, row in enumerate(listed) if row["document_version"] == document["version"]), None)

    start, end = position(old), position(new)
    if start is None or end is None or end <= start:
        return []
    return [row for row in listed[start + 1 : end + 1] if row["patch_notes"]]


def card_bans_on(conn, card_id: int, day: str) -> dict:
    """A card's bans on ``day``: each format with every source's effective date, those in effect that day and
    those to come (None for ``known`` when the database holds no ban list)."""
    if not has_table(conn, "bans", ("card_id", "format", "effective_date", "source")):
        return {"known": False, "day": day, "formats": []}
    claims = _rows(
        conn,
        "select format, effective_date, source from bans where card_id = ? order by format, effective_date, source",
        [card_id],
    )
    formats: dict[str, dict] = {}
    for claim in claims:
        entry = formats.setdefault(claim["format"], {"format": claim["format"], "claims": [], "banned": False})
        entry["claims"].append(claim)
        if claim["effective_date"] and claim["effective_date"] <= day:
            entry["banned"] = True
    return {"known": True, "day": day, "formats": list(formats.values())}


def patch_notes_page(conn, game: str, slug: str) -> dict | None:
    """A version's patch notes (``patch_notes``), with the version's effective date and the stored versions
    whose diff it describes, or None."""
    if not has_table(conn, "patch_notes"):
        return None
    found = _rows(conn, "select * from patch_notes where game_id = ? and slug = ?", [game, slug])
    if not found:
        return None
    notes = found[0]
    listed = listed_versions(conn, game)
    version = next((row for row in listed if row["label"] == notes["label"]), None)
    documents = versions.versions(conn, game)
    diffs = [
        {"old": old["version"], "new": new["version"]}
        for old, new in zip(documents, documents[1:])
        if any(
            row["label"] == notes["label"] for row in patch_notes_between(conn, game, old["version"], new["version"])
        )
    ]
    game_row = _rows(conn, "select id, name from games where id = ?", [game])
    return {"notes": notes, "text": notes["text"], "version": version, "diffs": diffs, "game": game_row[0]}


def search_on(conn, day: str, game: str | None = None, rulebook: str | None = None) -> dict | None:
    """What a search asked for a day (``?on=``) reads: the version of the rulebook in force that day, of the game
    asked for, else of the one game whose versions are dated (None when that is not one game)."""
    if game is None:
        dated = (
            [row["game_id"] for row in _rows(conn, "select distinct game_id from effective_dates")]
            if has_table(conn, "effective_dates")
            else []
        )
        if len(dated) != 1:
            return None
        game = dated[0]
    return {"day": day, "game": game, "version": version_on(conn, game, day, rulebook)}
