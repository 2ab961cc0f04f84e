"""Player actions as small typed values, each the YAML form a scenario's `actions:` list uses.

`Move(by="A", units=("a1",), to="bf1").to_dict() == {"by": "A", "do": "move", "units": ["a1"], "to": "bf1"}`
and `parse_action` turns that mapping back into the value. `GameState.push` accepts either form;
`GameState.legal_actions()` yields these values. A rule module adding an action registers its model
with `kernel.action` (the registry decides which model a `do:` names).
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from scenarios import kernel


class Action(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    by: str
    do: str

    ENGINE_FIELDS: ClassVar[tuple[str, ...]] = ()

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"by": self.by, "do": self.do}
        for name, value in self.model_dump(exclude={"by", "do"}, exclude_defaults=True).items():
            data[name] = list(value) if isinstance(value, tuple) else value
        return data

    def describe(self) -> str:
        details = " ".join(f"{k}={v}" for k, v in self.to_dict().items() if k not in ("by", "do"))
        return f"{self.by} {self.do}" + (f" {details}" if details else "")


class Move(Action):
    """The Standard Move (420.3): exhaust the units, move them to one destination."""

    do: Literal["move"] = "move"
    units: tuple[str, ...]
    to: str


class Play(Action):
    """Play a card from hand or from facedown (349-359): targets by slot, a unit's location, Accelerate, and
    how many Repeat costs are paid with the targets of each extra execution (820)."""

    do: Literal["play"] = "play"
    card: str
    targets: dict[str, str | list[str]] = {}
    at: str | None = None
    accelerate: bool = False
    additional: int = 0  # pay the card's optional additional cost (355.1.a, 356.2.b): once, or "any number" of times
    repeat: int = 0
    repeat_targets: tuple[dict[str, str | list[str]], ...] = ()


class Activate(Action):
    """Activate an object's activated ability (369-374), by its position on the card."""

    do: Literal["activate"] = "activate"
    source: str
    ability: int = 0
    targets: dict[str, str | list[str]] = {}


class Hide(Action):
    """Hide a card with [Hidden] facedown at a battlefield you control (421, 811)."""

    do: Literal["hide"] = "hide"
    card: str
    at: str


class Pass(Action):
    """Pass Priority (338.1.b) or Focus (347.2)."""

    do: Literal["pass"] = "pass"


class EndTurn(Action):
    """End the turn (316.9)."""

    do: Literal["end_turn"] = "end_turn"


class Choose(Action):
    """Answer the engine's pending question."""

    do: Literal["choose"] = "choose"
    choice: str
    pick: Any = None


def parse_action(data) -> Action:
    """A typed action from its YAML mapping (or the value itself); an unknown or malformed action is refused."""
    if isinstance(data, Action):
        return data
    if not isinstance(data, dict):
        raise kernel.Refusal("410", f"an action is a mapping with `by` and `do`, not {data!r}")
    do = data.get("do")
    model: type[Action] | None = (
        Choose if do == "choose" else kernel.ACTIONS[do].model if do in kernel.ACTIONS else None
    )
    if model is None:
        known = sorted([*kernel.ACTIONS, "choose"])
        raise kernel.Refusal("410", f"unknown action {do!r} (known: {', '.join(known)})")
    try:
        return model.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise kernel.Refusal("410", f"malformed {do!r} action: {where}: {first['msg']}") from None
