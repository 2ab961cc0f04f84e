"""Restrictions passive abilities put on objects (364: "conditions, rules, constraints ... that affect the course of
regular play"), and the conditions those passives depend on (364.3.a: "while ...", "unless ...").

A passive's `restrictions` are words (`cards.PASSIVE_RESTRICTIONS`), each applying to the objects its filter matches while it is active:

    no_combat_damage       "I don't deal combat damage": the unit's Might is not summed into the damage its
                           side deals in the Combat Damage Step (465.2.a, 465.2.b), as a stunned unit's is not
                           (423.1.b); it still takes damage and counts for lethal (465.2.c).
    unchoosable_by_enemy   "I can't be chosen by enemy spells and abilities": not a valid target of a spell or
                           ability an opponent of its controller controls (355.9.b, whose example is this text).
    unmovable_by_enemy     "I can't be moved by enemy spells and abilities": a move an instruction of a spell or
                           ability an opponent of its controller controls makes leaves it where it is (054.1;
                           scenarios/rules/movement.py).
    no_play_cards          "Opponents can't play cards": a player it matches plays no Main Deck card (052, 054.1),
    no_play_spells         ... no spell; a token is no card: never forbidden these ways.
    no_units_played_here   "Units can't be played here": no unit is played to the battlefield it matches (054.1).
    ignore_tank            "You ignore [Tank] while assigning combat damage here": the player assigns combat damage
                           at that battlefield as if no unit had Tank (815.1.b does not bind it).
    channel_one_rune       "Players only channel 1 rune at the start of their Channel Phase" (315.3.b's 2).
    any_number_of_buffs    "I can have any number of buffs": a permission to be buffed multiple times, which
                           ignores 426.1.b.1 (426.1.b.2; `status.buff`); each buff gives +1 Might (703).
    hide_an_additional_card "You may hide an additional card here", a battlefield's: its Facedown Zone's maximum
                           occupancy is 2, not 1 (107.3.b, 107.3.b.1; `playing.hide`).
    units_only_to_base     "Opponents can only play units to their base": a player it matches plays no unit anywhere
                           else, by a card or an effect, a hidden one at its battlefield included (054.2).
    no_ready_by_effects    "Spells and abilities can't ready enemy units and gear": the `ready` of a spell or
                           ability (415.3) leaves it exhausted (054.1); its controller's Awaken Phase still readies it.
    no_score_here_before_turn_N  "Players can't score here until their third turn": a player it matches, at the
                           battlefield (its "here"), doesn't score it (469) before their Nth turn: no point, no
                           Conquer or Hold trigger (471.2.c), and the battlefield is not scored by them (470).
    no_points              "Opponents can't gain points": a player it matches gains no point, by a score (471.1)
                           or by an instruction (471.1.a.1); the battlefield still counts as scored (054.1).

`restricted_by` names the object whose passive forbids it, so a step can say who. Conditions registered here are
about the passive's source and its company at its location (364.3.a); each has its negation, "not <word>", for
"... unless <condition>".
"""

from __future__ import annotations

from scenarios.game import Game
from scenarios.kernel import calc, condition, do, instruction, procedure, query
from scenarios.objects import BOARD, Kind, Obj, Role
from scenarios.trace import StepKind


@query("restricted_by")
def restricted_by(
    game: Game, obj: Obj | str, word: str, location: str | None = None, about: Obj | None = None
) -> str | None:
    """The source of an active passive, or of an effect lasting this turn, that puts the restriction `word` on
    `obj` (an object, or a player's name, considered at `location` when given), if any (its card's id). With
    `about`, a restriction of a player's about that object, as it was named ("They can't move it this turn", 054.1:
    a new object after a zone change, 124, is not restricted)."""
    for subject, incarnation, said, source_id, turn, named in game.lasting_restrictions:
        if (
            said != word
            or turn != game.turn_number
            or (about is not None and (about.id, about.incarnation) not in named)
        ):
            continue
        if subject == obj or (isinstance(obj, Obj) and subject == obj.id and incarnation == obj.incarnation):
            return source_id
    if about is not None:  # no passive is about one object
        return None
    if not game.passive_sources:
        return None
    for source, passive, view in calc.passives(game):
        if word in passive.restrictions and calc.matches_object(game, passive.to, view, obj, location):
            return source.id
    return None


@query("play_forbidden_by")
def play_forbidden_by(game: Game, player: str, card: Obj) -> str | None:
    """The source that forbids `player` to play `card` now: "can't play cards" (a Main Deck card, 052) or "can't
    play spells" ("can't beats can", 054.1). A token is no card (052): never forbidden this way."""
    if card.definition is not None and card.definition.type == "token":
        return None
    source = restricted_by(game, player, "no_play_cards")
    if source is None and card.kind == Kind.SPELL:
        source = restricted_by(game, player, "no_play_spells")
    if source is None and card.definition is not None and game.turn_player == player:
        turns = game.players[player].turns_taken  # "I can't be played on your first, second, or third turns"
        if any(word in card.definition.restrictions for word in not_played_on_first_turns(turns)):
            source = card.id
    return source


@query("score_forbidden_by")
def score_forbidden_by(game: Game, player: str, battlefield: str) -> str | None:
    """The source that forbids `player` to score `battlefield` now: "Players can't score here until their third
    turn", a passive of the battlefield's, while the player has begun fewer turns than that (054.1)."""
    turns = game.players[player].turns_taken
    for word in NO_SCORE_BEFORE_TURN:
        if turns < int(word.rsplit("_", 1)[1]) and (source := restricted_by(game, player, word, battlefield)):
            return source
    return None


NO_SCORE_BEFORE_TURN = tuple(f"no_score_here_before_turn_{n}" for n in (2, 3))


def not_played_on_first_turns(turns: int) -> list[str]:
    """The card restrictions forbidding a card's play on its player's turn number `turns` ("on your first,
    second, or third turns": words for the first 1, 2 or 3 turns)."""
    return [f"not_played_on_your_first_{n}_turns" for n in range(max(turns, 1), 4)]


@query("play_here_forbidden_by")
def play_here_forbidden_by(game: Game, location: str | None, player: str | None = None) -> str | None:
    """The source that forbids units to be played to `location`: "Units can't be played here" on a battlefield
    (054.1), whoever plays them, by a card, an effect or a token; and, for the `player` playing one, "Opponents can
    only play units to their base": anywhere else (054.2)."""
    if player is not None and location != "base":
        source = restricted_by(game, player, "units_only_to_base")
        if source is not None:
            return source
    if not game.is_battlefield(location):
        return None
    return restricted_by(game, game.objects[location], "no_units_played_here")


@query("readied_by_effect")
def readied_by_effect(game: Game, run, ids) -> list[str]:
    """The objects among `ids` a spell's or ability's Ready (415.3) may ready: one a passive forbids it ("Spells
    and abilities can't ready enemy units and gear") stays exhausted, "can't" beating the instruction (054.1, 055)."""
    if not game.passive_sources:
        return list(ids)
    kept = []
    for object_id in ids:
        source = restricted_by(game, game.objects[object_id], "no_ready_by_effects")
        if source is None:
            kept.append(object_id)
        else:
            calc.impossible(game, run, f"{object_id} can't be readied ({game.objects[source].card})", "054.1")
    return kept


_FORBIDDEN = {"no_play_cards": "can't play cards", "no_play_spells": "can't play spells"}
_FORBIDDEN["unchoosable_by_enemy"] = "can't be chosen by enemy spells and abilities"


def _restricting(g, subjects, word: str, label: str, source: str, about=()) -> str:
    said = f"can't move {', '.join(i for i, _ in about)}" if word == "no_move_it" else _FORBIDDEN.get(word, word)
    return f"{label}: {', '.join(subjects)} {said} this turn"


@procedure(
    "restrict",
    StepKind.EFFECT,
    defines=("054.1",),
    summary=_restricting,
    objects=lambda g, subjects, *a, **k: list(subjects),
)
def restrict(game: Game, subjects, word: str, label: str, source: str, about=()) -> None:
    """`about`: the objects (id, incarnation) a player's restriction is about ("they can't move it")."""
    entries = []
    for subject in subjects:
        incarnation = game.objects[subject].incarnation if subject in game.objects else None
        entries.append((subject, incarnation, word, source, game.turn_number, tuple(about)))
    game.lasting_restrictions = (*game.lasting_restrictions, *entries)


@instruction("restrict")
def op_restrict(game: Game, run, ins) -> None:
    """`{op: restrict, restriction: <word>, what: <objects>}` or `{..., players: opponents | you}` or `{...,
    players: controller, what: <objects>}` (the players controlling them): "It can't be
    chosen by enemy spells and abilities this turn", "Opponents can't play cards this turn": a restriction on them
    until the end of this turn ("can't beats can", 054.1). The restriction `no_move_it` of the players
    controlling the objects is about those objects: "They can't move it this turn"."""
    about: tuple = ()
    if ins.get("players") == "controller":  # "its controller": of the object named, wherever it is now (countered)
        named = [game.objects[i] for i in calc.refs(game, run, ins["what"]) if i in game.objects]
        subjects = sorted({obj.controller or obj.owner for obj in named})
        if ins["restriction"] == "no_move_it":  # the objects as they are now (a new object after, 124)
            about = tuple((obj.id, obj.incarnation) for obj in named if obj.zone == BOARD)
            subjects = sorted({obj.controller for obj in named if obj.zone == BOARD})
    elif "players" in ins:
        you = run.item.controller
        subjects = [p for p in game.turn_order if (p == you) == (ins["players"] == "you")]
    else:
        subjects = calc.still_there(game, run, ins["what"], "the 'restrict' instruction on")
    if subjects:
        do.restrict(game, subjects, ins["restriction"], run.item.label, run.item.source, about, because=run.because)


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


def _dealt_damage(game: Game, context) -> bool:
    """ "If I haven't been dealt damage this turn": no damage was marked on it this turn (417.1.b), even if healed
    since; prevented or replaced damage was never dealt."""
    source = _source(game, context)
    return source is not None and source.dealt_damage_this_turn


def _stunned_enemy_here(game: Game, context) -> bool:
    """ "While there's a stunned enemy unit here": an opponent's stunned unit at its location (423.1.a)."""
    source = _source(game, context)
    return source is not None and any(
        unit.stunned and unit.controller != source.controller for unit in game.units(source.location)
    )


def _runes(n: int):
    """ "While you control N or more runes" / "while you have N+ runes": runes on the board it controls (105)."""
    return lambda game, context: len(calc.runes_on_board(game, context.player)) >= n


_WORDS = {
    "another friendly unit here": _another_unit_here,
    "exactly one other friendly unit at a battlefield": _exactly_one_other_at_a_battlefield,
    "attacking with another unit": _attacking_with_another,
    "in combat": _in_combat,
    "moved twice this turn": _moved_twice,
    "dealt damage this turn": _dealt_damage,
    "stunned enemy unit here": _stunned_enemy_here,
    **{f"{n} or more runes": _runes(n) for n in range(1, 13)},
}


def _not(predicate):
    return lambda game, context: not predicate(game, context)


for _word, _predicate in _WORDS.items():
    condition(_word, "364.3.a")(_predicate)
    condition(f"not {_word}", "364.3.a")(_not(_predicate))
