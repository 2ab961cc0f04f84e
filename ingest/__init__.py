"""Parsers: one module per document format, plus the outline logic they share."""
