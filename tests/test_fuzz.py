"""Property-based fuzzing (Hypothesis) of what reads untrusted text: the outline parsers, the scenario loader
and the search's query reading. Each target either answers or raises its own clear error (``IngestError``,
``ScenarioError``, ``SearchTooSlow``), never anything else.

The normal suite runs a few hundred examples per target (the "suite" profile of ``conftest.py``); the long
run is the "fuzz" profile:

    .venv/bin/python -m pytest tests/test_fuzz.py --hypothesis-profile=fuzz   # 10,000 examples per target
"""

from __future__ import annotations

import copy
import sqlite3
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ingest.errors import IngestError
from ingest.formats import FORMATS, adapter
from ingest.limits import check_rules
from ingest.outline import _RUNS_ON, natural_key, runs_on
from rules_db.guard import read_only
from rules_db.search import answer
from scenarios import library_paths
from scenarios.schema import Loader, ScenarioError
from scenarios.schema import parse as parse_scenario

RULEBOOK_FORMATS = [name for name, (_, _, _, kind) in FORMATS.items() if kind == "rules"]
PATH = Path("fuzzed.txt")

# ---------------------------------------------------------------- outline parsers

component = st.one_of(st.integers(0, 30).map(str), st.sampled_from("abcdefxyz"))
number = st.builds(
    lambda top, rest, dot: ".".join([top, *rest]) + dot,
    st.one_of(st.integers(0, 999).map(lambda n: f"{n:03d}"), st.integers(0, 40).map(str), st.sampled_from("ABCDE")),
    st.lists(component, max_size=5),
    st.sampled_from([".", "", ". "]),
)
noise = st.lists(
    st.sampled_from([*" \t\u00a0.,:;!?-*#>_<>/\"'()[]&abcXYZ0123456789\u2026\u2014", "See rule ", "CR ", "through "]),
    max_size=40,
).map("".join)
decoration = st.sampled_from(["", "  ", "\t", "# ", "## ", "- ", "* ", "> ", "**", "<b>", "<p>"])
line = st.one_of(
    st.builds(
        lambda d, n, sep, text: f"{d}{n}{sep}{text}",
        decoration,
        number,
        st.sampled_from([" ", "\t", "&nbsp;", ""]),
        noise,
    ),
    noise,
    st.just(""),
    st.sampled_from(
        ["Riftbound Core Rules", "Last Updated: 2025-06-02", "Glossary", "Table of Contents", "- a. An item"]
    ),
)
document = st.lists(line, min_size=1, max_size=60)


@pytest.mark.parametrize("format_name", RULEBOOK_FORMATS)
@given(lines=document)
def test_outline_parsers_answer_or_raise_a_clear_error(format_name, lines):
    module = adapter(format_name)
    module.sniff(lines)
    try:
        parsed = module.parse(lines, PATH)
        check_rules(PATH, parsed.rules)
    except IngestError as error:
        assert error.path == str(PATH)
        return
    numbers = [rule.number for rule in parsed.rules]
    assert len(numbers) == len(set(numbers)), "every number once (duplicates merged and reported)"
    seen: set[str] = set()
    for rule in parsed.rules:
        assert rule.parent is None or rule.parent not in numbers or rule.parent in seen, "parents come first"
        seen.add(rule.number)
        natural_key(rule.number)
    assert all(1 <= skipped.line <= len(lines) for skipped in parsed.skipped)


@given(text=st.one_of(noise, st.text(max_size=40)))
def test_a_line_runs_on_by_its_last_word_alone(text):
    """``runs_on`` searches only the last word of a line: its answer is the pattern's over the whole line."""
    assert runs_on(text) == bool(_RUNS_ON.search(text.rstrip()))


# ---------------------------------------------------------------- scenario loader


def _library_documents() -> list[dict]:
    return [yaml.load(path.read_text(encoding="utf-8"), Loader=Loader) for path in library_paths()[:12]]


LIBRARY = _library_documents()
scalar = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**40), 10**40),
    st.floats(allow_nan=True),
    st.text(max_size=30),
    st.sampled_from(["a1", "b1", "base", "p1", "p2", "__dict__", "__class__", "units", "might", "damage"]),
)
value = st.recursive(
    scalar,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=12), inner, max_size=4)),
    max_leaves=12,
)


def _paths(node, prefix=()):
    """Every path into a parsed document (keys and list indexes)."""
    yield prefix
    if isinstance(node, dict):
        for key, child in node.items():
            yield from _paths(child, (*prefix, key))
    elif isinstance(node, list):
        for index, child in enumerate(node):
            yield from _paths(child, (*prefix, index))


@st.composite
def mutated_scenario(draw) -> str:
    """A library scenario with a few of its values replaced, removed or given unknown keys, as YAML."""
    data = copy.deepcopy(draw(st.sampled_from(LIBRARY)))
    for _ in range(draw(st.integers(1, 4))):
        paths = [path for path in _paths(data) if path]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        action = draw(st.sampled_from(["replace", "remove", "add"]))
        if action == "remove":
            del parent[path[-1]]
        elif action == "add" and isinstance(parent, dict):
            parent[draw(st.text(max_size=12))] = draw(value)
        else:
            parent[path[-1]] = draw(value)
    return yaml.safe_dump(data, allow_unicode=True)


raw_text = st.one_of(
    st.text(max_size=300),
    st.binary(max_size=300).map(lambda data: data.decode("utf-8", "surrogateescape")),
    st.sampled_from(["a: &x [1]\nb: *x\n", "- " * 40 + "x", "{" * 40, "steps: !!python/object:os.system ls"]),
)


@given(text=st.one_of(mutated_scenario(), raw_text))
def test_scenario_loader_answers_or_raises_a_clear_error(text):
    try:
        parse_scenario(text.encode("utf-8", "surrogateescape"))
    except ScenarioError as error:
        assert str(error)


# ---------------------------------------------------------------- search query reading


@pytest.fixture(scope="module")
def search_connection(fixture_db) -> sqlite3.Connection:
    conn = read_only(fixture_db, check_same_thread=False)
    yield conn
    conn.close()


question = st.one_of(
    st.text(max_size=200),
    st.lists(
        st.sampled_from(
            [
                '"',
                "*",
                "(",
                ")",
                "NEAR",
                "AND",
                "OR",
                "NOT",
                "^",
                ":",
                "-",
                "+",
                "unit",
                "recall",
                "rule 101.1",
                "101.1",
                "zhonya",
                "tank",
                "{",
                "}",
                "'",
                "\\",
                "\x00",
                "\u00e9",
                "NEAR(a b)",
                "title:",
                "*:",
                "\ud800",
            ]
        ),
        max_size=30,
    ).map(" ".join),
)


@given(text=question)
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_search_reads_any_question(search_connection, text):
    answer.jump_target(search_connection, text, None)
    try:
        found = answer.search(search_connection, text, None, None, None, 1)
    except answer.SearchTooSlow:
        return
    assert found["total"] >= len(found["results"])
