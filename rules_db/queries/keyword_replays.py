"""A keyword's replays page: the library replays whose steps cite a keyword's glossary rule or one of its sub-rules,
in the version of the rules each replay was judged under, and whether the engine plays the keyword itself."""

from __future__ import annotations

import json
import sqlite3

from rules_db.queries.common import RULE_REF, select_all, select_one
from scenarios.kernel import KEYWORDS, load_rules


def keyword_replays(conn: sqlite3.Connection, game: str, term: str) -> dict | None:
    """The keyword ``term`` of ``game`` (in any case): its name and defining rule in each version that defines it,
    the engine's registration of it (``kernel.KEYWORDS``: its rule and whether it carries a number) or None, and
    the library replays citing its rules, each with the rules cited (rows of ``RULE_REF``). None when neither the
    game's rules nor the engine know the keyword."""
    versions = select_all(
        conn,
        f"""select k.term, {RULE_REF} from keywords k join rules r on r.id = k.rule_id
        join documents d on d.id = r.document_id
        where k.game_id = ? and k.term = ? collate nocase order by d.version desc, r.position""",
        [game, term],
    )
    engine = _engine_keyword(term) if game == "riftbound" else None
    if not versions and engine is None:
        return None
    cited = select_all(
        conn,
        f"""select distinct s.replay_id, {RULE_REF} from keywords k join rules kr on kr.id = k.rule_id
        join rules r on r.document_id = kr.document_id and (r.number = kr.number or r.number like kr.number || '.%')
        join documents d on d.id = r.document_id
        join replay_step_citations c on c.rule_id = r.id join replay_steps s on s.id = c.step_id
        where k.game_id = ? and k.term = ? collate nocase order by s.replay_id, r.position""",
        [game, term],
    )
    by_replay: dict[str, list[dict]] = {}
    for row in cited:
        by_replay.setdefault(row.pop("replay_id"), []).append(row)
    replays = select_all(
        conn,
        """select p.id, p.title, p.verdict, p.ruling_id, p.step_count, d.version as rules_version from replays p
        left join documents d on d.id = p.rules_document_id
        where p.id in (select value from json_each(?)) order by p.id""",
        [json.dumps(list(by_replay))],
    )
    for replay in replays:
        replay["cited"] = by_replay[replay["id"]]
    name = versions[0]["term"] if versions else (engine or {}).get("name", term)
    game_name = select_one(conn, "select name from games where id = ?", [game])
    return {
        "game": game,
        "game_name": game_name["name"] if game_name else game,
        "term": name,
        "versions": versions,
        "engine": engine,
        "replays": replays,
    }


def _engine_keyword(term: str) -> dict | None:
    load_rules()
    known = next((k for k in KEYWORDS.values() if k.name.casefold() == term.casefold()), None)
    return {"name": known.name, "rule": known.rule, "valued": known.valued} if known else None
