"""Search that answers a judge's question: query understanding, candidate retrieval, re-ranking.

A judge types the dispute ("can a unit have two buffs", "zhonyas hourglas", "what
happens if I draw with a full hand"), not the rule's words. ``search`` answers in three
steps, over the index that ``rules_db.search_index`` builds into the database:

1. **Understanding** (``understand``): the question's words, bounded in length and
   number; rule numbers and card names (and nicknames) recognised anywhere in it; filler
   words left out; every other word a *concept* searched through all its forms (its
   lemma's other forms, "died" for "die") and the domain synonyms a judge uses ("tap" ~
   exhaust), from ``data/search_vocabulary.yaml``; a word no document uses corrected
   against the corpus vocabulary (rapidfuzz), which the page offers as "did you mean".
2. **Retrieval**: one FTS5 query, every concept OR-ed (no word is required), ranked by
   BM25 with per-field weights; the best ``CANDIDATES`` rows go on, and the best rows of a
   game the question names ("in LoR"), sought apart. When more than ``SCORED_MATCHES`` rows
   match, BM25 ranks a bounded set instead (see ``_ranked``), so the cost follows the
   question, not the size of the corpus.
3. **Re-ranking** (``_ranked``): features that matter for rules, computed on those rows:
   how much of the question's weight (IDF of each concept) a row covers, and in which
   field (heading, defined terms, heading path, text), how much the rules found under its
   heading cover between them, how close the matched words stand, a card or a game named
   in the question, the first of several rules found under one heading, the kind of text a
   question's form asks for. Each was measured turned off on the held-out and fresh
   questions: what helped the tuning questions alone was removed. Beyond the
   re-ranked rows the BM25 order continues, so paging reaches the last match and the total
   is the true one (the index's order, when more than ``SCORED_MATCHES`` rows match:
   ranking them all would cost what the corpus costs).

Every query is bounded: at most ``MAX_QUERY_CHARS`` characters, ``MAX_WORDS`` words and
``MAX_CONCEPTS`` concepts are searched, words are quoted so FTS5 syntax in a question is
just text, and a time budget interrupts a query that runs too long.
"""

from __future__ import annotations

import math
import re
import sqlite3
import sys
import time
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import NamedTuple

import yaml
from rapidfuzz import fuzz, process

from rules_db import queries

# A word as SQLite's unicode61 tokenizer sees it: a run of letters and digits.
WORD = re.compile(r"[^\W_]+")
PATH_SEPARATOR = " › "

# Snippet highlight markers: control characters that document text never contains,
# so the page can escape the snippet and then turn them into <mark> tags.
MARK_START, MARK_END = "\x02", "\x03"

KINDS = ("rule", "ruling", "card")
MAX_QUERY_CHARS = 500  # a question longer than this is cut, with a notice
MAX_WORDS = 40  # distinct words read from the question
MAX_CONCEPTS = 12  # concepts searched: the most specific ones
MAX_CORRECTIONS = 5  # unknown words corrected per question
MAX_PHRASE_SPAN = 6  # words a phrase of the vocabulary may span in a question, filler words between its words included
CANDIDATES = 80  # rows re-ranked; beyond them the BM25 order continues
PER_PAGE = 20
MAX_PAGE = 500
TIME_BUDGET = 2.0  # seconds of CPU a search may spend before it is interrupted
WAIT_BUDGET = 5 * TIME_BUDGET  # seconds on the clock, waits included: a search never holds a server thread longer
COMMON_SHARE = 0.1  # a concept in more rows than this share only re-ranks (see _retrieval)
PAIRED_CONCEPTS = 5  # the best rows are sought among rows holding two of this many most specific concepts
SCORED_MATCHES = 2000  # ... when more rows than this match any concept; and at most about this many rows are
# ranked for the concepts searched in every field (the more common ones are sought in headings only)

# BM25 weights of the index's fields: title, terms, path, context, body (facets do not score).
FIELD_WEIGHTS = (4.0, 4.0, 1.5, 0.5, 1.0, 0.0)
EXPANSION_CREDIT = 0.5  # a synonym found counts for half the judge's own word
TOPIC_WEIGHT = 2.0  # a word the rules' headings use ("tank", "mulligan") weighs this much more than its rarity

# A rule number typed on its own: "626.1.d", "rule 318", "318.", "E.1".
_NUMBER_QUERY = re.compile(
    r"^\s*(?:(?:rules?|step|§)\s*)?(?P<number>\d+(?:\.[0-9A-Za-z]+)*|[A-Za-z](?:\.[0-9A-Za-z]+)+)\.?\s*$", re.IGNORECASE
)
# A rule number inside a question: "is 443.1.d right", "rule 318", "see E.3.6".
_NUMBER_IN_TEXT = re.compile(
    r"(?<![\w.])(?:(?:rules?|step|§)\s*(?P<bare>\d+)\b|(?P<dotted>\d+(?:\.[0-9a-z]+)+|[a-z](?:\.[0-9a-z]+)+))\.?(?![\w])",
    re.IGNORECASE,
)


class SearchTooSlow(Exception):
    """The search ran past its time budget and was stopped."""


# ---------------------------------------------------------------- vocabulary


@dataclass(frozen=True)
class QuestionForm:
    """A kind of question ("can I ...", "can I do it twice") and the words of the texts that answer it."""

    asked_by: frozenset[tuple[str, ...]]  # phrases of the question
    answered_by: frozenset[str]  # words of the documents ("can", "must"; "once", "only")


@dataclass(frozen=True)
class Vocabulary:
    """The data in ``search_vocabulary.yaml``: filler words, and judges' words with their expansions."""

    filler: frozenset[str]
    contraction_endings: tuple[str, ...]  # "s" of "what's": a filler word with one is filler
    expansions: dict[tuple[str, ...], tuple[str, ...]]  # judge's words -> the documents' words or phrases
    games: dict[tuple[str, ...], str]  # a game's name or abbreviation -> its id
    card_intent: frozenset[tuple[str, ...]]  # phrases showing the judge looks for a card ("spell that")
    number_intent: frozenset[tuple[str, ...]]  # phrases asking for a number ("how many")
    question_forms: dict[str, QuestionForm]  # name -> a kind of question and the texts that answer it


VOCABULARY_FILE = Path(str(resources.files("rules_db") / "data" / "search_vocabulary.yaml"))


@lru_cache(maxsize=1)
def vocabulary() -> Vocabulary:
    data = yaml.safe_load(VOCABULARY_FILE.read_text(encoding="utf-8"))
    return Vocabulary(
        filler=frozenset(str(word).lower() for word in data.get("filler", [])),
        contraction_endings=tuple(str(ending).lower() for ending in data.get("contraction_endings") or []),
        expansions={
            tuple(WORD.findall(str(key).lower())): tuple(str(value).lower() for value in values)
            for key, values in (data.get("expansions") or {}).items()
        },
        games={
            tuple(WORD.findall(_drop_apostrophes(str(name).lower()))): str(game)
            for game, names in (data.get("games") or {}).items()
            for name in names
        },
        card_intent=frozenset(tuple(WORD.findall(str(phrase).lower())) for phrase in data.get("card_intent") or []),
        number_intent=frozenset(tuple(WORD.findall(str(phrase).lower())) for phrase in data.get("number_intent") or []),
        question_forms={
            str(name): QuestionForm(
                asked_by=frozenset(tuple(WORD.findall(_drop_apostrophes(str(p).lower()))) for p in form["asked_by"]),
                answered_by=frozenset(str(word).lower() for word in form["answered_by"]),
            )
            for name, form in (data.get("question_forms") or {}).items()
        },
    )


def normalise_name(text: str) -> str:
    """A name as ``search_names`` stores it: "Zhonya's Hourglass" -> "zhonyas hourglass"."""
    return " ".join(WORD.findall(_drop_apostrophes(text.lower())))


def _drop_apostrophes(text: str) -> str:
    return text.replace("'", "").replace("’", "")


# ---------------------------------------------------------------- understanding


@dataclass
class Concept:
    """One idea of the question, with every way the documents say it."""

    typed: str  # the words as the judge typed them (after any correction)
    forms: list[str]  # words or phrases (FTS tokens joined by spaces) meaning exactly this
    expansions: list[str] = field(default_factory=list)  # synonyms, worth EXPANSION_CREDIT
    weight: float = 1.0  # inverse document frequency: rare words weigh more
    rows: int = 0  # about how many rows of the index hold it
    card_ids: tuple[int, ...] = ()  # the cards a recognised name stands for
    # A form mined from one game's rules (see rules_db.aliases) -> the games whose rows it counts for; a form not
    # here counts for every game's rows. "static" is "passive" in Riftbound's rules, not in every game's.
    scopes: dict[str, frozenset[str]] = field(default_factory=dict)


@dataclass
class Query:
    text: str  # the question as searched (bounded, corrected)
    concepts: list[Concept]
    numbers: list[str] = field(default_factory=list)  # rule numbers typed in the question
    ignored: list[str] = field(default_factory=list)  # filler words left out
    unknown: list[str] = field(default_factory=list)  # words no document uses
    corrections: list[tuple[str, str]] = field(default_factory=list)  # (typed, meant)
    notices: list[str] = field(default_factory=list)
    games: set[str] = field(default_factory=set)  # games the question names ("in LoR")
    wants_card: bool = False  # the question names a card or asks for one ("which spell deals 3 twice")
    wants_number: bool = False  # the question asks how many, how much, the most or the least
    forms: frozenset[str] = frozenset()  # the question forms it has (see QuestionForm): "permission", "limit"
    terms: dict[str, Term] = field(default_factory=dict)  # what the index knows of the words of the concepts' forms
    indexed: int = 1  # rows of the index (the concepts' weights are relative to it)
    renamed: list[dict] = field(default_factory=list)  # older wordings the question uses, and their names now

    def stems(self) -> dict[str, str]:
        """word -> its stem as the index stores it, for each word of the concepts' forms and synonyms that some
        row holds."""
        words = {
            word for concept in self.concepts for form in concept.forms + concept.expansions for word in form.split()
        }
        return {word: stem for word in words if (stem := self.terms.get(word, _UNKNOWN).stem)}

    @property
    def card_only(self) -> tuple[int, ...]:
        """The cards the question names, when it names one card and nothing else."""
        if len(self.concepts) == 1 and self.concepts[0].card_ids and not self.numbers:
            return self.concepts[0].card_ids
        return ()


class Term(NamedTuple):
    """What ``search_terms`` knows of a word."""

    lemma: str
    rows: int  # rows of the index holding its stem (0: an English word no document uses)
    topic: bool  # the word names a topic of the rules: it is in a rule's heading or defined terms ("tank", "stun")
    stem: str | None  # as the index stores it (None: a form no row uses)


_UNKNOWN = Term("", 0, False, None)


def understand(conn: sqlite3.Connection, text: str, game: str | None = None) -> Query:
    """The question as concepts to search (see the module's docstring)."""
    text = unicodedata.normalize("NFKC", text or "").strip()
    notices = []
    if len(text) > MAX_QUERY_CHARS:
        text = text[:MAX_QUERY_CHARS].rsplit(" ", 1)[0]
        notices.append(f"Only the first {MAX_QUERY_CHARS} characters of the question were searched.")
    numbers = [match.group("bare") or match.group("dotted") for match in _NUMBER_IN_TEXT.finditer(text)]
    words = WORD.findall(_drop_apostrophes(_NUMBER_IN_TEXT.sub(" ", text).lower()))
    if len(dict.fromkeys(words)) > MAX_WORDS:
        kept = set(list(dict.fromkeys(words))[:MAX_WORDS])
        words = [word for word in words if word in kept]
        notices.append(f"Only the first {MAX_WORDS} different words of the question were searched.")
    query = Query(text=text, concepts=[], numbers=list(dict.fromkeys(numbers)), notices=notices)
    if not words:
        return query
    terms = _terms(conn, words)
    words = _corrected(conn, words, terms, query)
    terms.update(_terms(conn, [word for word in words if word not in terms]))
    query.concepts = _resolved(conn, _concepts(conn, words, terms, query, game), terms, query)
    query.renamed = _renamed(conn, query, game)
    phrases = {tuple(words[start : start + length]) for length in (1, 2, 3) for start in range(len(words))}
    query.wants_card = any(concept.card_ids for concept in query.concepts) or bool(phrases & vocabulary().card_intent)
    query.wants_number = bool(phrases & vocabulary().number_intent)
    query.forms = frozenset(name for name, form in vocabulary().question_forms.items() if phrases & form.asked_by)
    return query


def _concepts(conn: sqlite3.Connection, words: list[str], terms: dict, query: Query, game: str | None) -> list[Concept]:
    """The question's words as concepts: card names, the judge's phrases the vocabulary expands ("full hand"),
    and every other word that is not filler (with its expansions); game names are noted."""
    filler = vocabulary().filler
    expansions, scopes = _expansions(conn, game)
    concepts = []
    phrases = {start: (end, key) for start, end, key in _phrase_expansions(words, terms, expansions)}
    names = _card_names(conn, words, game)
    position = 0
    while position < len(words):
        if position in phrases and position not in names:
            end, key = phrases[position]
            typed = " ".join(words[position:end])
            concepts.append(Concept(typed, [typed], list(expansions[key]), scopes=scopes.get(key, {})))
            position = end
            continue
        if position in names:
            end, card_ids = names[position]
            concepts.append(_name_concept(conn, words[position:end], card_ids))
            position = end
            continue
        game_name = _game_at(words, position)
        if game_name:
            position, game_id = game_name
            query.games.add(game_id)
            continue
        word = words[position]
        position += 1
        if word in filler or (len(word) == 1 and not word.isdigit()):
            query.ignored.append(word)
            continue
        lemma = terms.get(word, _UNKNOWN).lemma or word
        key = (word,) if expansions.get((word,)) else (lemma,)
        concepts.append(Concept(word, [word], list(expansions.get(key, ())), scopes=scopes.get(key, {})))
    return concepts


class _Aliases(NamedTuple):
    """The aliases of ``search_aliases`` (see ``rules_db.aliases``), read once per database."""

    expansions: dict[str | None, dict[tuple[str, ...], tuple[str, ...]]]  # game (None: every game) -> the expansions
    # Of every game's expansions: words and phrases -> their aliases' terms the vocabulary does not give them ->
    # the games whose rules the alias was mined from.
    scopes: dict[tuple[str, ...], dict[str, frozenset[str]]]
    renamed: dict[tuple[str, ...], list[dict]]  # an older wording -> {game, term, evidence} of each rename


def _aliases(conn: sqlite3.Connection) -> _Aliases:
    return queries.lookup_table(conn, ("search aliases",), lambda: _read_aliases(conn))


def _expansions(
    conn: sqlite3.Connection, game: str | None
) -> tuple[dict[tuple[str, ...], tuple[str, ...]], dict[tuple[str, ...], dict[str, frozenset[str]]]]:
    """Words and phrases -> the documents' words for them: the vocabulary's expansions, and the aliases mined from
    the documents of the game searched, or of every game; and, searching every game, the games each alias's
    term counts for (see ``Concept.scopes``)."""
    aliases = _aliases(conn)
    return aliases.expansions.get(game, vocabulary().expansions), aliases.scopes if game is None else {}


def _read_aliases(conn: sqlite3.Connection) -> _Aliases:
    """Each alias under its words and under their lemmas (a question's phrase matches either: "pending combat" is
    the alias "pending combats")."""
    aliases = _Aliases({None: dict(vocabulary().expansions)}, defaultdict(dict), defaultdict(list))
    rows = conn.execute("select game_id, alias, term, source, evidence from search_aliases order by id").fetchall()
    terms = _terms(conn, [word for row in rows for word in WORD.findall(row[1])])
    for game, alias, term, source, evidence in rows:
        words = tuple(WORD.findall(alias))
        keys = dict.fromkeys([words, _lemmas(words, terms)])
        if game not in aliases.expansions:
            aliases.expansions[game] = dict(vocabulary().expansions)
        for expansions in (aliases.expansions[None], aliases.expansions[game]):
            for key in keys:
                expansions[key] = tuple(dict.fromkeys([*expansions.get(key, ()), term]))
        for key in keys:
            if term not in vocabulary().expansions.get(key, ()):
                aliases.scopes[key][term] = aliases.scopes[key].get(term, frozenset()) | {game}
        if source == "renamed":
            aliases.renamed[_lemmas(words, terms)].append({"game": game, "term": term, "evidence": evidence})
    return aliases


def _lemmas(words: Iterable[str], terms: dict[str, Term]) -> tuple[str, ...]:
    return tuple(terms.get(word, _UNKNOWN).lemma or word for word in words)


def _renamed(conn: sqlite3.Connection, query: Query, game: str | None) -> list[dict]:
    """The older wordings the question uses, each with what the rules of its game call it now and the evidence."""
    filler = vocabulary().filler
    renamed = _aliases(conn).renamed
    return [
        {"typed": concept.typed, **rename}
        for concept in query.concepts
        for rename in renamed.get(_lemmas((w for w in concept.typed.split() if w not in filler), query.terms), [])
        if game is None or rename["game"] == game
    ]


def _phrase_expansions(
    words: list[str], terms: dict, expansions: dict[tuple[str, ...], tuple[str, ...]]
) -> list[tuple[int, int, tuple[str, ...]]]:
    """(start, end, key in ``expansions``) of the phrases of two words or more in the question that it has,
    matched on the words or their lemmas, longest first and not overlapping. A phrase also matches with filler
    words between its words ("declare my attackers" is "declare attackers", "damage in order" is "damage order")."""
    vocab = vocabulary()
    lemmas = [terms.get(word, _UNKNOWN).lemma or word for word in words]
    found: list[tuple[int, int, tuple[str, ...]]] = []
    taken: set[int] = set()
    for length in range(MAX_PHRASE_SPAN, 1, -1):
        for start in range(len(words) - length + 1):
            span = range(start, start + length)
            if not taken.isdisjoint(span):
                continue
            raw, lemmatised = tuple(words[start : start + length]), tuple(lemmas[start : start + length])
            keys = [raw, lemmatised] if length <= 4 else []
            if raw[0] not in vocab.filler and raw[-1] not in vocab.filler:
                keys += [tuple(word for word in key if word not in vocab.filler) for key in (raw, lemmatised)]
            for key in keys:
                if len(key) > 1 and key in expansions and taken.isdisjoint(span):
                    found.append((start, start + length, key))
                    taken.update(span)
    return found


def _terms(conn: sqlite3.Connection, words: list[str]) -> dict[str, Term]:
    """word -> Term for the words the index knows (a word of the corpus, or any English word)."""
    unique = list(dict.fromkeys(words))
    if not unique:
        return {}
    rows = conn.execute(
        f"select term, lemma, df, topic, stem from search_terms where term in ({','.join('?' * len(unique))})", unique
    ).fetchall()
    return {term: Term(lemma, df, bool(topic), stem) for term, lemma, df, topic, stem in rows}


def _corrected(conn: sqlite3.Connection, words: list[str], terms: dict, query: Query) -> list[str]:
    """The words with each unknown one replaced by the nearest word of the corpus, if one is near enough; a
    contraction of a filler word ("whats") is that filler word, not a typo."""
    filler = vocabulary().filler
    corrected = []
    for word in words:
        if word not in terms and word not in filler and (contracted := _contracted_filler(word)):
            corrected.append(contracted)
            continue
        if (
            word in terms
            or word in filler
            or len(word) < 4
            or not word.isalpha()
            or len(query.corrections) >= MAX_CORRECTIONS
        ):
            corrected.append(word)
            continue
        meant = _nearest_word(conn, word)
        if meant:
            query.corrections.append((word, meant))
        corrected.append(meant or word)
    return corrected


def _contracted_filler(word: str) -> str | None:
    """The filler word ``word`` contracts with its apostrophe dropped ("whats" -> "what", "doesnt" -> "doesn")."""
    vocab = vocabulary()
    for ending in vocab.contraction_endings:
        if word.endswith(ending) and word[: -len(ending)] in vocab.filler:
            return word[: -len(ending)]
    return None


def _nearest_word(conn: sqlite3.Connection, word: str) -> str | None:
    """The corpus word closest to ``word`` (one or two typos, by length), the most used one on a tie.
    Candidates share its first letter (typos rarely hit it), so the cost does not grow with the corpus."""
    corpus = _corpus(conn)
    cutoff = 85 if len(word) < 7 else 80
    choices = corpus.by_initial.get(word[0], [])
    matches = process.extract(word, choices, scorer=fuzz.ratio, score_cutoff=cutoff, limit=5)
    if not matches:
        return None
    return max(matches, key=lambda match: (match[1], corpus.counts[match[0]]))[0]


@dataclass
class _CorpusWords:
    counts: dict[str, int]  # word -> rows holding it
    by_initial: dict[str, list[str]]  # first letter -> the words starting with it


def _corpus(conn: sqlite3.Connection) -> _CorpusWords:
    """The corpus vocabulary (words of three letters or more that some row holds), read once per database."""
    return queries.lookup_table(conn, ("search corpus",), lambda: _read_corpus(conn))


def _read_corpus(conn: sqlite3.Connection) -> _CorpusWords:
    counts = dict(conn.execute("select term, df from search_terms where df > 0 and length(term) >= 3"))
    by_initial: dict[str, list[str]] = defaultdict(list)
    for word in counts:
        by_initial[word[0]].append(word)
    return _CorpusWords(counts, by_initial)


def _card_names(conn: sqlite3.Connection, words: list[str], game: str | None) -> dict[int, tuple[int, tuple]]:
    """Card names and nicknames in the question: start position -> (end position, card ids), longest first."""
    grams: dict[str, list[tuple[int, int]]] = {}
    for start in range(len(words)):
        for end in range(start + 1, min(len(words), start + 6) + 1):
            grams.setdefault(" ".join(words[start:end]), []).append((start, end))
    names = defaultdict(set)
    for name, card_id in conn.execute(
        f"""select name, card_id from search_names where name in ({",".join("?" * len(grams))})
        and (? is null or game_id = ?)""",
        [*grams, game, game],
    ):
        names[name].add(card_id)
    filler = vocabulary().filler
    found = sorted(
        ((start, end, name) for name in names for start, end in grams[name] if name not in filler),
        key=lambda span: (-(span[1] - span[0]), span[0]),
    )
    spans: dict[int, tuple[int, tuple]] = {}
    taken: set[int] = set()
    for start, end, name in found:
        if taken.isdisjoint(range(start, end)):
            spans[start] = (end, tuple(sorted(names[name])))
            taken.update(range(start, end))
    return spans


def _name_concept(conn: sqlite3.Connection, typed: list[str], card_ids: tuple) -> Concept:
    """A card named in the question: found by the words typed, and by each card's printed name."""
    printed = [
        " ".join(WORD.findall(name.lower()))
        for (name,) in conn.execute(
            f"select name from cards where id in ({','.join('?' * len(card_ids))})", card_ids
        ).fetchall()
    ]
    return Concept(" ".join(typed), forms=list(dict.fromkeys([" ".join(typed), *printed])), card_ids=card_ids)


def _game_at(words: list[str], position: int) -> tuple[int, str] | None:
    """(end, game id) of a game's name starting at ``position``, the longest one."""
    games = vocabulary().games
    for length in range(min(4, len(words) - position), 0, -1):
        game = games.get(tuple(words[position : position + length]))
        if game:
            return position + length, game
    return None


def _resolved(conn: sqlite3.Connection, concepts: list[Concept], terms: dict, query: Query) -> list[Concept]:
    """Each concept with the corpus forms of its words and synonyms, and its weight; concepts that no
    document can match are reported as unknown and dropped. ``query.terms`` holds every word of their forms."""
    words = {word for concept in concepts for form in [*concept.forms, *concept.expansions] for word in form.split()}
    terms.update(_terms(conn, [word for word in words if word not in terms]))
    # Kept apart for the topic: a concept names a topic by the words typed (crediting the headings of its other
    # forms too measured worse on the held-out questions); its rows are those of every form it is searched by.
    other_forms: dict[str, Term] = {}
    forms_of = _forms_of_lemmas(conn, {terms[word].lemma for word in words if word in terms}, other_forms)
    query.terms = {**other_forms, **terms}

    def corpus_forms(form: str) -> list[str]:
        if " " in form:
            return [form] if all(terms.get(word, _UNKNOWN).rows for word in form.split()) else []
        lemma = terms.get(form, _UNKNOWN).lemma or form
        # Other forms of the lemma, when they look like the word ("died" and "die", not "might" and "may").
        others = [other for other in forms_of.get(lemma, []) if other[:2] == form[:2]][:6]
        return list(dict.fromkeys(([form] if terms.get(form, _UNKNOWN).rows else []) + others))

    total = query.indexed = _row_count(conn)
    resolved: dict[tuple, Concept] = {}
    for concept in concepts:
        forms = concept.forms if concept.card_ids else [found for form in concept.forms for found in corpus_forms(form)]
        expansions = [found for form in concept.expansions for found in corpus_forms(form) if found not in forms]
        concept.scopes = _found_scopes(concept, corpus_forms, forms)
        if not forms and not expansions:
            query.unknown.append(concept.typed)
            continue
        if not forms:  # no document says it the judge's way: the vocabulary's words are what it means
            forms, expansions = expansions, []
        concept.forms, concept.expansions = list(dict.fromkeys(forms)), list(dict.fromkeys(expansions))
        # As common as the commonest word it is searched by: a rare word of the judge's whose synonym the
        # documents use far more ("die": "kill") finds as many rows as that synonym, and says as little.
        concept.rows = _rows_holding(concept.forms + concept.expansions, query.terms)
        if concept.card_ids:  # a name is as specific as its rarest word
            concept.rows = min(
                (terms.get(word, _UNKNOWN).rows or total for word in concept.typed.split()), default=total
            )
        concept.weight = math.log(1 + (total - concept.rows + 0.5) / (concept.rows + 0.5))
        if any(terms.get(form, _UNKNOWN).topic for form in concept.forms):
            concept.weight *= TOPIC_WEIGHT
        resolved.setdefault((tuple(sorted(concept.forms)), tuple(sorted(concept.expansions))), concept)
    kept = sorted(resolved.values(), key=lambda concept: -concept.weight)[:MAX_CONCEPTS]
    if len(resolved) > MAX_CONCEPTS:
        query.notices.append(f"Only the {MAX_CONCEPTS} most specific words of the question were searched.")
    return [concept for concept in concepts if any(concept is other for other in kept)]


def _found_scopes(
    concept: Concept, corpus_forms: Callable[[str], list[str]], forms: list[str]
) -> dict[str, frozenset[str]]:
    """The concept's scopes carried to the corpus forms its expansions are searched by: a form the judge typed, or
    that an expansion counting for every game also finds, counts for every game."""
    scopes: dict[str, frozenset[str]] = {}
    everywhere = set(forms)
    for form in concept.expansions:
        games = concept.scopes.get(form)
        for found in corpus_forms(form):
            if games is None:
                everywhere.add(found)
            else:
                scopes[found] = scopes.get(found, frozenset()) | games
    return {form: games for form, games in scopes.items() if form not in everywhere}


def _forms_of_lemmas(conn: sqlite3.Connection, lemmas: set[str], terms: dict[str, Term]) -> dict[str, list[str]]:
    """lemma -> the corpus words with that lemma, most used first (``terms`` gains what the index knows of them)."""
    forms_of = defaultdict(list)
    if lemmas:
        for term, lemma, df, topic, stem in conn.execute(
            f"""select term, lemma, df, topic, stem from search_terms where lemma in ({",".join("?" * len(lemmas))})
            and df > 0 order by df desc""",
            list(lemmas),
        ):
            forms_of[lemma].append(term)
            terms[term] = Term(lemma, df, bool(topic), stem)
    return forms_of


def _rows_holding(forms: list[str], terms: dict) -> int:
    """About how many rows hold one of the forms: the most common form's count (a phrase: its rarest word)."""
    return max(
        (min(terms.get(word, _UNKNOWN).rows for word in form.split()) for form in forms if form.split()), default=0
    )


def _row_count(conn: sqlite3.Connection) -> int:
    """Rows of the index (read once per database)."""
    return queries.lookup_table(
        conn,
        ("search row count",),
        lambda: conn.execute("select coalesce(max(id), 0) from search_documents").fetchone()[0] or 1,
    )


# ---------------------------------------------------------------- retrieval


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


def _filter_expression(filters: dict, by_rowid: bool) -> str | None:
    """The search filters as an FTS5 condition on the ``facets`` column (tokens only: nothing typed reaches it);
    none when there is nothing to filter on. ``by_rowid``: the current rows (of the game filtered on) are sought
    by their ids (see ``_current_rows``), not by tokens."""
    if filters["version"]:
        tokens = [f"({facet('version', filters['version'])} OR unversioned)"]
    else:
        tokens = [] if by_rowid else ["current"]
    if filters["rulebook"]:
        tokens.append(f"({facet('rulebook', filters['rulebook'])} OR unversioned)")
    if filters["game"] and not by_rowid:
        tokens.append(facet("game", filters["game"]))
    if filters["kind"]:
        tokens.append(facet("kind", filters["kind"]))
    return "facets : (" + " AND ".join(tokens) + ")" if tokens else None


ALL_ROWS = (0, 2**62)


def _current_rows(conn: sqlite3.Connection) -> dict[str | None, tuple[int, int] | None]:
    """The first and last id of the rows searched by default (``search_documents.current``), of each game and of
    all of them (None), when they are one run of ids (the index stores the current rows first, game by game). FTS5
    then seeks to those ids instead of reading the list of every row holding the ``current`` (or the game's) token,
    a cost that grows with the corpus, not with the question. A game the database does not hold has none."""
    return queries.lookup_table(conn, ("search current rows",), lambda: _read_current_rows(conn))


def _read_current_rows(conn: sqlite3.Connection) -> dict[str | None, tuple[int, int] | None]:
    """``_current_rows`` read at once: one table per database, whatever game a request names."""
    games = [game for (game,) in conn.execute("select distinct game_id from search_documents")]
    runs: dict[str | None, tuple[int, int] | None] = {}
    for game in [None, *games]:
        # Read from the index's list of the rows holding those tokens: no scan of every row's text.
        searched = "current" + (f" AND {facet('game', game)}" if game else "")
        low, high, count = conn.execute(
            "select min(rowid), max(rowid), count(*) from search_fts where search_fts match ?",
            [f"facets : ({searched})"],
        ).fetchone()
        runs[game] = (low, high) if count and high - low + 1 == count else None
    return runs


_TEXT_COLUMNS = "{title terms path context body}"

# The same filters in SQL, for the rows a question cites by number (not found through the index).
_FILTERS = """(:game is null or d.game_id = :game)
    and (:kind is null or d.kind = :kind)
    and (d.kind != 'rule' or ((:rulebook is null or d.rulebook = :rulebook)
        and (case when :version is null then d.current = 1 else d.version = :version end)))"""


_HEADING_COLUMNS = "{title terms}"


@dataclass
class _Retrieval:
    """The FTS5 queries of a question: ``any`` matches rows holding any of its concepts (what the total
    counts and paging walks); ``pairs``, rows holding two of its most specific concepts at least, and
    ``bounded``, rows holding a rare concept anywhere or a common one in their headings (where the best
    rows are sought when many rows match, so that BM25 scores few rows)."""

    any: str | None
    pairs: str | None
    bounded: str | None = None
    rows: tuple[int, int] = ALL_ROWS  # the first and last id of the rows searched (see _current_rows)
    named: list[tuple[int, int]] = field(default_factory=list)  # the same, of each game the question names


def _retrieval(conn: sqlite3.Connection, query: Query, filters: dict) -> _Retrieval:
    """The FTS5 queries for the question (see ``_Retrieval``); every form quoted, so no FTS syntax survives.

    Concepts (and synonyms) held by more than ``COMMON_SHARE`` of the rows ("unit" in a rulebook) find
    rows only when the question has nothing more specific; they still count when the rows found are
    re-ranked. Forms with the same stem are one term to the index and are searched once."""
    common = COMMON_SHARE * query.indexed
    specific = [concept for concept in query.concepts if concept.rows <= common] or sorted(
        query.concepts, key=lambda concept: -concept.weight
    )[:2]
    stem_of, terms = query.stems(), query.terms
    groups = []  # (weight, rows holding it at most, the concept's forms OR-ed in the text, ... in the headings)
    for concept in specific:
        alternatives = [form for form in concept.forms + concept.expansions if _rows_holding([form], terms) <= common]
        by_stem = {
            (tuple(stem_of.get(word, word) for word in form.split()), concept.scopes.get(form)): form
            for form in alternatives or concept.forms
        }
        if by_stem:
            rows = sum(_rows_holding([form], terms) for form in by_stem.values())
            scoped = {form: concept.scopes.get(form) for form in by_stem.values()}
            groups.append((concept.weight, rows, _any_form(scoped, _TEXT_COLUMNS), _any_form(scoped, _HEADING_COLUMNS)))
    if not groups:
        return _Retrieval(None, None)
    runs = _current_rows(conn)  # one look-up per question, however many games it names
    current = None if filters["version"] else runs.get(filters["game"])
    where = _filter_expression(filters, by_rowid=current is not None)

    def filtered(text: str) -> str:
        return f"({text}) AND {where}" if where else text

    pairs = _two_of(sorted(groups, key=lambda group: -group[0])[:PAIRED_CONCEPTS])
    # A game named in the question ("in pox nora") has its own candidates: the words may be far more
    # common in another game's rules, whose rows would fill every place.
    named = [runs.get(game) for game in sorted(query.games)] if current and not filters["game"] else []
    return _Retrieval(
        filtered(" OR ".join(group for _weight, _rows, group, _heading in groups)),
        filtered(pairs) if pairs else None,
        filtered(_common_in_headings(groups)),
        current or ALL_ROWS,
        [rows for rows in named if rows],
    )


def _any_form(scopes: dict[str, frozenset[str] | None], columns: str) -> str:
    """An FTS5 expression matching the forms (quoted, so no FTS syntax survives) in the columns, a form of
    ``scopes`` that counts for some games only (see ``Concept.scopes``) in those games' rows."""
    everywhere = " OR ".join(f'"{form}"' for form, games in scopes.items() if games is None)
    parts = [f"{columns} : ({everywhere})"] if everywhere else []
    for form, games in scopes.items():
        if games is not None:
            parts.append(
                f'({columns} : "{form}" AND facets : ({" OR ".join(facet("game", game) for game in sorted(games))}))'
            )
    return parts[0] if len(parts) == 1 else "(" + " OR ".join(parts) + ")"


def _two_of(groups: list[tuple[float, int, str, str]]) -> str:
    """Rows holding two of the groups at least: (A AND (B OR C)) OR (B AND C), each group written fewer times
    than in every pair spelled out. BM25 reads the rows of each phrase once per time it is written (for its
    rarity), so the commonest group leads and is written once."""
    ordered = [group for _weight, _rows, group, _heading in sorted(groups, key=lambda group: -group[1])]
    return " OR ".join(
        f"({head} AND ({' OR '.join(ordered[position + 1 :])}))" for position, head in enumerate(ordered[:-1])
    )


def _common_in_headings(groups: list[tuple[float, int, str, str]]) -> str:
    """The concepts' groups OR-ed, the rarest sought in every field while together they hold at most
    ``SCORED_MATCHES`` rows, the others in headings and defined terms only: the rows a common word
    heads are the ones that answer it, and BM25 then ranks a number of rows that does not grow with
    the corpus as every row holding the word would."""
    parts, held = [], 0
    for _weight, rows, group, in_headings in sorted(groups, key=lambda group: group[1]):
        held += rows
        parts.append(group if held <= SCORED_MATCHES else in_headings)
    return " OR ".join(parts)


def _candidates(conn: sqlite3.Connection, match: str, rows: tuple[int, int], limit: int) -> list[tuple]:
    """(row id, BM25 rank) of the best matching rows among the ids ``rows`` (first, last), best first."""
    return conn.execute(
        f"""select rowid, bm25(search_fts, {", ".join(map(str, FIELD_WEIGHTS))}) as rank from search_fts
        where search_fts match ? and rowid between ? and ? order by rank limit ?""",
        [match, *rows, limit],
    ).fetchall()


def _in_index_order(conn: sqlite3.Connection, match: str, rows: tuple[int, int], limit: int) -> list[tuple]:
    """(row id, no rank) of the first matching rows among the ids ``rows``, in the index's order: nothing ranked."""
    return conn.execute(
        "select rowid, 0.0 from search_fts where search_fts match ? and rowid between ? and ? limit ?",
        [match, *rows, limit],
    ).fetchall()


def _count(conn: sqlite3.Connection, match: str, rows: tuple[int, int]) -> int:
    return conn.execute(
        "select count(*) from search_fts where search_fts match ? and rowid between ? and ?", [match, *rows]
    ).fetchone()[0]


_DOCUMENT_COLUMNS = (
    "id, kind, ref_id, game_id, document_id, rulebook, rulebook_url, version, number, slug, title, terms, path, body"
)


def _documents(conn: sqlite3.Connection, ids: list[int]) -> dict[int, dict]:
    if not ids:
        return {}
    cursor = conn.execute(
        f"select {_DOCUMENT_COLUMNS} from search_documents where id in ({','.join('?' * len(ids))})", ids
    )
    names = [column[0] for column in cursor.description]
    return {row[0]: dict(zip(names, row)) for row in cursor.fetchall()}


def _numbered_rules(conn: sqlite3.Connection, numbers: list[str], filters: dict) -> list[int]:
    """search_documents ids of the rules a question cites by number, in the versions searched."""
    ids = []
    for number in numbers:
        ids += [
            row[0]
            for row in conn.execute(
                f"""select d.id from rules r join search_documents d on d.kind = 'rule' and d.ref_id = r.id
                where r.number = :number collate nocase and {_FILTERS}""",
                {**filters, "number": number.rstrip(".")},
            )
        ]
    return list(dict.fromkeys(ids))


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


FIELDS = ("title", "terms", "path", "context", "body")
STEM_TAGS = ("h:", "h:", "p:", "p:", "b:")  # each field's tag in search_documents.stems: the heading, what the
# rule sits under (its heading path and its parents' statements), the text
EXAMPLE_TAG = "e:"  # the example a text gives ("Example: ...", "e.g."), tagged apart from the rest of it
_FIELD_TAGS = (*dict.fromkeys(STEM_TAGS), EXAMPLE_TAG)

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
# "Example:", "e.g.", "for example" starting a word; its first letter written first, so that the regular expression
# engine skips to the letters that can start it.
EXAMPLE = re.compile(r"[ef](?<=\b[ef])(?:xamples?:|\.g\.|or example\b)", re.IGNORECASE)
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


# ---------------------------------------------------------------- snippets

_SNIPPET_CHARACTERS = 160


def _snippet(item: _Scored, matcher: _Matcher) -> str:
    """The stretch of the text (the title when there is none) holding most of the question, matches marked."""
    name = "body" if (item.document["body"] or "").strip() else "title"
    text = item.document[name] or ""
    if name not in item.matched:
        item.matched[name] = matcher.find(text, item.document["game_id"])
    matched = item.matched[name]
    if len(text) <= _SNIPPET_CHARACTERS:
        start, end = 0, len(text)
    else:
        start, best, value, last = 0, -1.0, 0.0, 0
        for position, (first, *_rest) in enumerate(matched):  # the window opening at each match, slid along
            while last < len(matched) and matched[last][0] < first + _SNIPPET_CHARACTERS:
                value += matched[last][2]
                last += 1
            if value > best:
                start, best = first, value
            value -= matched[position][2]
        start = _word_boundary(text, max(0, start - 30), backwards=True)
        end = _word_boundary(text, min(len(text), start + _SNIPPET_CHARACTERS), backwards=False)
    out, cursor = [], start
    for first, last, *_rest in matched:
        if first >= cursor and last <= end:
            out += [text[cursor:first], MARK_START, text[first:last], MARK_END]
            cursor = last
    out.append(text[cursor:end])
    return ("…" if start > 0 else "") + "".join(out).strip() + ("…" if end < len(text.rstrip()) else "")


def _word_boundary(text: str, position: int, *, backwards: bool) -> int:
    """The nearest whitespace at or around ``position`` (so a snippet does not cut a word)."""
    step = -1 if backwards else 1
    for _ in range(30):
        if position <= 0 or position >= len(text) or text[position].isspace():
            return max(0, min(position, len(text)))
        position += step
    return position


# ---------------------------------------------------------------- the search


def search(
    conn: sqlite3.Connection,
    text: str,
    game: str | None = None,
    version: str | None = None,
    kind: str | None = None,
    page: int = 1,
    per_page: int = PER_PAGE,
    rulebook: str | None = None,
) -> dict:
    """Rules, rulings and cards answering ``text``, best first, one page of them.

    Rules come from the newest version of each rulebook unless ``version`` names one, and from
    every rulebook unless ``rulebook`` names one by its slug ("core", "tournament").
    Returns the page's ``results``, the ``total`` number of matches, the ``best`` rule,
    ruling and card (first page), and what was understood of the question.
    """
    page = max(1, min(int(page or 1), MAX_PAGE))
    per_page = max(1, min(int(per_page or PER_PAGE), 100))
    kind = kind if kind in KINDS else None
    filters = {"game": game or None, "version": version or None, "kind": kind, "rulebook": rulebook or None}
    # The search's own CPU time (its thread's) is what is budgeted: on a loaded machine a search waits for the CPU,
    # and the wait (ten times its work at a load of 20) cut ordinary questions short. A hostile question still spends
    # it; a generous clock limit still bounds a search that waits on something else (a cold disk).
    deadline, clock_deadline = time.thread_time() + TIME_BUDGET, time.monotonic() + WAIT_BUDGET
    conn.set_progress_handler(lambda: time.thread_time() > deadline or time.monotonic() > clock_deadline, 10_000)
    try:
        return _search(conn, text, filters, page, per_page)
    except sqlite3.OperationalError as error:
        if "interrupted" in str(error):
            raise SearchTooSlow(
                f"The search took more than {TIME_BUDGET:g} s of CPU (or {WAIT_BUDGET:g} s in all) and was stopped"
            ) from error
        raise
    finally:
        conn.set_progress_handler(None, 0)


def _search(conn: sqlite3.Connection, text: str, filters: dict, page: int, per_page: int) -> dict:
    query = understand(conn, text, filters["game"])
    result = {"query": _described(query), "total": 0, "page": page, "per_page": per_page, "results": [], "best": {}}
    retrieval = _retrieval(conn, query, filters) if query.concepts else _Retrieval(None, None)
    numbered = _numbered_rules(conn, query.numbers, filters)
    if retrieval.any is None and not numbered:
        return result
    concepts, matcher = _ConceptStems(query), _Matcher(conn, query)
    total = _count(conn, retrieval.any, retrieval.rows) if retrieval.any else 0
    ranked = _ranked(conn, query, retrieval, total, concepts, matcher)
    if numbered:  # rules the question cites by number come first
        found = {item.document["id"] for item in ranked}
        ranked = _scored(conn, query, [(row_id, 0.0) for row_id in numbered], concepts) + [
            item for item in ranked if item.document["id"] not in numbered
        ]
        total += len(set(numbered) - found)
    start = (page - 1) * per_page
    shown = ranked[start : start + per_page]
    if len(shown) < per_page and start + len(shown) < total and retrieval.any:
        # Past the re-ranked rows every match follows, to the last one: in BM25 order, or the index's when many.
        seen = {item.document["id"] for item in ranked}
        skip = max(0, start - len(ranked))
        following = _candidates if total <= SCORED_MATCHES else _in_index_order
        rows = following(conn, retrieval.any, retrieval.rows, skip + per_page - len(shown) + len(seen))
        tail = [row for row in rows if row[0] not in seen][skip : skip + per_page - len(shown)]
        shown += _scored(conn, query, tail, concepts)
    best = _best_of_each_kind(ranked) if page == 1 else []
    _complete(conn, shown + best)
    _credit_rulings(conn, shown + best)
    _defined_keywords(conn, shown + best)
    hits = {id(item): _hit(item, matcher) for item in [*shown, *best]}  # the best are often shown too
    result["total"] = total
    result["results"] = [hits[id(item)] for item in shown]
    result["best"] = {item.document["kind"]: dict(hits[id(item)]) for item in best}  # a copy: pages rewrite hits
    return result


BEST_SHARE = 0.5  # the best ruling or card is offered beside the rules when it scores this share of the top result


def _best_of_each_kind(ranked: list[_Scored]) -> list[_Scored]:
    """The best rule, ruling and card, each only if it answers nearly as well as the best result: a ruling
    that merely shares a word with the question is not offered as "the best ruling"."""
    if not ranked:
        return []
    floor = BEST_SHARE * ranked[0].score
    firsts = [next((item for item in ranked if item.document["kind"] == kind), None) for kind in KINDS]
    return [item for item in firsts if item is not None and (item is ranked[0] or item.score >= floor)]


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
    many = matches > SCORED_MATCHES
    for match in (retrieval.pairs, retrieval.bounded) if many else (retrieval.any,):
        if match is None or len(scored) >= CANDIDATES // 2:
            continue
        found = _candidates(conn, match, retrieval.rows, CANDIDATES)
        rows = [row for row in found if row[0] not in seen][: CANDIDATES - len(scored)]
        scored += _scored(conn, query, rows, concepts)  # BM25 is relative to the best row of each query
        seen.update(row[0] for row in rows)
    for game_rows in retrieval.named:  # BM25 relative to the best row of any game, as its rows compete with them
        match = retrieval.bounded if many else retrieval.any
        found = _candidates(conn, match, game_rows, CANDIDATES // 4) if match else []
        rows = [row for row in found if row[0] not in seen]
        scored += _scored(conn, query, rows, concepts, min((item.rank for item in scored), default=None))
        seen.update(row[0] for row in rows)
    _with_section_leads(scored)
    _with_section_coverage(scored, [concept.weight for concept in query.concepts])
    scored.sort(key=lambda item: -item.score)
    _with_proximity(conn, scored[:_PROXIMITY_ROWS], query, matcher)
    scored[:_PROXIMITY_ROWS] = sorted(scored[:_PROXIMITY_ROWS], key=lambda item: -item.score)
    return scored


def _described(query: Query) -> dict:
    return {
        "searched": query.text,
        "concepts": [
            {"typed": c.typed, "forms": c.forms, "synonyms": c.expansions, "weight": round(c.weight, 2)}
            for c in query.concepts
        ],
        "rule_numbers": query.numbers,
        "ignored": query.ignored,
        "unknown": query.unknown,
        "corrections": [{"typed": typed, "meant": meant} for typed, meant in query.corrections],
        "renamed": query.renamed,
        "did_you_mean": _did_you_mean(query),
        "notices": query.notices,
        "card_ids": list(query.card_only),
    }


def _did_you_mean(query: Query) -> str | None:
    if not query.corrections:
        return None
    text = query.text
    for typed, meant in query.corrections:
        text = re.sub(rf"(?i)\b{re.escape(typed)}\b", meant, text)
    return text


def _hit(item: _Scored, matcher: _Matcher) -> dict:
    document = item.document
    return {
        "kind": document["kind"],
        "id": document["ref_id"],
        "game": document["game_id"],
        "rulebook": document["rulebook_url"],  # as rule URLs name it: None for the game's default rulebook
        "version": document["version"],
        "number": document["number"],
        "slug": document["slug"],
        "title": document["title"] or document["number"] or "",
        "heading_path": document["path"].split(PATH_SEPARATOR)
        if document["path"] and document["kind"] == "rule"
        else [],
        "snippet": _snippet(item, matcher),
        "score": round(item.score, 4),
        "features": {name: round(value, 3) for name, value in item.features.items()},
        **({"credit": document.get("credit")} if document["kind"] == "ruling" else {}),
        **({"defines": document.get("defines", [])} if document["kind"] == "rule" else {}),
    }


# ---------------------------------------------------------------- jumps and options


def jump_target(conn: sqlite3.Connection, query: str, game: str | None = None) -> tuple[list[dict], dict | None]:
    """For a query that is a rule number alone: the rules of that number (the newest version of each
    rulebook that has it), and the one to jump to when a single rulebook has it."""
    match = _NUMBER_QUERY.match(query or "")
    if match is None:
        return [], None
    newest: dict[tuple, dict] = {}
    for hit in queries.locate_rule(conn, match.group("number"), game):
        newest.setdefault((hit["game"], hit["rulebook"]), hit)
    hits = list(newest.values())
    return hits, hits[0] if len(hits) == 1 else None


def search_options(conn: sqlite3.Connection) -> dict:
    """Games, rulebooks, their versions and kinds of result for the search form's filters (read once per
    database: every search page shows them; the answer is shared, so read it, never change it)."""
    return queries.lookup_table(conn, ("search options",), lambda: _read_search_options(conn))


def _read_search_options(conn: sqlite3.Connection) -> dict:
    cursor = conn.execute("select id, name from games order by name")
    games = [{"id": row[0], "name": row[1]} for row in cursor.fetchall()]
    versions = [
        {"game": row[0], "version": row[1], "is_newest": row[2], "rulebook": row[3], "rulebook_title": row[4]}
        for row in conn.execute(
            """select d.game_id, d.version, d.is_newest, b.slug, b.title from documents d
            left join rulebooks b on b.id = d.rulebook_id where d.kind = 'rules'
            order by d.game_id, b.is_default desc, b.slug, coalesce(d.version_date, d.version) desc"""
        )
    ]
    # A slug several games share ("core") is named by itself; one game's own rulebook by its title.
    rulebooks = [
        {"slug": slug, "title": title if count == 1 else f"{slug.capitalize()} rules"}
        for slug, title, count in conn.execute(
            """select slug, min(title), count(*) from rulebooks group by slug
            order by max(is_default) desc, slug"""
        )
    ]
    return {"games": games, "versions": versions, "rulebooks": rulebooks, "kinds": list(KINDS)}
