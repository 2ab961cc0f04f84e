"""The search index, built once at the end of a build (the database is read-only afterwards).

Everything a judge can find is one row of ``search_documents`` (rule, ruling or card),
indexed by one FTS5 table, ``search_fts``, so that a question is one full-text query and
every kind of result is ranked on the same statistics. Each row has five fields, weighted
differently when ranking:

- ``title``: a rule's heading (or the label its text opens with: "Wagering [Disqualification]: ..."),
  a ruling's question, a card's name;
- ``terms``: the keywords and glossary terms a rule defines (and the infraction, with its penalty: a judge
  asks "what penalty", a label says "[Warning]"), a card's other names;
- ``path``: a rule's heading path (the headings it sits under), the cards a ruling names,
  a card's type, domain and keywords;
- ``context``: what the parents of a rule say when they have no heading;
- ``body``: a rule's text, a ruling's answer, sequence and nuances, a card's text, errata
  and FAQs.

What query understanding needs at query time is computed here, so that a search never
imports spaCy: ``search_terms`` holds every word of the index with its lookup lemma, its
porter stem (as SQLite's own tokenizer stems it) and how many rows hold that stem, plus
the other forms of those lemmas ("died" for "die"); ``search_names`` holds card names and
aliases, normalised, for recognising a card named anywhere in a question.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections import Counter, defaultdict
from collections.abc import Iterator

import sqlite_utils

from ingest.lemmas import lemma_lookup, lemma_table_json
from rules_db import store
from rules_db.search.index_format import (
    EXAMPLE,
    EXAMPLE_TAG,
    FIELDS,
    PATH_SEPARATOR,
    STEM_TAGS,
    WORD,
    facets,
    normalise_name,
)

SEARCH_TABLES = """
create table search_documents (
    id integer primary key,
    kind text not null,          -- rule, ruling or card
    ref_id integer not null,     -- rules.id, rulings.id or cards.id
    game_id text,
    document_id text,
    rulebook_id text,            -- a rule's rulebook (rulebooks.id)
    rulebook text,               -- and its slug ("core", "tournament")
    rulebook_url text,           -- the slug as URLs carry it: none for the game's default rulebook
    version text,                -- the rulebook version of a rule
    current integer not null,    -- 1: searched by default (the newest version of a rulebook; every ruling and card)
    number text,                 -- a rule's number
    slug text,                   -- a card's slug
    title text,
    terms text,
    path text,
    context text,                -- what a rule's parents without a heading say
    body text,
    position integer,
    facets text,                 -- tokens the search filters on (see search.facet)
    stems text                   -- the distinct stems of each field, tagged with the field (see search.STEM_TAGS;
                                 -- a text's example apart, see search.EXAMPLE_TAG)
);
create index search_documents_ref on search_documents (kind, ref_id);
-- a rule's sub-rules, by number within its document (rules_db.search.sections)
create index search_documents_number on search_documents (document_id, number);
create virtual table search_fts using fts5 (
    title, terms, path, context, body, facets,
    content = 'search_documents', content_rowid = 'id',
    tokenize = 'porter unicode61 remove_diacritics 2'
);
create table search_terms (
    term text primary key,       -- a word in lower case
    lemma text not null,
    stem text,                   -- as the index stores it (null: a form no row uses)
    df integer not null,         -- rows whose text holds the stem
    topic integer not null       -- 1: the word names a topic of the rules (it is in a heading or a defined term)
) without rowid;
create table search_names (
    name text not null,          -- normalised: lower case, no apostrophes, words separated by one space
    card_id integer not null,
    game_id text
);
create index search_names_name on search_names (name);
"""
# Made once the vocabulary is filled: sorting the rows once costs less than inserting each into the index.
SEARCH_TERMS_INDEXES = """
create index search_terms_lemma on search_terms (lemma);
create index search_terms_stem on search_terms (stem);
"""


def build(db: sqlite_utils.Database) -> None:
    """Create and fill the search tables from the rules, rulings and cards already stored."""
    conn = db.conn
    conn.executescript(SEARCH_TABLES)
    # The rows searched by default (current) first, game by game: runs of ids a search seeks to (search._current_rows).
    rows = sorted(
        [*_rule_rows(conn), *_ruling_rows(conn), *_card_rows(conn)],
        key=lambda row: (not row["current"], row["game_id"] or ""),
    )
    stems: dict[str, str] = {}
    for chunk in _chunks(rows, _ROWS_PER_CHUNK):
        _add_stems(chunk, stems)
    store.insert_rows(db, "search_documents", rows)
    conn.execute("insert into search_fts (search_fts) values ('rebuild')")
    _fill_terms(conn, stems, _topics(conn, rows))
    _fill_names(conn)
    conn.execute("insert into search_fts (search_fts) values ('optimize')")
    conn.commit()


# The rows' words are read once, a chunk at a time: held for every row at once, they would take more memory
# than the rows themselves.
_ROWS_PER_CHUNK = 4096


def _chunks(rows: list[dict], size: int) -> Iterator[list[dict]]:
    for start in range(0, len(rows), size):
        yield rows[start : start + size]


_EXAMPLE_FIELD = "example"  # the example a row's text gives, apart from it (no column: only its stems are stored)
# Each tag with its fields, the tags in sorted order: no tag begins another, so a row's tagged stems sorted are
# its stems sorted tag by tag (``_tagged_stems``).
_TAGGED_FIELDS = tuple(
    (tag, tuple(name for name, name_tag in [*zip(FIELDS, STEM_TAGS), (_EXAMPLE_FIELD, EXAMPLE_TAG)] if name_tag == tag))
    for tag in sorted({*STEM_TAGS, EXAMPLE_TAG})
)


def _add_stems(rows: list[dict], stems: dict[str, str]) -> None:
    """Each row's facets and tagged stems (``search_documents.stems``); the stems of words not seen
    before are added to ``stems``. Each distinct text is read once: sibling rules repeat their parents'
    headings and statements, and a rule unchanged across versions its text. A text's example is tagged
    apart (see ``search.EXAMPLE_TAG``)."""
    examples = {text: _example_split(text) for text in dict.fromkeys(row["body"] for row in rows)}
    texts = dict.fromkeys(row[name] for row in rows for name in FIELDS if name != "body" or not examples[row[name]])
    texts.update(dict.fromkeys(part for split in examples.values() if split for part in split))
    words = {text: _words(text) for text in texts}
    stems.update(stem_words(sorted(set().union(*words.values()) - stems.keys())))
    # a word the index's tokenizer reads as no token has no stem
    text_stems = {text: {stems[word] for word in found if word in stems} for text, found in words.items()}
    for row in rows:
        row["facets"] = " ".join(facets(row))
        split = examples[row["body"]]
        fields = row if split is None else {**row, "body": split[0], _EXAMPLE_FIELD: split[1]}
        row["stems"] = _tagged_stems(fields, text_stems)


def _tagged_stems(fields: dict, text_stems: dict[str, set[str]]) -> str:
    """The stems of a row's fields, each behind its field's tag, tag by tag and sorted ("ha hb ta")."""
    tagged = []
    for tag, names in _TAGGED_FIELDS:
        found = set().union(*(text_stems[fields[name]] for name in names if name in fields))
        if found:
            # "ha hb": the tag before the first stem, and " h" between stems, without a string made per stem
            tagged.append(tag + f" {tag}".join(sorted(found)))
    return " ".join(tagged)


def _example_split(text: str | None) -> tuple[str, str] | None:
    """(what the text says, the example it gives) when it gives one ("Example: ...", "e.g.")."""
    example = EXAMPLE.search(text or "")
    return None if text is None or example is None else (text[: example.start()], text[example.start() :])


# ---------------------------------------------------------------- rows


def _rule_rows(conn: sqlite3.Connection) -> list[dict]:
    cursor = conn.execute(
        """select r.id, r.document_id, r.game_id, d.version, d.is_newest, r.number, r.parent_id, r.depth,
            r.heading, r.text, r.position, d.rulebook_id, b.slug as rulebook, b.is_default
        from rules r join documents d on d.id = r.document_id left join rulebooks b on b.id = d.rulebook_id
        order by r.document_id, r.position"""
    )
    names = [column[0] for column in cursor.description]
    rules = [dict(zip(names, row)) for row in cursor.fetchall()]
    defined: dict[int, list[str]] = defaultdict(list)
    for rule_id, term, aliases in conn.execute("select rule_id, term, aliases from keywords where rule_id is not null"):
        defined[rule_id] += [term, *store.stored_aliases(aliases)]
    for rule_id, name, penalty in conn.execute(
        "select rule_id, name, penalty from infractions where rule_id is not null"
    ):
        defined[rule_id] += [f"{name} infraction", penalty_phrase(penalty)]
    headings = {rule["id"]: rule["heading"] for rule in rules}
    parents = {rule["id"]: rule["parent_id"] for rule in rules}
    texts = {rule["id"]: rule["text"] for rule in rules}
    labels = {rule["id"]: rule_label(rule["text"]) for rule in rules if not rule["heading"]}
    repeated = Counter((rule["document_id"], labels.get(rule["id"])) for rule in rules)
    rows, section, document = [], None, None
    for rule in rules:
        rule_id, heading, text = rule["id"], rule["heading"], rule["text"] or ""
        if rule["document_id"] != document:
            document, section = rule["document_id"], None
        path = _ancestor_headings(rule_id, parents, headings)
        if rule["depth"] == 0 and heading:
            section = heading  # a heading on a top-level rule names the rules after it (Riftbound: 173 Tokens, 174-181)
        elif section and (rule["depth"] == 0 or not _top_has_heading(rule_id, parents, headings)):
            path.insert(0, section)
        rows.append(
            {
                "kind": "rule",
                "ref_id": rule_id,
                "game_id": rule["game_id"],
                "document_id": rule["document_id"],
                "rulebook_id": rule["rulebook_id"],
                "rulebook": rule["rulebook"],
                "rulebook_url": None if rule["is_default"] else rule["rulebook"],
                "version": rule["version"],
                "current": rule["is_newest"],
                "number": rule["number"],
                "slug": None,
                "title": heading or _named_by(rule, labels, repeated),
                "terms": " ; ".join(dict.fromkeys(defined.get(rule_id, []))),
                "path": PATH_SEPARATOR.join(path),
                "context": _parent_statements(rule_id, parents, headings, texts),
                "body": "" if text == (heading or "") else text,
                "position": rule["position"],
            }
        )
    return rows


# A rule that opens by naming its subject: "Wagering [Disqualification]: Tournament attendees may not ...",
# "Neutral Open: There is no Showdown ...". The label is a few words in title case before a colon.
_LABEL = re.compile(r"^\s*(?P<label>[A-Z][^:.;!?\n]{0,60}?)\s*:\s+\S")
_LABEL_SMALL_WORDS = frozenset(
    ["a", "an", "the", "of", "to", "at", "in", "on", "for", "and", "or", "by", "from", "with", "as", "per", "vs"]
)
_LABEL_WORDS = 6
_LABEL_REPEATS = 2  # a label more rules of one document open with says what kind of text follows ("Example:")


def penalty_phrase(penalty: str) -> str:
    """An infraction's penalty as a phrase naming it a penalty: "Warning penalty", but "No Penalty" as it is (a
    label that already ends in the word is not given it twice)."""
    if re.search(r"\bpenalty\s*$", penalty, re.IGNORECASE):
        return penalty
    return f"{penalty} penalty"


def rule_label(text: str | None) -> str | None:
    """The label a rule's text opens with, if it opens with one (see ``_LABEL``); its bracketed words
    (a penalty: "[Warning]") are kept but neither counted nor checked."""
    match = _LABEL.match(text or "")
    if match is None:
        return None
    words = WORD.findall(re.sub(r"\[[^\]]*\]", " ", match.group("label")))
    if not words or len(words) > _LABEL_WORDS:
        return None
    if all(word[0].isupper() or word[0].isdigit() or word in _LABEL_SMALL_WORDS for word in words):
        return match.group("label")
    return None


def _named_by(rule: dict, labels: dict, repeated: Counter) -> str:
    """The label the rule's text opens with, as its heading; not a label several rules of its document
    open with ("Example:", "Format:"), which says what kind of text follows rather than its subject."""
    label = labels.get(rule["id"])
    return label if label and repeated[(rule["document_id"], label)] <= _LABEL_REPEATS else ""


def _parent_statements(rule_id: int, parents: dict, headings: dict, texts: dict, levels: int = 2) -> str:
    """What the rule's nearest ancestors without a heading say (the start of it): a sub-rule often only makes
    sense under its parent's statement ("117.1 A player may choose up to two cards" under "117 ... perform
    their Mulligan")."""
    statements: list[str] = []
    parent = parents.get(rule_id)
    while parent is not None and not headings.get(parent) and len(statements) < levels:
        statements.append((texts.get(parent) or "")[:_CONTEXT_CHARACTERS])
        parent = parents.get(parent)
    return " ".join(statements[::-1])


_CONTEXT_CHARACTERS = 160


def _ancestor_headings(rule_id: int, parents: dict, headings: dict) -> list[str]:
    """Headings of the rule's ancestors, outermost first (bounded, should bad data hold a cycle)."""
    path: list[str] = []
    parent = parents.get(rule_id)
    while parent is not None and len(path) < 50:
        if headings.get(parent):
            path.append(headings[parent])
        parent = parents.get(parent)
    return path[::-1]


def _top_has_heading(rule_id: int, parents: dict, headings: dict) -> bool:
    top, steps = rule_id, 0
    while parents.get(top) is not None and steps < 50:
        top, steps = parents[top], steps + 1
    return bool(headings.get(top))


# Rulings and cards belong to no rulebook version, and are always searched.
_UNVERSIONED = {
    "rulebook_id": None,
    "rulebook": None,
    "rulebook_url": None,
    "version": None,
    "current": 1,
    "number": None,
}


def _ruling_rows(conn: sqlite3.Connection) -> list[dict]:
    steps = _grouped(conn, "select ruling_id, coalesce(branch || ': ', '') || text from ruling_steps order by position")
    nuances = _grouped(conn, "select ruling_id, text from ruling_nuances order by position")
    cards = _grouped(
        conn,
        "select distinct m.ruling_id, c.name from card_mentions m join cards c on c.id = m.card_id order by c.name",
    )
    return [
        {
            "kind": "ruling",
            "ref_id": ruling_id,
            "game_id": game,
            "document_id": document_id,
            **_UNVERSIONED,
            "slug": None,
            "title": question or "",
            "terms": "",
            "path": PATH_SEPARATOR.join(cards.get(ruling_id, [])),
            "context": "",
            "body": "\n".join([ruling or "", *steps.get(ruling_id, []), *nuances.get(ruling_id, [])]),
            "position": position,
        }
        for ruling_id, game, document_id, position, question, ruling in conn.execute(
            "select id, game_id, document_id, position, question, ruling from rulings order by document_id, position"
        )
    ]


def _card_rows(conn: sqlite3.Connection) -> list[dict]:
    aliases = _grouped(conn, "select card_id, alias from card_aliases order by alias")
    keywords = _grouped(conn, "select card_id, term from card_keywords order by id")
    faqs: dict[int, list[str]] = defaultdict(list)
    for card_id, stored in conn.execute("select card_id, faqs from card_errata where faqs is not null order by id"):
        faqs[card_id] += _faq_texts(stored)
    return [
        {
            "kind": "card",
            "ref_id": card_id,
            "game_id": game,
            "document_id": document_id,
            **_UNVERSIONED,
            "slug": slug,
            "title": name or "",
            "terms": " ; ".join(dict.fromkeys(aliases.get(card_id, []))),
            "path": PATH_SEPARATOR.join(
                part for part in [card_type, domain, *dict.fromkeys(keywords.get(card_id, []))] if part
            ),
            "context": "",
            # the wording in force, the printed one where errata changed it, and the official FAQs
            "body": "\n".join(dict.fromkeys([current or printed or "", printed or "", *faqs.get(card_id, [])])),
            "position": card_id,
        }
        for card_id, game, document_id, slug, name, card_type, domain, printed, current in conn.execute(
            """select id, game_id, document_id, slug, name, card_type, domain, ability_text, current_text
            from cards order by id"""
        )
    ]


def _faq_texts(stored: str) -> list[str]:
    """The questions and answers of an erratum's FAQs (a JSON list of {question, answer})."""
    try:
        entries = json.loads(stored)
    except ValueError:
        return [stored]
    if not isinstance(entries, list):
        return [stored]
    return [
        f"{entry.get('question') or ''} {entry.get('answer') or ''}".strip()
        for entry in entries
        if isinstance(entry, dict)
    ]


def _grouped(conn: sqlite3.Connection, sql: str) -> dict[int, list[str]]:
    groups = defaultdict(list)
    for key, value in conn.execute(sql):
        if value:
            groups[key].append(value)
    return groups


# ---------------------------------------------------------------- vocabulary


def _topics(conn: sqlite3.Connection, rows: list[dict]) -> set[str]:
    """Words that name a topic of the rules: a heading of one or two words ("Tank", "Buffs", "Combat
    Damage") and the keywords and glossary terms, not the words of longer headings ("First Turn Process")."""
    topics: set[str] = set()
    for row in rows:
        heading = WORD.findall(row["title"].lower()) if row["kind"] == "rule" else []
        if 0 < len(heading) <= 2:
            topics.update(word for word in heading if not word.isdigit())
    for (term,) in conn.execute("select term from keywords"):
        topics.update(WORD.findall(term.lower()))
    return topics


def _words(text: str) -> set[str]:
    """The text's distinct words (lower case)."""
    return set(WORD.findall(text.lower()))


def _fill_terms(conn: sqlite3.Connection, stems: dict[str, str], topics: set[str]) -> None:
    """Every word of the index with its lemma, stem and row count, and the English words of the lemma table."""
    conn.execute("create virtual table temp.search_fts_rows using fts5vocab (main, search_fts, row)")
    df = dict(conn.execute("select term, doc from temp.search_fts_rows"))
    conn.execute("drop table temp.search_fts_rows")
    lookup = lemma_lookup()
    conn.executemany(  # each batch in key order: the table is its primary key's b-tree
        "insert into search_terms (term, lemma, stem, df, topic) values (?, ?, ?, ?, ?)",
        [(word, lookup.get(word, word), stems[word], df.get(stems[word], 0), word in topics) for word in sorted(stems)],
    )
    # Every English word the lemma table knows, so that a real word is never "corrected" as a typo and "tapped"
    # reaches the vocabulary's "tap" even though no document says either: its forms with their lemmas, then its
    # lemmas that are no form (their own lemma); words of letters and digits only, and not the index's own words
    # (there already). Some 60k rows, read by SQLite from the table's JSON in key order: a fifth of the cost of
    # Python building and sorting them.
    conn.create_function("isalnum", 1, str.isalnum, deterministic=True)
    for word, lemma in (("key", "value"), ("value", "value")):
        conn.execute(
            f"""insert or ignore into search_terms (term, lemma, stem, df, topic)
            select {word}, {lemma}, null, 0, 0 from json_each(?) where isalnum({word}) order by {word}""",
            [lemma_table_json()],
        )
    conn.executescript(SEARCH_TERMS_INDEXES)


def stem_words(words: list[str]) -> dict[str, str]:
    """Each word's porter stem exactly as SQLite's FTS5 tokenizer makes it (read back through fts5vocab)."""
    memory = sqlite3.connect(":memory:")
    try:
        memory.executescript(
            """create virtual table words using fts5 (word, tokenize = 'porter unicode61 remove_diacritics 2');
            create virtual table stems using fts5vocab (words, instance);"""
        )
        memory.executemany("insert into words (rowid, word) values (?, ?)", enumerate(words, start=1))
        return {words[rowid - 1]: stem for stem, rowid in memory.execute("select term, doc from stems")}
    finally:
        memory.close()


def _fill_names(conn: sqlite3.Connection) -> None:
    names = [
        (normalise_name(name), card_id, game)
        for card_id, game, name in conn.execute(
            """select id, game_id, name from cards
            union select c.id, c.game_id, a.alias from card_aliases a join cards c on c.id = a.card_id"""
        )
    ]
    conn.executemany(
        "insert into search_names (name, card_id, game_id) values (?, ?, ?)",
        sorted({name for name in names if name[0]}),
    )
