"""What the database is built from, to tell when it is out of date."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from ingest.documents import BUNDLED
from scenarios import library_paths
from scenarios.cards import LIBRARY as CARD_LIBRARY

# The folder holding the packages (the checkout, or site-packages), to name files in messages.
_INSTALLED = Path(str(resources.files("rules_db"))).parent


def source_files() -> list[Path]:
    """The bundled documents and the packages' data (card aliases, scenarios, the card library)."""
    aliases = Path(str(resources.files("ingest") / "data"))
    return [
        *(spec.path for spec in BUNDLED),
        *sorted(path for path in aliases.glob("*") if path.is_file()),
        *library_paths(),
        CARD_LIBRARY,
    ]


def stale_reason(db_path: Path) -> str | None:
    """Why the database must be (re)built, or None when it is up to date."""
    if not db_path.exists():
        return "it does not exist yet"
    built = db_path.stat().st_mtime
    newer = [path for path in source_files() if path.stat().st_mtime > built]
    if newer:
        return f"{_name(newer[0])} changed since it was built" + (
            f" (and {len(newer) - 1} more)" if len(newer) > 1 else ""
        )
    return None


def _name(path: Path) -> str:
    return str(path.relative_to(_INSTALLED)) if path.is_relative_to(_INSTALLED) else str(path)
