"""Reading a source file into numbered lines, with errors a judge can act on."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import yaml

from ingest.errors import IngestError
from ingest.limits import MAX_LINE_CHARS, check_lines, check_size


def read_lines(path: str | Path, max_line: int | None = MAX_LINE_CHARS) -> list[str]:
    """The file's lines without their line endings; ``lines[i]`` is line i+1.

    A file without a final newline keeps its last line (four corpus files end so). A file past a limit of
    ``ingest.limits`` (its size, a line's length up to ``max_line``, a number's digits) is an error naming the line.
    """
    path = Path(path)
    if not path.exists():
        raise IngestError(path, None, "an existing file", "no such file")
    check_size(path, path.stat().st_size)
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise IngestError(path, line, "UTF-8 text", f"byte 0x{data[error.start]:02x}") from None
    if not text.strip():
        raise IngestError(path, None, "a non-empty document", "an empty file")
    lines = split_lines(text.lstrip("\ufeff"))
    check_lines(path, lines, max_line)
    return lines


def split_lines(text: str) -> list[str]:
    """Lines as an editor numbers them: ended by \\n (\\r\\n and a lone \\r too) and nothing else. str.splitlines
    also ends a line at a form feed, \\x85 or U+2028, so every error after one would name the wrong line."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def nonblank_count(lines: list[str]) -> int:
    return sum(1 for line in lines if line.strip())


def digest(path: Path) -> str:
    """SHA-256 of a file, or of a folder's files (each relative path and its bytes, in path order)."""
    sha = hashlib.sha256()
    if path.is_dir():
        for file in sorted(entry for entry in path.rglob("*") if entry.is_file()):
            sha.update(file.relative_to(path).as_posix().encode() + b"\0" + file.read_bytes())
    else:
        sha.update(path.read_bytes())
    return sha.hexdigest()


# The C parser when PyYAML was built with it: the pure-Python one costs the build a tenth of a second per
# hundred small files.
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_yaml(text: str) -> Any:
    """``yaml.safe_load`` with the fastest safe loader installed (the same values and errors)."""
    return yaml.load(text, Loader=_YAML_LOADER)
