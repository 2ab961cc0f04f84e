"""Datasette's own table and row pages stay for SQL users; a row of ``rules``, ``rulings``, ``cards`` or
``replays`` links from its naming column to the judges' page of that rule, ruling, card or replay."""

from __future__ import annotations

from datasette import hookimpl
from markupsafe import Markup, escape

from datasette_plugins.web import Paths

# table -> the column whose cell becomes the link to the judges' page
LINKED_COLUMNS = {"rules": "number", "rulings": "question", "cards": "name", "replays": "title"}


@hookimpl
def render_cell(row, value, column, table, database, datasette):
    if LINKED_COLUMNS.get(table) != column or value is None or not _has(row, "id"):
        return None

    async def link():
        href = await _judges_page(datasette, database, table, row)
        if href is None:
            return None
        return Markup(f'<a class="judges-page" href="{escape(href)}" title="The judges\' page">{escape(value)}</a>')

    return link()


async def _judges_page(datasette, database: str, table: str, row) -> str | None:
    paths = Paths(datasette, database)
    if table == "rulings":
        return paths.ruling(row["id"])
    if table == "replays":
        return paths.replay(row["id"])
    if table == "cards":
        return paths.card(row["slug"]) if _has(row, "slug") and row["slug"] else None
    if not _has(row, "document_id"):
        return None
    document_id = row["document_id"]
    if isinstance(document_id, dict):  # a foreign key Datasette has expanded to {"value", "label"}
        document_id = document_id.get("value")
    document = (
        await datasette.get_database(database).execute(
            "select game_id, version from documents where id = ?", [document_id]
        )
    ).first()
    return paths.version_rule(document["game_id"], document["version"], row["number"]) if document else None


def _has(row, column: str) -> bool:
    return column in row.keys()  # noqa: SIM118 (a sqlite3.Row: "in" would look among its values)
