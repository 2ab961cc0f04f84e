"""Card errata stored and applied: each card's wording in force (``cards.current_text``).

Errata lists come dated (each erratum with Riot's announcement and its date) or undated (an older list). A
dated list supersedes an undated one: an undated erratum of a card that a dated one covers is kept, marked
``superseded_by``; one the dated lists lack still applies (the build says which). The erratum in force is the
newest dated one, else the last undated one, else the one a card list gives itself.

An erratum quotes the old and new wording of the part it changes, often shortened. It is applied to the
card's printed text (``ability_text``): the old words replaced by the new where the printed text has them;
left as printed where the printed text already says the new words (an export printed after the erratum);
else the new text is the wording. ``card_errata.applied_as`` says which.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from difflib import SequenceMatcher

import sqlite_utils

from ingest.cards import ParsedErrata, name_key, render_text


def store_errata(db: sqlite_utils.Database, game_id: str, document_id: str, parsed: ParsedErrata) -> dict:
    """Errata and FAQs, linked to the game's stored cards by name, else by a printing they name; an unmatched
    erratum keeps card_id null (its name says what it was for)."""
    cards = {
        name_key(row["name"]): row["id"] for row in db.query("select id, name from cards where game_id = ?", [game_id])
    }
    printings = {
        row["id"].upper(): row["card_id"]
        for row in db.query(
            "select p.id, p.card_id from card_printings p join cards c on c.id = p.card_id where c.game_id = ?",
            [game_id],
        )
    }
    rows, unmatched = [], []
    for erratum in parsed.errata:
        card_id = cards.get(name_key(erratum.name)) or _by_printing(printings, erratum.printing_ids)
        if card_id is None:
            unmatched.append(erratum.name)
        rows.append(
            {
                "card_id": card_id,
                "old_text": erratum.old_text,
                "new_text": erratum.new_text,
                "card_set": erratum.card_set,
                "name": erratum.name,
                "document_id": document_id,
                "faqs": json.dumps([{"question": q, "answer": a} for q, a in erratum.faqs]) if erratum.faqs else None,
                "announced_on": erratum.announced_on,
                "announcement": erratum.announcement,
                "url": erratum.url,
                "printing_ids": json.dumps(erratum.printing_ids) if erratum.printing_ids else None,
                "note": erratum.note,
            }
        )
    db.table("card_errata").insert_all(rows)
    figures = {
        "errata": len(rows),
        "errata dated": sum(1 for row in rows if row["announced_on"]),
        "errata linked": len(rows) - len(unmatched),
        "errata unmatched": unmatched,
    }
    figures.update(refresh_current_text(db, game_id))
    return figures


def _by_printing(printings: dict[str, int], codes: list[str]) -> int | None:
    """The one card the printing codes ("OGN-107") name, if they name one ("OGN-?" names none)."""
    found = {
        card_id
        for code in codes
        for printing, card_id in printings.items()
        if printing.startswith(code.upper() + "-") and "?" not in code
    }
    return next(iter(found)) if len(found) == 1 else None


def refresh_current_text(db: sqlite_utils.Database, game_id: str) -> dict:
    """Every card's current_text from the errata stored so far (idempotent: run after each card or errata list)."""
    errata = defaultdict(list)
    for row in db.query(
        """select e.* from card_errata e join cards c on c.id = e.card_id
        where c.game_id = ? and e.new_text is not null order by e.id""",
        [game_id],
    ):
        errata[row["card_id"]].append(row)
    listed = {
        row["card_id"]: row["errata_text"]
        for row in db.query(
            """select t.card_id, t.errata_text from card_texts t join documents d on d.id = t.document_id
            where t.errata_text is not null order by coalesce(d.version_date, d.version)""",
        )
    }
    superseded: list[tuple[int | None, str | None, int]] = []
    applied: list[tuple[int | None, str | None, int]] = []
    updates, kept_undated = [], []
    # A card no erratum touches reads as printed (one statement); only the others are worked out one by one.
    db.execute("update cards set current_text = ability_text where game_id = ?", [game_id])
    touched = json.dumps(sorted(set(errata) | set(listed)))
    for card in db.query(
        "select id, name, domain, ability_text from cards where id in (select value from json_each(?))", [touched]
    ):
        domains = (card["domain"] or "").split(", ")
        rows = errata.get(card["id"], [])
        dated = sorted((row for row in rows if row["announced_on"]), key=lambda row: (row["announced_on"], row["id"]))
        undated = [row for row in rows if not row["announced_on"]]
        in_force = dated[-1] if dated else (undated[-1] if undated else None)
        printed = card["ability_text"] or ""
        if in_force is None:
            text = render_text(listed[card["id"]], domains) if card["id"] in listed else printed
        else:
            old, new = (render_text(in_force[name] or "", domains) for name in ("old_text", "new_text"))
            text, how = apply(printed, old, new)
            applied.append((None, how, in_force["id"]))
            superseded += [(in_force["id"], None, row["id"]) for row in rows if row is not in_force]
            if not in_force["announced_on"]:
                kept_undated.append(card["name"])
        updates.append((text, card["id"]))
    with db.conn:
        db.conn.executemany(
            "update card_errata set superseded_by = ?, applied_as = ? where id = ?", superseded + applied
        )
        db.conn.executemany("update cards set current_text = ? where id = ?", updates)
    has_dated = any(row["announced_on"] for rows in errata.values() for row in rows)
    if not has_dated:
        return {}
    faqs_only = db.execute(
        """select count(*) from card_errata e join cards c on c.id = e.card_id
        where c.game_id = ? and e.new_text is null and e.faqs is not null""",
        [game_id],
    ).fetchone()[0]
    return {
        "errata an undated list gives that a dated one supersedes": len(superseded),
        "errata from an undated list only": sorted(kept_undated),
        "FAQ entries from an undated list (no dated list has them)": faqs_only,
    }


def apply(printed: str, old: str, new: str) -> tuple[str, str]:
    """The printed text with an erratum applied, and how (``card_errata.applied_as``):

    - 'replaced': the printed text has the old words (spacing aside), replaced by the new;
    - 'already printed': the printed text is closer to the new wording than to the old (an export made after it);
    - 'patched': the erratum quotes the old wording shortened ("Look at top 5 cards of Main Deck", "(...)"): its
      word changes are made where the old words it changes, and their neighbours, sit in the printed text;
    - 'whole text': none of these: the new text is the wording."""
    old_words, new_words = old.split(), new.split()
    if old_words:
        pattern = re.compile(r"\s+".join(map(re.escape, old_words)))
        if pattern.search(printed):
            return pattern.sub(lambda _: new, printed, count=1), "replaced"
    tokens = list(re.finditer(r"\S+", printed))
    printed_words = [token.group() for token in tokens]
    if new_words and _share(new_words, printed_words) == 1.0:
        return printed, "already printed"
    if old_words and printed_words:
        if _share(new_words, printed_words) > _share(old_words, printed_words):
            return printed, "already printed"
        patched = _patch(printed, tokens, old_words, new_words)
        if patched is not None:
            return patched, "patched"
    return new, "whole text"


# An erratum is patched into a printed text only if at least this share of its old words is found there, in order.
PATCH_SHARE = 0.6


def _share(words: list[str], printed_words: list[str]) -> float:
    """The share of ``words`` found in ``printed_words`` in the same order."""
    if not words:
        return 0.0
    blocks = SequenceMatcher(None, words, printed_words, autojunk=False).get_matching_blocks()
    return sum(block.size for block in blocks) / len(words)


def _patch(printed: str, tokens: list[re.Match], old_words: list[str], new_words: list[str]) -> str | None:
    printed_words = [token.group() for token in tokens]
    if _share(old_words, printed_words) < PATCH_SHARE:
        return None
    at: dict[int, int] = {}  # old word -> the printed word it is
    for block in SequenceMatcher(None, old_words, printed_words, autojunk=False).get_matching_blocks():
        at.update({block.a + k: block.b + k for k in range(block.size)})
    edits: list[tuple[int, int, str]] = []  # (start, end) in the printed text, and what goes there
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, old_words, new_words, autojunk=False).get_opcodes():
        words = " ".join(new_words[j1:j2])
        if tag == "equal":
            continue
        if tag == "insert":
            if i1 - 1 in at:
                end = tokens[at[i1 - 1]].end()
                edits.append((end, end, " " + words))
            elif i1 in at:
                start = tokens[at[i1]].start()
                edits.append((start, start, words + " "))
            else:
                return None
            continue
        first, last = at.get(i1), at.get(i2 - 1)
        if first is None or last is None or last - first != i2 - 1 - i1:
            return None
        start, end = tokens[first].start(), tokens[last].end()
        if tag == "delete":  # the words and the space before them
            start = tokens[first - 1].end() if first > 0 else start
        edits.append((start, end, words))
    text = printed
    for start, end, words in sorted(edits, reverse=True):
        text = text[:start] + words + text[end:]
    return text
