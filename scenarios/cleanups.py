"""Cleanups 318-323: the state check performed after every chain item, move, showdown and combat.

The steps run in the order of 322. A cleanup that changes the state is followed by
another, until one changes nothing (321). Special cleanups (end of turn 317.2, combat
444.1.a) insert their extra steps 2c-2e after step 2.
"""

from __future__ import annotations

from scenarios import combat, control, damage, showdowns, triggers
from scenarios.layers import explain, might
from scenarios.trace import procedure

MAX_REPEATS = 25


def cleanup(game, reason: str = "", special: str | None = None):
    """Run cleanups until one makes no change (321); a special cleanup only once (323.2)."""
    for round_number in range(MAX_REPEATS):
        before = game.fingerprint()
        yield from _cleanup_once(
            game, reason if round_number == 0 else "repeat: the last cleanup changed the state (321)", special
        )
        special = None
        if game.fingerprint() == before:
            return
    raise RuntimeError("cleanups did not settle")


def _summary(game, reason, special):
    return (
        "combat special cleanup"
        if special == "combat"
        else "end of turn special cleanup"
        if special == "end_of_turn"
        else "cleanup"
    ) + (f" after {reason}" if reason else "")


@procedure("cleanup", "322", summary=_summary)
def _cleanup_once(game, reason, special):
    yield from triggers.place_pending(game)
    _victory(game)
    yield from _lethal_damage(game)
    if special:
        yield from _special_steps(game, special)
    if game.combat:
        combat.update_designations(game)
    _uncontrolled(game)
    _recall_loose_gear(game)
    _remove_orphaned_hidden_cards(game)
    showdowns.stage(game)
    yield from triggers.place_pending(game)
    if any(item["pending"] for item in game.chain):
        from scenarios import chain

        yield from chain.finalize_pending(game)
    if not game.chain and not game.showdown and not game.combat and not game.flags.get("continuation"):
        yield from showdowns.open_staged(game)


def _victory(game) -> None:
    for player in game.players.values():
        if player.points >= game.victory_score and not game.flags.get("winner"):
            _wins(game, player)


@procedure(
    "scoring",
    "322.1",
    "449",
    summary=lambda g, player: f"{player.name} has {player.points} points: wins",
    objects=lambda g, player: [player.name],
)
def _wins(game, player) -> None:
    game.flags["winner"] = player.name


def _lethal_damage(game):
    """2a/2b (322.3-322.4): units with non-zero damage equal to or above their Might die."""
    doomed = [u for u in game.units() if u.damage > 0 and u.damage >= might(game, u)]
    for unit in doomed:
        game.trace.note(
            "layer calculation",
            f"{unit.id}: damage {unit.damage} vs might {explain(game, unit)}",
            ["322.4", "454.3"],
            [unit.id],
        )
    if doomed:
        yield from damage.kill_many(game, [u.id for u in doomed], passive=True)


def _special_steps(game, special: str):
    units = game.units()
    if units and any(u.damage for u in units):
        damage.heal(game, [u.id for u in units], rule="444.1.a.1" if special == "combat" else "317.2.b")
    if special == "combat":
        yield from combat.recall_attackers_if_defenders_remain(game)
        combat.remove_designations(game)


def _uncontrolled(game) -> None:
    for bf in game.battlefields():
        if bf.battlefield_controller and not bf.contested_by and not game.units(bf.id):
            control.lose_control(game, bf)


def _remove_orphaned_hidden_cards(game) -> None:
    """322.7: hidden cards at battlefields their owner no longer controls go to the trash."""
    for card in [
        o
        for o in game.objects.values()
        if o.zone == "facedown"
        and game.is_battlefield(o.location)
        and game.obj(o.location).battlefield_controller != o.owner
    ]:
        _trash_hidden(game, card)


@procedure(
    "cleanup",
    "322.7",
    "106.4.d",
    summary=lambda g, card: f"{card.id} is hidden at {card.location}, which its owner no longer controls: trashed",
    objects=lambda g, card: [card.id],
)
def _trash_hidden(game, card) -> None:
    card.zone, card.location = "trash", None


def _recall_loose_gear(game) -> None:
    from scenarios import movement

    for gear in [
        o
        for o in game.objects.values()
        if o.kind == "gear" and o.zone == "board" and not o.attached_to and game.is_battlefield(o.location)
    ]:
        movement.recall(game, gear.id, rule="322.7")
