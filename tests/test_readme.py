"""The README is the manual: it must document the schema as it is."""

from pathlib import Path

from rules_db import schema

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_documents_every_table_and_column():
    assert schema.markdown() in README.read_text(encoding="utf-8")


def test_readme_starts_with_the_two_commands():
    head = README.read_text(encoding="utf-8")[:400]
    assert "make serve" in head and "make test" in head
