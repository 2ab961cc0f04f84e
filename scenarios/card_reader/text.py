"""Card text as the reader sees it: paragraphs (one ability each), reminder text set apart, sentences, and the
normalised form the templates match ("+2 [Might]" -> "+2 might", lower case, one kind of dash)."""

from __future__ import annotations

import re
from dataclasses import dataclass

_REMINDER = re.compile(r"\s*\(([^()]*)\)")
_SENTENCE_END = re.compile(r"(?<=[.!])\s+")


@dataclass(frozen=True)
class Paragraph:
    text: str  # without reminder text
    reminders: tuple[str, ...]  # the parenthesised reminders it held


def paragraphs(text: str) -> list[Paragraph]:
    found: list[Paragraph] = []
    for line in (text or "").replace("\r", "").split("\n"):
        line = line.strip()
        if not line:
            continue
        reminders = tuple(r.strip() for r in _REMINDER.findall(line))
        text = _REMINDER.sub("", line).strip()
        if text.startswith("•") and found:  # a bullet is one mode of the ability listing it above (355.3)
            found[-1] = Paragraph(f"{found[-1].text} {text}", found[-1].reminders + reminders)
            continue
        found.append(Paragraph(text, reminders))
    return found


def sentences(text: str) -> list[str]:
    """The sentences of a paragraph; a bulleted list of modes, sentences and all, is part of the sentence that
    introduces it ("Choose one — • Draw 1. • ...", 355.3)."""
    head, bullet, modes = text.partition("•")
    found = [s.strip() for s in _SENTENCE_END.split(head) if s.strip()]
    if bullet:
        last = found.pop() if found and not re.search(r"[.!]\s*$", head) else ""
        found.append(f"{last} {bullet}{modes}".strip())
    return found


def normalise(text: str) -> str:
    text = text.replace("[Might]", "might").replace("’", "'").replace("–", "—")
    text = re.sub(r"\s+-\s+", " — ", text)
    text = re.sub(r"\s+", " ", text)
    return text.strip().lower()


def template_of(sentence: str, names: tuple[str, ...] = ()) -> str:
    """A sentence as a template, for counting: numbers as N, the card's own names as NAME."""
    shown = normalise(sentence)
    for name in names:
        if name:
            shown = shown.replace(name.lower(), "NAME")
    return re.sub(r"\d+", "N", shown)
