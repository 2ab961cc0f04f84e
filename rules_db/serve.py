"""Serving the database in Datasette: its metadata, and the server itself.

``metadata(db_path)`` describes the database for Datasette: a title and a
description per table (from ``rules_db.schema``), the source and date of every
document, full-text search on rules, keywords, rulings and cards, facets, and the
canned queries of ``rules_db.queries``. ``serve(db_path)`` runs Datasette on it,
immutable, with the judges' plugin (installed through its entry point), in one worker process
per core; ``site_urls`` and ``qr_code`` tell a phone where to find it.
"""

from __future__ import annotations

import html
import io
import json
import os
import socket
import sqlite3
from pathlib import Path

from rules_db import queries, schema

TITLE = "Judges' rules database"

# Facets a judge reaches for first, per table (only columns that exist in it).
_FACETS = ("game_id", "document_id", "section", "kind", "status", "how", "verdict", "card_type", "domain")


def metadata(db_path: str | Path) -> dict:
    """Datasette metadata for the database at ``db_path`` (named after its file, as Datasette does)."""
    db_path = Path(db_path)
    documents = _documents(db_path)
    return {
        "title": TITLE,
        "description_html": _documents_html(documents),
        "databases": {
            db_path.stem: {
                "title": TITLE,
                "description": "Rules, keywords, rulings and cards of several trading card games, "
                "cross-referenced; every document is listed with its source on the home page.",
                "source": "; ".join(f"{d['title']} {d['version']} ({d['source_file']})" for d in documents),
                "tables": _tables(),
                "queries": queries.CANNED_QUERIES,
            }
        },
    }


def _documents(db_path: Path) -> list[dict]:
    connection = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        cursor = connection.execute(
            "select title, version, kind, source_file from documents order by game_id, kind, version desc"
        )
        names = [column[0] for column in cursor.description]
        return [dict(zip(names, row)) for row in cursor.fetchall()]
    finally:
        connection.close()


def _documents_html(documents: list[dict]) -> str:
    items = "".join(
        f"<li>{html.escape(d['title'])}, version {html.escape(d['version'] or '')} ({html.escape(d['kind'])}), "
        f"from <code>{html.escape(d['source_file'] or '')}</code></li>"
        for d in documents
    )
    return f"<p>Documents in this database:</p><ul>{items}</ul>"


def _tables() -> dict:
    tables = {}
    for name, (columns, _pk, _fks, _indexes, description) in schema.TABLES.items():
        table = {
            "title": name.replace("_", " ").capitalize(),
            "description": description,
            "facets": [column for column in _FACETS if column in columns],
        }
        if name in schema.SEARCHABLE:
            table.update({"fts_table": f"{name}_fts", "fts_pk": "id", "searchmode": "escaped"})
        tables[name] = table
    return tables


def write_metadata(db_path: str | Path, metadata_path: str | Path | None = None) -> Path:
    """The metadata as a JSON file beside the database (or at ``metadata_path``)."""
    db_path = Path(db_path)
    metadata_path = Path(metadata_path) if metadata_path else db_path.with_suffix(".metadata.json")
    metadata_path.write_text(json.dumps(metadata(db_path), indent=2))
    return metadata_path


def datasette_args(
    db_path: str | Path, metadata_path: str | Path, host: str = "127.0.0.1", port: int = 8001
) -> list[str]:
    """Arguments for ``datasette serve`` (one process, as replicas behind a load balancer run it): the
    database immutable, with the metadata."""
    return ["serve", "-i", str(db_path), "--metadata", str(metadata_path), "--host", host, "--port", str(port)]


# How a worker process learns what to serve (uvicorn starts workers by importing ``asgi_app``).
_SERVE_ENV = "RULES_DB_SERVE"


def default_workers() -> int:
    """One worker process per core (at most 8): a slow page then never holds up the others."""
    return max(1, min(os.cpu_count() or 1, 8))


def serve(
    db_path: str | Path,
    host: str = "127.0.0.1",
    port: int = 8001,
    certificate: tuple[str | Path, str | Path] | None = None,
    workers: int | None = None,
) -> None:
    """Run Datasette on the database until interrupted, in ``workers`` processes sharing the port (uvicorn),
    over HTTPS when given a ``(certificate file, key file)`` pair."""
    import uvicorn

    os.environ[_SERVE_ENV] = json.dumps(
        {"db": str(Path(db_path).resolve()), "metadata": str(write_metadata(db_path).resolve())}
    )
    uvicorn.run(
        "rules_db.serve:asgi_app",
        factory=True,
        host=host,
        port=port,
        workers=workers or default_workers(),
        log_level="warning",
        lifespan="on",
        ssl_certfile=str(certificate[0]) if certificate else None,
        ssl_keyfile=str(certificate[1]) if certificate else None,
    )


def asgi_app():
    """The application one worker serves: Datasette on the database named by ``serve``, read-only
    (immutable), with the metadata and the judges' plugin (installed through its entry point)."""
    from datasette.app import Datasette

    config = json.loads(os.environ[_SERVE_ENV])
    metadata_data = json.loads(Path(config["metadata"]).read_text(encoding="utf-8"))
    return Datasette(immutables=[config["db"]], metadata=metadata_data).app()


# Addresses that mean "every interface of this machine".
_EVERY_INTERFACE = {"0.0.0.0", "::", ""}


def local_network_address() -> str | None:
    """This machine's address on the local network: the one a packet to the outside would leave from.
    Connecting a UDP socket sends nothing; 192.0.2.1 is a documentation address, never routed."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
            address = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def site_urls(host: str, port: int, https: bool = False) -> list[str]:
    """The addresses a browser can open the site at: for every interface, the local network's address
    first (what a phone on the same network opens), then the machine's own."""
    scheme = "https" if https else "http"
    if host in _EVERY_INTERFACE:
        hosts = [address for address in (local_network_address(), "127.0.0.1") if address]
    else:
        hosts = [host]
    return [f"{scheme}://{f'[{name}]' if ':' in name else name}:{port}/" for name in hosts]


def reachable_from_other_devices(host: str) -> bool:
    return host not in ("127.0.0.1", "localhost", "::1") and not host.startswith("127.")


def qr_code(url: str) -> str:
    """``url`` as a QR code drawn with text block characters, for a phone's camera to scan off the terminal."""
    import segno

    buffer = io.StringIO()
    segno.make(url, error="m").terminal(out=buffer, compact=True)
    return buffer.getvalue()
