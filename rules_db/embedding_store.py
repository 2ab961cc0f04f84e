"""The embedding store: vectors of texts, kept outside the database by the encoder that made them and the sha256 of
the text, so a build embeds only the texts no build before it embedded (a rebuild of unchanged documents, none; a rule
unchanged across rulebook versions, once).

One SQLite file per encoder in a folder: ``RULES_DB_EMBEDDINGS`` when set, else ``rules-db/embeddings`` in the user's
cache folder (``XDG_CACHE_HOME``, by default ``~/.cache``). Builds running at once share it (SQLite's locking); a
file that cannot be opened or written costs the embedding again, never the build.
"""

from __future__ import annotations

import hashlib
import os
import re
import sqlite3
from collections.abc import Iterable
from pathlib import Path

import numpy as np

STORE_VARIABLE = "RULES_DB_EMBEDDINGS"


def default_folder() -> Path:
    configured = os.environ.get(STORE_VARIABLE, "").strip()
    if configured:
        return Path(configured).expanduser()
    cache = os.environ.get("XDG_CACHE_HOME", "").strip() or str(Path.home() / ".cache")
    return Path(cache) / "rules-db" / "embeddings"


def digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8")).digest()


class EmbeddingStore:
    """The vectors one encoder made, by the digest of their text (float32, as the encoder gave them)."""

    def __init__(self, encoder_name: str, dimensions: int, folder: Path | None = None):
        self.dimensions = dimensions
        folder = folder or default_folder()
        name = re.sub(r"[^0-9A-Za-z._-]", "_", encoder_name)
        self.path = folder / f"{name}-{dimensions}.sqlite"
        self._conn: sqlite3.Connection | None = None
        self.error: str | None = None
        try:
            folder.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(self.path, timeout=60)
            self._conn.execute("pragma journal_mode = wal")
            self._conn.execute("create table if not exists vectors (digest blob primary key, vector blob not null)")
        except (OSError, sqlite3.Error) as error:
            self.error = f"the embedding store {self.path} cannot be used ({error}): every text is embedded again"
            self._conn = None

    def get(self, digests: Iterable[bytes]) -> dict[bytes, np.ndarray]:
        found: dict[bytes, np.ndarray] = {}
        if self._conn is None:
            return found
        wanted = list(digests)
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            for key, blob in self._conn.execute(
                f"select digest, vector from vectors where digest in ({','.join('?' * len(chunk))})", chunk
            ):
                vector = np.frombuffer(blob, dtype="<f4")
                if vector.shape == (self.dimensions,):
                    found[key] = vector
        return found

    def put(self, vectors: dict[bytes, np.ndarray]) -> None:
        if self._conn is None or not vectors:
            return
        try:
            with self._conn:
                self._conn.executemany(
                    "insert or replace into vectors values (?, ?)",
                    [(key, np.asarray(vector, dtype="<f4").tobytes()) for key, vector in vectors.items()],
                )
        except sqlite3.Error as error:
            self.error = f"the embedding store {self.path} cannot be written ({error})"

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
