"""The one error type parsers raise: it names the file, the line and what was expected."""

from __future__ import annotations

from pathlib import Path


class IngestError(Exception):
    def __init__(self, path: str | Path, line: int | None, expected: str, found: str | None = None):
        self.path = str(path)
        self.line = line
        self.expected = expected
        self.found = found
        where = f"{self.path}:{line}" if line else self.path
        message = f"{where}: expected {expected}"
        if found is not None:
            message += f", found {found!r}"
        super().__init__(message)

    def __reduce__(self):  # rebuilt from its parts when it crosses to another process (the build's second)
        return IngestError, (self.path, self.line, self.expected, self.found)
