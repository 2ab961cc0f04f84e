"""The search vocabulary (``rules_db/data/search_vocabulary.yaml``): filler words, the judges' words with the
documents' words for them, game names, and the kinds of question and the texts that answer them."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

import yaml

from rules_db.search.index_format import WORD, _drop_apostrophes

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
    describing_words: frozenset[str]  # "a" of "a unit that dies": the phrase after it describes an object
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
        describing_words=frozenset(str(word).lower() for word in data.get("describing_words") or []),
        number_intent=frozenset(tuple(WORD.findall(str(phrase).lower())) for phrase in data.get("number_intent") or []),
        question_forms={
            str(name): QuestionForm(
                asked_by=frozenset(tuple(WORD.findall(_drop_apostrophes(str(p).lower()))) for p in form["asked_by"]),
                answered_by=frozenset(str(word).lower() for word in form["answered_by"]),
            )
            for name, form in (data.get("question_forms") or {}).items()
        },
    )
