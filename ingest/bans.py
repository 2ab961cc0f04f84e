"""Riftbound ban lists and set release dates, from the shapes the sources come in.

Each source says which cards are banned in which format, and most say since when; they do not always agree,
so each source's claims are kept as its own (``rules_db.bans`` stores them side by side).

- A JSON ban list (``{generatedAt, constructed: [{name, code, printings, ...}], byFormat: {"2v2": [...]}}``):
  no effective dates, except where an entry's ``note`` gives one ("banned 2026-07-24 for ...").
- A markdown ban list: ``##`` sections, each a table whose first column is the card's English name and one of
  whose columns holds the effective date (``2026-03-31``, bold or not); a section whose heading names a format
  ("2v2") holds that format's bans, the others Constructed. A section without a table names its extra bans in
  bold (``**Master Yi, Wuju Bladesman**``).
- A JSON file of set release dates and bans (``{sets: {"OGN": "2025-10-31"}, banned: {"Called Shot":
  "2026-03-31"}}``), which may arrive cut short: what it holds up to the cut is read (``complete_truncated``),
  and the cut is reported.

Bad input raises ``IngestError`` naming the file and line.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import yaml

from ingest.errors import IngestError
from ingest.limits import check_json_nesting
from ingest.model import ParseIssue
from ingest.source import load_yaml, read_lines

FORMATS = ("Constructed", "2v2")
_DATE = re.compile(r"\b(\d{4}-\d{2}-\d{2})\b")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
_TABLE_RULE = re.compile(r"^\|?\s*:?-{2,}")


@dataclass
class ParsedBan:
    name: str  # as the source writes it
    format: str  # "Constructed" or "2v2"
    effective_date: str | None  # ISO; None where the source gives none
    line: int | None
    printing_codes: list[str] = field(default_factory=list)  # "OGN-276", where the source gives them
    note: str | None = None


@dataclass
class ParsedSet:
    id: str  # the set's code ("OGN")
    release_date: str
    line: int | None


@dataclass
class ParsedBans:
    bans: list[ParsedBan]
    sets: list[ParsedSet] = field(default_factory=list)
    issues: list[ParseIssue] = field(default_factory=list)
    entries: int = 0
    as_of: str | None = None  # the date the list says it was made, where it says one


def parse_file(path: str | Path, kind: str = "bans") -> ParsedBans:
    """A ban list or set list in any of the shapes above, told apart by the text itself."""
    lines = read_lines(path, max_line=None)
    text = "\n".join(lines)
    start = text.lstrip("\ufeff \t\r\n")[:1]
    if start in "{[" and start:
        return _parse_json(path, text)
    if any(line.lstrip().startswith("|") for line in lines):
        return _parse_markdown(path, lines)
    raise IngestError(path, 1, "a ban list: a JSON object or markdown tables", (lines or [""])[0][:60])


# --------------------------------------------------------------------------- JSON


def complete_truncated(text: str) -> tuple[str, int | None]:
    """JSON text cut short made whole: cut back to the last complete member and the brackets still open closed.
    Returns the text and the offset it was cut at (None when the text was whole)."""
    try:
        json.loads(text)
        return text, None
    except json.JSONDecodeError:
        pass
    closers = {"{": "}", "[": "]"}
    stack: list[str] = []
    candidates: list[tuple[int, str]] = []  # (offset to cut at, the brackets that close what is open there)
    in_string = escaped = False
    for offset, char in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
            continue
        if char == '"':
            in_string = True
        elif char in closers:
            stack.append(char)
            candidates.append((offset + 1, "".join(closers[c] for c in reversed(stack))))
        elif char in "]}":
            if stack:
                stack.pop()
            candidates.append((offset + 1, "".join(closers[c] for c in reversed(stack))))
        elif char == ",":
            candidates.append((offset, "".join(closers[c] for c in reversed(stack))))
    for offset, closing in reversed(candidates):
        attempt = text[:offset] + closing
        try:
            json.loads(attempt)
        except json.JSONDecodeError:
            continue
        return attempt, offset
    return text, None


def _parse_json(path: str | Path, text: str) -> ParsedBans:
    check_json_nesting(path, text)
    whole, cut = complete_truncated(text)
    try:
        data = json.loads(whole)
    except json.JSONDecodeError as error:
        raise IngestError(path, error.lineno, "JSON text (a ban list or set list)", error.msg) from None
    if not isinstance(data, dict):
        raise IngestError(path, 1, "a JSON object (a ban list or set list)", f"a JSON {type(data).__name__}")
    issues = []
    if cut is not None:
        line = text.count("\n", 0, cut) + 1
        issues.append(
            ParseIssue(
                "malformed",
                f"the file is cut short (not valid JSON): read up to line {line} "
                f"(character {cut} of {len(text)}), the rest is lost",
                line=line,
            )
        )
    as_of = data.get("generatedAt")
    dated = _DATE.search(as_of) if isinstance(as_of, str) else None
    parsed = ParsedBans([], [], issues, as_of=dated.group(1) if dated else None)
    lines_of = _LineFinder(text)
    for name, value in (data.get("sets") or {}).items():
        if not isinstance(value, str) or not _DATE.fullmatch(value.strip()):
            raise IngestError(path, lines_of(name), f"set {name!r} to have an ISO release date", repr(value))
        parsed.sets.append(ParsedSet(name, value.strip(), lines_of(name)))
    banned = data.get("banned")
    if isinstance(banned, dict):  # name -> effective date
        for name, value in banned.items():
            if not isinstance(value, str) or not _DATE.fullmatch(value.strip()):
                raise IngestError(path, lines_of(name), f"ban of {name!r} to have an ISO effective date", repr(value))
            parsed.bans.append(ParsedBan(name, "Constructed", value.strip(), lines_of(name)))
    lists = [("Constructed", data.get("constructed"))]
    lists += [(_format_name(key), value) for key, value in (data.get("byFormat") or {}).items()]
    for format_name, entries in lists:
        if entries is None:
            continue
        if not isinstance(entries, list):
            raise IngestError(path, None, f"the {format_name} bans as a JSON list", f"a JSON {type(entries).__name__}")
        for index, entry in enumerate(entries, start=1):
            parsed.bans.append(_json_ban(path, format_name, index, entry, lines_of))
    parsed.entries = len(parsed.bans) + len(parsed.sets)
    if not parsed.entries:
        raise IngestError(path, 1, "a ban list or set list: 'banned', 'constructed', 'byFormat' or 'sets'", "none")
    return parsed


def _json_ban(path: str | Path, format_name: str, index: int, entry: object, lines_of) -> ParsedBan:
    if not isinstance(entry, dict) or not isinstance(entry.get("name"), str) or not entry["name"].strip():
        raise IngestError(path, None, f"{format_name} ban {index} to be an object with a 'name'", repr(entry)[:80])
    name = entry["name"].strip()
    line = lines_of(name)
    codes = [code for code in entry.get("printings") or [] if isinstance(code, str)]
    if isinstance(entry.get("code"), str):
        codes.append(entry["code"].split("/", 1)[0])
    note = entry.get("note") if isinstance(entry.get("note"), str) else None
    dated = _DATE.search(note or "")
    return ParsedBan(name, format_name, dated.group(1) if dated else None, line, list(dict.fromkeys(codes)), note)


class _LineFinder:
    """The line a quoted name first appears on in the text (None when it does not)."""

    def __init__(self, text: str):
        self.text = text

    def __call__(self, name: str) -> int | None:
        position = self.text.find(json.dumps(name, ensure_ascii=False)[1:-1])
        return self.text.count("\n", 0, position) + 1 if position >= 0 else None


def _format_name(key: str) -> str:
    for format_name in FORMATS:
        if format_name.casefold() in key.casefold():
            return format_name
    return key


# --------------------------------------------------------------------------- markdown


def _parse_markdown(path: str | Path, lines: list[str]) -> ParsedBans:
    title_date = next((_DATE.search(line) for line in lines if _HEADING.match(line) and _DATE.search(line)), None)
    parsed = ParsedBans([], as_of=title_date.group(1) if title_date else None)
    section_format, header, section_has_table = "Constructed", None, False
    for number, line in enumerate(lines, start=1):
        heading = _HEADING.match(line)
        if heading:
            section_format = _section_format(heading.group(2))
            header, section_has_table = None, False
            continue
        stripped = line.strip()
        if stripped.startswith("|"):
            cells = [cell.strip() for cell in stripped.strip("|").split("|")]
            if header is None:
                header = cells
            elif not _TABLE_RULE.match(stripped):
                section_has_table = True
                parsed.bans.append(_table_ban(path, number, cells, section_format))
            continue
        header = None
        if section_format != "Constructed" and not section_has_table:
            for bold in _BOLD.findall(line):
                if not _DATE.search(bold) and re.search(r"[A-Za-z]", bold):
                    parsed.bans.append(ParsedBan(bold.strip(), section_format, None, number, note=stripped))
    parsed.entries = len(parsed.bans)
    if not parsed.bans:
        raise IngestError(path, 1, "a ban list: markdown tables of banned cards", "no table rows")
    return parsed


def _section_format(heading: str) -> str:
    for format_name in FORMATS[1:]:
        if format_name.casefold() in heading.casefold():
            return format_name
    return "Constructed"


def _table_ban(path: str | Path, number: int, cells: list[str], format_name: str) -> ParsedBan:
    name = _BOLD.sub(r"\1", cells[0]).strip() if cells else ""
    if not name or not re.search(r"[A-Za-z]", name):
        raise IngestError(path, number, "a table row naming a card in its first column", "|".join(cells)[:80])
    dates = [match.group(1) for cell in cells[1:] for match in [_DATE.search(cell)] if match]
    notes = [cell for cell in cells[1:] if cell and not _DATE.search(cell)]
    return ParsedBan(name, format_name, dates[0] if dates else None, number, note=" · ".join(notes) or None)


# --------------------------------------------------------------------------- set names

SET_NAMES_FILE = Path(str(resources.files("ingest") / "data" / "card_sets.yaml"))


def load_set_names(path: str | Path = SET_NAMES_FILE) -> dict[str, dict[str, str]]:
    """game -> set code -> name, for sets no card list names (ingest/data/card_sets.yaml)."""
    try:
        data = load_yaml(Path(path).read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as error:
        mark = getattr(error, "problem_mark", None)
        raise IngestError(
            path, mark.line + 1 if mark else None, "a readable YAML file of set names", str(error)
        ) from None
    if not isinstance(data, dict) or not all(
        isinstance(names, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in names.items())
        for names in data.values()
    ):
        raise IngestError(path, None, "a mapping of games to set codes to names", repr(data)[:80])
    return data
