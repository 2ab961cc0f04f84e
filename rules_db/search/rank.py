"""Step 3, re-ranking: the features that matter for rules, computed on the rows retrieval found (see
``rules_db.search``)."""

from __future__ import annotations

import re
import sqlite3
import sys
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from rules_db import queries
from rules_db.search import retrieve
from rules_db.search.index_format import _FIELD_TAGS, EXAMPLE_TAG, KINDS, WORD
from rules_db.search.retrieve import _documents, _Retrieval
from rules_db.search.understand import EXPANSION_CREDIT, Query
from rules_db.search.vocabulary import vocabulary

CANDIDATES = 80  # rows re-ranked; beyond them the BM25 order continues


# ---------------------------------------------------------------- re-ranking


class _Matcher:
    """Finds the question's concepts in a row's text. Each word of a concept's form stands for every corpus
    word with the same stem (as the index sees it: "buff" finds "buffs", "buffed"), so the text is scanned for
    those surface words (one regular expression), and a phrase checks the words that follow. A form that counts
    for some games only (see ``Concept.scopes``) is found in their rows only."""

    def __init__(self, conn: sqlite3.Connection, query: Query):
        forms = [
            (index, credit, form.split(), concept.scopes.get(form))
            for index, concept in enumerate(query.concepts)
            for credit, forms_ in ((1.0, concept.forms), (EXPANSION_CREDIT, concept.expansions))
            for form in forms_
        ]
        stems = query.stems()
        surfaces = defaultdict(set)
        for term, stem in _surfaces(conn, set(stems.values())):
            surfaces[stem].add(term)

        def spelled(word: str) -> frozenset[str]:
            return frozenset(surfaces.get(stems.get(word, word), set()) | {word})

        # first word -> [(concept index, credit, the following words' spellings, the games it counts for or None)],
        # longest phrases first
        self.first: dict[str, list[tuple[int, float, tuple[frozenset, ...], frozenset[str] | None]]] = defaultdict(list)
        for index, credit, form, games in sorted(forms, key=lambda entry: -len(entry[2])):
            rest = tuple(spelled(word) for word in form[1:])
            for spelling in spelled(form[0]):
                self.first[spelling].append((index, credit, rest, games))
        # The first words, ending a word (a run of letters and digits, as WORD reads them): the regular
        # expression engine skips the other words, instead of a dictionary look-up of each word in Python.
        # Nothing precedes the words in the pattern, so the engine jumps between their first letters; a
        # match that does not start a word is passed over in ``find``.
        self.first_words = re.compile(_any_of(self.first) + r"(?![^\W_])" if self.first else r"(?!)")

    def find(self, text: str | None, game: str | None) -> list[tuple[int, int, float, int]]:
        """(start, end, credit, concept index) of each match in ``text``, a row's of ``game``, in order."""
        if not text:
            return []
        lower, found, resume = text.lower(), [], 0
        for match in self.first_words.finditer(lower):
            start = match.start()
            # Not at the start of a word: a letter or digit before it (``str.isalnum`` is the same test as WORD's)
            if start < resume or (start and lower[start - 1].isalnum()):
                continue
            for index, credit, rest, games in self.first[match.group()]:
                if games is not None and game not in games:
                    continue
                end = _phrase_end(lower, match.end(), rest) if rest else match.end()
                if end is not None:
                    found.append((start, end, credit, index))
                    resume = end
                    break
        return found


def _any_of(words: Iterable[str]) -> str:
    """A regular expression matching any of the words, longest first, grouped by their first letter
    ("a(?:fter|nd)|b(?:uff|ase)"): at each place of a text the engine tries the words of one letter, not all."""
    by_initial: dict[str, list[str]] = defaultdict(list)
    for word in sorted(words, key=lambda word: (-len(word), word)):
        by_initial[word[0]].append(re.escape(word[1:]))
    return "(?:" + "|".join(f"{re.escape(initial)}(?:{'|'.join(rests)})" for initial, rests in by_initial.items()) + ")"


def _phrase_end(text: str, position: int, rest: tuple[frozenset, ...]) -> int | None:
    """Where a phrase ends whose first word ends at ``position`` and whose next words are ``rest``."""
    for spellings in rest:
        following = WORD.search(text, position)
        if following is None or following.group() not in spellings:
            return None
        position = following.end()
    return position


def _surfaces(conn: sqlite3.Connection, stems: set[str]) -> list[tuple[str, str]]:
    """(word, stem) of every corpus word with one of the stems."""
    if not stems:
        return []
    unique = sorted(stems)
    return conn.execute(
        f"select term, stem from search_terms where stem in ({','.join('?' * len(unique))})", unique
    ).fetchall()


class _ConceptStems:
    """The question's concepts as tagged stems, to test a row's stored stems (``search_documents.stems``,
    where "h:buff" is a stem of the heading, "p:" of the path, "b:" of the body, "e:" of the example it gives).
    A form that counts for some games only (see ``Concept.scopes``) is sought in their rows only."""

    def __init__(self, query: Query):
        scoped = {game for concept in query.concepts for games in concept.scopes.values() for game in games}
        # game -> the question's stems in its rows (None: a game no form is scoped to)
        self._of_game = {game: _GameStems(query, game) for game in [None, *sorted(scoped)]}
        self.weights = [concept.weight for concept in query.concepts]
        self.total_weight = sum(self.weights) or 1.0
        self._matched: dict[tuple[str | None, frozenset[str], float, float], _Matched] = {}

    def matched(
        self, row_stems: tuple[str, ...], game: str | None, text_credit: float, heading_credit: float = 1.0
    ) -> _Matched:
        """What the stems of a row of ``game`` hold of the question, its text credited ``text_credit`` (see
        ``_TEXT_CREDIT``) and its heading ``heading_credit`` (see ``_heading_credit``). Rows holding the same of the
        question's stems hold the same: worked out once per search (half the candidates share another's)."""
        if game not in self._of_game:
            game = None
        stems = self._of_game[game]
        held = stems.wanted.intersection(row_stems)
        key = (game, held, text_credit, heading_credit)
        known = self._matched.get(key)
        if known is None:
            known = self._matched[key] = self._matched_by(stems, held, text_credit, heading_credit)
        return known

    def _matched_by(
        self, stems: _GameStems, held: frozenset[str], text_credit: float, heading_credit: float
    ) -> _Matched:
        found: dict[str, dict[int, float]] = {tag: {} for tag in _FIELD_TAGS}
        for tagged in held:
            in_field = found[tagged[:2]]
            for index, credit in stems.single.get(tagged, ()):
                if credit > in_field.get(index, 0.0):
                    in_field[index] = credit
        for tag, index, credit, phrase in stems.phrases:
            if phrase <= held and credit > found[tag].get(index, 0.0):
                found[tag][index] = credit
        if heading_credit < 1.0:
            found["h:"] = {index: heading_credit * credit for index, credit in found["h:"].items()}
        heading, path, body = found["h:"], found["p:"], found["b:"]
        best = {index: text_credit * credit for index, credit in body.items()}
        for index, credit in found[EXAMPLE_TAG].items():
            best[index] = max(best.get(index, 0.0), EXAMPLE_CREDIT * text_credit * credit)
        for in_field in (heading, path):
            for index, credit in in_field.items():
                if credit > best.get(index, 0.0):
                    best[index] = credit
        share = [_weighed(credits, self.weights) / self.total_weight for credits in (best, heading, path)]
        return _Matched(found, *share)


class _GameStems:
    """The tagged stems of the forms of the question that count for the rows of one game (None: of a game no
    form is scoped to)."""

    def __init__(self, query: Query, game: str | None):
        stem_of = query.stems()
        single: dict[str, dict[int, float]] = defaultdict(dict)  # tagged stem -> {concept: best credit}
        self.phrases: list[tuple[str, int, float, frozenset[str]]] = []  # (field, concept, credit, tagged stems)
        for index, concept in enumerate(query.concepts):
            for credit, forms in ((1.0, concept.forms), (EXPANSION_CREDIT, concept.expansions)):
                for form in forms:
                    if form in concept.scopes and game not in concept.scopes[form]:
                        continue
                    stems = [stem_of.get(word, word) for word in form.split()]
                    for tag in _FIELD_TAGS:
                        if len(stems) == 1:
                            credits = single[tag + stems[0]]
                            credits[index] = max(credits.get(index, 0.0), credit)
                        else:
                            self.phrases.append((tag, index, credit, frozenset(tag + stem for stem in stems)))
        self.single = {tagged: tuple(credits.items()) for tagged, credits in single.items()}
        # Every tagged stem the question asks for: a row's stems are only looked up in it, never made a set.
        self.wanted = frozenset(self.single).union(*(phrase for *_rest, phrase in self.phrases))


class _Matched(NamedTuple):
    """What a row holds of the question. ``found``: field tag -> {concept index: best credit} (a phrase: all its
    stems in one field)."""

    found: dict[str, dict[int, float]]
    coverage: float  # share of the question's weight held anywhere (the text by its kind's credit)
    heading: float  # ... in the heading, defined terms or card name
    path: float  # ... in the headings it sits under


@dataclass
class _Scored:
    document: dict
    rank: float  # BM25 (FTS5's rank: lower is better)
    score: float = 0.0
    found: dict = field(default_factory=dict)  # field tag -> {concept index: credit}
    matched: dict = field(default_factory=dict)  # field -> [(start, end, credit, concept index)], when looked for
    features: dict = field(default_factory=dict)  # feature -> value (see _WEIGHTS)
    section: str | None = None  # a rule's heading path (its section), and its position in its document
    position: int = 0


# Weights of the re-ranking features (tuned on the benchmark's tuning questions only).
_WEIGHTS = {
    "bm25": 2.0,  # the row's BM25 relative to the best row's
    "coverage": 6.0,  # share of the question's weight the row matches anywhere
    "heading": 0.5,  # share matched in its heading, defined terms or card name
    "path": 0.7,  # share matched in the headings it sits under
    "proximity": 1.0,  # share matched close together in the text
    "card": 3.0,  # the card the question names
    "game": 6.5,  # the game the question names ("in LoR"): as much as most of its words, so that game comes first
    "unasked_card": -1.5,  # a card, when the question neither names one nor asks for one, nor holds a word of its name
    "number": 1.0,  # the text says a number, when the question asks how many
    "form": 1.2,  # share of the question's forms (see QuestionForm) the text is of the kind that answers
    "leads": 0.5,  # the first rule found under its heading (see _with_section_leads)
    "section": 1.0,  # share of the question's weight the rules found under its heading hold (see _with_section_coverage)
}
# A ruling's question says what it is about; its answer, sequence and nuances hold many words in passing.
_TEXT_CREDIT = {"ruling": 0.5}
# An example a text gives ("Example: A deck could include ...") mentions what the rule it illustrates says, and often
# quotes a card: a word found only there counts for half (the index tags its words apart, see EXAMPLE_TAG).
EXAMPLE_CREDIT = 0.5
_NUMBER_STEM = re.compile(r"(?:^| )[hb]:(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve)(?: |$)")


_PROXIMITY_CHARACTERS = 80  # about a dozen words
_PROXIMITY_ROWS = 20  # the best rows whose text is read for proximity
_PROXIMITY_TEXT = 2000  # characters of it


def _scored(
    conn: sqlite3.Connection, query: Query, rows: list[tuple], concepts: _ConceptStems, best_rank: float | None = None
) -> list[_Scored]:
    """The rows (id, BM25 rank, ...) with their re-ranking score from the stems they hold, in the order given;
    BM25 relative to ``best_rank``, by default the best of the rows. Only what scoring needs is read here;
    ``_complete`` reads the text of the rows that are shown."""
    found = _scoring_rows(conn, [row[0] for row in rows])
    best_rank = min([row[1] for row in rows] + ([best_rank] if best_rank is not None else []), default=0.0)
    long_question = _long_ruling_question(conn)
    # A card named in the question, by how much of the question its name is ("zhonyas" alone: all of it).
    named_cards: dict[int, float] = defaultdict(float)
    for concept in query.concepts:
        for card_id in concept.card_ids:
            named_cards[card_id] += concept.weight / concepts.total_weight
    scored = []
    for row_id, rank, *_ in rows:
        if row_id not in found:
            continue
        row = found[row_id]
        kind, ref_id, game_id = row.kind, row.ref_id, row.game_id
        document = {"id": row_id, "kind": kind, "ref_id": ref_id, "game_id": game_id, "document_id": row.document_id}
        matched = concepts.matched(row.stems, game_id, _TEXT_CREDIT.get(kind, 1.0), _heading_credit(row, long_question))
        features = {
            "bm25": rank / best_rank if best_rank < 0 else 0.0,
            "coverage": matched.coverage,
            "heading": matched.heading,
            "path": matched.path,
            "card": named_cards.get(ref_id, 0.0) if kind == "card" else 0.0,
            "game": 1.0 if game_id in query.games else 0.0,
            # a card whose name holds words of the question may be the one described ("the fan that kills itself")
            "unasked_card": 1.0 if kind == "card" and not query.wants_card and not matched.heading else 0.0,
            "number": 1.0 if query.wants_number and row.says_number else 0.0,
            "form": len(query.forms & row.answers_forms) / len(query.forms) if query.forms else 0.0,
        }
        score = sum([_WEIGHTS[name] * value for name, value in features.items()])
        scored.append(
            _Scored(document, rank, score, matched.found, features=features, section=row.path, position=row.position)
        )
    return scored


class _ScoringRow(NamedTuple):
    """What scoring reads of a row of ``search_documents``."""

    kind: str
    ref_id: int
    game_id: str
    stems: tuple[str, ...]  # its tagged stems (see _ConceptStems), each string shared by every row holding it
    says_number: bool  # its heading or text holds a number (see _NUMBER_STEM)
    heading_words: int  # distinct stems of its heading (a ruling's: its question)
    answers_forms: frozenset[str]  # the question forms its heading or text answers (see _form_stems)
    document_id: str | None
    path: str | None
    position: int


_SCORING_ROWS_KEPT = 20_000  # rows kept per database (a few hundred bytes each): most searches find them there


def _scoring_rows(conn: sqlite3.Connection, ids: list[int]) -> dict[int, _ScoringRow]:
    """id -> what scoring reads of the row, kept per database: the candidates of one question are largely
    those of the last ones (the rules a dispute is about), so most are neither read nor parsed again."""
    kept: dict[int, _ScoringRow] = queries.lookup_table(conn, ("search scoring rows",), dict)
    # Read into the answer first: another thread may empty ``kept`` meanwhile.
    answer = {row_id: row for row_id in ids if (row := kept.get(row_id)) is not None}
    missing = [row_id for row_id in ids if row_id not in answer]
    if not missing:
        return answer
    if len(kept) + len(missing) > _SCORING_ROWS_KEPT:
        kept.clear()  # start again rather than keep an order: a search reads 80 rows, the bound is many times that
    form_stems = _form_stems(conn)
    for row_id, kind, ref_id, game_id, stems, document_id, path, position in conn.execute(
        f"""select id, kind, ref_id, game_id, stems, document_id, path, position from search_documents
        where id in ({",".join("?" * len(missing))})""",
        missing,
    ):
        tagged = tuple(sys.intern(stem) for stem in (stems or "").split())
        says_number = bool(_NUMBER_STEM.search(stems or ""))
        answers_forms = frozenset(name for name, stems in form_stems.items() if not stems.isdisjoint(tagged))
        heading_words = _heading_words(tagged)
        answer[row_id] = kept[row_id] = _ScoringRow(
            kind, ref_id, game_id, tagged, says_number, heading_words, answers_forms, document_id, path, position
        )
    return answer


def _heading_credit(row: _ScoringRow, long_question: int) -> float:
    """A ruling whose question is longer than most asks about many things in passing ("When a unit with 1 base
    Might has +1 Might from two different sources ... and Smoke Screen reduces it ..."): the question's words
    found in it count for less, by how much longer it is."""
    if row.kind != "ruling" or not long_question or row.heading_words <= long_question:
        return 1.0  # (a database whose rulings mostly ask nothing has no long question)
    return long_question / row.heading_words


def _long_ruling_question(conn: sqlite3.Connection) -> int:
    """The heading words (distinct stems) of a long ruling question: three rulings in four ask in as few, read
    once per database."""

    def read() -> int:
        lengths = sorted(
            _heading_words((stems or "").split())
            for (stems,) in conn.execute("select stems from search_documents where kind = 'ruling'")
        )
        return lengths[3 * len(lengths) // 4] if lengths else 0

    return queries.lookup_table(conn, ("search long ruling question",), read)


def _heading_words(tagged_stems: Iterable[str]) -> int:
    """Distinct stems of a row's heading (its tagged stems "h:..."; a ruling's heading is its question)."""
    return sum(1 for stem in tagged_stems if stem.startswith("h:"))


def _form_stems(conn: sqlite3.Connection) -> dict[str, frozenset[str]]:
    """Each question form's answering words ("can", "must"; "once", "only") as tagged stems of a row's heading
    or text, read once per database (the stems are the index's)."""

    def read() -> dict[str, frozenset[str]]:
        forms = vocabulary().question_forms
        words = sorted({word for form in forms.values() for word in form.answered_by})
        stem_of = dict(
            conn.execute(
                f"select term, stem from search_terms where stem is not null and term in ({','.join('?' * len(words))})",
                words,
            ).fetchall()
        )
        return {
            name: frozenset(tag + stem_of[word] for word in form.answered_by if word in stem_of for tag in ("h:", "b:"))
            for name, form in forms.items()
        }

    return queries.lookup_table(conn, ("search question form stems",), read)


def _sections(items: list[_Scored]) -> list[list[_Scored]]:
    """The rules among the items grouped by the heading they sit under (the same document and heading path)."""
    sections: dict[tuple, list[_Scored]] = defaultdict(list)
    for item in items:
        if item.document["kind"] == "rule":
            sections[(item.document["document_id"], item.section)].append(item)
    return list(sections.values())


def _with_section_leads(items: list[_Scored]) -> None:
    """Add the ``leads`` feature: the first of the rules found under one heading (the same document and heading
    path) states what the rules after it elaborate ("708 A Unit is Mighty as long as ..." before "709 ...
    Example: ..."); it leads only when another rule of its section was found too."""
    for members in _sections(items):
        if len(members) > 1:
            first = min(members, key=lambda item: item.position)
            first.features["leads"] = 1.0
            first.score += _WEIGHTS["leads"]


def _with_section_coverage(items: list[_Scored], weights: list[float]) -> None:
    """Add the ``section`` feature: the share of the question's weight that the rules found under the item's
    heading hold between them. A judge's question often spreads over a section (its heading names the topic,
    a sibling rule the case, the rule itself the answer), where a stray rule elsewhere holds many of its words."""
    total_weight = sum(weights) or 1.0
    for members in _sections(items):
        held: dict[int, float] = {}
        for item in members:
            for in_field in item.found.values():
                for index, credit in in_field.items():
                    held[index] = max(held.get(index, 0.0), credit)
        share = _weighed(held, weights) / total_weight
        for item in members:
            item.features["section"] = share
            item.score += _WEIGHTS["section"] * share


def _weighed(credits: dict[int, float], weights: list[float]) -> float:
    """The question's weight of the concepts found, each by its credit."""
    return sum([weights[index] * credit for index, credit in credits.items()])


def _complete(conn: sqlite3.Connection, items: list[_Scored]) -> None:
    """Read the full rows (text and all) of the items that do not have them yet."""
    missing = [item for item in items if "body" not in item.document]
    documents = _documents(conn, [item.document["id"] for item in missing])
    for item in missing:
        item.document = documents[item.document["id"]]


def _credit_rulings(conn: sqlite3.Connection, items: list[_Scored]) -> None:
    """Who wrote each ruling shown, and where: a ruling's text is shown with its credit (some are CC BY-SA)."""
    ids = [item.document["ref_id"] for item in items if item.document["kind"] == "ruling"]
    if not ids:
        return
    cursor = conn.execute(
        f"""select id, source, url, author, licence, licence_url from rulings
        where id in ({",".join("?" * len(ids))})""",
        ids,
    )
    names = [column[0] for column in cursor.description]
    credits = {row[0]: dict(zip(names[1:], row[1:])) for row in cursor.fetchall()}
    for item in items:
        if item.document["kind"] == "ruling":
            item.document["credit"] = credits.get(item.document["ref_id"])


def _defined_keywords(conn: sqlite3.Connection, items: list[_Scored]) -> None:
    """The keywords and glossary terms each rule shown defines (its page links to theirs)."""
    ids = [item.document["ref_id"] for item in items if item.document["kind"] == "rule"]
    if not ids:
        return
    defined: dict[int, list[str]] = defaultdict(list)
    for rule_id, term in conn.execute(
        f"select rule_id, term from keywords where rule_id in ({','.join('?' * len(ids))}) order by term", ids
    ):
        if term not in defined[rule_id]:
            defined[rule_id].append(term)
    for item in items:
        if item.document["kind"] == "rule":
            item.document["defines"] = defined.get(item.document["ref_id"], [])


def _with_proximity(conn: sqlite3.Connection, items: list[_Scored], query: Query, matcher: _Matcher) -> None:
    """Add the proximity feature to the items' scores (their text read for where the concepts stand)."""
    _complete(conn, items)
    weights = [concept.weight for concept in query.concepts]
    total_weight = sum(weights) or 1.0
    for item in items:
        item.matched["body"] = matcher.find((item.document["body"] or "")[:_PROXIMITY_TEXT], item.document["game_id"])
        item.features["proximity"] = _proximity(item.matched["body"], weights) / total_weight
        item.score += _WEIGHTS["proximity"] * item.features["proximity"]


def _proximity(matched: list[tuple[int, int, float, int]], weights: list[float]) -> float:
    """The most question weight found within ``_PROXIMITY_CHARACTERS`` of the text (two concepts or more)."""
    best, end, count = 0.0, 0, len(matched)
    starts = [start for start, *_rest in matched]
    for position, start in enumerate(starts):
        last_end = end
        while end < count and starts[end] - start <= _PROXIMITY_CHARACTERS:
            end += 1
        if end == last_end or end - position < 2:
            continue  # the window holds no match the one before it did not, or one match alone
        within: dict[int, float] = {}
        for _start, _end, credit, index in matched[position:end]:
            if credit > within.get(index, -1.0):
                within[index] = credit
        if len(within) >= 2:
            best = max(best, sum([weights[index] * credit for index, credit in within.items()]))
    return best


BEST_SHARE = 0.5  # the best ruling or card is offered beside the rules when it scores this share of the top result


def _best_of_each_kind(ranked: list[_Scored]) -> list[_Scored]:
    """The best rule, ruling and card, each only if it answers nearly as well as the best result: a ruling
    that merely shares a word with the question is not offered as "the best ruling"."""
    if not ranked:
        return []

    def score(item: _Scored) -> float:  # the fused score when the semantic stage took part, else the lexical one
        return item.features.get("fused", item.score)

    floor = BEST_SHARE * score(ranked[0])
    firsts = [next((item for item in ranked if item.document["kind"] == kind), None) for kind in KINDS]
    return [item for item in firsts if item is not None and (item is ranked[0] or score(item) >= floor)]


def _ranked(
    conn: sqlite3.Connection,
    query: Query,
    retrieval: _Retrieval,
    matches: int,
    concepts: _ConceptStems,
    matcher: _Matcher,
) -> list[_Scored]:
    """The best rows, re-ranked. BM25 scores every match when there are at most ``SCORED_MATCHES``;
    past that, only the rows holding two concepts or more, and if those are few the rows holding a rare
    concept or a common one in their headings (``_common_in_headings``). So the cost follows the rows
    that matter, not the size of the corpus."""
    scored: list[_Scored] = []
    seen: set[int] = set()
    many = matches > retrieve.SCORED_MATCHES
    for match in (retrieval.pairs, retrieval.bounded) if many else (retrieval.any,):
        if match is None or len(scored) >= CANDIDATES // 2:
            continue
        found = retrieve._candidates(conn, match, retrieval.rows, CANDIDATES)
        rows = [row for row in found if row[0] not in seen][: CANDIDATES - len(scored)]
        scored += _scored(conn, query, rows, concepts)  # BM25 is relative to the best row of each query
        seen.update(row[0] for row in rows)
    for game_rows in retrieval.named:  # BM25 relative to the best row of any game, as its rows compete with them
        match = retrieval.bounded if many else retrieval.any
        found = retrieve._candidates(conn, match, game_rows, CANDIDATES // 4) if match else []
        rows = [row for row in found if row[0] not in seen]
        scored += _scored(conn, query, rows, concepts, min((item.rank for item in scored), default=None))
        seen.update(row[0] for row in rows)
    _with_section_leads(scored)
    _with_section_coverage(scored, [concept.weight for concept in query.concepts])
    scored.sort(key=lambda item: -item.score)
    _with_proximity(conn, scored[:_PROXIMITY_ROWS], query, matcher)
    scored[:_PROXIMITY_ROWS] = sorted(scored[:_PROXIMITY_ROWS], key=lambda item: -item.score)
    return scored
