"""Condition words about the state of the game (364.3.a: "if ..., I enter ready", "if ..., <X> instead"), registered for the abilities that depend on them (`condition:` on a replacement effect, a
trigger, a passive). Each is read from the point of view of the player whose ability it is (`Condition.player`)
and the object whose text it is (`Condition.source`).
"""

from __future__ import annotations

from scenarios.game import Game
from scenarios.kernel import calc, condition
from scenarios.objects import FACEDOWN, TRASH, View


def _controls_another(tag: str):
    def holds(game: Game, context) -> bool:
        return any(
            u.controller == context.player and u.id != context.source and calc.tagged(game, u, tag)
            for u in game.units()
            if u.definition is not None
        )

    return holds


for _tag in ("Mech", "Dragon", "Poro", "Bird", "Cat", "Dog"):  # the tags card text names (133.8)
    condition(f"you control another {_tag}", "364.3.a")(_controls_another(_tag))


def _within(n: int):
    """Your score "within N points of the Victory Score": N or fewer points short of it (194.2)."""
    return lambda game, context: game.victory_score - game.players[context.player].points <= n


for _n in range(1, 8):  # an opponent's: `players.py` ("an opponent within N points of the victory score")
    condition(f"your score is within {_n} points of the victory score", "364.3.a")(_within(_n))


def _other_units_in_base(n: int):
    def holds(game: Game, context) -> bool:
        return sum(1 for u in game.units("base", context.player) if u.id != context.source) >= n

    return holds


for _n in range(1, 6):
    condition(f"{_n} or more other units in your base", "364.3.a")(_other_units_in_base(_n))


@condition("a card with my name in your trash", "364.3.a")
def _my_name_in_trash(game: Game, context) -> bool:
    source = game.objects.get(context.source) if context.source else None
    if source is None:
        return False
    return any(o.zone == TRASH and o.owner == context.player and o.card == source.card for o in game.objects.values())


@condition("your beginning phase", "364.3.a")
def _your_beginning_phase(game: Game, context) -> bool:
    """ "If it's your Beginning Phase": the turn is this player's and in its Beginning Phase (315.2)."""
    return game.turn_player == context.player and game.phase == "beginning"


@condition("you control a facedown card", "364.3.a")
def _facedown(game: Game, context) -> bool:
    """A card hidden facedown at a battlefield (811) is its controller's."""
    return any(o.zone == FACEDOWN and o.controller == context.player for o in game.objects.values())


def _runes_at_least(n: int):
    return lambda game, context: len(calc.runes_on_board(game, context.player)) >= n


def _runes_at_most(n: int):
    return lambda game, context: len(calc.runes_on_board(game, context.player)) <= n


# "If you control 7 or more runes" / "if you control 4 or fewer runes": the runes on the board it controls (105),
# counted as the text is checked (364.3.a; 356.4.a for a cost's condition)
for _n in range(1, 13):
    condition(f"you control {_n} or more runes", "364.3.a")(_runes_at_least(_n))
for _n in range(0, 13):
    condition(f"you control {_n} or fewer runes", "364.3.a")(_runes_at_most(_n))


def _died_this_turn(side: str):
    """ "If a unit died this turn" / "if an enemy unit has died this turn": the deaths of this turn each player's
    units are counted among (`died_this_turn`, rules/damage.py), of any player, an opponent, or this one."""

    def holds(game: Game, context) -> bool:
        whose = {"a": list(game.players), "a friendly": [context.player], "an enemy": None}[side]
        return any(game.players[p].died_this_turn for p in whose or game.opponents(context.player))

    return holds


for _side in ("a", "a friendly", "an enemy"):
    condition(f"{_side} unit died this turn", "364.3.a")(_died_this_turn(_side))


# The sets of tags cards count among a player's units (133.8): "when I attack while your units have all 4 tags" (of
# "Bird, Cat, Dog, and Poro" the card lists), each registered as "your units have the tags Bird, Cat, Dog, Poro"
TAG_SETS = (("Bird", "Cat", "Dog", "Poro"),)


def _have_every_tag(tags: tuple[str, ...]):
    def holds(game: Game, context) -> bool:
        among = {"tags_among": {"who": "friendly unit"}, "tags": list(tags)}  # `amounts`' quantity, of their units
        return calc.quantity(game, View(context.source, context.player), among) == len(tags)

    return holds


def tags_word(tags) -> str:
    return f"your units have the tags {', '.join(tags)}"


for _tags in TAG_SETS:
    condition(tags_word(_tags), "133.8")(_have_every_tag(_tags))
