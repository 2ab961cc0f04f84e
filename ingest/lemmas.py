"""Finding keywords and card names in text by lemma, so "recalled" mentions Recall.

spaCy without a model: a blank English pipeline whose lemmas come from the
lookup tables of spacy-lookups-data. Those tables are keyed by exact token
text ("Kills" would stay "Kills"), so lemmas are looked up on the lower-cased
form instead.

A build matches thousands of texts: rather than running each through spaCy, each
distinct piece of text (a word and the space after it) is tokenized once per
process (``TokenMemo``) and phrases are matched on the pieces' tokens as spaCy's
own matcher would (``LemmaMatcher``): the same matches, a fraction of the work.
"""

from __future__ import annotations

import gzip
import json
import re
import sys
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate, chain, compress, count
from operator import attrgetter
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, NamedTuple

import spacy_lookups_data

if TYPE_CHECKING:  # spaCy itself is imported by the first tokenizer: a command that tags no text never loads it
    from spacy.tokens import Doc

from ingest.limits import bounded_for_tokenizer


@dataclass(frozen=True)
class LemmaMatch:
    key: str
    start: int  # character offsets into the text
    end: int
    text: str


@lru_cache(maxsize=1)
def lemma_lookup() -> dict[str, str]:
    """spacy-lookups-data's English lemma table as {form: lemma} ("died": "die"), read from the package's
    file: spaCy's own Table keeps only hashes of its keys, and the search index needs the forms."""
    return json.loads(lemma_table_json())


@lru_cache(maxsize=1)
def lemma_table_json() -> str:
    """The English lemma table as the package ships it: one JSON object {form: lemma}, which SQLite can read
    (``json_each``) without Python building the dictionary."""
    path = Path(str(spacy_lookups_data.en["lemma_lookup"]))
    if path.exists():
        return path.read_text(encoding="utf-8")
    with gzip.open(path.with_name(path.name + ".gz"), "rt", encoding="utf-8") as table:  # how 1.0.x ships it
        return table.read()


def lemma(word: str) -> str:
    """The lookup lemma of one word, case-insensitively ("Recalls" -> "recall")."""
    return lemma_of_norm(word.lower())


def lemma_of_norm(norm: str) -> str:
    """The lookup lemma of a token's norm: its lower-cased form, or what a tokenizer exception says it stands
    for ("n't" -> "not")."""
    return lemma_lookup().get(norm, norm)


@lru_cache(maxsize=1)
def tokenizer() -> Callable[[str], Doc]:
    """spaCy's English tokenizer (the blank pipeline's rules, tokens and norms), over a vocabulary that works out only
    a new word's norm: the token memo reads nothing else of a word, and spaCy's English vocabulary computes 23
    attributes of each new word, each by a Python function (a third of the time a build spends tokenizing)."""
    import_spacy()  # before any of spaCy's modules: without its command line
    from spacy.attrs import NORM
    from spacy.lang.en import English
    from spacy.vocab import create_vocab

    vocab = create_vocab("en", English.Defaults)
    vocab.lex_attr_getters = {NORM: vocab.lex_attr_getters[NORM]}  # type: ignore[attr-defined]  # not in spaCy's stubs
    return English(vocab=vocab).tokenizer  # the blank pipeline, without spacy.blank's config resolution


def import_spacy() -> ModuleType:
    """spaCy, imported without its command line, which its package imports only to offer ``spacy.info``: typer,
    HTTP clients, weasel, rich, a third of the cost of ``import spacy``, in every build and none of it used.
    While the package imports, ``spacy.cli`` is a stand-in whose ``info`` imports the real one when called; the
    stand-in is gone once the package is imported, so ``import spacy.cli`` then finds the real command line.
    The stand-ins are the whole process's while spaCy imports: call it where one thread loads spaCy (a build's
    process), not from a server's threads."""
    if "spacy" in sys.modules:
        import spacy  # not sys.modules' entry: an import still running elsewhere is waited for

        return spacy
    command_line = ModuleType("spacy.cli")
    command_line.__path__ = []  # a package, as the real one is
    info_module = ModuleType("spacy.cli.info")
    info_module.info = _spacy_info  # type: ignore[attr-defined]
    stand_ins = {"spacy.cli": command_line, "spacy.cli.info": info_module}
    sys.modules.update(stand_ins)
    try:
        import spacy
    finally:
        for name, module in stand_ins.items():
            if sys.modules.get(name) is module:
                del sys.modules[name]
    return spacy


def _spacy_info(*args, **kwargs):
    """``spacy.info``: spaCy's own, from its command line, imported now."""
    from spacy.cli.info import info

    return info(*args, **kwargs)


def load_tokenizer() -> None:
    """Load spaCy's tokenizer now, ahead of the first text to tag: a build's second process does so while the
    first parses. It returns nothing: the tokenizer stays in that process (sent back, it would be pickled)."""
    tokenizer()


class PieceTokens(NamedTuple):
    """spaCy's tokens of one piece of text: their texts, their lemmas, and where each is in the piece."""

    orth: tuple[str, ...]
    lemma: tuple[str, ...]
    offsets: tuple[tuple[int, int], ...]
    length: int  # the piece's characters


# A text's pieces: the white space opening it, then each run of non-space with the white space after it.
_PIECES = re.compile(r"^\s+|\S+\s*")


class TokenMemo:
    """Each distinct piece's tokens, cut by spaCy's tokenizer the first time the piece is seen.

    The tokenizer splits a text wherever white space starts or ends and tokenizes each run on its own (a
    single space after a run is that run's trailing space, not a token), so a piece always has the same
    tokens, whatever text it is in: a text's tokens are its pieces' tokens, one after the other, and the
    pieces not seen before are tokenized together, as one text. One known exception: spaCy's emoticon special
    cases (``:)``) may be cut otherwise next to other text (``( :)"(s``); the rules documents hold none, and the
    memo keeps the cut of the piece seen first."""

    def __init__(self) -> None:
        self.known: dict[str, PieceTokens] = {}

    def pieces(self, texts: list[str]) -> list[list[PieceTokens]]:
        """Each text's pieces, with their tokens."""
        pieces = [_PIECES.findall(text) for text in texts]
        self._learn(list(dict.fromkeys(piece for text in pieces for piece in text if piece not in self.known)))
        return [list(map(self.known.__getitem__, text)) for text in pieces]

    def _learn(self, pieces: list[str]) -> None:
        tokenize = tokenizer()
        for opening in (piece for piece in pieces if piece[0].isspace()):  # white space opening a text: one run
            self.known[opening] = _piece_tokens(list(map(_token_values, tokenize(opening))), 0, len(opening))
        words = [piece for piece in pieces if not piece[0].isspace()]
        for start in range(0, len(words), _PIECES_PER_CALL):
            batch = words[start : start + _PIECES_PER_CALL]
            # a space closes a piece that closes its text: the run's own trailing space, never a token
            padded = [piece if piece[-1].isspace() else piece + " " for piece in batch]
            starts = list(accumulate(map(len, padded), initial=0))
            tokens: list[list[tuple[int, str, str]]] = [[] for _ in batch]
            index = 0
            for values in map(_token_values, tokenize("".join(padded))):
                while values[0] >= starts[index + 1]:
                    index += 1
                tokens[index].append(values)
            for piece, at, found in zip(batch, starts, tokens):
                self.known[piece] = _piece_tokens(found, at, len(piece))


_PIECES_PER_CALL = 10_000  # pieces tokenized as one text: few calls, a spaCy document of bounded size


def _token_values(token) -> tuple[int, str, str]:
    """What the memo reads of a spaCy token, read once (each attribute is a call into spaCy): where it starts
    in the text, its text and its norm."""
    return token.idx, token.orth_, token.norm_


def _piece_tokens(tokens: list[tuple[int, str, str]], start: int, length: int) -> PieceTokens:
    """A piece's spaCy tokens (``_token_values``), the piece starting at ``start`` in the text they were cut from."""
    return PieceTokens(
        tuple(orth for _, orth, _ in tokens),
        tuple(lemma_of_norm(norm) for _, _, norm in tokens),
        tuple((idx - start, idx - start + len(orth)) for idx, orth, _ in tokens),
        length,
    )


@lru_cache(maxsize=1)
def token_memo() -> TokenMemo:
    """This process's pieces and their tokens, each distinct piece tokenized once; a build starts a new one
    (``token_memo.cache_clear()``), so that memory holds one build's vocabulary."""
    return TokenMemo()


def find_phrases(phrases: Mapping[str, Iterable[str]], texts: Iterable[str]) -> list[list[LemmaMatch]]:
    """Each text's matches of the phrases by lemma (``LemmaMatcher``), none at all without phrases: one call
    with plain data in and out, which a second process can run."""
    return LemmaMatcher(phrases).find_many(texts) if phrases else []


class LemmaMatcher:
    """Matches phrases (grouped under a key, e.g. a keyword and its aliases) in texts, token by token as
    spaCy's ``PhraseMatcher`` does, keeping the longest of overlapping matches (``_longest_first``). Where the
    phrases of several keys match the same words, the key is chosen by the words as written (``_mentioned_key``),
    not by the order of spaCy's hash table.

    ``attr`` is "LEMMA" (inflections match: Recall/recalled/recalls) or "ORTH" (exact words and case: Charm,
    not charm).
    """

    def __init__(self, phrases: Mapping[str, Iterable[str]], attr: str = "LEMMA"):
        self.tokens = token_memo()
        self.values_of = attrgetter(attr.lower())
        by_first: dict[str, list[tuple[tuple[str, ...], dict[str, list[str]]]]] = defaultdict(list)
        for pattern, keys in self._patterns(phrases).items():
            by_first[pattern[0]].append((pattern, keys))
        # the patterns starting with each token, shortest first: the order spaCy reports matches starting at a token
        self.patterns = {first: sorted(found, key=lambda item: len(item[0])) for first, found in by_first.items()}

    def _patterns(self, phrases: Mapping[str, Iterable[str]]) -> dict[tuple[str, ...], dict[str, list[str]]]:
        """Each phrase's tokens (their lemmas or texts), and the keys it stands for with their phrases of those
        tokens: several keys when phrases of different keys have the same tokens ("Stun" and "Stunned" by lemma;
        ``_mentioned_key`` chooses among them)."""
        keys: dict[tuple[str, ...], dict[str, list[str]]] = {}
        named = [(key, surface) for key, group in phrases.items() for surface in group if surface.strip()]
        for (key, phrase), pieces in zip(named, self.tokens.pieces([surface for _, surface in named])):
            if pattern := tuple(self._values(pieces)):
                keys.setdefault(pattern, {}).setdefault(key, []).append(phrase)
        return keys

    def find_many(self, texts: Iterable[str]) -> list[list[LemmaMatch]]:
        found: list[list[LemmaMatch]] = []
        for batch in _batches(map(bounded_for_tokenizer, texts), _TEXTS_PER_BATCH):
            found += [self._matches(text, pieces) for text, pieces in zip(batch, self.tokens.pieces(batch))]
        return found

    def _values(self, pieces: list[PieceTokens]) -> list[str]:
        return list(chain.from_iterable(map(self.values_of, pieces)))

    def _matches(self, text: str, pieces: list[PieceTokens]) -> list[LemmaMatch]:
        values = self._values(pieces)
        spans = [
            (start, start + len(pattern), keys)
            for start in compress(count(), map(self.patterns.__contains__, values))  # where a phrase may start
            for pattern, keys in self.patterns[values[start]]
            if tuple(values[start : start + len(pattern)]) == pattern
        ]
        if not spans:
            return []
        offsets = _TokenOffsets(pieces)
        return [
            LemmaMatch(_mentioned_key(keys, text[begin:finish]), begin, finish, text[begin:finish])
            for start, end, keys in _longest_first(spans)
            for begin, finish in [(offsets.start(start), offsets.end(end - 1))]
        ]


# Texts whose pieces are looked up at once: few tokenizer calls, and a bounded list of pieces in memory.
_TEXTS_PER_BATCH = 2048


def _batches(items: Iterable[str], size: int) -> Iterator[list[str]]:
    batch: list[str] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


class _TokenOffsets:
    """Where each token of a text's pieces is in the text."""

    def __init__(self, pieces: list[PieceTokens]):
        self.pieces = pieces
        self.piece_starts = list(accumulate(map(attrgetter("length"), pieces), initial=0))
        self.tokens_before = list(accumulate(map(len, map(attrgetter("orth"), pieces)), initial=0))

    def start(self, token: int) -> int:
        piece = bisect_right(self.tokens_before, token) - 1
        return self.piece_starts[piece] + self.pieces[piece].offsets[token - self.tokens_before[piece]][0]

    def end(self, token: int) -> int:
        piece = bisect_right(self.tokens_before, token) - 1
        return self.piece_starts[piece] + self.pieces[piece].offsets[token - self.tokens_before[piece]][1]


def _mentioned_key(keys: dict[str, list[str]], mention: str) -> str:
    """The key a match stands for, of the keys whose phrases have its tokens (each with those phrases): the key of
    the phrase written as mentioned (in the same case first, then in any case and spacing: "stunned" is Stunned,
    not Stun), else the key of the phrase first in alphabetical order ("stuns" is Stun), else the key given first
    (a term defined twice)."""
    if len(keys) == 1:
        return next(iter(keys))
    plain = _plain(mention)

    def rank(key: str) -> tuple[bool, bool, str]:
        return mention not in keys[key], plain not in map(_plain, keys[key]), min(map(_plain, keys[key]))

    return min(keys, key=rank)


def _plain(phrase: str) -> str:
    return " ".join(phrase.split()).casefold()


def _longest_first(spans: list[tuple[int, int, dict]]) -> list[tuple[int, int, dict]]:
    """spaCy's ``filter_spans`` over (start, end, keys) token spans: the longest first, the earliest of equally
    long ones, each kept unless it overlaps one kept before; in text order."""
    kept: list[tuple[int, int, dict]] = []
    taken: set[int] = set()
    for start, end, key in sorted(spans, key=lambda span: (span[1] - span[0], -span[0]), reverse=True):
        if start not in taken and end - 1 not in taken:
            kept.append((start, end, key))
            taken.update(range(start, end))
    return sorted(kept, key=lambda span: span[0])
