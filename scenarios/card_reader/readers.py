"""The paragraph readers of the template families, in one registry: a family registers a reader of the paragraphs
it recognises (`@paragraph_reader(stage)`), and `read_by` tries them, in the one order `READERS` keeps.

Sentence-level hooks are elsewhere: `effects.TEMPLATES` (instructions), `abilities.TRIGGERS` (trigger conditions),
`abilities.INSTEAD` (a sentence rewriting the instructions before it) and `abilities.SPANNING` (instructions
running past a sentence's end).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from scenarios.card_reader.phrases import Context


@dataclass(frozen=True)
class Around:
    """What a paragraph reader may need besides the text, the card and the templates used."""

    spell: Context | None = None  # a spell's context (its instructions go there); None for a permanent's text
    condition: str | None = None  # the condition word the paragraph depends on ("level 3", "empowered"); None


NOTHING_AROUND = Around()
# A reader of paragraphs a family recognises: (text without its keywords, the definition, the templates used,
# `Around`) -> True when it read the paragraph into the definition, False when it is not of its kind; Unread for
# a paragraph of its kind with words it can't read.
Reader = Callable[[str, dict[str, Any], list[str], Around], bool]
# THE ONE ORDER readers are tried in: by stage, then by family (the module registering it), then in the order the
# family registered them. "first": on a whole paragraph before the general readers (`read_paragraph`; the spell's
# context in `Around`); "static": inside `read_static`, after its own forms and before "<units> have <X>" (also
# under a condition, `read_with_condition`); "last": after the general readers, and on the rest of a "[Level N]"
# or "[Empowered]" paragraph with its condition word (`read_level`). Where the order matters today: amounts
# before statics ("token units have" before the qualified passive: Soul Shepherd), and in entering,
# `read_entering` before `read_conditional_passive` (Bandle Soldier). A module not in FAMILIES can't register (ValueError at import).
STAGES = ("first", "static", "last")
FAMILIES = (
    *("amounts", "costs", "damage", "deck", "entering", "instead"),
    *("movement", "players", "plays", "powers", "statics", "trigger_conditions"),
)
READERS: list[tuple[str, Reader]] = []  # (stage, reader), kept in that order


def _rank(entry: tuple[str, Reader]) -> tuple[int, int]:
    return STAGES.index(entry[0]), FAMILIES.index(entry[1].__module__.rsplit(".", 1)[-1])


def paragraph_reader(stage: str) -> Callable[[Reader], Reader]:
    """Register the decorated reader at `stage` (one of `STAGES`); its module must be one of `FAMILIES`."""

    def register(read: Reader) -> Reader:
        READERS.append((stage, read))
        READERS.sort(key=_rank)  # stable: a family's readers keep the order it registered them in
        return read

    return register


def read_by(stage: str, text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """Whether a reader registered at `stage` read the paragraph (tried in `READERS`' order)."""
    return any(read(text, card, used, around) for at, read in READERS if at == stage)
