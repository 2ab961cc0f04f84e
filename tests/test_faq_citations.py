"""An official FAQ's entry cited by the engine (``faq:<date>#q<N>``, scenarios/versions.py): kept by the stored
replays, resolved to its ruling on a replay page when the database holds it (a link to the ruling's page), shown
as text otherwise (never a broken link nor an error)."""

from __future__ import annotations

import re
import shutil

import pytest
import sqlite_utils
from datasette.app import Datasette

from rules_db import queries
from rules_db.serve import metadata

PREVENTED = "dispute-413-a-prevented-defender-absorbs-the-assignment"  # judged under 1.4: cites the FAQ's q11
CITATION = "faq:2026-08-14#q11"


def _copy(real_db, tmp_path, with_ruling: bool):
    """The real database with (or without) a ruling for the cited FAQ entry. When the build ingested the FAQ
    (ingest/documents.py), its own ruling is the one linked; without, the held rulings' anchors are changed so
    that none answers the citation (deleting them would leave their links to rules and rulings dangling)."""
    path = tmp_path / ("with.db" if with_ruling else "without.db")
    shutil.copy(real_db, path)
    db = sqlite_utils.Database(path)
    held = [row[0] for row in db.execute("select id from documents where version = '2026-08-14'").fetchall()]
    anchor = CITATION.partition("#")[2]
    ruling_id = None
    if not with_ruling:
        for document_id in held:
            db.execute("update rulings set anchor = 'not-' || anchor where document_id = ?", [document_id])
    else:
        found = db.execute(
            f"select id from rulings where anchor = ? and document_id in ({', '.join('?' for _ in held)}) "
            "order by id limit 1",
            [anchor, *held],
        ).fetchone()
        if found is not None:
            ruling_id = found[0]
        else:
            db.execute("pragma foreign_keys = off")
            if not held:
                db["documents"].insert(
                    {
                        "id": "test-vendetta-faq",
                        "game_id": "riftbound",
                        "title": "FAQ",
                        "version": "2026-08-14",
                        "kind": "rulings",
                    }
                )
            document_id = held[0] if held else "test-vendetta-faq"
            ruling_id = db.execute("select coalesce(max(id), 0) + 1 from rulings").fetchone()[0]
            db["rulings"].insert(
                {
                    "id": ruling_id,
                    "game_id": "riftbound",
                    "document_id": document_id,
                    "position": 11,
                    "question": "What happens during combat damage assignment if my unit has Ki Barrier and Lotus Trap?",
                    "ruling": "You can order the replacement effects on your unit.",
                    "anchor": anchor,
                    "source": "Riot Games",
                }
            )
    db.conn.commit()
    db.close()
    return path, ruling_id


def test_the_stored_replay_keeps_the_faq_citation(real_db):
    db = sqlite_utils.Database(real_db)
    rows = db.execute(
        "select c.rule_id from replay_step_citations c join replay_steps s on s.id = c.step_id "
        "where s.replay_id = ? and c.number = ?",
        [PREVENTED, CITATION],
    ).fetchall()
    assert rows and all(rule_id is None for (rule_id,) in rows)


@pytest.mark.parametrize("with_ruling", [False, True], ids=["no-ruling-text", "ruling-link"])
async def test_a_replay_page_links_the_faq_entry_when_its_ruling_is_held(real_db, tmp_path, with_ruling):
    path, ruling_id = _copy(real_db, tmp_path, with_ruling)
    with sqlite_utils.Database(path).conn as conn:
        found = queries.faq_rulings(conn, "riftbound", [CITATION, "faq:2026-08-14#q999", "faq:not-a-date"])
    assert found[CITATION]["ruling_id"] == ruling_id
    assert found["faq:2026-08-14#q999"]["ruling_id"] is None and found["faq:not-a-date"]["ruling_id"] is None
    datasette = Datasette(immutables=[str(path)], metadata=metadata(path))
    response = await datasette.client.get(f"/replays/{PREVENTED}")
    assert response.status_code == 200, response.text[:500]
    html = response.text
    cites = re.findall(r'<(a|span) class="cite faq"([^>]*)>([^<]*)</\1>', html)
    assert cites and {text for _, _, text in cites} == {CITATION}
    if with_ruling:
        assert all(tag == "a" and f'href="/rulings/{ruling_id}"' in attributes for tag, attributes, _ in cites)
        page = await datasette.client.get(f"/rulings/{ruling_id}")
        assert page.status_code == 200
    else:
        assert all(tag == "span" and "href" not in attributes for tag, attributes, _ in cites)
