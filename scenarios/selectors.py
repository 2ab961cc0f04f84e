"""What a card's words pick out, as the card vocabulary says it (scenarios/cards.py): the target slots a spell
or ability chooses (`TargetSpec`), the objects or players a filter matches (`ObjectFilter`), the events a trigger
waits for (`EventFilter`), and the amounts counted as an instruction executes (`Quantity`, a condition on one:
`Counted`). The rule modules give the words their meaning (kernel.WHO, kernel.WHERE, scenarios/rules/amounts.py).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, model_validator

DOMAINS = ("Fury", "Calm", "Mind", "Body", "Chaos", "Order")  # 134.2
Domain = Literal["Fury", "Calm", "Mind", "Body", "Chaos", "Order"]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TargetSpec(Strict):
    """Which objects a choice may pick: a card type plus filters."""

    # "permanent": a unit or a gear card ("a unit or gear from your trash"; 133.4.a.2: the permanent types)
    # "player": a player chosen (355.10: a player mentioned is a target), "enemy" side: an opponent
    # "mode": which of a bulleted list of modes (355.3), "1" to `modes`
    # "card": a card of any type (only of a zone: "two cards with [Hidden] from your trash")
    type: Literal[
        "unit", "spell", "gear", "permanent", "card", "card_in_hand", "battlefield", "location", "player", "mode"
    ] = "unit"
    side: Literal["friendly", "enemy", "any"] = "any"
    # "not_here": anywhere but where the source is (a unit a move "to here" may choose, 355.4.a); "my_battlefield":
    # here, and here is a battlefield (a base is each player's own: an enemy unit is never in mine)
    # a destination "to_or_from_base": its base for a unit at a battlefield, a battlefield for a unit in its base
    where: Literal[
        "here",
        "not_here",
        "my_battlefield",
        "battlefield",
        "base",
        "any",
        "same_as_source",
        "other_battlefield",
        "to_or_from_base",
        "battlefield_with_your_units",  # a destination: a battlefield where the player choosing has units
        "with_same_controller",  # a destination: where another unit of the moved unit's controller is
        "moved_to_or_from",  # at a battlefield the move its trigger answers went from or to (359.3.f.3)
    ] = "any"
    max_might: int | None = None
    less_might_than_me: bool = False  # "with less Might than me": than the source's, as it is chosen
    same_place_as: str | None = None  # "two units at the same battlefield": where that slot's unit is, or its place
    max_cost: int | None = None  # printed Energy cost (206)
    cost_within_my_might: bool = False  # "with Energy cost no more than my Might": the source's, as it is chosen (206)
    max_power: int | None = None  # printed Power cost, of any domain (206)
    cost_below: Quantity | None = None  # "with Energy cost less than your points": counted as it is chosen
    stunned: bool | None = None
    exhausted: bool | None = None  # "an exhausted friendly unit" (true), "a ready unit" (false): 414
    role: Literal["attacker", "defender"] | None = None  # "an attacking unit": its designation in a combat (464.2.c)
    equipped: bool | None = None  # "an equipped friendly unit": one or more Equipment attached to it (818.3.b)
    attached: bool | None = None  # "a detached Equipment" (false), "an attached Equipment" (true): 434.1, 435.1.b
    controller_as: str | None = None  # "a unit and an Equipment with the same controller": that slot's object's
    optional: bool = False
    not_target: str | tuple[str, ...] | None = None  # must differ from another slot (or from each of several)
    other: bool = False  # "another unit": not the source of the ability itself
    tag: str | list[str] | None = None  # "a friendly Mech": a unit with this tag (133.8); a list: any of them
    domain: Domain | None = None  # "an enemy Chaos unit": one of the card's Domains (134.1)
    not_tag: str | None = None  # "a non-Dragon unit": a unit without this tag (133.8)
    of: str | None = None  # a move's destination: the earlier slot whose units move there (not where they are)
    zone: Literal["trash", "hand"] | None = None  # "a unit from your trash / hand": a card of its chooser's (355.10.a)
    zone_of: str | None = None  # "a unit in their trash": that slot's chosen player's zone, not the chooser's
    keyword: str | None = None  # "cards with [Hidden] from your trash": a card of a zone with that printed keyword
    name: str | None = None  # "a Shadow Clone you control": a unit of that name (a token kind's, 187.11)
    modes: int | None = None  # a "mode" choice: how many modes it chooses among (355.3)
    # "choose one you've not chosen this turn" ("turn"): not a mode chosen for this ability of this object this turn;
    # "choose one you haven't already chosen" ("item"): not one chosen for another execution of it (Repeat, 820.2)
    not_chosen: Literal["turn", "item"] | None = None
    mode: int | None = None  # chosen only when the item's mode is this one (355.3; scenarios/rules/modes.py)
    # "a unit at a battlefield or a gear": a unit as the rest says, or any gear on the board (355.9.b)
    or_gear: bool = False
    # "any number of units": one slot holding a group of different objects, zero or more (355.13), whose group
    # requirements hold for the group as a whole (355.11): a total Might at most `total_might`, all at one
    # battlefield (`together`, "units at a battlefield"), all of one controller (`same_controller`)
    any_number: bool = False
    total_might: int | None = None
    together: bool = False
    same_controller: bool = False
    max_count: int | None = None  # "up to 4 units, gear, and/or runes": at most this many in the group (355.13)
    or_rune: bool = False  # "... and/or runes": a rune on the board too (160; a Game Object, not a permanent)
    or_legend: bool = False  # "something else that's exhausted": a legend too (its Legend Zone is on the board)
    token: bool | None = None  # "your token units": objects made as tokens (185)


class ObjectFilter(Strict):
    who: str = "unit"
    where: str | None = None
    stunned: bool | None = None
    damaged: bool | None = None
    role: Literal["attacker", "defender"] | None = None
    alone: bool | None = None  # the only unit of its controller with that role at its location
    mighty: bool | None = None
    zone: str | None = None  # default: on the board; "anywhere": in any zone ("your Equipment everywhere")
    banished_by: Literal["this"] | None = None
    less_might_than_me: bool | None = None  # "if it has less Might than me"
    tag: str | None = None  # "your Mechs": objects with this tag (133.8, 143.1)
    not_tag: str | None = None  # "a non-Recruit unit": objects without this tag (133.8)
    buffed: bool | None = None  # "while I'm buffed": a unit with a buff on it (702.2.a)
    exhausted: bool | None = None  # "a ready enemy unit" (false), "an exhausted unit" (true): 414
    keyword: str | None = None  # "your units with [Temporary]": objects that have the keyword now
    token: bool | None = None  # "token units you control": objects made as tokens (185)
    empowered: bool | None = None  # "your units that are [Empowered]" (828)
    max_might: int | None = None  # "all units with 2 [Might] or less": Might as it is checked
    among: Literal["looked"] | None = None  # "revealed this way": only the cards the item's look revealed (424.1)
    named_as: Literal["this"] | None = None  # "each card with this name": its card's name is the source's (132.1)
    # "If this was attached to me this turn, I have ...": the unit the source (an Equipment) was attached to this turn
    attached_this_turn: bool | None = None
    # "a player ... during their first or second turn": a player whose own turn it is, one of their first N
    own_turn_at_most: int | None = None


MEASURES = (
    "count",
    "bonus",
    "total_might",
    "tags_among",
    "double",
    "raise_to",
    "damage",
    "keyword",
    "energy_cost",
    "printed_might",
    "points",
)


class Quantity(Strict):
    """An amount counted as it is used, N for each one (scenarios/rules/amounts.py; 135.2.b.5.a, 359.3.f.2): one
    measure, `times` N."""

    count: ObjectFilter | None = None  # how many objects pass the filter
    bonus: ObjectFilter | None = None  # the printed Might bonuses of the gear that pass it, summed (137.3)
    total_might: ObjectFilter | None = None  # the current Might of the units that pass it, summed
    tags_among: ObjectFilter | None = None  # how many of `tags` the objects that pass it have among them (133.8)
    tags: list[str] | None = None  # ... "for each of the following tags among your units — Bird, Cat, Dog, and Poro"
    double: str | None = None  # the current Might of a reference: the increase that doubles it (432.1)
    raise_to: str | None = None  # the Might of a reference less that of `of`, when more: "increase its Might to"
    damage: str | None = None  # the damage marked on it
    keyword: str | None = None  # the summed value of a keyword (807.2) ...
    of: str | None = None  # ... of this reference
    energy_cost: str | None = None  # a card's printed Energy cost (206)
    printed_might: str | None = None  # a card's printed Might, off the board ("the burned card's Might")
    points: Literal["you"] | None = None
    times: int = 1

    @model_validator(mode="after")
    def _one_measure(self):
        named = [m for m in MEASURES if getattr(self, m) is not None]
        if len(named) != 1 or (self.keyword is None and self.raise_to is None) != (self.of is None):
            raise ValueError(f"a quantity names one measure of {MEASURES} (a keyword with `of`), not {named}")
        if (self.tags_among is None) != (not self.tags):
            raise ValueError("a quantity counts the tags among objects (`tags_among`) of a list of `tags`")
        return self

    @property
    def measure(self) -> str:
        """The one measure this quantity names (`MEASURES`)."""
        return next(m for m in MEASURES if getattr(self, m) is not None)

    def words(self) -> str:
        measure = self.measure
        value = getattr(self, measure)
        filtered = self.count or self.bonus or self.total_might or self.tags_among
        shown = ", ".join(f"{k}: {v}" for k, v in value.model_dump(exclude_none=True).items()) if filtered else value
        said = f"{measure} {shown} of {self.of}" if self.of else f"{measure} {shown}"
        said = f"{said} of the tags {', '.join(self.tags)}" if self.tags else said
        return said if self.times == 1 else f"{self.times} for each: {said}"


class Counted(Strict):
    """A trigger's count ("if you have 7+ units here": at least 7), checked as its event happens (383.2.a.1)."""

    amount: Quantity
    at_least: int | None = None
    at_most: int | None = None


class EventFilter(ObjectFilter):
    event: str
    who: str = "self"
    by: Literal["you", "opponent"] | None = None
    via: Literal["spell", "ability", "combat"] | None = None
    nth: int | None = None
    # the kind of card played (card_played events); "card": a Main Deck card (052), so not a token (185)
    card_type: Literal["unit", "gear", "spell", "card"] | None = None
    from_hidden: bool | None = None  # played from facedown (811): "when you play a card from [Hidden]"
    min_energy: int | None = None  # the printed Energy cost of the card played, at least (206: "costs [5] or more")
    min_power: int | None = None  # its printed Power cost, at least (206)
    uncontrolled: bool | None = None  # "conquer a battlefield that was uncontrolled" (190.4.c) before the conquer
    from_hand: bool | None = None  # the card played from its owner's hand or not: "from anywhere other than your hand"
    one_on_one: bool | None = None  # "when I attack or defend one on one" (740.2.b), as it happens
    # "when you banish a card you own": the event's card is a card (052: no token, 185; no rune, 161.1.a) you own (127.1)
    own_card: bool | None = None
    # "returned to a player's hand": the zone a permanent leaving the board goes to
    to_zone: Literal["hand"] | None = None
    # "the first time you play a non-token gear each turn": the card is the Nth card of its type its player played
    # this turn (419.4.a); a token is no card (185), neither counted nor seen
    nth_of_type: int | None = None

    # "When you play a spell, if you spent [4] or more": the Energy paid to play it, at least (357.1; 383.2.a.1: a
    # condition right after the trigger condition is part of it)
    min_energy_paid: int | None = None
    # "when a player chooses a friendly unit": the filter's "friendly" and "enemy" as the player acting (the event's
    # player) sees them, not the card's controller; "they" in its effects is that player (`each_player: actor`)
    actor: bool = False
