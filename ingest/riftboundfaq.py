"""Adapter for Q&A rulings published as a folder of MDX pages (the Riftbound FAQ project).

The folder holds pages (``*.mdx``) in sub-folders per category, ``meta.json`` files
that order them, and a ``LICENSE``. Each page is:

- YAML front matter: ``title``, ``createdAt``, ``reviewedCoreRulesVersion`` (the Core
  Rules version its citations are written against, by label: ``"1.4"``), ``authors``,
  optional ``galleryLink`` (the page is about one card) and ``rulingRelations``
  (anchor -> pages related to that question);
- ``## Question? [#anchor]`` sections, and ``### Sub-question [#anchor]`` sections
  inside them, each answered in paragraphs (one sentence per line; a blank line ends
  a paragraph), lists, ``<Callout>`` boxes, ``<Rule number="355.4" />`` citations,
  ``<Card name="Azir, Ascendant" />`` mentions, keyword and icon components
  (``<Deathknell />``, ``<Energy value={1} />``) and markdown links.

Every section of a page in a category's folder becomes a ruling: its heading is the question, its answer plain text
(a paragraph per line; citations written ``(rule 355.4)``, components as their names),
with its page, anchor, category, URL, author, date, reviewed version, citations, tagged
cards and related rulings (``rulingRelations`` and links to other questions). A page
about a card names that card in every ruling it holds. Text before a page's first
question is its introduction, skipped with that reason. The sections of a page outside
every category's folder (the site's own "About this site": using it, its legal notice)
are the source's notes about itself, not rulings (``ParsedRulings.notes``).
"""

from __future__ import annotations

import datetime
import json
import re
from pathlib import Path

import yaml

from ingest.errors import IngestError
from ingest.limits import check_json_nesting, check_json_surrogates
from ingest.model import ParsedCitation, ParsedNote, ParsedRuling, ParsedRulings, ParseIssue, SkippedLine
from ingest.source import load_yaml, read_lines

SITE = "https://www.riftboundfaq.com/"
SOURCE = "Riftbound FAQ"
_LICENCES = {  # the first line of a Creative Commons LICENSE file -> its short name and deed
    "Attribution-ShareAlike 4.0 International": ("CC BY-SA 4.0", "https://creativecommons.org/licenses/by-sa/4.0/"),
    "Attribution 4.0 International": ("CC BY 4.0", "https://creativecommons.org/licenses/by/4.0/"),
}

_HEADING = re.compile(r"^(?P<marks>#{2,3})\s+(?P<title>.*?)\s*(?:\[#(?P<anchor>[^\]\s]+)\])?\s*$")
_RULE_TAGS = re.compile(r'(?<![ \t])[ \t]*((?:<Rule\s+number="[^"]*"\s*/>[ \t]*)+)')  # from a run's start: linear
_RULE_NUMBER = re.compile(r'<Rule\s+number="([^"]*)"\s*/>')
_CARD = re.compile(r'<Card\s+name="([^"]*)"\s*/>')
_VALUED = re.compile(r"<(?P<name>[A-Z][A-Za-z]*)\s+value=\{(?P<value>[^}]*)\}\s*/>")
_ICON = re.compile(r"<(?P<name>[A-Z][A-Za-z]*)\s*/>")
_CALLOUT = re.compile(r"<Callout\b(?P<attributes>[^>]*)>")
_TITLE_ATTRIBUTE = re.compile(r'title="([^"]*)"')
_CLOSING_CALLOUT = re.compile(r"</Callout>")
_LINK = re.compile(r"\[(?P<text>[^\]]+)\]\((?P<target>[^)\s]+)\)")
_EMPHASIS = re.compile(r"(\*\*|__|\*|`)(?=\S)(.+?)(?<=\S)\1")
_LIST_ITEM = re.compile(r"^(?:\d+\.|[-*])\s")


def _texts(value) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


_SCALAR = (str, int, float, datetime.date)
# The front-matter keys the pages are read by: what each must hold.
_FRONT_MATTER = {
    "title": ("a text", lambda value: isinstance(value, _SCALAR)),
    "createdAt": ("a date", lambda value: isinstance(value, _SCALAR)),
    "reviewedCoreRulesVersion": ('a version such as "1.4"', lambda value: isinstance(value, _SCALAR)),
    "galleryLink": ("a link", lambda value: isinstance(value, str)),
    "authors": ("a list of names", _texts),
    "rulingRelations": (
        "anchors each mapped to a list of related pages",
        lambda value: isinstance(value, dict) and all(_texts(related) for related in value.values() if related),
    ),
}


def sniff_path(path: Path) -> bool:
    """A folder of MDX pages whose headings carry anchors (``## Question? [#anchor]``)."""
    if not path.is_dir():
        return False
    for page in sorted(path.rglob("*.mdx"))[:20]:
        if any(_HEADING.match(line) and "[#" in line for line in page.read_text(encoding="utf-8").splitlines()):
            return True
    return False


def parse_path(path: str | Path) -> ParsedRulings:
    root = Path(path)
    if not root.is_dir():
        raise IngestError(root, None, "a folder of MDX pages", "a file")
    pages = ordered_pages(root)
    if not pages:
        raise IngestError(root, None, "MDX pages (*.mdx) in the folder", "none")
    sections: list[ParsedRuling] = []  # numbered in source order, the notes' and the rulings' alike
    skipped: list[SkippedLine] = []
    issues: list[ParseIssue] = []
    offset = nonblank = 0
    categories: dict[Path, str | None] = {root: None}  # each folder's, read once (a card folder's pages tell)
    for page in pages:
        lines = read_lines(page)
        if page.parent not in categories:
            categories[page.parent] = _category(page.parent)
        _Page(root, page, lines, offset, categories[page.parent]).read(sections, skipped, issues)
        offset += len(lines)
        nonblank += sum(1 for line in lines if line.strip())
    licence, licence_url = _licence(root)
    return ParsedRulings(
        rulings=[section for section in sections if section.category is not None],
        notes=[_note(section) for section in sections if section.category is None],  # outside every category
        skipped=skipped,
        issues=issues,
        nonblank_lines=nonblank,
        source=SOURCE,
        licence=licence,
        licence_url=licence_url,
        line_count=offset,
    )


def _note(section: ParsedRuling) -> ParsedNote:
    return ParsedNote(
        position=section.position,
        title=section.question,
        text=section.ruling,
        lines=section.lines,
        page=section.page,
        anchor=section.anchor,
        url=section.url,
    )


def ordered_pages(root: Path) -> list[Path]:
    """The pages in the site's order: each folder's ``meta.json`` lists its pages and sub-folders
    (``"..."`` for the rest, alphabetically; ``---Title---`` entries are separators)."""
    order: list[Path] = []
    names = _meta_pages(root)
    # A link is never followed: it could lead out of the folder, and its text into the pages served.
    entries = {
        entry.stem if entry.suffix == ".mdx" else entry.name: entry
        for entry in root.iterdir()
        if not entry.is_symlink()
    }
    listed = [name for name in names if name in entries]
    rest = sorted(name for name, entry in entries.items() if name not in listed and _is_page_or_folder(entry))
    for name in listed + rest if "..." in names or not names else listed:
        entry = entries[name]
        order.extend(ordered_pages(entry) if entry.is_dir() else [entry])
    return order


def _meta_pages(folder: Path) -> list[str]:
    meta = folder / "meta.json"
    if not meta.exists():
        return []
    pages = _meta(folder).get("pages", [])
    if not isinstance(pages, list):
        raise IngestError(meta, None, "'pages': a list of page names", type(pages).__name__)
    return [page for page in pages if isinstance(page, str) and not page.startswith("---")]


def _meta(folder: Path) -> dict:
    """A folder's meta.json, an object ({} where there is none)."""
    meta = folder / "meta.json"
    if not meta.exists() or meta.is_symlink():
        return {}
    text = "\n".join(read_lines(meta, max_line=None))
    check_json_nesting(meta, text)
    check_json_surrogates(meta, text)
    try:
        data = json.loads(text)
    except ValueError as error:
        raise IngestError(meta, getattr(error, "lineno", None), "JSON", str(error)) from None
    if not isinstance(data, dict):
        raise IngestError(meta, 1, 'a JSON object ({"title": ..., "pages": [...]})', type(data).__name__)
    return data


def _is_page_or_folder(entry: Path) -> bool:
    return entry.suffix == ".mdx" or (entry.is_dir() and any(entry.rglob("*.mdx")))


def _licence(root: Path) -> tuple[str | None, str | None]:
    licence = root / "LICENSE"
    if not licence.exists():
        return None, None
    first = next((line.strip() for line in read_lines(licence) if line.strip()), "")
    return _LICENCES.get(first, (first or None, None))


class _Page:
    """One MDX page read into rulings."""

    def __init__(self, root: Path, path: Path, lines: list[str], offset: int, category: str | None):
        self.root, self.path, self.lines, self.offset = root, path, lines, offset
        self.slug = path.relative_to(root).with_suffix("").as_posix()
        self.meta, self.body_start = self._front_matter()
        self.category = category

    def read(self, rulings: list[ParsedRuling], skipped: list[SkippedLine], issues: list[ParseIssue]) -> None:
        sections = self._sections(skipped)
        relations = self.meta.get("rulingRelations") or {}
        parent: int | None = None
        for level, title, anchor, start, body in sections:
            if anchor is None:
                anchor = _slug(title)
                issues.append(
                    ParseIssue(
                        "malformed",
                        f"{self.slug}: heading {title!r} has no [#anchor]; anchored as #{anchor}",
                        self.offset + start,
                    )
                )
            position = len(rulings) + 1
            parent = position if level == 2 else parent
            answer, citations, cards, links = _answer(body)
            if self.meta.get("galleryLink"):
                cards = [str(self.meta.get("title")), *cards]
            rulings.append(
                ParsedRuling(
                    position=position,
                    question=_inline(title)[0],
                    ruling=answer,
                    citations=citations,
                    lines=[self.offset + start + index for index in range(len(body) + 1)],
                    raw="\n".join(body).strip(),
                    page=self.slug,
                    page_title=self.meta.get("title"),
                    category=self.category,
                    anchor=anchor,
                    url=f"{SITE}{'' if self.slug == 'index' else self.slug}#{anchor}",
                    author=", ".join(self.meta.get("authors") or []) or None,
                    created_at=str(self.meta["createdAt"]) if self.meta.get("createdAt") else None,
                    reviewed_version=_text(self.meta.get("reviewedCoreRulesVersion")),
                    parent_position=None if level == 2 else parent,
                    related=list(dict.fromkeys([*(relations.get(anchor) or []), *links])),
                    card_names=list(dict.fromkeys(cards)),
                )
            )

    def _front_matter(self) -> tuple[dict, int]:
        if not self.lines or self.lines[0].strip() != "---":
            return {}, 0
        for index, line in enumerate(self.lines[1:], start=1):
            if line.strip() == "---":
                try:
                    meta = load_yaml("\n".join(self.lines[1:index])) or {}
                except yaml.YAMLError as error:
                    mark = getattr(error, "problem_mark", None)
                    raise IngestError(
                        self.path, mark.line + 2 if mark else 1, "YAML front matter", str(error)
                    ) from None
                if not isinstance(meta, dict):
                    raise IngestError(self.path, 2, "front matter of 'key: value' lines", self.lines[1])
                self._check_shapes(meta, index)
                return meta, index + 1
        raise IngestError(self.path, 1, "front matter closed by a '---' line", "no closing '---'")

    def _check_shapes(self, meta: dict, closing: int) -> None:
        """Each key the pages are read by holds what it should (a title is text, authors a list of names, ...):
        the error names the key's line, not a type error deep in the build."""
        for key, (expected, valid) in _FRONT_MATTER.items():
            value = meta.get(key)
            if value is not None and not valid(value):
                line = next(
                    (number + 1 for number, text in enumerate(self.lines[1:closing], start=1) if text.startswith(key)),
                    2,
                )
                raise IngestError(self.path, line, f"front matter {key!r}: {expected}", repr(value)[:80])

    def _sections(self, skipped: list[SkippedLine]) -> list[tuple[int, str, str | None, int, list[str]]]:
        """(level, title, anchor, 1-based heading line, body lines) per ## and ### heading."""
        sections: list[tuple[int, str, str | None, int, list[str]]] = []
        for index in range(self.body_start, len(self.lines)):
            line = self.lines[index]
            heading = _HEADING.match(line)
            if heading:
                sections.append(
                    (len(heading.group("marks")), heading.group("title"), heading.group("anchor"), index + 1, [])
                )
            elif sections:
                sections[-1][4].append(line)
            elif line.strip():
                skipped.append(
                    SkippedLine(
                        self.offset + index + 1, f"{self.slug}: {line}", "page introduction (before its first question)"
                    )
                )
        return sections


def _category(folder: Path) -> str:
    """A folder of pages about one card each is "card"; any other is named by its meta.json title."""
    pages = list(folder.glob("*.mdx"))
    if pages and all("galleryLink:" in page.read_text(encoding="utf-8") for page in pages):
        return "card"
    title = _meta(folder).get("title")
    return (title if isinstance(title, str) and title else folder.name.replace("-", " ")).lower()


def _answer(body: list[str]) -> tuple[str, list[ParsedCitation], list[str], list[str]]:
    """An answer's plain text (one paragraph or list item per line), its citations, the cards it
    tags and the questions it links to."""
    paragraphs: list[str] = []
    current: list[str] = []
    citations: list[ParsedCitation] = []
    cards: list[str] = []
    links: list[str] = []
    for line in body:
        stripped = line.strip()
        if not stripped or (_LIST_ITEM.match(stripped) and not line.startswith(("\t", " "))):
            if current:
                paragraphs.append(" ".join(current))
            current = []
        if not stripped:
            continue
        citations += [ParsedCitation(number, f'<Rule number="{number}" />') for number in _RULE_NUMBER.findall(line)]
        cards += _CARD.findall(line)
        text, targets = _inline(stripped)
        links += targets
        if text:
            current.append(text)
    if current:
        paragraphs.append(" ".join(current))
    return "\n".join(paragraphs), citations, cards, links


def _inline(text: str) -> tuple[str, list[str]]:
    """MDX markup as plain text, and the site-internal link targets in it."""
    targets = [match.group("target") for match in _LINK.finditer(text) if match.group("target").startswith("/")]
    text = _RULE_TAGS.sub(lambda match: " " + _citation_text(_RULE_NUMBER.findall(match.group(1))), text)
    text = _CARD.sub(r"\1", text)
    text = _VALUED.sub(lambda match: f"[{_valued(match.group('name'), match.group('value'))}]", text)
    text = _ICON.sub(r"[\g<name>]", text)
    text = _CALLOUT.sub(lambda match: _callout_title(match.group("attributes")), text)
    text = _CLOSING_CALLOUT.sub("", text)
    text = _LINK.sub(r"\g<text>", text)
    text = _EMPHASIS.sub(r"\2", text)
    return " ".join(text.split()), targets


def _citation_text(numbers: list[str]) -> str:
    return f"(rule {numbers[0]})" if len(numbers) == 1 else f"(rules {', '.join(numbers)})"


def _valued(name: str, value: str) -> str:
    return value if name == "Energy" else f"{name} {value}"


def _callout_title(attributes: str) -> str:
    title = _TITLE_ATTRIBUTE.search(attributes)
    return f"{title.group(1)}: " if title else ""


def _slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def _text(value: object) -> str | None:
    return None if value is None else str(value)
