"""Cleanups 318-323: the state check performed after every chain item, move, showdown and combat.

The steps run in the order of 323. A cleanup that changes the state is followed by another, until one
changes nothing (322); a change is any write to the game state (the journal grew). Special cleanups (end of
turn 317.2.a, combat 466.1.a) insert their extra steps 2c-2e after step 2, and only once (324.2).

Most cleanups find nothing to do, and most of what a turn writes (the phase, the clock, a point) is not what the
checks read: the victory, lethal-damage and board checks each watch the attributes they read
(`journal.watch`) and are skipped while none of those has been written since they last ran.
"""

from __future__ import annotations

from typing import Final

from scenarios.game import Game
from scenarios.journal import WATCH_GROUPS, watch
from scenarios.kernel import EngineError, GameOver, calc, do, note, procedure, query, standing_notes
from scenarios.objects import BOARD, FACEDOWN, TRASH
from scenarios.trace import StepKind

MAX_REPEATS = 25


@query("cleanup")
def cleanup(game: Game, reason: str, because: str, special: str | None = None) -> None:
    """Run cleanups until one makes no change (322); `because` is the 319 rule (or another) that calls it."""
    entries = game.journal.entries
    mark = len(entries)
    do.cleanup_pass(game, reason, special, because=because)
    repeats = 0
    while len(entries) != mark:
        repeats += 1
        if repeats == MAX_REPEATS:
            raise EngineError(f"cleanups did not settle after {MAX_REPEATS} repeats (322)")
        mark = len(entries)
        do.cleanup_pass(game, "the last cleanup changed the state", None, because="322")


SPECIAL_CLEANUPS = {"combat": "combat special cleanup", "end_of_turn": "end of turn special cleanup"}


def _summary(game: Game, reason, special) -> str:
    kind = SPECIAL_CLEANUPS[special] if special else "cleanup"
    return f"{kind} after {reason}" if reason else kind


@procedure(
    "cleanup_pass",
    StepKind.CLEANUP,
    defines=("323",),
    summary=_summary,
    cite=lambda g, r, special: ["324"] if special else [],
    pure=True,
)
def cleanup_pass(game: Game, reason: str, special: str | None) -> None:
    """One Cleanup. Most find nothing to do: when every check reads only what is unchanged since it last ran and
    no trigger, chain, combat or special step waits, none is asked."""
    if game.journal.changed & WATCH_GROUPS["cleanup"] or special or game.triggered or game.combat or game.chain:
        run_checks(game, special)


def run_checks(game: Game, special: str | None) -> None:
    """The steps of one Cleanup (323), each check run when something it reads has changed since it last ran."""
    journal = game.journal
    if game.triggered:
        calc.place_triggers(game)
    if journal.due(VICTORY_READS):
        _victory(game)
    designations_first = game.combat is not None and game.reading(ORDER).choice == "designations_first"
    if designations_first:
        calc.update_designations(game)
    if journal.due(LETHAL_READS):
        _lethal_damage(game)
    if special:
        _special_steps(game, special)
    if game.combat and not designations_first:
        calc.update_designations(game)
    if journal.due(BOARD_CHECKS_READS):
        _board_checks(game)
    calc.stage(game)
    if game.triggered:
        calc.place_triggers(game)
    if game.chain and any(item.pending for item in game.chain):
        do.finalize_pending(game, because="337.1")
    if not game.chain and not game.combat and not game.continuation:
        if game.showdown:
            calc.combat_joins_open_showdown(game)
        else:
            calc.open_staged(game)
    if game.passive_sources:  # last: what began to apply in this Cleanup (a combat's designations too)
        calc.snapshot_passive_limits(game)


# Whether a Combat's designations are updated before the units with lethal damage die (Core Rules 1.4: 323.2
# is step 2, lethal damage step 3) or after (2025-12-01: 322.3-322.4, then 322.5; 2025-06-02: 520, then 521): an
# arriving unit's Assault or Shield, a departed one's, counts or not in its lethal check.
ORDER: Final = "designations_before_lethal"

VICTORY_READS = watch(("winner", "points", "victory_score"), "cleanup")


def _victory(game: Game) -> None:
    if game.winner is None:
        winner = calc.victor(game)
        if winner is not None:
            do.wins(game, winner, because=game.reading(VICTORY).cited)


@query("victory_score")
def victory_score(game: Game) -> int:
    """The Victory Score: the game's (8 by default, 194.3) with what active passives add to it ("Increase the points
    needed to win the game by 1", 194.3.a)."""
    return game.victory_score + sum(passive.victory_score for _source, passive, _view in calc.passives(game))


@query("victor")
def victor(game: Game) -> str | None:
    """The player who wins in a Cleanup: at or above the Victory Score with more points than any other player.
    Players tied for the most points win nothing yet; play continues until one has more (194.2,
    323.1)."""
    ranked = sorted(game.players.values(), key=lambda p: p.points, reverse=True)
    leader = ranked[0]
    if leader.points < victory_score(game) or ranked[1].points == leader.points:
        return None
    return leader.name


VICTORY: Final = "victory_when"


@query("points_gained")
def points_gained(game, player: str) -> None:
    """A player's points went up. Up to 2025-12-01 a player who reaches the Victory Score wins at once (449:
    "immediately"), in the middle of what gave the points; from Core Rules 1.4 only in a Cleanup and with more
    points than any opponent (472, 323.1; a first Burn Out's point too, 431.3.c), the behaviour `victory_when`."""
    if game.winner is None and game.players[player].points >= victory_score(game):
        reading = game.reading(VICTORY)
        if reading.choice == "immediately":
            do.wins(game, player, because=reading.cited)


@procedure(
    "wins",
    StepKind.SCORING,
    defines=("472",),
    summary=lambda g, name: f"{name} has {g.players[name].points} points, more than any other player: wins",
    objects=lambda g, name: [name],
)
def wins(game: Game, name: str) -> None:
    """The player wins and the game ends at once (196): nothing after it in the action is done."""
    game.winner = name
    raise GameOver(name)


# While no unit on the board is damaged, only a write of damage or zone (or a new object) can make one lethal.
LETHAL_READS = watch(("damage", "zone", "unit_objects"), "cleanup")


def _lethal_damage(game: Game) -> None:
    """2a/2b (322.3-322.4): units with non-zero damage equal to or above their Might die."""
    damaged = [u for u in game.unit_objects if u.damage > 0 and u.zone == BOARD]
    if not damaged:
        return
    game.journal.changed |= LETHAL_READS  # any change may lower a damaged unit's Might: checked at every cleanup
    doomed = [u for u in damaged if u.damage >= calc.might(game, u)]
    for unit in damaged:  # the damage's attribution lasts until this Cleanup only (428.5.c)
        if unit.damage_by is not None and unit not in doomed:
            unit.damage_by = None
    for unit in doomed:
        note(
            game,
            StepKind.LAYER_CALCULATION,
            "lethal",
            f"{unit.id} has {unit.damage} damage and {calc.explain_might(game, unit)}: lethal, it dies",
            game.reading(ORDER).rule("lethal"),
            ("477.3.a", *calc.might_rules(game, unit)),
            [unit.id],
        )
    if doomed:
        calc.kill_all(game, [u.id for u in doomed], True, ("323.4", "323.5"))
    for unit in doomed:
        if unit.damage_by is not None:  # a death replaced: it is still on the board
            unit.damage_by = None


def _special_steps(game: Game, special: str) -> None:
    damaged = [u.id for u in game.unit_objects if u.damage and u.zone == BOARD]
    if damaged:
        do.heal(game, damaged, because="466.1.a.1" if special == "combat" else "317.2.b")
    if special == "combat":
        calc.recall_attackers_if_defenders_remain(game)
        if game.reading("combat_result_waits_for_the_chain").choice == "at_once":  # the Combat ends with it
            calc.remove_designations(game)


# What the board checks read (a new object, too, makes them due): "kind" and "owner" never change, but are read.
BOARD_CHECKS_READS = watch(
    (
        "kind",
        "owner",
        "zone",
        "location",
        "attached_to",
        "battlefield_controller",
        "contested_by",
        "controller",
        "unit_objects",
        "gear_objects",
        "battlefield_objects",
    ),
    "cleanup",
)


def _board_checks(game: Game) -> None:
    """322.6-322.7: control lost, gear left at a battlefield, hidden cards left behind. When they do something
    they are due again at the next cleanup (what they did may call for more)."""
    journal, records = game.journal, game.trace.records
    journal_mark, trace_mark = len(journal.entries), len(records)
    _uncontrolled(game)
    _recall_loose_gear(game)
    _remove_orphaned_hidden_cards(game)
    _lift_contested(game)
    if len(journal.entries) != journal_mark or len(records) != trace_mark:
        journal.changed |= BOARD_CHECKS_READS


def _uncontrolled(game: Game) -> None:
    """A battlefield left without units and not contested is lost in a Cleanup; when, the versions disagree
    (`control_of_a_battlefield_left_empty`): in any Cleanup up to 2025-12-01 (its 184.4.c, 322.6), only in an Open
    State with no Showdown or Combat there from Core Rules 1.4 (323.6): while the Chain exists its controller
    keeps it (and its facedown cards), and the check is due again at the next Cleanup."""
    for bf in game.battlefield_objects:
        if bf.battlefield_controller and not bf.contested_by and not game.has_units(bf.id):
            if calc.control_can_lapse(game, bf.id):
                do.lose_control(game, bf, because=game.reading(EMPTY_BATTLEFIELD).cited)
            else:
                game.journal.changed |= BOARD_CHECKS_READS


EMPTY_BATTLEFIELD: Final = "control_of_a_battlefield_left_empty"


@query("control_can_lapse")
def control_can_lapse(game: Game, bf_id: str) -> bool:
    """Any Cleanup, or (Core Rules 1.4, 323.6) an Open State (no Chain) with no Showdown or Combat there."""
    if game.reading(EMPTY_BATTLEFIELD).choice == "any_cleanup":
        return True
    return not game.chain and not _showdown_or_combat_at(game, bf_id)


def _showdown_or_combat_at(game: Game, bf_id: str) -> bool:
    return any(ongoing is not None and ongoing.battlefield == bf_id for ongoing in (game.showdown, game.combat))


def _lift_contested(game: Game) -> None:
    """From Core Rules 1.4 a battlefield whose contesting player has no unit left there, with no Showdown or
    Combat ongoing there, stops being Contested (323.11); then units there of a player who does not control it
    contest it anew (323.11.a). Earlier versions keep it Contested until control is established (184.3.b of 2025-12-01,
    `contested_without_its_contester`), noted once while that lasts."""
    kept = {}
    for bf in game.battlefield_objects:
        if not bf.contested_by or any(u.controller == bf.contested_by for u in game.units(bf.id)):
            continue
        if _showdown_or_combat_at(game, bf.id):
            continue
        reading = game.reading("contested_without_its_contester")
        if reading.choice != "removed":
            kept[bf.id] = (
                f"{bf.contested_by}, who contested {bf.id}, has no unit left there: it stays Contested until "
                "control is established"
            )
            continue
        do.lift_contested(game, bf, because=reading.rule("lifted"))
        others = {u.controller for u in game.units(bf.id)} - {bf.battlefield_controller}
        if len(others) == 1:
            do.apply_contested(game, bf, others.pop(), because=reading.rule("contested_by_the_other"))
    because = game.reading("contested_without_its_contester").cited if kept else ()
    standing_notes(game, StepKind.CLEANUP, "contested_kept", kept, because)


@procedure(
    "lift_contested",
    StepKind.CLEANUP,
    summary=lambda g, bf: f"{bf.contested_by}, who contested {bf.id}, has no unit left there: no longer Contested",
    objects=lambda g, bf: [bf.id],
)
def lift_contested(game: Game, bf) -> None:
    bf.contested_by = None
    bf.staged = None


def _recall_loose_gear(game: Game) -> None:
    for gear in game.gear_objects:
        if gear.zone == BOARD and not gear.attached_to and game.is_battlefield(gear.location):
            do.recall(game, gear.id, because=("323.7", "457.1"))


def _remove_orphaned_hidden_cards(game: Game) -> None:
    """323.7: hidden cards at battlefields their owner no longer controls go to the trash."""
    for card in [
        o
        for o in game.objects.values()
        if o.zone == FACEDOWN
        and game.is_battlefield(o.location)
        and game.objects[o.location].battlefield_controller != o.owner
    ]:
        do.trash_hidden(game, card, because="323.7")


@procedure(
    "trash_hidden",
    StepKind.CLEANUP,
    defines=("107.3.d",),
    summary=lambda g, card: f"{card.id} is hidden at {card.location}, which its owner no longer controls: trashed",
    objects=lambda g, card: [card.id],
)
def trash_hidden(game: Game, card) -> None:
    card.zone, card.location = TRASH, None
