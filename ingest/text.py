"""Turning raw rule text (HTML tags, entities, markdown emphasis) into plain text."""

from __future__ import annotations

import html
import re

_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9]*(?:\s[^<>]*)?/?>")
_MARKDOWN_EMPHASIS = re.compile(r"\*\*|__")
_SPACES = re.compile(r"[^\S\n]+")  # any space but a line break: no-break, narrow, ideographic, ...
_INVISIBLE = re.compile(r"[\u200b\u2060\ufeff]")  # zero-width space, word joiner, byte-order mark


def plain_text(raw: str) -> str:
    """Markup stripped, entities decoded, invisible characters dropped, runs of spaces collapsed; line
    breaks kept."""
    text = html.unescape(_TAG.sub("", raw))
    text = _INVISIBLE.sub("", _MARKDOWN_EMPHASIS.sub("", text))
    return "\n".join(line.strip() for line in _SPACES.sub(" ", text).split("\n")).strip()  # no run spans lines


def paragraph(raw: str) -> str:
    """Plain text as one paragraph: the lines of ``plain_text`` joined by spaces (a rule's text reads
    on, whatever line breaks its extraction kept)."""
    return " ".join(line for line in plain_text(raw).split("\n") if line)
