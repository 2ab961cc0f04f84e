"""Showdowns and Focus 337-345, with the staging of showdowns and combats during Cleanup (322.8-322.14).

A showdown is `game.showdown = {battlefield, combat, focus, passes, initial}`. The
player with Focus acts when the Chain is empty; when every player has passed in
sequence the showdown ends (344.3.a): a combat proceeds to its damage step (345.1),
a showdown without combat settles control (345.2).
"""
from __future__ import annotations

from scenarios import combat, control
from scenarios.trace import procedure


def stage(game) -> None:
    """322.8-322.11: mark showdowns and combats as staged, or unstage them."""
    for bf in game.battlefields():
        if not bf.contested_by or (game.combat and game.combat["battlefield"] == bf.id):
            continue
        before = bf.staged
        _stage_one(game, bf)
        if bf.staged != before:
            rule = {"combat": "322.10", "showdown": "322.8"}.get(bf.staged, "322.11" if before == "combat" else "322.9")
            game.trace.note("showdown", f"{bf.id}: " + (f"{bf.staged} staged" if bf.staged else f"{before} no longer "
                                                                                               f"staged"),
                            [rule], [bf.id])


def _stage_one(game, bf) -> None:
    controllers = {u.controller for u in game.units(bf.id)}
    if len(controllers) >= 2:
        bf.staged = "combat"                        # 322.10
    elif game.showdown and game.showdown["battlefield"] == bf.id:
        bf.staged = None                            # the showdown here is already open
    elif bf.battlefield_controller is None and controllers == {bf.contested_by}:
        bf.staged = "showdown"                      # 322.8, 322.8.a
    else:
        bf.staged = None                            # 322.9, 322.11


def open_staged(game):
    """322.13-322.14: in a Neutral Open State the turn player picks a staged showdown, then a combat."""
    from scenarios.choices import ask
    for kind, rule in (("showdown", "322.13"), ("combat", "322.14")):
        staged = [bf.id for bf in game.battlefields() if bf.staged == kind]
        if staged:
            where = yield from ask(game, "battlefield", game.turn_player, f"where a {kind} begins", staged, rule)
            if kind == "showdown":
                begin(game, where)
            else:
                yield from combat.begin(game, where)
            return


@procedure("showdown", "340.2", "341", "316.5.b", summary=lambda g, bf: f"showdown opens at {bf} (no combat)",
           objects=lambda g, bf: [bf])
def begin(game, bf_id: str) -> None:
    bf = game.obj(bf_id)
    bf.staged = None
    game.showdown = {"battlefield": bf_id, "combat": False, "focus": bf.contested_by, "passes": [],
                     "initial": False}
    game.priority = bf.contested_by


def pass_focus(game, player: str):
    """344.3-344.4: the player with Focus passes; when all have passed in sequence the showdown ends."""
    showdown = game.showdown
    showdown["passes"].append(player)
    if set(showdown["passes"]) >= set(game.turn_order):
        yield from end(game)
    else:
        showdown["focus"] = game.next_player(player)
        game.priority = showdown["focus"]


def after_chain_emptied(game) -> None:
    """343: Focus passes when the last chain item resolves, except after the Initial Chain (343.1)."""
    showdown = game.showdown
    if showdown["initial"]:
        showdown["initial"] = False
        game.trace.note("showdown", f"initial chain done: {showdown['focus']} keeps Focus", ["343.1", "442.1.e"])
    else:
        showdown["focus"] = game.next_player(showdown["focus"])
        game.trace.note("showdown", f"Focus passes to {showdown['focus']}", ["343"])
    showdown["passes"] = []
    game.priority = showdown["focus"]


@procedure("showdown", "344.3.a", "345", summary=lambda g: f"all players passed: showdown at "
                                                         f"{g.showdown['battlefield']} ends")
def end(game):
    from scenarios import cleanups
    showdown = game.showdown
    game.showdown = None
    game.priority = None
    if showdown["combat"]:
        yield from cleanups.cleanup(game, reason="the showdown ended (344.3.a.1)")
        yield from combat.damage_step(game)
        yield from combat.resolution_step(game)
    else:
        # 345.2 settles the battlefield as the showdown closes, before its cleanup could stage it again
        yield from settle_showdown_without_combat(game, showdown["battlefield"])


@procedure("showdown", "345.2", summary=lambda g, bf: f"settle control of {bf} after a showdown without combat",
           objects=lambda g, bf: [bf])
def settle_showdown_without_combat(game, bf_id: str):
    from scenarios import cleanups
    bf = game.obj(bf_id)
    present = {u.controller for u in game.units(bf_id)}
    if len(present) == 1:
        (player,) = present
        if bf.battlefield_controller != player:
            yield from control.establish(game, bf, player, rule="345.2.a")
    elif len(present) >= 2:
        bf.staged = "combat"
        game.trace.note("showdown", f"two players remain at {bf_id}: stays contested, combat staged "
                                    f"({bf.contested_by} will attack)", ["345.2.b", "345.2.b.1"], [bf_id])
    else:
        bf.contested_by = None
    yield from cleanups.cleanup(game, reason="the showdown ended (344.3.a.1)")
