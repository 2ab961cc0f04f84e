"""The library's setups hold what their actions need: no replay (as ruled, or any variant) runs into a burn-out from
an empty deck unless burning out is what the scenario is about (its tags name it). A burn-out nobody asked about
pads the replay with steps and a point that have nothing to do with the ruling."""

from __future__ import annotations

import yaml

from scenarios import library_paths
from scenarios.replay import replay_file, replay_variant


def _burns_out(replay) -> bool:
    return any(step.procedure == "burn_out" for _, step in replay.state.trace.steps())


def test_no_library_replay_burns_out_unless_burning_out_is_its_subject():
    unasked, subjects = [], 0
    for path in library_paths():
        document = yaml.safe_load(path.read_text())
        about_burning_out = "burn-out" in (document["meta"].get("tags") or [])
        runs = [(None, replay_file(path))]
        runs += [(variant["id"], replay_variant(path, variant["id"])) for variant in document.get("variants") or []]
        for variant, replay in runs:
            if _burns_out(replay):
                subjects += about_burning_out
                if not about_burning_out:
                    unasked.append(f"{path.stem}{f' ({variant})' if variant else ''}")
    assert unasked == [], f"burned out from an empty deck, not the scenario's subject: {unasked}"
    assert subjects >= 5  # the burn-out scenarios themselves still burn out
