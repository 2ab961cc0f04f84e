"""The cards as the engine can use them: each card's text in force read by `scenarios.card_reader` at build
time into `card_readings` (read with its definition, or unread with the words it could not read), the coverage
the CLI and the coverage page show, and the cards a replay or the dispute builder may use (every fully read card
plus the hand-written ones of scenarios/cards.yaml, which override a reading of the same card).
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Any

import sqlite_utils

from rules_db import guard
from scenarios.card_reader import CardText, read_card
from scenarios.cards import Card, all_cards, use_read_cards

# A card's set: the first set that printed it, by release date (a reprint keeps it in its first set).
_CARDS = """
select c.id, c.name, c.card_type, coalesce(c.current_text, c.ability_text, '') as text, c.energy, c.power,
       c.might, c.domain, c.tags, c.might_bonus,
       (select p.card_set from card_printings p left join sets s on s.name = p.card_set and s.game_id = c.game_id
         where p.card_id = c.id order by coalesce(s.release_date, '9999'), p.card_set limit 1) as card_set
from cards c
where c.game_id = ? and c.in_card_list = 1 and lower(c.card_type) not in ('rune', 'token')
order by c.id
"""


def _split(value: str | None) -> tuple[str, ...]:
    return tuple(part.strip() for part in (value or "").split(",") if part.strip())


def card_text(row: dict) -> CardText:
    return CardText(
        name=row["name"],
        card_type=row["card_type"] or "",
        text=row["text"] or "",
        energy=row["energy"],
        power=row["power"],
        might=row["might"],
        domains=_split(row["domain"]),
        tags=_split(row["tags"]),
        might_bonus=row["might_bonus"],
    )


def store_readings(db: sqlite_utils.Database, game_id: str) -> dict:
    """Read every card of the game (units, spells, gear, legends, battlefields) into card_readings."""
    db.execute("delete from card_readings where game_id = ?", [game_id])
    rows = []
    for row in db.query(_CARDS, [game_id]):
        reading = read_card(card_text(row))
        rows.append(
            {
                "card_id": row["id"],
                "game_id": game_id,
                "card_set": row["card_set"] or "",
                "status": reading.status,
                "definition": json.dumps(reading.definition) if reading.definition else None,
                "unread": json.dumps(reading.unread),
                "templates": json.dumps(sorted(set(reading.templates))),
            }
        )
    db.table("card_readings").insert_all(rows)
    read = sum(row["status"] == "read" for row in rows)
    return {"cards read fully": f"{read} of {len(rows)}"}


def _phrase(phrase: str) -> str:
    return re.sub(r"\d+", "N", phrase)


def coverage(conn: sqlite3.Connection, top: int = 15) -> dict[str, Any]:
    """Per set: cards read fully of all; the whole; the most frequent unread phrases (numbers as N)."""
    sets = []
    for card_set, read, total in conn.execute(
        "select card_set, sum(status = 'read'), count(*) from card_readings group by card_set "
        "order by (select min(release_date) from sets s where s.name = card_set), card_set"
    ):
        sets.append({"set": card_set or "(no set)", "read": read, "total": total})
    phrases: Counter[str] = Counter()
    for (unread,) in conn.execute("select unread from card_readings where status = 'unread'"):
        phrases.update({_phrase(p) for p in json.loads(unread)})
    read = sum(s["read"] for s in sets)
    total = sum(s["total"] for s in sets)
    return {"sets": sets, "read": read, "total": total, "phrases": phrases.most_common(top)}


def unread_cards(conn: sqlite3.Connection, card_set: str | None = None) -> list[dict[str, Any]]:
    """Each card not read, with its set, text in force and the words the reader could not read."""
    rows = conn.execute(
        "select c.name, c.slug, r.card_set, coalesce(c.current_text, ''), r.unread from card_readings r "
        "join cards c on c.id = r.card_id where r.status = 'unread' and (? is null or r.card_set = ?) "
        "order by r.card_set, c.name",
        [card_set, card_set],
    )
    return [
        {"name": name, "slug": slug, "set": s, "text": text, "unread": json.loads(unread)}
        for name, slug, s, text, unread in rows
    ]


def coverage_lines(conn: sqlite3.Connection) -> list[str]:
    """What `rules-db cards --coverage` prints: a line per set, the total last, then the unread phrases."""
    found = coverage(conn)
    lines = [f"{s['set']}: {s['read']} of {s['total']} read fully ({_percent(s)})" for s in found["sets"]]
    lines.append(f"cards read fully: {found['read']} of {found['total']} ({_percent(found)})")
    lines += ["most frequent unread phrases:"] + [f"  {n:4d}  {phrase}" for phrase, n in found["phrases"]]
    return lines


def _percent(counts: dict) -> str:
    return f"{100 * counts['read'] / counts['total']:.0f}%" if counts["total"] else "-"


@lru_cache(maxsize=4)
def read_definitions(db_path: Path) -> dict[str, dict[str, Any]]:
    """Card name -> the definition read for it (cards read fully), from a built database; {} when it has none."""
    if not Path(db_path).exists():
        return {}
    conn = guard.read_only(db_path)
    try:
        return {
            name: json.loads(definition)
            for name, definition in conn.execute(
                "select c.name, r.definition from card_readings r join cards c on c.id = r.card_id "
                "where r.status = 'read'"
            )
        }
    except sqlite3.OperationalError:  # a database built before card_readings existed
        return {}
    finally:
        conn.close()


# The database whose read cards a replay uses: named by this environment variable (inherited by worker
# processes; the tests set it), else the one `rules-db serve` serves, else the default one.
_DATABASE_ENV = "RULES_DB_READ_CARDS"


def database_path() -> Path:
    if os.environ.get(_DATABASE_ENV):
        return Path(os.environ[_DATABASE_ENV])
    served = os.environ.get("RULES_DB_SERVE")  # rules_db.serve's settings of the served database
    if served:
        return Path(json.loads(served)["db"])
    return Path("data/rules.db")


def load_read_cards(db_path: Path | None = None) -> None:
    """Hand the engine (scenarios.cards.use_read_cards) the cards read fully from their text in the database at
    `db_path`, else at `database_path()`: the one way the engine gets its read cards. Costs nothing once done
    (the definitions are kept per database file, and handing the same ones again is skipped)."""
    use_read_cards(read_definitions(db_path or database_path()))


def engine_cards() -> dict[str, Card]:
    """Every card the engine can use: the hand-written ones and every card read fully from its text (a
    hand-written one overrides the reading of its card)."""
    load_read_cards()
    return all_cards()


# -- the oracle: the hand-written cards of scenarios/cards.yaml against their readings ------------------------

_NOT_BEHAVIOUR = {"name", "real", "made_up", "text", "note", "label", "domains", "tags"}


def _canonical(definition: dict[str, Any]) -> Any:
    """A definition's behaviour, comparable: defaults filled and dropped (the Card model), labels and words left
    out, and each ability's target slots renamed by their order ("target", "unit" -> "slot1")."""
    dumped = Card.model_validate(definition).model_dump(exclude_defaults=True)
    return _strip(_renamed(dumped))


def _renamed(node: Any) -> Any:
    if isinstance(node, list):
        return [_renamed(item) for item in node]
    if not isinstance(node, dict):
        return node
    if isinstance(node.get("targets"), dict) and node["targets"]:
        names = {slot: f"slot{i}" for i, slot in enumerate(node["targets"], 1)}
        node = _replace(node, names)
    return {key: _renamed(value) for key, value in node.items()}


def _replace(node: Any, names: dict[str, str]) -> Any:
    if isinstance(node, dict):  # a slot named like a card type ("unit") leaves the types alone
        return {names.get(k, k): v if k == "type" else _replace(v, names) for k, v in node.items()}
    if isinstance(node, list):
        return [_replace(item, names) for item in node]
    if isinstance(node, str):
        if node in names:
            return names[node]
        head, colon, tail = node.partition(":")
        if colon and tail in names:
            return f"{head}:{names[tail]}"
        if node.startswith("at ") and node[3:] in names:  # a place named by a slot: "where: at destination"
            return f"at {names[node[3:]]}"
    return node


def _strip(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _strip(v) for k, v in node.items() if k not in _NOT_BEHAVIOUR}
    if isinstance(node, list):
        return [_strip(item) for item in node]
    return node


def oracle(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """Each real card of scenarios/cards.yaml: equal (its reading's behaviour is the hand-written one's), or
    differs (both shown), or unread (the words not read)."""
    from scenarios.cards import load_library

    readings = {
        name: (status, definition, unread)
        for name, status, definition, unread in conn.execute(
            "select c.name, r.status, r.definition, r.unread from card_readings r join cards c on c.id = r.card_id"
        )
    }
    results = []
    for card in load_library().values():
        if not card.real or card.type in ("token", "rune"):  # the five sets' cards: tokens and runes aside
            continue
        status, definition, unread = readings.get(card.real, ("missing", None, "[]"))
        hand = _canonical(card.model_dump(exclude_defaults=True))
        if status != "read":
            results.append({"card": card.real, "result": status, "unread": json.loads(unread), "hand": hand})
            continue
        read = _canonical(json.loads(definition))
        fields = sorted(key for key in set(read) | set(hand) if read.get(key) != hand.get(key))
        results.append(
            {
                "card": card.real,
                "result": "differs" if fields else "equal",
                "fields": fields,
                "read": read,
                "hand": hand,
            }
        )
    return results


def oracle_lines(conn: sqlite3.Connection) -> list[str]:
    """What `rules-db cards --oracle` prints: each real hand-written card not equal to its reading, and the count."""
    results = oracle(conn)
    lines = []
    for result in results:
        if result["result"] == "differs":
            lines.append(f"differs  {result['card']}: " + ", ".join(result["fields"]))
        elif result["result"] != "equal":
            lines.append(f"{result['result']:8} {result['card']}: " + " | ".join(result.get("unread", [])))
    equal = sum(r["result"] == "equal" for r in results)
    lines.append(f"hand-written real cards equal to their reading: {equal} of {len(results)}")
    return lines


def coverage_page(conn: sqlite3.Connection, card_set: str | None = None) -> dict[str, Any]:
    """What the coverage page shows: the coverage per set and in total, and the unread cards (of one set)."""
    found = coverage(conn, top=20)
    sets = {s["set"] for s in found["sets"]}
    chosen = card_set if card_set in sets else None
    return {
        "coverage": {**found, "phrases": [{"phrase": p, "cards": n} for p, n in found["phrases"]]},
        "set": chosen,
        "unread": unread_cards(conn, chosen),
    }
