"""Benchmark the scenario engine: every library scenario's replay time and time per trace step, then a
generated scenario of 1,000 to 10,000 actions showing that the cost per action stays flat (linear growth).

    .venv/bin/python benchmarks/bench_replay.py [--max 10000]
"""

from __future__ import annotations

import argparse
import time

from scenarios import library_paths
from scenarios.replay import replay_file
from scenarios.state import GameState


def library_table() -> None:
    total_time = total_steps = 0
    print(f"{'scenario':58} {'verdict':8} {'steps':>6} {'ms':>8} {'us/step':>8}")
    for path in library_paths():
        started = time.perf_counter()
        replay = replay_file(path)
        elapsed = time.perf_counter() - started
        total_time += elapsed
        total_steps += replay.step_count
        print(
            f"{replay.scenario_id[:58]:58} {replay.verdict:8} {replay.step_count:>6} {elapsed * 1000:>8.2f} "
            f"{elapsed / max(1, replay.step_count) * 1e6:>8.1f}"
        )
    print(
        f"{'all ' + str(len(library_paths())) + ' scenarios':58} {'':8} {total_steps:>6} {total_time * 1000:>8.2f} "
        f"{total_time / max(1, total_steps) * 1e6:>8.1f}"
    )


def generated_setup() -> dict:
    """A long game: A shuttles a unit between base and a battlefield it holds; B passes its turns."""
    return {
        "turn": {"player": "A"},
        "victory_score": 10**9,
        "players": {"A": {"base": [{"id": "runner", "card": "Test Unit"}]}, "B": {}},
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


def long_game(count: int) -> tuple[float, int]:
    game = GameState(generated_setup())
    started = time.perf_counter()
    for action in generated_actions(count):
        game.push(action)
    return time.perf_counter() - started, game.trace.count()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max", type=int, default=10_000)
    args = parser.parse_args()
    library_table()
    print()
    print(f"{'actions':>8} {'seconds':>9} {'us/action':>10} {'trace steps':>12}")
    for count in [n for n in (1_000, 2_000, 5_000, 10_000) if n <= args.max]:
        seconds, steps = long_game(count)
        print(f"{count:>8} {seconds:>9.3f} {seconds / count * 1e6:>10.1f} {steps:>12}")


if __name__ == "__main__":
    main()
