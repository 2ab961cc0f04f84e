"""THE table of the conditions card text states about the board and its players ("if you control a Poro", "if an
opponent controls a battlefield", "if a unit died this turn") -> the condition word the engine registers for it
(`kernel.condition`, 364.3.a). Every family reading "if <condition>" of this kind asks `condition_word`: a unit's
"I enter ready if ..." (`entering`), "this costs [2] less if ..." (`costs`), "If ..., <X> instead" (`instead`), "If you control ..., <X>" (`otherwise`);
`players` builds its "if an opponent ..." sentences from `OPPONENT` and `opponent_condition`.

Conditions of another kind keep their own tables: a passive's "while I'm at a battlefield" (`statics`, words of
rules/restrictions.py), the object chosen ("if it is stunned", `otherwise`), the source's own past ("if I died
alone", `effects`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from scenarios.card_reader.phrases import NUMBER_WORDS, UNIT_TAGS, number

_COUNT = r"(?P<n>\d+|" + "|".join(w for w in NUMBER_WORDS if w not in ("a", "an")) + ")"
_DIED = re.compile(r"(?P<side>an? |a friendly |an enemy )unit (?:has )?died this turn")
_WITHIN = r"an opponent's score is within (?P<n>[1-7]) points? of the victory score"
# "if an opponent ...": the conditions about opponents (rules/players.py), inside other families' sentences too
OPPONENT = rf"(?:{_WITHIN}|an opponent controls (?P<what>a battlefield|a stunned unit))"


def opponent_condition(found: re.Match) -> str:
    """The condition word (`scenarios/rules/players.py`) the matched `OPPONENT` says."""
    if found["n"]:
        return f"an opponent within {found['n']} points of the victory score"
    return f"an opponent controls {found['what']}"


def _runes(m: re.Match) -> str | None:
    n = number(m["n"])
    registered = n is not None and (0 if m["side"] == "fewer" else 1) <= n <= 12
    return f"you control {n} or {m['side']} runes" if registered else None


# "if <condition>" as card text says it -> the condition word (364.3.a), the first pattern matching in full
CONDITIONS: list[tuple[re.Pattern, Callable[[re.Match], str | None]]] = [
    (
        re.compile(r"you control another (?P<t>" + "|".join(UNIT_TAGS) + ")"),
        lambda m: f"you control another {UNIT_TAGS[m['t']]}",  # rules/entering.py
    ),
    (
        re.compile(r"you control a (?P<t>" + "|".join(UNIT_TAGS) + ")"),
        lambda m: f"you control a {UNIT_TAGS[m['t']]}",  # rules/discounts.py (133.8)
    ),
    (
        re.compile(rf"you have {_COUNT} or fewer cards in your hand"),
        lambda m: f"{number(m['n'])} or fewer cards in hand",  # rules/hand_size.py
    ),
    (re.compile(OPPONENT), lambda m: opponent_condition(m)),  # rules/players.py (looked up as it reads: mutants)
    (
        re.compile(r"an opponent has played another spell this turn"),  # rules/players.py (419.4.b)
        lambda m: "an opponent has played another spell this turn",
    ),
    (
        re.compile(rf"you have {_COUNT} or more other units in your base"),
        lambda m: f"{number(m['n'])} or more other units in your base",
    ),
    (re.compile(r"you have a card with my name in your trash"), lambda m: "a card with my name in your trash"),
    (_DIED, lambda m: {"an ": "a "}.get(m["side"], m["side"]) + "unit died this turn"),  # rules/board_conditions.py
    (
        re.compile(r"you control a battlefield with exactly two units there"),
        lambda m: "you control a battlefield with exactly two units there",
    ),
    (re.compile(r"you control something that's \[empowered\]"), lambda m: "you control something empowered"),
    (re.compile(r"it's your beginning phase"), lambda m: "your beginning phase"),
    # every Facedown Zone is a battlefield's (107.3.a)
    (re.compile(r"you control a facedown card(?: at a battlefield)?"), lambda m: "you control a facedown card"),
    # rules/board_conditions.py, the words it registers ("you control N or more runes"; a passive's "while" says
    # rules/restrictions.py's)
    (re.compile(r"you control (?P<n>\d+|two|three|four|five) or (?P<side>more|fewer) runes"), _runes),
]


def condition_word(text: str) -> str | None:
    """The condition word of "if <text>", or None when it is not one of `CONDITIONS`."""
    for pattern, word in CONDITIONS:
        found = pattern.fullmatch(text)
        if found:
            return word(found)
    return None


def death_condition(text: str) -> str | None:
    """ "If a unit died this turn", "if an enemy unit has died this turn": the condition word, or None."""
    return condition_word(text) if _DIED.fullmatch(text) else None
