"""Shared fixtures.

``fixture_db`` is a small hand-made database in the real schema: two Riftbound
rulebook versions (with rules such as 443.1.e that exist only in the newer one and
626.1.d.2 that exists only in the older), cross-references (one dangling), the
Recall and Tank keywords with their mentions, rulings with steps, nuances and
citations (one into the older version, so stale), cards with errata, a replay,
a second game, and a HOSTILE rule whose raw text carries scripts, ``javascript:``
links and ``onerror`` attributes. It needs no parser, so page tests run even
while the real build is broken.

``real_db`` builds the real database once per session with ``rules-db build``
(failing with the build's error when it writes no database); ``real_build`` holds
that run and its output. A successful build is kept in pytest's cache under a digest of
what it reads, so the next run with the same code, corpus and packages copies it instead
of building again. Tests using them are marked ``slow``. ``hostile_db`` is built
the same way from ``HOSTILE_RULEBOOK``, a document whose rule text attacks the pages.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.metadata
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
import sqlite_utils
from filelock import FileLock
from hypothesis import HealthCheck, settings

from ingest.text import plain_text
from rules_db import schema
from rules_db.lineage import LineageRow
from rules_db.lineage_store import VersionPair, document_rules, store_pair

# The suite's builds embed nothing (the semantic stage's model costs minutes of CPU on a fresh machine): the semantic
# stage's own tests (tests/test_semantic.py) build their vectors with a stand-in encoder. RULES_DB_ENCODER=stand-in
# (or the model's name) runs the whole suite with one.
os.environ.setdefault("RULES_DB_ENCODER", "off")

# Property-based tests (tests/test_fuzz.py): a few hundred examples per target in the suite, 20 in the edit-run
# loop (``make test-fast`` chooses the ``quick`` profile), 10,000 in the long run (``pytest tests/test_fuzz.py
# --hypothesis-profile=fuzz``). No deadline: the machine is shared.
_FUZZ = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large]}
settings.register_profile("quick", max_examples=20, **_FUZZ)
settings.register_profile("suite", max_examples=200, **_FUZZ)
settings.register_profile("fuzz", max_examples=10_000, **_FUZZ)
settings.load_profile("suite")

HOSTILE_RAW = (
    '<script>window.__pwned = "script"</script>Hostile text with '
    "<a href=\"javascript:window.__pwned='link'\">a javascript link</a>, "
    '<img src="x" onerror="window.__pwned=\'img\'">an image, '
    "<b onclick=\"window.__pwned='click'\">bold</b>, <i>italic</i>, "
    '<svg onload="window.__pwned=\'svg\'"></svg><iframe src="javascript:alert(1)"></iframe>'
    "<style>body{display:none}</style>and a &lt;script&gt; written as text."
)

# A rulebook in the Riftbound Core Rules layout whose rule text attacks the pages; it goes
# through the real ingestion (``rules-db build FILE``) like any document a judge adds.
HOSTILE_RULEBOOK = """Riftbound Core Rules

Last Updated: 2030-01-01

100.\tGame Concepts
101.\t<script>window.__pwned="script"</script>A <a href="javascript:window.__pwned='link'">Unit</a> is a card. \
See rule 103. Recalls for more information.
101.1.\tUnits <img src=x onerror="window.__pwned='img'">have Might.
101.2.\t<b onclick="window.__pwned='click'">Bold</b> and <i onmouseover="window.__pwned='hover'">italic</i> text.
102.\t<svg onload="window.__pwned='svg'"></svg>Cleanups
102.1.\tA Cleanup happens <iframe src="javascript:window.__pwned='frame'"></iframe>often.
103.\tRecalls
103.1.\tTo Recall a unit is to move it. <a href="JaVaScRiPt:window.__pwned='caps'" onclick="window.__pwned='a'">\
Recalled</a> units stay.
103.2.\tA recalled unit <style>body{display:none}</style>is not moved. See rule 102. Cleanups.
104.\tKeywords
104.1.\t<object data="javascript:window.__pwned='object'"></object>Tank: a unit with Tank is dealt damage first.
104.2.\t<math><mi xlink:href="javascript:window.__pwned='math'">x</mi></math><body onload="window.__pwned='body'">
"""

OLD, NEW = "riftbound-core-rules-2025-06-02", "riftbound-core-rules-2025-12-01"
RULINGS_DOC = "riftbound-qa-rulings"
TOURNAMENT = "riftbound-tournament-rules-2026-07-16"
RUNETERRA = "runeterra-unofficial-rulebook"


RULEBOOKS = [
    {"id": "riftbound-core", "game_id": "riftbound", "slug": "core", "title": "Riftbound Core Rules", "is_default": 1},
    {
        "id": "riftbound-tournament",
        "game_id": "riftbound",
        "slug": "tournament",
        "title": "Riftbound Tournament Rules",
        "is_default": 0,
    },
    {
        "id": "runeterra-core",
        "game_id": "runeterra",
        "slug": "core",
        "title": "Legends of Runeterra unofficial Rulebook",
        "is_default": 1,
    },
]


def _documents() -> list[dict]:
    common = {"sha256": "0" * 64, "lines": 100, "nonblank_lines": 90, "coverage": 1.0, "original_name": None}
    return [
        {
            **common,
            "id": OLD,
            "game_id": "riftbound",
            "title": "Riftbound Core Rules",
            "version": "2025-06-02",
            "kind": "rules",
            "source_file": "corpus/riftbound-core-rules-2025-06-02.txt",
            "is_newest": 0,
            "written_against": None,
            "rulebook_id": "riftbound-core",
            "version_date": "2025-06-02",
        },
        {
            **common,
            "id": NEW,
            "game_id": "riftbound",
            "title": "Riftbound Core Rules",
            "version": "2025-12-01",
            "kind": "rules",
            "source_file": "corpus/riftbound-core-rules-2025-12-01.txt",
            "is_newest": 1,
            "written_against": None,
            "rulebook_id": "riftbound-core",
            "version_date": "2025-12-01",
            "previous_id": OLD,
        },
        {
            **common,
            "id": TOURNAMENT,
            "game_id": "riftbound",
            "title": "Riftbound Tournament Rules",
            "version": "2026-07-16",
            "kind": "rules",
            "source_file": "corpus/riftbound-tournament-rules-2026-07-16.txt",
            "is_newest": 1,
            "written_against": None,
            "rulebook_id": "riftbound-tournament",
            "version_date": "2026-07-16",
        },
        {
            **common,
            "id": RULINGS_DOC,
            "game_id": "riftbound",
            "title": "Riftbound Q&A Rulings",
            "version": "2025-12-01",
            "kind": "rulings",
            "source_file": "corpus/riftbound-qa-rulings.txt",
            "is_newest": 1,
            "written_against": "2025-12-01",
        },
        {
            **common,
            "id": RUNETERRA,
            "game_id": "runeterra",
            "title": "Legends of Runeterra unofficial Rulebook",
            "version": "unversioned",
            "kind": "rules",
            "source_file": "corpus/runeterra-unofficial-rulebook.txt",
            "is_newest": 1,
            "written_against": None,
            "rulebook_id": "runeterra-core",
        },
    ]


# (id, document, number, parent number, heading, raw text)
RULES = [
    (1, OLD, "518", None, "Cleanups", "Cleanups"),
    (2, OLD, "518.1", "518", None, "A Cleanup happens after each item on the chain resolves."),
    (3, OLD, "616", None, "Recalls", "Recalls"),
    (4, OLD, "616.1", "616", None, "To <i>Recall</i> a unit is to move it to its owner's base."),
    (5, OLD, "626", None, "The Combat Damage Step", "The Combat Damage Step"),
    (6, OLD, "626.1", "626", None, "When the Showdown closes, combat damage is dealt. See rule 518. Cleanups."),
    (7, OLD, "626.1.d", "626.1", None, "Each player distributes damage among the other's units."),
    (8, OLD, "626.1.d.1", "626.1.d", None, "Units with Tank must be assigned Lethal Damage first."),
    (
        9,
        OLD,
        "626.1.d.2",
        "626.1.d",
        None,
        "Units must have lethal damage assigned in full before damage is assigned to another unit.",
    ),
    (20, NEW, "050", None, "Hostile Rule", HOSTILE_RAW),
    (21, NEW, "318", None, "Cleanups", "Cleanups"),
    (22, NEW, "318.1", "318", None, "A Cleanup happens each time an item on the chain resolves."),
    (23, NEW, "411", None, "Recalls", "Recalls"),
    (
        24,
        NEW,
        "411.1",
        "411",
        None,
        "When a unit is recalled, it moves to its owner's base. See rule 318. Cleanups for more information.",
    ),
    (25, NEW, "443", None, "The Combat Damage Step", "The Combat Damage Step"),
    (26, NEW, "443.1", "443", None, "When the Showdown closes, combat damage is dealt. See rule 999."),
    (
        27,
        NEW,
        "443.1.d",
        "443.1",
        None,
        "Units must have lethal damage assigned in full before damage is assigned to another unit.",
    ),
    (
        28,
        NEW,
        "443.1.e",
        "443.1",
        None,
        "Deal Damage to each unit equal to the amount assigned to it. <b>Tank</b> units are dealt damage first. "
        "See rule 411. Recalls.",
    ),
    (29, NEW, "444", None, "The Resolution Step", "The Resolution Step"),
    (30, NEW, "741", None, "Tank", "Tank: a unit with Tank must be assigned lethal damage first."),
    (31, TOURNAMENT, "702", None, "Game Play Errors", "Game Play Errors"),
    (
        32,
        TOURNAMENT,
        "702.2",
        "702",
        None,
        "Missed Trigger [No Penalty]: The accountable player for a triggered ability doesn't demonstrate "
        "awareness of the trigger. See 702.3 and CR 443.1.",
    ),
    (40, RUNETERRA, "5", None, "Keywords", "Keywords"),
    (41, RUNETERRA, "5.2", "5", None, "**Recall**: a recalled unit returns to its owner's hand."),
]

# (from rule id, to rule id or None, target number, raw text)
REFS = [
    (6, 1, "518", "See rule 518. Cleanups"),
    (24, 21, "318", "See rule 318. Cleanups"),
    (26, None, "999", "See rule 999."),
    (28, 23, "411", "See rule 411. Recalls"),
]

# (id, game, document, term, defining rule id, defining number)
KEYWORDS = [
    (1, "riftbound", NEW, "Recall", 23, "411"),
    (2, "riftbound", NEW, "Tank", 30, "741"),
    (3, "riftbound", OLD, "Recall", 3, "616"),
    (4, "runeterra", RUNETERRA, "Recall", 41, "5.2"),
]

# (keyword id, rule id, ruling id, matched text)
MENTIONS = [
    (1, 24, None, "recalled"),
    (2, 28, None, "Tank"),
    (3, 4, None, "Recall"),
    (4, 41, None, "recalled"),
    (1, None, 1, "recalled"),
    (2, None, 2, "Tank"),
]

RULINGS = [
    {
        "id": 1,
        "position": 1,
        "first_line": 10,
        "question": "When a unit dies and is saved by Hourglass (Zhonyas), is it fully healed?",
        "ruling": "Yes: it is fully healed and recalled to base. See step 443.1.e and step 444.",
    },
    {
        "id": 2,
        "position": 2,
        "first_line": 20,
        "question": "Must a Tank unit be assigned lethal damage before others?",
        "ruling": "Yes, Tank units are assigned lethal damage first (step 443.1.e).",
    },
    {
        "id": 3,
        "position": 3,
        "first_line": 30,
        "question": "Does a cleanup happen after each chain item?",
        "ruling": "Yes, see rule 318.",
    },
]

# (ruling id, rule id, number, raw text, how, keyword id, document)
CITATIONS = [
    (1, 28, "443.1.e", "step 443.1.e", "explicit", None, NEW),
    (1, 29, "444", "step 444", "explicit", None, NEW),
    (1, 9, "626.1.d.2", "rule 626.1.d.2", "explicit", None, OLD),
    (2, 28, "443.1.e", "step 443.1.e", "explicit", None, NEW),
    (2, 30, "741", "Tank", "keyword", 2, NEW),
    (3, 21, "318", "rule 318", "explicit", None, NEW),
]


def build_fixture_db(path: Path) -> Path:
    db = schema.bulk_loader(str(path))
    schema.create(db)
    db["games"].insert_all(
        [{"id": "riftbound", "name": "Riftbound"}, {"id": "runeterra", "name": "Legends of Runeterra"}]
    )
    db["rulebooks"].insert_all(RULEBOOKS)
    db["documents"].insert_all(_documents())
    _insert_rules(db)
    db["rule_refs"].insert_all(
        {
            "document_id": _document_of(db, source),
            "from_rule_id": source,
            "to_rule_id": target,
            "target_number": number,
            "raw_text": raw,
            "status": "resolved" if target else "dangling",
        }
        for source, target, number, raw in REFS
    )
    db["keywords"].insert_all(
        {
            "id": kid,
            "game_id": game,
            "document_id": doc,
            "term": term,
            "kind": "keyword",
            "rule_id": rule,
            "defining_number": number,
            "aliases": "",
        }
        for kid, game, doc, term, rule, number in KEYWORDS
    )
    db["rulings"].insert_all({**ruling, "game_id": "riftbound", "document_id": RULINGS_DOC} for ruling in RULINGS)
    db["keyword_mentions"].insert_all(
        {"keyword_id": k, "rule_id": r, "ruling_id": g, "matched_text": m} for k, r, g, m in MENTIONS
    )
    db["ruling_steps"].insert_all(
        [
            {"ruling_id": 1, "branch": None, "position": 1, "text": "The unit is dealt lethal damage (443.1.e)"},
            {"ruling_id": 1, "branch": None, "position": 2, "text": "Hourglass replaces the death"},
            {"ruling_id": 1, "branch": "If Guardian Angel is chosen", "position": 3, "text": "The unit is recalled"},
        ]
    )
    db["ruling_nuances"].insert_all(
        [
            {"ruling_id": 1, "position": 1, "text": "Damage is cleared because otherwise the unit would still be dead"},
        ]
    )
    db["ruling_citations"].insert_all(
        {
            "ruling_id": ruling,
            "rule_id": rule,
            "number": number,
            "raw_text": raw,
            "how": how,
            "keyword_id": keyword,
            "document_id": doc,
            "written_against": "2025-12-01",
        }
        for ruling, rule, number, raw, how, keyword, doc in CITATIONS
    )
    _insert_cards(db)
    _insert_replay(db)
    _store_lineage(db)
    schema.enable_search(db)
    db.close()
    return path


# The lineage of the two core versions, picked by hand (old rule id, new rule id, kind, similarity): a rule moved, one
# edited, one moved under another heading, one removed, one new.
LINEAGE = [
    (1, 21, "moved", 1.0),
    (2, 22, "edited", 0.9),
    (9, 27, "moved", 1.0),
    (8, None, "removed", None),
    (None, 30, "new", None),
]


def _store_lineage(db: sqlite_utils.Database) -> None:
    """``LINEAGE`` stored by the build's own writer, with what it counts for the diff pages."""
    number = {rule_id: rule_number for rule_id, _document, rule_number, *_ in RULES}
    rows = [LineageRow(kind, number.get(old), number.get(new), similarity) for old, new, kind, similarity in LINEAGE]
    store_pair(db, VersionPair(OLD, NEW, document_rules(db, OLD), document_rules(db, NEW)), rows)


def _insert_rules(db: sqlite_utils.Database) -> None:
    ids = {(doc, number): rid for rid, doc, number, *_ in RULES}
    game = {d["id"]: d["game_id"] for d in _documents()}
    rows = []
    for position, (rid, doc, number, parent, heading, raw) in enumerate(RULES):
        rows.append(
            {
                "id": rid,
                "document_id": doc,
                "game_id": game[doc],
                "number": number,
                "parent_number": parent,
                "parent_id": ids.get((doc, parent)),
                "depth": number.count("."),
                "position": position,
                "section": number.split(".")[0],
                "heading": heading,
                "text": plain_text(raw),
                "raw_text": raw,
                "inferred": 0,
                "source_lines": str(position + 1),
            }
        )
    db["rules"].insert_all(rows)


def _document_of(db: sqlite_utils.Database, rule_id: int) -> str:
    return db["rules"].get(rule_id)["document_id"]


def _insert_cards(db: sqlite_utils.Database) -> None:
    db["cards"].insert_all(
        [
            {
                "id": 1,
                "game_id": "riftbound",
                "name": "Zhonya's Hourglass",
                "slug": "zhonyas-hourglass",
                "card_type": "Gear",
                "domain": "Order",
                "energy": 2,
                "power": 0,
                "might": None,
                "ability_raw": "When a friendly unit would die, kill this instead. Recall that unit.",
                "ability_text": "When a friendly unit would die, kill this instead. Recall that unit.",
                "current_text": "When a friendly unit would die, kill this instead. Heal that unit and recall it.",
                "in_card_list": 1,
            },
            {
                "id": 2,
                "game_id": "riftbound",
                "name": "Garen, Rugged",
                "slug": "garen-rugged",
                "card_type": "Unit",
                "domain": "Order",
                "energy": 5,
                "power": 1,
                "might": 5,
                "ability_raw": "[Tank] :rb_might:",
                "ability_text": "[Tank] (I must be assigned combat damage first.)",
                "current_text": "[Tank] (I must be assigned combat damage first.)",
                "in_card_list": 1,
            },
        ]
    )
    db["card_aliases"].insert_all([{"card_id": 1, "alias": "Hourglass"}, {"card_id": 1, "alias": "Zhonyas"}])
    db["card_mentions"].insert_all(
        [{"card_id": 1, "ruling_id": 1, "surface": "Hourglass"}, {"card_id": 2, "ruling_id": 2, "surface": "Garen"}]
    )
    db["card_printings"].insert_all(
        [
            {
                "id": "ogn-066-298",
                "card_id": 1,
                "card_set": "OGN",
                "collector_number": "066",
                "rarity": "Rare",
                "image_url": "javascript:alert(1)",
            },
        ]
    )
    db["card_errata"].insert_all(
        [
            {
                "card_id": 1,
                "old_text": "When a friendly unit would die, kill this instead. Recall that unit.",
                "new_text": "When a friendly unit would die, kill this instead. Heal that unit and recall it.",
                "card_set": "OGN",
            },
        ]
    )
    db["card_keywords"].insert_all([{"card_id": 2, "keyword_id": 2, "term": "Tank", "value": None}])


def _insert_replay(db: sqlite_utils.Database) -> None:
    db["replays"].insert(
        {
            "id": "hourglass-saves-unit",
            "ruling_id": 1,
            "title": "Hourglass saves a unit from lethal damage",
            "file": "scenarios/library/hourglass.yaml",
            "rules_document_id": NEW,
            "verdict": "match",
            "expected": "unit survives in base",
            "computed": "unit survives in base",
            "step_count": 3,
            "disagreement": None,
            "tags": '["recall", "combat"]',
        }
    )
    db["replay_steps"].insert_all(
        [
            {
                "id": 1,
                "replay_id": "hourglass-saves-unit",
                "position": 1,
                "parent_step_id": None,
                "depth": 0,
                "kind": "step",
                "summary": "Combat damage step",
                "objects": "{}",
                "change": "",
            },
            {
                "id": 2,
                "replay_id": "hourglass-saves-unit",
                "position": 2,
                "parent_step_id": 1,
                "depth": 1,
                "kind": "damage",
                "summary": "Deal 3 damage to the unit",
                "objects": "{}",
                "change": "damage 0 -> 3",
            },
            {
                "id": 3,
                "replay_id": "hourglass-saves-unit",
                "position": 3,
                "parent_step_id": None,
                "depth": 0,
                "kind": "replacement",
                "summary": "Hourglass replaces the death; unit is recalled",
                "objects": "{}",
                "change": "unit moves to base",
            },
        ]
    )
    db["replay_step_citations"].insert_all(
        [{"step_id": 2, "rule_id": 28, "number": "443.1.e"}, {"step_id": 3, "rule_id": 24, "number": "411.1"}]
    )
    db["replay_cards"].insert({"replay_id": "hourglass-saves-unit", "card_id": 1})


@pytest.fixture(scope="session")
def parsed_riftbound():
    """``parsed_riftbound(path)``: a bundled Riftbound rulebook read by its adapter (``ingest.riftbound``), once per
    test process for the modules that read the same books (a parse takes a third of a second). Read it, never
    change it."""
    from ingest import riftbound
    from ingest.source import read_lines

    @functools.cache
    def parsed(path: Path):
        return riftbound.parse(read_lines(path), Path(path.name))

    return parsed


@pytest.fixture(scope="session")
def spacy_loaded() -> None:
    """spaCy's tokenizer loaded in this test process, once, for the tests that build. A build forks its second
    process from the process that runs it (``rules_db.build``), so each build a test runs then starts its second
    process with spaCy loaded, instead of loading it again (a second of CPU per build)."""
    from ingest.lemmas import load_tokenizer

    load_tokenizer()


@pytest.fixture(scope="session")
def fixture_db(tmp_path_factory) -> Path:
    return build_fixture_db(tmp_path_factory.mktemp("fixture") / "rules.db")


@dataclass(frozen=True)
class RealBuild:
    db: Path
    returncode: int
    stdout: str
    stderr: str


ROOT = Path(__file__).resolve().parent.parent
BUILD_INPUTS = ["ingest", "rules_db", "scenarios", "corpus", "pyproject.toml"]  # everything the build reads


def _build_digest(command: list[str]) -> str:
    """A digest of what a build of the bundled corpus reads: the command, the code and data of the layers it
    runs and the corpus (``BUILD_INPUTS``), Python and the installed distributions (spaCy's lemmas are data)."""
    digest = hashlib.sha256(repr([sys.version, command]).encode())
    distributions = sorted(f"{d.metadata['Name']}=={d.version}" for d in importlib.metadata.distributions())
    digest.update(repr(distributions).encode())
    for name in BUILD_INPUTS:
        paths = [ROOT / name] if (ROOT / name).is_file() else sorted((ROOT / name).rglob("*"))
        for path in paths:
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(f"{path.relative_to(ROOT)}\0{path.stat().st_size}\0".encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


class BackgroundBuild:
    """The session's ``rules-db build`` of the bundled corpus, run in the background into a folder all the
    test processes of one run share (the pytest-xdist workers and the controller).

    It starts as soon as collection shows a test that needs it (``pytest_collection_finish``), so the tests
    that do not need it run meanwhile; the first process to ask starts it, under a file lock. A shell around
    the build writes its exit status last, so any process can tell it is finished. A build that succeeded is
    kept in pytest's cache (``.pytest_cache``) under the digest of what it read (``_build_digest``): a later
    run with the same digest copies it instead of building (the tests may read the copy, never the kept one).
    """

    TIMEOUT = 900  # seconds: a build that has not finished by then has hung
    COMMAND = ["build", "--keep-going", "--db"]  # followed by the database's path
    FILES = ["rules.db", "stdout", "stderr"]  # what the build leaves; its "status" is written last

    def __init__(self, config: pytest.Config):
        root = config._tmp_path_factory.getbasetemp()
        if os.environ.get("PYTEST_XDIST_WORKER"):
            root = root.parent  # shared by the workers of this run
        self.folder = root / "real-build"
        self.lock = root / "real-build.lock"
        cache = getattr(config, "cache", None)  # None when the cache provider is turned off (-p no:cacheprovider)
        self.kept = cache.mkdir("real-build") if cache else None

    def start(self) -> None:
        with FileLock(self.lock):
            if (self.folder / "pid").exists():
                return
            self.folder.mkdir(exist_ok=True)
            digest = _build_digest(self.COMMAND)
            (self.folder / "digest").write_text(digest, encoding="utf-8")
            if self._copy_kept(digest):
                (self.folder / "pid").write_text(str(os.getpid()), encoding="utf-8")
                return
            command = Path(sys.executable).parent / "rules-db"
            script = '"$0" "$@" "$DB" >"$OUT/stdout" 2>"$OUT/stderr"; echo $? >"$OUT/status.tmp"; mv "$OUT/status.tmp" "$OUT/status"'
            process = subprocess.Popen(
                ["sh", "-c", script, str(command), *self.COMMAND],
                cwd=ROOT,
                env={**os.environ, "DB": str(self.folder / "rules.db"), "OUT": str(self.folder)},
                start_new_session=True,  # its own process group, stopped whole if the run ends first
            )
            (self.folder / "pid").write_text(str(process.pid), encoding="utf-8")
            _STARTED.append(process)

    def result(self) -> RealBuild:
        self.start()
        status, deadline = self.folder / "status", time.monotonic() + self.TIMEOUT
        pid = int((self.folder / "pid").read_text(encoding="utf-8"))
        while not status.exists():
            if not _running(pid) and not status.exists():
                pytest.fail(f"rules-db build of the corpus ended without an exit status ({self.folder})")
            if time.monotonic() > deadline:
                pytest.fail(f"rules-db build of the corpus did not finish within {self.TIMEOUT} s ({self.folder})")
            time.sleep(0.2)
        output = {name: (self.folder / name).read_text(encoding="utf-8") for name in ("stdout", "stderr")}
        build = RealBuild(self.folder / "rules.db", int(status.read_text(encoding="utf-8")), **output)
        if build.returncode == 0:
            self._keep()
        return build

    def _keep(self) -> None:
        """The finished build copied into the cache under its digest, in place of the builds of other digests.

        Every process of every run that keeps a build takes the cache's lock first: without it, the first worker
        to finish its copy removed the copy another worker was still writing. The copy is written aside, then
        renamed, so a run that reads the cache sees all of it or nothing."""
        if not self.kept:
            return
        digest = (self.folder / "digest").read_text(encoding="utf-8")
        with FileLock(self.kept.with_suffix(".lock")):
            if (self.kept / digest).exists():
                return
            aside = self.kept / f"{digest}.tmp"  # left over only by a run killed while copying
            self._copy(self.folder, aside)
            aside.rename(self.kept / digest)
            for other in self.kept.iterdir():
                if other.name != digest:
                    shutil.rmtree(other, ignore_errors=True)

    def _copy_kept(self, digest: str) -> bool:
        """The build kept under this digest copied into this run's folder, if there is one; under the cache's lock,
        so another run keeping a build of another digest does not remove it mid-copy."""
        if not self.kept:
            return False
        with FileLock(self.kept.with_suffix(".lock")):
            if not (self.kept / digest / "status").exists():
                return False
            self._copy(self.kept / digest, self.folder)
            return True

    @classmethod
    def _copy(cls, source: Path, target: Path) -> None:
        """A finished build's files, its exit status last (written last, it tells the build is complete)."""
        target.mkdir(exist_ok=True)
        for name in [*cls.FILES, "status"]:
            shutil.copyfile(source / name, target / name)

    def stop(self) -> None:
        """End a build still running when the whole run ends (interrupted, or nothing waited for it)."""
        pid = self.folder / "pid"
        if pid.exists() and not (self.folder / "status").exists():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(int(pid.read_text(encoding="utf-8")), signal.SIGTERM)


_STARTED: list[subprocess.Popen] = []  # the builds this process started (a Popen dropped while it runs warns)


def _running(pid: int) -> bool:
    """Whether the process lives (on Linux, a finished child its parent has not reaped yet does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    with contextlib.suppress(OSError):
        return stat.read_text(encoding="utf-8").rsplit(")", 1)[1].split()[0] != "Z"
    return True


def _needs_real_build(item: pytest.Item) -> bool:
    return "real_build" in getattr(item, "fixturenames", ())


def pytest_collection_finish(session: pytest.Session) -> None:
    if any(_needs_real_build(item) for item in session.items):
        BackgroundBuild(session.config).start()


def pytest_sessionfinish(session: pytest.Session) -> None:
    if not os.environ.get("PYTEST_XDIST_WORKER"):  # the whole run is over (the controller, or a run without xdist)
        BackgroundBuild(session.config).stop()


@pytest.fixture(scope="session")
def real_build(pytestconfig) -> RealBuild:
    """``rules-db build`` of the bundled corpus, run once per test run (``real_db`` is its database).

    ``--keep-going`` keeps the pages testable when one document fails; the build's own
    tests are where such a failure shows. Every process of the run shares it (BackgroundBuild).
    """
    build = BackgroundBuild(pytestconfig).result()
    if not build.db.exists():
        pytest.fail(f"rules-db build wrote no database:\n{build.stdout[-2000:]}\n{build.stderr[-2000:]}")
    return build


@pytest.fixture(scope="session")
def real_db(real_build) -> Path:
    """The real database, built once per session from the bundled corpus."""
    return real_build.db


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that needs the real database is slow: ``make test-fast`` leaves it out.

    The order of the modules changes so that both workers of ``make test`` stay busy: first the modules that
    need neither the real database nor the browser (they run while the database builds), then the browser
    modules (the longest tests, started first so they do not end the run alone), then the rest. Within a
    module the order stays as written.
    """
    needs_build, browser = set(), set()
    for item in items:
        if _needs_real_build(item):
            item.add_marker(pytest.mark.slow)
            needs_build.add(item.module)
        if item.get_closest_marker("browser"):
            browser.add(item.module)
    modules = list(dict.fromkeys(item.module for item in items))
    rank = {module: 0 if module not in needs_build | browser else 1 if module in browser else 2 for module in modules}
    items.sort(key=lambda item: rank[item.module])


@pytest.fixture(scope="session")
def real_server(real_db, tmp_path_factory):
    """The real database served by ``rules_db.serve.serve`` for the browser tests of every module, started once
    per worker."""
    from servers import Server

    server = Server(real_db, tmp_path_factory.mktemp("real-server"))
    try:
        server.wait_until_ready()
        yield server.url
    finally:
        server.stop()


class Chromium:
    """Debian's chromium driven by Playwright for the browser tests of one test process, with one page per screen
    size that the tests of every browser module share (each browser costs seconds of CPU to start, each context a
    renderer of its own; a test that changes its page, a dialog listener or the screen's size, puts it back).
    The shared pages' contexts block service workers: a judges' page registers one that answers from its saved
    copy when the network is slow, and a page must not be served from an earlier module's copy (the offline test
    opens a context of its own). A test that fails may leave its page broken: the shared pages are dropped then,
    and opened again when a test next asks (``pytest_runtest_teardown``).

    It starts when a test first asks for it and stops as soon as the process's next test is not a browser test
    (``pytest_runtest_teardown``): Playwright's sync API holds the thread's event loop as running while it lives,
    and the async tests of other modules would fail ("Runner.run() cannot be called from a running event loop").
    The browser modules run one after the other (``pytest_collection_modifyitems``), so a process usually starts
    it once. Playwright's assertions wait as long as pages may take on a machine this busy
    (``servers.patience``)."""

    def __init__(self) -> None:
        self._playwright = None
        self._browser = None
        self._pages: dict[tuple[int, int], object] = {}

    @property
    def browser(self):
        if self._browser is None or not self._browser.is_connected():
            from playwright.sync_api import expect, sync_playwright
            from servers import patience
            from test_browser import CHROMIUM, CHROMIUM_ARGS

            expect.set_options(timeout=patience(5) * 1000)
            if self._playwright is None:  # still running when a launch failed or the browser died
                self._playwright = sync_playwright().start()
            self._pages = {}
            self._browser = self._playwright.chromium.launch(
                executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
            )
        return self._browser

    def page(self, viewport: dict):
        """The shared page of this screen size (its context is the size's own), opened again if it was closed."""
        from test_browser import _open_page

        size = (viewport["width"], viewport["height"])
        browser = self.browser
        if size not in self._pages or self._pages[size].is_closed():
            self._pages[size] = _open_page(browser, viewport, service_workers="block")[1]
        return self._pages[size]

    def drop_pages(self) -> None:
        """Close the shared pages (and their contexts): the next test that asks opens them anew."""
        pages, self._pages = self._pages, {}
        if self._browser is not None and self._browser.is_connected():
            for page in pages.values():
                page.context.close()

    def stop(self) -> None:
        """Close the browser and stop Playwright, each that was started (a launch may have failed)."""
        browser, playwright = self._browser, self._playwright
        self._playwright, self._browser, self._pages = None, None, {}
        try:
            if browser is not None:
                browser.close()  # its contexts and pages with it
        finally:
            if playwright is not None:
                playwright.stop()


_CHROMIUM = Chromium()
_FAILED = pytest.StashKey[bool]()


@pytest.fixture
def chromium() -> Chromium:
    """This test process's browser and its shared pages (``Chromium``)."""
    return _CHROMIUM


@pytest.fixture
def browser(chromium):
    """The browser, for a test that opens a context of its own (pages, storage and service workers apart)."""
    return chromium.browser


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """Whether the test failed (its setup or its call), for ``pytest_runtest_teardown``."""
    report = yield
    if report.failed:
        item.stash[_FAILED] = True
    return report


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None):
    """Once the fixtures are torn down: the browser stops when the next test of this process needs none; the
    shared pages are dropped when the test failed (it may have left its page broken)."""
    try:
        return (yield)
    finally:
        if nextitem is None or not nextitem.get_closest_marker("browser"):
            _CHROMIUM.stop()
        elif item.stash.get(_FAILED, False):
            _CHROMIUM.drop_pages()


@pytest.fixture(scope="session")
def hostile_db(tmp_path_factory, spacy_loaded) -> Path:
    """A database built by ``rules-db build`` from ``HOSTILE_RULEBOOK`` alone (the command run in this process:
    a process of its own would start Python and import spaCy again)."""
    from click.testing import CliRunner

    from rules_db.cli import cli

    folder = tmp_path_factory.mktemp("hostile")
    document = folder / "hostile-rules.txt"
    document.write_text(HOSTILE_RULEBOOK)
    path = folder / "rules.db"
    build = CliRunner().invoke(cli, ["build", "--keep-going", "--db", str(path), str(document)])
    assert path.exists(), build.output[-2000:]
    return path
