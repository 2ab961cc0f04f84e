"""The documentation in docs/ is the reference the README links to: it must document the schema as it is, and
every link between the README, ARCHITECTURE.md and docs/ must lead to a file that exists."""

import re
from pathlib import Path

from rules_db import schema

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", ROOT / "ARCHITECTURE.md", *sorted((ROOT / "docs").glob("*.md"))]


def test_the_database_reference_documents_every_table_and_column():
    assert schema.markdown() in (ROOT / "docs" / "database.md").read_text(encoding="utf-8")


def _anchors(text: str) -> set[str]:
    """The anchors GitHub gives a Markdown file's headings."""
    headings = re.findall(r"^#+ (.*)$", text, re.M)
    return {re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-") for heading in headings}


def test_every_local_link_leads_somewhere():
    broken = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            if not file.exists():
                broken.append(f"{page.name}: {target}")
            elif anchor and file.suffix == ".md" and anchor not in _anchors(file.read_text(encoding="utf-8")):
                broken.append(f"{page.name}: {target} (no such heading)")
    assert not broken, broken


def test_the_readme_links_each_page_of_the_docs():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    unlinked = [page.name for page in PAGES[2:] if f"](docs/{page.name}" not in readme]
    assert not unlinked, unlinked
