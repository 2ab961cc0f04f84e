"""What the database is built from, to tell when it is out of date."""

from __future__ import annotations

from pathlib import Path

from ingest.documents import BUNDLED

_PROJECT = Path(__file__).resolve().parent.parent
_DATA_FOLDERS = ("ingest/data", "scenarios/library")
_DATA_FILES = ("scenarios/cards.yaml",)


def source_files() -> list[Path]:
    """The bundled documents and the project's data (card aliases, scenarios, the card library)."""
    files = [spec.path for spec in BUNDLED]
    for folder in _DATA_FOLDERS:
        files += sorted(path for path in (_PROJECT / folder).glob("*") if path.is_file())
    files += [_PROJECT / name for name in _DATA_FILES if (_PROJECT / name).exists()]
    return files


def stale_reason(db_path: Path) -> str | None:
    """Why the database must be (re)built, or None when it is up to date."""
    if not db_path.exists():
        return "it does not exist yet"
    built = db_path.stat().st_mtime
    newer = [path for path in source_files() if path.stat().st_mtime > built]
    if newer:
        return f"{newer[0].relative_to(_PROJECT)} changed since it was built" + (
            f" (and {len(newer) - 1} more)" if len(newer) > 1 else ""
        )
    return None
