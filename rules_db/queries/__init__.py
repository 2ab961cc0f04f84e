"""The questions the judges' pages ask of the database, one module per page kind.

Every function takes an open ``sqlite3.Connection`` and returns plain data (dicts and lists) that is both rendered by
the Datasette pages and served as their JSON. Rows that point at a rule carry ``game``, ``version`` and ``number``,
which together name the rule's permalink (``common.RULE_REF``).

The page modules (``home``, ``rules``, ``diffs``, ``infractions``, ``keywords``, ``keyword_replays``, ``rulings``,
``cards``, ``replays``, ``tree``, ``indexes``, ``samples``, ``canned``) never import each other (a contract of
``make lint``): what several show is in ``common`` (rows, rule references, paging, diffs, symbols, a ruling's
sequence) or ``equivalents`` (the same rule in other versions), and what is kept per database file is in ``kept``.
This package names what the web pages and the search use, so that they call ``queries.rule_page`` wherever it lives.
"""

from rules_db.queries.canned import CANNED_QUERIES
from rules_db.queries.cards import card_page, card_slugs, engine_card_names, find_cards
from rules_db.queries.common import (
    PAGE_SIZE,
    PART_OF,
    RULE_REF,
    answer_line,
    answer_lines,
    diff_ops,
    page_in_range,
    paged,
    parts_of,
    ruling_sequence,
    symbols,
)
from rules_db.queries.diffs import DIFF_PAGE_SIZE, compare_every_version_pair, comparisons, diff_page
from rules_db.queries.equivalents import (
    equivalents,
    equivalents_of,
    replay_citations_in_newest,
    translate_replay_citations,
    with_newest,
)
from rules_db.queries.home import home, licensed_sources
from rules_db.queries.indexes import cards_index, replays_index, rulings_index
from rules_db.queries.infractions import infractions_page
from rules_db.queries.kept import file_identity, lookup_table, once_per_database, one_request
from rules_db.queries.keyword_replays import keyword_replays
from rules_db.queries.keywords import MENTIONS_PAGE_SIZE, definition, keyword_page, sentence_with, stored_aliases
from rules_db.queries.replays import (
    cited_rules,
    faq_rulings,
    library_scenarios,
    replay_page,
    rules_versions,
    step_citations,
)
from rules_db.queries.rules import LONGEST_RULE_NUMBER, lineage, locate_rule, nearest_rules, renumbered, rule_page
from rules_db.queries.rulings import citations, related_rulings, ruling_page
from rules_db.queries.samples import page_samples
from rules_db.queries.tree import outline, outline_every_rulebook, rule_tree, tree_named_by

__all__ = [
    "CANNED_QUERIES",
    "DIFF_PAGE_SIZE",
    "LONGEST_RULE_NUMBER",
    "MENTIONS_PAGE_SIZE",
    "PAGE_SIZE",
    "PART_OF",
    "RULE_REF",
    "card_page",
    "card_slugs",
    "cards_index",
    "citations",
    "cited_rules",
    "step_citations",
    "compare_every_version_pair",
    "comparisons",
    "definition",
    "diff_ops",
    "diff_page",
    "engine_card_names",
    "equivalents",
    "equivalents_of",
    "faq_rulings",
    "file_identity",
    "find_cards",
    "home",
    "infractions_page",
    "keyword_page",
    "keyword_replays",
    "library_scenarios",
    "licensed_sources",
    "lineage",
    "locate_rule",
    "lookup_table",
    "nearest_rules",
    "once_per_database",
    "one_request",
    "outline",
    "outline_every_rulebook",
    "page_in_range",
    "page_samples",
    "paged",
    "answer_line",
    "answer_lines",
    "parts_of",
    "related_rulings",
    "renumbered",
    "replay_citations_in_newest",
    "replay_page",
    "replays_index",
    "rule_page",
    "rule_tree",
    "rules_versions",
    "ruling_page",
    "ruling_sequence",
    "rulings_index",
    "sentence_with",
    "stored_aliases",
    "symbols",
    "translate_replay_citations",
    "tree_named_by",
    "with_newest",
]
