"""Every bundled document alone, twice, and in every ordered pair: each build succeeds or is refused with a clear
error, never a traceback (issue 35). Prints one line per build and, last, the count of tracebacks; exits non-zero
on any.

    .venv/bin/python benchmarks/build_pairs.py [--only NAME] [--jobs 2]

About 130 builds for the eleven documents of 2026-11 (each a few seconds; the Core Rules pairs replay the
scenario library): run it after a change to the build or an adapter, not in the test suite.
"""

from __future__ import annotations

import argparse
import itertools
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ingest.documents import BUNDLED

RULES_DB = Path(sys.executable).parent / "rules-db"


def build(case: tuple[Path, ...]) -> tuple[str, tuple[Path, ...], str]:
    """("ok" | "refused" | "TRACEBACK", the documents, the last line printed)."""
    with tempfile.TemporaryDirectory() as folder:
        command = [str(RULES_DB), "build", "--db", f"{folder}/x.db", *map(str, case)]
        done = subprocess.run(command, capture_output=True, text=True)
    output = done.stdout + done.stderr
    last = next((line for line in reversed(output.splitlines()) if line.strip()), "")
    verdict = "TRACEBACK" if "Traceback" in output else "ok" if done.returncode == 0 else "refused"
    return verdict, case, last[:160]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", help="only the cases naming a document whose file name contains this")
    parser.add_argument("--jobs", type=int, default=2)
    options = parser.parse_args()
    documents = [spec.path for spec in BUNDLED]
    cases = [(d,) for d in documents] + [(d, d) for d in documents] + list(itertools.permutations(documents, 2))
    if options.only:
        cases = [case for case in cases if any(options.only in path.name for path in case)]
    tracebacks = 0
    with ThreadPoolExecutor(options.jobs) as pool:
        for verdict, case, last in pool.map(build, cases):
            tracebacks += verdict == "TRACEBACK"
            print(f"{verdict:9} {' + '.join(path.name for path in case)}: {last}", flush=True)
    print(f"{len(cases)} builds, {tracebacks} tracebacks")
    return 1 if tracebacks else 0


if __name__ == "__main__":
    sys.exit(main())
