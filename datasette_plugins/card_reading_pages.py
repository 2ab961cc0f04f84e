"""The cards the engine reads (``/cards-read``): per set, how many cards the card reader reads fully, the most
frequent words it cannot read yet, and each card not read with those words (``?set=`` narrows the list)."""

from __future__ import annotations

from datasette_plugins.web import FORMAT, ask, respond
from rules_db import card_readings

ROUTE_PATTERNS = {"cards_read": rf"^/cards-read{FORMAT}"}


async def cards_read(datasette, request):
    card_set = request.args.get("set") or None
    database, data = await ask(datasette, card_readings.coverage_page, card_set)
    return await respond(datasette, request, database, "cards_read.html", data)


VIEWS = {"cards_read": cards_read}
