"""A rulebook published in another form reads as the same rules (issue 35, "Extractions"): markdown with HTML rule
rows, an HTML table with a page's head, pdf-to-markdown with page headers and words broken over two lines,
markdown headings with indented continuation lines. Each form is made here from the bundled Tournament Rules, and
must give the same rule numbers, texts, headings and keywords, and the same rulebook (its kind read from its
content: an HTML page's style sheet is not its title). A reissue of a version, the same rules under a later date,
is stored as that version with both dates."""

from __future__ import annotations

import html
import re
import sqlite3

import pytest

from ingest import riftbound
from ingest.documents import CORPUS_DIR
from ingest.formats import spec_for
from ingest.outline import join_continuation
from ingest.source import read_lines
from rules_db.build import build, specs_for

TOURNAMENT = CORPUS_DIR / "riftbound-tournament-rules-2026-07-16.txt"
_NUMBERED = re.compile(r"^(\d{3}(?:\.(?:\d+|[a-z]))*\.?)\s+(.*)$")

pytestmark = pytest.mark.usefixtures("spacy_loaded")


def _rules(lines: list[str]) -> list[tuple[str, str]]:
    """(number, text with its line breaks) of each numbered rule of a plain extraction."""
    found: list[list[str]] = []
    for line in lines[2:]:
        numbered = _NUMBERED.match(line)
        if numbered:
            found.append([numbered.group(1), numbered.group(2)])
        elif found:
            found[-1][1] += "\n" + line
    return [(number, text) for number, text in found]


def _forms(lines: list[str]) -> dict[str, str]:
    title, updated = lines[0], lines[1]
    rules = _rules(lines)
    one_line = [(number, html.escape(text.replace("\n", " "))) for number, text in rules]
    page_broken = []
    for index, line in enumerate(lines[2:]):
        if index % 45 == 0:
            page_broken += ["", "---", "", f"{title} — Page {index // 45 + 1}", ""]
        words = line.split(" ")
        last = words[-1]
        if index % 3 == 0 and len(words) > 8 and len(last) > 7 and last.isalpha() and last.islower():
            page_broken += [" ".join([*words[:-1], last[:4] + "-"]), last[4:]]  # a word broken by the line
        else:
            page_broken.append(line)
    indented = []
    for number, text in rules:
        first, *rest = text.split("\n")
        mark = "## " if number.count(".") <= 1 and len(first.split()) <= 5 else ""
        indented += [f"{mark}{number} {first}", *(f"    {more}" for more in rest)]
    return {
        "html-rows.md": "\n".join(
            [f"# {title}", "", f"_{updated}_", ""] + [f"<p><strong>{n}</strong> {t}</p>" for n, t in one_line]
        ),
        "table.html": "\n".join(
            [
                "<!DOCTYPE html>",
                '<html lang="en">',
                "<head>",
                '<meta charset="utf-8">',
                "<style>",
                "td { padding: 2px; }",
            ]
            + ["</style>", f"<title>{title}</title></head><body>", f"<h1>{title}</h1>", f"<p>{updated}</p>", "<table>"]
            + [f"<tr>\n  <td>{n}</td>\n  <td>{t}</td>\n</tr>" for n, t in one_line]
            + ["</table></body></html>"]
        ),
        "pdf.md": "\n".join([f"# {title}", "", updated, "", *page_broken]),
        "headings.md": "\n".join([f"# {title}", "", updated, "", *indented]),
    }


@pytest.fixture(scope="module")
def plain():
    lines = read_lines(TOURNAMENT)
    return lines, riftbound.parse(lines, TOURNAMENT)


def _read(parsed):
    return (
        [(rule.number, rule.heading) for rule in parsed.rules],
        sorted(keyword.term for keyword in parsed.keywords),
    )


@pytest.mark.parametrize("form", ["html-rows.md", "table.html", "pdf.md", "headings.md"])
def test_another_form_of_a_rulebook_reads_as_the_same_rules(plain, tmp_path, form):
    from ingest.text import paragraph

    lines, expected = plain
    path = tmp_path / form
    path.write_text(_forms(lines)[form], encoding="utf-8")
    spec = spec_for(path)
    assert (spec.rulebook, spec.version_date) == ("tournament", "2026-07-16")
    parsed = riftbound.parse(read_lines(path), path)
    assert [rule.number for rule in parsed.rules] == [rule.number for rule in expected.rules]
    assert [paragraph(rule.raw_text) for rule in parsed.rules] == [paragraph(rule.raw_text) for rule in expected.rules]
    assert _read(parsed) == _read(expected)


def test_a_word_a_pdf_broke_over_two_lines_is_whole_again_and_a_compound_keeps_its_hyphen():
    assert join_continuation("nothing happ-", "ens.", wrapped=True) == "nothing happens."
    assert join_continuation("a non-", "Board zone", wrapped=True) == "a non-Board zone"


@pytest.mark.slow
def test_a_reissue_with_the_same_rules_and_a_later_date_is_stored_as_that_version_in_any_order(tmp_path):
    reissue = tmp_path / "riftbound-tournament-rules-2026-08-01.txt"
    reissue.write_text(TOURNAMENT.read_text(encoding="utf-8").replace("7/16/2026", "8/1/2026", 1), encoding="utf-8")
    for order in ([TOURNAMENT, reissue], [reissue, TOURNAMENT]):
        db_path = tmp_path / "x.db"
        result = build(db_path, specs_for(order))
        db = sqlite3.connect(db_path)
        assert db.execute("select id, version from documents").fetchall() == [
            ("riftbound-tournament-rules-2026-07-16", "2026-07-16")
        ]
        assert db.execute("select document_id, version_date from document_reissues").fetchall() == [
            ("riftbound-tournament-rules-2026-07-16", "2026-08-01")
        ]
        assert any("stored as its reissue dated 2026-08-01" in report.line() for report in result.reports)


def test_a_table_of_contents_entry_whose_number_no_rule_has_counts_as_not_recognised():
    from ingest.model import ParsedRule, SkippedLine
    from ingest.outline import CONTENTS, UNRECOGNISED, account_for_lines, coverage

    lines = ["# Contents", "- 1.1. Number of Players", "- 2.3. Rules set aside as contents", "1.1\tNumber of Players"]
    rules = [ParsedRule("1.1", "Number of Players", [4])]
    skipped = [SkippedLine(line, lines[line - 1], CONTENTS) for line in (1, 2, 3)]
    accounted = account_for_lines(lines, rules, skipped)
    assert [entry.reason for entry in accounted] == [CONTENTS, CONTENTS, UNRECOGNISED]
    assert coverage(4, accounted) == 0.75
