"""Scenario files: the pydantic model, and loading with errors that name the file, the line and the field.

YAML is composed into nodes first, so every value's line is known; a pydantic error
location (`('setup', 'players', 'A', 'base', 0, 'might')`) is mapped back to the
line of that node (or of its nearest parent that exists).

Loading is safe on hostile input (a scenario typed into a page): the size, nesting, value count, action count
and value lengths are checked on the YAML event stream under `Limits` before anything is built; anchors and
aliases are refused; invalid UTF-8 is reported with its line. After the model, the whole document is checked:
object ids unique and not colliding with player names, every player and battlefield named exists, every card
of the kind its place needs, and `expect`/`checkpoints` name only what the replay can observe.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, field_validator, model_validator

from scenarios import problem_words
from scenarios.actions import Action as PlayerAction
from scenarios.actions import parse_action
from scenarios.cards import Domain, UnknownCard
from scenarios.cards import card as card_named
from scenarios.collector import collector_paused
from scenarios.kernel import DEFAULT_VERSION, Refusal
from scenarios.observe import GAME_KEYS, OBJECT_FIELDS, PLAYER_FIELDS


class ScenarioError(ValueError):
    """A scenario that cannot be read: where (a file, or the name a page gives what was typed), line, field."""

    def __init__(self, path: Path | str, line: int | None, field: str, message: str):
        where = f"{path}:{line}" if line else str(path)
        super().__init__(f"{where}: {field}: {message}")
        self.path, self.line, self.field, self.message = path, line, field, message


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# Names a scenario gives: object ids and player names are short words, so a page can show them and a trace can
# name them unambiguously; numbers stay within what a game can hold.
ObjectId = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$")]
PlayerName = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]{0,15}$")]
Number = Annotated[int, Field(ge=-999_999, le=999_999)]
Count = Annotated[int, Field(ge=0, le=999_999)]
RESERVED_IDS = {"base"}  # a location the engine names


def _known_card(name: str) -> str:
    try:
        card_named(name)
    except UnknownCard as error:
        raise ValueError(str(error.args[0])) from None
    return name


class Meta(Strict):
    """`ruling` is the position of the ruling a scenario replays; a scenario written from the Core Rules
    themselves (or typed in as a new dispute) has none, and its `answer` names the rules that decide the outcome."""

    id: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]{0,79}$")  # the replay's URL
    title: str
    ruling: int | None = Field(None, ge=1, le=999_999)
    tags: list[str] = Field(default_factory=list)


class Rules(Strict):
    """The Core Rules version a scenario is judged under and its trace cites: the engine's own (`RULES_VERSION`), or
    another version whose numbers `rules_db` translates the citations into through the stored rule lineage. A
    scenario that names none is judged under `DEFAULT_VERSION`."""

    core: str = Field(default=DEFAULT_VERSION, pattern=r"^\d{4}-\d{2}-\d{2}$")


class ShowdownSetup(Strict):
    battlefield: str
    focus: PlayerName | None = None


class Turn(Strict):
    """Scenarios start in the Main Phase (the Action Phase of Core Rules 2025-12-01 and before: either word is
    read), either Neutral Open or in an open showdown (a chain is never set up: put items on it with actions)."""

    player: PlayerName
    phase: Literal["main", "action"] = "main"
    state: Literal["neutral-open", "showdown-open"] = "neutral-open"
    showdown: ShowdownSetup | None = None

    @model_validator(mode="after")
    def _showdown_named(self):
        if (self.state == "showdown-open") != (self.showdown is not None):
            raise ValueError("state showdown-open needs a `showdown: {battlefield, focus}` block, and only it")
        return self


class GearSetup(Strict):
    id: ObjectId
    card: str
    _card = field_validator("card")(_known_card)


class UnitSetup(Strict):
    id: ObjectId
    card: str
    controller: PlayerName | None = None
    might: Number | None = None
    damage: Count = 0
    exhausted: bool = False
    stunned: bool = False
    buff: bool = False
    keywords: dict[str, Number] = Field(default_factory=dict)
    modifiers: list[Number] = Field(default_factory=list)
    moves_this_turn: Count = 0
    gear: list[GearSetup] = Field(default_factory=list)
    _card = field_validator("card")(_known_card)


class CardSetup(Strict):
    id: ObjectId
    card: str
    at: str | None = None
    _card = field_validator("card")(_known_card)


class RuneSetup(Strict):
    id: ObjectId
    card: str
    exhausted: bool = False
    _card = field_validator("card")(_known_card)


class PlayerSetup(Strict):
    """A player's points, Rune Pool (Energy, Power of any domain, Power of one domain), zones and runes
    (`runes` on the board in base, `rune_deck` top first)."""

    points: Count = 0
    energy: Count = 99
    power: Count = 99
    domain_power: dict[Domain, Count] = Field(default_factory=dict)
    cards_played_this_turn: Count = 0
    runes: list[RuneSetup] = Field(default_factory=list)
    rune_deck: list[CardSetup] = Field(default_factory=list)
    legend: CardSetup | None = None
    base: list[UnitSetup] = Field(default_factory=list)
    hand: list[CardSetup] = Field(default_factory=list)
    deck: list[CardSetup] = Field(default_factory=list)
    trash: list[CardSetup] = Field(default_factory=list)
    facedown: list[CardSetup] = Field(default_factory=list)


class BattlefieldSetup(Strict):
    id: ObjectId
    card: str
    controller: PlayerName | None = None
    contested_by: PlayerName | None = None
    units: list[UnitSetup] = Field(default_factory=list)
    scored_this_turn: list[PlayerName] = Field(default_factory=list)
    _card = field_validator("card")(_known_card)

    @model_validator(mode="after")
    def _units_have_controllers(self):
        for unit in self.units:
            if not unit.controller:
                raise ValueError(f"unit {unit.id} at battlefield {self.id} needs a controller")
        return self


class Setup(Strict):
    turn: Turn
    victory_score: int = Field(8, ge=1, le=10**9)
    players: dict[PlayerName, PlayerSetup] = Field(min_length=2, max_length=2)  # two-player games (README)
    battlefields: list[BattlefieldSetup] = Field(default_factory=list)

    @model_validator(mode="after")
    def _consistent(self):
        if self.turn.player not in self.players:
            raise ValueError(f"turn player {self.turn.player!r} is not one of {list(self.players)}")
        if self.turn.showdown:
            field = next((b for b in self.battlefields if b.id == self.turn.showdown.battlefield), None)
            if field is None or not field.contested_by:
                raise ValueError(
                    f"the showdown's battlefield {self.turn.showdown.battlefield!r} must be a "
                    f"battlefield with contested_by set"
                )
        return self


ENGINE_FIELDS = ("label", "expect_refusal", "note")


class Action(BaseModel):
    """One action of a scenario: a player action (see scenarios/actions.py) plus the fields only the replay
    reads: a `label` for checkpoints, the rule an expected refusal cites, a note."""

    model_config = ConfigDict(extra="allow")
    by: str
    do: str
    label: str | None = None
    expect_refusal: str | None = None
    note: str | None = None
    _typed: PlayerAction | None = PrivateAttr(default=None)

    def payload(self) -> dict:
        return {k: v for k, v in self.model_dump().items() if k not in ENGINE_FIELDS and v is not None}

    @property
    def typed(self) -> PlayerAction:
        """The player action, as the engine takes it (validated once, when the scenario is loaded)."""
        # Not `self._typed`: pydantic's look-up of a private attribute costs some 20 us, once per action.
        typed = (self.__pydantic_private__ or {}).get("_typed")
        assert typed is not None, "set by the validator when the scenario is loaded"
        return typed

    @model_validator(mode="after")
    def _a_player_action(self):
        try:
            self._typed = parse_action(self.payload())
        except Refusal as refusal:
            raise ValueError(refusal.message) from None
        return self


class Checkpoint(Strict):
    after: str
    expect: dict[str, Any]


class Change(Strict):
    path: str
    value: Any


class Variant(Strict):
    """One input changed (a `change`, or a few that must change together), and the outcome it gives."""

    id: str
    title: str
    change: Change | list[Change]
    expect: dict[str, Any]

    @property
    def changes(self) -> list[Change]:
        return self.change if isinstance(self.change, list) else [self.change]


class Scenario(Strict):
    meta: Meta
    rules: Rules = Field(default_factory=Rules)
    answer: str = ""
    disagreement: str | None = None
    note: str | None = None  # how the scenario models the ruling, where it had to depart from its wording
    setup: Setup
    actions: list[Action] = Field(default_factory=list)
    checkpoints: list[Checkpoint] = Field(default_factory=list)
    expect: dict[str, Any] = Field(default_factory=dict)
    variants: list[Variant] = Field(default_factory=list)

    @model_validator(mode="after")
    def _checkpoints_name_actions(self):
        labels = {a.label for a in self.actions if a.label}
        for checkpoint in self.checkpoints:
            if checkpoint.after not in labels:
                raise ValueError(f"checkpoint after {checkpoint.after!r}: no action has that label")
        return self


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


def _line_for(lines: Mapping[tuple, int], loc: tuple) -> int | None:
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
    """What one scenario may hold (README, "Scenarios: limits"). Loading checks the YAML event stream against
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


def parse(content: bytes | str, source="scenario", limits: Limits = PAGE_LIMITS) -> tuple[Scenario, dict]:
    """A scenario from its text (typed into a page, say): validated like a file, under `limits`."""
    data, lines = parse_text(content, source, limits)
    return validate(data, lines, source), data


def validate(data: dict, lines: Mapping[tuple, int], source) -> Scenario:
    """The scenario model of a parsed document, with every check a scenario must pass; the first problem is
    raised as a ScenarioError naming its line and field."""
    try:
        scenario = Scenario.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        loc = tuple(p for p in first["loc"] if not (isinstance(p, str) and p.startswith("function-")))
        field = ".".join(str(p) for p in loc) or "(document)"
        raise ScenarioError(source, _line_for(lines, loc), field, problem_words.sentence(first, loc)) from None
    for loc, message in _problems(scenario):
        raise ScenarioError(source, _line_for(lines, loc), ".".join(map(str, loc)), message)
    return scenario


def load(path: Path) -> tuple[Scenario, dict]:
    """The validated scenario and its raw document; each file is parsed once and reused while unchanged."""
    stat = Path(path).stat()
    return _load(Path(path), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=256)
def _load(path: Path, mtime: int, size: int) -> tuple[Scenario, dict]:
    with collector_paused():  # all it builds is kept with the scenario: the collector's passes would free nothing
        data, lines = load_text(path)
        return validate(data, lines, path), data


# -- changed documents: variants, and a what-if asked from a page -----------------------------------------------


def with_changes(data: dict, changes: list[Change], source, where: str = "change") -> dict:
    """A copy of a scenario document with some inputs changed. A path names an input by its keys and list
    positions (`setup.battlefields.0.units.0.might`); `-` as the last part appends to a list
    (`setup.players.A.base.-`), and a missing mapping key on the way is created (`...keywords.Tank`)."""
    changed = copy.deepcopy(data)
    for change in changes:
        try:
            _set_path(changed, change.path, change.value)
        except (KeyError, IndexError, TypeError, ValueError) as error:
            raise ScenarioError(source, None, f"{where}.path", f"no input {change.path!r} ({error})") from None
    return changed


def variant_document(data: dict, variant: Variant, source) -> dict:
    """The document a variant replays: its changes made, its expectations in place of the scenario's."""
    changed = with_changes(data, variant.changes, source, f"variants.{variant.id}.change")
    changed["expect"] = variant.expect
    changed["checkpoints"] = []
    changed.pop("variants", None)
    return changed


def _set_path(data, dotted: str, value) -> None:
    parts = [int(p) if p.isdigit() else p for p in dotted.split(".")]
    target = data
    for part, following in zip(parts, parts[1:]):
        if isinstance(target, dict) and part not in target and not isinstance(following, int):
            target[part] = [] if following == "-" else {}  # appended to: a list the document left out
        target = target[part]
    last = parts[-1]
    if isinstance(target, dict):
        target[last] = value
    elif isinstance(target, list) and last == "-":
        target.append(value)
    elif isinstance(target, list) and isinstance(last, int):
        target[last] = value
    else:
        raise TypeError(f"{last!r} does not name a place in {type(target).__name__}")


# -- checks across the document: object ids, and what `expect` and `checkpoints` may observe -------------------


def _problems(scenario: Scenario):
    yield from _duplicate_ids(scenario.setup)
    yield from _reference_problems(scenario.setup)
    known = {object_id for _, object_id in _setup_ids(scenario.setup)}
    players = set(scenario.setup.players)
    yield from _expectation_problems(("expect",), scenario.expect, known, players)
    for index, checkpoint in enumerate(scenario.checkpoints):
        yield from _expectation_problems(("checkpoints", index, "expect"), checkpoint.expect, known, players)
    for index, variant in enumerate(scenario.variants):
        added = set().union(*(entry_ids(change.value) for change in variant.changes))  # objects a change adds
        yield from _expectation_problems(("variants", index, "expect"), variant.expect, known | added, players)


def _setup_ids(setup: Setup):
    """(location in the document, object id) of every object the setup creates."""

    def unit(loc, entry):
        yield loc, entry.id
        for index, gear in enumerate(entry.gear):
            yield (*loc, "gear", index), gear.id

    for name, player in setup.players.items():
        loc = ("setup", "players", name)
        if player.legend:
            yield (*loc, "legend"), player.legend.id
        for index, entry in enumerate(player.base):
            yield from unit((*loc, "base", index), entry)
        for zone in ("hand", "deck", "trash", "facedown", "runes", "rune_deck"):
            for index, card in enumerate(getattr(player, zone)):
                yield (*loc, zone, index), card.id
    for index, field in enumerate(setup.battlefields):
        yield ("setup", "battlefields", index), field.id
        for position, entry in enumerate(field.units):
            yield from unit(("setup", "battlefields", index, "units", position), entry)


def entry_ids(value) -> set[str]:
    """The ids of the card entries (mappings with `id` and `card`) in a piece of a scenario document: the objects
    a setup, or a variant's changed value, puts in the game."""
    if isinstance(value, dict):
        found = {str(value["id"])} if "id" in value and "card" in value else set()
        return found.union(*(entry_ids(item) for item in value.values()))
    if isinstance(value, list):
        return set().union(*(entry_ids(item) for item in value))
    return set()


def _duplicate_ids(setup: Setup):
    first: dict[str, tuple] = {}
    for loc, object_id in _setup_ids(setup):
        if object_id in first:
            where = ".".join(map(str, first[object_id]))
            yield (*loc, "id"), f"object id {object_id!r} is used twice (first at {where})"
        first.setdefault(object_id, loc)


def _reference_problems(setup: Setup):
    """Names that must name something of the setup: players, battlefields, and cards of the right kind."""
    players = set(setup.players)
    battlefields = {field.id for field in setup.battlefields}
    for loc, object_id in _setup_ids(setup):
        if object_id in RESERVED_IDS or object_id in players:
            what = "a player's name" if object_id in players else "a location the engine names"
            yield (*loc, "id"), f"object id {object_id!r} is {what}: choose another id"
    for name, player in setup.players.items():
        loc = ("setup", "players", name)
        for index, card in enumerate(player.facedown):
            if card.at not in battlefields:
                yield (
                    (*loc, "facedown", index, "at"),
                    f"a hidden card is at a battlefield (one of: {', '.join(sorted(battlefields)) or 'none'})",
                )
        if player.legend:
            yield from _kind((*loc, "legend"), player.legend.card, {"legend"})
        for index, entry in enumerate(player.base):
            yield from _unit_problems((*loc, "base", index), entry, players)
    for index, field in enumerate(setup.battlefields):
        loc = ("setup", "battlefields", index)
        yield from _kind(loc, field.card, {"battlefield"})
        for key in ("controller", "contested_by"):
            if getattr(field, key) not in (None, *players):
                yield (*loc, key), f"{getattr(field, key)!r} is not a player (players: {', '.join(sorted(players))})"
        for position, entry in enumerate(field.units):
            yield from _unit_problems((*loc, "units", position), entry, players)
    showdown = setup.turn.showdown
    if showdown and showdown.focus not in (None, *players):
        yield ("setup", "turn", "showdown", "focus"), f"{showdown.focus!r} is not a player"


def _unit_problems(loc: tuple, entry: UnitSetup, players: set[str]):
    yield from _kind(loc, entry.card, {"unit", "gear"})
    if entry.controller not in (None, *players):
        yield (*loc, "controller"), f"{entry.controller!r} is not a player (players: {', '.join(sorted(players))})"
    for index, gear in enumerate(entry.gear):
        yield from _kind((*loc, "gear", index), gear.card, {"gear"})


def _kind(loc: tuple, name: str, kinds: set[str]):
    kind = card_named(name).object_kind
    if kind not in kinds:
        yield (*loc, "card"), f"{name} is a {kind} card; here the setup needs a {' or '.join(sorted(kinds))}"


# The shapes of what `expect` may name besides objects (see scenarios/observe.py, which reads these keys).
_LOG_NAMES = {"resolved", "triggered", "refused", "scored", "ignored", "negated"}
_PART_KEYS = {
    "combat": {"battlefield", "attacker", "defender"},
    "showdown": {"battlefield", "combat", "focus"},
    "pending": {"kind", "player", "prompt", "options"},
}
_SCALARS = {"state", "priority", "winner", "turn_player"}


def _expectation_problems(loc: tuple, expect: dict, objects: set[str], players: set[str]):

    for key, spec in expect.items():
        here = (*loc, key)
        if not isinstance(key, str):
            yield here, f"{key!r} is not an object id nor one of: {', '.join(GAME_KEYS)}"
        elif key in _SCALARS:
            if spec is not None and not isinstance(spec, str | int | bool):
                yield here, f"{key} is a single value, not {type(spec).__name__}"
        elif key == "chain":
            if not isinstance(spec, list):
                yield here, "chain is a list of chain item labels"
        elif key == "log":
            yield from _fields(here, spec, _LOG_NAMES, "log", list)
        elif key in _PART_KEYS:
            if spec is not None:
                yield from _fields(here, spec, _PART_KEYS[key], key)
        elif key == "players":
            if not isinstance(spec, dict):
                yield here, f"players is a mapping of player to fields ({', '.join(sorted(players))})"
                continue
            for name, fields in spec.items():
                if name not in players:
                    yield (*here, name), f"no player {name!r} in the setup (players: {', '.join(sorted(players))})"
                else:
                    yield from _fields((*here, name), fields, set(PLAYER_FIELDS), f"player {name}")
        elif key in objects:
            yield from _fields(here, spec, set(OBJECT_FIELDS), f"object {key}")
        else:
            known = ", ".join(sorted(GAME_KEYS))
            yield here, f"{key!r} is neither an object of the setup nor one of: {known}"


def _fields(loc: tuple, spec, allowed: set[str], what: str, value_type: type | None = None):
    if not isinstance(spec, dict):
        yield loc, f"{what}: expected a mapping of fields ({', '.join(sorted(allowed))})"
        return
    for name, value in spec.items():
        if name not in allowed:
            yield (*loc, name), f"{what} has no observable field {name!r} (known: {', '.join(sorted(allowed))})"
        elif value_type is not None and not isinstance(value, value_type):
            yield (*loc, name), f"{what}: {name} is a {value_type.__name__}"
