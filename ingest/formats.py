"""Which adapter reads which document format, and recognising a file's format."""

from __future__ import annotations

import importlib
import re
from dataclasses import replace
from pathlib import Path

from ingest.documents import DocumentSpec, bundled_spec
from ingest.errors import IngestError
from ingest.source import read_lines

# format -> (adapter module, game, game name, kind)
FORMATS: dict[str, tuple[str, str, str, str]] = {
    "riftbound-tabbed": ("ingest.riftbound_tabbed", "riftbound", "Riftbound", "rules"),
    "riftbound-spaced": ("ingest.riftbound_spaced", "riftbound", "Riftbound", "rules"),
    "rulings": ("ingest.rulings", "riftbound", "Riftbound", "rulings"),
    "runeterra": ("ingest.runeterra", "runeterra", "Legends of Runeterra", "rules"),
    "ikorr": ("ingest.ikorr", "rush-of-ikorr", "Rush of Ikorr", "rules"),
    "poxnora": ("ingest.poxnora", "pox-nora", "Pox Nora", "rules"),
    "cards": ("ingest.cards", "riftbound", "Riftbound", "cards"),
    "errata": ("ingest.cards", "riftbound", "Riftbound", "errata"),
}

_LAST_UPDATED = re.compile(r"Last Updated:\s*(\S+)")


def adapter(format_name: str):
    return importlib.import_module(FORMATS[format_name][0])


def spec_for(path: str | Path) -> DocumentSpec:
    """The bundled manifest entry for this file name, else the format its text looks like."""
    path = Path(path)
    known = bundled_spec(path)
    if known is not None:
        return replace(known, source=path)
    if path.suffix == ".json":
        raise IngestError(
            path, None, "a bundled card file name (riftbound-cards.json or riftbound-errata.json)", path.name
        )
    lines = read_lines(path)
    for format_name, (_, game, game_name, kind) in FORMATS.items():
        if kind in ("rules", "rulings") and adapter(format_name).sniff(lines):
            return DocumentSpec(
                path.stem,
                game,
                game_name,
                _title(lines, path),
                _version(lines, path),
                kind,
                format_name,
                path.name,
                source=path,
            )
    raise IngestError(
        path,
        None,
        f"a document in one of the known formats ({', '.join(FORMATS)})",
        "text that none of them recognises",
    )


def _version(lines: list[str], path: Path) -> str:
    for line in lines[:20]:
        match = _LAST_UPDATED.search(line)
        if match:
            return match.group(1)
    return path.stem


def _title(lines: list[str], path: Path) -> str:
    for line in lines[:10]:
        if line.strip():
            return line.strip().lstrip("# ").strip()
    return path.stem
