"""The database schema: a public interface, since judges write SQL against it.

Table and column names are plain and stable; docs/database.md documents them. Every
table is created here, in dependency order, with its foreign keys and indexes.
"""

from __future__ import annotations

from typing import NamedTuple

import sqlite_utils


class Table(NamedTuple):
    """One table: its columns (``id`` is the primary key), what it holds (docs/database.md's words), the table whose ids
    each of its reference columns holds, and its indexes."""

    columns: dict[str, type]
    description: str
    references: dict[str, str] = {}
    indexes: list[list[str]] = []


TABLES: dict[str, Table] = {
    "games": Table(
        {"id": str, "name": str},
        description="One row per game.",
    ),
    "rulebooks": Table(
        {"id": str, "game_id": str, "slug": str, "title": str, "is_default": int},
        references={"game_id": "games"},
        indexes=[["game_id", "slug"]],
        description="The rulebooks of a game (Riftbound: Core Rules and Tournament Rules), each with its own versions, "
        "lineage and newest version. slug names it in URLs (/rules/riftbound/tournament/...); the default "
        "rulebook (is_default=1, the Core Rules) is left out of URLs (/rules/riftbound/2025-12-01/336.1).",
    ),
    "documents": Table(
        {
            "id": str,
            "game_id": str,
            "title": str,
            "version": str,
            "kind": str,
            "source_file": str,
            "original_name": str,
            "sha256": str,
            "lines": int,
            "nonblank_lines": int,
            "coverage": float,
            "ingested_share": float,
            "is_newest": int,
            "written_against": str,
            "rulebook_id": str,
            "version_label": str,
            "version_date": str,
            "previous_id": str,
        },
        references={"game_id": "games", "rulebook_id": "rulebooks", "previous_id": "documents"},
        indexes=[["game_id", "kind", "version"], ["rulebook_id"]],
        description="Every ingested document; two versions of one rulebook are two documents of that rulebook. version "
        "names it in URLs (the date for dated rulebooks); version_date is its 'Last Updated' date (ISO), "
        "version_label the version it calls itself ('1.4'), where known. is_newest marks the newest version "
        "of each rulebook, previous_id the version before it (the lineage chain). coverage is the share of "
        "non-blank lines ingested or skipped for a recognised reason; ingested_share the share stored as "
        "rules or rulings.",
    ),
    "document_reissues": Table(
        {"document_id": str, "version_date": str, "source_file": str, "sha256": str},
        references={"document_id": "documents"},
        indexes=[["document_id"]],
        description="Another issue of a stored rulebook version: the same rules, word for word, under another "
        "'Last Updated' date (Riot reissued Core Rules 1.4 of 2026-06-18 dated 2026-07-16). The version keeps its "
        "first date and URLs; each reissue's date, file and sha256 are here.",
    ),
    "rules": Table(
        {
            "id": int,
            "document_id": str,
            "game_id": str,
            "number": str,
            "parent_number": str,
            "parent_id": int,
            "depth": int,
            "position": int,
            "section": str,
            "heading": str,
            "text": str,
            "raw_text": str,
            "inferred": int,
            "source_lines": str,
        },
        references={"document_id": "documents", "game_id": "games", "parent_id": "rules"},
        indexes=[["parent_id"], ["game_id", "number"], ["document_id", "position"]],
        description="One row per rule, unique per document and canonical number. text is plain (markup stripped) and "
        "reads as one paragraph; raw_text is as received, a line break between paragraphs (a wrapped line "
        "joins its paragraph); inferred=1 when the number was recovered rather than printed.",
    ),
    "keywords": Table(
        {
            "id": int,
            "game_id": str,
            "document_id": str,
            "term": str,
            "kind": str,
            "rule_id": int,
            "defining_number": str,
            "aliases": str,
        },
        references={"game_id": "games", "document_id": "documents", "rule_id": "rules"},
        indexes=[["game_id", "term"]],
        description="Keywords, glossary terms and defined terms, each with the rule that defines it.",
    ),
    "rulings": Table(
        {
            "id": int,
            "game_id": str,
            "document_id": str,
            "position": int,
            "question": str,
            "ruling": str,
            "first_line": int,
            "ruling_raw": str,
            "source": str,
            "category": str,
            "page": str,
            "page_title": str,
            "anchor": str,
            "url": str,
            "author": str,
            "created_at": str,
            "licence": str,
            "licence_url": str,
            "reviewed_version": str,
            "rules_document_id": str,
            "parent_ruling_id": int,
        },
        references={
            "game_id": "games",
            "document_id": "documents",
            "rules_document_id": "documents",
            "parent_ruling_id": "rulings",
        },
        indexes=[["document_id", "position"], ["page", "anchor"]],
        description="Question-and-answer rulings in source order. ruling is the answer as plain text (ruling_raw as "
        "received). source names who wrote it; page, anchor and url locate it at its source; category is "
        "'general rules', 'mechanics' or 'card' where the source sorts it; author, created_at, licence and "
        "licence_url credit it. reviewed_version is the rules version it was written against, as the source "
        "names it ('1.4', '2025-12-01'), and rules_document_id that version's document, where its citations "
        "resolve. parent_ruling_id: the question a sub-question belongs to.",
    ),
    "faq_articles": Table(
        {
            "id": int,
            "document_id": str,
            "game_id": str,
            "title": str,
            "published": str,
            "url": str,
            "publisher": str,
            "official": int,
            "precedence": str,
        },
        references={"document_id": "documents", "game_id": "games"},
        indexes=[["game_id", "published"], ["document_id"]],
        description="Each FAQ article stored as a rulings document (its questions are its rulings, anchors q1, q2, ... "
        "in document order; 'faq:<published>#q<N>' cites one): title, publication date (ISO), link, publisher "
        "(official=1 when the game's publisher wrote it, e.g. Riot Games; an event's rulings page is credited to "
        "its author) and, in the article's own words, the precedence it claims over the rules, if any.",
    ),
    "effective_dates": Table(
        {
            "id": int,
            "game_id": str,
            "rulebook": str,
            "label": str,
            "effective_date": str,
            "document_version": str,
            "stand_in_version": str,
            "patch_notes": str,
        },
        references={"game_id": "games"},
        indexes=[["game_id", "rulebook", "effective_date"]],
        description="When each version of a rulebook took effect (from rules_db/data/in_force.yaml): label ('1.3'), "
        "effective_date (ISO), the stored document that is that version (document_version, its documents.version) "
        "or, when it is not stored, the one read in its place (stand_in_version; else the newest stored version "
        "dated on or before it), and its patch notes (a file of the corpus). What 'in force on day D' is computed from.",
    ),
    "patch_notes": Table(
        {"id": int, "game_id": str, "slug": str, "label": str, "file": str, "title": str, "url": str, "text": str},
        references={"game_id": "games"},
        indexes=[["game_id", "slug"]],
        description="The publisher's patch notes for a rulebook version (label, as in effective_dates): title, link, "
        "the markdown text as received (file, in corpus/); linked from the diff between the versions they describe.",
    ),
    "source_notes": Table(
        {
            "id": int,
            "document_id": str,
            "position": int,
            "title": str,
            "text": str,
            "first_line": int,
            "page": str,
            "anchor": str,
            "url": str,
        },
        references={"document_id": "documents"},
        indexes=[["document_id", "position"]],
        description="What a source of rulings writes about itself, not rulings (the Riftbound FAQ's 'Using this FAQ', "
        "'Legal'), in source order: title, text as plain text, and where it is at its source (page, anchor, url). "
        "Never counted or searched among the rulings; shown with the source's rulings, under its licence.",
    ),
    "ruling_relations": Table(
        {"id": int, "ruling_id": int, "related_ruling_id": int, "target": str},
        references={"ruling_id": "rulings", "related_ruling_id": "rulings"},
        indexes=[["ruling_id"], ["related_ruling_id"]],
        description="Rulings the source itself relates to a ruling; target as the source writes it ('/cards/baron-nashor'), "
        "related_ruling_id each ruling it names (null when it names nothing in the database).",
    ),
    "ruling_steps": Table(
        {"id": int, "ruling_id": int, "branch": str, "position": int, "text": str},
        references={"ruling_id": "rulings"},
        indexes=[["ruling_id", "position"]],
        description="The Sequence of a ruling; branch holds a header such as 'If Guardian Angel is chosen'.",
    ),
    "ruling_nuances": Table(
        {"id": int, "ruling_id": int, "position": int, "text": str},
        references={"ruling_id": "rulings"},
        indexes=[["ruling_id", "position"]],
        description="The Nuances of a ruling.",
    ),
    "keyword_mentions": Table(
        {"id": int, "keyword_id": int, "rule_id": int, "ruling_id": int, "matched_text": str},
        references={"keyword_id": "keywords", "rule_id": "rules", "ruling_id": "rulings"},
        # (keyword, ruling): the rulings mentioning a keyword, without reading its mentions in every rule
        indexes=[["keyword_id", "ruling_id"], ["rule_id"], ["ruling_id"]],
        description="A keyword mentioned in a rule or a ruling, matched on lemmas ('recalled' mentions Recall).",
    ),
    "rule_refs": Table(
        {
            "id": int,
            "document_id": str,
            "from_rule_id": int,
            "to_rule_id": int,
            "target_number": str,
            "raw_text": str,
            "status": str,
            "target_rulebook_id": str,
            "target_document_id": str,
        },
        references={
            "document_id": "documents",
            "from_rule_id": "rules",
            "to_rule_id": "rules",
            "target_rulebook_id": "rulebooks",
            "target_document_id": "documents",
        },
        indexes=[["from_rule_id"], ["to_rule_id"], ["status"]],
        description="Cross-references from rule to rule, with the text that made them; status is resolved or dangling. "
        "target_rulebook_id is the rulebook the reference points into (another one for 'See CR 110' in the "
        "Tournament Rules), target_document_id the version the target is looked up in: the same document, "
        "or the newest version of the other rulebook.",
    ),
    "ruling_citations": Table(
        {
            "id": int,
            "ruling_id": int,
            "rule_id": int,
            "number": str,
            "raw_text": str,
            "how": str,
            "keyword_id": int,
            "document_id": str,
            "written_against": str,
        },
        references={"ruling_id": "rulings", "rule_id": "rules", "keyword_id": "keywords", "document_id": "documents"},
        indexes=[["ruling_id"], ["rule_id"]],
        description="Ruling to rule. how is 'explicit' (a number in the text) or 'keyword' (inferred from a keyword "
        "mention); document_id is the rules version the number resolves in.",
    ),
    "cards": Table(
        {
            "id": int,
            "game_id": str,
            "name": str,
            "slug": str,
            "card_type": str,
            "domain": str,
            "energy": int,
            "power": int,
            "might": int,
            "ability_raw": str,
            "ability_text": str,
            "current_text": str,
            "in_card_list": int,
            "document_id": str,
            "tags": str,
            "might_bonus": int,
        },
        references={"game_id": "games", "document_id": "documents"},
        indexes=[["game_id", "name"], ["slug"]],
        description="One row per card name, merged from every card list (card_texts keeps each list's wording; where "
        "they disagree the newest list's wins and document_id names it); in_card_list=0 for a card known only from "
        "the rulings. domain and tags join several with ', '; ability_text is ability_raw with icon tokens as words "
        "([Might], [Calm rune]); current_text is the wording in force: the newest erratum applied (card_errata."
        "applied_as says how), else ability_text. might_bonus is the Might an Equipment gives. slug is the card's "
        "address (/cards/<slug>), unique: a name whose slug another card holds (names differing only in punctuation "
        "or accents) gets six hex digits of its hash after it.",
    ),
    "card_texts": Table(
        {
            "id": int,
            "card_id": int,
            "document_id": str,
            "card_type": str,
            "domain": str,
            "energy": int,
            "power": int,
            "might": int,
            "ability_raw": str,
            "ability_text": str,
            "errata_text": str,
        },
        references={"card_id": "cards", "document_id": "documents"},
        indexes=[["card_id"]],
        description="A card as each card list gives it (one row per card and list): where a card's text came from, "
        "and where the lists disagree. errata_text is an erratum the list itself gives (riftbound-cards.json's "
        "errata_text), used when no errata list has one.",
    ),
    "card_tokens": Table(
        {
            "id": str,
            "game_id": str,
            "name": str,
            "card_set": str,
            "set_id": str,
            "ability_text": str,
            "document_id": str,
        },
        references={"game_id": "games", "document_id": "documents"},
        description="Token printings a card list includes (Buff, XP Tracker): not cards, kept apart.",
    ),
    "sets": Table(
        {"id": str, "game_id": str, "name": str, "release_date": str, "document_id": str},
        references={"game_id": "games", "document_id": "documents"},
        description="A game's card sets: id is the set's code (OGN, UNL), release_date the date it released "
        "(ISO), document_id the source that dates it; name from the card lists, else ingest/data/card_sets.yaml.",
    ),
    "bans": Table(
        {
            "id": int,
            "game_id": str,
            "card_id": int,
            "name": str,
            "format": str,
            "effective_date": str,
            "document_id": str,
            "source": str,
            "line": int,
            "note": str,
        },
        references={"game_id": "games", "card_id": "cards", "document_id": "documents"},
        indexes=[["card_id"], ["game_id", "format"]],
        description="Bans as each source states them: one row per card, format ('Constructed' or '2v2') and source "
        "(document_id, line; source is its title): effective_date is the date that source gives (null where it gives none). Sources may "
        "disagree on a date: every claim is kept. name is as the source writes it; card_id null when it names no "
        "card. A 2v2 row is an extra ban: 2v2 also bans every Constructed ban.",
    ),
    "card_aliases": Table(
        {"id": int, "card_id": int, "alias": str, "how": str},
        references={"card_id": "cards"},
        indexes=[["alias"], ["card_id"]],
        description="Other names a card goes by (Zhonyas, Hourglass, Ahri Legend); how is derived (from the printed name), "
        "alias (curated), legend or champion (a champion's name stands for each of its cards).",
    ),
    "card_mentions": Table(
        {"id": int, "card_id": int, "ruling_id": int, "surface": str, "how": str},
        references={"card_id": "cards", "ruling_id": "rulings"},
        indexes=[["card_id"], ["ruling_id"]],
        description="A card named in a ruling, with the name as written and how that name was resolved.",
    ),
    "card_printings": Table(
        {
            "id": str,
            "card_id": int,
            "card_set": str,
            "collector_number": str,
            "rarity": str,
            "image_url": str,
            "printed_name": str,
            "ability_raw": str,
            "set_id": str,
            "code": str,
            "document_id": str,
        },
        references={"card_id": "cards", "document_id": "documents"},
        indexes=[["card_id"]],
        description="Every printing of a card, once (the card lists share printing ids), with its name and text as "
        "printed (a few printings differ); set_id is its set's code (sets.id), code the collector code printed on "
        "it where a list gives it (UNL-131/219), document_id the newest card list that has it.",
    ),
    "card_errata": Table(
        {
            "id": int,
            "card_id": int,
            "old_text": str,
            "new_text": str,
            "card_set": str,
            "name": str,
            "faqs": str,
            "document_id": str,
            "announced_on": str,
            "announcement": str,
            "url": str,
            "printing_ids": str,
            "note": str,
            "superseded_by": int,
            "applied_as": str,
        },
        references={"card_id": "cards", "document_id": "documents", "superseded_by": "card_errata"},
        indexes=[["card_id"]],
        description="Official text changes and FAQs (faqs: JSON list of {question, answer}); card_id is null when the "
        "name matches no card (name keeps it). announced_on, announcement and url: the Riot announcement and its "
        "date (a dated list; null in an undated one); printing_ids the printings it names (JSON list). "
        "superseded_by: the dated erratum of the same card that replaces this one from an older list. applied_as: "
        "how the card's current_text was made from it ('replaced' the old words in the printed text; 'patched' its "
        "word changes made in the printed text where the erratum quotes it shortened; 'already printed' the new "
        "wording; 'whole text' the new text as the wording) or null when another erratum applies.",
    ),
    "card_keywords": Table(
        {"id": int, "card_id": int, "keyword_id": int, "term": str, "value": int},
        references={"card_id": "cards", "keyword_id": "keywords"},
        indexes=[["card_id"], ["keyword_id"]],
        description="Bracketed keywords in card text ([Tank], [Deflect 2]) linked to their glossary rule.",
    ),
    "replays": Table(
        {
            "id": str,
            "ruling_id": int,
            "title": str,
            "file": str,
            "rules_document_id": str,
            "verdict": str,
            "expected": str,
            "computed": str,
            "step_count": int,
            "disagreement": str,
            "tags": str,
            "scenario": str,
        },
        references={"ruling_id": "rulings", "rules_document_id": "documents"},
        indexes=[["ruling_id"]],
        description="Scenario replays by the rules engine: verdict is 'match' or 'mismatch'; tags is the scenario's "
        "tags as a JSON list (facet with _facet_array=tags). file is the scenario's place in the library "
        "(scenarios/library/...), scenario its YAML text: the replay page replays it to show the board at every "
        "step and to answer what-ifs.",
    ),
    "replay_steps": Table(
        {
            "id": int,
            "replay_id": str,
            "position": int,
            "parent_step_id": int,
            "depth": int,
            "kind": str,
            "summary": str,
            "objects": str,
            "change": str,
        },
        references={"replay_id": "replays", "parent_step_id": "replay_steps"},
        indexes=[["replay_id", "position"]],
        description="Each step of a replay, nested under its parent step.",
    ),
    "replay_step_citations": Table(
        {"id": int, "step_id": int, "rule_id": int, "number": str},
        references={"step_id": "replay_steps", "rule_id": "rules"},
        indexes=[["step_id"], ["rule_id"]],
        description="The rules a replay step cites.",
    ),
    "replay_cards": Table(
        {"id": int, "replay_id": str, "card_id": int},
        references={"replay_id": "replays", "card_id": "cards"},
        indexes=[["replay_id"], ["card_id"]],
        description="The real cards a replay's scenario puts in play (its card: entries mapped through scenarios/cards.yaml).",
    ),
    "card_readings": Table(
        {
            "id": int,
            "card_id": int,
            "game_id": str,
            "card_set": str,
            "status": str,
            "definition": str,
            "unread": str,
            "templates": str,
        },
        references={"card_id": "cards", "game_id": "games"},
        indexes=[["card_id"], ["status"]],
        description="Each card's text in force as the card reader (scenarios/card_reader) reads it at build time: status "
        "'read' with the engine's definition (JSON), or 'unread' with the phrases it could not read (JSON list); "
        "card_set is the card's first set; templates lists the template families its reading used.",
    ),
    "infractions": Table(
        {
            "id": int,
            "document_id": str,
            "rule_id": int,
            "number": str,
            "name": str,
            "penalty": str,
            "category": str,
        },
        references={"document_id": "documents", "rule_id": "rules"},
        indexes=[["document_id"], ["rule_id"], ["penalty"]],
        description="Infractions a rulebook defines with their penalty ('702.2. Missed Trigger [No Penalty]: ...'): name, "
        "penalty as printed, and category, the heading of the section that holds it ('Game Play Errors').",
    ),
    "symbols": Table(
        {
            "id": int,
            "document_id": str,
            "game_id": str,
            "shorthand": str,
            "meaning": str,
            "rule_id": int,
            "number": str,
        },
        references={"document_id": "documents", "game_id": "games", "rule_id": "rules"},
        indexes=[["document_id"], ["game_id"]],
        description="The shorthand a rulebook gives its symbols in written text ('[A]', '[E]', '[>]'), with what each "
        "stands for, the subject of the rule that defines it ('Power of any Domain'): rule text keeps the shorthand "
        "as printed, and pages gloss it with this.",
    ),
    "rule_lineage": Table(
        {
            "id": int,
            "from_document_id": str,
            "to_document_id": str,
            "from_rule_id": int,
            "to_rule_id": int,
            "kind": str,
            "similarity": float,
            "section_rule_id": int,
            "renumbered": int,
        },
        references={
            "from_document_id": "documents",
            "to_document_id": "documents",
            "from_rule_id": "rules",
            "to_rule_id": "rules",
            "section_rule_id": "rules",
        },
        indexes=[
            ["from_rule_id"],
            ["to_rule_id"],
            ["from_document_id", "to_document_id"],  # a pair's rows: versions further apart composed step by step
        ],
        description="Correspondence between consecutive versions of a rulebook (documents.previous_id): unchanged, moved, "
        "edited, split, merged, removed or new. section_rule_id is the section the row counts in on the diff "
        "page (the newer version's; for a removed rule, the section its old section became), renumbered marks "
        "a rule only renumbered (moved, same text).",
    ),
    "rule_lineage_pairs": Table(
        {
            "id": int,
            "from_document_id": str,
            "to_document_id": str,
            "old_rules": int,
            "new_rules": int,
            "old_rules_accounted": int,
            "first_lineage_id": int,
            "last_lineage_id": int,
        },
        references={"from_document_id": "documents", "to_document_id": "documents"},
        indexes=[["from_document_id", "to_document_id"]],
        description="One row per pair of consecutive versions rule_lineage links, with what the diff page shows of the whole "
        "pair: the rules of each version, the old rules the lineage accounts for, and the pair's rows in "
        "rule_lineage (ids first_lineage_id to last_lineage_id, one run).",
    ),
    "rule_lineage_counts": Table(
        {
            "id": int,
            "from_document_id": str,
            "to_document_id": str,
            "kind": str,
            "section_rule_id": int,
            "rows": int,
            "renumbered": int,
        },
        references={"from_document_id": "documents", "to_document_id": "documents", "section_rule_id": "rules"},
        indexes=[["from_document_id", "to_document_id"]],
        description="The rule_lineage rows of each pair of versions counted per kind and section (rows, and of them the rules "
        "only renumbered): the diff page's counts, sections and page totals without reading every row.",
    ),
    "search_aliases": Table(
        {
            "id": int,
            "game_id": str,
            "alias": str,
            "term": str,
            "source": str,
            "rules": int,
            "rule_id": int,
            "evidence": str,
        },
        references={"game_id": "games", "rule_id": "rules"},
        indexes=[["alias"]],
        description="Other wordings of a term, mined from the documents (rules_db/aliases.py); the search looks for the "
        "term when a question says the alias. source says how it was found: renamed (a rules update rewrote the alias "
        "as the term in several aligned rules and no longer says it: a judge's older words find the newest rule); "
        "rules counts the rules that show it, rule_id is one of them (the newer version's), evidence names them. "
        "rules_db/data/alias_vetoes.yaml vetoes a wrong one.",
    ),
    "parse_issues": Table(
        {"id": int, "document_id": str, "line": int, "kind": str, "number": str, "message": str},
        references={"document_id": "documents"},
        indexes=[["document_id", "kind"]],
        description="What the parsers repaired or reported: duplicates, malformed and empty numbers, orphans, reordering.",
    ),
    "skipped_lines": Table(
        {"id": int, "document_id": str, "line": int, "text": str, "reason": str},
        references={"document_id": "documents"},
        indexes=[["document_id"]],
        description="Every non-blank source line that was not ingested, with the reason.",
    ),
}

# table -> columns indexed for full-text search (FTS5, porter stemming)
SEARCHABLE: dict[str, list[str]] = {
    "rules": ["number", "heading", "text"],
    "keywords": ["term", "aliases"],
    "rulings": ["question", "ruling"],
    "infractions": ["name", "penalty", "category"],
    "cards": ["name", "ability_text"],
}


def bulk_loader(temp_path: str) -> sqlite_utils.Database:
    """The temporary database, written like a bulk loader: it is renamed over the target only once complete,
    so durability during the build buys nothing (sqlite-utils commits every chunk it inserts: without a
    journal on disk and without fsync a commit costs nothing). A killed build leaves the target untouched."""
    db = sqlite_utils.Database(temp_path)
    db.execute("pragma journal_mode = memory")
    db.execute("pragma synchronous = off")
    return db


def create(db: sqlite_utils.Database) -> None:
    db.execute("PRAGMA foreign_keys = ON")
    for name, table in TABLES.items():
        references = [(column, other, "id") for column, other in table.references.items()]
        db.table(name).create(table.columns, pk="id", foreign_keys=references)
        for index in table.indexes:
            db.table(name).create_index(index)
    db.table("rules").create_index(["document_id", "number"], unique=True)
    # Rule numbers as a judge types them ("e.1" for E.1): look-ups ignoring case use this index.
    db.execute("create index idx_rules_game_id_number_nocase on rules (game_id, number collate nocase)")


def enable_search(db: sqlite_utils.Database) -> None:
    """Full-text indexes, built once the tables are filled (the database is read-only afterwards): one per
    table for Datasette's search box and judges' SQL, and the judges' search index (``rules_db.search_index``)."""
    for table, columns in SEARCHABLE.items():
        db.table(table).enable_fts(columns, tokenize="porter", create_triggers=False)  # creates and fills the index
    db.execute("create index rules_number_nocase on rules (number collate nocase)")  # rule numbers typed in any case
    db.execute("create index keywords_rule on keywords (rule_id)")  # the terms each rule found defines
    from rules_db import search_index  # imports spaCy's lemma data: only builds need it

    search_index.build(db)


def describe(table: str) -> str:
    return TABLES[table].description


def markdown() -> str:
    """The schema as docs/database.md documents it (a test keeps the two in step)."""
    out = []
    for name, table in TABLES.items():
        links = {column: f"{other}.id" for column, other in table.references.items()}
        cells = ", ".join(
            f"`{column}`" + (f" → {links[column]}" if column in links else "") for column in table.columns
        )
        out.append(f"| `{name}` | {table.description} | {cells} |")
    return "| table | what it holds | columns |\n|---|---|---|\n" + "\n".join(out)
