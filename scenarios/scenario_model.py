"""The scenario model: what a scenario file holds (meta, rules version, setup, actions, expectations, variants), as
pydantic models that refuse unknown fields. Checks of one part live on its model (a showdown's battlefield exists,
a card is known); checks across the whole document are in `scenarios.document_checks`."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator, model_validator

from scenarios.actions import Action as PlayerAction
from scenarios.actions import parse_action
from scenarios.cards import UnknownCard
from scenarios.cards import card as card_named
from scenarios.kernel import DEFAULT_VERSION, Refusal
from scenarios.selectors import Domain


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
    empowered: bool = False  # the Empowered status (441)
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
    # the turns this player has begun, the current one counted ("during their first or second turn"); by default
    # the game's first round: 1 for the turn player and the players before it in Turn Order, 0 after it
    turns_taken: Count | None = None
    xp: Count = 0  # XP (728)
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
    conquered_this_turn: list[PlayerName] = Field(default_factory=list)  # "a battlefield you conquered this turn"
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
