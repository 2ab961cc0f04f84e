"""Serving the database in Datasette: its metadata, and the server itself.

``metadata(db_path)`` describes the database for Datasette: a title and a
description per table (from ``rules_db.schema``), the source and date of every
document, full-text search on rules, keywords, rulings and cards, facets, and the
canned queries of ``rules_db.queries``. ``serve(db_path)`` runs Datasette on it,
immutable, with the judges' plugin (installed through its entry point), in one worker process
per core, each accepting on its own socket of the port; ``site_urls`` and ``qr_code`` tell a phone where to find it.
"""

from __future__ import annotations

import errno
import html
import io
import json
import multiprocessing
import os
import signal
import socket
import sys
from pathlib import Path

from rules_db import guard, queries, schema

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
    connection = guard.read_only(db_path)
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
    for name, declared in schema.TABLES.items():
        table = {
            "title": name.replace("_", " ").capitalize(),
            "description": declared.description,
            "facets": [column for column in _FACETS if column in declared.columns],
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
# The judges' plugin's name (its entry point in pyproject.toml): its settings are metadata's ``plugins`` under it.
PLUGIN = "judges"


def default_workers() -> int:
    """One worker process per core (at most 8): a slow page then never holds up the others."""
    return max(1, min(os.cpu_count() or 1, 8))


def serve(
    db_path: str | Path,
    host: str = "127.0.0.1",
    port: int = 8001,
    certificate: tuple[str | Path, str | Path] | None = None,
    workers: int | None = None,
    warm_up: bool = True,
) -> None:
    """Run Datasette on the database until interrupted, in ``workers`` processes (uvicorn servers) each
    accepting on its own socket of the port (``listening_sockets``), over HTTPS when given a
    ``(certificate file, key file)`` pair. ``warm_up=False`` serves without first rendering a page of each
    kind in every worker (``datasette_plugins.warm_up``): a test's server then renders only the pages it asks for."""
    import uvicorn

    os.environ[_SERVE_ENV] = json.dumps(
        {"db": str(Path(db_path).resolve()), "metadata": str(write_metadata(db_path).resolve()), "warm_up": warm_up}
    )
    config = uvicorn.Config(
        "rules_db.serve:asgi_app",
        factory=True,
        log_level="warning",
        access_log=False,  # a line per request is CPU taken from the pages (and was never shown: level warning)
        lifespan="on",
        ssl_certfile=str(certificate[0]) if certificate else None,
        ssl_keyfile=str(certificate[1]) if certificate else None,
    )
    workers = workers or default_workers()
    if workers == 1:
        uvicorn.Server(config).run(sockets=[listening_socket(host, port)])
        return
    spawn = multiprocessing.get_context("spawn")
    processes = [
        spawn.Process(target=_serve_worker, args=(config, sock), daemon=True)
        for sock in listening_sockets(host, port, workers)
    ]
    # SIGTERM ends the parent through ``finally`` (as Ctrl-C does), so its workers never outlive it.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        for process in processes:
            process.start()
        for process in processes:
            process.join()
    except KeyboardInterrupt:
        pass
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(timeout=10)


def listening_socket(host: str, port: int, share_port: bool = False) -> socket.socket:
    """A socket a worker accepts on. It is made here rather than by uvicorn so that it can carry
    TCP_NODELAY, which the connections accepted on it inherit: without it a kept-alive connection waits
    for the browser's delayed acknowledgement (40 ms) between a response's headers and its body.
    ``share_port``: other sockets may listen on the port too (SO_REUSEPORT, see ``listening_sockets``)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if share_port:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind((host, port))
    sock.set_inheritable(True)
    return sock


def listening_sockets(host: str, port: int, count: int) -> list[socket.socket]:
    """``count`` sockets on one port, one per worker, among which the kernel spreads new connections.

    One socket shared by every worker sent every connection to one of them: the first worker woken by a burst of
    connections accepts all of them (asyncio accepts up to its backlog at a time), and a kept-alive connection
    stays where it was accepted, so 8 judges' connections all landed on one worker, one core, while the others
    idled. SO_REUSEPORT gives each worker its own queue, and the kernel hashes each new connection to one.
    It also lets another server of this user listen on the port and take a share of its connections, so a port
    something already answers on is refused here as an ordinary bind would refuse it."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.settimeout(1)
        if port and probe.connect_ex((host, port)) == 0:
            raise OSError(errno.EADDRINUSE, f"something already answers on {host}:{port}")
    first = listening_socket(host, port, share_port=True)
    port = first.getsockname()[1]  # port 0: the port the system chose, shared by the others
    return [first] + [listening_socket(host, port, share_port=True) for _ in range(count - 1)]


def listening_on(port: int) -> int | None:
    """How many sockets listen on ``port`` (IPv4 or IPv6), read from Linux's /proc/net/tcp tables; None where there
    are none to read. A worker listens once its warm-up is done, so a caller that waits for ``workers`` of them
    knows every worker serves: the first answer only tells that one does, and a kept-alive connection opened while
    the others warm up stays on that one for good."""
    tables = [table for table in (Path("/proc/net/tcp"), Path("/proc/net/tcp6")) if table.exists()]
    if not tables:
        return None
    count = 0
    for table in tables:
        for line in table.read_text().splitlines()[1:]:
            _slot, local, _remote, state, *_ = line.split()
            count += state == "0A" and int(local.rsplit(":", 1)[1], 16) == port  # 0A: LISTEN
    return count


def _serve_worker(config, sock: socket.socket) -> None:
    import uvicorn

    uvicorn.Server(config).run(sockets=[sock])


def asgi_app():
    """The application one worker serves: Datasette on the database named by ``serve``, read-only
    (immutable), with the metadata and the judges' plugin (installed through its entry point)."""
    from datasette.app import Datasette

    config = json.loads(os.environ[_SERVE_ENV])
    metadata_data = json.loads(Path(config["metadata"]).read_text(encoding="utf-8"))
    metadata_data.setdefault("plugins", {}).setdefault(PLUGIN, {})["warm_up"] = config["warm_up"]
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
