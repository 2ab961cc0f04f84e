"""The scenario library: every ruling replays to its encoded answer, variants replay to a different outcome,
and every rule number a trace cites exists in the Core Rules version the scenario names."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest

import scenarios
from scenarios import kernel, schema
from scenarios.replay import compare, render_tree, replay_file, replay_variant
from scenarios.versions import split_versioned

ROOT = Path(__file__).resolve().parents[1]
PATHS = scenarios.library_paths()
RULE_LINE = re.compile(r"^(\d{3}(?:\.\d+)*(?:\.[a-z](?:\.\d+)*)*)\.?\s")


@lru_cache(maxsize=8)
def corpus_rule_numbers(version: str) -> frozenset[str]:
    numbers = set()
    text = (ROOT / "corpus" / f"riftbound-core-rules-{version}.txt").read_text(encoding="utf-8")
    for line in text.splitlines():
        match = RULE_LINE.match(line.strip())
        if match:
            numbers.add(match.group(1).rstrip("."))
    return frozenset(numbers)


def faq_entry(citation: str) -> str:
    """The question and answer of an official FAQ's entry (``faq:<date>#q<N>``, scenarios/versions.py), from the
    FAQ in corpus/ (the Nth bold question of its article, in document order), or "" when it has none."""
    from scenarios import versions

    date, anchor = versions.faq_parts(citation) or ("", "q0")
    paths = sorted((ROOT / "corpus").glob(f"riftbound-*faq-{date}.md"))
    if not paths:
        return ""
    text = paths[0].read_text(encoding="utf-8")
    article = text[text.find("*Published " + date) :] if ("*Published " + date) in text else text
    entries = re.split(r"^\*\*(?=\S)", article, flags=re.MULTILINE)[1:]
    wanted = int(anchor[1:])
    return entries[wanted - 1] if 0 < wanted <= len(entries) else ""


def variant_ids():
    for path in PATHS:
        scenario, _ = schema.load(path)
        for variant in scenario.variants:
            yield pytest.param(path, variant.id, id=f"{path.stem}:{variant.id}")


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_scenario_matches_its_ruling(path):
    replay = replay_file(path)
    assert replay.verdict == "match", render_tree(replay)
    assert replay.step_count > 0


@pytest.mark.parametrize("path,variant", list(variant_ids()))
def test_variant_changes_the_outcome(path, variant):
    base = replay_file(path)
    changed = replay_variant(path, variant)
    assert changed.verdict == "match", render_tree(changed)
    # the variant's expectation must not hold for the unchanged scenario: one input changes the outcome
    from scenarios.replay import observe

    base_outcome = observe(base.state, changed.expected["outcome"])
    # ... at the end, or at a checkpoint both runs observe (the same end reached another way: which Cleanup killed)
    differs = compare(changed.expected["outcome"], base_outcome)
    for label, expect in changed.expected.get("checkpoints", {}).items():
        seen = base.computed.get("checkpoints", {}).get(label)
        differs += compare(expect, seen) if seen is not None and seen.keys() == expect.keys() else []
    assert differs, "the variant's outcome equals the original's, at the end and at every checkpoint"


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_every_cited_rule_exists(path):
    replay = replay_file(path)
    missing = []
    for cited in replay.cited_numbers():
        if cited.startswith("faq:"):  # an official FAQ's entry (versions.py): its question must exist
            if not faq_entry(cited):
                missing.append(cited)
            continue
        number, version = split_versioned(cited)  # a behaviour's rule cited in its own version (versions.py)
        if number not in corpus_rule_numbers(version or replay.cited_version):
            missing.append(cited)
    assert not missing, f"{path.name} cites rules absent from {replay.cited_version}: {sorted(missing)}"


def test_library_covers_every_ruling():
    rulings = (ROOT / "corpus" / "riftbound-qa-rulings.txt").read_text(encoding="utf-8")
    count = sum(1 for line in rulings.splitlines() if line.startswith("Ruling:"))
    positions = sorted(ruling for p in PATHS if (ruling := schema.load(p)[0].meta.ruling) is not None)
    assert len(positions) == len(set(positions)), "two scenarios replay the same ruling"
    assert positions == list(range(1, count + 1))


def test_at_least_ten_variants():
    assert len(list(variant_ids())) >= 10


def test_a_scenario_naming_the_older_version_cites_that_versions_numbers(tmp_path, real_db):
    """The engine cites its own version; rules_db translates through the stored lineage (no re-parsing)."""
    import sqlite_utils

    from rules_db.replays import CitationTranslator

    source = next(p for p in PATHS if p.name.startswith("ruling-09-"))
    text = source.read_text(encoding="utf-8")
    older = tmp_path / source.name
    older.write_text(text.replace("meta:", 'rules: {core: "2025-06-02"}\nmeta:', 1), encoding="utf-8")
    replay = replay_file(older)
    assert (
        replay.verdict == "match"
        and replay.rules_version == "2025-06-02"
        and replay.cited_version == kernel.RULES_VERSION
    )
    db = sqlite_utils.Database(real_db)
    translate = CitationTranslator(db, "riftbound", replay.cited_version, replay.rules_version)
    cited = {number for _, step in replay.walk() for number in translate(step.rules)}
    assert "518" in cited or "520" in cited  # the Cleanup section, 318 in 2025-12-01 and 1.4
    assert not cited & {"318", "323"}
    # 2025-06-02 prints some combat rules without numbers (corpus/HAZARDS.md); its parser recovers them
    stored = {
        row["number"] for row in db.query("select number from rules where document_id = ?", [translate.to_document])
    }
    assert not sorted(cited - stored)


def test_a_replay_page_gives_each_cited_rule_its_translation_into_the_newest_version(real_db):
    """What a stored replay's citation means in the newest Core Rules comes from the one translator: a rule
    the newest version removed has nothing like it there (not its nearest ancestor, which says something else)."""
    import sqlite3

    import sqlite_utils

    from rules_db import queries, versions
    from rules_db.replays import CitationTranslator

    conn = sqlite3.connect(real_db)
    db = sqlite_utils.Database(conn)
    newest = versions.rules_document(conn, "riftbound")
    removed = translated = 0
    translators: dict[str, CitationTranslator] = {}
    for (replay_id,) in conn.execute("select id from replays order by id"):
        page = queries.replay_page(conn, replay_id)
        stack = list(page["steps"])
        while stack:
            step = stack.pop()
            stack.extend(step["children"])
            for cited in step["citations"]:
                if not cited["stale"]:
                    continue
                if cited["version"] not in translators:
                    translators[cited["version"]] = CitationTranslator(
                        db, "riftbound", cited["version"], newest["version"]
                    )
                counterpart = translators[cited["version"]].direct(cited["number"])
                assert [other["number"] for other in cited["in_newest"]] == ([counterpart] if counterpart else [])
                removed += counterpart is None
                translated += counterpart is not None
    assert translated and removed  # the bundled 1.4 renumbers most rules and removes some the engine cites


ANSWER_RULE = re.compile(r"\b(\d{3}(?:\.[0-9a-z]+)*)\b")


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_every_rule_an_answer_names_exists(path):
    """An answer names the rules that decide its outcome; a scenario written from the Core Rules names some."""
    scenario, _ = schema.load(path)
    named = ANSWER_RULE.findall(scenario.answer)
    assert named or scenario.meta.ruling is not None, f"{path.name}: its answer names no rule"
    # an answer that says how a variant judged under another version differs names that version's rules too
    judged = {scenario.rules.core} | {
        change.value for variant in scenario.variants for change in variant.changes if change.path == "rules.core"
    }
    known = set().union(*(corpus_rule_numbers(version) for version in judged))
    missing = sorted(set(named) - known)
    assert not missing, f"{path.name}: its answer names rules absent from {sorted(judged)}: {missing}"


def test_every_reading_of_a_behaviour_is_cited_by_a_library_scenario_judged_under_its_version():
    """Each behaviour the versions disagree on (scenarios/versions.py), under each known version: some library
    scenario judged under that version cites every rule of the reading applied, and those rules exist in that
    version. A reading the engine chooses by but never cites (or cites wrongly) fails here."""
    from scenarios import versions
    from scenarios.replay import replay_scenario

    for behaviour in versions.BEHAVIOURS.values():
        for reading in behaviour.readings:
            faqs = {citation for citation in reading.rules if versions.is_faq(citation)}
            assert all(faq_entry(citation) for citation in faqs), f"{behaviour.name}: no such FAQ entry in {faqs}"
            absent = set(reading.rules) - faqs - corpus_rule_numbers(reading.version)
            assert not absent, f"{behaviour.name} under {reading.version} names rules it lacks: {sorted(absent)}"
    uncited = {
        (name, version): set(behaviour.under(version).cited)
        for name, behaviour in versions.BEHAVIOURS.items()
        for version in versions.KNOWN_VERSIONS
    }
    for path in PATHS:
        scenario, _ = schema.load(path)
        for version in versions.KNOWN_VERSIONS:
            judged = scenario.model_copy(update={"rules": scenario.rules.model_copy(update={"core": version})})
            cited = replay_scenario(judged, path).cited_numbers()
            uncited = {key: rules for key, rules in uncited.items() if key[1] != version or not rules <= cited}
        if not uncited:
            return
    assert not uncited, f"readings no library scenario judged under their version cites in full: {uncited}"


@pytest.mark.parametrize("version", ["2025-12-01"])
def test_a_lasting_situation_is_noted_once_not_at_every_cleanup(version):
    """Under the older versions a combat staged where a non-combat showdown is open waits for it (345.2.b) and a
    battlefield stays Contested without its contester (184.3.b); the checks that find these run at every Cleanup
    while they last. The judge reads each situation once, when it begins: no library scenario judged under such a
    version states the same note about the same object twice in a row of Cleanups, and some scenario shows each."""
    from collections import Counter

    from scenarios.replay import replay_scenario

    lasting = {"staged": "it begins once the showdown there closes", "contested_kept": "it stays Contested"}
    shown = Counter()
    for path in PATHS:
        scenario, _ = schema.load(path)
        judged = scenario.model_copy(update={"rules": scenario.rules.model_copy(update={"core": version})})
        notes = Counter(
            (step.procedure, tuple(step.objects), step.summary)
            for _, step in replay_scenario(judged, path).walk()
            if lasting.get(step.procedure, "\0") in step.summary
        )
        repeated = {note: count for note, count in notes.items() if count > 1}
        assert not repeated, f"{path.name} under {version} restates a lasting situation: {repeated}"
        shown.update(procedure for procedure, _, _ in notes)
    assert set(shown) == set(lasting), f"some lasting situation no library scenario shows: {shown}"
