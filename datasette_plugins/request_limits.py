"""What one request may ask of the server, checked before any view (ours or Datasette's) reads it.

A request's work must be bounded whatever it sends: Datasette's table view spends time quadratic in the number
of query parameters (1,000 of them held the event loop for seconds, 3,000 for forty), answers ``TRACE`` with a
500, and fails on a facet that is not JSON (``?_facet={``); ``POST /dispute`` read and echoed any body. The
ASGI middleware ``bounded`` answers such a request itself, with the status and one sentence saying what was
expected, as JSON for a ``.json`` address and as text otherwise. ``whole_number`` parses a number parameter of
our pages the same strict way (ASCII digits within bounds: ``?page=²`` is a digit to Python but no number).
"""

from __future__ import annotations

import json
from urllib.parse import parse_qsl

from datasette.utils.asgi import BadRequest

METHODS = frozenset({"GET", "HEAD", "POST", "OPTIONS"})
MAX_TARGET_BYTES = 60_000  # path and query string: a dispute's scenario travels in ?s=, a question in ?q=
MAX_PARAMETERS = 64  # query parameters: a page needs a handful, Datasette's filters a few dozen at most
MAX_BODY_BYTES = 262_144  # a scenario typed into the builder is at most 64,000 bytes, form-encoded up to 3 times
# Datasette's options whose value, when it starts with "{", must be a JSON object.
JSON_OPTIONS = ("_facet", "_facet_array", "_facet_date")


def whole_number(
    request, name: str, default: int | None = None, *, lowest: int = 1, highest: int = 999_999
) -> int | None:
    """``?name=`` as a whole number from ``lowest`` to ``highest`` (``default`` when absent or blank); any other
    value is a 400 that says what was expected."""
    value = (request.args.get(name) or "").strip()
    if not value:
        return default
    if not (value.isascii() and value.isdigit() and len(value) <= len(str(highest))) or not (
        lowest <= int(value) <= highest
    ):
        raise BadRequest(f"?{name}= takes a whole number from {lowest} to {highest:,}, not {value[:20]!r}")
    return int(value)


def refusal(scope) -> tuple[int, str] | None:
    """The status and the reason a request is answered without reaching a view, or None when it may go on."""
    if scope["method"] not in METHODS:
        return 405, f"{scope['method'][:20]} is not a method this server answers (GET, HEAD, POST, OPTIONS)"
    query = scope.get("query_string", b"")
    if len(scope.get("raw_path") or scope["path"].encode()) + len(query) > MAX_TARGET_BYTES:
        return 414, f"an address of at most {MAX_TARGET_BYTES:,} bytes"
    if query.count(b"&") + 1 > MAX_PARAMETERS:
        return 400, f"at most {MAX_PARAMETERS} query parameters"
    for name, value in parse_qsl(query.decode("latin-1"), keep_blank_values=True):
        if name in JSON_OPTIONS and value.lstrip().startswith("{") and not _json_object(value):
            return 400, f"?{name}= takes a column name or a JSON object, not {value[:40]!r}"
    length = dict(scope.get("headers") or []).get(b"content-length", b"0")
    if not length.isdigit() or int(length) > MAX_BODY_BYTES:
        return 413, f"a request body of at most {MAX_BODY_BYTES:,} bytes"
    return None


def _json_object(value: str) -> bool:
    try:
        return isinstance(json.loads(value), dict)
    except ValueError:
        return False


def bounded(app):
    """ASGI middleware: a request past a limit is answered at once (``refusal``); a body that goes past
    ``MAX_BODY_BYTES`` while it arrives (sent without a length, or longer than it said) is cut with a 413."""

    async def middleware(scope, receive, send):
        if scope["type"] != "http":
            return await app(scope, receive, send)
        refused = refusal(scope)
        if refused:
            return await _answer(scope, send, *refused)
        received = 0

        async def bounded_receive():
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > MAX_BODY_BYTES:
                raise BodyTooLarge
            return message

        started = False

        async def tracked_send(message):
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await app(scope, bounded_receive, tracked_send)
        except BodyTooLarge:
            if not started:
                await _answer(scope, send, 413, f"a request body of at most {MAX_BODY_BYTES:,} bytes")

    return middleware


class BodyTooLarge(Exception):
    """The request's body went past ``MAX_BODY_BYTES`` while it was read."""


async def _answer(scope, send, status: int, expected: str) -> None:
    as_json = scope["path"].endswith(".json") or b"_format=json" in scope.get("query_string", b"")
    message = f"This request cannot be answered: {expected}."
    if as_json:
        body, kind = json.dumps({"ok": False, "error": message, "status": status}).encode(), b"application/json"
    else:
        body, kind = message.encode(), b"text/plain; charset=utf-8"
    headers = [(b"content-type", kind), (b"content-length", str(len(body)).encode())]
    if status == 405:
        headers.append((b"allow", ", ".join(sorted(METHODS)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body})
