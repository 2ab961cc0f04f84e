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
4. **Far moves.** Old rules still unmatched are looked up among all unmatched
   new rules, but only accepted at a near-identical score.
5. **Splits and merges.** A leftover new rule whose text is contained in an old
   rule near it is a piece of that rule (split); a leftover old rule contained in
   a nearby new rule was folded into it (merged).

Whatever is still unmatched is removed (old) or new (new): a new section whose
text resembles nothing nearby is never forced onto an old rule. A one-to-one
pair is "unchanged" (same number) or "moved" (new number) when the normalised
texts agree apart from spacing, and "edited" otherwise.

The database side (``store_lineage``, ``equivalents``, ``diff_summary``) reads
and writes the ``rules`` and ``rule_lineage`` tables of ``rules_db/schema.py``.
"""

from __future__ import annotations

import bisect
import csv
import difflib
import io
import json
import re
import sqlite3
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import sqlite_utils
from rapidfuzz import fuzz, process

from ingest.outline import natural_key
from ingest.text import plain_text
from rules_db import versions

KINDS = ("unchanged", "moved", "edited", "split", "merged", "removed", "new")

# Scores are rapidfuzz's 0-100. Support is what the outline adds (see _Matcher._support).
STRONG_TEXT = 88  # accepted on the text alone
MUTUAL_TEXT = 70  # accepted when each is the other's best candidate in the gap
SUPPORTED_TEXT = 60  # accepted with some structural support
WEAK_TEXT = 55  # accepted only with strong structural support
WEAKEST_TEXT = 45  # ... that includes children already matched to children
SHORT_TEXT = 80  # a short text (a heading) needs this plus support, or an exact match
FAR_MOVE_TEXT = 92  # a match outside the aligned gap
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


_QUOTES = str.maketrans({"\u201c": '"', "\u201d": '"', "\u2018": "'", "\u2019": "'"})
_LIST_MARKER = re.compile(r"^(?:[*\u2022-]|\d{1,2}[a-z]?\.)\s+")
# "518", "626.1.d", "1.2e.1a": three digits, or any dotted number (after lower-casing)
_RULE_NUMBER = re.compile(r"\b(?:\d{3}|\d+(?=\.[0-9a-z]))(?:\.[0-9a-z]+)*\.?(?![0-9a-z])")
_WHITESPACE = re.compile(r"\s+")
_SPACE_BEFORE_PUNCTUATION = re.compile(r"\s+(?=[.,;:!?])")


def normalise(text: str) -> str:
    """Text as compared: no markup, lower case, straight quotes, no list markers,
    and every rule number replaced by one symbol (references are renumbered too)."""
    lines = plain_text(text).translate(_QUOTES).lower().split("\n")
    joined = " ".join(_LIST_MARKER.sub("", line.strip()) for line in lines)
    text = _SPACE_BEFORE_PUNCTUATION.sub("", _RULE_NUMBER.sub("\u00a7", joined))
    return _WHITESPACE.sub(" ", text).strip()


class _Version:
    """One version's rules in document order, prepared for matching."""

    def __init__(self, rules: Sequence[RuleRow]):
        self.rules = list(rules)
        self.numbers = [rule.number for rule in self.rules]
        self.texts = [normalise(rule.text or rule.heading or "") for rule in self.rules]
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


def compute_lineage(old_rules: Iterable[RuleRow | Mapping], new_rules: Iterable[RuleRow | Mapping]) -> list[LineageRow]:
    """The correspondence from ``old_rules`` to ``new_rules`` (each in document order).

    Every old rule appears in at least one row (a successor, or ``removed``) and
    every new rule in at least one row (a predecessor, or ``new``).
    """
    old = _Version([_as_rule(rule) for rule in old_rules])
    new = _Version([_as_rule(rule) for rule in new_rules])
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

    def run(self) -> list[LineageRow]:
        self._match_exact()
        backbone = self._backbone()
        self._drop_coincidences(set(backbone))
        self._match_gaps(backbone)
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
                    self._pair(i, j)
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

    # 4. long-distance moves
    def _match_far(self) -> None:
        olds = [i for i in range(len(self.old)) if i not in self.forward and self.old.words[i] >= FAR_MOVE_WORDS]
        news = [j for j in range(len(self.new)) if j not in self.backward and self.new.words[j] >= FAR_MOVE_WORDS]
        if not olds or not news:
            return
        matrix = text_similarity(
            [self.old.texts[i] for i in olds],
            [self.new.texts[j] for j in news],
            self.old.words[olds],
            self.new.words[news],
            minimum=FAR_MOVE_TEXT,
        )
        rows, columns = np.nonzero(matrix >= FAR_MOVE_TEXT)
        for _, r, c in sorted(zip(-matrix[rows, columns], rows, columns)):
            if olds[r] not in self.forward and news[c] not in self.backward:
                self._pair(olds[r], news[c])

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

    def _pair(self, i: int, j: int) -> None:
        self.forward[i], self.backward[j] = j, i

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
        similarity = (
            1.0
            if self.old.keys[i] == self.new.keys[j]
            else text_similarity([self.old.texts[i]], [self.new.texts[j]], self.old.words[[i]], self.new.words[[j]])[
                0, 0
            ]
            / 100
        )
        return LineageRow(kind, self.old.numbers[i], self.new.numbers[j], round(float(similarity), 3))


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
    long_enough = np.minimum.outer(old_words, new_words) >= CONTAINED_WORDS
    if not long_enough.any():
        return ratio
    partial = process.cdist(olds, news, scorer=fuzz.partial_ratio, score_cutoff=_partial_floor(minimum), workers=1)
    weight = np.where(partial >= CONTAINED_TEXT, CONTAINED_WEIGHT, OVERLAP_WEIGHT)
    return np.where(long_enough, np.maximum(ratio, partial * weight), ratio)


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


# The database side ---------------------------------------------------------------------------------

CHANGED_KINDS = ("edited", "split", "merged", "removed", "new")


def document_rules(db: sqlite_utils.Database, document_id: str) -> list[RuleRow]:
    return [
        RuleRow.from_mapping(row)
        for row in db.query(
            "select id, number, parent_number, heading, text from rules where document_id = ? order by position",
            [document_id],
        )
    ]


def store_lineage(db: sqlite_utils.Database, game_id: str) -> dict[str, Counter]:
    """Link each consecutive pair of versions of each of the game's rulebooks (``documents.previous_id``,
    set by ``store.link_versions``): pairs already stored are kept, missing pairs are computed, and rows
    of pairs that are no longer consecutive (a version was added between them) are deleted. Returns the
    rows per kind for each pair computed, keyed ``"OLD -> NEW"`` by version."""
    figures: dict[str, Counter] = {}
    for book in versions.rulebooks(db, game_id):
        documents = versions.versions(db, game_id, book["slug"])
        chain = {(older["id"], newer["id"]) for older, newer in zip(documents, documents[1:])}
        stored = {
            (row["from_document_id"], row["to_document_id"])
            for row in db.query(
                "select distinct from_document_id, to_document_id from rule_lineage l "
                "join documents d on d.id = l.to_document_id where d.rulebook_id = ?",
                [book["id"]],
            )
        }
        for pair in stored - chain:
            db.execute("delete from rule_lineage where from_document_id = ? and to_document_id = ?", list(pair))
        for older, newer in zip(documents, documents[1:]):
            if (older["id"], newer["id"]) not in stored:
                counts = _store_pair(db, older["id"], newer["id"])
                figures[f"{older['version']} -> {newer['version']}"] = counts
    return figures


def _store_pair(db: sqlite_utils.Database, old_document_id: str, new_document_id: str) -> Counter:
    old_rules, new_rules = document_rules(db, old_document_id), document_rules(db, new_document_id)
    old_ids: dict[str | None, int | None] = {rule.number: rule.id for rule in old_rules}
    new_ids: dict[str | None, int | None] = {rule.number: rule.id for rule in new_rules}
    rows = compute_lineage(old_rules, new_rules)
    db.table("rule_lineage").insert_all(
        {
            "from_document_id": old_document_id,
            "to_document_id": new_document_id,
            "from_rule_id": old_ids.get(row.old),
            "to_rule_id": new_ids.get(row.new),
            "kind": row.kind,
            "similarity": row.similarity,
        }
        for row in rows
    )
    return Counter(row.kind for row in rows)


def format_figures(figures: dict[str, Counter]) -> str:
    """One line per pair of versions: rows per kind, in the order of ``KINDS``."""
    return "\n".join(
        f"lineage {pair}: " + ", ".join(f"{counts[kind]} {kind}" for kind in KINDS) for pair, counts in figures.items()
    )


def equivalents(db: sqlite_utils.Database | sqlite3.Connection, rule_id: int) -> list[tuple[str, str, str, str]]:
    """The same rule in the game's other versions: ``(document_id, version, number, kind)``,
    oldest version first, following the lineage transitively (forwards to newer
    versions, backwards to older ones). A rule that is new (or removed) in the next
    step has no equivalent of its own there; the nearest ancestor's equivalent is
    given instead, with kind ``"ancestor"`` (443.1.e is new in 2025-12-01, and sits
    under 443.1, which was 626.1)."""
    db = _database(db)
    found: dict[int, str] = {}
    for direction in ("forward", "backward"):
        found.update(_walk(db, rule_id, direction))
    if not found:
        return []
    placeholders = ", ".join("?" for _ in found)
    rows = db.query(
        f"select rules.id, rules.document_id, documents.version, rules.number from rules "
        f"join documents on documents.id = rules.document_id where rules.id in ({placeholders})",
        list(found),
    )
    result = [(row["document_id"], row["version"], row["number"], found[row["id"]]) for row in rows]
    return sorted(result, key=lambda item: (natural_key(item[1]), natural_key(item[2])))


def _walk(db: sqlite_utils.Database, rule_id: int, direction: str) -> dict[int, str]:
    """Rules reached from ``rule_id`` one version step at a time in one direction, with the kind of
    the step that reached them; a step with no counterpart falls back to the nearest ancestor's,
    and whatever is reached through an ancestor stays an "ancestor" equivalent."""
    here, there = ("from_rule_id", "to_rule_id") if direction == "forward" else ("to_rule_id", "from_rule_id")
    found: dict[int, str] = {}
    frontier = [rule_id]
    while frontier:
        step: dict[int, str] = {}
        for current in frontier:
            reached = _step(db, current, here, there) or _ancestor_step(db, current, here, there)
            if found.get(current) == "ancestor":
                reached = dict.fromkeys(reached, "ancestor")
            step.update(reached)
        frontier = [rule for rule in step if rule not in found and rule != rule_id]
        found.update({rule: kind for rule, kind in step.items() if rule != rule_id})
    return found


def _step(db: sqlite_utils.Database, rule_id: int, here: str, there: str) -> dict[int, str]:
    return {
        row[there]: row["kind"]
        for row in db.query(
            f"select {there}, kind from rule_lineage where {here} = ? and {there} is not null", [rule_id]
        )
    }


def _ancestor_step(db: sqlite_utils.Database, rule_id: int, here: str, there: str) -> dict[int, str]:
    """Only for a rule the lineage marks as having no counterpart (new or removed)."""
    unmatched = next(db.query(f"select 1 from rule_lineage where {here} = ? and {there} is null", [rule_id]), None)
    parent = next(db.query("select parent_id from rules where id = ?", [rule_id]), {}).get("parent_id")
    while unmatched and parent is not None:
        step = _step(db, parent, here, there)
        if step:
            return {rule: "ancestor" for rule in step}
        parent = next(db.query("select parent_id from rules where id = ?", [parent]), {}).get("parent_id")
    return {}


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


def diff_summary(
    db: sqlite_utils.Database | sqlite3.Connection,
    game: str,
    old_version: str,
    new_version: str,
    top_sections: int = 10,
    rulebook: str | None = None,
) -> dict:
    """Counts per kind, the sections that changed most, and every row with both texts, between
    two versions of a rulebook (the game's default one unless named). Uses the stored lineage when
    the pair was stored, else computes it."""
    db = _database(db)
    old_document, new_document = (
        _rules_document(db, game, version, rulebook) for version in (old_version, new_version)
    )
    old_rules = _rules_by_number(db, old_document["id"])
    new_rules = _rules_by_number(db, new_document["id"])
    rows = _stored_rows(db, old_document["id"], new_document["id"]) or compute_lineage(
        document_rules(db, old_document["id"]), document_rules(db, new_document["id"])
    )
    successor = {row.old: row.new for row in reversed(rows) if row.old and row.new}
    details = [_detail(row, old_rules, new_rules, successor, (old_version, new_version)) for row in rows]
    counts = Counter(row.kind for row in rows)
    accounted = len({row.old for row in rows if row.old is not None})
    return {
        "game": game,
        "rulebook": old_document["rulebook"],
        "rulebook_title": old_document["rulebook_title"],
        "old": {"document_id": old_document["id"], "version": old_version, "rules": len(old_rules)},
        "new": {"document_id": new_document["id"], "version": new_version, "rules": len(new_rules)},
        "counts": {kind: counts[kind] for kind in KINDS},
        "old_rules_accounted": accounted / len(old_rules) if old_rules else 1.0,
        "sections": _changed_sections(details)[:top_sections],
        "rows": details,
    }


def diff_command_output(db: sqlite_utils.Database, game: str, old: str, new: str, details_path: str | Path) -> str:
    """What ``rules-db diff GAME OLD NEW`` prints; writes every row to ``details_path``
    (JSON when it ends in .json, CSV otherwise)."""
    summary = diff_summary(db, game, old, new)
    details_path = Path(details_path)
    if details_path.suffix.lower() == ".json":
        details_path.write_text(json.dumps(summary, indent=2, ensure_ascii=False), encoding="utf-8")
    else:
        details_path.write_text(_csv(summary["rows"]), encoding="utf-8")
    lines = [
        f"{game} rules {old} -> {new}: {summary['old']['rules']} rules -> {summary['new']['rules']} rules, "
        f"{summary['old_rules_accounted']:.1%} of the {old} rules have a successor or are marked removed"
    ]
    lines += [f"  {kind:<10}{summary['counts'][kind]:>6}" for kind in KINDS]
    lines.append("Sections that changed most:")
    lines += [
        f"  {section['version']} {section['number']} {section['heading']}: {section['changed']} changed "
        f"({', '.join(f'{n} {kind}' for kind, n in section['counts'].items())})"
        for section in summary["sections"]
    ]
    lines.append(f"{len(summary['rows'])} rows written to {details_path}")
    return "\n".join(lines)


def _database(db: sqlite_utils.Database | sqlite3.Connection) -> sqlite_utils.Database:
    """Accept a plain connection too (the Datasette plugin's queries get one)."""
    return db if isinstance(db, sqlite_utils.Database) else sqlite_utils.Database(db)


def _rules_document(db: sqlite_utils.Database, game: str, version: str, rulebook: str | None) -> dict:
    document = versions.rules_document(db, game, version, rulebook)
    if document is None:
        known = ", ".join(document["version"] for document in versions.versions(db, game, rulebook)) or "none"
        raise LookupError(f"no {game} {rulebook or 'rules'} document at version {version!r} (versions: {known})")
    return document


def _rules_by_number(db: sqlite_utils.Database, document_id: str) -> dict[str, dict]:
    rules = list(
        db.query(
            "select number, parent_number, heading, text from rules where document_id = ? order by position",
            [document_id],
        )
    )
    sections = _heading_sections(rules)
    return {rule["number"]: {**rule, "section": sections[rule["number"]]} for rule in rules}


def _heading_sections(rules: list[dict]) -> dict[str, dict | None]:
    """Each rule's section: the nearest top-level heading at or above it in document order."""
    sections: dict[str, dict | None] = {}
    current = None
    for rule in rules:
        if rule["parent_number"] is None and (rule["heading"] or current is None):
            current = {"number": rule["number"], "heading": rule["heading"] or rule["text"]}
        sections[rule["number"]] = current
    return sections


def _stored_rows(db: sqlite_utils.Database, old_document_id: str, new_document_id: str) -> list[LineageRow]:
    return [
        LineageRow(row["kind"], row["old"], row["new"], row["similarity"])
        for row in db.query(
            "select kind, old_rule.number as old, new_rule.number as new, similarity from rule_lineage "
            "left join rules old_rule on old_rule.id = from_rule_id left join rules new_rule on new_rule.id = to_rule_id "
            "where from_document_id = ? and to_document_id = ? order by rule_lineage.id",
            [old_document_id, new_document_id],
        )
    ]


def _detail(
    row: LineageRow, old_rules: dict, new_rules: dict, successor: dict[str, str], versions: tuple[str, str]
) -> dict:
    """A row with both texts and its section, in the newer numbering where there is one: a
    removed rule counts in the section that its old section became."""
    old_rule, new_rule = old_rules.get(row.old), new_rules.get(row.new)
    if new_rule:
        section, version = new_rule["section"], versions[1]
    else:
        assert old_rule is not None, "a lineage row names an old rule, a new rule or both"
        if old_rule["section"]["number"] in successor:
            section, version = new_rules[successor[old_rule["section"]["number"]]]["section"], versions[1]
        else:
            section, version = old_rule["section"], versions[0]
    return {
        **asdict(row),
        "old_text": old_rule["text"] if old_rule else None,
        "new_text": new_rule["text"] if new_rule else None,
        "section_version": version,
        "section": section["number"],
        "section_heading": section["heading"],
    }


def _changed_sections(details: list[dict]) -> list[dict]:
    sections: dict[tuple, Counter] = defaultdict(Counter)
    for detail in details:
        sections[(detail["section_version"], detail["section"], detail["section_heading"])][detail["kind"]] += 1
    ranked = [
        {
            "version": version,
            "number": number,
            "heading": heading,
            "changed": sum(counts[kind] for kind in CHANGED_KINDS),
            "counts": {kind: counts[kind] for kind in KINDS if counts[kind]},
        }
        for (version, number, heading), counts in sections.items()
    ]
    ranked = [section for section in ranked if section["changed"]]
    return sorted(ranked, key=lambda section: (-section["changed"], natural_key(section["number"])))


def _csv(details: list[dict]) -> str:
    columns = [
        "kind",
        "old",
        "new",
        "similarity",
        "section_version",
        "section",
        "section_heading",
        "old_text",
        "new_text",
    ]
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns, extrasaction="ignore")
    writer.writeheader()
    writer.writerows(details)
    return buffer.getvalue()
