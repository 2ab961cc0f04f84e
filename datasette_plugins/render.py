"""Turning stored text into safe HTML.

Rule text is data. Sources carry ``<i>``, ``<b>`` and ``<a href>``, and a hostile
document can carry anything, so raw text goes through nh3 with an allow-list of
harmless formatting tags and no attributes at all: no links, no event handlers
come from source text. Our own links (cross-references, keyword mentions, card
names) are added afterwards, inside the text between the allowed tags: that text
is unescaped, matched, and every piece escaped again on the way out.
"""

from __future__ import annotations

import difflib
import html
import re
from collections.abc import Iterable
from dataclasses import dataclass

import nh3
from markupsafe import Markup

from rules_db.search import MARK_END, MARK_START

ALLOWED_TAGS = {"i", "b", "em", "strong", "sup"}
_TAG = re.compile(r"(<[^>]*>)")
_MARKDOWN_BOLD = re.compile(r"\*\*(.+?)\*\*")
_WORDS = re.compile(r"\S+\s*|\s+")


@dataclass(frozen=True)
class Link:
    """Link every occurrence of ``text`` (a whole word or rule number) to ``href``."""

    text: str
    href: str
    title: str = ""
    number: bool = False  # a rule number: must not run on into a longer number (411 in 411.1)

    def pattern(self) -> str:
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
            self.by_text.setdefault(link.text.lower(), link)
        self.pattern = (
            re.compile("|".join(link.pattern() for link in self.by_text.values()), re.IGNORECASE)
            if self.by_text
            else None
        )
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
        if self.pattern is None:
            return html.escape(text)
        out, position = [], 0
        for match in self.pattern.finditer(text):
            link = self.by_text[match.group(0).lower()]
            if self.words_once and not link.number and link.href in self.linked_targets:
                continue
            self.linked_targets.add(link.href)
            title = f' title="{html.escape(link.title)}"' if link.title else ""
            out.append(html.escape(text[position : match.start()]))
            out.append(f'<a href="{html.escape(link.href)}"{title}>{html.escape(match.group(0))}</a>')
            position = match.end()
        out.append(html.escape(text[position:]))
        return "".join(out)


def linked(raw: str, links: Iterable[Link] = (), *, formatted: bool = True) -> Markup:
    """One text on its own, as safe HTML with ``links`` added (see ``Linker``)."""
    return Linker(links)(raw, formatted=formatted)


def highlighted(snippet: str | None) -> Markup:
    """An FTS5 snippet, escaped, with its match markers as <mark>."""
    escaped = html.escape(snippet or "")
    return Markup(escaped.replace(MARK_START, "<mark>").replace(MARK_END, "</mark>"))


def word_diff(old: str, new: str) -> list[dict]:
    """Word-level changes from ``old`` to ``new``: runs of equal, delete and insert."""
    old_words, new_words = _WORDS.findall(old or ""), _WORDS.findall(new or "")
    ops = []
    matcher = difflib.SequenceMatcher(a=old_words, b=new_words, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag in ("equal", "delete", "replace"):
            ops.append({"op": "equal" if tag == "equal" else "delete", "text": "".join(old_words[i1:i2])})
        if tag in ("insert", "replace"):
            ops.append({"op": "insert", "text": "".join(new_words[j1:j2])})
    return ops
