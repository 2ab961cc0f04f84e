"""Step 1, understanding: the question's words as concepts to search (see ``rules_db.search``)."""

from __future__ import annotations

import math
import re
import sqlite3
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from rapidfuzz import fuzz, process

from rules_db import queries
from rules_db.search.index_format import WORD, _drop_apostrophes
from rules_db.search.vocabulary import vocabulary

MAX_QUERY_CHARS = 500  # a question longer than this is cut, with a notice
MAX_WORDS = 40  # distinct words read from the question
MAX_CONCEPTS = 12  # concepts searched: the most specific ones
MAX_CORRECTIONS = 5  # unknown words corrected per question
MAX_PHRASE_SPAN = 6  # words a phrase of the vocabulary may span in a question, filler words between its words included


EXPANSION_CREDIT = 0.5  # a synonym found counts for half the judge's own word
TOPIC_WEIGHT = 2.0  # a word the rules' headings use ("tank", "mulligan") weighs this much more than its rarity


# A rule number inside a question: "is 443.1.d right", "rule 318", "see E.3.6".
_NUMBER_IN_TEXT = re.compile(
    r"(?<![\w.])(?:(?:rules?|step|§)\s*(?P<bare>\d+)\b|(?P<dotted>\d+(?:\.[0-9a-z]+)+|[a-z](?:\.[0-9a-z]+)+))\.?(?![\w])",
    re.IGNORECASE,
)


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
    query.wants_card = any(concept.card_ids for concept in query.concepts) or _asks_for_a_card(words)
    query.wants_number = bool(phrases & vocabulary().number_intent)
    query.forms = frozenset(name for name, form in vocabulary().question_forms.items() if phrases & form.asked_by)
    return query


def _asks_for_a_card(words: list[str]) -> bool:
    """Whether a phrase of the question looks for a card ("which spell", "the gear that saves a unit"), not one
    describing a game object ("... attached to a unit that dies": a describing word right before it, past the
    question's first word)."""
    known = vocabulary()
    return any(
        tuple(words[start : start + length]) in known.card_intent
        and not (start > 1 and words[start - 1] in known.describing_words)
        for length in (1, 2, 3)
        for start in range(len(words))
    )


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
