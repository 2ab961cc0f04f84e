"""Benchmark the scenario engine: the library's replays, and generated scenarios of 1,000 to 20,000 actions
replayed from a YAML file, showing that the cost per action stays flat (linear growth).

A "step" here is one player action pushed (a move, a pass, ending the turn); each action writes several
trace steps (procedures and notes), also reported. The engine records its steps flat; `tree s` is the time a reader
then takes to build them into the trace tree (once, on first read). Times are CPU time of this process (`time.process_time`),
which a machine shared with other work does not inflate; each figure is the best of `--repeat` runs.

    .venv/bin/python benchmarks/bench_replay.py [--max 20000] [--repeat 3]

The machine's load (`os.getloadavg`) is printed first: on a shared machine, measure when it is low.
"""

from __future__ import annotations

import argparse
import gc
import os
import tempfile
import time
from pathlib import Path

import yaml

from scenarios import library_paths, schema
from scenarios.replay import collector_paused, replay_file, replay_variant


def library_table(repeat: int) -> None:
    total_time = total_steps = total_actions = 0
    print(f"{'scenario':58} {'verdict':8} {'actions':>7} {'steps':>6} {'ms':>8} {'us/step':>8}")
    for path in library_paths():
        schema.load(path)  # parsed once; the replays below reuse it
        best, replay = float("inf"), None
        for _ in range(repeat):
            started = time.process_time()
            replay = replay_file(path)
            best = min(best, time.process_time() - started)
        total_time += best
        total_steps += replay.step_count
        total_actions += replay.action_count
        print(
            f"{replay.scenario_id[:58]:58} {replay.verdict:8} {replay.action_count:>7} {replay.step_count:>6} "
            f"{best * 1000:>8.2f} {best / max(1, replay.step_count) * 1e6:>8.1f}"
        )
    print(
        f"{'all ' + str(len(library_paths())) + ' scenarios':58} {'':8} {total_actions:>7} {total_steps:>6} "
        f"{total_time * 1000:>8.2f} {total_time / max(1, total_steps) * 1e6:>8.1f}"
    )
    print(f"library: {total_actions / total_time:,.0f} actions/s, {total_steps / total_time:,.0f} trace steps/s")
    started = time.process_time()
    variants = sum(1 for path in library_paths() for v in schema.load(path)[0].variants if replay_variant(path, v.id))
    print(f"variants: {variants} replayed in {(time.process_time() - started) * 1000:.0f} ms")


def generated_setup() -> dict:
    return {
        "turn": {"player": "A"},
        "victory_score": 10**9,
        # Each Draw Phase draws a card (315.4.b), and an empty Main Deck burns its player out until the opponent
        # wins (418.3.a): a game this long would need thousands of cards in each deck. Each player's draws are
        # replaced instead ("If you would draw a card, instead channel 1 rune exhausted"), so the state stays
        # the same size however long the game is.
        "players": {
            "A": {"base": [{"id": "runner", "card": "Test Unit"}, {"id": "a-ward", "card": "Stasis Ward"}]},
            "B": {"base": [{"id": "b-ward", "card": "Stasis Ward"}]},
        },
        "battlefields": [
            {
                "id": "bf1",
                "card": "Neutral Ground",
                "controller": "A",
                "units": [{"id": "guard", "card": "Test Unit", "controller": "A"}],
            },
            {
                "id": "bf2",
                "card": "Trifarian War Camp",
                "controller": "B",
                "units": [{"id": "b-guard", "card": "Test Defender", "controller": "B"}],
            },
        ],
    }


def generated_actions(count: int):
    """A runner goes back and forth while both players end their turns (holding a battlefield each turn)."""
    where = "base"
    produced = 0
    while produced < count:
        where = "bf1" if where == "base" else "base"
        for action in (
            {"by": "A", "do": "move", "units": ["runner"], "to": where},
            {"by": "A", "do": "end_turn"},
            {"by": "B", "do": "end_turn"},
        ):
            if produced == count:
                return
            produced += 1
            yield action


def generated_scenario(count: int, folder: Path) -> Path:
    path = folder / f"long-{count}.yaml"
    document = {
        "meta": {"id": f"long-{count}", "title": f"{count} actions", "ruling": 1},
        "answer": "the game goes on",
        "setup": generated_setup(),
        "actions": list(generated_actions(count)),
        "expect": {"runner": {"zone": "bf1" if -(-count // 3) % 2 else "base"}},  # where its last move took it
    }
    path.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    return path


def long_game(count: int, folder: Path, repeat: int) -> tuple[float, float, float, int]:
    """(seconds to load and validate the file, seconds to replay it, seconds to read its trace as a tree, trace
    steps), best of `repeat`. The engine records flat steps; the tree is built when a reader asks for it."""
    path = generated_scenario(count, folder)
    started = time.process_time()
    schema.load(path)
    load = time.process_time() - started
    best, read, steps = float("inf"), float("inf"), 0
    for _ in range(repeat):
        gc.collect()  # the garbage of earlier runs is not this run's cost
        started = time.process_time()
        replay = replay_file(path)
        best = min(best, time.process_time() - started)
        assert replay.verdict == "match", replay.mismatches
        with collector_paused():
            started = time.process_time()
            steps = sum(1 for _ in replay.walk())
            read = min(read, time.process_time() - started)
        assert steps == replay.step_count
    return load, best, read, steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print("load average (1, 5, 15 min): " + ", ".join(f"{load:.2f}" for load in os.getloadavg()))
    library_table(args.repeat)
    print()
    print(
        f"{'actions':>8} {'load s':>8} {'replay s':>9} {'us/action':>10} {'actions/s':>10} {'trace steps':>12} "
        f"{'steps/s':>9} {'tree s':>7}"
    )
    with tempfile.TemporaryDirectory() as folder:
        for count in [n for n in (1_000, 5_000, 10_000, 20_000) if n <= args.max]:
            load, seconds, read, steps = long_game(count, Path(folder), args.repeat)
            print(
                f"{count:>8} {load:>8.3f} {seconds:>9.3f} {seconds / count * 1e6:>10.1f} {count / seconds:>10,.0f} "
                f"{steps:>12} {steps / seconds:>9,.0f} {read:>7.3f}"
            )


if __name__ == "__main__":
    main()
