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
        wanted = _wanted_stage(game, bf)
        if wanted != bf.staged:
            rule = {"combat": "322.10", "showdown": "322.8"}.get(wanted, "322.11" if bf.staged == "combat" else "322.9")
            _set_stage(game, bf, wanted, rule)


def _wanted_stage(game, bf) -> str | None:
    controllers = {u.controller for u in game.units(bf.id)}
    if len(controllers) >= 2:
        return "combat"  # 322.10
    if game.showdown and game.showdown["battlefield"] == bf.id:
        return None  # the showdown here is already open
    if bf.battlefield_controller is None and controllers == {bf.contested_by}:
        return "showdown"  # 322.8, 322.8.a
    return None  # 322.9, 322.11


@procedure(
    "showdown",
    summary=lambda g, bf, wanted, rule: (
        f"{bf.id}: " + (f"{wanted} staged" if wanted else f"{bf.staged} no longer staged")
    ),
    objects=lambda g, bf, *a: [bf.id],
    cite=lambda g, bf, wanted, rule: [rule],
)
def _set_stage(game, bf, wanted: str | None, rule: str) -> None:
    bf.staged = wanted


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


@procedure(
    "showdown",
    "340.2",
    "341",
    "316.5.b",
    summary=lambda g, bf: f"showdown opens at {bf} (no combat)",
    objects=lambda g, bf: [bf],
)
def begin(game, bf_id: str) -> None:
    bf = game.obj(bf_id)
    bf.staged = None
    game.showdown = {"battlefield": bf_id, "combat": False, "focus": bf.contested_by, "passes": [], "initial": False}
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


@procedure(
    "showdown",
    summary=lambda g: (
        f"initial chain done: {g.showdown['focus']} keeps Focus"
        if g.showdown["initial"]
        else f"Focus passes to {g.next_player(g.showdown['focus'])}"
    ),
    cite=lambda g: ["343.1", "442.1.e"] if g.showdown["initial"] else ["343"],
)
def after_chain_emptied(game) -> None:
    """343: Focus passes when the last chain item resolves, except after the Initial Chain (343.1)."""
    showdown = game.showdown
    if showdown["initial"]:
        showdown["initial"] = False
    else:
        showdown["focus"] = game.next_player(showdown["focus"])
    showdown["passes"] = []
    game.priority = showdown["focus"]


@procedure(
    "showdown", "344.3.a", "345", summary=lambda g: f"all players passed: showdown at {g.showdown['battlefield']} ends"
)
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


@procedure(
    "showdown",
    "345.2",
    summary=lambda g, bf: f"settle control of {bf} after a showdown without combat",
    objects=lambda g, bf: [bf],
)
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
        game.trace.note(
            "showdown",
            f"two players remain at {bf_id}: stays contested, combat staged ({bf.contested_by} will attack)",
            ["345.2.b", "345.2.b.1"],
            [bf_id],
        )
    else:
        bf.contested_by = None
    yield from cleanups.cleanup(game, reason="the showdown ended (344.3.a.1)")
