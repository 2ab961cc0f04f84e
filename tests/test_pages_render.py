"""Rendering document text: sanitising, adding our links, snippets and word diffs."""

from __future__ import annotations

from html import escape as html_escape

import pytest

from datasette_plugins import render
from datasette_plugins.render import Link, Linker, highlighted, linked, sanitise
from rules_db.queries import diff_ops
from rules_db.search import MARK_END, MARK_START

HOSTILE = [
    "<script>alert(1)</script>",
    '<SCRIPT SRC="https://evil.example/x.js"></SCRIPT>',
    '<a href="javascript:alert(1)">x</a>',
    '<a href="JaVaScRiPt:alert(1)">x</a>',
    "<img src=x onerror=alert(1)>",
    '<b onclick="alert(1)">x</b>',
    "<svg><script>alert(1)</script></svg>",
    '<iframe src="javascript:alert(1)"></iframe>',
    '<div style="background:url(javascript:alert(1))">x</div>',
    "<i onmouseover=alert(1)>x</i>",
    "<<script>script>alert(1)<</script>/script>",
    '<a href="&#106;avascript:alert(1)">x</a>',
    '<form action="javascript:alert(1)"><button>x</button></form>',
]


@pytest.mark.parametrize("raw", HOSTILE)
def test_hostile_markup_loses_every_script_link_and_attribute(raw):
    html = str(linked(f"Rule text {raw} continues.", [Link("Rule", "/rules/g/v/1")]))
    lowered = html.lower()
    assert "<script" not in lowered and "javascript:" not in lowered
    assert " on" not in lowered.replace(" continues", "")
    assert "<a " not in lowered.replace('<a href="/rules/g/v/1">', "")
    assert "style=" not in lowered and "<iframe" not in lowered and "<img" not in lowered


def test_harmless_formatting_is_kept_without_attributes():
    assert sanitise('<i class="x">Recall</i> <b>Tank</b> <em>a</em> <strong>b</strong> x<sup>2</sup>') == (
        "<i>Recall</i> <b>Tank</b> <em>a</em> <strong>b</strong> x<sup>2</sup>"
    )
    assert sanitise("**Recall**: returns") == "<b>Recall</b>: returns"


def test_links_are_added_inside_formatting_and_text_is_escaped():
    html = str(
        linked(
            "See <i>rule 616. Recalls</i> & 616.1; a <Tank>",
            [Link("616", "/rules/riftbound/v/616", "616 Recalls", number=True)],
        )
    )
    assert html == (
        'See <i>rule <a href="/rules/riftbound/v/616" title="616 Recalls">616</a>. Recalls</i> &amp; 616.1; a '
    )


def test_a_number_link_never_matches_inside_a_longer_number():
    html = str(linked("See 411, 411.1 and 5411.", [Link("411", "/r/411", number=True)]))
    assert html.count("<a ") == 1 and '<a href="/r/411">411</a>, 411.1 and 5411.' in html


def test_longer_links_win_and_words_match_whole():
    html = str(
        linked("A recalled unit; Recall; recalledness", [Link("Recall", "/k/recall"), Link("recalled", "/k/recall-ed")])
    )
    assert html == ('A <a href="/k/recall-ed">recalled</a> unit; <a href="/k/recall">Recall</a>; recalledness')


def test_link_targets_and_titles_are_escaped():
    html = str(linked("Tank", [Link("Tank", '/k/"><script>', 'x" onmouseover="y')]))
    assert "<script" not in html and '" onmouseover' not in html


def test_plain_text_mode_escapes_everything():
    assert str(linked("<b>x</b> & 3", formatted=False)) == "&lt;b&gt;x&lt;/b&gt; &amp; 3"


def test_line_breaks_survive():
    assert str(linked("first\nsecond")) == "first<br>\nsecond"


def test_snippet_markers_become_marks_and_the_rest_is_escaped():
    snippet = f"a {MARK_START}recalled{MARK_END} <script>x</script>"
    assert str(highlighted(snippet)) == "a <mark>recalled</mark> &lt;script&gt;x&lt;/script&gt;"


def test_word_diff_marks_changed_words_only():
    ops = diff_ops("Deal 3 damage to a unit.", "Deal 4 damage to each unit.")
    assert [(op["op"], op["text"]) for op in ops if op["op"] != "equal"] == [
        ("delete", "3 "),
        ("insert", "4 "),
        ("delete", "a "),
        ("insert", "each "),
    ]
    assert "".join(op["text"] for op in ops if op["op"] != "insert") == "Deal 3 damage to a unit."
    assert "".join(op["text"] for op in ops if op["op"] != "delete") == "Deal 4 damage to each unit."


def test_prose_links_each_word_target_once_and_rule_numbers_every_time():
    linker = Linker(
        [Link("unit", "/k/unit"), Link("units", "/k/unit"), Link("318", "/r/318", number=True)], words_once=True
    )
    first = str(linker("A unit, units and 318."))
    second = str(linker("Another unit and 318."))
    assert first == 'A <a href="/k/unit">unit</a>, units and <a href="/r/318">318</a>.'
    assert second == 'Another unit and <a href="/r/318">318</a>.'


def test_rule_text_links_every_mention():
    html = str(linked("A unit and units.", [Link("unit", "/k/unit"), Link("units", "/k/unit")]))
    assert html == 'A <a href="/k/unit">unit</a> and <a href="/k/unit">units</a>.'


class _Paths:
    """The one URL the links to rules ask for: a rule's, with a character that must be escaped in an attribute."""

    def rule(self, row):
        return f"/rules/{row['number']}?a=1&b=2"


def test_links_to_rules_escape_what_the_documents_hold():
    hostile = {"number": "1<b>", "heading": "<script>x</script>", "version": '"v"', "stale": True}
    hostile["in_newest"] = [{"number": "2&", "version": "<new>", "kind": "ancestor"}]
    hostile["equivalents"] = [{**hostile["in_newest"][0], "heading": None}]
    html = "".join(
        str(piece)
        for piece in (
            render.rule_link(_Paths(), hostile, show_version=True),
            render.version_note(_Paths(), hostile),
            render.equivalents(_Paths(), hostile),
            render.rule_list(_Paths(), [hostile]),
        )
    )
    assert "<script>" not in html and "<b>" not in html and "<new>" not in html
    assert "&lt;script&gt;x&lt;/script&gt;" in html and 'href="/rules/1&lt;b&gt;?a=1&amp;b=2"' in html
    assert "in &lt;new&gt; this is" in html and "(nearest ancestor)" in html
    assert render.equivalents(_Paths(), {"equivalents": []}) == ""


def test_the_folded_equivalents_count_versions_not_rules():
    """A rule that became two rules in one older version is "In 1 older version", listing both."""
    split = [{"number": number, "version": "2025-06-02", "kind": "split"} for number in ("518", "519")]
    html = str(render.equivalents(_Paths(), {"number": "318", "version": "2025-12-01", "equivalents": split}))
    assert "<summary>In 1 older version</summary>" in html and html.count("<li>") == 2
    older = [*split, {"number": "418", "version": "2025-01-01", "kind": "moved"}]
    html = str(render.equivalents(_Paths(), {"number": "318", "version": "2025-12-01", "equivalents": older}))
    assert "<summary>In 2 older versions</summary>" in html and html.count("<li>") == 3


@pytest.mark.parametrize("shown", ["2026-06-18", "2025", "2026-01", "2026-01-22T09:30:00Z"])
def test_a_date_is_a_time_element(shown):
    assert render.date(shown) == f'<time datetime="{shown}">{shown}</time>'


@pytest.mark.parametrize(
    "value, shown",
    [("1.1", "1.1"), ("unversioned", "unversioned"), (None, ""), ('2026-06-18"><b>', "2026-06-18&#34;&gt;&lt;b&gt;")],
)
def test_what_is_not_a_date_is_only_escaped(value, shown):
    assert render.date(value) == shown


@pytest.mark.parametrize(
    ("citation", "note"),
    [
        ({"how": "keyword", "raw_texts": ["stunned"], "number": "409"}, "by the keyword “stunned”"),
        ({"how": "explicit", "raw_texts": ["step 443.1.e"], "cited_number": "443.1.e"}, "cited as “step 443.1.e”"),
        ({"how": "explicit", "raw_texts": ["443.1.e"], "cited_number": "443.1.e"}, ""),
        ({"how": "explicit", "raw_texts": ['<Rule number="355.5" />'], "number": "355.5"}, ""),
        (
            {"how": "explicit", "raw_texts": ["rule <b>318</b> &amp; on"], "number": "318"},
            "cited as “rule 318 &amp; on”",
        ),
        # a ruling citing one rule twice: each text once, a bare number in brackets saying no more than the number
        (
            {"how": "explicit", "raw_texts": ["step 443.1.e", "(443.1.e)"], "number": "443.1.e"},
            "cited as “step 443.1.e”",
        ),
        ({"how": "explicit", "raw_texts": ["(443.1.e)", "[443.1.e]."], "number": "443.1.e"}, ""),
        (
            {"how": "explicit", "raw_texts": ["step 444", "rule 444", "see 444"], "number": "444"},
            "cited as “step 444”, “rule 444” and “see 444”",
        ),
    ],
)
def test_a_citation_is_said_in_words_without_markup(citation, note):
    """How a ruling cites a rule reads as words a judge knows: never the column's value ("explicit") nor the
    source's markup; a number written alone needs no note."""
    assert str(render.citation_note(citation)) == note


@pytest.mark.parametrize("raw", HOSTILE)
def test_a_hostile_citation_text_is_inert(raw):
    for how in ("keyword", "explicit"):
        lowered = str(render.citation_note({"how": how, "raw_texts": [raw, raw + " 1"], "number": "1"})).lower()
        assert "<script" not in lowered and "<a " not in lowered and "<img" not in lowered and "<iframe" not in lowered


def test_dates_in_a_message_stay_on_one_line_and_the_rest_is_escaped():
    said = str(render.dates("<b>Riftbound</b> has no versions 2025-12-01 and 2030-01-01 (rules-2026-06-18.txt)."))
    assert said == (
        '&lt;b&gt;Riftbound&lt;/b&gt; has no versions <time datetime="2025-12-01">2025-12-01</time> and '
        '<time datetime="2030-01-01">2030-01-01</time> (rules-2026-06-18.txt).'
    )


@pytest.mark.parametrize("hostile", HOSTILE)
def test_a_symbols_gloss_keeps_the_shorthand_as_printed_and_escapes_everything(hostile):
    """A shorthand is glossed where it is printed, also run on to a number ("1[C]"), with its meaning in the
    abbreviation's title and in the text beside it, linking to the rule that defines it; every piece escaped."""
    symbol = Link("[C]", "/rules/x/135.2.e.6", f"Power {hostile}", defined_in=f"135.2.e.6{hostile}")
    page = str(linked(f"Pay 1[C] or [c]{hostile}.", [symbol]))
    assert "<script" not in page.lower() and "<img" not in page.lower() and "<iframe" not in page.lower()
    assert page.count('<span class="symbol" tabindex="0">') == 2  # "[c]": the link's text matches in any case
    title = html_escape(f"Power {hostile}")
    assert f'<abbr title="{title}">[C]</abbr><span class="gloss"> ({title}, <a href="/rules/x/135.2.e.6">' in page
    assert page.startswith("Pay 1<span")


def test_a_symbol_is_glossed_every_time_where_words_are_linked_once():
    linker = Linker([Link("[E]", "/r/1", "Exhausting", defined_in="1"), Link("Tank", "/k/tank")], words_once=True)
    html = str(linker("[E]: Tank. [E]: Tank."))
    assert html.count('class="symbol"') == 2 and html.count('href="/k/tank"') == 1
