"""The bundled documents: which game, title, version and format each file is.

Pox Nora's file names no game and Rush of Ikorr's title names none, so this
manifest, not the text, says what a file is. Documents passed on the command
line are matched here by file name, else recognised by their format's sniffer.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

# The top-level corpus/ folder, shipped inside the package (ingest/corpus links to it).
CORPUS_DIR = Path(str(resources.files("ingest") / "corpus"))


@dataclass(frozen=True)
class DocumentSpec:
    slug: str
    game: str
    game_name: str
    title: str
    version: str
    kind: str  # "rules", "rulings", "cards" or "errata"
    format: str
    filename: str
    original_name: str | None = None
    written_against: str | None = None  # rulings: version of the game's rules they cite
    source: Path | None = None  # where to read it; the bundled copy when None
    rulebook: str | None = None  # rules: which of the game's rulebooks ("core", "tournament")
    version_label: str | None = None  # the version the document calls itself ("1.4"), where known
    version_date: str | None = None  # its "Last Updated" date (ISO); read from the text when it gives one
    warnings: tuple[str, ...] = ()  # what the build should tell about how the file was recognised
    part: str | None = None  # one article of a file that holds several (each its own document; ingest.formats.expand)

    @property
    def path(self) -> Path:
        return self.source or CORPUS_DIR / self.filename


BUNDLED: tuple[DocumentSpec, ...] = (
    DocumentSpec(
        "riftbound-core-rules-2025-06-02",
        "riftbound",
        "Riftbound",
        "Riftbound Core Rules",
        "2025-06-02",
        "rules",
        "riftbound",
        "riftbound-core-rules-2025-06-02.txt",
        "001_639676eb45116bc6.txt",
    ),
    DocumentSpec(
        "riftbound-core-rules-2025-12-01",
        "riftbound",
        "Riftbound",
        "Riftbound Core Rules",
        "2025-12-01",
        "rules",
        "riftbound",
        "riftbound-core-rules-2025-12-01.txt",
    ),
    DocumentSpec(
        "riftbound-core-rules-2026-06-18",
        "riftbound",
        "Riftbound",
        "Riftbound Core Rules",
        "2026-06-18",
        "rules",
        "riftbound",
        "riftbound-core-rules-2026-06-18.txt",
        version_label="1.4",  # v1.4 "Vendetta" (corpus/README.md); the text names no version
    ),
    DocumentSpec(
        "riftbound-tournament-rules-2026-07-16",
        "riftbound",
        "Riftbound",
        "Riftbound Tournament Rules",
        "2026-07-16",
        "rules",
        "riftbound",
        "riftbound-tournament-rules-2026-07-16.txt",
        rulebook="tournament",
    ),
    DocumentSpec(
        "riftbound-qa-rulings",
        "riftbound",
        "Riftbound",
        "Riftbound Q&A Rulings",
        "2025-12-01",
        "rulings",
        "rulings",
        "riftbound-qa-rulings.txt",
        "004_9d0d77b45a2ed6ea.txt",
        written_against="2025-12-01",
    ),
    DocumentSpec(
        "riftboundfaq-rulings",
        "riftbound",
        "Riftbound",
        "Riftbound FAQ",
        "unversioned",
        "rulings",
        "riftboundfaq",
        "riftboundfaq-rulings",
    ),
    # Riot's official FAQs, several articles to a file: each article becomes a document of its own, named by its
    # id and versioned by its publication date (ingest.formats.expand); the event rulings page in the JSON file
    # too, credited to its author.
    DocumentSpec(
        "riftbound-official-faqs",
        "riftbound",
        "Riftbound",
        "Riftbound official FAQs",
        "articles",
        "rulings",
        "riftbound-faq-json",
        "riftbound-official-faqs.json",
    ),
    DocumentSpec(
        "riftbound-vendetta-faq-2026-08-14",
        "riftbound",
        "Riftbound",
        "Riftbound Vendetta FAQ",
        "articles",
        "rulings",
        "riftbound-faq-md",
        "riftbound-vendetta-faq-2026-08-14.md",
    ),
    DocumentSpec(
        "runeterra-unofficial-rulebook",
        "runeterra",
        "Legends of Runeterra",
        "Legends of Runeterra unofficial Rulebook",
        "unversioned",
        "rules",
        "runeterra",
        "runeterra-unofficial-rulebook.txt",
        "000_67da59db6359a080.txt",
    ),
    DocumentSpec(
        "rush-of-ikorr-comprehensive-rules-1.1",
        "rush-of-ikorr",
        "Rush of Ikorr",
        "Rush of Ikorr Comprehensive Rules",
        "1.1",
        "rules",
        "ikorr",
        "rush-of-ikorr-comprehensive-rules-1.1.txt",
        "002_1ca8846c36958b04.txt",
    ),
    DocumentSpec(
        "pox-nora-rules",
        "pox-nora",
        "Pox Nora",
        "Pox Nora Rules Summary",
        "unversioned",
        "rules",
        "poxnora",
        "pox-nora-rules.txt",
        "003_ad2ee3302870da30.txt",
    ),
    DocumentSpec(
        "riftbound-cards",
        "riftbound",
        "Riftbound",
        "Riftbound Card List",
        "2025",
        "cards",
        "cards",
        "riftbound-cards.json",
    ),
    DocumentSpec(
        "riftbound-errata",
        "riftbound",
        "Riftbound",
        "Riftbound Card Errata",
        "2025",
        "errata",
        "errata",
        "riftbound-errata.json",
    ),
)


def bundled_spec(path: Path) -> DocumentSpec | None:
    """The manifest entry for a file of that name, wherever it lies."""
    for spec in BUNDLED:
        if spec.filename == Path(path).name:
            return spec
    return None
