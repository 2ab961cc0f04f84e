"""Which rule of one rulebook version became which rule of the next.

A rules update renumbers, rewords, splits, merges, drops and adds rules. This
module finds the correspondence between two consecutive versions without any
table of numbers, in the spirit of a text diff that knows about outlines:

1. **Exact anchors.** Texts (normalised: markup, case, quotes, list markers and
   the numbers inside cross-references ignored) that occur once in each version
   are matched outright.
2. **Backbone.** The longest run of anchors whose order agrees in both versions
   (a longest increasing subsequence) splits both documents into aligned gaps;
   anchors off the backbone are genuine long-distance moves.
3. **Blocked fuzzy matching.** The unmatched old rules of each gap are compared,
   with rapidfuzz's vectorised ``cdist``, only against the new rules of the same
   gap (plus a small margin), never all against all. A pair is accepted on text
   similarity alone when it is high, or on moderate similarity backed by the
   outline: the parents already correspond, the number is where the offset of an
   anchored neighbour predicts it (once 518 -> 318, 518.2.a is expected at
   318.2.a), or a neighbour corresponds to the neighbour. Accepting pairs gives
   new support, so this repeats until nothing changes.
   Then the children of corresponding parents are compared with each other
   wherever they sit, so that steps reordered inside a section still meet.
4. **Far moves.** Old rules still unmatched are looked up among all unmatched
   new rules, but only accepted at a near-identical score.
5. **Splits and merges.** A leftover new rule whose text is contained in an old
   rule near it is a piece of that rule (split); a leftover old rule contained in
   a nearby new rule was folded into it (merged).

Whatever is still unmatched is removed (old) or new (new): a new section whose
text resembles nothing nearby is never forced onto an old rule. A one-to-one
pair is "unchanged" (same number) or "moved" (new number) when the normalised
texts agree apart from spacing, and "edited" otherwise.

This module is the matching alone: plain data in, plain data out, no database.
``rules_db/lineage_store.py`` stores it (``rule_lineage``) and reads it back (a
rule's history, its equivalents, the diff of any two versions);
``rules_db/lineage_report.py`` prints it for the command line.
"""

from __future__ import annotations

import bisect
import difflib
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from rapidfuzz import fuzz, process

from ingest.text import plain_text

KINDS = ("unchanged", "moved", "edited", "split", "merged", "removed", "new")

# Scores are rapidfuzz's 0-100. Support is what the outline adds (see _Matcher._support).
STRONG_TEXT = 88  # accepted on the text alone
MUTUAL_TEXT = 70  # accepted when each is the other's best candidate in the gap
SUPPORTED_TEXT = 60  # accepted with some structural support
WEAK_TEXT = 55  # accepted only with strong structural support
WEAKEST_TEXT = 45  # ... that includes children already matched to children
SHORT_TEXT = 80  # a short text (a heading) needs this plus support, or an exact match
FAR_MOVE_TEXT = 88  # a match outside the aligned gap (as sure as STRONG_TEXT)
FAR_MOVE_WORDS = 8  # ... needs at least this many words
CONTAINED_TEXT = 90  # partial_ratio for a split piece or a merged-in rule
SHORT_WORDS = 4  # texts with fewer words count as short
CONTAINED_WORDS = 6  # texts this long may match on a shared passage (partial ratio)
CONTAINED_WEIGHT = 0.95  # the shorter text found almost whole in the longer
OVERLAP_WEIGHT = 0.8  # a looser partial alignment
PARENT_SUPPORT, NUMBER_SUPPORT, NEIGHBOUR_SUPPORT = 8, 6, 6
GAP_MARGIN = 4  # new rules either side of a gap that are still candidates
MAX_WINDOW = 400  # cap on the new rules one gap is compared with


@dataclass(frozen=True)
class RuleRow:
    """The little of a rule that matching needs; ``id`` is its database id, if any."""

    number: str
    text: str
    parent: str | None = None
    heading: str | None = None
    id: int | None = None

    @classmethod
    def from_mapping(cls, row: Mapping) -> RuleRow:
        """From a dict such as a ``rules`` row (``parent_number``) or a plain one (``parent``)."""
        return cls(
            number=str(row["number"]),
            text=row.get("text") or row.get("raw_text") or "",
            parent=row.get("parent", row.get("parent_number")),
            heading=row.get("heading"),
            id=row.get("id"),
        )


@dataclass(frozen=True)
class LineageRow:
    """One edge of the correspondence; ``old`` is None for a new rule, ``new`` None for a removed one.

    ``similarity`` is the text similarity in 0..1 (1.0 for identical normalised text).
    """

    kind: str
    old: str | None
    new: str | None
    similarity: float | None


# Curly quotes and their straight forms (str.replace, once per kind: a tenth of str.translate's cost)
_QUOTES = (("\u201c", '"'), ("\u201d", '"'), ("\u2018", "'"), ("\u2019", "'"))
_LIST_MARKER = re.compile(r"^(?:[*\u2022-]|\d{1,2}[a-z]?\.)\s+")
# "518", "626.1.d", "1.2e.1a": three digits, or any dotted number (after lower-casing)
_RULE_NUMBER = re.compile(r"\b(?:\d{3}|\d+(?=\.[0-9a-z]))(?:\.[0-9a-z]+)*\.?(?![0-9a-z])")
_PUNCTUATION = ".,;:!?"  # no space is kept before these


def normalise(text: str) -> str:
    """Text as compared: no markup, lower case, straight quotes, no list markers, one space between words and
    none before punctuation, and every rule number replaced by one symbol (references are renumbered too)."""
    text = plain_text(text)
    for curly, straight in _QUOTES:
        text = text.replace(curly, straight)
    joined = " ".join(_LIST_MARKER.sub("", line.strip()) for line in text.lower().split("\n"))
    text = " ".join(_RULE_NUMBER.sub("\u00a7", joined).split())  # str.split: the white space re's \s matches
    for mark in _PUNCTUATION:  # once per mark: with single spaces, removing one never makes another
        text = text.replace(f" {mark}", mark)
    return text


class _Version:
    """One version's rules in document order, prepared for matching."""

    def __init__(self, rules: Sequence[RuleRow], normalised: dict[str, str] | None = None):
        """``normalised``: texts already normalised (another version's), added to: a text both versions hold
        (most of them) is normalised once."""
        normalised = {} if normalised is None else normalised
        self.rules = list(rules)
        self.numbers = [rule.number for rule in self.rules]
        self.texts = [_normalised(rule.text or rule.heading or "", normalised) for rule in self.rules]
        # Identity ignores spacing: extraction leaves "Card ," and "\" Main" in one version only.
        self.keys = [text.replace(" ", "") for text in self.texts]
        self.words = np.array([len(text.split()) for text in self.texts])
        index = {number: position for position, number in enumerate(self.numbers)}
        if len(index) != len(self.numbers):
            raise ValueError("rule numbers must be unique within a version")
        self.parents = [index.get(rule.parent) if rule.parent else None for rule in self.rules]
        self.children: list[list[int]] = [[] for _ in self.rules]
        for position, parent in enumerate(self.parents):
            if parent is not None:
                self.children[parent].append(position)

    def __len__(self) -> int:
        return len(self.rules)


def _normalised(text: str, known: dict[str, str]) -> str:
    if text not in known:
        known[text] = normalise(text)
    return known[text]


def compute_lineage(old_rules: Iterable[RuleRow | Mapping], new_rules: Iterable[RuleRow | Mapping]) -> list[LineageRow]:
    """The correspondence from ``old_rules`` to ``new_rules`` (each in document order).

    Every old rule appears in at least one row (a successor, or ``removed``) and
    every new rule in at least one row (a predecessor, or ``new``).
    """
    normalised: dict[str, str] = {}
    old = _Version([_as_rule(rule) for rule in old_rules], normalised)
    new = _Version([_as_rule(rule) for rule in new_rules], normalised)
    return _Matcher(old, new).run()


def _as_rule(rule: RuleRow | Mapping) -> RuleRow:
    return rule if isinstance(rule, RuleRow) else RuleRow.from_mapping(rule)


class _Matcher:
    """The matching state: ``forward[i] = j`` and ``backward[j] = i`` for one-to-one pairs."""

    def __init__(self, old: _Version, new: _Version):
        self.old, self.new = old, new
        self.forward: dict[int, int] = {}
        self.backward: dict[int, int] = {}
        self.pieces: dict[int, set[int]] = defaultdict(set)  # old -> extra new (split)
        self.sources: dict[int, set[int]] = defaultdict(set)  # new -> extra old (merged)
        self.scores: dict[tuple[int, int], float] = {}  # (old, new) -> the text similarity it was paired on

    def run(self) -> list[LineageRow]:
        self._match_exact()
        backbone = self._backbone()
        self._drop_coincidences(set(backbone))
        self._match_gaps(backbone)
        self._match_within_parents()
        self._match_far()
        self._find_splits()
        self._find_merges()
        return self._rows()

    # 1. exact anchors
    def _match_exact(self) -> None:
        old_at, new_at = defaultdict(list), defaultdict(list)
        for i, key in enumerate(self.old.keys):
            old_at[key].append(i)
        for j, key in enumerate(self.new.keys):
            new_at[key].append(j)
        for key, olds in old_at.items():
            news = new_at.get(key, [])
            if key and len(olds) == 1 and len(news) == 1:
                self._pair(olds[0], news[0])

    # 2. backbone: longest chain of anchors in the same order in both versions
    def _backbone(self) -> list[tuple[int, int]]:
        anchors = sorted(self.forward.items())
        tails: list[int] = []  # tails[n] = smallest new position ending a chain of n+1 anchors
        tail_anchor: list[int] = []  # which anchor that is
        previous = [-1] * len(anchors)
        for anchor, (_, j) in enumerate(anchors):
            length = bisect.bisect_left(tails, j)
            previous[anchor] = tail_anchor[length - 1] if length else -1
            if length == len(tails):
                tails.append(j)
                tail_anchor.append(anchor)
            else:
                tails[length], tail_anchor[length] = j, anchor
        chain, anchor = [], tail_anchor[-1] if tail_anchor else -1
        while anchor != -1:
            chain.append(anchors[anchor])
            anchor = previous[anchor]
        return chain[::-1]

    def _drop_coincidences(self, backbone: set[tuple[int, int]]) -> None:
        """A short text that is identical far from where the backbone puts it is a
        coincidence ("This is not a Move."), unless the parents correspond too."""
        for i, j in list(self.forward.items()):
            if (i, j) in backbone or self.old.words[i] >= FAR_MOVE_WORDS:
                continue
            old_parent, new_parent = self.old.parents[i], self.new.parents[j]
            if old_parent is None or self.forward.get(old_parent) != new_parent:
                del self.forward[i], self.backward[j]

    # 3. fuzzy matching inside aligned gaps
    def _match_gaps(self, backbone: list[tuple[int, int]]) -> None:
        candidates: dict[tuple[int, int], float] = {}
        fences = [(-1, -1), *backbone, (len(self.old), len(self.new))]
        for (i0, j0), (i1, j1) in zip(fences, fences[1:]):
            olds = [i for i in range(i0 + 1, i1) if i not in self.forward]
            if not olds:
                continue
            news = self._window(olds, (i0, j0), (i1, j1))
            if news:
                candidates.update(self._scores(olds, news))
        self._accept_supported(candidates)

    def _window(self, olds: list[int], low: tuple[int, int], high: tuple[int, int]) -> list[int]:
        """Unmatched new rules between the gap's fences, with a margin, capped around the expected place."""
        (i0, j0), (i1, j1) = low, high
        start, stop = max(0, j0 + 1 - GAP_MARGIN), min(len(self.new), j1 + GAP_MARGIN)
        if stop - start > MAX_WINDOW:
            middle = j0 + (olds[len(olds) // 2] - i0) * (j1 - j0) / max(1, i1 - i0)
            start, stop = max(start, int(middle) - MAX_WINDOW // 2), min(stop, int(middle) + MAX_WINDOW // 2)
        return [j for j in range(start, stop) if j not in self.backward]

    def _scores(self, olds: list[int], news: list[int]) -> dict[tuple[int, int], float]:
        matrix = text_similarity(
            [self.old.texts[i] for i in olds],
            [self.new.texts[j] for j in news],
            self.old.words[olds],
            self.new.words[news],
            minimum=WEAKEST_TEXT,
        )
        rows, columns = np.nonzero(matrix >= WEAKEST_TEXT)
        return {(olds[r], news[c]): float(matrix[r, c]) for r, c in zip(rows, columns)}

    def _accept_supported(self, candidates: dict[tuple[int, int], float]) -> None:
        """Greedy one-to-one acceptance, best first, repeated while accepted pairs add support."""
        while True:
            expected = self._expected_numbers()
            mutual = _mutual_best(
                {
                    pair: text
                    for pair, text in candidates.items()
                    if pair[0] not in self.forward and pair[1] not in self.backward
                }
            )
            ranked = sorted(
                (
                    (text + self._support(i, j, expected), text, i, j)
                    for (i, j), text in candidates.items()
                    if i not in self.forward and j not in self.backward
                ),
                reverse=True,
            )
            accepted = 0
            for _, text, i, j in ranked:
                if i in self.forward or j in self.backward:
                    continue
                if self._acceptable(i, j, text, self._support(i, j, expected), mutual):
                    self._pair(i, j, text)
                    accepted += 1
            if not accepted:
                return

    def _acceptable(self, i: int, j: int, text: float, support: int, mutual: set[tuple[int, int]]) -> bool:
        if min(self.old.words[i], self.new.words[j]) < SHORT_WORDS:
            return (
                text >= 100
                or (text >= SHORT_TEXT and support > 0)
                or (text >= SUPPORTED_TEXT and support >= PARENT_SUPPORT + NUMBER_SUPPORT)
            )
        return (
            text >= STRONG_TEXT
            or (text >= MUTUAL_TEXT and (i, j) in mutual)
            or (text >= SUPPORTED_TEXT and support >= NUMBER_SUPPORT)
            or (text >= WEAK_TEXT and support >= PARENT_SUPPORT + NUMBER_SUPPORT)
            or (text >= WEAKEST_TEXT and support >= PARENT_SUPPORT + NUMBER_SUPPORT and self._children_correspond(i, j))
        )

    def _support(self, i: int, j: int, expected: dict[int, str]) -> int:
        """What the outline says for old i -> new j: parents (or children) correspond,
        the number is where an anchored neighbour's offset predicts, a neighbour
        matches the neighbour."""
        support = 0
        old_parent, new_parent = self.old.parents[i], self.new.parents[j]
        if old_parent is not None and new_parent is not None and self.forward.get(old_parent) == new_parent:
            support += PARENT_SUPPORT
        if self._children_correspond(i, j):
            support += PARENT_SUPPORT
        if expected.get(i) == self.new.numbers[j]:
            support += NUMBER_SUPPORT
        if (i > 0 and j > 0 and self.forward.get(i - 1) == j - 1) or self.forward.get(i + 1) == j + 1:
            support += NEIGHBOUR_SUPPORT
        return support

    def _children_correspond(self, i: int, j: int) -> bool:
        return any(
            self.new.parents[self.forward[child]] == j for child in self.old.children[i] if child in self.forward
        )

    def _expected_numbers(self) -> dict[int, str]:
        """Where each unmatched old rule would land if it kept its place: under its
        parent's successor with the same last part, or, at the top level, shifted
        by the offset of the nearest anchored top-level rule before it."""
        expected: dict[int, str] = {}
        offset: int | None = None
        for i, rule in enumerate(self.old.rules):
            j = self.forward.get(i)
            parent = self.old.parents[i]
            if parent is None:
                if j is not None and self.new.parents[j] is None:
                    offset = _shift(rule.number, self.new.numbers[j])
                elif j is None and offset is not None and rule.number.isdigit():
                    expected[i] = f"{int(rule.number) + offset:0{len(rule.number)}d}"
            elif j is None and parent in self.forward:
                last = rule.number.rsplit(".", 1)[-1]
                expected[i] = f"{self.new.numbers[self.forward[parent]]}.{last}"
        return expected

    # 3b. rules reordered inside their section
    def _match_within_parents(self) -> None:
        """Children of corresponding parents are compared with each other wherever they sit: a
        section whose steps were reordered (``2. Handle outstanding board state`` now step 3) has
        its children outside the aligned gaps, but under the same parent. Repeated while matched
        parents make more children comparable."""
        while True:
            candidates: dict[tuple[int, int], float] = {}
            for i, j in list(self.forward.items()):
                olds = [child for child in self.old.children[i] if child not in self.forward]
                news = [child for child in self.new.children[j] if child not in self.backward]
                if olds and news:
                    candidates.update(self._scores(olds, news))
            before = len(self.forward)
            if candidates:
                self._accept_supported(candidates)
            if len(self.forward) == before:
                return

    # 4. long-distance moves
    def _match_far(self) -> None:
        """Unmatched old rules against the unmatched new rules that share a rare word with them (never all
        pairs: see ``far_candidates``), accepted only at a near-identical score, best first."""
        olds = [i for i in range(len(self.old)) if i not in self.forward and self.old.words[i] >= FAR_MOVE_WORDS]
        news = [j for j in range(len(self.new)) if j not in self.backward and self.new.words[j] >= FAR_MOVE_WORDS]
        found: list[tuple[float, int, int]] = []
        for i, candidates in far_candidates([self.old.texts[i] for i in olds], [self.new.texts[j] for j in news]):
            scores = text_similarity(
                [self.old.texts[olds[i]]],
                [self.new.texts[news[c]] for c in candidates],
                self.old.words[[olds[i]]],
                self.new.words[[news[c] for c in candidates]],
                minimum=FAR_MOVE_TEXT,
            )[0]
            found += [
                (-float(score), olds[i], news[c]) for score, c in zip(scores, candidates) if score >= FAR_MOVE_TEXT
            ]
        for negated, i, j in sorted(found):
            if i not in self.forward and j not in self.backward:
                self._pair(i, j, -negated)

    # 5. splits and merges
    def _find_splits(self) -> None:
        """A leftover new rule contained in an old rule near it is a piece of that rule:
        the old rule was split (or, if it has no other successor, shortened)."""
        for j in range(len(self.new)):
            if j in self.backward or self.new.words[j] < SHORT_WORDS:
                continue
            partners = [self.backward[k] for k in _around(j, len(self.new)) if k in self.backward]
            nearby = {i for partner in partners for i in _around(partner, len(self.old)) if not self._kept_whole(i)}
            i = self._containing(self.new.texts[j], sorted(nearby), self.old.texts)
            if i is not None:
                self.pieces[i].add(j)

    def _find_merges(self) -> None:
        """A leftover old rule contained in the new rule matched near it was folded into that rule."""
        for i in range(len(self.old)):
            if i in self.forward or i in self.pieces or self.old.words[i] < SHORT_WORDS:
                continue
            nearby = {
                self.forward[k] for k in _around(i, len(self.old)) if k in self.forward and not self._kept_whole(k)
            }
            j = self._containing(self.old.texts[i], sorted(nearby), self.new.texts)
            if j is not None:
                self.sources[j].add(i)

    def _kept_whole(self, i: int) -> bool:
        """Old rule i went unchanged into its successor, so no text of it went elsewhere
        (and nothing else went into that successor)."""
        return i in self.forward and self.old.keys[i] == self.new.keys[self.forward[i]]

    @staticmethod
    def _containing(text: str, positions: list[int], texts: list[str]) -> int | None:
        longer = [p for p in positions if len(texts[p]) > len(text) * 1.25]
        if not longer:
            return None
        found = process.extractOne(
            text, [texts[p] for p in longer], scorer=fuzz.partial_ratio, score_cutoff=CONTAINED_TEXT
        )
        return longer[found[2]] if found else None

    def _pair(self, i: int, j: int, score: float | None = None) -> None:
        self.forward[i], self.backward[j] = j, i
        if score is not None:
            self.scores[i, j] = score

    # the result
    def _rows(self) -> list[LineageRow]:
        rows: list[LineageRow] = []
        old, new = self.old, self.new
        folded_into = {i: j for j, sources in self.sources.items() for i in sources}
        for i in range(len(old)):
            j = self.forward.get(i)
            if i in self.pieces:
                successors = sorted(k for k in {j, *self.pieces[i]} if k is not None)
                kind = "split" if len(successors) > 1 else "edited"
                rows.extend(self._row(kind, i, k) for k in successors)
            elif i in folded_into:
                rows.append(self._row("merged", i, folded_into[i]))
            elif j is not None and j in self.sources:
                rows.append(self._row("merged", i, j))
            elif j is None:
                rows.append(LineageRow("removed", old.numbers[i], None, None))
            elif old.keys[i] == new.keys[j]:
                rows.append(self._row("unchanged" if old.numbers[i] == new.numbers[j] else "moved", i, j))
            else:
                rows.append(self._row("edited", i, j))
        pieces = {j for js in self.pieces.values() for j in js}
        rows.extend(
            LineageRow("new", None, new.numbers[j], None)
            for j in range(len(new))
            if j not in self.backward and j not in pieces
        )
        return rows

    def _row(self, kind: str, i: int, j: int) -> LineageRow:
        similarity = _similarity(self.old, self.new, i, j, self.scores.get((i, j)))
        return LineageRow(kind, self.old.numbers[i], self.new.numbers[j], similarity)


def text_similarity(
    olds: Sequence[str], news: Sequence[str], old_words: np.ndarray, new_words: np.ndarray, minimum: float = 0
) -> np.ndarray:
    """0-100 similarity of every normalised old text with every new one (vectorised).

    The Indel ratio, or, when both texts are long enough, the partial ratio (the
    shorter text's best alignment inside the longer), so that a rule that gained a
    sentence or an example still matches. A partial match counts nearly in full
    when the shorter text is found almost whole, and is discounted otherwise:
    boilerplate such as "see rule ... for more information" is shared widely.
    rapidfuzz's WRatio is not used: its partial token score is 100 as soon as two
    texts share a single word; the token-set ratio is too generous to short texts.
    Scores below ``minimum`` may come back as 0 (rapidfuzz then skips the work).
    """
    ratio = process.cdist(olds, news, scorer=fuzz.ratio, score_cutoff=minimum, workers=1)
    # a pair is long enough when both texts are: the long olds by the long news, a block of the matrix, is all
    # the partial ratio (the costly scorer) needs to see
    long_olds = np.flatnonzero(old_words >= CONTAINED_WORDS).tolist()
    long_news = np.flatnonzero(new_words >= CONTAINED_WORDS).tolist()
    if not long_olds or not long_news:
        return ratio
    block = np.ix_(long_olds, long_news)
    partial = _partial_ratios(
        [olds[i] for i in long_olds], [news[j] for j in long_news], np.maximum(ratio[block], minimum)
    )
    weight = np.where(partial >= CONTAINED_TEXT, CONTAINED_WEIGHT, OVERLAP_WEIGHT)
    scores = ratio.astype(np.float64)  # the weighted partial ratios' precision
    scores[block] = np.maximum(ratio[block], partial * weight)
    return scores


def far_candidates(olds: Sequence[str], news: Sequence[str]) -> Iterator[tuple[int, list[int]]]:
    """For each old text (by position), the new texts that could score ``FAR_MOVE_TEXT`` with it, in order.

    A prefix filter on pairs of consecutive words: two texts that are near-identical (or one found almost
    whole in the other) share most of the shorter one's word pairs, so they share at least one of the rarest
    half of them. Each text is indexed under the rarest half of its distinct pairs (rarity counted over both
    versions), and a pair of texts is a candidate when either text's rare pairs occur in the other. Rare
    pairs are rarely shared, so the work grows with the number of texts, not with its square."""
    old_pairs, new_pairs = [_word_pairs(text) for text in olds], [_word_pairs(text) for text in news]
    frequency: Counter[str] = Counter(pair for pairs in (*old_pairs, *new_pairs) for pair in pairs)
    having_new: dict[str, list[int]] = defaultdict(list)  # word pair -> new texts holding it
    rare_new: dict[str, list[int]] = defaultdict(list)  # word pair -> new texts holding it among their rarest
    for j, pairs in enumerate(new_pairs):
        for pair in pairs:
            having_new[pair].append(j)
        for pair in _rarest_half(pairs, frequency):
            rare_new[pair].append(j)
    for i, pairs in enumerate(old_pairs):
        candidates = {j for pair in _rarest_half(pairs, frequency) for j in having_new.get(pair, ())}
        candidates.update(j for pair in pairs for j in rare_new.get(pair, ()))
        if candidates:
            yield i, sorted(candidates)


def _word_pairs(text: str) -> set[str]:
    """The text's pairs of consecutive words: unlike single words, a vocabulary does not run out of them, so
    they stay rare however many rules there are."""
    words = _FAR_WORD.findall(text)
    return {f"{first} {second}" for first, second in zip(words, words[1:])}


def _rarest_half(pairs: set[str], frequency: Mapping[str, int]) -> list[str]:
    return sorted(pairs, key=lambda pair: (frequency[pair], pair))[: len(pairs) // 2 + 1]


_FAR_WORD = re.compile(r"\w+")


def _partial_ratios(olds: Sequence[str], news: Sequence[str], floors: np.ndarray) -> np.ndarray:
    """The partial ratio of each old text with each new one where it can still weigh in above ``floors`` (the
    pair's ratio, or the minimum asked for), 0 elsewhere. A partial ratio is costly for long texts (every
    alignment of the shorter in the longer is scored), and rapidfuzz skips most of that work under a higher
    cut-off: the pair's own floor is that cut-off, a little lowered so that float rounding never decides."""
    partial = np.zeros((len(olds), len(news)), dtype=np.float32)  # cdist's type: the same scores to the bit
    for i, old in enumerate(olds):
        for j, new in enumerate(news):
            cutoff = _partial_floor(float(floors[i, j])) - _ROUNDING_MARGIN
            partial[i, j] = fuzz.partial_ratio(old, new, score_cutoff=cutoff)
    return partial


_ROUNDING_MARGIN = 1e-3  # far above float32's rounding of a 0-100 score, far below any threshold's spacing


def _partial_floor(minimum: float) -> float:
    """The lowest partial ratio that can still weigh in at ``minimum``."""
    loose = minimum / OVERLAP_WEIGHT
    return loose if loose < CONTAINED_TEXT else min(100.0, max(CONTAINED_TEXT, minimum / CONTAINED_WEIGHT))


def _around(position: int, length: int, reach: int = 3) -> range:
    return range(max(0, position - reach), min(length, position + reach + 1))


def _mutual_best(candidates: dict[tuple[int, int], float]) -> set[tuple[int, int]]:
    """Pairs where each side is the other's best-scoring candidate."""
    best_old: dict[int, tuple[float, int]] = {}
    best_new: dict[int, tuple[float, int]] = {}
    for (i, j), text in candidates.items():
        best_old[i] = max(best_old.get(i, (-1.0, -1)), (text, j))
        best_new[j] = max(best_new.get(j, (-1.0, -1)), (text, i))
    return {(i, j) for i, (_, j) in best_old.items() if best_new[j][1] == i}


def _shift(old_number: str, new_number: str) -> int | None:
    if old_number.isdigit() and new_number.isdigit():
        return int(new_number) - int(old_number)
    return None


CHANGED_KINDS = ("edited", "split", "merged", "removed", "new")

_WORD = re.compile(r"\S+\s*|\s+")  # a word with the spaces after it, or leading spaces


def word_diff(old_text: str, new_text: str) -> list[tuple[str, str]]:
    """Word-level diff as ``(op, text)`` pieces, op one of "equal", "delete", "insert";
    the old text is the equal and deleted pieces in order, the new text the equal and inserted ones."""
    old_words, new_words = _WORD.findall(old_text or ""), _WORD.findall(new_text or "")
    pieces: list[tuple[str, str]] = []
    matcher = difflib.SequenceMatcher(None, old_words, new_words, autojunk=False)
    for op, old_start, old_stop, new_start, new_stop in matcher.get_opcodes():
        if op in ("equal", "delete", "replace") and old_stop > old_start:
            pieces.append(("equal" if op == "equal" else "delete", "".join(old_words[old_start:old_stop])))
        if op in ("insert", "replace") and new_stop > new_start:
            pieces.append(("insert", "".join(new_words[new_start:new_stop])))
    return pieces


def compose(
    steps: Sequence[Sequence[LineageRow]], old_rules: Sequence[RuleRow], new_rules: Sequence[RuleRow]
) -> list[LineageRow]:
    """The correspondence from the first version to the last through the versions between them, from
    the correspondence of each consecutive pair (``steps``, in order): an old rule follows its
    successors step by step. Where it ends is its successor (or it was removed); a rule the chain
    splits is "split", one that meets another on the way is "merged", and a one-to-one pair is
    "unchanged", "moved" or "edited" by its two end texts, as ``compute_lineage`` says it."""
    successors = [_successors(step) for step in steps]
    old = _Version(list(old_rules))
    new = _Version(list(new_rules))
    new_at = {number: position for position, number in enumerate(new.numbers)}
    reached: dict[int, tuple[list[int], set[str]]] = {}
    for i, number in enumerate(old.numbers):
        frontier: set[str] = {number}
        kinds: set[str] = set()
        for step in successors:
            following = [step.get(current, []) for current in frontier]
            kinds.update(kind for options in following for _, kind in options)
            frontier = {target for options in following for target, _ in options if target is not None}
        reached[i] = (sorted(new_at[target] for target in frontier if target in new_at), kinds)
    sources: dict[int, int] = defaultdict(int)
    for targets, _ in reached.values():
        for j in targets:
            sources[j] += 1
    rows = []
    for i, (targets, kinds) in reached.items():
        if not targets:
            rows.append(LineageRow("removed", old.numbers[i], None, None))
        for j in targets:
            if len(targets) > 1 or "split" in kinds:
                kind = "split" if len(targets) > 1 else "edited"
            elif sources[j] > 1 or "merged" in kinds:
                kind = "merged"
            elif old.keys[i] == new.keys[j]:
                kind = "unchanged" if old.numbers[i] == new.numbers[j] else "moved"
            else:
                kind = "edited"
            rows.append(LineageRow(kind, old.numbers[i], new.numbers[j], _similarity(old, new, i, j)))
    rows += [LineageRow("new", None, new.numbers[j], None) for j in range(len(new)) if j not in sources]
    return rows


def _successors(step: Sequence[LineageRow]) -> dict[str, list[tuple[str | None, str]]]:
    found: dict[str, list[tuple[str | None, str]]] = defaultdict(list)
    for row in step:
        if row.old is not None:
            found[row.old].append((row.new, row.kind))
    return found


def _similarity(old: _Version, new: _Version, i: int, j: int, score: float | None = None) -> float:
    """0..1 similarity of old rule i and new rule j; ``score``, if given, is their text similarity as matching
    computed it (scores at or above a cut-off are exact, and a pair is matched only above one)."""
    if old.keys[i] == new.keys[j]:
        return 1.0
    if score is None:
        score = text_similarity([old.texts[i]], [new.texts[j]], old.words[[i]], new.words[[j]])[0, 0]
    return round(float(score) / 100, 3)
