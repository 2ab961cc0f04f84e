"""The board after every step of a replay, read from the engine's own state (scenarios/board.py)."""

from __future__ import annotations

import json
import re

import pytest

from scenarios import library_paths
from scenarios.board import _ends, snapshot, step_boards
from scenarios.replay import replay_file

ZHONYA = next(path for path in library_paths() if path.name.startswith("ruling-03-"))


def _board_after(steps, text: str) -> dict:
    return next(board for _, step, board in steps if text in step.summary)


def test_boards_follow_the_steps_of_a_replay():
    start, steps = step_boards(replay_file(ZHONYA).state)
    defender = start["objects"]["d1"]
    assert (defender["location"], defender["might"], defender["damage"]) == ("bf1", 5, 0)
    assert start["battlefields"][0]["units"] == ["d1"] and start["players"][0]["hand"] == ["smoke", "seeker"]
    assert _board_after(steps, "it gets -4")["objects"]["d1"]["might"] == 1
    dealt = _board_after(steps, "deals 4 damage to d1")["objects"]["d1"]
    assert (dealt["location"], dealt["damage"], dealt["might_base"], dealt["might"]) == ("bf1", 4, 5, 1)
    recalled = _board_after(steps, "recall d1 to base")
    assert (recalled["objects"]["d1"]["location"], recalled["objects"]["d1"]["damage"]) == ("base", 0)
    assert recalled["objects"]["d1"]["exhausted"] is True
    assert recalled["objects"]["zh"]["zone"] == "trash" and "zh" in recalled["players"][1]["trash"]
    assert "d1" in recalled["players"][1]["base"] and recalled["battlefields"][0]["units"] == []


@pytest.mark.parametrize("path", library_paths(), ids=lambda path: path.stem[:10])
def test_every_step_of_every_library_replay_has_a_board_and_the_game_is_left_as_it_was(path):
    game = replay_file(path).state
    before, journal_length = json.dumps(snapshot(game), sort_keys=True), len(game.journal.entries)
    start, steps = step_boards(game)
    assert len(steps) == game.trace.count() and all(board["objects"] for _, _, board in steps)
    assert json.dumps(steps[-1][2], sort_keys=True) == before  # the last board is the end of the game
    assert json.dumps(snapshot(game), sort_keys=True) == before and len(game.journal.entries) == journal_length
    assert set(start["objects"]) <= set(steps[-1][2]["objects"])


def test_the_boards_asked_for_are_those_of_every_step_and_the_others_are_not_read():
    game = replay_file(ZHONYA).state
    before, journal_length = json.dumps(snapshot(game), sort_keys=True), len(game.journal.entries)
    start, steps = step_boards(game)
    wanted = {0, 2, 3, len(steps)}
    some_start, some = step_boards(game, wanted)
    assert some_start == start
    assert [board for _, _, board in some] == [
        board if number in wanted else None for number, (_, _, board) in enumerate(steps, start=1)
    ]
    assert step_boards(game, {4})[0] is None
    assert json.dumps(snapshot(game), sort_keys=True) == before and len(game.journal.entries) == journal_length


def _units(board):
    """Every unit on a board, found wherever the board nests it, by id."""
    found = {}

    def walk(value):
        if isinstance(value, dict):
            if value.get("kind") == "unit" and value.get("might") is not None:
                found[value["id"]] = value["might"]
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(board)
    return found


def test_a_might_change_shows_on_the_board_beside_its_own_step():
    """The board beside a step is the state after it and its nested steps: a "give -2 might" step whose
    "d1 has 3 Might: it gets -2" child opens before the change is written shows the changed Might."""
    checked = 0
    for path in library_paths():
        _, rows = step_boards(replay_file(path).state)
        for index, (depth, step, board) in enumerate(rows):
            if step.procedure != "give_might" or index + 1 >= len(rows) or rows[index + 1][0] <= depth:
                continue
            child = rows[index + 1][1]
            found = re.fullmatch(r"(\S+) has (-?\d+) Might.*: it gets ([-+]?\d+)", child.summary)
            if "stopped at the minimum" in child.summary:
                continue  # a passive decrease limited by a minimum, recomputed, may absorb the change (477.3.e.2.b)
            if found and found[1] in _units(board):
                unit, old, amount = found[1], int(found[2]), int(found[3])
                assert _units(board)[unit] == old + amount, (path.stem, index + 1, step.summary)
                checked += 1
    assert checked >= 2


def test_stepping_forward_never_shows_an_earlier_board_and_a_nested_step_shows_its_own_part():
    """Each step's board is read no earlier than the step before's (the journal only moves forward as a judge
    steps), and a step whose nested step does the work shows the board before that work, not after all of it:
    "A standard-moves a1" does not already show a1's combat designation."""
    for path in library_paths()[:80]:
        game = replay_file(path).state
        walked = list(game.trace.steps())
        ends = _ends(walked, game.journal.mark())
        assert ends == sorted(ends), path.stem
        for index, (_, step) in enumerate(walked):
            writing = next((child for child in step.children if child.entries), None)
            if writing is not None and index + 1 < len(walked) and walked[index + 1][1] is writing:
                assert ends[index] == writing.at, (path.stem, index + 1, step.summary)
