"""Engine outcomes an independent check against Riot's FAQs found wrong, judged by read-card disputes 743-755:
a card an effect banishes to play that can't be played stays banished (358.2, 358.5; Origins FAQ q35/q36,
Spiritforged q1), a "-Might" snapshot to -0 is no "-Might" given to replace (477.3.b; Vendetta FAQ q22), and
"Its controller draws 2" reads no controller of a unit a replacement banished instead of killing (359.3.e.12,
359.3.e.14; Vendetta FAQ q34). Each mutant puts back the misreading the disputes caught."""

from __future__ import annotations

from pathlib import Path

import pytest
from read_cards import read_every_card, verdicts_with

from scenarios import kernel

MINE = sorted(
    p
    for p in (Path(__file__).parent / "data" / "read_card_disputes").glob("read-7*.yaml")
    if int(p.name.split("-")[1]) in (743, 744, 745, 750, 752, 755)
)


def _verdicts(real_db) -> list[str]:
    return verdicts_with(read_every_card(real_db), MINE)


def test_my_disputes_are_here_and_match(real_db):
    assert len(MINE) == 6
    verdicts = _verdicts(real_db)
    assert len(verdicts) == 6 + 7  # and a variant of each (two of 755's), its outcome flipped
    assert set(verdicts) == {"match"}


def _costs_never_checked(original):
    """The play of a card an effect plays goes ahead as if its additional cost could always be paid."""
    return lambda game, card, player: None


def _last_controller_whatever_moved_it(original):
    """ "Its controller" read as the last controller of any object off the board, whatever moved it."""

    def mutant(game, run, object_id):
        obj = game.objects[object_id]
        return obj.controller if obj.zone == "board" else (obj.left_controller or obj.owner)

    return mutant


def _no_snapshot(original):
    """A decrease "to a minimum of 1" given in full, its limit not snapshot as it is given (477.3.b)."""
    return lambda game, unit, amount, minimum: amount


@pytest.mark.parametrize(
    ("name", "mutation"),
    [
        ("additional_cost_problem", _costs_never_checked),
        ("linked_controller", _last_controller_whatever_moved_it),
        ("snapshot_modifier", _no_snapshot),
    ],
)
def test_my_disputes_kill_the_misreading(real_db, monkeypatch, name, mutation):
    monkeypatch.setitem(kernel.QUERIES, name, mutation(kernel.QUERIES[name]))
    assert "mismatch" in _verdicts(real_db)
