"""Reading a source file into numbered lines, with errors a judge can act on."""

from __future__ import annotations

from pathlib import Path

from ingest.errors import IngestError


def read_lines(path: str | Path) -> list[str]:
    """The file's lines without their line endings; ``lines[i]`` is line i+1.

    A file without a final newline keeps its last line (four corpus files end so).
    """
    path = Path(path)
    if not path.exists():
        raise IngestError(path, None, "an existing file", "no such file")
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise IngestError(path, line, "UTF-8 text", f"byte 0x{data[error.start]:02x}") from None
    if not text.strip():
        raise IngestError(path, None, "a non-empty document", "an empty file")
    return text.lstrip("\ufeff").splitlines()


def nonblank_count(lines: list[str]) -> int:
    return sum(1 for line in lines if line.strip())
