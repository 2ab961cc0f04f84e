"""Scoring 445-449: Conquer and Hold, once per battlefield per turn, and the Final Point.

When the point a score would earn is the Final Point and the player scored by Conquer without having scored
every battlefield this turn, the player draws a card instead of the point (471.1.b.1). Conquer and Hold
abilities trigger either way (383.4.c.2.c, 383.4.d.2.c).
"""

from __future__ import annotations

from scenarios.game import Game
from scenarios.kernel import calc, do, event_kind, instruction, log, note, procedure, query
from scenarios.objects import Event
from scenarios.trace import StepKind

event_kind("conquer", "383.4.c")
event_kind("hold", "383.4.d")
event_kind("score_point", "471.1", would="score 1 point from conquering or holding")


def _score(game: Game, player: str, bf, how: str) -> bool:
    """Score `bf` by `how`: the point (or what replaces the Final Point); False when already scored (470), or when
    a passive forbids the player to score it ("Players can't score here until their third turn", 054.1)."""
    forbidder = calc.score_forbidden_by(game, player, bf.id)
    if forbidder is not None:
        why = f"{player} can't score {bf.id} ({game.objects[forbidder].card}; {player}'s turn {game.players[player].turns_taken})"
        note(game, StepKind.SCORING, "score", why, "054.1", objects=[bf.id])
        return False
    if player in bf.scored_this_turn:
        note(
            game,
            StepKind.SCORING,
            "score",
            f"{player} already scored {bf.id} this turn: no point",
            "470",
            objects=[bf.id],
        )
        return False
    bf.scored_this_turn = (*bf.scored_this_turn, player)
    final = calc.final_point_at_stake(game, player)
    from_total = game.reading("final_point_from").cited if final else ()  # the totals it is scored from
    if final and how == "conquer":
        unscored = [b.id for b in game.battlefields() if player not in b.scored_this_turn]
        if unscored:
            do.draw_instead_of_final_point(game, player, unscored, because=from_total)
            return True
    if _forbidden(game, player):
        return True
    if calc.would(game, Event("score_point", player=player, location=bf.id, via=how)):  # "... draw 1 instead"
        return True
    final_rule = "471.1.b.1" if how == "hold" else "471.1.b.1"
    do.earn_point(game, player, bf, how, because=("471.1", final_rule, *from_total) if final else "471.1")
    return True


def _forbidden(game: Game, player: str) -> bool:
    """A passive says the player can't gain points ("Opponents can't gain points"): none is gained ("can't beats
    can", 054.1), shown as a step naming its source."""
    source = calc.restricted_by(game, player, "no_points")
    if source is not None:
        note(game, StepKind.SCORING, "no point", f"{player} can't gain points ({game.objects[source].card})", "054.1")
    return source is not None


@query("final_point_at_stake")
def final_point_at_stake(game: Game, player: str) -> bool:
    """Is the point a score would earn the Final Point: the player is 1 point from the Victory Score, or (Core
    Rules 1.4, 471.1.b) 1 point from it or higher, as a player tied at the Victory Score is (no one won, 472)."""
    points, line = game.players[player].points, calc.victory_score(game) - 1
    return points >= line if game.reading("final_point_from").choice == "one_below_or_higher" else points == line


@procedure(
    "draw_instead_of_final_point",
    StepKind.SCORING,
    defines=("471.1.b.1",),
    summary=lambda g, player, unscored: (
        f"{player} would take the Final Point by Conquer without scoring {', '.join(unscored)} this turn: draws a card instead"
    ),
    objects=lambda g, player, unscored: [player],
)
def draw_instead_of_final_point(game: Game, player: str, unscored) -> None:
    do.draw(game, player, 1, because="471.1.b.1")


@procedure(
    "earn_point",
    StepKind.SCORING,
    defines=("471.1",),
    summary=lambda g, player, bf, how: f"{player} scores 1 point ({how} {bf.id}): {g.players[player].points + 1}",
    objects=lambda g, player, bf, how: [player, bf.id],
    cite=lambda g, player, bf, how: ["469.1" if how == "conquer" else "469.2"],
)
def earn_point(game: Game, player: str, bf, how: str) -> None:
    game.players[player].points += 1
    if how == "hold":  # "for each point you scored from holding this turn"
        game.players[player].held_points_this_turn += 1
    log(game, "scored", f"{player}:{how}:{bf.id}", "471.1")
    calc.points_gained(game, player)


@procedure(
    "conquer",
    StepKind.SCORING,
    defines=("469.1", "471.2.a"),
    summary=lambda g, player, bf, uncontrolled=False: f"{player} conquers {bf.id}",
    objects=lambda g, player, bf, uncontrolled=False: [bf.id],
    pure=True,
)
def conquer(game: Game, player: str, bf, uncontrolled: bool = False) -> None:
    """`uncontrolled`: the battlefield had no controller before (190.4.c): "a battlefield that was uncontrolled".
    Conquered whether or not it is scored ("a battlefield you conquered this turn")."""
    bf.conquered_this_turn = (*bf.conquered_this_turn, player)
    _score_and_trigger(game, player, bf, "conquer", uncontrolled)


@procedure(
    "hold",
    StepKind.SCORING,
    defines=("469.2", "471.2.b"),
    summary=lambda g, player, bf: f"{player} holds {bf.id}",
    objects=lambda g, player, bf: [bf.id],
    pure=True,
)
def hold(game: Game, player: str, bf) -> None:
    _score_and_trigger(game, player, bf, "hold")


def _score_and_trigger(game: Game, player: str, bf, how: str, uncontrolled: bool = False) -> None:
    """Score, then Conquer or Hold abilities trigger with the player's units there (471.2, 383.4.c-c)."""
    if _score(game, player, bf, how):
        units = tuple(u.id for u in game.units(bf.id, player))
        calc.fire(game, Event(how, player=player, location=bf.id, units=units, uncontrolled=uncontrolled))


@procedure(
    "gain_points",
    StepKind.SCORING,
    defines=("471.1.a.1",),
    summary=lambda g, player, n, label: f"{label}: {player} gains {n} point(s)",
    objects=lambda g, player, n, label: [player],
    pure=True,
)
def gain_points(game: Game, player: str, n: int, label: str) -> None:
    """Points from other sources than Conquer or Hold: no Final Point restriction (471.1.a.1)."""
    game.players[player].points += n
    log(game, "scored", f"{player}:{label}", "471.1.a.1")
    calc.points_gained(game, player)


@instruction("score")
def op_score(game: Game, run, ins) -> None:
    if _forbidden(game, run.item.controller):
        return
    do.gain_points(game, run.item.controller, ins.get("n", 1), run.item.label, because=run.because)
