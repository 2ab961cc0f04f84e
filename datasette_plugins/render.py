"""Turning stored text into safe HTML.

Rule text is data. Sources carry ``<i>``, ``<b>`` and ``<a href>``, and a hostile
document can carry anything, so raw text goes through nh3 with an allow-list of
harmless formatting tags and no attributes at all: no links, no event handlers
come from source text. Our own links (cross-references, keyword mentions, card
names) are added afterwards, inside the text between the allowed tags: that text
is unescaped, matched, and every piece escaped again on the way out.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

import nh3
from markupsafe import Markup, escape

from rules_db.search import MARK_END, MARK_START

ALLOWED_TAGS = {"i", "b", "em", "strong", "sup"}
_TAG = re.compile(r"(<[^>]*>)")
_MARKDOWN_BOLD = re.compile(r"\*\*(.+?)\*\*")


@dataclass(frozen=True)
class Link:
    """Link every occurrence of ``text`` (a whole word or rule number) to ``href``; with ``defined_in`` (a rule's
    number), ``text`` is a symbol's shorthand (``[A]``) and ``title`` what it stands for: the shorthand stays as
    printed, glossed (``Linker.gloss``), and the gloss links to the defining rule at ``href``."""

    text: str
    href: str
    title: str = ""
    number: bool = False  # a rule number: must not run on into a longer number (411 in 411.1)
    defined_in: str = ""

    def pattern(self) -> str:
        if self.defined_in:  # a shorthand's brackets delimit it, also run on to a number ("1[C]")
            return re.escape(self.text)
        if self.number:
            return rf"(?<![\w.]){re.escape(self.text)}(?![\w]|\.[0-9A-Za-z])"
        return rf"(?<!\w){re.escape(self.text)}(?!\w)"


def sanitise(raw: str) -> str:
    """Raw source text as HTML holding nothing but harmless formatting tags (markdown bold made <b>)."""
    return nh3.clean(
        _MARKDOWN_BOLD.sub(r"<b>\1</b>", raw or ""),
        tags=ALLOWED_TAGS,
        attributes={},
        url_schemes=set(),
        strip_comments=True,
        link_rel=None,
    )


class Linker:
    """Adds one page's links to the texts on that page.

    Rule numbers are linked wherever they appear. With ``words_once`` (for long prose
    such as a ruling), words (keywords, card names) are linked only where their target
    first appears on the page, so the text does not drown in links.
    """

    def __init__(self, links: Iterable[Link] = (), *, words_once: bool = False):
        self.words_once = words_once
        self.by_text: dict[str, Link] = {}
        for link in sorted(links, key=lambda link: len(link.text), reverse=True):
            if link.text:
                self.by_text.setdefault(link.text.lower(), link)
        self.patterns = [_compiled(link.pattern()) for link in self.by_text.values()]
        self.linked_targets: set[str] = set()

    def __call__(self, raw: str, *, formatted: bool = True) -> Markup:
        """``raw`` as safe HTML with the links added; ``formatted=False`` treats all of it as plain text."""
        safe = sanitise(raw) if formatted else html.escape(raw or "", quote=False)
        pieces = [
            part if part.startswith("<") and part.endswith(">") else self._link_text(html.unescape(part))
            for part in _TAG.split(safe)
        ]
        return Markup("".join(pieces).replace("\n", "<br>\n"))

    def _link_text(self, text: str) -> str:
        out, position = [], 0
        for match in self._occurrences(text):
            link = self.by_text[match.group(0).lower()]
            if self.words_once and not link.number and not link.defined_in and link.href in self.linked_targets:
                continue
            self.linked_targets.add(link.href)
            out.append(html.escape(text[position : match.start()]))
            out.append(self.gloss(link, match.group(0)) if link.defined_in else self.anchor(link, match.group(0)))
            position = match.end()
        out.append(html.escape(text[position:]))
        return "".join(out)

    @staticmethod
    def anchor(link: Link, printed: str) -> str:
        title = f' title="{html.escape(link.title)}"' if link.title else ""
        return f'<a href="{html.escape(link.href)}"{title}>{html.escape(printed)}</a>'

    @staticmethod
    def gloss(link: Link, printed: str) -> str:
        """A symbol's shorthand as printed, with what it stands for: on hover (``abbr``'s title), read aloud by a
        screen reader and shown where a tap or the keyboard focuses it (the ``gloss``, hidden until then by the
        style sheet), linking to the rule that defines it."""
        meaning, number = html.escape(link.title), html.escape(link.defined_in)
        return (
            f'<span class="symbol" tabindex="0"><abbr title="{meaning}">{html.escape(printed)}</abbr>'
            f'<span class="gloss"> ({meaning}, <a href="{html.escape(link.href)}">rule {number}</a>)</span></span>'
        )

    def _occurrences(self, text: str) -> Iterator[re.Match]:
        """The links' texts in ``text``, left to right and never overlapping, the longest where several start at
        one place: what one pattern of all the links would find. Each link's own pattern is compiled once per
        process (``_compiled``); compiling their alternation anew for every page was most of a ruling page's cost."""
        upcoming = {index: found for index, pattern in enumerate(self.patterns) if (found := pattern.search(text))}
        while upcoming:
            index, match = min(upcoming.items(), key=lambda item: (item[1].start(), item[0]))
            yield match
            for other, found in list(upcoming.items()):
                if found.start() < match.end():
                    if later := self.patterns[other].search(text, match.end()):
                        upcoming[other] = later
                    else:
                        del upcoming[other]


@lru_cache(maxsize=8192)
def _compiled(pattern: str) -> re.Pattern:
    """A link's pattern, compiled once: pages of one database link the same rule numbers and words again and again."""
    return re.compile(pattern, re.IGNORECASE)


def linked(raw: str, links: Iterable[Link] = (), *, formatted: bool = True) -> Markup:
    """One text on its own, as safe HTML with ``links`` added (see ``Linker``)."""
    return Linker(links)(raw, formatted=formatted)


def highlighted(snippet: str | None) -> Markup:
    """An FTS5 snippet, escaped, with its match markers as <mark>."""
    escaped = html.escape(snippet or "")
    return Markup(escaped.replace(MARK_START, "<mark>").replace(MARK_END, "</mark>"))


def outline(nodes: list[dict], href: Callable[[str], str], preview_length: int = 120) -> Markup:
    """A rule tree (``rules_db.queries.outline``) as nested lists: every node links to its rule by number
    (``href``), and a node with children folds open and shut (``<details>``, no script needed). Built here
    rather than in a template: a rulebook has hundreds of nodes."""
    out: list[str] = []

    def walk(level: list[dict]) -> None:
        out.append("<ul>")
        for node in level:
            text = (
                f'<span class="rule-heading">{html.escape(node["heading"])}</span>'
                if node["heading"]
                else f'<span class="preview">{html.escape(node["preview"] or "")}'
                f"{'…' if len(node['preview'] or '') >= preview_length else ''}</span>"
            )
            link = (
                f'<a href="{html.escape(href(node["number"]))}">'
                f'<span class="rule-number">{html.escape(node["number"])}</span> {text}</a>'
            )
            if node["children"]:
                out.append(f'<li><details><summary>{link} <span class="note">{len(node["children"])}</span></summary>')
                walk(node["children"])
                out.append("</details></li>")
            else:
                count = node["sub_rules"]
                note = f' <span class="note">{count} sub-rule{"" if count == 1 else "s"}</span>' if count else ""
                out.append(f"<li>{link}{note}</li>")
        out.append("</ul>")

    walk(nodes)
    return Markup("".join(out))


def marked(text: str, words: list[str]) -> Markup:
    """Plain text, escaped, with every whole-word occurrence of ``words`` (any case) in <mark>."""
    words = [word for word in words if word]
    if not words:
        return Markup(html.escape(text or ""))
    pattern = re.compile(
        "|".join(rf"(?<!\w){re.escape(word)}(?!\w)" for word in sorted(words, key=len, reverse=True)), re.IGNORECASE
    )
    out, position = [], 0
    for match in pattern.finditer(text or ""):
        out.append(html.escape(text[position : match.start()]))
        out.append(f"<mark>{html.escape(match.group(0))}</mark>")
        position = match.end()
    out.append(html.escape((text or "")[position:]))
    return Markup("".join(out))


def diff(ops: list[dict]) -> Markup:
    """Word-diff operations (``rules_db.queries.diff_ops``) as escaped HTML:
    deleted words in <del>, inserted ones in <ins>."""
    tags = {"delete": "del", "insert": "ins"}
    pieces = [
        f"<{tags[op['op']]}>{html.escape(op['text'])}</{tags[op['op']]}>"
        if op["op"] in tags
        else html.escape(op["text"])
        for op in ops
    ]
    return Markup(f'<span class="diff">{"".join(pieces)}</span>')


# ---------------------------------------------------------------- dates

# A date as ISO 8601 writes it (a year, a month or a day, perhaps with its time): what <time datetime> accepts.
_ISO_DATE = re.compile(r"\d{4}(-\d{2}(-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?)?)?")
_ISO_DATE_IN_TEXT = re.compile(r"(?<![\w-])\d{4}-\d{2}-\d{2}(?![\w-])")  # a day in a message; not in a file's name


def date(value: object) -> Markup:
    """A date (a version's, a ruling's) as a ``<time>`` element, which the style sheet keeps on one line: a phone
    broke "2026-06-18" at its hyphens. Any other value (a version named "1.1" or "unversioned") is only escaped."""
    text = "" if value is None else str(value)
    if _ISO_DATE.fullmatch(text):
        return Markup(f'<time datetime="{text}">{text}</time>')
    return escape(text)


def dates(text: object) -> Markup:
    """A plain text (a message) escaped, each date in it kept on one line as ``date`` keeps one."""
    escaped = str(escape("" if text is None else text))
    return Markup(_ISO_DATE_IN_TEXT.sub(lambda found: date(found.group(0)), escaped))


def sentence(text: str) -> str:
    """A message shown alone, as a sentence: its first letter a capital, the rest as written (a card's name, a
    rule number and an id keep their case). Messages are written to follow a colon ("line 3: …")."""
    return text[:1].upper() + text[1:]


# ---------------------------------------------------------------- links to rules
# The pages' most repeated pieces, made here rather than as Jinja macros (a rule page lists dozens of rules, and an
# async macro call cost more than the rest of its line); the templates call them as globals (``TEMPLATE_GLOBALS``).
# ``paths`` is the page's ``pages.Paths``; a row points at a rule as ``rules_db.queries`` rows do.


def rule_link(paths, row: dict, show_version: bool = False, show_preview: bool = False) -> Markup:
    """A rule's number linked to its page, with its heading (or, ``show_preview``, the start of its text)."""
    label = ""
    if row.get("heading"):
        label = f' <span class="rule-heading">{escape(row["heading"])}</span>'
    elif show_preview and row.get("preview"):
        more = "…" if len(row["preview"]) >= 160 else ""
        label = f' <span class="preview">{escape(row["preview"])}{more}</span>'
    version = f' <span class="version">({date(row.get("version", ""))})</span>' if show_version else ""
    return Markup(
        f'<a class="rule-link" href="{escape(paths.rule(row))}"><span class="rule-number">'
        f"{escape(row.get('number', ''))}</span>{label}{version}</a>"
    )


def ruling_link(paths, row: dict) -> Markup:
    """A ruling's question linked to its page, with the question it is part of when it is a sub-question
    (``part_of``, ``queries.PART_OF``)."""
    part_of = f' <span class="note">part of “{escape(row["part_of"])}”</span>' if row.get("part_of") else ""
    return Markup(f'<a href="{escape(paths.ruling(row["id"]))}">{escape(row["question"])}</a>{part_of}')


def citation_note(citation: dict) -> Markup:
    """How a ruling cites a rule, in a judge's words: by the keyword it mentions, or by the words that give the
    number, each quoted when a ruling cites the rule in several (``raw_texts``); nothing when the number is all
    it wrote (the FAQ's markup ``<Rule number="355.5" />`` or "(443.1.e)" says no more)."""
    texts = [html.unescape(nh3.clean(raw or "", tags=set())).strip() for raw in citation["raw_texts"]]
    if citation["how"] == "keyword":
        return Markup(f"by the keyword {_quoted(texts)}")
    number = citation.get("cited_number") or citation.get("number")
    words = [text for text in texts if text.strip(_AROUND_A_NUMBER) not in ("", number)]
    return Markup(f"cited as {_quoted(words)}") if words else Markup("")


_AROUND_A_NUMBER = " ()[].,;:"


def _quoted(texts: list[str]) -> str:
    """Texts each in quotes, escaped, and read as a list: “a”, “b” and “c”."""
    quoted = [f"“{escape(text)}”" for text in dict.fromkeys(texts)]
    return " and ".join([", ".join(quoted[:-1]), quoted[-1]] if len(quoted) > 1 else quoted)


def equivalents(paths, cited: dict) -> Markup:
    """The same rule in the rulebook's other versions (``queries.citations``), one line each: shown when the
    citation is not of the newest rules (then only the newest, what it means today), folded when it is (older
    numbers are seldom asked)."""
    if not cited.get("equivalents"):
        return Markup("")
    lines = "".join(
        f"<li>{escape(cited.get('number', ''))} ({date(cited.get('version', ''))}) is {rule_link(paths, other)} in "
        f'{date(other["version"])} <span class="note">'
        f"({'nearest ancestor' if other['kind'] == 'ancestor' else escape(other['kind'])})</span></li>"
        for other in cited["equivalents"]
    )
    listed = f'<ul class="equivalents">{lines}</ul>'
    if cited.get("stale"):
        return Markup(listed)
    count = len({other["version"] for other in cited["equivalents"]})  # a rule split in two is one version
    return Markup(
        f'<details class="equivalents"><summary>In {count} older version{"s" if count > 1 else ""}</summary>'
        f"{listed}</details>"
    )


def version_note(paths, cited: dict) -> Markup:
    """A cited rule's version and, when it is not the newest, what the citation means in the newest rules."""
    note = f'<span class="version">({date(cited.get("version", ""))})</span>'
    if cited.get("stale"):
        newest = "".join(
            f'; in {date(other["version"])} this is <a class="rule-link" href="{escape(paths.rule(other))}">'
            f"{escape(other['number'])}</a>{' (nearest ancestor)' if other['kind'] == 'ancestor' else ''}"
            for other in cited.get("in_newest") or []
        )
        note += (
            f' <span class="stale">cites the {date(cited.get("version", ""))} rules'
            f"{newest or '; nothing like it in the newest rules'}</span>"
        )
    return Markup(note)


def rule_list(paths, rows: list[dict], show_preview: bool = True, show_version: bool = False) -> Markup:
    """Rules as a list of links, each stale one with its version note."""
    items = "".join(
        f"\n  <li>{rule_link(paths, row, show_version, show_preview)}"
        f"{' ' + version_note(paths, row) if row.get('stale') else ''}</li>\n"
        for row in rows
    )
    return Markup(f'<ul class="rule-list links">\n{items}\n</ul>')


TEMPLATE_GLOBALS = {
    "citation_note": citation_note,
    "rule_link": rule_link,
    "ruling_link": ruling_link,
    "equivalents": equivalents,
    "version_note": version_note,
    "rule_list": rule_list,
}
