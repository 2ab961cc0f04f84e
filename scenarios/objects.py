"""The typed pieces of the game state: game objects, players, chain items, trigger instances, combat, showdown.

Everything a game changes is a `Journaled` dataclass (its writes are undoable, see journal.py); values that
never change once made (an event, a trigger instance, a might modifier) are `value` dataclasses, compared and
hashed by their fields. Lists are tuples, replaced on change.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, dataclass_transform

from scenarios.journal import Journaled


@dataclass_transform(eq_default=True)
def value(cls):
    """A value type: a dataclass compared and hashed by its fields, never changed once made (nothing assigns to
    one). Not `frozen=True`: a frozen dataclass's __init__ sets each field through `object.__setattr__`, which
    made creating one about four times slower, and the engine makes several events and views per action."""
    return dataclass(unsafe_hash=True)(cls)


@dataclass_transform(eq_default=False)
def journaled(cls):
    """A piece of game state (a `Journaled` dataclass, compared by identity) whose __init__ sets its fields
    directly. A new object belongs to no game yet, so there is nothing to journal while it is built (the game
    journals its arrival once); a plain dataclass __init__ would still call `Journaled.__setattr__` for each
    field, a Python call per field (a chain item has 18). `frozen=True` makes dataclass write the fields with
    `object.__setattr__`; its refusing __setattr__ and __delattr__ are then removed, so that writes to the
    object go through the journal as before."""
    cls = dataclass(eq=False, frozen=True)(cls)
    del cls.__setattr__, cls.__delattr__
    return cls


class Zone(enum.StrEnum):
    BOARD = "board"
    HAND = "hand"
    DECK = "deck"
    TRASH = "trash"
    BANISHMENT = "banishment"
    CHAIN = "chain"
    FACEDOWN = "facedown"
    RUNE_DECK = "rune deck"
    CEASED = "ceased to exist"  # a token put into a Non-Board Zone (186.1): in no zone at all


class Kind(enum.StrEnum):
    UNIT = "unit"
    GEAR = "gear"
    SPELL = "spell"
    BATTLEFIELD = "battlefield"
    LEGEND = "legend"
    RUNE = "rune"


class Role(enum.StrEnum):
    ATTACKER = "attacker"
    DEFENDER = "defender"


# Enum members bound as module constants: looking a member up on its class is slow in the hot paths.
BOARD, HAND, DECK, TRASH, BANISHMENT, CHAIN, FACEDOWN, RUNE_DECK, CEASED = Zone
UNIT, GEAR, SPELL, BATTLEFIELD, LEGEND, RUNE = Kind


class ItemKind(enum.StrEnum):
    SPELL = "spell"
    ABILITY = "ability"
    TRIGGER = "trigger"


@value
class Modifier:
    """A Might change created by a resolving effect, fixed when it applied (477.3.b)."""

    amount: int
    source: str
    timestamp: int
    until: str = "turn"


@value
class Grant:
    """A keyword given to an object by an effect (801.3.a)."""

    keyword: str
    value: int
    until: str = "turn"


@value
class Event:
    """Something that happened (or would happen, for a replacement effect), as triggers and replacement
    effects see it: its kind, the unit it happened to, the player who did it or to whom it happened, where,
    the object or chain item that caused it, and event-specific details."""

    kind: str
    unit: str | None = None
    player: str | None = None
    location: str | None = None
    source: str | None = None
    via: str | None = None  # "spell", "ability" or "combat": what kind of thing caused it
    units: tuple[str, ...] = ()  # the units taking part (a Conquer's or Hold's units)
    count: int = 0  # the subject's count of such events this turn (a unit's moves, a player's cards played)
    amount: int = 0  # damage dealt, cards drawn
    might: int | None = None  # a dying unit's Might, noted before it goes to the trash (808.1.d.3)
    company: tuple[str, ...] = ()  # the other friendly units where it died, noted likewise
    card: str | None = None  # the card played
    destination: str | None = None
    hidden_at: str | None = None  # a permanent played from hidden at this battlefield (811.1.d.2)
    uncontrolled: bool = False  # a conquered battlefield that had no controller before (190.4.c)
    played_from: str | None = None  # the zone the card played was played from (hand, facedown, trash, ...)

    origin: str | None = None  # where a unit that moved came from (its `location` is where it went)
    chosen: bool = False  # the spell or ability acting on the unit chose it (355.7): "a spell ... that chooses me"


@value
class TriggerInstance:
    """One triggering of one ability of one object, from the moment it triggers to its resolution (383).

    Two units with the same "When I attack" ability give two instances; a legend whose ability triggers
    for each attacking unit gives one instance per unit: each keeps its own source, controller and event."""

    id: str
    source: str
    incarnation: int
    index: int | None  # the ability's position on its card (None: a delayed or keyword ability)
    controller: str
    event: Event
    label: str
    rule: str
    effects: tuple = ()
    targets: tuple = ()  # (slot, TargetSpec) pairs
    optional: bool = False
    cost: Any = None
    location: str | None = None  # "here" for the ability: its source's location when it triggered
    hidden_at: str | None = None  # a play effect of a card played from hidden (811.1.d.2)
    it: str | None = None  # a delayed ability's object ("it")
    delayed: bool = False  # a delayed ability (390.2), made by an effect, not by its source's text
    it_incarnation: int | None = None  # ... as the object "it" was when the delayed ability was made
    kept: tuple = ()  # a reflexive trigger's (slot, refs) pairs: what the ability that made it named (388.1)

    def describe(self) -> str:
        subject = self.event.unit or self.event.player
        return f"{self.label} ({self.source}" + (f", {self.event.kind} of {subject})" if subject else ")")


@value
class DelayedAbility:
    """A delayed triggered ability created by a resolving effect (390): fires on a later event."""

    id: str
    event: Any  # EventFilter
    source: str
    controller: str
    label: str
    effects: tuple
    it: str | None = None  # the object "it" refers to
    incarnation: int | None = None  # ... as the object it was when the ability was made (359.3.e.4)
    once: bool = True
    until: str = "turn"  # or a chain item's id: only until the cleanup after that item resolves (428.5.c)
    rule: str = "390.2"  # the rule it triggers under


@value
class LastingReplacement:
    """A replacement effect created by a resolving effect ("the next time it would die this turn, ...")."""

    id: str
    replacement: Any  # cards.Replacement
    source: str
    controller: str
    it: str | None = None
    incarnation: int | None = None
    once: bool = True
    until: str = "turn"  # or a chain item's id: only until the cleanup after that item resolves (428.5.c)
    rule: str = "390.2"  # the rule it triggers under
    left: int | None = None  # a Prevent's Prevent Value still tracked on the unit (437.3)


@journaled
class Obj(Journaled):
    """One game object: a unit, gear, spell, battlefield, legend, or a card in a non-board zone."""

    id: str
    card: str
    owner: str
    controller: str
    kind: Kind
    zone: Zone = Zone.BOARD
    location: str | None = None  # "base" or a battlefield id while on the board; the battlefield when facedown
    exhausted: bool = False
    damage: int = 0
    stunned: bool = False
    buffs: int = 0
    might_base: int | None = None
    attached_to: str | None = None
    attached_turn: int | None = None  # the turn it was last attached by an effect (434.1): "if this was attached ..."
    designation: Role | None = None
    moves_this_turn: int = 0
    empowered: bool = False  # the Empowered status (441, 828)
    # where a spell goes as it leaves the Chain instead of its owner's trash, a delayed replacement made as it was
    # played (390.3.a): "banish" played with Flow (829.1.b.1), "recycle" ("play a spell ... Then recycle it")
    off_chain: str | None = None
    might_as_it_died: int | None = None  # its Might as it was killed (last known, 359.3.e.13): "the killed unit"
    died_as: int | None = None  # the incarnation its last death made it (a new object in the trash, 359.3.e.4)
    killed_to_play: tuple[str, ...] = ()  # what its additional cost killed ("the killed unit", 359.3.e.14)
    paid_additional: int = 0  # times its optional additional cost was paid as it was last played (356.4.f.1)
    energy_paid: int = 0  # the Energy paid to play it as it was last played (357.1): "if you spent [4] or more"

    bonus_damage: int = 0  # Bonus Damage its last play was given ("the next spell you play deals 1 ...", 391)
    incarnation: int = 0
    timestamp: int = 0
    order: int = 0
    granted: tuple[Grant, ...] = ()
    modifiers: tuple[Modifier, ...] = ()
    # (passive ability, the decrease it applies) for a passive whose limit was snapshotted as it began to apply
    passive_limits: tuple[tuple[str, int], ...] = ()
    triggered_in_combat: tuple[str, ...] = ()  # designations already gained in this combat (383.4.e.2.a)
    banished_by: str | None = None
    hidden_turn: int | None = None  # the turn it was hidden (811.1.b: playable from the next turn)
    played_from: str | None = None  # the zone its last play took it from ("from anywhere other than your hand")
    dealt_damage_this_turn: bool = False  # damage was marked on it this turn (417.1.b), healed since or not
    # (player responsible, "spell" / "ability" / "combat") of the damage last marked on it, until the Cleanup after
    # it: a kill by that Cleanup is attributed to it (428.5.c)
    damage_by: tuple[str, str] | None = None
    left_controller: str | None = None  # its controller as it last left the board ("its controller draws 2")
    gained_tags: tuple[str, ...] = ()  # "As you play me, choose Bird, ... I gain that tag": while on the board
    # battlefields
    battlefield_controller: str | None = None
    contested_by: str | None = None
    staged: str | None = None
    scored_this_turn: tuple[str, ...] = ()
    conquered_this_turn: tuple[str, ...] = ()  # the players who conquered it this turn (469.1), scoring or not
    definition: Any = field(default=None, repr=False, compare=False)

    _SHOWN = {
        "zone",
        "location",
        "controller",
        "exhausted",
        "damage",
        "stunned",
        "buffs",
        "might_base",
        "attached_to",
        "designation",
        "moves_this_turn",
        "empowered",
        "granted",
        "gained_tags",
        "modifiers",
        "contested_by",
        "staged",
        "banished_by",
    }

    def change_label(self, key: str):
        if key == "battlefield_controller":
            return (self.id, "controller")
        return (self.id, key) if key in self._SHOWN else None

    def tagged(self, tag: str | list[str]) -> bool:
        """Has it the tag (133.8), printed or gained, or one of a list ("a Bird, Cat, Dog, or Poro")?"""
        wanted = {tag} if isinstance(tag, str) else set(tag)
        printed = set(self.definition.tags) if self.definition is not None else set()
        return bool((printed | set(self.gained_tags)) & wanted)

    def where(self) -> str:
        """The object's location on the board, or its zone elsewhere."""
        if self.zone == Zone.BOARD and self.location is not None:
            return self.location
        return str(self.zone)

    def plain(self) -> dict:
        from scenarios.trace import plain

        return {
            name: plain(getattr(self, name))
            for name in self.__dataclass_fields__
            if name != "definition" and not name.startswith("_")
        }


@journaled
class Player(Journaled):
    """A player: points, and the Rune Pool (165): Energy, Power of any domain (`power`, [A], 163.2.b) and
    Power of one domain (`domain_power`: (domain, amount) pairs, 163.2.a); the cards played this turn."""

    name: str
    points: int = 0
    energy: int = 99
    power: int = 99
    domain_power: tuple[tuple[str, int], ...] = ()
    # resources that pay only some costs ("Use only to play spells"): (use, Energy, Power, its domain or None)
    restricted: tuple[tuple[str, int, int, str | None], ...] = ()
    cards_played_this_turn: int = 0
    played_this_turn: tuple[str, ...] = ()  # the Main Deck cards played this turn (Legion, 812)
    cards_finalized_this_turn: int = 0  # those played or being played, countered ones too (419.4.b in 1.4)
    finalized_this_turn: tuple[str, ...] = ()
    xp: int = 0  # XP, a resource a player gains and spends (728-733)
    turns_taken: int = 0  # the turns this player has begun, the current one counted ("during their first turn")
    xp_gained_this_turn: int = 0  # XP gained this turn ("If you've gained XP this turn", 730.1)
    discarded_this_turn: int = 0  # cards discarded this turn ("If you've discarded a card this turn", 422.1)
    drawn_this_turn: int = 0  # cards drawn this turn ("When you draw your second card each turn", 413)
    held_points_this_turn: int = 0  # points scored from holding this turn (469.2, 471.1)
    died_this_turn: int = 0  # units they controlled that died this turn ("The first time a friendly unit dies")
    # the most Energy paid to play one spell this turn ("If you've spent [4] or more to play a spell this turn"),
    # and the Power spent this turn for anything ("If you've spent at least [A][A] this turn"): 357.1
    spell_energy_this_turn: int = 0
    power_spent_this_turn: int = 0
    buff_bonus_this_turn: int = 0  # "Buffs give an additional +1 [Might] to friendly units this turn" (703)
    enemy_units_chosen_this_turn: int = 0  # by their spells and abilities (355.7): "if you've chosen an enemy unit"
    # what the cards the player plays cost this turn, by an effect ("the next spell you play this turn costs [5]
    # less"): (kind of card, signed Energy, signed Power, used up by the next such card, label)
    cost_changes: tuple[tuple[str, int, int, bool, str], ...] = ()
    hides_ignoring_costs: bool = False  # "You can hide cards ignoring costs this turn" (811.1.b's [A] not paid)
    # "The next spell you play this turn deals 1 Bonus Damage" (a delayed passive, 391): (amount, label) each,
    # used up by the next spell the player Finalizes this turn (419.4.b)
    spell_bonuses: tuple[tuple[int, str], ...] = ()

    def change_label(self, key: str):
        return (f"player {self.name}", key)

    def plain(self) -> dict:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


@journaled
class ChainItem(Journaled):
    """A spell, activated ability or triggered ability on the Chain (327-336)."""

    id: str
    label: str
    kind: ItemKind
    source: str
    controller: str  # fixed when it goes on the Chain (191.4.b)
    effects: tuple = ()
    source_incarnation: int | None = None  # the source as the item was made (None: a delayed ability's)
    target_specs: tuple = ()  # (slot, TargetSpec) pairs
    targets: dict | None = None  # slot -> tuple of (object id, incarnation); None while pending
    card: str | None = None  # the spell card, while it is on the Chain
    optional: bool = False
    cost: Any = None  # a Cost the controller may pay as the item resolves ("you may pay ... to ...")
    trigger: TriggerInstance | None = None
    location: str | None = None  # "here" for the item
    hidden_at: str | None = None  # played from hidden at this battlefield (811.1.d.2)
    affected: str | None = None  # a replacement effect's subject ("that unit")
    it: str | None = None  # a delayed ability's object ("it")
    it_incarnation: int | None = None  # ... as the object it named (a new object since is not "it", 124)
    repeat: int = 0  # extra executions paid for (820)
    repeat_targets: tuple = ()  # the targets of each extra execution, chosen as the spell was played (820.2)

    @property
    def pending(self) -> bool:
        return self.targets is None

    def change_label(self, key: str):
        return None

    def spec(self, slot: str):
        return dict(self.target_specs).get(slot)

    @property
    def of_its_sources_death(self) -> bool:
        """Is this item a trigger of its own source's death (a Deathknell)? Then it keeps what was noted as
        the source died: where it died and its Might (808.1.d.3)."""
        trigger = self.trigger
        return trigger is not None and trigger.event.kind == "die" and trigger.event.unit == self.source

    @property
    def noted_might(self) -> int | None:
        """The Might its source had as it died, when the item is that death's trigger (808.1.d.3)."""
        trigger = self.trigger
        return trigger.event.might if trigger is not None and self.of_its_sources_death else None

    @property
    def noted_company(self) -> tuple[str, ...] | None:
        """The other friendly units where its source died, when the item is that death's trigger (808.1.d.3)."""
        trigger = self.trigger
        return trigger.event.company if trigger is not None and self.of_its_sources_death else None

    def plain(self) -> dict:
        from scenarios.trace import plain

        return {
            "id": self.id,
            "label": self.label,
            "kind": str(self.kind),
            "source": self.source,
            "controller": self.controller,
            "card": self.card,
            "pending": self.pending,
            "targets": plain(self.targets),
            "trigger": self.trigger.describe() if self.trigger else None,
        }


@journaled
class Combat(Journaled):
    battlefield: str
    attacker: str | None  # the battlefield's contested_by
    defender: str
    resolving: bool = False
    recalled: bool = False  # attackers were recalled in the Combat Cleanup (466.1.a.2): no result (466.3.d)

    def change_label(self, key: str):
        return ("combat", key)

    def plain(self) -> dict:
        return {"battlefield": self.battlefield, "attacker": self.attacker, "defender": self.defender}


@journaled
class Showdown(Journaled):
    battlefield: str
    combat: bool
    focus: str | None  # none: a showdown no player has focus in yet (a scenario may set one up so)
    passes: tuple[str, ...] = ()
    initial: bool = False
    reopened: bool = False  # a Cleanup's triggers went on the Chain just after its last item resolved

    def change_label(self, key: str):
        return ("showdown", key)

    def plain(self) -> dict:
        return {"battlefield": self.battlefield, "combat": self.combat, "focus": self.focus}


@value
class Outcome:
    """The result of a game so far: the winner (None while it goes on), each player's points, and why."""

    winner: str | None
    points: dict[str, int]
    reason: str


@value
class View:
    """Card text read from its card's point of view: whose text it is (`source`), who "you" is (a
    battlefield's controller, 190.6.d, or None when it has none), where "here" is, what "it" names, and the
    legal targets of the resolving item's slots (for "at <slot>": their locations)."""

    source: str | None = None
    you: str | None = None
    here: str | None = None
    it: str | None = None
    it_incarnation: int | None = None
    # slot name -> the object ids or locations still legal for it; left out of the hash (a dict has none), still compared
    slots: dict | None = field(default=None, hash=False)


@value
class Targeting:
    """What a targeting choice is made for: the card or ability, its controller, where "here" is, the
    battlefield it was hidden at, and the targets already chosen for its other slots."""

    label: str
    controller: str
    source: str
    here: str | None = None
    hidden_at: str | None = None
    chosen: dict = field(default_factory=dict)
    # the places of the event a triggered ability answers: a move's origin and destination ("a battlefield I moved to
    # or from", 359.3.f.3)
    trigger_places: tuple[str, ...] = ()
