"""Building the database: parse every document, link them, and swap the result in atomically.

The database is written to a temporary file beside the target and renamed over it only when everything succeeded,
so a failed build leaves the previous database exactly as it was (``build_processes``: that file and the second
process that works beside the build).
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlite_utils

from ingest.card_names import CardMention, find_card_mentions
from ingest.documents import BUNDLED, DocumentSpec
from ingest.errors import IngestError
from ingest.formats import adapter, complete, expand, spec_for
from ingest.lemmas import find_phrases, load_tokenizer, token_memo
from ingest.limits import check_rules
from ingest.outline import coverage, ingested_share
from ingest.source import digest, read_lines
from ingest.text import paragraph
from rules_db import (
    aliases,
    bans,
    card_readings,
    cards,
    in_force,
    lineage_store,
    links,
    replays,
    schema,
    search_vectors,
    store,
)
from rules_db.build_processes import second_process, temporary_database
from rules_db.lineage import KINDS, compute_lineage
from rules_db.lineage_store import VersionPair
from rules_db.timeline import Span, Timeline
from scenarios.collector import collector_paused

Echo = Callable[[str], None]

# Documents that are data (JSON or tables), not text read line by line: card lists, errata, ban and set lists.
DATA_KINDS = ("cards", "errata", "bans")


@dataclass
class DocumentReport:
    spec: DocumentSpec
    counts: dict[str, int | float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # what a judge should look at: dangling references, unknown names
    error: str | None = None
    reissue_of: str | None = None  # the stored version whose rules this document repeats word for word

    def line(self) -> str:
        if self.error:
            return f"{self.spec.slug}: FAILED: {self.error}"
        figures = ", ".join(
            f"{value:.2%} {name}" if isinstance(value, float) else f"{value} {name}"
            for name, value in self.counts.items()
        )
        return "\n".join([f"{self.spec.slug}: {figures}", *(f"  {note}" for note in self.notes)])

    def add(self, figures: dict) -> None:
        """Record counts; a list of names is counted, and each name becomes a note."""
        for name, value in figures.items():
            if isinstance(value, (list, tuple)):
                self.notes.extend(f"{name}: {item}" for item in value)
                value = len(value)
            if isinstance(value, (int, float)):
                self.counts[name] = value


@dataclass
class BuildResult:
    reports: list[DocumentReport]
    timings: dict[str, float]
    notes: list[str] = field(default_factory=list)
    timeline: list[Span] = field(default_factory=list)  # each stage and task of both processes (rules_db.timeline)

    @property
    def failed(self) -> list[DocumentReport]:
        return [report for report in self.reports if report.error]

    @property
    def stored(self) -> list[DocumentReport]:
        """The documents stored as documents of their own: not a reissue of a version already stored."""
        return [report for report in self.reports if not report.reissue_of]


class BuildFailed(Exception):
    """Some documents could not be ingested; the previous database was kept."""

    def __init__(self, result: BuildResult):
        self.result = result
        super().__init__("; ".join(report.error for report in result.failed if report.error))


def bundled_specs() -> list[DocumentSpec]:
    return list(BUNDLED)


def specs_for(paths: list[str | Path]) -> list[DocumentSpec]:
    """The documents at ``paths`` (files, document folders, folders of documents), or the bundled ones."""
    return [spec for path in paths for spec in _specs_at(Path(path))] if paths else bundled_specs()


def _specs_at(path: Path) -> list[DocumentSpec]:
    """A file or a folder that is one document (a rulings folder), else each document inside a folder; a folder's
    entry that no format recognises (its README) is left out, a named file never."""
    if not path.is_dir():
        return [spec_for(path)]
    try:
        return [spec_for(path)]
    except IngestError:
        found = []
        for entry in sorted(path.iterdir()):
            if entry.name.startswith(".") or entry.is_symlink():
                continue
            try:
                found.append(spec_for(entry))
            except IngestError:
                continue
        if not found:
            raise
        return found


# What a document needs stored before it: a game's default rulebook before its others (their references point
# into it), its rules before its rulings (cited there), its cards before their errata and bans (linked by name).
_NEEDS = {"rules": 1, "rulings": 2, "cards": 3, "errata": 4, "bans": 5}


def _rank(spec: DocumentSpec) -> int:
    return 0 if spec.kind == "rules" and spec.rulebook in (None, "core") else _NEEDS.get(spec.kind, 5)


def in_build_order(specs: list[DocumentSpec]) -> tuple[list[DocumentSpec], list[str]]:
    """The documents in an order where each comes after what it needs (stable: the bundled manifest, already in
    such an order, is unchanged), each stored once: the same document given twice (the same content, or the same
    path) is kept once, with a note. Two different documents claiming one name are refused."""
    unique: dict[str, DocumentSpec] = {}
    notes = []
    for spec in specs:
        kept = unique.get(spec.slug)
        if kept is None:
            unique[spec.slug] = spec
        elif _same_document(kept, spec):
            notes.append(f"{spec.path} was given twice: stored once")
        else:
            raise IngestError(
                spec.path, None, f"one document named {spec.slug!r}", f"a second one beside {kept.path}, another text"
            )
    waiting, ordered = list(unique.values()), []
    while waiting:
        ready = next(spec for spec in waiting if not any(_needs(spec, other) for other in waiting))
        waiting.remove(ready)
        ordered.append(ready)
    return ordered, notes


def _needs(spec: DocumentSpec, other: DocumentSpec) -> bool:
    """Whether ``other`` is to be stored before ``spec``: what ``spec`` needs, or an earlier version of its
    rulebook (so that a reissue of a version, the same rules under a later date, is recognised as one)."""
    if other.game != spec.game:
        return False
    earlier_version = (
        spec.kind == other.kind == "rules"
        and spec.rulebook == other.rulebook
        and (other.version_date or other.version) < (spec.version_date or spec.version)
    )
    return _rank(other) < _rank(spec) or earlier_version


def _same_document(one: DocumentSpec, other: DocumentSpec) -> bool:
    return one.path.resolve() == other.path.resolve() or _digest_or_none(one.path) == _digest_or_none(other.path)


def _digest_or_none(path: Path) -> str | None:
    try:
        return digest(path)
    except OSError:
        return None


def build(
    db_path: str | Path,
    specs: list[DocumentSpec] | None = None,
    *,
    keep_going: bool = False,
    echo: Echo = lambda message: None,
    progress: Callable | None = None,
    processes: int = 2,
) -> BuildResult:
    """Build the database at ``db_path`` from ``specs`` (the bundled documents by default).

    A document that cannot be parsed is reported with its file and line; the
    database is then left untouched unless ``keep_going`` asks for one without it.
    With ``processes=2`` the text tagging (spaCy, loaded there while this process parses: the keywords in each
    rulebook's rules and in the rulings, the cards the rulings name), the version lineage and the scenario
    replays are computed in a second process while this one parses and stores the documents, links them and
    indexes; only this one writes the database, and it never loads spaCy. When this one would wait for the second,
    it replays the batches of scenarios still queued there itself (``Timeline.take_over``): small tasks that need no
    spaCy, so that neither process idles while the other has work either can do. ``processes=1`` does everything here.
    """
    given = [each for spec in (bundled_specs() if specs is None else specs) for each in expand(spec)]
    specs, notes = in_build_order(given)  # a file of several articles is one document per article (expand)
    token_memo.cache_clear()  # this build's texts tokenized afresh: memory holds one build's vocabulary at most
    db_path = Path(db_path)
    db_path.parent.mkdir(parents=True, exist_ok=True)
    with temporary_database(db_path) as (temp_path, commit), second_process(processes, temp_path) as helper:
        builder = _Builder(schema.bulk_loader(temp_path), helper)
        result = builder.run(specs, keep_going, progress)
        result.notes[:0] = notes
        commit()
    for report in result.reports:
        echo(report.line())
    for note in result.notes:
        echo(note)
    return result


class _Builder:
    """One build: the database being written, stage timings, and what waits for linking."""

    def __init__(self, db: sqlite_utils.Database, helper: Executor):
        self.db = db
        self.helper = helper  # runs the work that needs nothing from the database being written
        self.timings: dict[str, float] = {}
        self.timeline = Timeline()
        self.explicit_citations: dict[int, list[tuple[str, ...]]] = {}
        self.related: dict[str, dict[int, list[str]]] = {}  # rulings document -> ruling id -> related targets
        self.tagged_cards: dict[str, list[CardMention]] = {}  # rulings document -> cards its source tags
        # rules document -> its rules' ids, and the keywords the helper is finding in their texts
        self.rule_keywords: dict[str, tuple[list[int], Future]] = {}
        self.ruling_keywords: dict[str, Future] = {}  # rulings document -> the keywords found in its rulings
        self.card_mentions: dict[str, Future] = {}  # rulings document the source does not tag -> the cards found
        self.rulebook_texts: dict[tuple[str, str], dict[str, str]] = {}  # (game, rulebook) -> rules' digest -> slug

    def run(self, specs: list[DocumentSpec], keep_going: bool, progress: Callable | None) -> BuildResult:
        # The collector is paused in both processes (the helper, forked inside, is forked paused): what either builds
        # stays alive until the database is written, so their passes, each over a whole growing heap, would free
        # nothing (a full pass walks spaCy's and the engine's modules in the helper, the documents here).
        with collector_paused():
            return self._stages(specs, keep_going, progress)

    def _stages(self, specs: list[DocumentSpec], keep_going: bool, progress: Callable | None) -> BuildResult:
        # The helper first, forked as early as can be: it loads spaCy while this process creates the tables and parses.
        self._submit("load spaCy", load_tokenizer)
        schema.create(self.db)
        reports = [self._ingest(spec) for spec in (progress(specs) if progress else specs)]
        result = BuildResult(reports, self.timings, timeline=self.timeline.spans)
        if result.failed and not keep_going:
            raise BuildFailed(result)
        stored = result.stored
        with self.timeline.stage("link versions and cross-references"):
            store.link_versions(self.db)
            in_force.store(self.db, games={row["id"] for row in self.db.query("select id from games")})
            store.resolve_cross_references(self.db)
            self._start_ruling_tags(stored)
            lineages = self._start_lineage(stored)
            replaying = self._start_replays(specs)  # last in the second process's queue: stored last
        with self._stage("spaCy tagging and linking"):
            for report in stored:
                if not report.error:
                    self._link(report)
            self._link_cards(stored)
        with self._stage("search index"):  # while the second process still matches the versions
            schema.enable_search(self.db)
        with self._stage("search vectors"):  # each text no build embedded before (none, on a rebuild)
            search_vectors.build(self.db, result.notes.append)
        with self._stage("version lineage"):
            self._store_lineage(stored, lineages)
        with self._stage("search aliases"):  # mined from the rules and their lineage
            aliases.build(self.db)
        with self._stage("scenario replays"):
            self._replay_scenarios(result, replaying)
        self.db.conn.commit()
        self.db.close()
        return result

    @contextmanager
    def _stage(self, stage: str, detail: str = "") -> Iterator[None]:
        """A stage of this process: its seconds add up in the timings, and it joins the timeline."""
        with _timed(self.timings, stage), self.timeline.stage(f"{stage} {detail}".strip()):
            yield

    def _submit(self, task: str, fn: Callable, *args, movable: bool = False) -> Future:
        """``fn(*args)`` run by the helper, on the timeline as ``task``; a ``movable`` task (a short one that needs
        no spaCy: this process never loads it) may be taken over by this process while it waits for the helper."""
        return self.timeline.submit(self.helper, task, fn, *args, movable=movable)

    def _ingest(self, spec: DocumentSpec) -> DocumentReport:
        """Parse and store one document; its error, if any, in the report."""
        report = DocumentReport(spec, notes=list(spec.warnings))
        try:
            with self._stage("parse", spec.slug):
                parsed, lines = _parse(spec)
            if lines:
                report.spec = complete(spec, lines)
            with self._stage("write", spec.slug):
                report.add(self._store(report, parsed, lines))
        except IngestError as error:
            report.error = str(error)
        return report

    def _reissued(self, spec: DocumentSpec, parsed) -> str | None:
        """The version of the same rulebook already stored whose rules are these, word for word (Riot reissues a
        version with a new "Last Updated" date and the same rules), else None; this one is then remembered."""
        rules = "\n".join(f"{rule.number}\t{paragraph(rule.raw_text)}" for rule in parsed.rules)
        stored = self.rulebook_texts.setdefault((spec.game, spec.rulebook or "core"), {})
        key = hashlib.sha256(rules.encode()).hexdigest()
        if key in stored:
            return stored[key]
        stored[key] = spec.slug
        return None

    def _store(self, report: DocumentReport, parsed, lines: list[str]) -> dict:
        db, spec = self.db, report.spec
        if spec.kind in DATA_KINDS:
            store.store_document(db, spec, parsed.entries, parsed.entries, [])
            store.store_report(db, spec.slug, parsed.issues, [])
            if spec.kind == "cards":
                return cards.store_cards(db, spec.game, spec.slug, parsed)
            if spec.kind == "bans":
                return bans.store_bans(db, spec.game, spec.slug, parsed)
            return cards.store_errata(db, spec.game, spec.slug, parsed)
        if spec.kind == "rules" and (stored_as := self._reissued(spec, parsed)):
            report.reissue_of = stored_as
            store.store_reissue(db, stored_as, spec)
            report.notes.append(f"the same rules as {stored_as}: stored as its reissue dated {spec.version_date}")
            return {"rules": len(parsed.rules)}
        line_count = len(lines) or parsed.line_count
        store.store_document(db, spec, line_count, parsed.nonblank_lines, parsed.skipped)
        store.store_report(db, spec.slug, parsed.issues, parsed.skipped)
        if spec.kind == "rules":
            ids = store.store_rulebook(db, spec, parsed)
            rules = links.rule_texts(db, spec.slug)
            self.rule_keywords[spec.slug] = (
                [rule_id for rule_id, _ in rules],
                self._submit(
                    f"keywords in {spec.slug}",
                    find_phrases,
                    links.keyword_phrases(db, spec.slug),
                    [t for _, t in rules],
                ),
            )
            return {
                "rules": len(ids),
                "keywords": len(parsed.keywords),
                "cross-references": sum(len(ref.target_numbers) for ref in parsed.references),
                **({"infractions": len(parsed.infractions)} if parsed.infractions else {}),
                "lines skipped": len(parsed.skipped),
                "issues reported": len(parsed.issues),
                **_coverage(parsed),
            }
        ruling_ids = store.store_rulings(db, spec, parsed)
        if parsed.published:
            store.store_faq_article(db, spec, parsed)
        for ruling in parsed.rulings:
            self.explicit_citations[ruling_ids[ruling.position]] = [
                (c.number, c.raw_text, c.quote) for c in ruling.citations
            ]
        self.related[spec.slug] = {
            ruling_ids[ruling.position]: ruling.related for ruling in parsed.rulings if ruling.related
        }
        tagged = [
            CardMention(ruling.position, name, name, "tagged")
            for ruling in parsed.rulings
            for name in ruling.card_names
        ]
        if tagged:
            self.tagged_cards[spec.slug] = tagged
        return {
            "entries": len(parsed.rulings),
            **({"notes about the source": len(parsed.notes)} if parsed.notes else {}),  # not rulings
            "steps": sum(len(r.steps) for r in parsed.rulings),
            "nuances": sum(len(r.nuances) for r in parsed.rulings),
            "citations": sum(len(r.citations) for r in parsed.rulings),
            "lines skipped": len(parsed.skipped),
            **_coverage(parsed),
        }

    def _link(self, report: DocumentReport) -> None:
        spec = report.spec
        if spec.kind == "rules":
            report.add(
                {
                    "dangling references": [
                        f"{row['target_number']} from rule {row['number']} ({row['raw_text']!r})"
                        for row in self.db.query(
                            "select f.number, x.target_number, x.raw_text from rule_refs x "
                            "join rules f on f.id = x.from_rule_id "
                            "where x.document_id = ? and x.status = 'dangling' order by f.position",
                            [spec.slug],
                        )
                    ],
                    "keyword mentions": self._link_rule_keywords(spec.slug),
                }
            )
        elif spec.kind == "rulings":
            found = self.ruling_keywords.pop(spec.slug).result()
            figures = links.link_rulings(self.db, spec.slug, self.explicit_citations, found)
            report.add(
                {
                    name: figures[name]
                    for name in (
                        "citations",
                        "unresolved citations",
                        "citations read by their quoted text",
                        "rules versions not in the database",
                    )
                }
            )
            if self.related.get(spec.slug):
                report.add(links.link_relations(self.db, spec.slug, self.related[spec.slug]))

    def _link_rule_keywords(self, slug: str) -> int:
        """The keyword mentions the helper found in a rulebook's rules, stored (and let go)."""
        rule_ids, finding = self.rule_keywords.pop(slug)
        return links.link_rule_keywords(self.db, zip(rule_ids, finding.result()))

    def _start_ruling_tags(self, reports: list[DocumentReport]) -> None:
        """The keywords in each rulings document's rulings, and the cards named in those its source does not
        tag, found in the helper (from the rulings, keywords and cards already stored)."""
        for report in reports:
            if report.spec.kind == "rulings" and not report.error:
                searches = links.ruling_keyword_searches(self.db, report.spec.slug)
                self.ruling_keywords[report.spec.slug] = self._submit(
                    f"keywords in {report.spec.slug}", links.find_ruling_keywords, searches
                )
        for report in _card_lists(reports):
            for rulings in _rulings_of(reports, report.spec.game):
                if rulings.spec.slug not in self.tagged_cards:
                    searched = cards.card_mention_search(self.db, report.spec.game, rulings.spec.slug)
                    self.card_mentions[rulings.spec.slug] = self._submit(
                        f"cards in {rulings.spec.slug}", find_card_mentions, *searched
                    )

    def _start_replays(self, specs: list[DocumentSpec]) -> list[Future]:
        """The scenario library replayed in the helper, batch by batch (it needs nothing from the database), if
        the build holds Riftbound rules for the replays to cite."""
        if not any(spec.game == "riftbound" and spec.kind == "rules" for spec in specs):
            return []
        batches = replays.library_batches()
        return [
            self._submit(f"replay scenarios batch {number}/{len(batches)}", replays.replay_files, batch, movable=True)
            for number, batch in enumerate(batches, start=1)
        ]

    def _replay_scenarios(self, result: BuildResult, started: list[Future]) -> None:
        """Store the replays of the scenario library when the Riftbound rules are in the database;
        a scenario file that cannot be read is reported and left out."""
        if not started or not self.db["documents"].count_where("game_id = 'riftbound' and kind = 'rules'"):
            return
        versions = {
            row["version"]
            for row in self.db.query("select version from documents where game_id = 'riftbound' and kind = 'rules'")
        }
        stored, unreadable, missing_versions = replays.ReplayStore(self.db), [], Counter[str]()
        for batch in started:  # each stored once replayed, while the helper replays the next (or this one, queued)
            found, errors = batch.result()
            unreadable += errors
            lacking = [_version_not_held(record, versions) for record in found]
            stored.add([record for record, version in zip(found, lacking) if version is None])
            missing_versions.update(version for version in lacking if version is not None)
        result.notes.extend(f"scenario not replayed: {error}" for error in unreadable)
        result.notes.extend(
            f"{count} scenarios not stored: they cite the {version} rules, which this build does not hold"
            for version, count in missing_versions.items()
        )
        figures = stored.figures()
        result.notes.append(
            "scenarios: "
            + ", ".join(f"{value} {name}" for name, value in figures.items() if not isinstance(value, list))
        )
        result.notes.extend(
            f"replay cites a rule missing from the database: {number}"
            for number in figures["citations of missing rules"]
        )

    def _start_lineage(self, reports: list[DocumentReport]) -> deque[tuple[VersionPair, Future]]:
        """Each pair of consecutive versions of a rulebook still to match, its matching under way in the
        helper (it needs only the rules, read here)."""
        games = {report.spec.game for report in reports if report.spec.kind == "rules" and not report.error}
        return deque(
            (pair, self._submit(f"lineage of {pair.new_document_id}", compute_lineage, pair.old_rules, pair.new_rules))
            for game in sorted(games)
            for pair in lineage_store.pairs_to_link(self.db, game)
        )

    def _store_lineage(self, reports: list[DocumentReport], lineages: deque[tuple[VersionPair, Future]]) -> None:
        """Store which rule of each version became which rule of the next; the counts go to the newer
        version's report."""
        by_slug = {report.spec.slug: report for report in reports}
        while lineages:  # each pair's rows let go once stored
            pair, rows = lineages.popleft()
            counts = lineage_store.store_pair(self.db, pair, rows.result())
            old_version = self.db.table("documents").get(pair.old_document_id)["version"]
            by_slug[pair.new_document_id].notes.append(
                f"lineage from {old_version}: " + ", ".join(f"{counts[kind]} {kind}" for kind in KINDS)
            )

    def _link_cards(self, reports: list[DocumentReport]) -> None:
        """Card keywords link to the newest glossary, each card's text is read for the engine (card_readings), and
        rulings link to the cards they name."""
        for report in _card_lists(reports):
            game = report.spec.game
            report.add(cards.link_card_keywords(self.db, game))
            report.add(card_readings.store_readings(self.db, game))  # the cards' text read for the engine
            for rulings in _rulings_of(reports, game):
                slug = rulings.spec.slug
                if slug in self.tagged_cards:
                    rulings.add(cards.link_tagged_card_mentions(self.db, game, slug, self.tagged_cards[slug]))
                else:
                    found = self.card_mentions[slug].result()
                    rulings.add(cards.link_card_mentions(self.db, game, document_id=slug, found=found))


def _version_not_held(record: replays.ReplayRecord, versions: set[str]) -> str | None:
    """The rules version a replay needs that the build does not hold: the one it is played under, or the one its
    steps' rule numbers are written in (translated into the first through the lineage), if either is missing."""
    return next((version for version in (record.rules_version, record.cited_version) if version not in versions), None)


def _card_lists(reports: list[DocumentReport]) -> list[DocumentReport]:
    """One card list per game (the last: the cards of a game's lists are merged by then), which reports the links
    from the game's cards."""
    last = {report.spec.game: report for report in reports if report.spec.kind == "cards" and not report.error}
    return list(last.values())


def _rulings_of(reports: list[DocumentReport], game: str) -> list[DocumentReport]:
    return [
        report for report in reports if report.spec.kind == "rulings" and report.spec.game == game and not report.error
    ]


def _coverage(parsed) -> dict[str, float]:
    return {
        "coverage": coverage(parsed.nonblank_lines, parsed.skipped),
        "ingested": ingested_share(parsed.nonblank_lines, parsed.skipped),
    }


def _parse(spec: DocumentSpec) -> tuple[Any, list[str]]:
    """The parsed document and its text lines (none for the JSON card files)."""
    if spec.kind in DATA_KINDS:
        return adapter(spec.format).parse_file(spec.path, spec.kind), []
    if spec.part is not None:  # one article of a file that holds several
        return adapter(spec.format).parse_part(spec.path, spec.part), []
    if hasattr(module := adapter(spec.format), "parse_path"):  # a document that is a folder of files
        return module.parse_path(spec.path), []
    lines = read_lines(spec.path)
    parsed = adapter(spec.format).parse(lines, spec.path)
    if spec.kind == "rules":
        check_rules(spec.path, parsed.rules)
    return parsed, lines


@contextmanager
def _timed(timings: dict[str, float], stage: str) -> Iterator[None]:
    start = time.perf_counter()
    try:
        yield
    finally:
        timings[stage] = timings.get(stage, 0.0) + time.perf_counter() - start
