"""Storing scenario replays: each replay, its steps in order (nested through
parent_step_id), the rules each step cites, linked to the rules of the
version the scenario names, and the real cards its scenario uses."""

from __future__ import annotations

import json
from pathlib import Path

import sqlite_utils
import yaml

from rules_db import versions
from scenarios.cards import load_library


def store_replays(db: sqlite_utils.Database, replays: list, game_id: str = "riftbound") -> dict:
    rulings = {
        row["position"]: row["id"]
        for row in db.query(
            "select r.position, r.id from rulings r join documents d on d.id = r.document_id where d.game_id = ?",
            [game_id],
        )
    }
    step_id = db.execute("select coalesce(max(id), 0) from replay_steps").fetchone()[0]
    steps, citations, uncited, used_cards = [], [], set(), []
    card_ids = _card_ids(db, game_id)
    for replay in replays:
        document = versions.rules_document(db, game_id, replay.rules_version)
        document_id = document["id"] if document else None
        rule_ids = _rule_ids(db, document_id)
        db["replays"].insert(
            {
                "id": replay.scenario_id,
                "ruling_id": rulings.get(replay.ruling_position),
                "title": replay.title,
                "file": replay.file,
                "rules_document_id": document_id,
                "verdict": replay.verdict,
                "expected": json.dumps(replay.expected, sort_keys=True, default=str),
                "computed": json.dumps(replay.computed, sort_keys=True, default=str),
                "step_count": replay.step_count,
                "disagreement": replay.disagreement,
            }
        )
        used_cards += [
            {"replay_id": replay.scenario_id, "card_id": card_id}
            for card_id in sorted({card_ids[name] for name in _real_cards(replay.file) if name in card_ids})
        ]
        parents: list[int] = []
        for position, (depth, step) in enumerate(replay.walk(), start=1):
            step_id += 1
            del parents[depth:]
            steps.append(
                {
                    "id": step_id,
                    "replay_id": replay.scenario_id,
                    "position": position,
                    "parent_step_id": parents[-1] if parents else None,
                    "depth": depth,
                    "kind": step.kind,
                    "summary": step.summary,
                    "objects": json.dumps(step.objects),
                    "change": json.dumps(step.change, sort_keys=True, default=str),
                }
            )
            parents.append(step_id)
            for number in step.rules:
                citations.append({"step_id": step_id, "rule_id": rule_ids.get(number), "number": number})
                if number not in rule_ids:
                    uncited.add(f"{replay.rules_version} {number}")
    db["replay_steps"].insert_all(steps)
    db["replay_step_citations"].insert_all(citations)
    db["replay_cards"].insert_all(used_cards)
    return {
        "replays": len(replays),
        "matching": sum(r.verdict == "match" for r in replays),
        "replay steps": len(steps),
        "step citations": len(citations),
        "replay cards": len(used_cards),
        "citations of missing rules": sorted(uncited),
    }


def _rule_ids(db: sqlite_utils.Database, document_id: str | None) -> dict[str, int]:
    return (
        {
            row["number"]: row["id"]
            for row in db.query("select number, id from rules where document_id = ?", [document_id])
        }
        if document_id
        else {}
    )


def _card_ids(db: sqlite_utils.Database, game_id: str) -> dict[str, int]:
    return {row["name"]: row["id"] for row in db.query("select name, id from cards where game_id = ?", [game_id])}


def _real_cards(scenario_file: str) -> set[str]:
    """The real card names a scenario file uses: every ``card:`` value (setup, actions, variants)
    that names a library card modelling a real one. Action ``card:`` values are object ids,
    which name no library card, so they drop out; made-up test cards have no real name."""
    if not scenario_file or not Path(scenario_file).is_file():
        return set()
    library = load_library()
    document = yaml.safe_load(Path(scenario_file).read_text(encoding="utf-8"))
    return {library[name].real for name in _card_values(document) if name in library and library[name].real}


def _card_values(node) -> set[str]:
    if isinstance(node, dict):
        found = {node["card"]} if isinstance(node.get("card"), str) else set()
        return found.union(*(_card_values(value) for value in node.values()))
    if isinstance(node, list):
        return set().union(*(_card_values(value) for value in node))
    return set()
