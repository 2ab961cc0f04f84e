"""Which adapter reads which document format, and recognising a file's format."""

from __future__ import annotations

import importlib
from dataclasses import replace
from pathlib import Path

from ingest.documents import DocumentSpec, bundled_spec
from ingest.errors import IngestError
from ingest.header import read_header, rulebook_slug
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
        module = adapter(format_name)
        if kind in ("rules", "rulings") and module.sniff(lines):
            header = read_header(lines)
            titled = getattr(module, "TITLED_RULEBOOKS", False)
            return DocumentSpec(
                path.stem,
                game,
                game_name,
                header.title or path.stem,
                header.version_date or header.version_label or path.stem,
                kind,
                format_name,
                path.name,
                source=path,
                rulebook=rulebook_slug(header.title, game_name) if kind == "rules" and titled else None,
                version_label=header.version_label,
                version_date=header.version_date,
            )
    raise IngestError(
        path,
        None,
        f"a document in one of the known formats ({', '.join(FORMATS)})",
        "text that none of them recognises",
    )


def complete(spec: DocumentSpec, lines: list[str]) -> DocumentSpec:
    """A spec with what the text says about itself filled in where the manifest is silent (its date)."""
    header = read_header(lines)
    return replace(
        spec,
        version_date=spec.version_date or header.version_date,
        version_label=spec.version_label or header.version_label,
    )
