"""Adapter for official FAQ articles collected verbatim in one markdown file.

The file opens with a header (``# Riftbound rules FAQs, verbatim``: what the collection is, a list of the
articles with their dates and status), then holds each article as a top-level section::

    # vendetta-rules-faq-and-clarifications

    *Published 2026-08-14 — claims precedence over the Core Rules. [Source](https://playriftbound.com/...).*

    ...the article, its questions as bold lines (``**What happens when ...?**``)...

Each article is a document of its own (``articles``), read by ``ingest.faq_articles``; its title is made from
its id (``Vendetta Rules FAQ and Clarifications``) and its publisher from its source link. Lines reported are
the file's.
"""

from __future__ import annotations

import re
from pathlib import Path

from ingest.errors import IngestError
from ingest.faq_articles import Article, parse_article
from ingest.model import ParsedRulings
from ingest.source import read_lines

_ARTICLE = re.compile(r"^#\s+(?P<id>[a-z0-9][a-z0-9-]*)\s*$")
_PUBLISHED = re.compile(
    r"^\s*\*?\s*Published\s+(?P<date>\d{4}-\d{2}-\d{2})\b.*?(?:\[[^\]]*\]\((?P<url>[^)\s]+)\))?[.\s*]*$",
    re.IGNORECASE,
)
_SMALL_WORDS = {"and", "or", "of", "the", "a", "an", "to", "in", "for", "on"}
_CAPITALS = {"faq": "FAQ", "faqs": "FAQs", "rq": "RQ"}


def sniff(lines: list[str]) -> bool:
    """A top-level section named by an id whose first line says when it was published."""
    return any(_ARTICLE.match(line) for line in lines) and any(_PUBLISHED.match(line) for line in lines)


def articles(path: str | Path) -> list[Article]:
    """Every article section of the file, in its order."""
    lines = read_lines(path)
    starts = [index for index, line in enumerate(lines) if _ARTICLE.match(line)]
    if not starts:
        raise IngestError(path, None, "a section '# <article-id>' for each FAQ article", lines[0][:80])
    found = []
    for start, end in zip(starts, [*starts[1:], len(lines)]):
        article_id = lines[start].lstrip("# ").strip()
        published = next(
            ((index, match) for index in range(start + 1, end) if (match := _PUBLISHED.match(lines[index]))), None
        )
        if published is None:
            raise IngestError(path, start + 1, f"a '*Published YYYY-MM-DD ...*' line in {article_id}", lines[start])
        index, match = published
        found.append(
            Article(
                id=article_id,
                title=title_of(article_id),
                published=match.group("date"),
                url=match.group("url"),
                source="unknown",
                lines=lines[index + 1 : end],
                first_line=index + 2,
            )
        )
    return found


def parse_part(path: str | Path, part: str) -> ParsedRulings:
    for article in articles(path):
        if article.id == part:
            return parse_article(article)
    raise IngestError(path, None, f"an article section '# {part}'", "none")


def title_of(article_id: str) -> str:
    """An article's title made from its id: ``vendetta-rules-faq-and-clarifications`` -> ``Vendetta Rules FAQ
    and Clarifications``."""
    words = article_id.split("-")
    return " ".join(
        _CAPITALS.get(word, word if index and word in _SMALL_WORDS else word.capitalize())
        for index, word in enumerate(words)
    )
