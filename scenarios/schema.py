"""Scenario files: the pydantic model, and loading with errors that name the file, the line and the field.

YAML is composed into nodes first, so every value's line is known; a pydantic error
location (`('setup', 'players', 'A', 'base', 0, 'might')`) is mapped back to the
line of that node (or of its nearest parent that exists).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, field_validator, model_validator

from scenarios.actions import Action as PlayerAction
from scenarios.actions import parse_action
from scenarios.cards import Domain, UnknownCard
from scenarios.cards import card as card_named
from scenarios.kernel import RULES_VERSION, Refusal


class ScenarioError(ValueError):
    def __init__(self, path: Path, line: int | None, field: str, message: str):
        where = f"{path}:{line}" if line else str(path)
        super().__init__(f"{where}: {field}: {message}")
        self.path, self.line, self.field, self.message = path, line, field, message


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _known_card(name: str) -> str:
    try:
        card_named(name)
    except UnknownCard as error:
        raise ValueError(str(error.args[0])) from None
    return name


class Meta(Strict):
    """`ruling` is the position of the ruling a scenario replays; a scenario written from the Core Rules
    themselves has none, and its `answer` names the rules that decide the outcome."""

    id: str
    title: str
    ruling: int | None = Field(None, ge=1)
    tags: list[str] = Field(default_factory=list)


class Rules(Strict):
    """The Core Rules version a scenario's trace cites: the engine's own, or another version whose numbers
    `rules_db` translates the citations into through the stored rule lineage."""

    core: str = Field(default=RULES_VERSION, pattern=r"^\d{4}-\d{2}-\d{2}$")


class ShowdownSetup(Strict):
    battlefield: str
    focus: str | None = None


class Turn(Strict):
    """Scenarios start in the Action Phase, either Neutral Open or in an open showdown (a chain is never set up:
    put items on it with actions)."""

    player: str
    phase: Literal["action"] = "action"
    state: Literal["neutral-open", "showdown-open"] = "neutral-open"
    showdown: ShowdownSetup | None = None

    @model_validator(mode="after")
    def _showdown_named(self):
        if (self.state == "showdown-open") != (self.showdown is not None):
            raise ValueError("state showdown-open needs a `showdown: {battlefield, focus}` block, and only it")
        return self


class GearSetup(Strict):
    id: str
    card: str
    _card = field_validator("card")(_known_card)


class UnitSetup(Strict):
    id: str
    card: str
    controller: str | None = None
    might: int | None = None
    damage: int = Field(0, ge=0)
    exhausted: bool = False
    stunned: bool = False
    buff: bool = False
    keywords: dict[str, int] = Field(default_factory=dict)
    modifiers: list[int] = Field(default_factory=list)
    moves_this_turn: int = 0
    gear: list[GearSetup] = Field(default_factory=list)
    _card = field_validator("card")(_known_card)


class CardSetup(Strict):
    id: str
    card: str
    at: str | None = None
    _card = field_validator("card")(_known_card)


class RuneSetup(Strict):
    id: str
    card: str
    exhausted: bool = False
    _card = field_validator("card")(_known_card)


class PlayerSetup(Strict):
    """A player's points, Rune Pool (Energy, Power of any domain, Power of one domain), zones and runes
    (`runes` on the board in base, `rune_deck` top first)."""

    points: int = Field(0, ge=0)
    energy: int = Field(99, ge=0)
    power: int = Field(99, ge=0)
    domain_power: dict[Domain, int] = Field(default_factory=dict)
    cards_played_this_turn: int = 0
    runes: list[RuneSetup] = Field(default_factory=list)
    rune_deck: list[CardSetup] = Field(default_factory=list)
    legend: CardSetup | None = None
    base: list[UnitSetup] = Field(default_factory=list)
    hand: list[CardSetup] = Field(default_factory=list)
    deck: list[CardSetup] = Field(default_factory=list)
    trash: list[CardSetup] = Field(default_factory=list)
    facedown: list[CardSetup] = Field(default_factory=list)


class BattlefieldSetup(Strict):
    id: str
    card: str
    controller: str | None = None
    contested_by: str | None = None
    units: list[UnitSetup] = Field(default_factory=list)
    scored_this_turn: list[str] = Field(default_factory=list)
    _card = field_validator("card")(_known_card)

    @model_validator(mode="after")
    def _units_have_controllers(self):
        for unit in self.units:
            if not unit.controller:
                raise ValueError(f"unit {unit.id} at battlefield {self.id} needs a controller")
        return self


class Setup(Strict):
    turn: Turn
    victory_score: int = 8
    players: dict[str, PlayerSetup]
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
        assert self._typed is not None, "set by the validator when the scenario is loaded"
        return self._typed

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
    answer: str
    disagreement: str | None = None
    note: str | None = None  # how the scenario models the ruling, where it had to depart from its wording
    setup: Setup
    actions: list[Action] = Field(default_factory=list)
    checkpoints: list[Checkpoint] = Field(default_factory=list)
    expect: dict[str, Any]
    variants: list[Variant] = Field(default_factory=list)

    @model_validator(mode="after")
    def _checkpoints_name_actions(self):
        labels = {a.label for a in self.actions if a.label}
        for checkpoint in self.checkpoints:
            if checkpoint.after not in labels:
                raise ValueError(f"checkpoint after {checkpoint.after!r}: no action has that label")
        return self


def _line_map(node, path=(), lines=None) -> dict[tuple, int]:
    lines = {} if lines is None else lines
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            lines[path + (key.value,)] = key.start_mark.line + 1
            _line_map(value, path + (key.value,), lines)
            lines[path + (key.value,)] = key.start_mark.line + 1
    elif isinstance(node, yaml.SequenceNode):
        for index, value in enumerate(node.value):
            _line_map(value, path + (index,), lines)
    return lines


def _line_for(lines: dict, loc: tuple) -> int | None:
    loc = tuple(loc)
    while loc:
        if loc in lines:
            return lines[loc]
        loc = loc[:-1]
    return lines.get(())


Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C parser when PyYAML has it


def load_text(path: Path) -> tuple[dict, dict]:
    """The document and the line of every node, from one parse (the C YAML parser where available)."""
    text = Path(path).read_text(encoding="utf-8")
    try:
        node = yaml.compose(text, Loader=Loader)
        data = yaml.constructor.SafeConstructor().construct_document(node) if node is not None else None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        raise ScenarioError(Path(path), mark.line + 1 if mark else None, "(yaml)", str(error)) from None
    if not isinstance(data, dict):
        raise ScenarioError(Path(path), 1, "(document)", "a scenario is a mapping")
    return data, _line_map(node)


def load(path: Path) -> tuple[Scenario, dict]:
    """The validated scenario and its raw document; each file is parsed once and reused while unchanged."""
    stat = Path(path).stat()
    return _load(Path(path), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=256)
def _load(path: Path, mtime: int, size: int) -> tuple[Scenario, dict]:
    data, lines = load_text(path)
    try:
        return Scenario.model_validate(data), data
    except ValidationError as error:
        first = error.errors()[0]
        loc = tuple(p for p in first["loc"] if not (isinstance(p, str) and p.startswith("function-")))
        field = ".".join(str(p) for p in loc) or "(document)"
        raise ScenarioError(path, _line_for(lines, loc), field, first["msg"]) from None
