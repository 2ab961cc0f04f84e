"""Scoring 445-449: Conquer and Hold, once per battlefield per turn, with the Final Point restriction."""

from __future__ import annotations

from scenarios import triggers
from scenarios.trace import procedure


def _score(game, player: str, bf, how: str) -> bool:
    if player in bf.scored_this_turn:
        game.trace.note("scoring", f"{player} already scored {bf.id} this turn: no point", ["447"], [bf.id])
        return False
    bf.scored_this_turn.append(player)
    points = game.players[player].points
    if points == game.victory_score - 1 and how == "conquer":
        unscored = [b.id for b in game.battlefields() if player not in b.scored_this_turn]
        if unscored:
            game.trace.note(
                "scoring",
                f"{player} would take the Final Point by Conquer without scoring {unscored}: no point",
                ["448.1.b.2"],
                [player],
            )
            return True
    _earn_point(game, player, bf, how)
    return True


@procedure(
    "scoring",
    "448.1",
    summary=lambda g, player, bf, how: f"{player} scores 1 point ({how} {bf.id}): {g.players[player].points + 1}",
    objects=lambda g, player, bf, how: [player, bf.id],
    cite=lambda g, player, bf, how: ["446.1" if how == "conquer" else "446.2"],
)
def _earn_point(game, player: str, bf, how: str) -> None:
    game.players[player].points += 1
    game.log["scored"].append(f"{player}:{how}:{bf.id}")


@procedure(
    "scoring",
    "446.1",
    "448.2.a",
    summary=lambda g, player, bf: f"{player} conquers {bf.id}",
    objects=lambda g, player, bf: [bf.id],
)
def conquer(game, player: str, bf):
    if _score(game, player, bf, "conquer"):
        triggers.fire(game, "conquer", player=player, location=bf.id, units=[u.id for u in game.units(bf.id, player)])
    yield from ()


@procedure(
    "scoring",
    "446.2",
    "448.2.b",
    "315.2.b.1",
    summary=lambda g, player, bf: f"{player} holds {bf.id}",
    objects=lambda g, player, bf: [bf.id],
)
def hold(game, player: str, bf) -> None:
    if _score(game, player, bf, "hold"):
        triggers.fire(game, "hold", player=player, location=bf.id, units=[u.id for u in game.units(bf.id, player)])


@procedure(
    "scoring",
    "448.1",
    summary=lambda g, player, n, why: f"{player} scores {n} ({why})",
    objects=lambda g, player, n, why: [player],
)
def score_points(game, player: str, n: int, why: str) -> None:
    game.players[player].points += n
    game.log["scored"].append(f"{player}:{why}")
