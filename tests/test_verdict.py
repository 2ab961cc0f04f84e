"""The steps that decide a replay's outcome (rules_db/verdict.py): the steps a what-if flips, found by replaying
what-ifs, and the first step after which a what-if's outcome differs from the original's."""

from __future__ import annotations

import yaml

from rules_db import replay_view, verdict
from scenarios import library_paths

DAMAGE = next(path for path in library_paths() if path.name.startswith("ruling-44-"))


def _view(path, changes=None):
    return replay_view.view(path.read_text(), path.name, changes=changes)


def test_each_deciding_step_is_flipped_by_its_what_ifs_and_sets_an_outcome_value():
    """Every what-if named beside a deciding step, replayed, changes the outcome; the step is where the original
    sets a value that the what-if's outcome has otherwise (or where the two runs part)."""
    checked = 0
    for path in library_paths()[::15]:
        original = _view(path)
        for decided in original["decided"]:
            assert 1 <= decided["number"] <= len(original["steps"])
            for change in decided["flips"]:
                comparison = replay_view.compare(original, _view(path, [change]))
                assert comparison["flipped"], (path.stem, change)
                checked += 1
    assert checked >= 5


def test_a_combat_is_decided_where_its_units_die():
    original = _view(DAMAGE)
    decided = {d["number"]: d for d in original["decided"]}
    words = {number: original["steps"][number - 1]["summary"] for number in decided}
    assert any("a1 is killed" in said for said in words.values()), words
    assert all(1 <= len(d["flips"]) <= verdict.MAX_FLIPS for d in decided.values())
    assert len(decided) <= verdict.MAX_DECIDING


def test_a_what_if_names_the_first_step_whose_outcome_differs_not_only_the_first_different_words():
    """A stunned defender deals no combat damage: the runs' words part at the first step naming the stun's
    effect, their outcome only where the attacker would have died."""
    original = _view(DAMAGE)
    stunned = _view(DAMAGE, [{"path": "setup.battlefields.0.units.0.stunned", "value": True}])
    comparison = replay_view.compare(original, stunned)
    assert comparison["flipped"]
    number = comparison["deciding"]
    assert number is not None and comparison["divergence"] is not None
    assert number > comparison["divergence"]  # the words part earlier than the outcome does
    changed_there = {n for n, _ in original["outcome_trail"]} | {n for n, _ in stunned["outcome_trail"]}
    assert number in changed_there  # a value of the outcome changes in one of the runs at that very step
    assert "killed" in original["steps"][number - 1]["summary"] or "killed" in stunned["steps"][number - 1]["summary"]


def test_first_outcome_difference_reads_change_points_and_ignores_a_difference_made_in_the_setup():
    one = verdict.trail([{("d1", "zone"): "bf1"}, {("d1", "zone"): "bf1"}, {("d1", "zone"): "trash"}])
    assert one == [[0, {"d1.zone": verdict._print("bf1")}], [2, {"d1.zone": verdict._print("trash")}]]
    assert verdict.first_outcome_difference(one, one) is None
    lives = verdict.trail([{("d1", "zone"): "bf1"}] * 3)
    assert verdict.first_outcome_difference(one, lives) == 2
    # a what-if of the setup (d1's Might) differs before the first step: the step that matters is where d1 dies
    mighty = verdict.trail([{("d1", "might"): 7, ("d1", "zone"): "bf1"}] * 4)
    weak = verdict.trail(
        [{("d1", "might"): 6, ("d1", "zone"): "bf1"}] * 3 + [{("d1", "might"): 6, ("d1", "zone"): "trash"}]
    )
    assert verdict.first_outcome_difference(mighty, weak) == 3


def test_a_dispute_stating_no_outcome_is_judged_on_where_the_cards_end_up():
    view = replay_view.view(_without_checks(DAMAGE.read_text()), "your dispute")
    assert view["error"] is None and view["outcome"] == []
    assert view["decided"], "the board's outcome (units dying) has steps that decide it"
    assert any("killed" in view["steps"][d["number"] - 1]["summary"] for d in view["decided"])


def _without_checks(text: str) -> str:
    """A library scenario as a dispute typed in: its setup and actions, no expectations, checkpoints or variants."""
    document = yaml.safe_load(text)
    for key in ("expect", "checkpoints", "variants"):
        document.pop(key, None)
    for action in document["actions"]:
        action.pop("expect_refusal", None)
    document["actions"] = [a for a in document["actions"] if a.get("card") != "charm"]
    return yaml.safe_dump(document, sort_keys=False)


def test_a_view_asked_without_its_deciding_steps_replays_no_what_if(monkeypatch):
    """The dispute builder shows its own verdict: its view skips verdict.deciding (two dozen what-ifs replayed),
    with the same steps and outcome as the full view."""
    full = _view(DAMAGE)
    asked = []
    monkeypatch.setattr(verdict, "deciding", lambda *args: asked.append(args) or [])
    bare = replay_view.view(DAMAGE.read_text(), DAMAGE.name, deciding=False)
    assert not asked and bare["decided"] == [] and full["decided"]
    assert bare["steps"] == full["steps"] and bare["outcome"] == full["outcome"]


def test_the_builders_verdict_says_each_object_whose_outcome_the_deciding_steps_read_changed():
    """One outcome (verdict.outcome_spec) for a dispute stating none: the objects the builder's verdict says
    something of are those whose outcome values the replay's trail changes from the start to the end."""
    from rules_db import dispute

    view = replay_view.view(_without_checks(DAMAGE.read_text()), "your dispute", deciding=False)
    start = dict(view["outcome_trail"][0][1])
    end = dict(start)
    for _, changed in view["outcome_trail"][1:]:
        end.update(changed)
    objects = {key.split(".")[0] for key in end if end[key] != start.get(key)} - {"players", "winner"}
    said = {row["words"][0]["object"] for row in dispute.verdict(view)["rows"] if "object" in row["words"][0]}
    assert said and said == objects
