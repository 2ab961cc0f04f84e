"""Check that a change to the engine leaves every trace as it was: each replay of the library (every scenario and
every variant) and each generated long game is reduced to a fingerprint (a SHA-256 of its whole trace tree, every
step's kind, summary, rules, objects and change, with its outcome, its game log, its final board, the legal actions then, and the
board after popping every action), and the fingerprints of this tree are compared with those of another revision.

    .venv/bin/python benchmarks/trace_fingerprints.py --against main      # exit status 1 when any differs
    .venv/bin/python benchmarks/trace_fingerprints.py --write FILE        # this tree's fingerprints, as JSON

`--against REV` checks REV out in a temporary git worktree and runs this script there (with this environment's
packages, REV's engine and library, this script's long games), so a speed change to the engine is proved
trace-identical before it lands.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
LONG_GAMES = (1_000, 3_000)  # actions: long enough that anything growing with the game shows


def fingerprint(replay) -> str:
    """The SHA-256 of everything a reader of the replay can see, and of what `pop` restores."""
    game = replay.state
    seen = {
        "verdict": replay.verdict,
        "computed": replay.computed,
        "mismatches": replay.mismatches,
        "trace": [root.to_dict() for root in replay.steps],
        "outcome": [game.outcome().winner, game.outcome().points, game.outcome().reason],
        "board": game.board(),
        "log": game.log,
        "legal": [action.to_dict() for action in game.legal_actions()],
    }
    while game.history:
        game.pop()
    seen["board_after_popping_all"] = game.board()
    seen["steps_after_popping_all"] = game.trace.count()
    text = json.dumps(seen, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def fingerprints() -> dict[str, str]:
    sys.path.insert(0, str(HERE))
    from bench_replay import generated_scenario

    from scenarios import library_paths, schema
    from scenarios.replay import replay_file, replay_variant

    found = {}
    for path in library_paths():
        found[path.name] = fingerprint(replay_file(path))
        for variant in schema.load(path)[0].variants:
            found[f"{path.name} [{variant.id}]"] = fingerprint(replay_variant(path, variant.id))
    with tempfile.TemporaryDirectory() as folder:
        for count in LONG_GAMES:
            found[f"long game of {count} actions"] = fingerprint(replay_file(generated_scenario(count, Path(folder))))
    return found


def fingerprints_at(revision: str) -> dict[str, str]:
    """The fingerprints of `revision`'s engine and library, computed in a temporary worktree of it."""
    root = Path(
        subprocess.run(
            ["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True, check=True
        ).stdout.strip()
    )
    with tempfile.TemporaryDirectory() as folder:
        tree = Path(folder) / "tree"
        subprocess.run(
            ["git", "-C", str(root), "worktree", "add", "--detach", str(tree), revision],
            check=True,
            capture_output=True,
        )
        try:
            out = Path(folder) / "fingerprints.json"
            subprocess.run(
                [sys.executable, __file__, "--write", str(out)],  # this script, that engine
                cwd=tree,
                env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
                check=True,
            )
            return json.loads(out.read_text())
        finally:
            subprocess.run(["git", "-C", str(root), "worktree", "remove", "--force", str(tree)], check=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", type=Path, help="write this tree's fingerprints to this JSON file")
    parser.add_argument("--against", help="a git revision whose fingerprints this tree's must equal")
    args = parser.parse_args()
    ours = fingerprints()
    if args.write:
        args.write.write_text(json.dumps(ours, indent=1, sort_keys=True), encoding="utf-8")
    if not args.against:
        return 0
    theirs = fingerprints_at(args.against)
    differ = sorted(name for name in ours.keys() & theirs.keys() if ours[name] != theirs[name])
    for name in differ:
        print(f"DIFFERS: {name}")
    only = sorted(ours.keys() ^ theirs.keys())
    for name in only:
        print(f"in one revision only: {name}")
    print(
        f"{len(ours.keys() & theirs.keys()) - len(differ)} of {len(ours.keys() & theirs.keys())} traces identical to {args.against}"
    )
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
