"""Layers 473-480: a unit's keywords (layer 2, 477.2) and its current Might (layer 3, arithmetic, 477.3).

Increases apply first, then decreases (477.3.e), each group in timestamp order (480). Two kinds of modifier:
continuous ones (passives, Assault/Shield, attached gear's Might bonus, buffs) are recomputed whenever Might
is read; modifiers created by a resolving effect ("-4 might this turn, to a minimum of 1") are limited once,
when they apply, and remembered at that level (snapshotting, 477.3.b). A passive decrease with a minimum is
limited each time the layer is applied, against the running value after all increases.

Passive abilities of permanents are active on the board (365.1). A card's rules text is inactive while it
is attached (434.1.e); the text it gives "the equipped unit" is its effect text, active only while attached
(718.3, 724).
"""

from __future__ import annotations

from typing import Final

from scenarios.game import Game
from scenarios.journal import watch
from scenarios.kernel import KEYWORD_ABILITIES, Condition, calc, condition, keyword, note, query
from scenarios.objects import BOARD, Obj, Role, View, Zone
from scenarios.trace import StepKind

keyword("Assault", "807", valued=True)  # read by might_parts, below
keyword("Shield", "814", valued=True)


def active_while(source: Obj, flt, effect_text: bool = False) -> bool:
    """Is this ability of `source` active now, given whether `source` is attached? Effect text, said by its filter
    ("the equipped unit") or by the ability, only while it is (136.2.b); rules text only while it is not (434.1.e)."""
    effect_text = effect_text or flt.who == "equipped unit"
    return source.zone == BOARD and (bool(source.attached_to) == effect_text)


@query("passives")
def passives(game: Game):
    """Every active passive ability on the board, with its source and its point of view."""
    for _key, source, passive in _keyed_passives(game):
        yield source, passive, _view(game, source, passive)


def _view(game: Game, source: Obj, passive) -> View:
    """A passive's point of view: its source's; an Equipment's effect text is appended to the equipped unit's rules
    text, so its "you" is that unit's controller (136.2.c, 718.5.e)."""
    view = calc.view_of(game, source)
    if passive.effect_text and source.attached_to:  # active only while attached (136.2.b)
        you = game.objects[source.attached_to].controller
        view = View(view.source, you, view.here, view.it, view.it_incarnation, view.slots)
    return view


def _keyed_passives(game: Game):
    """Every active passive ability on the board with its source and its key: the object (a new object after a
    zone change, 124) and the passive's place on its card, so two passives that read alike keep two keys."""
    for source in game.passive_sources:
        if source.zone != BOARD:
            continue
        for place, passive in enumerate(source.definition.passives):
            if active_while(source, passive.to, passive.effect_text) and (
                passive.condition is None or _holds(game, source, passive)
            ):
                yield f"{source.id}#{source.incarnation}#{place}", source, passive


def _holds(game: Game, source: Obj, passive) -> bool:
    """A dependent passive ability (727.1.b.2, Level 824.1.b.1) is active exactly while its condition holds. An
    Equipment's effect text is the equipped unit's rules text (136.2.c): its condition is said of that unit ("I
    have +2 [Might] while I'm at a battlefield with ...") and its controller."""
    context = Condition(calc.ability_controller(game, source), source.id, False)
    if source.attached_to and (passive.effect_text or passive.to.who == "equipped unit"):
        unit = game.objects[source.attached_to]
        context = Condition(unit.controller, unit.id, False)
    return calc.condition_holds(game, passive.condition, context)


@query("ability_is_active")
def ability_is_active(game: Game, source: Obj, flt) -> bool:
    return active_while(source, flt)


@query("keyword_value")
def keyword_value(game: Game, obj: Obj, keyword: str, sources: list | None = None) -> int:
    """Summed value of a keyword from the card, from effects that granted it, and from passives (807.2, 814.2);
    `sources`, when given, receives the value of each instance summed."""
    total = obj.definition.keywords.get(keyword, 0) if obj.definition else 0
    if sources is not None and total:
        sources.append(total)
    for grant in obj.granted:
        if grant.keyword == keyword:
            total += grant.value
            if sources is not None:
                sources.append(grant.value)
    if keyword in game.passive_keywords:
        for _source, passive, view in calc.passives(game):
            if keyword not in passive.keywords:
                continue
            if passive.via_equipment:  # "Your Equipment each give [Assault]": once for each attached to it (136.2.c)
                given = passive.keywords[keyword] * sum(
                    calc.matches_object(game, passive.to, view, gear) for gear in game.attached(obj.id)
                )
            elif calc.matches_object(game, passive.to, view, obj):
                given = passive.keywords[keyword] * _per(game, passive, view)  # "[Assault] equal to the number of"
            else:
                continue
            total += given
            if sources is not None and given:
                sources.append(given)
    if not total:
        for giver in KEYWORD_ABILITIES.implying(keyword):  # a loop, not any(): every keyword of every object asks
            if keyword_value(game, obj, giver):
                return 1  # a keyword that gives another (Quick-Draw gives Reaction, 819.1.b)
    return total


@query("tagged")
def tagged(game: Game, obj: Obj, tag: str | list[str]) -> bool:
    """Has it the tag (133.8), or one of a list: printed, gained as it was played, or given by a passive ("I am a
    Mech" of an Equipment, its equipped unit's, 136.2.c)?"""
    if obj.tagged(tag):
        return True
    wanted = {tag} if isinstance(tag, str) else set(tag)
    if not wanted & game.passive_tags:
        return False
    return any(
        wanted & set(passive.tags) and calc.matches_object(game, passive.to, view, obj)
        for _source, passive, view in calc.passives(game)
    )


@query("keyword_holders")
def keyword_holders(game: Game, objects, keyword: str) -> list[tuple[Obj, int]]:
    """(object, value) for each of `objects` that has `keyword` now. An object that neither prints it nor was
    granted a keyword is passed over without working out its value, unless a passive may give the keyword or
    another keyword gives it (an event asks this of every permanent for each keyword ability it may trigger)."""
    given = keyword in game.passive_keywords or bool(KEYWORD_ABILITIES.implying(keyword))
    found = []
    for obj in objects:
        if given or obj.granted or (obj.definition is not None and keyword in obj.definition.keywords):
            value = keyword_value(game, obj, keyword)
            if value > 0:
                found.append((obj, value))
    return found


@query("has_keyword")
def has_keyword(game: Game, obj: Obj, keyword: str) -> bool:
    return (obj.definition is not None and keyword in obj.definition.keywords) or keyword_value(game, obj, keyword) > 0


@query("event_aliases")
def event_aliases(game: Game, source: Obj, kind: str) -> frozenset:
    """Other events an ability of `source` that triggers on `kind` also triggers on, given by passives."""
    found = set()
    for _, passive, view in calc.passives(game):
        if kind in passive.triggers_also_on and calc.matches_object(game, passive.to, view, source):
            found.update(passive.triggers_also_on[kind])
    return frozenset(found)


def _per(game: Game, passive, view) -> int:
    """How many times a passive gives what it gives: once, or as many as its quantity counts now (`per`:
    "for each", "equal to the number of"; scenarios/rules/amounts.py), nothing when the count is null."""
    return 1 if passive.per is None else calc.quantity(game, view, passive.per) or 0


def might_parts(game: Game, unit: Obj, passive_entries: dict | None = None):
    """(base, increases, decreases): each modifier as (label, amount, minimum, timestamp); `passive_entries`,
    when given, receives each passive's key with the entry it made."""
    increases: list[tuple] = []
    decreases: list[tuple] = []
    if unit.buffs:
        increases.append(("buff", unit.buffs, None, 0))  # 703
        more = game.players[unit.controller].buff_bonus_this_turn if unit.controller in game.players else 0
        if more:  # "Buffs give an additional +1 [Might] to friendly units this turn": each buff gives more (703)
            increases.append(("buff (additional this turn)", unit.buffs * more, None, 0))
    for gear in game.attached(unit.id):
        if gear.definition.might_bonus:  # 477.3.d
            increases.append((f"{gear.card} (attached)", gear.definition.might_bonus, None, gear.timestamp))
    if unit.designation == Role.ATTACKER:
        assault = keyword_value(game, unit, "Assault")
        if assault:
            increases.append(("Assault", assault, None, 0))  # 807.1.c
    elif unit.designation == Role.DEFENDER:
        shield = keyword_value(game, unit, "Shield")
        if shield:
            increases.append(("Shield", shield, None, 0))  # 814.1.c
    fixed = dict(unit.passive_limits) if unit.passive_limits else None
    for key, source, passive in _keyed_passives(game):
        view = _view(game, source, passive)
        if passive.might and calc.matches_object(game, passive.to, view, unit):
            snapshot = fixed.get(key) if fixed and passive.minimum is not None and passive.might < 0 else None
            if snapshot is not None:  # its limit snapshotted as it began to apply (454.3.d.2.b of 2025-12-01)
                entry = (f"{source.card} (limited as it began to apply)", snapshot, None, source.timestamp)
            else:
                might = passive.might * _per(game, passive, view)  # "+1 [Might] for each ...": counted now
                if not might:
                    continue
                entry = (source.card, abs(might), passive.minimum, source.timestamp)
            (increases if passive.might > 0 else decreases).append(entry)
            if passive_entries is not None:
                passive_entries[key] = entry
    for modifier in unit.modifiers:
        entry = (modifier.source, abs(modifier.amount), None, modifier.timestamp)
        if modifier.amount > 0:
            increases.append(entry)
        elif modifier.amount < 0:
            decreases.append(entry)
    return unit.might_base or 0, sorted(increases, key=lambda e: e[3]), sorted(decreases, key=lambda e: e[3])


PASSIVE_LIMIT: Final = "passive_limit_snapshotted"
# What decides whether a passive applies to a unit (where they are, what they are, who controls them) and what its
# limit is taken against: while none is written, no limited passive begins or stops applying.
PASSIVE_LIMIT_READS = watch(
    (
        "zone",
        "location",
        "controller",
        "stunned",
        "designation",
        "attached_to",
        "granted",
        "damage",
        "buffs",
        "buff_bonus_this_turn",
        "modifiers",
        "might_base",
        "unit_objects",
        "passive_sources",
        "passive_limits",
        "xp",  # a passive's condition: Level (824.1.b.1)
        "empowered",  # and Empowered (828.1.b.1)
    )
)


def _limited_passives(game: Game) -> list:
    """(key, source, passive, view) of each active passive decrease limited by a minimum."""
    return [
        (key, source, passive, calc.view_of(game, source))
        for key, source, passive in _keyed_passives(game)
        if passive.might and passive.might < 0 and passive.minimum is not None
    ]


@query("snapshot_passive_limits")
def snapshot_passive_limits(game: Game) -> None:
    """Where the version judged under snapshots the limit of a passive decrease (`passive_limit_snapshotted`:
    2025-12-01's 454.3.d.2.b names no exception; Core Rules 1.4's 477.3.e.2.b excepts passives): the decrease a
    limited passive applies to a unit is fixed as it begins to apply (a Cleanup's check), for as long as it
    applies; when it stops applying, the snapshot goes."""
    if not game.passive_sources:
        return
    reading = game.reading(PASSIVE_LIMIT)
    if reading.choice != "snapshotted" or not game.journal.due(PASSIVE_LIMIT_READS):
        return
    limited = _limited_passives(game)
    for unit in game.unit_objects:
        if not limited and not unit.passive_limits:
            continue
        stored = dict(unit.passive_limits)
        applying = {
            key: (source, passive)
            for key, source, passive, view in limited
            if unit.zone == BOARD and calc.matches_object(game, passive.to, view, unit)
        }
        kept = {key: amount for key, amount in stored.items() if key in applying}
        for key, (source, passive) in applying.items():
            if key not in kept:
                kept[key] = _applied_now(game, unit, key)
                note(
                    game,
                    StepKind.LAYER_CALCULATION,
                    "snapshot",
                    f"{source.card}'s -{abs(passive.might)} (to a minimum of {passive.minimum}) begins to apply to "
                    f"{unit.id}: its limit is snapshotted, -{kept[key]} for as long as it applies",
                    reading.cited,
                    objects=[unit.id],
                )
        if kept != stored:
            unit.passive_limits = tuple(sorted(kept.items()))


def _applied_now(game: Game, unit: Obj, key: str) -> int:
    """The decrease the limited passive of `key` applies to `unit` now: increases first, then decreases in
    timestamp order."""
    entries: dict[str, tuple] = {}
    base, increases, decreases = might_parts(game, unit, entries)
    value = base + sum(amount for _, amount, _, _ in increases)
    for entry in decreases:
        _, amount, minimum, _ = entry
        applied = amount if minimum is None else min(amount, max(0, value - minimum))
        if entry is entries.get(key):  # this passive's own entry (another may read alike)
            return applied
        value -= applied
    return 0


PART_RULES = {
    "buff": "703",
    "buff (additional this turn)": "703",
    "Assault": "807.1.c",
    "Shield": "814.1.c",
}  # the rule behind each such part
SUMMED_RULES = {"Assault": "807.2", "Shield": "814.2"}  # a keyword's values from several sources are summed


@query("might_rules")
def might_rules(game: Game, unit: Obj) -> tuple[str, ...]:
    """The rules that give a unit the parts of its Might its buff and keywords add, cited where it is shown."""
    rules = []
    _, increases, decreases = might_parts(game, unit)
    for label, _, _, timestamp in increases:
        if not timestamp and label in PART_RULES:
            rules.append(PART_RULES[label])
            if label in SUMMED_RULES and _instances(game, unit, label) > 1:
                rules.append(SUMMED_RULES[label])
    limited = decreases and game.passive_sources and _limited_passives(game)
    if limited and any(calc.matches_object(game, passive.to, view, unit) for _, _, passive, view in limited):
        rules.extend(game.reading(PASSIVE_LIMIT).cited)  # a limited passive decrease: snapshotted or not
    return tuple(rules)


def _instances(game: Game, unit: Obj, keyword: str) -> int:
    """How many instances of `keyword` (printed, granted, given by passives) the unit's value sums."""
    sources: list[int] = []
    keyword_value(game, unit, keyword, sources)
    return len(sources)


@query("apply_layers")
def apply_layers(game: Game, unit: Obj) -> tuple[int, str]:
    """(current Might, how it is made up in words): "4 Might (base 2, +1 from <a passive>, ...)";
    increases apply before decreases (477.3.e), a decrease limited by its minimum says so (477.3.b)."""
    base, increases, decreases = might_parts(game, unit)
    value, parts = base, []
    for label, amount, _, _ in increases:
        value += amount
        parts.append(f"+{amount} from {label}")
    for label, amount, minimum, _ in decreases:
        applied = amount if minimum is None else min(amount, max(0, value - minimum))
        value -= applied
        limited = f" (its -{amount} stopped at the minimum of {minimum})" if applied != amount else ""
        parts.append(f"-{applied} from {label}{limited}")
    return value, f"{value} Might" + (f" (base {base}, {', '.join(parts)})" if parts else "")


@query("might")
def might(game: Game, unit: Obj) -> int:
    """Current Might on the board (710); printed Might elsewhere (711)."""
    if unit.zone != Zone.BOARD:
        return unit.definition.might or 0
    return calc.apply_layers(game, unit)[0]


@query("explain_might")
def explain_might(game: Game, unit: Obj) -> str:
    return calc.apply_layers(game, unit)[1]


@query("snapshot_modifier")
def snapshot_modifier(game: Game, unit: Obj, amount: int, minimum: int | None) -> int:
    """The fixed amount a resolving might modifier applies (477.3.b): limited now, remembered."""
    if minimum is None or amount >= 0:
        return amount
    return -min(-amount, max(0, calc.might(game, unit) - minimum))


def _mighty(might: int) -> bool:
    """Mighty: 5 Might or more (708)."""
    return might >= 5


@query("is_mighty")
def is_mighty(game: Game, unit: Obj) -> bool:
    return _mighty(calc.might(game, unit))


@condition("mighty", "708")
def _is_source_mighty(game: Game, context) -> bool:
    """ "If I am (was) Mighty": as noted when the unit died for its Deathknell (808.1.d.3); a unit no longer
    on the board has no Might (359.3.e.12)."""
    if context.noted_might is not None:
        return _mighty(context.noted_might)
    source = game.objects.get(context.source)
    return source is not None and source.zone == BOARD and calc.is_mighty(game, source)
