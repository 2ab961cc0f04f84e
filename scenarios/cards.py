"""The card library: every card defined once, declaratively, in `cards.yaml`, in a vocabulary read by one engine.

A card names the real card it models (`real:`, a name in corpus/riftbound-cards.json) or says it is a made-up
test card (`made_up: true`). Behaviour is data:

    triggers:      when: <event filter>, [condition [if_clause]], [limit], [optional], [cost], [active_in], targets,
                   effects (375-385; if_clause: an "if" right after the Condition, 383.2.a.1; condition: a word or a
                   count, `Counted`; active_in: trash, where "when you discard me" is evaluated, 383.2.c.1, and
                   an ability that plays its own card from the trash, 385.2)
    trash_play:    a cost it may be played for from its owner's trash ("You may play me from your trash for
                   [3][C]", 366.1, 356.1.a), under `trash_play_condition` ([Legion])
    passives:      to: <object filter>, [condition], might +/-N [minimum], keywords, triggers_also_on,
                   restrictions, retriggers   (363-366)
    replacements:  would: <event>, to: <object filter>, instead: <instructions>   (364-368)
    restrictions:  e.g. no moving from here to base, assigned combat damage last
    activated:     cost, [keywords: Action/Reaction], targets, effects   (369-374)

An *object filter* picks objects or players relative to the card: `who` ("self", "unit", "friendly unit",
"enemy unit", "other friendly unit", "equipped unit", "you", "opponent", "card", ...), `where` ("here",
"battlefield", "base", "battlefield you control", "other battlefield", "at <target slot>"), and conditions
(`stunned`, `damaged`, `role`, `alone`, `mighty`, `zone`, `banished_by`, `less_might_than_me`). An *event
filter* adds the `event` (see `kernel.EVENT_KINDS`), `by` (the player who acts: you/opponent), `actor` (its
words read as that player sees them: "a player chooses a friendly unit"), `via`
(spell/ability/combat), `nth` (the Nth such event of its subject this turn) and `card_type` (of a card played). The words are registered by the rule modules (kernel.WHO,
kernel.WHERE, kernel.INSTRUCTIONS, kernel.EVENT_KINDS); `check_vocabulary` refuses a card using any other.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import Field, model_validator

from scenarios import kernel
from scenarios.selectors import Counted, Domain, EventFilter, ObjectFilter, Quantity, Strict, TargetSpec
from scenarios.token_kinds import GEAR_TOKENS, UNIT_TOKENS

LIBRARY = Path(str(resources.files("scenarios") / "cards.yaml"))
Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class Cost(Strict):
    """A cost: of playing a card (131, 356), of an activated ability (before its colon), or inside an
    instruction ("X to Y", 355.10.c.1). `power` is Power of any domain ([A], 135.2.e.5); `domain_power`
    Power of one domain ({Fury: 1} is [R], 134.2)."""

    energy: int = 0
    power: int = 0
    domain_power: dict[Domain, int] = Field(default_factory=dict)
    # Power of any one of several domains: a multi-domain card's [C] read as "any power of that card's Domains"
    # (135.2.e.6.c, 805.1.a.1 in Core Rules 1.4), as (domains, amount) pairs
    power_of_domains: tuple[tuple[tuple[Domain, ...], int], ...] = ()
    exhaust: Literal["this"] | None = None
    banish: Literal["this"] | None = None
    recycle: Literal["this"] | None = None
    kill: Literal["this"] | None = None  # "Kill this" (Gold, 187.5): the source dies as the cost is paid
    spend_buff: Literal["friendly", "this"] | None = None  # "spend a buff" (of a unit you control), "spend my buff"
    discard: int = 0
    spend_xp: int = 0  # "Spend 3 XP" (730.2)
    disempower: Literal["this"] | None = None  # "Disempower this": its source stops being Empowered (442.1)
    kill_friendly: Literal["unit"] | None = None  # "Kill a friendly unit": one its payer controls, chosen as paid
    recycle_from_trash: int = 0  # "Recycle 3 from your trash": cards of the payer's choice, not targets (416.3, 416.6)
    recycle_kind: Literal["unit", "gear", "spell"] | None = None  # "Recycle a unit from your trash": only that kind
    discard_kind: Literal["unit", "gear", "spell"] | None = None  # "Discard a gear": only cards of that kind
    burn: int = 0  # "[Burn 1]" as a cost: the top card of the payer's Main Deck into their trash (440.1, 440.3.a)

    def plus(self, other: Cost) -> Cost:
        """Both costs together (356.2: additional costs are added to the total)."""
        domains = dict(self.domain_power)
        for domain, amount in other.domain_power.items():
            domains[domain] = domains.get(domain, 0) + amount
        either = dict(self.power_of_domains)
        for group, amount in other.power_of_domains:
            either[group] = either.get(group, 0) + amount
        return self.model_copy(
            update={
                "energy": self.energy + other.energy,
                "power": self.power + other.power,
                "domain_power": domains,
                "power_of_domains": tuple(either.items()),
            }
        )

    def less(self, energy: int = 0, power: int = 0) -> Cost:
        """The cost reduced, never below 0 (356.4, 356.6); `power` off its Power of any domain ([A]) only (an
        Equip cost "reduced by [A]", 821.1.c.3)."""
        return self.model_copy(update={"energy": max(0, self.energy - energy), "power": max(0, self.power - power)})

    def discounted(self, energy: int = 0, power: int = 0) -> Cost:
        """The cost less a discount (356.4), never below 0 (356.6): "[1][A] less" takes a Power off whatever Power it
        costs (of a domain first, the harder to pay, then of any of several domains, then of any domain)."""
        if not power:
            return self.model_copy(update={"energy": max(0, self.energy - energy)})
        domains = {}
        for domain, amount in self.domain_power.items():
            taken = min(amount, power)
            domains[domain], power = amount - taken, power - taken
        either = []
        for group, amount in self.power_of_domains:
            taken = min(amount, power)
            either.append((group, amount - taken))
            power -= taken
        update = {
            "energy": max(0, self.energy - energy),
            "power": max(0, self.power - power),
            "domain_power": {d: n for d, n in domains.items() if n},
            "power_of_domains": tuple((g, n) for g, n in either if n),
        }
        return self.model_copy(update=update)

    def describe(self) -> str:
        parts = [
            f"{self.energy} energy" if self.energy else "",
            f"{self.power} power of any domain" if self.power else "",
        ]
        parts += [f"{n} {domain} power" for domain, n in self.domain_power.items() if n]
        parts += [f"{n} power of {' or '.join(group)}" for group, n in self.power_of_domains if n]
        parts += ["exhaust this" if self.exhaust else "", "banish this" if self.banish else ""]
        parts += ["recycle this" if self.recycle else "", "kill this" if self.kill else ""]
        spent = {"friendly": "spend a buff", "this": "spend this unit's buff", None: ""}[self.spend_buff]
        parts += [spent, f"discard {self.discard} {self.discard_kind or ''}".rstrip() if self.discard else ""]
        parts += [f"spend {self.spend_xp} XP" if self.spend_xp else "", "disempower this" if self.disempower else ""]
        parts += ["kill a friendly unit" if self.kill_friendly else ""]
        recycled = f"{self.recycle_from_trash} {self.recycle_kind or 'card'}(s)"
        parts += [f"recycle {recycled} from the trash" if self.recycle_from_trash else ""]
        parts += [f"burn {self.burn}" if self.burn else ""]
        return ", ".join(p for p in parts if p) or "nothing"


# What a discount "for each" counts ("I cost [1] less for each card in your trash"), as the player playing the
# card sees the game as it is played (`rules/discounts.discount_amount`)
CountWord = Literal[
    "card in your trash",
    "card with my name in your trash",
    "gear you control",
    "mighty unit you control",
    "card you played this turn",
    "point you scored from holding this turn",  # each point earned by holding (469.2, 471.1), not one replaced
    "rune you control",
    "friendly unit with Temporary",
    "might of your mightiest unit",
    "time the additional cost was paid",  # "Reduce my cost by [C] for each killed this way"  # "reduced by the highest Might among units you control": 1 per Might
]


class Discount(Strict):
    """ "This costs [2] less" (356.4), applied while `condition` holds (e.g. Legion); "for each" thing counted
    (`for_each`) it takes that much off per thing; `minimum`: it lowers the Energy no further (356.4.e: a minimum
    applies to its own discount only)."""

    energy: int = 0
    power: int = 0
    condition: str | None = None
    for_each: CountWord | Quantity | None = None  # a word, or a quantity counted from the card's player's view
    # "This costs [2] less if you choose a Bird, Cat, Dog, or Poro": only if an object chosen has one (133.8)
    chosen_tag: list[str] | None = None
    minimum: int | None = None


class AdditionalCost(Strict):
    """ "As an additional cost to play me, kill a friendly unit" (mandatory, 356.2.a.1) or "You may pay [C] as an
    additional cost to play me" (`optional`, 356.2.b.1; declared as the card is played, 355.1.a, the Play's
    `additional`). `cost`: its Energy, Power and non-standard parts (discard, spend a buff, spend XP); `kill`,
    `exhaust`, `bounce`: a friendly object killed, exhausted or returned to its owner's hand to pay it (356.7); `ignore_cost`: when paid, the card's base cost is ignored (356.1.b).
    Whether it was paid is the condition word "additional cost paid" (356.4.f.1)."""

    cost: Cost = Field(default_factory=Cost)
    optional: bool = True
    kill: Literal["friendly unit", "friendly mighty unit", "friendly gear"] | None = None
    exhaust: Literal["friendly unit"] | None = None  # a ready one (414.4: exhausting an exhausted one can't pay)
    bounce: Literal["friendly gear"] | None = None  # "return a friendly gear to its owner's hand"
    ignore_cost: bool = False
    any_number: bool = False  # "you may kill any number of friendly units as an additional cost": paid N times
    condition: str | None = None  # "If you've played a spell this turn, you may pay ...": offered only then


class CostModifier(Strict):
    """A passive of a card on the board changing what the cards a player plays cost: "Your spells cost [1] less"
    (a discount, 356.4.a), "Opponents' spells cost [1] more" (an increase, 356.3). `cards`: the kind of card (a
    `tag`: the cards with it); `whose`: the plays of the card's controller or of their opponents; `energy`,
    `power`: signed, negative for less; `minimum`: that discount's own floor (356.4.e); `condition`: a condition
    word about the card with the passive ("while I'm at a battlefield", "if this is [Empowered]")."""

    cards: Literal["spell", "unit", "gear", "card"] = "card"
    tag: str | None = None
    keyword: str | None = None  # "cards with [Reaction]" (a hidden card has it, 811.6)
    from_trash: bool = False  # "spells ... you play from your trash"
    first_each_turn: bool = False  # "the first friendly gear played each turn": none of its kind played yet
    chooses: Literal["friendly unit here"] | None = None  # "each spell that chooses one or more units here ..."
    component: Literal["repeat"] | None = None  # "[Repeat] costs cost [1] less": each such cost, as it is added
    whose: Literal["you", "opponent", "any"] = "you"  # a battlefield's "you": the player who controls it
    energy: int = 0
    power: int = 0
    minimum: int | None = None
    condition: str | None = None


class Trigger(Strict):
    when: EventFilter
    condition: str | Counted | None = None  # a condition word (kernel.CONDITIONS) or a count: triggers only if so
    # The condition is the "if Y" of "When X, if Y, Z": part of the Trigger Condition in Core Rules 1.4 (383.2.a.1),
    # part of the Effect before (versions: if_right_after_a_trigger_condition).
    if_clause: bool = False
    active_in: Literal["trash"] | None = None  # "When you discard me": active in the trash (383.2.c.1)
    limit: Literal["once_per_turn"] | None = None
    optional: bool = False
    cost: Cost | None = None
    targets: dict[str, TargetSpec] = Field(default_factory=dict)
    effects: list[dict[str, Any]]
    label: str | None = None

    @model_validator(mode="after")
    def _cost_after_you_may(self):
        """ "You may <cost> to <effect>": the cost right after the opening "you may" is the ability's cost (paid
        as it is finalized from Core Rules 1.4, 383.3.b.1; as it resolves before), declared as `cost:`, never as
        its first instruction, which would be done whatever the version and even when it can't be paid."""
        first = self.effects[0] if self.effects else {}
        if self.optional and _cost_shaped(first):
            raise ValueError(
                f"trigger {self.label or self.when.event!r}: optional, its first instruction {first.get('op')!r} is a cost "
                'right after its "you may": declare it as the trigger\'s `cost:` (383.3.b)'
            )
        return self

    @model_validator(mode="after")
    def _if_clause_is_a_condition(self):
        if self.if_clause and self.condition is None:
            raise ValueError(
                f"trigger {self.label or self.when.event!r}: if_clause says what its condition is, but it has none"
            )
        return self


def _cost_shaped(instruction: dict[str, Any]) -> bool:
    """An instruction a Cost can say: exhausting the source itself, or spending a buff."""
    op = instruction.get("op")
    return op == "spend_buff" or (op == "exhaust" and instruction.get("what") == "this")


class Passive(Strict):
    to: ObjectFilter
    condition: str | None = None  # a condition word (kernel.CONDITIONS): active only while it holds (Level, 824)
    might: int = 0
    minimum: int | None = None
    keywords: dict[str, int] = Field(default_factory=dict)
    triggers_also_on: dict[str, list[str]] = Field(default_factory=dict)
    restrictions: list[str] = Field(default_factory=list)  # PASSIVE_RESTRICTIONS put on the objects it matches (364)
    retriggers: list[str] = Field(default_factory=list)  # RETRIGGERS: their abilities of that kind trigger again
    per: Quantity | None = None  # "+1 [Might] for each ...": its Might and keywords times this, counted now
    # "Your spells and abilities deal 1 Bonus Damage": added to each Deal action of a spell or ability (its controller
    # the passive's "you", or anyone's: `bonus_from`) to a unit that passes `to` (712-715; scenarios/rules/damage.py)
    bonus_damage: int = 0
    bonus_from: Literal["you", "any"] = "you"
    # an Equipment's effect text (136.2.b): active only while it is attached, its "you" the equipped unit's controller
    effect_text: bool = False
    # "Your Equipment each give [Assault]": the keywords are given by each Equipment `to` matches to the unit it is
    # attached to, as its effect text would (136.2.c), once for each such Equipment
    via_equipment: bool = False
    tags: list[str] = Field(default_factory=list)  # "I am a Mech": tags the objects it matches have (133.8)
    # "Increase the points needed to win the game by 1": added to the Victory Score while active (194.3.a)
    victory_score: int = 0
    # "... have [Deflect] if they didn't already": its keywords only to an object without them otherwise, never
    # summed with another instance (809.2 would sum them)
    if_not_already: bool = False


class Replacement(Strict):
    would: str
    to: ObjectFilter = Field(default_factory=lambda: ObjectFilter(who="unit"))
    condition: str | None = None  # a condition word: the replacement effect applies only while it holds (364.3.a)
    # "damage that enemy spells and abilities would deal": a spell or ability (417.6.b) an opponent controls
    # "if a spell or ability that chooses me would stun me": one that chose the unit it acts on (355.7)
    source: Literal["enemy spell or ability", "spell or ability", "spell or ability that chooses it"] | None = None
    instead: list[dict[str, Any]]
    label: str | None = None
    # "you may pay [A] to heal it, ... instead": an optional replacement effect (371.2), applied only if this player
    # chooses to as the event would happen ("you": its controller, 371.2.a; "its controller": the controller of the
    # object acted on, as the text says), paying `cost` as they do (not offered when it can't be paid, 404.1)
    may: Literal["you", "its controller"] | None = None
    cost: Cost | None = None
    # the event modified rather than replaced by instructions (370.1.b): "double all damage that would be dealt to
    # it" (its amount doubled), "prevent the next 7 damage" (437.2: less the Prevent Value tracked on the unit,
    # 437.3; `prevent` the value it starts at); the modified event is offered to the other effects (370.2)
    # ... "play that token and an additional copy of it" (its amount, the tokens played, one more)
    modify: Literal["double", "prevent", "additional copy"] | None = None
    prevent: int = 0
    limit: Literal["once_per_turn"] | None = None  # "Once each turn, if ...": applied to one event a turn (371.1)


class Activated(Strict):
    cost: Cost = Field(default_factory=Cost)
    keywords: dict[str, int] = Field(default_factory=dict)  # Action / Reaction on the ability (806, 813)
    targets: dict[str, TargetSpec] = Field(default_factory=dict)
    effects: list[dict[str, Any]]
    only_unattached: bool = False  # rules text of an attached card is inactive (434.1.e)
    condition: str | None = None  # a condition word: usable only while it holds ("only if not Empowered", 827)
    limit: Literal["once_per_turn"] | None = None  # "and only once each turn": one use a turn
    equip: bool = False  # an Equip ability (818): "[Cost]: attach this gear to a unit you control"
    discounts: list[Discount] = Field(default_factory=list)  # "This ability costs [1] less for each ..." (356.4)
    label: str | None = None

    @property
    def adds(self) -> bool:
        """An ability that Adds resources resolves at once, without the Chain (400.2, 429.2)."""
        return bool(self.effects) and all(_adds(effect) for effect in self.effects)


def _adds(effect: dict[str, Any]) -> bool:
    """An instruction that only Adds: an Add, or an `if` whose branches only Add ("[Add] [1]. If this is
    [Empowered], [Add] [2] instead")."""
    if effect.get("op") == "if":
        return all(_adds(e) for e in effect.get("then", []) + effect.get("else", []))
    return effect.get("op") == "add"


class Card(Strict):
    name: str
    real: str | None = None
    made_up: bool = False
    text: str = ""
    note: str = ""
    type: Literal["unit", "gear", "spell", "battlefield", "legend", "token", "rune"]
    token_of: Literal["unit", "gear"] = "unit"  # a token's type (185.2.d): a unit token, or a gear token (Gold)
    domains: list[Domain] = Field(default_factory=list)  # 134.1; a printed Power cost is of the card's domain
    tags: list[str] = Field(default_factory=list)  # 133.8 (Equipment, Mech, ...)
    # "As you play me, choose Bird, Cat, Dog, or Poro. I gain that tag." (135.2.b.3): the tags chosen among
    choose_tag: list[str] = Field(default_factory=list)
    might: int | None = None
    energy: int = 0
    power: int = 0
    keywords: dict[str, int] = Field(default_factory=dict)
    discounts: list[Discount] = Field(default_factory=list)  # 356.4, active wherever the card is played from
    additional_cost: AdditionalCost | None = None  # 356.2
    cost_modifiers: list[CostModifier] = Field(default_factory=list)  # what other cards cost (356.3, 356.4)
    repeat: list[Cost] = Field(default_factory=list)  # [Repeat] costs, each paid at most once (820.1.c)
    flow: list[Cost] = Field(default_factory=list)  # [Flow] costs: played from the trash for one, then banished (829)
    # "[Legion][>] You may play me from your trash for [3][C]": a passive of the card in its trash (366.1), a play
    # from there for that cost in place of its own (356.1.a), while `condition` holds (None: always)
    trash_play: Cost | None = None
    trash_play_condition: str | None = None
    ignores_deflect: bool = False  # "Ignore [Deflect] while paying this spell's cost": no 809.1.c cost added
    might_bonus: int = 0
    enters_ready: bool = False
    # "You may play me to an open / an occupied enemy battlefield": locations its play may choose (355.2.b)
    played_to: list[Literal["open", "occupied enemy", "attacking"]] = Field(default_factory=list)
    # "Friendly units may be played to open battlefields": the same permission for the units its controller plays,
    # while it is on the board (355.2.b)
    units_played_to: list[Literal["open", "occupied enemy", "attacking"]] = Field(default_factory=list)
    targets: dict[str, TargetSpec] = Field(default_factory=dict)
    effects: list[dict[str, Any]] = Field(default_factory=list)
    triggers: list[Trigger] = Field(default_factory=list)
    passives: list[Passive] = Field(default_factory=list)
    replacements: list[Replacement] = Field(default_factory=list)
    restrictions: list[str] = Field(default_factory=list)
    activated: list[Activated] = Field(default_factory=list)

    @model_validator(mode="after")
    def _provenance(self):
        if bool(self.real) == self.made_up:
            raise ValueError(f"card {self.name!r} must either name the real card it models or be made_up")
        return self

    def has(self, keyword: str) -> bool:
        return keyword in self.keywords

    def tagged(self, tag: str | list[str]) -> bool:
        """Has it the tag (133.8), or one of a list ("a Bird, Cat, Dog, or Poro")?"""
        return bool(set(self.tags) & ({tag} if isinstance(tag, str) else set(tag)))

    @property
    def cost(self) -> Cost:
        """The printed cost (131): Energy, and Power of the card's domain ([C]); of any domain ([A]) when the
        card has no domain or several (135.2.e.6.b)."""
        if len(self.domains) == 1 and self.power:
            return Cost(energy=self.energy, domain_power={self.domains[0]: self.power})
        return Cost(energy=self.energy, power=self.power)

    @property
    def object_kind(self) -> str:
        return self.token_of if self.type == "token" else self.type


RESTRICTIONS = {
    "no_move_from_here_to_base",
    "no_move_to_base",  # "I can't move to base" (449.1, 054.1)
    "units_no_move_to_base",  # "Units can't move to base": any unit, while this is on the board
    "assigned_combat_damage_last",  # "I must be assigned combat damage last" (465.2.c.2, 465.2.c.6)
    "uncounterable",  # "This can't be countered": a counter instruction leaves it on the Chain (054.1, 425.1)
    "only_to_conquered_battlefield",  # "Play me only to a battlefield you conquered this turn" (054.2)
    # "I can't be played on your first, second, or third turns": on those turns of its player's (054.1)
    *(f"not_played_on_your_first_{n}_turns" for n in (1, 2, 3)),
}
# What a passive may forbid the objects it matches (scenarios/rules/restrictions.py says each word's rules)
# The kinds of triggered ability a passive may make trigger an additional time (scenarios/rules/retrigger.py)
RETRIGGERS = {"deathknell", "conquer here", "hold here"}
PASSIVE_RESTRICTIONS = {
    "no_combat_damage",
    "unchoosable_by_enemy",
    "unmovable_by_enemy",
    "no_points",
    "no_play_cards",
    "no_play_spells",
    "no_units_played_here",
    "ignore_tank",
    "channel_one_rune",
    "any_number_of_buffs",  # a permission, not a restriction: "I can have any number of buffs" (426.1.b.2)
    "hide_an_additional_card",  # a permission: "You may hide an additional card here" (107.3.b.1)
    "units_only_to_base",
    "no_ready_by_effects",
    *(f"no_score_here_before_turn_{n}" for n in (2, 3)),  # rules/restrictions.py NO_SCORE_BEFORE_TURN
}


# What a `restrict` instruction may put on players or objects until the end of the turn: a passive's words, and
# "They can't move it this turn" (no_move_it: the players controlling the objects named can't move them, 054.1)
RESTRICT_WORDS = PASSIVE_RESTRICTIONS | {"no_move_it"}


def instructions_of(effect_list):
    """Every instruction of a list, including nested ones (`then`, `effects`, `instead`)."""
    for instruction in effect_list:
        yield instruction
        for key in ("effects", "then", "else", "instead", "each_opponent_who_did"):
            value = instruction.get(key)
            if isinstance(value, list):
                yield from instructions_of(value)
        for mode in (*instruction.get("modes", ()), *instruction.get("options", ())):  # "choose one", "X or Y"
            yield from instructions_of(mode)


def _filter_words(flt: ObjectFilter) -> list[str]:
    words = [flt.who.split()[-1]] if flt.who.split() else []
    if flt.where and not flt.where.startswith("at "):
        words.append(f"where:{flt.where}")
    return words


def check_vocabulary(card: Card) -> None:
    """Every word a card uses must be one the engine reads, so a typo fails at load, not mid-replay."""
    kernel.load_rules()
    lists = (
        [card.effects]
        + [t.effects for t in card.triggers]
        + [r.instead for r in card.replacements]
        + [a.effects for a in card.activated]
    )
    for instruction in (i for effect_list in lists for i in instructions_of(effect_list)):
        if instruction.get("op") not in kernel.INSTRUCTIONS:
            raise ValueError(f"card {card.name!r}: unknown instruction {instruction.get('op')!r}")
        if instruction.get("op") == "play_token" and instruction.get("token") not in {*UNIT_TOKENS, *GEAR_TOKENS}:
            raise ValueError(f"card {card.name!r}: unknown token {instruction.get('token')!r} (187)")
        if instruction.get("op") == "restrict" and instruction.get("restriction") not in RESTRICT_WORDS:
            raise ValueError(f"card {card.name!r}: unknown restriction {instruction.get('restriction')!r}")
        if instruction.get("op") in ("delayed", "replace_next"):
            _check_event(card, instruction.get("when") or instruction.get("would"))
        for key in ("amount", "n", "bonus"):
            if isinstance(instruction.get(key), dict):
                _check_quantity(card, Quantity.model_validate(instruction[key]), False)
    for trigger in card.triggers:
        _check_event(card, trigger.when.event)
        if isinstance(trigger.condition, Counted):
            _check_quantity(card, trigger.condition.amount, False)
    conditions = [t.condition for t in card.triggers if not isinstance(t.condition, Counted)]
    conditions += [d.condition for d in card.discounts]
    conditions += [m.condition for m in card.cost_modifiers]
    conditions += [card.additional_cost.condition] if card.additional_cost else []
    conditions += [d.condition for a in card.activated for d in a.discounts]
    conditions += [p.condition for p in card.passives] + [a.condition for a in card.activated]
    conditions += [r.condition for r in card.replacements]
    conditions += [i.get("condition") for effect_list in lists for i in instructions_of(effect_list)]
    for word in conditions:
        if word is not None and word not in kernel.CONDITIONS:
            raise ValueError(f"card {card.name!r}: unknown condition {word!r} (known: {sorted(kernel.CONDITIONS)})")
    for replacement in card.replacements:
        _check_event(card, replacement.would)
    filters = [t.when for t in card.triggers] + [p.to for p in card.passives] + [r.to for r in card.replacements]
    for flt in filters:
        for word in _filter_words(flt):
            table, word = (kernel.WHERE, word[6:]) if word.startswith("where:") else (kernel.WHO, word)
            if word not in table:
                raise ValueError(f"card {card.name!r}: unknown filter word {word!r}")
    for word in [w for p in card.passives for w in p.restrictions if w not in PASSIVE_RESTRICTIONS]:
        raise ValueError(f"card {card.name!r}: unknown passive restriction {word!r}")
    for word in [w for p in card.passives for w in p.retriggers if w not in RETRIGGERS]:
        raise ValueError(f"card {card.name!r}: unknown kind of triggered ability {word!r}")
    for passive in card.passives:
        if passive.per is not None:
            _check_quantity(card, passive.per, True)
            counted = passive.per.count.keyword if passive.per.count is not None else None
            if counted is not None and counted in passive.keywords:  # it would count what it gives
                raise ValueError(f"card {card.name!r}: a passive giving [{counted}] can't count [{counted}]")
    for word in card.restrictions:
        if word not in RESTRICTIONS:
            raise ValueError(f"card {card.name!r}: unknown restriction {word!r}")
    _check_move_destinations(card, card.targets, card.effects)
    for trigger in card.triggers:
        _check_move_destinations(card, trigger.targets, trigger.effects)
    for ability in card.activated:
        _check_move_destinations(card, ability.targets, ability.effects)


def _check_quantity(card: Card, quantity: Quantity, passive: bool) -> None:
    """A quantity's filter words are the engine's; a passive's Might never counts Might (it would read itself)."""
    flt = quantity.count or quantity.bonus or quantity.total_might or quantity.tags_among
    if flt is not None:
        unknown_who = flt.who not in kernel.WHO and flt.who.split()[-1] not in kernel.WHO
        unknown_where = flt.where is not None and not flt.where.startswith("at ") and flt.where not in kernel.WHERE
        if unknown_who or unknown_where:
            raise ValueError(f"card {card.name!r}: unknown filter words {flt.who!r} / {flt.where!r} in an amount")
    reads_might = (
        quantity.double
        or quantity.raise_to
        or quantity.total_might
        or (flt is not None and (flt.mighty or flt.less_might_than_me or flt.less_might_than))
    )
    if passive and reads_might:
        raise ValueError(f"card {card.name!r}: a passive's Might can't count Might ({quantity.words()})")
    if flt is not None and flt.keyword is not None and flt.keyword not in kernel.KEYWORDS:
        raise ValueError(f"card {card.name!r}: unknown keyword {flt.keyword!r} in an amount")


def _check_move_destinations(card: Card, targets: dict[str, TargetSpec], effects) -> None:
    """A location chosen as a move's destination names the earlier slot whose units move there (`of`), so that
    it can't be where they already are (355.4.a in Core Rules 1.4; 352.3 "a valid Location" before)."""
    slots = list(targets)
    for instruction in instructions_of(effects):
        spec = targets.get(instruction.get("to")) if instruction.get("op") == "move" else None
        if spec is None or spec.type != "location":
            continue
        moved = instruction.get("what")
        if spec.of != moved or moved not in slots or slots.index(moved) > slots.index(instruction["to"]):
            raise ValueError(
                f"card {card.name!r}: the destination slot {instruction['to']!r} of a move of {moved!r} must say "
                f"`of: {moved}`, after that slot (a move's destination differs from where the units are, 355.4.a)"
            )


def _check_event(card: Card, event) -> None:
    if isinstance(event, dict):
        event = event.get("event")
    if event not in kernel.EVENT_KINDS:
        raise ValueError(f"card {card.name!r}: unknown event {event!r} (known: {sorted(kernel.EVENT_KINDS)})")


class UnknownCard(KeyError):
    pass


@lru_cache(maxsize=4)
def load_library(path: Path = LIBRARY) -> dict[str, Card]:
    raw = yaml.load(path.read_text(encoding="utf-8"), Loader=Loader)
    cards = {}
    for entry in raw["cards"]:
        card = Card.model_validate(entry)
        check_vocabulary(card)
        if card.name in cards:
            raise ValueError(f"{path}: card {card.name!r} defined twice")
        cards[card.name] = card
    return cards


_READ: dict[str, Card] = {}  # the cards the card reader read fully, handed over by rules_db (use_read_cards)
_HANDED: list[object] = [None]  # the mapping last handed over, so that handing it again costs nothing


def use_read_cards(definitions: dict[str, dict[str, Any]]) -> None:
    """Make the cards read from their text (scenarios/card_reader, stored by the build) cards the engine knows,
    besides the hand-written ones; a hand-written card of the same name (or modelling the same real card)
    overrides the reading."""
    if _HANDED[0] is definitions:
        return
    hand = load_library()
    modelled = set(hand) | {c.real for c in hand.values() if c.real}
    _READ.clear()
    _READ.update({n: Card.model_validate(d) for n, d in definitions.items() if n not in modelled})
    _HANDED[0] = definitions


def all_cards() -> dict[str, Card]:
    """Every card the engine knows: the hand-written ones and the read ones handed over (use_read_cards)."""
    return {**_READ, **load_library()}


def card(name: str) -> Card:
    library = load_library()
    if name in library:
        return library[name]
    if name in _READ:
        return _READ[name]
    raise UnknownCard(f"no card named {name!r} in {LIBRARY.name} nor among the cards read from their text")
