"""Figures of the replays' citations, from a built database (issue 30): per rules version a replay is judged under,
its steps, the steps whose `because` (the rule that made the step happen) is lost when the engine's citations are
translated into that version, and the steps that cite a bare section heading (a rule whose only words are its
heading, "Step 3: Pass", where a numbered sub-rule says the thing).

    .venv/bin/python benchmarks/citation_figures.py [--db data/rules.db]

The stored replays give the steps and their citations; `because` is not stored apart from the rules that define a
step, so the library is replayed here and each step's `because` translated as the build translates it.
"""

from __future__ import annotations

import argparse
from collections import Counter

import sqlite_utils

from rules_db.replays import CitationTranslator


def stored_figures(db: sqlite_utils.Database) -> tuple[Counter, Counter, Counter]:
    """Per version judged under: stored steps, steps citing a bare heading, and which headings they cite."""
    steps, bare, headings = Counter(), Counter(), Counter()
    for row in db.query(
        "select d.version, count(*) n from replay_steps s join replays r on r.id = s.replay_id "
        "join documents d on d.id = r.rules_document_id group by d.version"
    ):
        steps[row["version"]] = row["n"]
    for row in db.query(
        "select d.version, count(distinct s.id) n from replay_steps s join replays r on r.id = s.replay_id "
        "join documents d on d.id = r.rules_document_id join replay_step_citations c on c.step_id = s.id "
        "join rules h on h.id = c.rule_id where coalesce(h.heading, '') != '' group by d.version"
    ):
        bare[row["version"]] = row["n"]
    for row in db.query(
        "select d.version, h.number, h.heading, count(distinct s.id) n from replay_steps s "
        "join replays r on r.id = s.replay_id join documents d on d.id = r.rules_document_id "
        "join replay_step_citations c on c.step_id = s.id join rules h on h.id = c.rule_id "
        "where coalesce(h.heading, '') != '' group by d.version, h.id"
    ):
        headings[(row["version"], row["number"], row["heading"])] = row["n"]
    return steps, bare, headings


def unexplained(db: sqlite_utils.Database) -> tuple[Counter, Counter, Counter]:
    """Per version judged under: the library's steps, those whose `because` translates to nothing, and by
    procedure."""
    import scenarios
    from scenarios.replay import replay_file

    steps, lost, procedures = Counter(), Counter(), Counter()
    translators: dict[tuple[str, str], CitationTranslator] = {}
    for path in scenarios.library_paths():
        replay = replay_file(path)
        pair = (replay.cited_version, replay.rules_version)
        if pair not in translators:
            translators[pair] = CitationTranslator(db, "riftbound", *pair)
        translate = translators[pair]
        for _, step in replay.walk():
            steps[replay.rules_version] += 1
            if not kept_because(translate, step.because, step.rules):
                lost[replay.rules_version] += 1
                procedures[(replay.rules_version, step.procedure)] += 1
    return steps, lost, procedures


def kept_because(translate: CitationTranslator, because, rules) -> list[str]:
    """The step's `because` as the build stores it: a step's rules are translated together (`CitationTranslator`),
    each to its counterpart, or, when none of them has one, each to its nearest ancestor's."""
    if any(translate.direct(number) for number in rules):
        return [found for number in because if (found := translate.direct(number))]
    return [found for number in because if (found := translate.nearest(number))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default="data/rules.db")
    parser.add_argument("--top", type=int, default=12, help="how many headings and procedures to list")
    args = parser.parse_args()
    db = sqlite_utils.Database(args.db)
    stored, bare, headings = stored_figures(db)
    replayed, lost, procedures = unexplained(db)
    print(f"{'judged under':<14}{'steps':>8}{'no because':>12}{'bare heading':>14}")
    for version in sorted(set(stored) | set(replayed)):
        print(f"{version:<14}{stored[version]:>8}{lost[version]:>12}{bare[version]:>14}")
    total = sum(stored.values())
    print(f"{'all':<14}{total:>8}{sum(lost.values()):>12}{sum(bare.values()):>14}")
    if procedures:
        print("\nsteps without a because, by procedure:")
        for (version, name), count in procedures.most_common(args.top):
            print(f"  {version} {name}: {count}")
    if headings:
        print("\nbare headings cited (steps):")
        for (version, number, heading), count in headings.most_common(args.top):
            print(f"  {version} {number} {heading!r}: {count}")


if __name__ == "__main__":
    main()
