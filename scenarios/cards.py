"""The shared card library: every card defined once, declaratively, in `cards.yaml`.

A card names the real card it models (`real:`, a name in corpus/riftbound-cards.json)
or says it is a made-up test card (`made_up: true`). Behaviour is data in a small
vocabulary read by one engine (see `effects.py` for the instructions, `triggers.py`
for trigger conditions, `layers.py` for passive selectors):

    triggers:      when <event> [if <condition>], [optional], targets, effects
    passives:      might +/-N [minimum] for units picked by a selector ("while" effects)
    replacements:  would <event> for <scope>, instead <effects>
    restrictions:  e.g. no moving from here to base
    activated:     cost, effects, [only_unattached]
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

LIBRARY = Path(str(resources.files("scenarios") / "cards.yaml"))


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TargetSpec(Strict):
    """Which objects a choice may pick: a card type plus filters."""

    type: Literal["unit", "spell", "gear", "card_in_hand", "battlefield", "location"] = "unit"
    side: Literal["friendly", "enemy", "any"] = "any"
    where: Literal["here", "battlefield", "base", "any", "same_as_source", "other_battlefield"] = "any"
    max_might: int | None = None
    max_cost: int | None = None
    stunned: bool | None = None
    optional: bool = False
    not_target: str | None = None  # must differ from another slot


class Trigger(Strict):
    when: str
    condition: str | None = None
    optional: bool = False
    cost: dict[str, int] = Field(default_factory=dict)
    targets: dict[str, TargetSpec] = Field(default_factory=dict)
    effects: list[dict[str, Any]]
    label: str | None = None


class Passive(Strict):
    selector: str
    might: int = 0
    minimum: int | None = None
    keyword: str | None = None


class Replacement(Strict):
    would: Literal["die"]
    scope: Literal["friendly_unit", "equipped_unit"]
    instead: list[dict[str, Any]]


class Activated(Strict):
    cost: dict[str, Any] = Field(default_factory=dict)
    targets: dict[str, TargetSpec] = Field(default_factory=dict)
    effects: list[dict[str, Any]]
    only_unattached: bool = False
    label: str | None = None


class Card(Strict):
    name: str
    real: str | None = None
    made_up: bool = False
    text: str = ""
    note: str = ""
    type: Literal["unit", "gear", "spell", "battlefield", "legend", "token"]
    might: int | None = None
    energy: int = 0
    power: int = 0
    keywords: dict[str, int] = Field(default_factory=dict)
    might_bonus: int = 0
    enters_ready: bool = False
    targets: dict[str, TargetSpec] = Field(default_factory=dict)
    effects: list[dict[str, Any]] = Field(default_factory=list)
    triggers: list[Trigger] = Field(default_factory=list)
    passives: list[Passive] = Field(default_factory=list)
    replacements: list[Replacement] = Field(default_factory=list)
    restrictions: list[str] = Field(default_factory=list)
    activated: list[Activated] = Field(default_factory=list)
    grants: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _provenance(self):
        if bool(self.real) == self.made_up:
            raise ValueError(f"card {self.name!r} must either name the real card it models or be made_up")
        return self

    def has(self, keyword: str) -> bool:
        return keyword in self.keywords


RESTRICTIONS = {"no_move_from_here_to_base"}
GRANTS = {"conquer_and_hold_both", "tie_recalls_all"}


def _instructions(effect_list):
    for instruction in effect_list:
        yield instruction
        for key in ("effects", "then"):
            yield from _instructions(instruction.get(key, []))


def check_vocabulary(card: Card) -> None:
    """Every word a card uses must be one the engine reads, so a typo fails at load, not mid-replay."""
    from scenarios.effects import OPS
    from scenarios.layers import SELECTORS
    from scenarios.triggers import CONDITIONS

    lists = (
        [card.effects]
        + [t.effects for t in card.triggers]
        + [r.instead for r in card.replacements]
        + [a.effects for a in card.activated]
    )
    for instruction in (i for effect_list in lists for i in _instructions(effect_list)):
        if instruction.get("op") not in OPS:
            raise ValueError(f"card {card.name!r}: unknown instruction {instruction.get('op')!r}")
    for trigger in card.triggers:
        if trigger.when not in CONDITIONS and trigger.when != "die":
            raise ValueError(f"card {card.name!r}: unknown trigger condition {trigger.when!r}")
    for passive in card.passives:
        if passive.selector not in SELECTORS:
            raise ValueError(f"card {card.name!r}: unknown passive selector {passive.selector!r}")
    for word, known in ((w, RESTRICTIONS) for w in card.restrictions):
        if word not in known:
            raise ValueError(f"card {card.name!r}: unknown restriction {word!r}")
    for word in card.grants:
        if word not in GRANTS:
            raise ValueError(f"card {card.name!r}: unknown grant {word!r}")


class UnknownCard(KeyError):
    pass


@lru_cache(maxsize=4)
def load_library(path: Path = LIBRARY) -> dict[str, Card]:
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    cards = {}
    for entry in raw["cards"]:
        card = Card.model_validate(entry)
        check_vocabulary(card)
        if card.name in cards:
            raise ValueError(f"{path}: card {card.name!r} defined twice")
        cards[card.name] = card
    return cards


def card(name: str) -> Card:
    library = load_library()
    if name not in library:
        raise UnknownCard(f"no card named {name!r} in {LIBRARY.name}")
    return library[name]
