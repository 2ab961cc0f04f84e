"""Checks across a whole scenario document, after the model: object ids unique and not colliding with player names,
every player and battlefield named exists, every card of the kind its place needs, and `expect`/`checkpoints`
name only what the replay can observe (`scenarios.observe`). `problems` yields (location, message) pairs."""

from __future__ import annotations

from scenarios.cards import card as card_named
from scenarios.observe import GAME_KEYS, OBJECT_FIELDS, PLAYER_FIELDS
from scenarios.scenario_model import RESERVED_IDS, Scenario, Setup, UnitSetup


def problems(scenario: Scenario):
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
