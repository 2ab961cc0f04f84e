"""The pages of what is in force: a version's patch notes (``/patch-notes/<game>/<name>``), rendered from the
markdown the database holds (markdown-it, raw HTML off, then nh3's allow-list as every document text is)."""

from __future__ import annotations

import nh3
from markdown_it import MarkdownIt
from markupsafe import Markup

from datasette_plugins.web import FORMAT, GAME, ask, not_found, respond, url_var
from rules_db import in_force

ROUTE_PATTERNS = {"patch_notes": rf"^/patch-notes/{GAME}/(?P<name>[a-z0-9][a-z0-9-]*){FORMAT}"}
_MARKDOWN = MarkdownIt("commonmark", {"html": False, "linkify": False})


# What markdown makes of an article: its structure and links (to the web only), nothing else.
_TAGS = {"h1", "h2", "h3", "h4", "h5", "h6", "p", "ul", "ol", "li", "em", "strong", "a", "blockquote", "code", "pre"}
_TAGS |= {"br", "hr"}


def rendered(text: str) -> Markup:
    """Markdown as safe HTML: raw HTML in it is shown as text (markdown-it, html off), and what markdown makes
    passes nh3's allow-list (headings, paragraphs, lists, emphasis, links to http(s) addresses)."""
    return Markup(
        nh3.clean(
            _MARKDOWN.render(text),
            tags=_TAGS,
            attributes={"a": {"href"}},
            url_schemes={"http", "https"},
            link_rel="noopener noreferrer",
            strip_comments=True,
        )
    )


async def patch_notes(datasette, request):
    game, name = url_var(request, "game"), url_var(request, "name")
    database, data = await ask(datasette, in_force.patch_notes_page, game, name)
    if data is None:
        return await not_found(datasette, request, database, f"No patch notes “{name}” for {game}.")
    return await respond(datasette, request, database, "patch_notes.html", data, text_html=rendered(data["text"]))


VIEWS = {"patch_notes": patch_notes}
