"""Storing scenario replays: each replay, its steps in order (nested through
parent_step_id), the rules each step cites, linked to the rules of the
version the scenario names, and the real cards its scenario uses.

The engine cites its own Core Rules version (`scenarios.kernel.RULES_VERSION`). A scenario that names
another version gets its citations through `CitationTranslator`, the one translator of rule numbers between
versions: it reads the stored `rule_lineage` (rules_db/lineage_store.py), never the documents.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import sqlite_utils

from rules_db import store, versions
from rules_db.lineage_store import equivalents
from scenarios.versions import is_faq, split_versioned


class CitationTranslator:
    """Rule numbers of one version of a game's rules as the numbers of another, from the stored lineage.

    A number maps to its counterpart in the other version (`direct`). A heading the other version
    restructured away maps to the counterpart of its first sub-rule that has one ("End of Turn Cleanup" ->
    "Invoke an Ending Special Cleanup"). A rule the other version removed is dropped: its nearest ancestor
    there says something else (a removed "Focus does not pass upon closure of the Initial Chain" is not
    "When Combat opens ..."). Only when none of a step's numbers has a counterpart does the step cite its
    rules' nearest ancestor's counterpart, else that of the section they sit under, so that it still points
    to where they would be; a number nothing corresponds to is dropped (the older Core Rules have no "Deal"
    rule, for instance).

    A number the engine cites in another version (`419.4.b@2026-06-18`, scenarios/versions.py: a behaviour the
    versions disagree on) is that version's own: kept as it is in that version, translated from it into any
    other."""

    def __init__(
        self,
        db: sqlite_utils.Database,
        game_id: str,
        from_version: str,
        to_version: str,
        outer: CitationTranslator | None = None,
    ):
        self._db, self.outer = db, outer
        self.game_id, self.from_version, self.to_version = game_id, from_version, to_version
        self.same = from_version == to_version
        self.from_document = (versions.rules_document(db, game_id, from_version) or {}).get("id")
        self.to_document = (versions.rules_document(db, game_id, to_version) or {}).get("id")
        missing = [v for v, d in ((from_version, self.from_document), (to_version, self.to_document)) if d is None]
        if missing:
            raise LookupError(f"the database holds no {game_id} rules version {', '.join(missing)}")
        outline = "select id, number, parent_number, heading from rules where document_id = ? order by position"
        # The same version translates nothing, so its outline is not read.
        rows = [] if self.same else list(db.query(outline, [self.from_document]))
        self.ids = {row["number"]: row["id"] for row in rows}
        self.parents = {row["number"]: row["parent_number"] for row in rows}
        self.children: dict[str, list[str]] = {}
        self.sections: dict[str, str | None] = {}
        current = None
        for row in rows:
            if row["heading"]:
                current = row["number"]
            self.sections[row["number"]] = current
            if row["parent_number"]:
                self.children.setdefault(row["parent_number"], []).append(row["number"])
        self.in_other_version = lru_cache(maxsize=None)(self._in_other_version)
        self.direct = lru_cache(maxsize=None)(self._versioned(self._direct, "direct"))
        self.nearest = lru_cache(maxsize=None)(self._versioned(self._nearest, "nearest"))
        self.from_others: dict[str, CitationTranslator | None] = {}

    @property
    def db(self) -> sqlite_utils.Database:
        """The connection read through: a translator made for a number cited in another version (`outer` is the
        translator that made it) reads through its maker's, whichever connection that was lent since."""
        return self.outer.db if self.outer is not None else self._db

    @db.setter
    def db(self, db: sqlite_utils.Database) -> None:
        if self.outer is not None:
            raise AttributeError("a translator made for another version reads through the translator that made it")
        self._db = db

    def _versioned(self, translate, name: str):
        """`translate` for the engine's numbers; a number cited in another version goes through that version's
        own translator (itself when it is the version translated into)."""

        def translated(citation: str) -> str | None:
            if is_faq(citation):
                return citation  # an official FAQ's entry is the same in every version (queries.faq_rulings)
            number, version = split_versioned(citation)
            if version is None or version == self.from_version:
                return translate(number)
            if version == self.to_version:
                return number
            if version not in self.from_others:
                try:
                    self.from_others[version] = CitationTranslator(
                        self.db, self.game_id, version, self.to_version, outer=self
                    )
                except LookupError:  # a version the database does not hold: the number has no counterpart here
                    self.from_others[version] = None
            other = self.from_others[version]
            return getattr(other, name)(number) if other is not None else None

        return translated

    def _in_other_version(self, number: str) -> list[tuple[str, str]]:
        """The rule's equivalents in the other version, ``(number, kind)``: the lineage is walked once per rule,
        though both `direct` and `nearest` may ask."""
        rule_id = self.ids.get(number)
        if rule_id is None:
            return []
        return [
            (other, kind)
            for document_id, _, other, kind in equivalents(self.db, rule_id)
            if document_id == self.to_document
        ]

    def _counterpart(self, number: str, own: bool = True) -> str | None:
        """The rule's counterpart in the other version; `own=False` also takes the lineage's stand-in for a rule
        without one (its nearest ancestor's counterpart, kind "ancestor")."""
        return next((other for other, kind in self.in_other_version(number) if kind != "ancestor" or not own), None)

    def _direct(self, number: str) -> str | None:
        """The rule's own counterpart, or (a heading restructured away) its first sub-rule's."""
        if self.same:
            return number
        found = self._counterpart(number)
        pending = list(self.children.get(number, ()))
        while found is None and pending:
            child = pending.pop(0)
            found = self._counterpart(child)
            pending[:0] = self.children.get(child, ())
        return found

    def _nearest(self, number: str) -> str | None:
        """The counterpart of the rule, else of its nearest ancestor, else of its section's heading."""
        candidates: list[str] = []
        candidate: str | None = number
        while candidate and candidate not in candidates:
            candidates.append(candidate)
            candidate = self.parents.get(candidate)
        section = self.sections.get(candidates[-1])
        if section:
            candidates.append(section)
        return next((found for found in (self._counterpart(c, own=False) for c in candidates) if found), None)

    def __call__(self, numbers) -> list[str]:
        """One step's numbers translated, in order, without repeats or numbers that have no counterpart."""
        return list(dict.fromkeys(n for n in step_counterparts(list(numbers), self.direct, self.nearest) if n))


def step_counterparts(numbers: list[str], direct, nearest) -> list:
    """What one step's numbers are in another version: each its own counterpart (`direct`); only when none of them
    has one, each its nearest ancestor's (`nearest`), so that the step still points where its rules would be, and
    an ancestor's stand-in never sits beside a rule that has its counterpart."""
    found = [direct(number) for number in numbers]
    return found if any(found) else [nearest(number) for number in numbers]


@dataclass
class ReplayRecord:
    """One replay as the database keeps it, before it is linked to the rulings, rules and cards of the
    database: plain data, made where the replay ran (the build's second process)."""

    row: dict  # its ``replays`` row but for ruling_id and rules_document_id
    ruling_position: int | None
    rules_version: str
    cited_version: str
    steps: list[tuple[int, dict, list[str]]]  # each step: its depth, its ``replay_steps`` columns, the numbers it cites
    real_cards: list[str]  # the real cards its scenario uses


def library_batches() -> list[list[Path]]:
    """The scenario library's files in batches, in ruling order: each batch one task of a build, so that whichever
    of its processes is free replays the next (``Timeline.take_over``)."""
    from scenarios import library_paths

    paths = library_paths()
    return [paths[start : start + SCENARIOS_PER_TASK] for start in range(0, len(paths), SCENARIOS_PER_TASK)]


SCENARIOS_PER_TASK = 8  # a few hundredths of a second of replaying: a process taking one over never waits long


def replay_files(paths: list[Path]) -> tuple[list[ReplayRecord], list[str]]:
    """The scenarios of ``paths`` replayed, and why each file that could not be read was left out (its file
    and line)."""
    from scenarios.replay import replay_file
    from scenarios.schema import ScenarioError

    records, errors = [], []
    for path in paths:
        try:
            records.append(replay_record(replay_file(path)))
        except ScenarioError as error:
            errors.append(str(error))
    return records, errors


def replay_record(replay) -> ReplayRecord:
    text, scenario = _scenario(replay.file)
    return ReplayRecord(
        row={
            "id": replay.scenario_id,
            "title": replay.title,
            "file": f"scenarios/library/{Path(replay.file).name}",  # never a path of the build machine
            "verdict": replay.verdict,
            "expected": _as_json(replay.expected),
            "computed": _as_json(replay.computed),
            "step_count": replay.step_count,
            "disagreement": replay.disagreement,
            "tags": json.dumps(_tags(scenario)),
            "scenario": text,
        },
        ruling_position=replay.ruling_position,
        rules_version=replay.rules_version,
        cited_version=replay.cited_version,
        steps=[
            (
                depth,
                {
                    "kind": str(step.kind),
                    "summary": step.summary,
                    "objects": json.dumps(step.object_ids()),
                    "change": _as_json(step.change),
                },
                list(step.rules),
            )
            for depth, step in replay.walk()
        ],
        real_cards=sorted(_real_cards(scenario)),
    )


# A replay's values as JSON, keys sorted (one encoder for all: json.dumps makes one per call when given options)
_as_json = json.JSONEncoder(sort_keys=True, default=str).encode


class ReplayStore:
    """Replays stored as they come, batch by batch in the order given (a build stores each batch while its second
    process still replays the next): the steps' ids follow on from one batch to the next, and each rules version and
    pair of versions is looked up once for them all."""

    def __init__(self, db: sqlite_utils.Database, game_id: str = "riftbound"):
        self.db, self.game_id = db, game_id
        # A scenario's meta.ruling numbers the rulings of the game's first rulings document (the Q&A rulings
        # the library was written for); later rulings documents (the Riftbound FAQ) number theirs from 1 too.
        self.rulings: dict[int, int] = {}
        for row in db.query(
            "select r.position, r.id from rulings r join documents d on d.id = r.document_id where d.game_id = ? "
            "order by r.id",
            [game_id],
        ):
            self.rulings.setdefault(row["position"], row["id"])
        self.step_id = db.execute("select coalesce(max(id), 0) from replay_steps").fetchone()[0]
        self.card_ids = _card_ids(db, game_id)
        self.translators: dict[tuple[str, str], CitationTranslator] = {}
        # looked up once per rules version, not per replay
        self.by_version: dict[str, tuple[str | None, dict[str, int]]] = {}
        self.counts = dict.fromkeys(["replays", "matching", "replay steps", "step citations", "replay cards"], 0)
        self.uncited: set[str] = set()

    def add(self, records: list[ReplayRecord]) -> None:
        """Store a batch of replays."""
        if not records:
            return
        stored, steps, citations, used_cards = [], [], [], []
        for record in records:
            document_id, rule_ids = self._version(record.rules_version)
            cite = self._translator(record.cited_version, record.rules_version)
            replay_id = record.row["id"]
            ruling_id = self.rulings.get(record.ruling_position) if record.ruling_position is not None else None
            stored.append({**record.row, "ruling_id": ruling_id, "rules_document_id": document_id})
            used_cards += [
                {"replay_id": replay_id, "card_id": card_id}
                for card_id in sorted({self.card_ids[name] for name in record.real_cards if name in self.card_ids})
            ]
            parents: list[int] = []
            for position, (depth, step, numbers) in enumerate(record.steps, start=1):
                self.step_id += 1
                del parents[depth:]
                steps.append(
                    {
                        "id": self.step_id,
                        "replay_id": replay_id,
                        "position": position,
                        "parent_step_id": parents[-1] if parents else None,
                        "depth": depth,
                        **step,
                    }
                )
                parents.append(self.step_id)
                for number in cite(numbers):
                    # a FAQ entry is kept as its citation (no rule_id): pages resolve it to its ruling when held
                    citations.append({"step_id": self.step_id, "rule_id": rule_ids.get(number), "number": number})
                    if number not in rule_ids and not is_faq(number):
                        self.uncited.add(f"{record.rules_version} {number}")
        self.db.table("replays").insert_all(stored)
        store.insert_rows(self.db, "replay_steps", steps)
        store.insert_rows(self.db, "replay_step_citations", citations)
        self.db.table("replay_cards").insert_all(used_cards)
        for name, added in (
            ("replays", len(records)),
            ("matching", sum(record.row["verdict"] == "match" for record in records)),
            ("replay steps", len(steps)),
            ("step citations", len(citations)),
            ("replay cards", len(used_cards)),
        ):
            self.counts[name] += added

    def figures(self) -> dict:
        """What was stored in all: the counts, and the citations of rules the database lacks."""
        return {**self.counts, "citations of missing rules": sorted(self.uncited)}

    def _version(self, version: str) -> tuple[str | None, dict[str, int]]:
        """The rules document of a version and its rules' ids by number."""
        if version not in self.by_version:
            document = versions.rules_document(self.db, self.game_id, version)
            document_id = document["id"] if document else None
            self.by_version[version] = (document_id, store.rule_ids(self.db, document_id))
        return self.by_version[version]

    def _translator(self, cited_version: str, rules_version: str) -> CitationTranslator:
        pair = (cited_version, rules_version)
        if pair not in self.translators:
            self.translators[pair] = CitationTranslator(self.db, self.game_id, *pair)
        return self.translators[pair]


def _card_ids(db: sqlite_utils.Database, game_id: str) -> dict[str, int]:
    return {row["name"]: row["id"] for row in db.query("select name, id from cards where game_id = ?", [game_id])}


def _scenario(scenario_file: str) -> tuple[str | None, dict]:
    """The scenario file's text and its YAML data (None and {} when the replay names no readable file)."""
    if not scenario_file or not Path(scenario_file).is_file():
        return None, {}
    path = Path(scenario_file)
    from scenarios import schema  # the engine's modules are loaded by the process that replays, not the one storing

    return path.read_text(encoding="utf-8"), schema.load(path)[1]  # the replay's own parse, reused


def _tags(document: dict) -> list[str]:
    meta = document.get("meta")
    tags = meta.get("tags") if isinstance(meta, dict) else None
    return [str(tag) for tag in tags] if isinstance(tags, list) else []


def _real_cards(document: dict) -> set[str]:
    """The real card names a scenario uses: every ``card:`` value (setup, actions, variants)
    that names a library card modelling a real one. Action ``card:`` values are object ids,
    which name no library card, so they drop out; made-up test cards have no real name."""
    if not document:
        return set()
    from scenarios.cards import load_library

    library = load_library()
    return {real for name in _card_values(document) if name in library and (real := library[name].real)}


def _card_values(node) -> set[str]:
    if isinstance(node, dict):
        found = {node["card"]} if isinstance(node.get("card"), str) else set()
        return found.union(*(_card_values(value) for value in node.values()))
    if isinstance(node, list):
        return set().union(*(_card_values(value) for value in node))
    return set()
