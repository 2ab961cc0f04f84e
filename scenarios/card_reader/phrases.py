"""The noun phrases and costs of card text: which objects an instruction is about, what an ability costs.

Text arrives normalised by `text.normalise`: lower case, `[Might]` as "might", icons as bracketed words
(`[2 energy]`, `[fury rune]`, `[any rune]`, `[exhaust]`). Each reader returns None for words it does not
understand; the caller then refuses the whole card with those words (nothing half-read).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from scenarios.selectors import DOMAINS

DOMAIN_WORDS = {domain.lower(): domain for domain in DOMAINS}  # 134.2, as cards print them


def signed(sign: str | None, n: str) -> int:
    """A printed amount with its sign ("-2", "+1"): negative after a minus."""
    return -int(n) if sign == "-" else int(n)


NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "a": 1, "an": 1}


def number(word: str) -> int | None:
    word = word.strip()
    if word.isdigit():
        return int(word)
    return NUMBER_WORDS.get(word)


@dataclass
class Context:
    """What the sentences of one ability have said so far: its target slots (in order) and what "it" means."""

    card_type: str
    targets: dict[str, dict[str, Any]] = field(default_factory=dict)
    it: str | None = None  # the object "it" / "that unit" names: a slot, or trigger_unit
    subject: str = "self"  # the triggering unit when a trigger is about another unit ("it" names it)

    first: str = "target"  # the first slot's name ("unit" for an activated ability's, as in cards.yaml)
    revealing: bool = False  # "reveal cards ... until you reveal a unit" said: its next sentence completes it
    looking: dict[str, Any] | None = None  # "look at the top N cards" said: the instruction its next sentences complete
    unfinished: str | None = None  # words only a later sentence gives a meaning ("choose an opponent": "they ...")
    me: str = "this"  # what "me" names: the card itself, or an Equipment's equipped unit ("equipped", 136.2.c)
    when: list[dict[str, Any]] = field(default_factory=list)  # a triggered ability's trigger events
    named: tuple[str, ...] = ()  # what earlier instructions made or moved that later text names ("burned")

    def slot(self, spec: dict[str, Any]) -> str:
        names = [self.first, "other"] + [f"target{n}" for n in range(3, 10)]
        name = next(n for n in names if n not in self.targets)
        self.targets[name] = spec
        self.it = name
        return name


SIDES = {"friendly": "friendly", "enemy": "enemy", "": "any"}
_QUALIFIERS: tuple[tuple[str, dict[str, Any]], ...] = (
    (r" here", {"where": "here"}),
    (r" at my battlefield", {"where": "here"}),
    (r" anywhere", {}),  # no restriction: wherever it is on the board
    (r" at a battlefield i moved to or from", {"where": "moved_to_or_from"}),  # `answers_my_move`
    (r" at a battlefield", {"where": "battlefield"}),
    (r" (?:in|at) (?:a|your|its owner's|their) base", {"where": "base"}),
    (r" from a battlefield", {"where": "battlefield"}),
    (r" at battlefields", {"where": "battlefield", "plural": True}),
    (r" at another location", {"where": "not_here"}),  # not where the source is (a base or a battlefield)
    (r" in combat", {"where": "combat", "plural": True}),
)
_ONE = re.compile(
    r"^(?P<det>an?|up to one|one|another)\s+(?:(?P<state>exhausted|ready|stunned|attacking|defending|equipped)\s+)?(?:(?P<side>friendly|enemy)\s+)?"
    r"(?:(?P<domain>fury|calm|mind|body|chaos|order)\s+)?(?P<kind>unit or gear|unit|gear|spell)"
    r"(?P<you> you control)?(?P<rest>.*)$"
)
_ALL = re.compile(
    r"^(?:all|each)\s+(?:(?P<other>other)\s+)?(?:(?P<side>friendly|enemy)\s+)?(?P<kind>units?|gears?\b)"
    r"(?P<rest>.*)$"
)
_PLURAL = re.compile(
    r"^(?:(?P<other>other)\s+)?(?:(?P<side>friendly|enemy|your)\s+)?(?:(?P<other2>other)\s+)?(?P<kind>units)(?P<rest>.*)$"
)
# Tags naming a kind of unit, as card text says them ("your Mechs", "a friendly Dragon"; 133.8, 143.1)
UNIT_TAGS = {"mech": "Mech", "dragon": "Dragon", "poro": "Poro", "bird": "Bird", "cat": "Cat", "dog": "Dog"}
_TAGGED = re.compile(r"(?P<before>.*?\b)(?P<tag>" + "|".join(UNIT_TAGS) + r")(?P<s>s?)\b(?P<after>.*)")


def untagged(phrase: str) -> tuple[str, str | None]:
    """ "another friendly mech" -> ("another friendly unit", "Mech"): the phrase with a tag as the unit noun."""
    found = _TAGGED.fullmatch(phrase.strip())
    if not found:
        return phrase, None
    noun = "units" if found["s"] else "unit"
    return f"{found['before']}{noun}{found['after']}", UNIT_TAGS[found["tag"]]


_TAG_LIST = re.compile(r"(?P<tags>(?:[a-z]+, )+[a-z]+,? (?P<conj>and|or) [a-z]+)")


def tag_list(phrase: str) -> tuple[list[str], str] | None:
    """ "bird, cat, dog, and poro" -> (["Bird", "Cat", "Dog", "Poro"], "and"): tags the reader knows (133.8), as a
    list joined by "and" or "or"; None if any is not a unit tag."""
    found = _TAG_LIST.fullmatch(phrase.strip())
    if not found:
        return None
    words = re.split(r",? (?:and|or) |, ", found["tags"])
    if any(word not in UNIT_TAGS for word in words) or len(set(words)) != len(words):
        return None
    return [UNIT_TAGS[word] for word in words], found["conj"]


_NOT_TAGGED = re.compile(r"(?P<before>.*?\b)non-(?P<tag>" + "|".join(UNIT_TAGS) + r") (?P<after>units?\b.*)")


def not_tagged(phrase: str) -> tuple[str, str | None]:
    """ "a non-dragon unit" -> ("a unit", "Dragon"): the phrase without the tag its objects must not have."""
    found = _NOT_TAGGED.fullmatch(phrase.strip())
    if not found:
        return phrase, None
    return f"{found['before']}{found['after']}", UNIT_TAGS[found["tag"]]


_SELF = {"me", "this", "myself", "this unit", "this gear"}
_IT = {"it", "that unit", "them"}


def _qualify(rest: str, spec: dict[str, Any], plural: bool = False) -> dict[str, Any] | None:
    """Read the qualifiers after a noun ("here", "at a battlefield", "with 3 might or less"); None if any word
    is left over."""
    while rest:
        for pattern, update in _QUALIFIERS:
            found = re.match(pattern, rest)
            if found:
                if plural != bool(update.get("plural")) and update.get("where") in ("battlefield", "combat"):
                    return None  # "all units at a battlefield" picks one battlefield: not a filter word
                spec.update({k: v for k, v in update.items() if k != "plural"})
                rest = rest[found.end() :]
                break
        else:
            found = re.match(r" with (\d+) might or less", rest)
            if found:  # "a unit with 3 might or less", "all units with 2 might or less"
                spec["max_might"] = int(found.group(1))
                rest = rest[found.end() :]
                continue
            found = re.match(r" with energy cost no more than \[(\d+) energy\]", rest)
            if found and not plural:  # its printed Energy cost (206)
                spec["max_cost"] = int(found.group(1))
                rest = rest[found.end() :]
                continue
            if rest.startswith(" with energy cost no more than my might") and not plural:  # the source's (206)
                spec["cost_within_my_might"] = True
                rest = rest[len(" with energy cost no more than my might") :]
                continue
            if rest.startswith(" with less might than me") and not plural:  # than the source's (`compares_me`)
                spec["less_might_than_me"] = True
                rest = rest[len(" with less might than me") :]
                continue
            found = re.match(r" that(?:'s| is) (stunned|damaged)|^ (stunned|damaged)", rest)
            if found and plural:
                spec[found.group(1) or found.group(2)] = True
                rest = rest[found.end() :]
                continue
            return None
    return spec


def target_spec(phrase: str) -> dict[str, Any] | None:
    """ "an enemy unit here" -> a TargetSpec's fields (a single object a player chooses); "a unit at a battlefield
    or a gear": that unit, or any gear (`or_gear`)."""
    phrase = phrase.strip()
    if phrase.endswith(" or a gear") and phrase.startswith(("a unit", "an unit")):
        unit = target_spec(phrase.removesuffix(" or a gear"))
        return None if unit is None or unit["type"] != "unit" or "side" in unit else {**unit, "or_gear": True}
    found = _ONE.match(phrase)
    if not found:
        return None
    spec: dict[str, Any] = {"type": "permanent" if found["kind"] == "unit or gear" else found["kind"]}
    if found["domain"]:  # "an enemy Chaos unit": a card of that Domain (134.1; its rune icon is reminder text)
        spec["domain"] = DOMAIN_WORDS[found["domain"]]
    side = "friendly" if found["you"] else SIDES[found["side"] or ""]
    if side != "any":
        spec["side"] = side
    if found["det"] == "up to one":
        spec["optional"] = True
    if found["state"] == "stunned":  # "a stunned enemy unit" (the state 414 and 437 name)
        spec["stunned"] = True
    elif found["state"] == "equipped":  # "an equipped friendly unit": an Equipment attached to it (818.3.b)
        spec["equipped"] = True
    elif found["state"] in ("attacking", "defending"):  # "an attacking unit": an attacker in a combat (464.2.c)
        spec["role"] = {"attacking": "attacker", "defending": "defender"}[found["state"]]
    elif found["state"]:  # "an exhausted friendly unit", "a ready unit" (414)
        spec["exhausted"] = found["state"] == "exhausted"
    if found["det"] == "another":
        spec["another"] = True  # resolved by `reference`: not the source, or not the unit chosen before
    return _qualify(found["rest"], spec)


def group_filter(phrase: str) -> dict[str, Any] | None:
    """ "all damaged enemy units here" / "enemy units here" -> an object filter for `{all: ...}`."""
    phrase = phrase.strip()
    states: list[str] = []  # "all damaged enemy units": the states the units are in
    for word in ("damaged", "stunned"):
        phrase, n = re.subn(rf"^(all|each) {word} ", r"\1 ", phrase)
        if n:
            states.append(word)
    if phrase in ("all units and gear", "all gear and units") and not states:  # both permanent types (133.4.a.2)
        return {"who": "permanent"}
    found = _ALL.match(phrase) or _PLURAL.match(phrase)
    if not found:
        return None
    if found["kind"].startswith("gear"):  # "all gear", "all enemy gear": on the board, wherever they are
        if found["rest"] or found["other"] or states:
            return None
        return {"who": " ".join(w for w in (found["side"], "gear") if w)}
    side = {"your": "friendly"}.get(found["side"] or "", found["side"] or "")
    rest = found["rest"]
    if rest.startswith(" you control") and not side:  # "all units you control": its player's (740.1.a)
        side, rest = "friendly", rest.removeprefix(" you control")
    other = found["other"] or (found.groupdict().get("other2"))  # "your other units"
    who = " ".join(w for w in (other, side, "unit") if w)
    flt: dict[str, Any] = {"who": who}
    for state in states:
        flt[state] = True
    return _qualify(rest, flt, plural=True)


def compares_me(spec: dict[str, Any], ctx: Context) -> bool:
    """ "A unit with less Might than me" (or "a gear with Energy cost no more than my Might") says a permanent's own
    ability, of the permanent (`ctx.me` is its source): False for a spell or an ability about another object."""
    mine = spec.get("less_might_than_me") or spec.get("cost_within_my_might")
    return not mine or (ctx.me == "this" and ctx.card_type != "spell")


def answers_my_move(spec: dict[str, Any], ctx: Context) -> bool:
    """ "A unit at a battlefield I moved to or from" says a trigger of my own move, of its origin and destination
    (359.3.f.3): False in any other text."""
    if spec.get("where") != "moved_to_or_from":
        return True
    moves = [e.get("event") == "move" and e.get("who") == "self" for e in ctx.when]
    return bool(moves) and all(moves) and ctx.me == "this"


def another(spec: dict[str, Any], ctx: Context) -> bool:
    """Resolve "another unit" in `spec`: for a spell, other than the unit it chose before (False if none); for
    an ability, other than its source ("buff another friendly unit"). False for a comparison with me no source
    makes (`compares_me`)."""
    if not compares_me(spec, ctx) or not answers_my_move(spec, ctx):
        return False
    if not spec.pop("another", False):
        return True
    if ctx.card_type == "spell":
        if not ctx.targets:
            return False
        spec["not_target"] = list(ctx.targets)[-1]
    else:
        spec["other"] = True
    return True


def reference(phrase: str, ctx: Context) -> Any:
    """The objects a phrase names, as an instruction's reference: `this`, a target slot (the spec added to the
    context), `it`, or `{all: filter}`; None if not understood."""
    phrase = phrase.strip()
    if phrase in ("me", "myself"):
        return ctx.me
    if phrase in _SELF:
        return "this"
    if phrase in _IT:
        return ctx.it
    phrase, not_tag = not_tagged(phrase)
    phrase, tag = untagged(phrase)
    tags = {k: v for k, v in (("tag", tag), ("not_tag", not_tag)) if v}
    spec = target_spec(phrase)
    if spec is not None:
        spec.update(tags)
        return ctx.slot(spec) if another(spec, ctx) else None
    chosen = ctx.targets.get(ctx.it or "", {})
    there = phrase.endswith(" there") and (
        chosen.get("type") == "battlefield" or chosen.get("where") == "battlefield_with_your_units"
    )
    if there:  # "choose a battlefield. Give enemy units there ...": every such unit at the one chosen (355.10.d)
        phrase = phrase.removesuffix(" there")
    flt = group_filter(phrase)
    if flt is not None and there:
        if "where" in flt:
            return None
        flt["where"] = f"at {ctx.it}"
        if ctx.unfinished == CHOSEN_BATTLEFIELD:
            ctx.unfinished = None
    if flt is not None:
        return {"all": {**flt, **tags}}
    return None


CHOSEN_BATTLEFIELD = "choose a battlefield"  # a battlefield chosen for nothing yet: a later "there" says what


# -- costs ---------------------------------------------------------------------------------------------------

_TOKEN = re.compile(r"\[(\d+) energy\]|\[(fury|calm|mind|body|chaos|order) rune\]|\[(any) rune\]")


def icons_cost(text: str) -> dict[str, Any] | None:
    """ "[2 energy][fury rune]" -> Cost fields; None unless the text is only icons."""
    cost: dict[str, Any] = {}
    rest = text.strip()
    if not rest:
        return None
    while rest:
        found = _TOKEN.match(rest)
        if not found:
            return None
        if found.group(1):
            cost["energy"] = cost.get("energy", 0) + int(found.group(1))
        elif found.group(2):
            domain = DOMAIN_WORDS[found.group(2)]
            cost.setdefault("domain_power", {})
            cost["domain_power"][domain] = cost["domain_power"].get(domain, 0) + 1
        else:
            cost["power"] = cost.get("power", 0) + 1
        rest = rest[found.end() :].lstrip()
    return cost


# the cost words before an ability's colon (other families add theirs: `powers`)
COST_WORDS: dict[str, dict[str, Any]] = {
    "[exhaust]": {"exhaust": "this"},
    "exhaust me": {"exhaust": "this"},
    "exhaust this": {"exhaust": "this"},
    "spend a buff": {"spend_buff": "friendly"},
    "spend my buff": {"spend_buff": "this"},
    "recycle this": {"recycle": "this"},
    "recycle me": {"recycle": "this"},
    "banish this": {"banish": "this"},
    "banish me": {"banish": "this"},
    "kill this": {"kill": "this"},
}


# costs paid a number of times: "discard 1" (422.3), "spend 3 xp" (730.2), "recycle 3 from your trash" (416.3, 416.6)
_COUNTED = {"discard": "discard", "spend xp": "spend_xp", "recycle from your trash": "recycle_from_trash"}
_RECYCLE_ONE = re.compile(r"recycle an? (unit|gear|spell) from your trash")
_COUNTED_COST = re.compile(r"(?P<verb>discard|spend|recycle) (?P<n>\d+)(?P<what> xp| from your trash)?")


def ability_cost(text: str) -> dict[str, Any] | None:
    """An activated ability's cost, before its colon: icons and words separated by commas."""
    cost: dict[str, Any] = {}
    for part in re.split(r",\s*|\s+and\s+", text.strip()):
        part = re.sub(r"^pay ", "", part.strip())
        known: dict[str, Any] | None = COST_WORDS.get(part)
        if known is None:
            found = _COUNTED_COST.fullmatch(part)
            word = _COUNTED.get(f"{found['verb']}{found['what'] or ''}") if found else None
            known = {word: int(found["n"])} if found and word else icons_cost(part)
            one = _RECYCLE_ONE.fullmatch(part)
            if one:  # "recycle a unit from your trash": one card of that kind (416.3, 416.6)
                known = {"recycle_from_trash": 1, "recycle_kind": one.group(1)}
            one = re.fullmatch(r"discard an? (unit|gear|spell)", part)
            if one:  # "discard a gear": one card of that kind (422.3)
                known = {"discard": 1, "discard_kind": one.group(1)}
        if known is None:
            return None
        for key, value in known.items():
            if key in cost and key not in ("energy", "power", "domain_power", *_COUNTED.values()):
                return None
            if key == "domain_power":
                merged = dict(cost.get(key, {}))
                for domain, n in value.items():
                    merged[domain] = merged.get(domain, 0) + n
                cost[key] = merged
            elif isinstance(value, int):
                cost[key] = cost.get(key, 0) + value
            else:
                cost[key] = value
    if cost.get("recycle_kind") and cost.get("recycle_from_trash") != 1:  # "a unit" with other cards: not said
        return None
    if cost.get("discard_kind") and cost.get("discard") != 1:
        return None
    return cost or None
