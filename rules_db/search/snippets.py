"""Step 4, snippets: the stretch of a result's text that holds most of the question, its matches marked."""

from __future__ import annotations

from rules_db.search.rank import _Matcher, _Scored

# Snippet highlight markers: control characters that document text never contains,
# so the page can escape the snippet and then turn them into <mark> tags.
MARK_START, MARK_END = "\x02", "\x03"


# ---------------------------------------------------------------- snippets

_SNIPPET_CHARACTERS = 160


def _snippet(item: _Scored, matcher: _Matcher) -> str:
    """The stretch of the text (the title when there is none) holding most of the question, matches marked."""
    name = "body" if (item.document["body"] or "").strip() else "title"
    text = item.document[name] or ""
    if name not in item.matched:
        item.matched[name] = matcher.find(text, item.document["game_id"])
    matched = item.matched[name]
    if len(text) <= _SNIPPET_CHARACTERS:
        start, end = 0, len(text)
    else:
        start, best, value, last = 0, -1.0, 0.0, 0
        for position, (first, *_rest) in enumerate(matched):  # the window opening at each match, slid along
            while last < len(matched) and matched[last][0] < first + _SNIPPET_CHARACTERS:
                value += matched[last][2]
                last += 1
            if value > best:
                start, best = first, value
            value -= matched[position][2]
        start = _word_boundary(text, max(0, start - 30), backwards=True)
        end = _word_boundary(text, min(len(text), start + _SNIPPET_CHARACTERS), backwards=False)
    out, cursor = [], start
    for first, last, *_rest in matched:
        if first >= cursor and last <= end:
            out += [text[cursor:first], MARK_START, text[first:last], MARK_END]
            cursor = last
    out.append(text[cursor:end])
    return ("…" if start > 0 else "") + "".join(out).strip() + ("…" if end < len(text.rstrip()) else "")


def _word_boundary(text: str, position: int, *, backwards: bool) -> int:
    """The nearest whitespace at or around ``position`` (so a snippet does not cut a word)."""
    step = -1 if backwards else 1
    for _ in range(30):
        if position <= 0 or position >= len(text) or text[position].isspace():
            return max(0, min(position, len(text)))
        position += step
    return position
