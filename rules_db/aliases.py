"""Aliases mined from the documents: another wording of a term, with where it came from.

A judge says what they learned, and the rules say what they say now. The documents themselves show
where the two part, and each alias found is stored with its evidence in ``search_aliases`` (a table a
judge reads in Datasette: the alias, the term, the source, the rules that show it). The search
(``rules_db.search``) searches a term's aliases next to it, as it does the curated expansions of
``data/search_vocabulary.yaml``. A mined alias that is wrong is vetoed in ``data/alias_vetoes.yaml``.

**Renamed wording** (``renamed``): a rules update that rewrites the same words the same way in several
rules (the lineage aligns each rule with its counterpart in the next version) and leaves none of the
old wording anywhere in the new version has renamed the idea: "Action Phase" became "Main Phase". A
judge who learned the old name then finds the newest rule.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path

import sqlite_utils
import yaml
from rapidfuzz.distance import Levenshtein

from rules_db import store
from rules_db.search.index_format import WORD, facet
from rules_db.search.vocabulary import vocabulary

VETO_FILE = Path(str(resources.files("rules_db") / "data" / "alias_vetoes.yaml"))

MAX_WORDS = 3  # words of a rewritten wording, either side (longer rewrites are rewordings, not names)
RECURRING = 2  # aligned rules that must show the same rewrite: one rewrite is an edit, a repeated one a rename
EXAMPLES = 3  # aligned rules named in an alias's evidence
SEPARATOR = re.compile(r"[,;:.!?()]")  # between items of a list or parts of a sentence: no name spans one
TOKEN = re.compile(rf"{WORD.pattern}|{SEPARATOR.pattern}")  # a text's words and separators, in order


@dataclass
class _Rewrite:
    """One wording rewritten the same way in aligned rules of two versions."""

    old: str
    new: str
    # lineage id -> (old number, new number, new rule id) of each aligned pair of rules showing it
    pairs: dict[int, tuple[str, str, int]] = field(default_factory=dict)


def build(db: sqlite_utils.Database) -> int:
    """Fill ``search_aliases`` from the stored documents and lineage, less the vetoed aliases; the rows stored."""
    vetoed = vetoes()
    rows = [row for row in renamed(db) if (row["game_id"], row["alias"], row["term"]) not in vetoed]
    first = store.next_id(db, "search_aliases")
    store.insert_rows(db, "search_aliases", ({"id": first + index, **row} for index, row in enumerate(rows)))
    return len(rows)


def vetoes() -> set[tuple[str, str, str]]:
    """(game, alias, term) of every alias ``alias_vetoes.yaml`` vetoes, in lower case."""
    data = yaml.safe_load(VETO_FILE.read_text(encoding="utf-8")) or {}
    return {
        (str(entry["game"]), _words(str(entry["alias"])), _words(str(entry["term"])))
        for entry in data.get("vetoed") or []
    }


def _words(text: str) -> str:
    """The text's words in lower case, one space between them (as ``search_aliases`` holds them)."""
    return " ".join(WORD.findall(text.lower()))


# ---------------------------------------------------------------- renamed wording


def renamed(db: sqlite_utils.Database) -> list[dict]:
    """The renames of every pair of consecutive versions the lineage links, as ``search_aliases`` rows; a
    wording renamed twice ("a" to "b" to "c") stands for the last name."""
    found: list[dict] = []
    stems = _stems(db)
    for old_document, new_document, game, rulebook, old_version, new_version in db.execute(
        """select p.from_document_id, p.to_document_id, n.game_id, b.slug, o.version, n.version
        from rule_lineage_pairs p join documents o on o.id = p.from_document_id
        join documents n on n.id = p.to_document_id join rulebooks b on b.id = n.rulebook_id
        order by n.version_date, n.version"""
    ).fetchall():
        aligned = db.execute(
            """select l.id, a.number, b.number, b.id, coalesce(a.heading, '') || ' ' || coalesce(a.text, ''),
                coalesce(b.heading, '') || ' ' || coalesce(b.text, '')
            from rule_lineage l join rules a on a.id = l.from_rule_id join rules b on b.id = l.to_rule_id
            where l.from_document_id = ? and l.to_document_id = ? and not l.renumbered
                and l.kind in ('moved', 'edited', 'split', 'merged') order by l.id""",
            [old_document, new_document],
        ).fetchall()
        old_uses, new_uses = (_counter(db, game, rulebook, version) for version in (old_version, new_version))
        for rewrite in renames(aligned, old_uses, new_uses, stems):
            numbers = sorted(rewrite.pairs.items())
            found.append(
                {
                    "game_id": game,
                    "alias": rewrite.old,
                    "term": rewrite.new,
                    "source": "renamed",
                    "rules": len(numbers),
                    "rule_id": numbers[0][1][2],
                    "evidence": f"{old_version} → {new_version}: rewritten in {len(numbers)} rules ("
                    + ", ".join(f"{old} → {new}" for _, (old, new, _rule) in numbers[:EXAMPLES])
                    + (", …" if len(numbers) > EXAMPLES else "")
                    + ")",
                }
            )
    return _chained(found)


def _chained(found: list[dict]) -> list[dict]:
    """Each rename pointing at the newest name: "a" renamed "b" in one update and "b" renamed "c" in the next
    is "a" to "c" (the versions in order: the later renames come later in ``found``)."""
    newest: dict[tuple[str, str], dict] = {}
    for row in found:
        for earlier in newest.values():
            if earlier["game_id"] == row["game_id"] and earlier["term"] == row["alias"]:
                earlier["term"] = row["term"]
        newest[(row["game_id"], row["alias"])] = row
    return [row for row in newest.values() if row["alias"] != row["term"]]


def renames(
    aligned: Iterable[tuple[int, str, str, int, str, str]],
    old_uses: Callable[[str], int],
    new_uses: Callable[[str], int],
    stems: dict[str, str],
) -> list[_Rewrite]:
    """The rewrites of aligned rules (lineage id, old number, new number, new rule id, old text, new text) that
    are renames: the same wording (at most ``MAX_WORDS`` words, named with at most one word of the context the
    two texts share) rewritten the same way in ``RECURRING`` aligned rules or more, said by no rule of the new
    version (``new_uses``) though by several of the old one (``old_uses``), and differing by more than the forms
    of its words (their ``stems``: "zone" and "zones" are one word). For each place, the rewrite with the least
    context that is a rename."""
    rewrites: dict[tuple[str, str], _Rewrite] = {}
    places: list[list[tuple[str, str]]] = []  # each place rewritten: its wordings, least context first
    for lineage_id, old_number, new_number, new_rule, old, new in aligned:
        for wordings in _rewritten(TOKEN.findall(old.lower()), TOKEN.findall(new.lower()), stems):
            places.append(wordings)
            for wording in wordings:
                rewrites.setdefault(wording, _Rewrite(*wording)).pairs[lineage_id] = (old_number, new_number, new_rule)
    kept: dict[tuple[str, str], _Rewrite] = {}
    for wordings in places:
        for wording in wordings:
            rewrite = rewrites[wording]
            if len(rewrite.pairs) >= RECURRING and new_uses(rewrite.old) == 0 and old_uses(rewrite.old) > 1:
                kept[wording] = rewrite
                break
    return list(kept.values())


def _rewritten(old: list[str], new: list[str], stems: dict[str, str]) -> Iterator[list[tuple[str, str]]]:
    """Each place where ``new`` rewrites ``old`` (their words and separators): its (old wording, new wording) with
    no context, then with the word before, then with the word after, filler words at either end left out. A
    wording never spans a separator: "Spells, Units, Rune Abilities" -> "Cards, Rune Abilities" rewords a list,
    it renames nothing."""
    if old == new:
        return
    for old_start, old_stop, new_start, new_stop in _changes(old, new):
        if not (0 < old_stop - old_start <= MAX_WORDS and 0 < new_stop - new_start <= MAX_WORDS):
            continue
        if not (_trimmed(old[old_start:old_stop]) and _trimmed(new[new_start:new_stop])):
            continue  # words added or left out ("for example" -> "e.g."), not a wording renamed
        wordings = []
        for before, after in ((0, 0), (1, 0), (0, 1)):
            if old_start < before or old_stop + after > len(old) or new_stop + after > len(new):
                continue
            old_span, new_span = old[old_start - before : old_stop + after], new[new_start - before : new_stop + after]
            if any(SEPARATOR.fullmatch(token) for token in (*old_span, *new_span)):
                continue
            was, now = _trimmed(old_span), _trimmed(new_span)
            if was and now and _differ(was, now, stems):
                wordings.append((" ".join(was), " ".join(now)))
        if wordings:
            yield list(dict.fromkeys(wordings))


def _changes(old: list[str], new: list[str]) -> Iterator[tuple[int, int, int, int]]:
    """(old start, old stop, new start, new stop) of each run of words that differ between the two (rapidfuzz's
    word-level edit script, its edits next to each other joined: "resolution" -> "damage step" is one change)."""
    run: tuple[int, int, int, int] | None = None
    for edit in Levenshtein.opcodes(old, new):
        if edit.tag != "equal":
            start = (run[0], run[2]) if run else (edit.src_start, edit.dest_start)
            run = (start[0], edit.src_end, start[1], edit.dest_end)
        elif run:
            yield run
            run = None
    if run:
        yield run


def _trimmed(words: list[str]) -> list[str]:
    """The words less filler words and single letters at either end; none when a number is among them (a rule
    number or a value rewritten is no name)."""
    filler = vocabulary().filler
    start, stop = 0, len(words)
    while start < stop and (words[start] in filler or len(words[start]) == 1):
        start += 1
    while stop > start and (words[stop - 1] in filler or len(words[stop - 1]) == 1):
        stop -= 1
    kept = words[start:stop]
    return [] if any(character.isdigit() for word in kept for character in word) else kept


def _differ(old: list[str], new: list[str], stems: dict[str, str]) -> bool:
    """The wordings differ by more than the forms of their words."""
    return [stems.get(word, word) for word in old] != [stems.get(word, word) for word in new]


def _counter(db: sqlite_utils.Database, game: str, rulebook: str, version: str) -> Callable[[str], int]:
    """How many rules of a version of a rulebook say a wording in their heading or text, in any form of its words
    (the search index's rows, as the search finds them)."""
    rows = " AND ".join(facet(*pair) for pair in (("game", game), ("rulebook", rulebook), ("version", version)))

    @cache  # one counter per version, asked of a few dozen wordings
    def uses(wording: str) -> int:
        match = f'{{title body}} : "{wording}" AND facets : ({rows})'
        return db.execute("select count(*) from search_fts where search_fts match ?", [match]).fetchone()[0]

    return uses


def _stems(db: sqlite_utils.Database) -> dict[str, str]:
    """word -> its stem as the search index stores it (``search_terms``, built before the aliases)."""
    return dict(db.execute("select term, stem from search_terms where stem is not null").fetchall())
