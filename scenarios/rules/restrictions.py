"""Restrictions passive abilities put on objects (364: "conditions, rules, constraints ... that affect the course of
regular play"), and the conditions those passives depend on (364.3.a: "while ...", "unless ...").

A passive's `restrictions` are words (`cards.PASSIVE_RESTRICTIONS`), each applying to the objects its filter matches while it is active:

    no_combat_damage       "I don't deal combat damage": the unit's Might is not summed into the damage its
                           side deals in the Combat Damage Step (465.2.a, 465.2.b), as a stunned unit's is not
                           (423.1.b); it still takes damage and counts for lethal (465.2.c).
    unchoosable_by_enemy   "I can't be chosen by enemy spells and abilities": not a valid target of a spell or
                           ability an opponent of its controller controls (355.9.b, whose example is this text).
    no_move_to_base        "I can't move to base": a move of any kind to base is refused or does not happen
                           ("can't beats can", 054.1); a Recall is not a move and is never stopped (456.3).
    no_points              "Opponents can't gain points": a player it matches gains no point, by a score (471.1)
                           or by an instruction (471.1.a.1); the battlefield still counts as scored (054.1).

`restricted_by` names the object whose passive forbids it, so a step can say who. Conditions registered here are
about the passive's source and its company at its location (364.3.a); each has its negation, "not <word>", for
"... unless <condition>".
"""

from __future__ import annotations

from scenarios.game import Game
from scenarios.kernel import calc, condition, query
from scenarios.objects import BOARD, Obj, Role


@query("restricted_by")
def restricted_by(game: Game, obj: Obj | str, word: str) -> str | None:
    """The source of an active passive that puts the restriction `word` on `obj` (an object, or a player's
    name), if any (its card's id)."""
    if not game.passive_sources:
        return None
    for source, passive, view in calc.passives(game):
        if word in passive.restrictions and calc.matches_object(game, passive.to, view, obj):
            return source.id
    return None


def _source(game: Game, context) -> Obj | None:
    source = game.objects.get(context.source) if context.source else None
    return source if source is not None and source.zone == BOARD else None


def _another_unit_here(game: Game, context) -> bool:
    """ "While you have another unit here": another unit its controller controls at its location."""
    source = _source(game, context)
    return source is not None and bool(game.friendly_others(source))


def _exactly_one_other_at_a_battlefield(game: Game, context) -> bool:
    """ "While I'm at a battlefield with exactly one other unit you control"."""
    source = _source(game, context)
    return source is not None and game.is_battlefield(source.location) and len(game.friendly_others(source)) == 1


def _attacking_with_another(game: Game, context) -> bool:
    """ "While I'm attacking with another unit": it and another unit of its controller are attackers (464.2.c.3)."""
    source = _source(game, context)
    if source is None or source.designation != Role.ATTACKER:
        return False
    return any(unit.designation == Role.ATTACKER for unit in game.friendly_others(source))


def _in_combat(game: Game, context) -> bool:
    """ "While I'm in combat": an attacker or a defender at the battlefield where a combat is ongoing (464.2.c.3)."""
    source = _source(game, context)
    return (
        source is not None
        and game.combat is not None
        and source.location == game.combat.battlefield
        and source.designation in (Role.ATTACKER, Role.DEFENDER)
    )


def _moved_twice(game: Game, context) -> bool:
    """ "If I have moved twice this turn": its moves this turn (446.1) number two or more."""
    source = _source(game, context)
    return source is not None and source.moves_this_turn >= 2


def _runes(n: int):
    """ "While you control N or more runes" / "while you have N+ runes": runes on the board it controls (105)."""
    return lambda game, context: len(calc.runes_on_board(game, context.player)) >= n


_WORDS = {
    "another friendly unit here": _another_unit_here,
    "exactly one other friendly unit at a battlefield": _exactly_one_other_at_a_battlefield,
    "attacking with another unit": _attacking_with_another,
    "in combat": _in_combat,
    "moved twice this turn": _moved_twice,
    **{f"{n} or more runes": _runes(n) for n in range(1, 13)},
}


def _not(predicate):
    return lambda game, context: not predicate(game, context)


for _word, _predicate in _WORDS.items():
    condition(_word, "364.3.a")(_predicate)
    condition(f"not {_word}", "364.3.a")(_not(_predicate))
