"""Adapter for official FAQ articles exported as JSON (a list of news articles, several in one file).

The file is a JSON list of ``{kind, id, title, summary, content, source, publishedAt, originUrl, updatedAt}``;
``content`` is the article's markdown (``ingest.faq_articles`` reads it). Each article is a document of its own
(``articles`` lists them, the build stores each as one document dated by ``publishedAt``), credited to its
publisher: Riot for an article on Riot's sites, else the ``source`` the file names (an event's rulings page, by
its author). Lines reported for an article (skipped lines, rulings' first lines) count from the first line of
its ``content``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from ingest.errors import IngestError
from ingest.faq_articles import Article, parse_article
from ingest.limits import check_size
from ingest.model import ParsedRulings

FIELDS = ("id", "title", "content", "publishedAt")
_DATE = re.compile(r"^(\d{4}-\d{2}-\d{2})")


def articles(path: str | Path) -> list[Article]:
    """Every article of the file, in its order; an item that is not an article names its position."""
    path = Path(path)
    if not path.exists():
        raise IngestError(path, None, "an existing file", "no such file")
    check_size(path, path.stat().st_size)
    try:
        items = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        line = getattr(error, "lineno", None)
        raise IngestError(path, line, "a JSON list of FAQ articles", str(error)[:120]) from None
    if not isinstance(items, list) or not items:
        raise IngestError(path, None, "a JSON list of FAQ articles", type(items).__name__)
    found, seen = [], set()
    for index, item in enumerate(items, start=1):
        where = f"article {index}"
        if not isinstance(item, dict):
            raise IngestError(path, None, f"an object for {where}", type(item).__name__)
        missing = [name for name in FIELDS if not isinstance(item.get(name), str) or not item[name].strip()]
        if missing:
            raise IngestError(path, None, f"{where} with {', '.join(missing)}", json.dumps(item)[:80])
        date = _DATE.match(item["publishedAt"])
        if not date:
            raise IngestError(path, None, f"an ISO publishedAt date for {where}", item["publishedAt"])
        if item["id"] in seen:
            raise IngestError(path, None, f"a different id for {where}", item["id"])
        seen.add(item["id"])
        found.append(
            Article(
                id=item["id"],
                title=" ".join(item["title"].split()),
                published=date.group(1),
                url=item.get("originUrl") or None,
                source=item.get("source") or "unknown",
                lines=item["content"].splitlines(),
            )
        )
    return found


def parse_part(path: str | Path, part: str) -> ParsedRulings:
    """The rulings of the article ``part`` (its id) of the file."""
    for article in articles(path):
        if article.id == part:
            return parse_article(article)
    raise IngestError(path, None, f"an article with the id {part!r}", "none")
