"""A scenario's validation error in a judge's words: the field named as a judge would ("A's base card 1: might"),
then what is wrong with it, by the kind of error, never the validator's own sentence ("Dictionary should have at
least 2 items after validation, not 1").

The loader (schema.py) validates a document with pydantic and reports its first error through `sentence`. Each
kind of error pydantic reports (its ``type``) has its words here, with the numbers and choices the error carries
(its ``ctx``); a kind not listed falls back to a plain sentence of its own message, with the field named first.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

# What a collection's entries are called, for "A's base, card 2" rather than "base.1".
_ENTRIES = {
    "base": "card",
    "hand": "card",
    "deck": "card",
    "trash": "card",
    "facedown": "card",
    "runes": "rune",
    "gear": "gear",
    "units": "unit",
    "battlefields": "battlefield",
    "actions": "action",
    "variants": "variant",
    "checkpoints": "checkpoint",
}
_COUNTED = {"list": "entries", "dict": "entries", "str": "characters", "string": "characters", "tuple": "entries"}


def field_words(loc: tuple) -> str:
    """A field's place in the document in words: ``('setup', 'players', 'A', 'base', 0, 'might')`` is
    "A's base card 1: might"; ``('actions', 2, 'pick')`` is "action 3: pick"."""
    parts: list[str] = []
    index = 0
    path = [part for part in loc if part != "setup"]
    while index < len(path):
        part = path[index]
        following = path[index + 1] if index + 1 < len(path) else None
        if part == "players" and isinstance(following, str):
            parts.append(f"player {following}")
            index += 2
            continue
        if isinstance(following, int) and isinstance(part, str):
            entry = _ENTRIES.get(part, "entry")
            named = entry if part.rstrip("s") == entry else f"{part.replace('_', ' ')} {entry}"
            parts.append(f"{named} {following + 1}")
            index += 2
            continue
        parts.append(str(part).replace("_", " "))
        index += 1
    if len(parts) >= 2 and parts[0].startswith("player "):
        parts[:2] = [f"{parts[0].removeprefix('player ')}'s {parts[1]}"]
    return ", ".join(parts[:-1]) + (": " if len(parts) > 1 else "") + parts[-1] if parts else "the scenario"


_PIECE = re.compile(r"(\[[^\]]+\]|\\d|\\w|\\.|[^\\])(\{\d+(?:,\d+)?\}|[+*?])?")
_CLASSES = {"A-Z": "capital letters", "a-z": "letters", "0-9": "digits"}


def _pattern_words(pattern: str) -> str:
    """A field's pattern said in words: ``^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$`` is "one of letters or digits, then 0
    to 39 of letters, digits, _ or -"; a pattern of another shape is quoted as it is."""
    body = pattern.removeprefix("^").removesuffix("$")
    pieces = _PIECE.findall(body)
    if "".join(a + b for a, b in pieces) != body:
        return f"the pattern {pattern}"
    said = []
    for piece, count in pieces:
        what = _class_words(piece)
        if not count:
            said.append(what if len(piece) == 1 else f"one of {what}")
        elif count in "+*?":
            said.append({"+": "one or more", "*": "any number", "?": "at most one"}[count] + f" of {what}")
        else:
            low, _, high = count.strip("{}").partition(",")
            said.append(f"{low} to {high} of {what}" if high else f"{low} of {what}")
    return ", then ".join(said)


def _class_words(piece: str) -> str:
    if piece == "\\d":
        return "digits"
    if not piece.startswith("["):
        return piece.removeprefix("\\")
    inside = piece[1:-1]
    words = [name for span, name in _CLASSES.items() if span in inside]
    for span in _CLASSES:
        inside = inside.replace(span, "")
    if "A-Z" in piece and "a-z" in piece:
        words.remove("capital letters")
    words += list(inside)
    return ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else "".join(words)


def _shown(value: Any) -> str:
    text = repr(value) if not isinstance(value, str) else f"“{value}”"
    return text if len(text) <= 60 else text[:57] + "…"


def _what(error: Mapping[str, Any]) -> str:
    """What is wrong, by the kind of error."""
    kind, ctx, given = error.get("type", ""), error.get("ctx") or {}, error.get("input")
    counted = _COUNTED.get(str(ctx.get("field_type", "")).lower(), "entries")
    if kind == "missing":
        return "is missing: it has to be given"
    if kind == "extra_forbidden":
        return "is not a field a scenario has here (check its spelling and where it is indented)"
    if kind in ("int_parsing", "int_type", "int_from_float"):
        return f"takes a whole number, not {_shown(given)}"
    if kind in ("float_parsing", "float_type"):
        return f"takes a number, not {_shown(given)}"
    if kind in ("bool_parsing", "bool_type"):
        return f"takes yes or no (true or false), not {_shown(given)}"
    if kind in ("string_type",):
        return f"takes text, not {_shown(given)}"
    if kind in ("dict_type", "model_type", "model_attributes_type", "mapping_type"):
        return f"takes a mapping of names to values (name: value), not {_shown(given)}"
    if kind in ("list_type", "tuple_type", "set_type"):
        return f"takes a list ([a, b] or one “- item” a line), not {_shown(given)}"
    if kind in ("greater_than_equal", "greater_than"):
        bound = ctx.get("ge", ctx.get("gt"))
        return f"is at least {bound}{'' if kind == 'greater_than_equal' else ' and more'}, not {_shown(given)}"
    if kind in ("less_than_equal", "less_than"):
        return f"is at most {ctx.get('le', ctx.get('lt'))}, not {_shown(given)}"
    if kind == "too_short":
        return f"needs at least {ctx.get('min_length')} {counted}; it has {ctx.get('actual_length')}"
    if kind == "too_long":
        return f"holds at most {ctx.get('max_length')} {counted}; it has {ctx.get('actual_length')}"
    if kind == "string_too_short":
        return f"needs at least {ctx.get('min_length')} characters"
    if kind == "string_too_long":
        return f"holds at most {ctx.get('max_length')} characters"
    if kind in ("literal_error", "enum"):
        return f"is one of {ctx.get('expected')}, not {_shown(given)}"
    if kind == "string_pattern_mismatch":
        return f"is written as {_pattern_words(str(ctx.get('pattern', '')))}, not {_shown(given)}"
    if kind in ("value_error", "assertion_error"):
        message = str(ctx.get("error") or error.get("msg", ""))
        return message.removeprefix("Value error, ").removeprefix("Assertion failed, ")
    return f"is not valid: {error.get('msg', 'check its value')}"


def sentence(error: Mapping[str, Any], loc: tuple) -> str:
    """One validation error (an entry of pydantic's ``ValidationError.errors()``) as a sentence naming its field."""
    what = _what(error)
    if error.get("type") in ("value_error", "assertion_error"):  # the check's own words, which name what they check
        return f"{field_words(loc)}: {what}" if loc else what
    return f"{field_words(loc)} {what}"
