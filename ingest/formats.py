"""Which adapter reads which document format, and recognising a file's format."""

from __future__ import annotations

import importlib
import json
from dataclasses import replace
from pathlib import Path

from ingest.documents import CORPUS_DIR, DocumentSpec, bundled_spec
from ingest.errors import IngestError
from ingest.header import read_header, rulebook_slug
from ingest.source import digest, read_lines

# format -> (adapter module, game, game name, kind)
FORMATS: dict[str, tuple[str, str, str, str]] = {
    "riftbound": ("ingest.riftbound", "riftbound", "Riftbound", "rules"),
    "rulings": ("ingest.rulings", "riftbound", "Riftbound", "rulings"),
    "riftboundfaq": ("ingest.riftboundfaq", "riftbound", "Riftbound", "rulings"),
    "runeterra": ("ingest.runeterra", "runeterra", "Legends of Runeterra", "rules"),
    "ikorr": ("ingest.ikorr", "rush-of-ikorr", "Rush of Ikorr", "rules"),
    "poxnora": ("ingest.poxnora", "pox-nora", "Pox Nora", "rules"),
    "riftbound-faq-json": ("ingest.riftbound_faq_json", "riftbound", "Riftbound", "rulings"),
    "riftbound-faq-md": ("ingest.riftbound_faq_md", "riftbound", "Riftbound", "rulings"),
    "cards": ("ingest.card_exports", "riftbound", "Riftbound", "cards"),
    "errata": ("ingest.card_exports", "riftbound", "Riftbound", "errata"),
    "bans": ("ingest.bans", "riftbound", "Riftbound", "bans"),
}


def adapter(format_name: str):
    return importlib.import_module(FORMATS[format_name][0])


def spec_for(path: str | Path) -> DocumentSpec:
    """The bundled manifest entry for this file name if the content agrees (see ``_differs``), else the format
    its text looks like."""
    path = Path(path)
    known = bundled_spec(path)
    if known is not None:
        spec = replace(known, source=path)
        difference = _differs(known, path)
        if difference is None:
            return _dated(spec) if spec.kind == "rules" else spec
        warning = f"{path} is named like the bundled {known.title} {known.version}, but {difference}"
        as_named = replace(spec, warnings=(f"{warning}; read as {known.title} all the same",))
        if path.is_dir() or path.suffix == ".json":  # read as named: validation decides whether it is one
            return as_named
        try:
            recognised = _recognised(path)
        except IngestError:  # no format recognises it: its own parser says where it goes wrong
            return as_named
        return replace(
            recognised, warnings=(f"{warning}; read as what its text is: {recognised.title} {recognised.version}",)
        )
    return _recognised(path)


def _differs(known: DocumentSpec, path: Path) -> str | None:
    """What tells the file at ``path`` apart from the bundled document of its name, or None when it is that
    document: the same bytes as the bundled copy, or a rulebook whose title and ``Last Updated`` date are the
    manifest's (another extraction of the same version)."""
    bundled = CORPUS_DIR / known.filename
    if _digest(path) == _digest(bundled):
        return None
    if path.is_dir() or path.suffix == ".json" or known.kind != "rules":
        return "its content differs from the bundled copy"
    try:
        header = read_header(read_lines(path))
    except IngestError:
        return None  # the build reports the unreadable file with every other document
    expected = read_header(read_lines(bundled))
    found = [
        f"its {what} is {mine!r} (expected {theirs!r})"
        for what, mine, theirs in (
            ("title", header.title, expected.title),
            ("date", header.version_date, expected.version_date),
        )
        if mine != theirs
    ]
    return " and ".join(found) or None


def _digest(path: Path) -> str | None:
    return digest(path) if path.exists() else None


def _recognised(path: Path) -> DocumentSpec:
    """The document at ``path`` by its format: a folder by its adapter's ``sniff_path``, a text by ``sniff``."""
    if path.is_dir():
        return _folder_spec(path)
    if path.suffix == ".json":
        return _json_spec(path)
    lines = read_lines(path)
    for format_name, (_, game, game_name, kind) in FORMATS.items():
        module = adapter(format_name)
        if kind in ("rules", "rulings") and hasattr(module, "sniff") and module.sniff(lines):
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


# What tells the JSON data files apart: a key their entries (a list's) or their object (an export's) has.
_JSON_KINDS = (
    ("cards", ("card_type", "cards")),
    ("errata", ("oldText", "faqs", "entries")),
    ("bans", ("constructed", "banned", "byFormat", "sets")),
)


def _json_spec(path: Path) -> DocumentSpec:
    """A JSON data file by its shape: a card list, an errata list or a ban list, in either shape (a list of
    entries, or an export's object holding them); its adapter validates it when the build reads it."""
    text = "\n".join(read_lines(path, max_line=None))
    try:
        kind = _json_kind(json.loads(text))
    except (json.JSONDecodeError, RecursionError):  # broken, or cut short: by the keys it names (its adapter says)
        kind = next((kind for kind, marks in _JSON_KINDS if any(f'"{mark}"' in text for mark in marks)), None)
    if kind is None:
        raise IngestError(path, None, "a card list, an errata list or a ban list (JSON)", "none of their shapes")
    _, game, game_name, _ = FORMATS[kind]
    return DocumentSpec(path.stem, game, game_name, path.stem, path.stem, kind, kind, path.name, source=path)


def _json_kind(data: object) -> str | None:
    keys = (
        set(data)
        if isinstance(data, dict)
        else set(data[0])
        if isinstance(data, list) and data and isinstance(data[0], dict)
        else set()
    )
    return next((kind for kind, marks in _JSON_KINDS if keys & set(marks)), None)


def _folder_spec(path: Path) -> DocumentSpec:
    """A document that is a folder of files, recognised by the adapter that reads such folders."""
    for format_name, (_, game, game_name, kind) in FORMATS.items():
        module = adapter(format_name)
        if hasattr(module, "sniff_path") and module.sniff_path(path):
            return DocumentSpec(
                path.name, game, game_name, path.name, "unversioned", kind, format_name, path.name, source=path
            )
    raise IngestError(path, None, "a folder of rulings pages in a known format", "a folder none of them recognises")


def _dated(spec: DocumentSpec) -> DocumentSpec:
    """A bundled rulebook given by name, dated by its text; a file that cannot be read is left for the
    build to report, with every other document it builds."""
    try:
        return complete(spec, read_lines(spec.path))
    except IngestError:
        return spec


def complete(spec: DocumentSpec, lines: list[str]) -> DocumentSpec:
    """A spec with what the text says about itself filled in where the manifest is silent (its date)."""
    header = read_header(lines)
    return replace(
        spec,
        version_date=spec.version_date or header.version_date,
        version_label=spec.version_label or header.version_label,
    )


def expand(spec: DocumentSpec) -> list[DocumentSpec]:
    """A file of several articles (its adapter lists them: ``articles``) as one document per article, named by
    the article's id, titled and versioned by its title and publication date; any other document as itself.
    A file that cannot be read is left whole, for the build to report with every other document."""
    module = adapter(spec.format)
    if spec.part is not None or not hasattr(module, "articles"):
        return [spec]
    try:
        found = module.articles(spec.path)
    except IngestError:
        return [spec]
    return [
        replace(
            spec,
            slug=article.id,
            title=article.title,
            version=article.published,
            version_date=article.published,
            part=article.id,
        )
        for article in found
    ]
