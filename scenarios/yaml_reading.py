"""Reading a scenario's YAML, which may be hostile (typed into a page): the text checked under `Limits` on the YAML
event stream before anything is built (size, nesting, value count, action count, value lengths; anchors and aliases
refused; invalid UTF-8 reported with its line), and the line of every node kept, so that an error found later (a
pydantic location such as `('setup', 'players', 'A', 'base', 0, 'might')`) names the line of that node or of its
nearest parent that exists (`line_for`). Knows nothing of what a scenario holds."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import yaml


class ScenarioError(ValueError):
    """A scenario that cannot be read: where (a file, or the name a page gives what was typed), line, field."""

    def __init__(self, path: Path | str, line: int | None, field: str, message: str):
        where = f"{path}:{line}" if line else str(path)
        super().__init__(f"{where}: {field}: {message}")
        self.path, self.line, self.field, self.message = path, line, field, message


class _LineMap(Mapping):
    """The line of every node of a composed document, mapped when first read: only a document found wrong names a
    line, and mapping each one cost a valid scenario's load a twelfth of its YAML's reading."""

    def __init__(self, node: yaml.Node | None):
        self._node: yaml.Node | None = node
        self._lines: dict[tuple, int] = {}

    def _mapped(self) -> dict[tuple, int]:
        if self._node is not None:
            self._lines, self._node = _line_map(self._node), None
        return self._lines

    def __getitem__(self, path: tuple) -> int:
        return self._mapped()[path]

    def __iter__(self) -> Iterator[tuple]:
        return iter(self._mapped())

    def __len__(self) -> int:
        return len(self._mapped())


def _line_map(node, path=(), lines=None) -> dict[tuple, int]:
    lines = {} if lines is None else lines
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            name = key.value if isinstance(key, yaml.ScalarNode) else key.start_mark.line
            lines[path + (name,)] = key.start_mark.line + 1
            _line_map(value, path + (name,), lines)
            lines[path + (name,)] = key.start_mark.line + 1
    elif isinstance(node, yaml.SequenceNode):
        for index, value in enumerate(node.value):
            _line_map(value, path + (index,), lines)
    return lines


def line_for(lines: Mapping[tuple, int], loc: tuple) -> int | None:
    """The line of the deepest node of `loc` present in the document (a key 1 is written "1" in YAML)."""
    found: tuple = ()
    for part in loc:
        for name in (part, str(part)):
            if (*found, name) in lines:
                found = (*found, name)
                break
        else:
            break
    return lines.get(found)


Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C parser when PyYAML has it


@dataclass(frozen=True)
class Limits:
    """What one scenario may hold (docs/limits.md, "Scenarios"). Loading checks the YAML event stream against
    them before anything is built, so a hostile document (an alias bomb, 1,000-deep nesting, 100,000 actions)
    is refused in milliseconds with the line where it went past a limit."""

    max_bytes: int = 2_000_000
    max_depth: int = 24  # nested mappings and lists
    max_nodes: int = 200_000  # values of any kind
    max_actions: int = 20_000
    max_text: int = 20_000  # characters in one value
    max_digits: int = 30  # digits in one number


FILE_LIMITS = Limits()
# A scenario typed into a page, or a library scenario changed from one: small enough to replay at once.
PAGE_LIMITS = Limits(max_bytes=64_000, max_nodes=8_000, max_actions=400, max_text=4_000)

_NUMBER = re.compile(r"[-+]?[0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?")


def parse_text(content: bytes | str, source, limits: Limits = FILE_LIMITS) -> tuple[dict, Mapping[tuple, int]]:
    """The document and the line of every node. Refuses, naming the line: invalid UTF-8, a document over the
    size limits, nesting deeper than allowed, anchors and aliases (no scenario needs them, and they are how a
    small file expands into a huge one), over-long values and numbers, more actions than allowed."""
    text = _decoded(content, source, limits)
    _check_flow_nesting(text, source, limits)
    try:
        _check_events(yaml.parse(text, Loader=Loader), source, limits)
        node = yaml.compose(text, Loader=Loader)
        data = yaml.constructor.SafeConstructor().construct_document(node) if node is not None else None
    except yaml.YAMLError as error:
        raise ScenarioError(source, _error_line(error, text), "(yaml)", _yaml_message(error)) from None
    if not isinstance(data, dict):
        raise ScenarioError(source, 1, "(document)", "a scenario is a mapping (meta:, setup:, actions:, expect: ...)")
    return data, _LineMap(node)


def _decoded(content: bytes | str, source, limits: Limits) -> str:
    raw = content.encode("utf-8", errors="surrogatepass") if isinstance(content, str) else content
    if len(raw) > limits.max_bytes:
        raise ScenarioError(
            source, None, "(document)", f"{len(raw):,} bytes: a scenario may have at most {limits.max_bytes:,}"
        )
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        column = error.start - (raw.rfind(b"\n", 0, error.start) + 1) + 1
        raise ScenarioError(
            source,
            line,
            "(encoding)",
            f"invalid UTF-8 at column {column} (byte {raw[error.start]:#04x}): {error.reason}",
        ) from None


def _yaml_message(error: yaml.YAMLError) -> str:
    """What the YAML parser found, without its name for the text ("<unicode string>")."""
    if isinstance(error, yaml.MarkedYAMLError) and error.problem:
        mark = error.problem_mark
        where = f" (column {mark.column + 1})" if mark is not None else ""
        return "; ".join(part for part in (error.context, error.problem) if part) + where
    return str(error)


def _error_line(error: yaml.YAMLError, text: str) -> int | None:
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    if mark is not None:
        return mark.line + 1
    position = getattr(error, "position", None)  # a ReaderError: a character YAML does not allow
    return text[:position].count("\n") + 1 if isinstance(position, int) else None


_FLOW_OPEN, _FLOW_CLOSE = "[{", "]}"
_NODE_START = re.compile(r"(?:^|[:,?\-\[{])\s*$")  # what may stand before a node on its line


def _check_flow_nesting(text: str, source, limits: Limits) -> None:
    """Refuses flow collections (`[[[...]]]`) nested past the limit, at their line, before YAML reads them: a
    YAML scanner reads a whole flow collection ahead before it emits an event, so the event check below would
    only see the library's own limit, whose wording and depth change between versions."""
    depth = 0
    for number, line in enumerate(text.split("\n"), start=1):
        quote, escaped = "", False
        for column, char in enumerate(line):
            if quote:
                escaped = quote == '"' and char == "\\" and not escaped
                quote = "" if char == quote and not escaped else quote
            elif char == "#" and (column == 0 or line[column - 1] in " \t"):
                break
            elif char in "'\"" and (depth or _NODE_START.search(line[:column])):
                quote = char
            elif char in _FLOW_OPEN and (depth or _NODE_START.search(line[:column])):
                depth += 1
                if depth > limits.max_depth:
                    raise ScenarioError(
                        source, number, "(document)", f"nested more than {limits.max_depth} levels deep"
                    )
            elif char in _FLOW_CLOSE and depth:
                depth -= 1


class _Open:
    """A mapping or sequence being read from the event stream."""

    __slots__ = ("mapping", "wants_key", "key", "items", "name")

    def __init__(self, mapping: bool, name: str | None):
        self.mapping = mapping
        self.wants_key = True
        self.key: str | None = None
        self.items = 0
        self.name = name


def _check_events(events, source, limits: Limits) -> None:
    stack: list[_Open] = []
    nodes = 0
    for event in events:
        line = event.start_mark.line + 1
        if isinstance(event, yaml.AliasEvent):
            raise ScenarioError(
                source, line, "(yaml)", f"alias *{event.anchor}: a scenario may not use anchors (&) or aliases (*)"
            )
        if isinstance(event, yaml.CollectionEndEvent):
            stack.pop()
            continue
        if not isinstance(event, yaml.ScalarEvent | yaml.CollectionStartEvent):
            continue
        if event.anchor:
            raise ScenarioError(
                source, line, "(yaml)", f"anchor &{event.anchor}: a scenario may not use anchors (&) or aliases (*)"
            )
        nodes += 1
        if nodes > limits.max_nodes:
            raise ScenarioError(source, line, "(document)", f"more than {limits.max_nodes:,} values in one scenario")
        parent = stack[-1] if stack else None
        name = None
        if parent is not None and parent.mapping and parent.wants_key:
            parent.key = event.value if isinstance(event, yaml.ScalarEvent) else None
            parent.wants_key = False
        elif parent is not None:
            parent.wants_key = parent.mapping
            parent.items += 1
            name = parent.key if parent.mapping and len(stack) == 1 else None
            if parent.name == "actions" and parent.items > limits.max_actions:
                raise ScenarioError(
                    source,
                    line,
                    "actions",
                    f"more than {limits.max_actions:,} actions: a scenario may have at most that many",
                )
        if isinstance(event, yaml.ScalarEvent):
            _check_scalar(event, source, line, limits)
        else:
            stack.append(_Open(isinstance(event, yaml.MappingStartEvent), name))
            if len(stack) > limits.max_depth:
                raise ScenarioError(source, line, "(document)", f"nested more than {limits.max_depth} levels deep")


def _check_scalar(event, source, line: int, limits: Limits) -> None:
    value = event.value
    if len(value) > limits.max_text:
        raise ScenarioError(
            source, line, "(document)", f"a value of {len(value):,} characters (at most {limits.max_text:,})"
        )
    if event.implicit[0] and len(value) > limits.max_digits and _NUMBER.fullmatch(value):
        raise ScenarioError(
            source, line, "(document)", f"a number of {len(value):,} characters (at most {limits.max_digits})"
        )


def load_text(path: Path) -> tuple[dict, Mapping[tuple, int]]:
    """The document and the line of every node, from one parse (the C YAML parser where available)."""
    return parse_text(Path(path).read_bytes(), Path(path))
