"""The search index's format: what the index build (``rules_db.search_index``) writes and the search reads.

One module that both import, so that building the database loads none of the query-time search code: how a
word is read (``WORD``, as SQLite's unicode61 tokenizer reads it), the fields of a row and the tags of their
stems, the facet tokens the filters ask for, a card name as ``search_names`` stores it.
"""

from __future__ import annotations

import re
from functools import lru_cache

# A word as SQLite's unicode61 tokenizer sees it: a run of letters and digits.
WORD = re.compile(r"[^\W_]+")
PATH_SEPARATOR = " › "


KINDS = ("rule", "ruling", "card")


def normalise_name(text: str) -> str:
    """A name as ``search_names`` stores it: "Zhonya's Hourglass" -> "zhonyas hourglass"."""
    return " ".join(WORD.findall(_drop_apostrophes(text.lower())))


def _drop_apostrophes(text: str) -> str:
    return text.replace("'", "").replace("’", "")


@lru_cache(maxsize=4096)  # the index build asks it for every row, of a few games, versions and rulebooks
def facet(name: str, value: str) -> str:
    """A filter as one token of the index's ``facets`` column: ("game", "rush-of-ikorr") -> "gamerushofikorr"."""
    return name + re.sub(r"[^0-9a-z]", "", str(value).lower())


def facets(row: dict) -> list[str]:
    """The facet tokens of a row of ``search_documents``: what the search filters can ask of it. Rules carry
    their version and rulebook and, in the newest version, "current"; rulings and cards are always current
    and match any version or rulebook asked for ("unversioned")."""
    tokens = [facet("game", row["game_id"] or ""), facet("kind", row["kind"])]
    if row["kind"] == "rule":
        tokens += [facet("version", row["version"] or ""), facet("rulebook", row["rulebook"] or "")]
        return tokens + (["current"] if row["current"] else [])
    return [*tokens, "unversioned", "current"]


FIELDS = ("title", "terms", "path", "context", "body")
STEM_TAGS = ("h:", "h:", "p:", "p:", "b:")  # each field's tag in search_documents.stems: the heading, what the
# rule sits under (its heading path and its parents' statements), the text
EXAMPLE_TAG = "e:"  # the example a text gives ("Example: ...", "e.g."), tagged apart from the rest of it
_FIELD_TAGS = (*dict.fromkeys(STEM_TAGS), EXAMPLE_TAG)


# "Example:", "e.g.", "for example" starting a word; its first letter written first, so that the regular expression
# engine skips to the letters that can start it.
EXAMPLE = re.compile(r"[ef](?<=\b[ef])(?:xamples?:|\.g\.|or example\b)", re.IGNORECASE)


# The semantic stage's vectors (see rules_db.search_vectors): one per row of search_documents, of the text
# ``embedded_text`` gives, by the encoder ``search_vector_model`` names.
VECTOR_TABLES = """
create table search_vectors (
    id integer primary key,      -- search_documents.id
    vector blob not null         -- float16, unit length, of the row's embedded_text
);
create table search_vector_model (
    name text not null,          -- the encoder (rules_db.search.models), loaded again by name to embed questions
    dimensions integer not null,
    rows integer not null,       -- rows embedded
    texts integer not null       -- distinct texts among them (a rule unchanged across versions is one)
);
"""
VECTOR_DTYPE = "<f2"


def embedded_text(title: str | None, terms: str | None, path: str | None, body: str | None) -> str:
    """The text of a row the encoder reads: its heading, what it defines, the headings it sits under, its text."""
    head = " · ".join(part for part in (title, terms) if part)
    return "\n".join(part for part in (head, path, body) if part and part.strip())
