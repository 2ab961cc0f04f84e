"""Turning raw rule text (HTML tags, entities, markdown emphasis) into plain text."""

from __future__ import annotations

import html
import re

_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9]*(?:\s[^<>]*)?/?>")
_MARKDOWN_EMPHASIS = re.compile(r"\*\*|__")
_INVISIBLE = re.compile(r"[\u200b\u2060\ufeff]")  # zero-width space, word joiner, byte-order mark


def plain_text(raw: str) -> str:
    """Markup stripped, entities decoded, invisible characters dropped, runs of spaces collapsed; line
    breaks kept."""
    # Each substitution only where its markup can be (a text without "<" holds no tag): most rule texts hold
    # none, and a parse reads every rule's text more than once.
    text = html.unescape(_TAG.sub("", raw) if "<" in raw else raw)
    if "**" in text or "__" in text:
        text = _MARKDOWN_EMPHASIS.sub("", text)
    text = _INVISIBLE.sub("", text)
    # Each line's runs of spaces (any: no-break, narrow, ideographic, ...) collapse to one; str.split() knows
    # them all, and the lines are split first so that no run spans two.
    return "\n".join(" ".join(line.split()) for line in text.split("\n")).strip()


def paragraph(raw: str) -> str:
    """Plain text as one paragraph: the lines of ``plain_text`` joined by spaces (a rule's text reads
    on, whatever line breaks its extraction kept)."""
    return " ".join(line for line in plain_text(raw).split("\n") if line)
