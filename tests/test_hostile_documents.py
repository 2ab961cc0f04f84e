"""Hostile and damaged documents: each class a fuzzer found (issue 16) has its minimal input here. A document
past a limit of ``ingest.limits`` is an error naming the file, the line and the limit; anything else is read
(repaired and reported where it is damage) without a crash, in linear time.

A test that would hang if a step went quadratic or exponential again runs under ``deadline`` (a hang guard
of tens of seconds, far above the milliseconds these take: speed itself is measured in benchmarks)."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
from contextlib import contextmanager
from pathlib import Path

import pytest

from ingest import limits
from ingest.cards import parse_cards, parse_errata
from ingest.documents import CORPUS_DIR
from ingest.errors import IngestError
from ingest.formats import spec_for
from ingest.lemmas import LemmaMatcher
from ingest.model import ParsedRule, ParseIssue
from ingest.outline import assemble, dotted_parent, natural_key
from ingest.riftbound_refs import expand_range, find_references
from rules_db.build import _parse
from rules_db.build_processes import remove_stale_builds

HEADER = "Riftbound Core Rules\n\nLast Updated: 2030-01-01\n\n"
# A small rulebook in the Core Rules layout: enough of an outline to be recognised as one.
OUTLINE = "".join(
    f"{100 + chapter}. Chapter {chapter}\n{100 + chapter}.1. A rule of chapter {chapter}.\n" for chapter in range(12)
)


@contextmanager
def deadline(seconds: int = 60):
    """Fail instead of hanging: a step that went quadratic on these inputs would take hours. The seconds are
    this process's CPU time, which a machine busy with other work does not stretch as it stretches the clock's."""

    def expired(*_):
        raise TimeoutError(f"still running after {seconds} s of CPU time")

    previous = signal.signal(signal.SIGPROF, expired)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def rulebook(tmp_path: Path, extra: str, name: str = "hostile.txt") -> Path:
    path = tmp_path / name
    path.write_text(HEADER + OUTLINE + extra, encoding="utf-8")
    return path


def parse_file(path: Path):
    return _parse(spec_for(path))


def failure(path: Path) -> IngestError:
    with pytest.raises(IngestError) as caught:
        parse_file(path)
    return caught.value


# ---------------------------------------------------------------- limits: a clear error naming file, line, limit


def test_a_line_past_the_limit_is_an_error_naming_the_line(tmp_path):
    path = rulebook(tmp_path, "112. Long\n112.1. " + "word " * (limits.MAX_LINE_CHARS // 5 + 1) + "\n")
    error = failure(path)
    assert (error.path, error.line) == (str(path), HEADER.count("\n") + OUTLINE.count("\n") + 2)
    assert f"{limits.MAX_LINE_CHARS:,} characters" in str(error)


def test_a_rule_past_the_limit_is_an_error_naming_its_first_line(tmp_path):
    # Many short lines, each within the line limit, that one rule's text runs over (spaCy refused 1,000,000).
    continuation = ("and the rule goes on " * 40 + "\n") * (limits.MAX_RULE_CHARS // 800 + 2)
    path = rulebook(tmp_path, "112. Long\n112.1. A rule that never ends\n" + continuation)
    error = failure(path)
    assert error.line == HEADER.count("\n") + OUTLINE.count("\n") + 2
    assert f"a rule of at most {limits.MAX_RULE_CHARS:,} characters" in str(error) and "112.1" in str(error)


def test_a_number_of_thousands_of_digits_is_an_error_not_a_crash(tmp_path):
    path = rulebook(tmp_path, "112. Long\n112." + "1" * 5000 + ". a rule\n")
    error = failure(path)
    assert error.line == HEADER.count("\n") + OUTLINE.count("\n") + 2
    assert f"at most {limits.MAX_DIGITS} digits" in str(error)
    # ... and the sort key itself orders numbers of any length without converting them (int() stops at 4,300).
    assert natural_key("1" * 5000) > natural_key("9" * 4999) > natural_key("103.10") > natural_key("103.9")
    assert natural_key("053") == natural_key("53")


def test_a_rule_number_past_the_limit_is_an_error(tmp_path):
    path = rulebook(tmp_path, "112. Deep\n" + "".join(f"112{'.1' * depth}. level {depth}\n" for depth in range(1, 31)))
    error = failure(path)
    assert f"a rule number of at most {limits.MAX_RULE_NUMBER_CHARS} characters" in str(error)


def test_a_document_past_the_size_limit_is_refused_before_it_is_read(tmp_path, monkeypatch):
    monkeypatch.setattr(limits, "MAX_DOCUMENT_BYTES", 1000)
    path = rulebook(tmp_path, "x" * 1000)
    error = failure(path)
    assert "a document of at most 1,000 bytes" in str(error)


def test_invalid_utf8_and_surrogates_are_errors_with_their_line(tmp_path):
    path = tmp_path / "hostile.txt"
    path.write_bytes((HEADER + OUTLINE).encode() + b"112. A \xed\xa0\x80 surrogate\n")  # a lone surrogate, CESU-8
    error = failure(path)
    assert error.line == HEADER.count("\n") + OUTLINE.count("\n") + 1 and "UTF-8" in str(error)
    # A surrogate escape written as text ("\ud800") is text, not a character.
    parsed, _ = parse_file(rulebook(tmp_path, "112. Escapes\n112.1. A \\ud800 rule\n"))
    assert any("\\ud800" in rule.raw_text for rule in parsed.rules)


# ---------------------------------------------------------------- card and errata JSON: validated before storing


def cards_file(tmp_path: Path, text: str) -> Path:
    folder = tmp_path / "cards"
    folder.mkdir(exist_ok=True)
    path = folder / "riftbound-cards.json"
    path.write_text(text, encoding="utf-8")
    return path


def card(**fields) -> dict:
    entry = {"id": "ogn-1", "name": "A Card", "card_type": "Unit", "domain": "Fury", "card_set": "Origins"}
    return {**entry, "collector_number": 1, **fields}


def test_deeply_nested_card_json_is_an_error_naming_the_line(tmp_path):
    path = cards_file(tmp_path, "[\n" + "[\n" * 100_000 + "]\n" * 100_000 + "]")
    with pytest.raises(IngestError) as caught:
        parse_cards(path)
    assert caught.value.line == limits.MAX_JSON_DEPTH + 1
    assert f"nested at most {limits.MAX_JSON_DEPTH} levels" in str(caught.value)
    # Brackets inside strings are text: they nest nothing.
    assert parse_cards(cards_file(tmp_path, json.dumps([card(ability="[" * 100)]))).entries == 1


def test_deeply_nested_errata_json_is_an_error(tmp_path):
    path = tmp_path / "riftbound-errata.json"
    path.write_text('[{"name": "A", "faqs": ' + "[" * 50 + "]" * 50 + "}]")
    with pytest.raises(IngestError, match="nested at most"):
        parse_errata(path)


def test_a_duplicate_printing_id_is_an_error_naming_both_lines(tmp_path):
    text = "[\n" + json.dumps(card()) + ",\n" + json.dumps(card(name="Another Card")) + "\n]"
    with pytest.raises(IngestError) as caught:
        parse_cards(cards_file(tmp_path, text))
    assert caught.value.line == 3 and "'ogn-1', as on line 2" in str(caught.value)


@pytest.mark.parametrize("field", ["energy", "power", "might", "collector_number"])
def test_an_out_of_range_integer_is_an_error_not_an_overflow(tmp_path, field):
    with pytest.raises(IngestError) as caught:
        parse_cards(cards_file(tmp_path, json.dumps([card(**{field: 10**30})])))
    assert f"'{field}" in str(caught.value) and "999999" in str(caught.value)


def test_a_lone_surrogate_escape_in_card_json_is_an_error(tmp_path):
    with pytest.raises(IngestError, match="'name'"):
        parse_cards(cards_file(tmp_path, '[{"id": "x", "name": "A\\ud800b"}]'))


# ---------------------------------------------------------------- outline damage: repaired and reported


def rule(number: str, line: int) -> ParsedRule:
    return ParsedRule(number, f"text of {number}", [line])


def test_a_child_printed_before_its_parent_is_moved_after_it_and_reported():
    issues: list[ParseIssue] = []
    rules = [rule("101", 1), rule("102.1.a", 2), rule("102.1", 3), rule("102", 4), rule("103", 5)]
    ordered = assemble(rules, dotted_parent, issues)
    assert [r.number for r in ordered] == ["101", "102", "102.1", "102.1.a", "103"]
    assert {(issue.kind, issue.number) for issue in issues} == {("reordered", "102.1.a"), ("reordered", "102.1")}
    assert all(r.parent is None or [o.number for o in ordered].index(r.parent) < ordered.index(r) for r in ordered)


# ---------------------------------------------------------------- hangs: linear on hostile runs


def test_a_range_of_a_hundred_million_numbers_cites_its_ends():
    with deadline():
        [reference] = find_references("102.1", "See rules 101.1 through 101.99999999.")
    assert reference.target_numbers == ["101.1", "101.99999999"]
    assert expand_range("557", "563") == [str(n) for n in range(557, 564)]
    assert len(expand_range("1", str(limits.MAX_RANGE))) == limits.MAX_RANGE


@pytest.mark.stress
def test_a_line_with_thousands_of_references_is_read_in_linear_time():
    text = " ".join(f"See rule 101.{n}." for n in range(20_000))
    with deadline():
        references = find_references("102.1", text)
        chained = find_references("102.1", "See " + " and ".join(f"rule 101.{n}" for n in range(20_000)))
    assert len(references) == 20_000 and len(chained[0].target_numbers) == 20_000


@pytest.mark.stress
def test_spacy_sees_bounded_texts():
    """Long runs of punctuation made spaCy's tokenizer quadratic; the runs are cut, offsets kept."""
    matcher = LemmaMatcher({"recall": ["Recall"]})
    text = "A unit is recalled" + "!?" * 50_000 + " then Recall it " + "x" * limits.MAX_TAGGED_CHARS + " Recall"
    with deadline():
        [matches] = matcher.find_many([text])
    assert [(m.key, text[m.start : m.end]) for m in matches] == [("recall", "recalled"), ("recall", "Recall")]


HOSTILE_RUNS = {
    "spaces": " ",
    "tabs": "\t",
    "no-break spaces": "\u00a0",
    "punctuation": "!?",
    "dots": ".",
    "digits": "1",
    "words": "a ",
    "capitalised words": "Abc or ",
    "numbers": "101. ",
    "tags": "<b>",
    "markdown": "# ",
    "stars": "*",
    "quotes": '"',
    "backslashes": "\\",
}
# Long enough that a pattern gone quadratic on one kind of run spends seconds of CPU on it (three times the test's
# deadline, which a catastrophic one never meets), short enough that the slowest linear one takes half a second.
RUN_LENGTH = 50_000


def _patterns():
    """Every regular expression of the parsers and of the search's query reading, by module."""
    import importlib

    modules = [
        "ingest.outline",
        "ingest.riftbound",
        "ingest.riftbound_tabbed",
        "ingest.riftbound_refs",
        "ingest.riftbound_terms",
        "ingest.rulings",
        "ingest.riftboundfaq",
        "ingest.runeterra",
        "ingest.ikorr",
        "ingest.poxnora",
        "ingest.header",
        "ingest.cards",
        "ingest.card_names",
        "ingest.infractions",
        "ingest.text",
        "ingest.limits",
        "rules_db.search.index_format",
        "rules_db.search.understand",
        "rules_db.search.rank",
        "rules_db.search.answer",
    ]
    patterns = []
    for name in modules:
        for attribute, value in vars(importlib.import_module(name)).items():
            if isinstance(value, re.Pattern):
                patterns.append(pytest.param(value, id=f"{name}.{attribute}"))
    return patterns


def search_hostile_runs(pattern: re.Pattern) -> None:
    """``pattern`` searched through (and matched at the start of) runs of each of ``HOSTILE_RUNS`` that lead
    nowhere: alone, two on two lines, and between other characters."""
    for unit in HOSTILE_RUNS.values():
        run = (unit * (RUN_LENGTH // len(unit) + 1))[:RUN_LENGTH]
        for text in (run, run + "\n" + run, "x" + run + "!"):
            pattern.search(text)
            pattern.match(text)


@pytest.mark.stress
@pytest.mark.parametrize("pattern", _patterns())
def test_regular_expressions_are_linear_on_long_runs(pattern):
    """A nested quantifier over white space never ends here, two quantifiers sharing a run take hours, and one
    quantifier tried from every position of a run (quadratic: ``\\.+x`` on the dots) takes ten seconds of CPU."""
    with deadline(3):
        search_hostile_runs(pattern)


def test_every_rulebook_format_reads_hostile_runs(tmp_path):
    """The same runs as lines of a document, through format recognition and the parser that takes it."""
    units = [unit for name, unit in HOSTILE_RUNS.items() if name != "digits"]  # digits: their own limit's test
    run = limits.MAX_LINE_CHARS - 100
    lines = [
        line
        for index, unit in enumerate(units, start=2)
        for line in (f"112.{index}. See rule 101.1 and{(unit * run)[:run]}", (unit * run)[:run])
    ]
    path = rulebook(tmp_path, "112. Runs\n112.1. A rule.\n" + "\n".join(lines) + "\n")
    with deadline(120):
        parsed, _ = parse_file(path)
    assert any(r.number == "112.1" for r in parsed.rules)


# ---------------------------------------------------------------- the build knows what it reads


def test_a_bundled_name_on_another_documents_text_is_read_as_what_its_text_is(tmp_path):
    """The 2025-06-02 Core Rules copied under the 2025-12-01 file name: stored as 2025-06-02, with a warning
    that says what was found (it was stored as 2025-12-01, with 100% coverage)."""
    impostor = tmp_path / "riftbound-core-rules-2025-12-01.txt"
    shutil.copy(CORPUS_DIR / "riftbound-core-rules-2025-06-02.txt", impostor)
    spec = spec_for(impostor)
    assert spec.version == "2025-06-02"
    [warning] = spec.warnings
    assert "named like the bundled Riftbound Core Rules 2025-12-01" in warning and "'2025-06-02'" in warning


def test_a_bundled_file_or_another_extraction_of_it_is_trusted(tmp_path):
    assert spec_for(CORPUS_DIR / "pox-nora-rules.txt").warnings == ()
    extraction = tmp_path / "riftbound-core-rules-2025-12-01.txt"
    text = (CORPUS_DIR / extraction.name).read_text(encoding="utf-8")
    extraction.write_text(text.replace("\n\n", "\n"), encoding="utf-8")  # same title and date, other layout
    spec = spec_for(extraction)
    assert (spec.version, spec.warnings) == ("2025-12-01", ())


def test_a_bundled_name_without_a_header_is_checked_against_the_bundled_copy(tmp_path):
    impostor = tmp_path / "pox-nora-rules.txt"
    shutil.copy(CORPUS_DIR / "rush-of-ikorr-comprehensive-rules-1.1.txt", impostor)
    spec = spec_for(impostor)
    assert spec.game == "rush-of-ikorr"
    assert "named like the bundled Pox Nora Rules Summary" in spec.warnings[0]
    assert "read as what its text is: Comprehensive Rules" in spec.warnings[0]


def test_temporary_files_of_dead_builds_are_removed(tmp_path):
    db = tmp_path / "rules.db"
    dead = tmp_path / ".rules.db.999999999.abc.building"  # no process has that id
    journal = tmp_path / ".rules.db.999999999.abc.building-journal"
    live = tmp_path / f".rules.db.{os.getpid()}.def.building"
    for path in (dead, journal, live):
        path.write_bytes(b"x")
    assert sorted(remove_stale_builds(db)) == sorted([dead, journal])
    assert live.exists() and not dead.exists() and not journal.exists()
