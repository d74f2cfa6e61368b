"""Gloss vectors: each WordNet synset's text (lemma names, gloss, examples) encoded once by a
contextual encoder, pooled over the whole text as a sentence embedding, and kept on disk.

The text of ``pitcher.n.02`` is *"pitcher, ewer: an open vessel with a handle and a spout for
pouring; ..."* (its examples follow, joined by "; "). Its vector is the mean over all the
text's word pieces, the two special ones included (the pooling all-MiniLM-L6-v2 was trained
with), of the hidden states of the chosen layers averaged; texts longer than ``max_pieces``
are cut.

Vectors are computed lazily, for the synsets a run asks for, and kept in one ``.npz`` file per
encoder, layers and WordNet (under ``$WSD_CACHE_DIR/gloss-vectors``), those of each later run
in a small file beside it until 32 have piled up and are merged into it: float16 rows, the
synset names, and a JSON header naming the format version, the encoder's identity, the layers,
the pooling and a digest of the WordNet files. A file whose header names another encoder,
layers or WordNet is refused (:class:`GlossCacheError`), never read as if it were this one's; a
damaged one (cut, not an ``.npz`` archive, arrays of the wrong kind or not finite) is left out
with a one-line notice naming it, and its glosses are encoded again (the next merge writes the
main file anew; the damaged parts are removed then). Every write goes through a temporary file
and a rename. Processes may share the files: one merges at a time (an flock, dropped by the
kernel if it dies), from what is on disk, and removes only the parts it merged; a part merged
away while a load reads the parts is found in the new main file. A folder that cannot be
written (read-only, a full disk, a path that is a file) is reported once per process and the
vectors are kept in memory (the same bits; encoded again next run); what it holds is still
read.
"""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from wsd.features.encoders import (
    DEFAULT_ENCODER,
    Encoder,
    file_digest,
    layer_numbers,
    load_encoder,
    mean_over_pieces,
)
from wsd.features.vector_cache import DAMAGED_NPZ, cache_root, digest, note_unwritable
from wsd.knowledge import compiled
from wsd.knowledge.inventory import wordnet_reader
from wsd.persistence import atomic_open
from wsd.resources import ResourceFault

try:
    import fcntl
except ImportError:  # Windows: no lock; merges at once may each leave out the other's parts
    fcntl = None  # type: ignore[assignment]

FORMAT = "wsd-gloss-vectors"
VERSION = 1
POOLING = "mean-of-all-pieces"
ZIP_MAGIC = b"PK\x03\x04"  # how an .npz archive starts
_TOKEN = re.compile(r"\w+|[^\w\s]")


class GlossCacheError(ResourceFault, ValueError):
    """A gloss-vector file that is whole but another encoder's, layers' or WordNet's."""


def gloss_text(synset) -> str:
    """The text encoded for a synset: its lemma names, its gloss and its examples."""
    return "; ".join([gloss_head(synset), *synset.examples()])


def gloss_head(synset) -> str:
    """A synset's lemma names and gloss, ``"names: definition"`` (``gloss_text`` without the
    examples)."""
    names = ", ".join(name.replace("_", " ") for name in synset.lemma_names())
    return f"{names}: {synset.definition()}"


def text_words(text: str) -> list[str]:
    """The words and punctuation marks of a text (what the encoder's tokenizer is given)."""
    return _TOKEN.findall(text) or ["."]


def sentence_vectors(encoder: Encoder, texts: Sequence[Sequence[str]],
                     layers: Sequence[int] = (-1,), max_pieces: int = 128,
                     batch_size: int = 32) -> np.ndarray:
    """float32 (len(texts), dim): for each tokenized text, the mean over its pieces ([CLS] and
    [SEP] included; at most ``max_pieces``) of the hidden states of ``layers`` averaged."""
    numbers = sorted(set(layer_numbers(encoder, layers)))
    pieces = encoder.pieces([list(words) for words in texts])
    runs = [(encoder.cls_id, *ids[: max_pieces - 2], encoder.sep_id) for ids, _ in pieces]
    order = sorted(range(len(runs)), key=lambda i: len(runs[i]))
    out: np.ndarray | None = None
    for start in range(0, len(order), batch_size):
        batch = order[start : start + batch_size]
        width = max(len(runs[i]) for i in batch)
        ids = np.full((len(batch), width), encoder.pad_id, dtype=np.int64)
        mask = np.zeros_like(ids)
        for row, i in enumerate(batch):
            ids[row, : len(runs[i])] = runs[i]
            mask[row, : len(runs[i])] = 1
        pooled = mean_over_pieces(encoder.hidden_states(ids, mask, numbers), mask)
        if out is None:
            out = np.zeros((len(texts), pooled.shape[1]), np.float32)
        out[batch] = pooled
    return out if out is not None else np.zeros((0, 0), np.float32)


def unit_rows(vectors: np.ndarray) -> np.ndarray:
    """float32 rows scaled to length 1 (zero rows stay zero)."""
    vectors = np.asarray(vectors, np.float64)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return (vectors / np.where(norms > 0, norms, 1.0)).astype(np.float32)


def wordnet_identity() -> str:
    """A digest of the WordNet data files NLTK reads (``data.*`` and ``index.sense``, or the
    whole zip), found through the compiled lexicon when it is valid (``compiled.wordnet_source``:
    importing NLTK had been most of a call without a model)."""
    root = compiled.wordnet_source()
    if root.is_file():
        return file_digest(root)
    files = sorted(p for p in root.iterdir() if p.name.startswith("data.")
                   or p.name == "index.sense")  # fmt: skip
    return file_digest(*files)


class GlossStore:
    """One gloss-vector file and the files added beside it (in ``<file>.added/``): ``load``
    their vectors (refusing another encoder's), ``add`` new ones as a small file of their own
    (a call that meets new senses had rewritten the whole file, tens of MB, each time), and
    ``merge`` them into the main file once ``MERGE_AFTER`` have piled up. Processes may share
    them: the main file is replaced by a rename, so a reader sees the old one or the new."""

    MERGE_AFTER = 32

    def __init__(self, path: Path, header: dict) -> None:
        self.path = Path(path)
        self.added = self.path.with_name(self.path.name + ".added")
        self.header = {"format": FORMAT, "version": VERSION, **header}

    def load(self) -> dict[str, np.ndarray]:
        """Synset name -> float16 vector; empty when no file exists yet. The parts are listed
        before the main file is read, and it is read again when one of them has gone since:
        a merge replaces the main file before it removes the parts it merged."""
        parts = self._parts()
        vectors = self._read(self.path) or {}
        found = [self._read(part) for part in parts]
        if None in found:
            vectors.update(self._read(self.path) or {})
        for part_vectors in found:
            vectors.update(part_vectors or {})
        return vectors

    def _parts(self) -> list[Path]:
        return sorted(self.added.glob("*.npz")) if self.added.is_dir() else []

    def _read(self, path: Path, strict: bool = False) -> dict[str, np.ndarray] | None:
        """The vectors of one file; None when there is none (a main file not written yet, a
        part that another process merged and removed); {}, with a one-line notice, when it is
        damaged or cannot be read (they are encoded again, never read wrong), or with
        ``strict`` the OSError of a file that cannot be read (a merge must not write over a
        file it could not read: a main file of mode 0600 in a shared cache, say);
        GlossCacheError when it is another encoder's, layers' or WordNet's."""
        try:
            header, names, matrix = _members(path)
        except (FileNotFoundError, NotADirectoryError):
            return None
        except OSError as err:
            if strict:
                raise
            warnings.warn(f"gloss-vector cache file {path} cannot be read ({err}); left out, "
                          "its glosses will be encoded again", stacklevel=2)
            return {}
        except DAMAGED_NPZ as err:
            warnings.warn(f"gloss-vector cache file {path} is damaged ({err}); left out, its "
                          "glosses will be encoded again", stacklevel=2)
            return {}
        for field in ("format", "version", "encoder", "layers", "pooling", "wordnet"):
            if header.get(field) != self.header[field]:
                raise GlossCacheError(
                    f"{path}: gloss vectors of {field} {header.get(field)!r}, not "
                    f"{self.header[field]!r}; delete the file to encode the glosses again")
        return dict(zip(names.tolist(), matrix, strict=True))

    def add(self, new: dict[str, np.ndarray]) -> None:
        """Write ``new`` vectors as a file of their own beside the main one, and ``merge``
        once ``MERGE_AFTER`` such files have piled up. A folder that cannot be written is
        reported once (``note_unwritable``): the vectors stay in the caller's memory only."""
        if not new:
            return
        try:
            self.added.mkdir(parents=True, exist_ok=True)
            self._write(self.added / f"{digest(*new)[:24]}.npz", new)
            if len(self._parts()) >= self.MERGE_AFTER:
                self.merge()
        except OSError as error:
            note_unwritable("gloss-vector cache", self.path.parent, error)

    def merge(self) -> None:
        """Merge the added files into the main file, then remove those merged. One process
        merges at a time (an flock on ``<file>.added/merge.lock``, which the kernel drops when
        its process dies; a process that finds it held leaves the merge to the holder), and
        it reads the main file and lists the parts under the lock: a merge had saved only its
        own process's vectors and removed the parts that others had written meanwhile. A crash
        between the write and the removal leaves copies of the same vectors, read as one."""
        with open(self.added / "merge.lock", "a") as lock:
            if fcntl is not None:
                try:
                    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    return
            parts = self._parts()
            if len(parts) < self.MERGE_AFTER:  # merged by the process that held the lock
                return
            vectors = self._read(self.path, strict=True) or {}
            for part in parts:
                vectors.update(self._read(part, strict=True) or {})
            if vectors:
                self.save(vectors)
            for part in parts:
                part.unlink(missing_ok=True)

    def save(self, vectors: dict[str, np.ndarray]) -> None:
        """Write all ``vectors`` (float16) into the main file, atomically
        (``wsd.persistence.atomic_open``)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._write(self.path, vectors)

    def _write(self, path: Path, vectors: dict[str, np.ndarray]) -> None:
        names = np.array(list(vectors), dtype=str)
        matrix = np.stack([np.asarray(v, np.float16) for v in vectors.values()])
        with atomic_open(path, "wb") as stream:
            np.savez(stream, header=np.array(json.dumps(self.header)), names=names,
                     vectors=matrix)


def _members(path: Path) -> tuple[dict, np.ndarray, np.ndarray]:
    """The header, synset names and float16 vectors of a gloss-vector file; ValueError (or
    what a damaged zip raises, ``DAMAGED_NPZ``) when they are not what ``GlossStore``
    writes."""
    with open(path, "rb") as stream:
        if stream.read(4) != ZIP_MAGIC:  # numpy would read it as a .npy array or a pickle
            raise ValueError("not an .npz archive")
        stream.seek(0)
        with np.load(stream, allow_pickle=False) as data:
            header = json.loads(str(data["header"]))
            names, matrix = data["names"], data["vectors"]
    if not isinstance(header, dict):
        raise ValueError("no header")
    if (names.ndim != 1 or names.dtype.kind != "U" or matrix.dtype != np.float16
            or matrix.ndim != 2 or len(matrix) != len(names) or not np.isfinite(matrix).all()):
        raise ValueError(f"{matrix.dtype} {matrix.shape} vectors for {len(names)} names")
    return header, names, matrix


class GlossVectors:
    """Gloss vectors by synset name, encoded on first use by ``model`` and kept on disk.

    ``layers``: the layers averaged (-1: the last, what sentence embeddings pool);
    ``cache``: keep them in ``path`` (default: a file under ``$WSD_CACHE_DIR/gloss-vectors``
    named by the encoder, layers and WordNet), else only in memory; ``wordnet``: the reader of
    the glosses (default ``wordnet_reader()``) and ``wordnet_id`` its identity in the file's
    header (default :func:`wordnet_identity`)."""

    def __init__(self, model: str = DEFAULT_ENCODER, layers: Sequence[int] = (-1,),
                 cache: bool = True, path: str | Path | None = None, wordnet=None,
                 wordnet_id: str | None = None) -> None:
        self.model = model
        self.wordnet_id = wordnet_id
        self.layers = tuple(layers)
        self.cache = cache
        self._path = Path(path) if path is not None else None
        self._wordnet = wordnet
        self._store: GlossStore | None = None
        self._vectors: dict[str, np.ndarray] | None = None
        self._identity: str | None = None  # the encoder whose vectors ``_vectors`` holds

    def _wn(self):
        if self._wordnet is None:
            self._wordnet = wordnet_reader()
        return self._wordnet

    def _open(self, encoder: Encoder) -> dict[str, np.ndarray]:
        """The vectors known for ``encoder``: read from its file at first, and again when the
        model's name now loads another encoder (its vectors are another's)."""
        if self._vectors is None or self._identity != encoder.identity:
            self._identity = encoder.identity
            header = {"encoder": encoder.identity, "pooling": POOLING,
                      "layers": layer_numbers(encoder, self.layers),
                      "wordnet": self.wordnet_id or wordnet_identity()}
            if self.cache:
                name = digest(*(str(header[k]) for k in sorted(header)))[:24]
                path = self._path or cache_root() / "gloss-vectors" / f"{name}.npz"
                self._store = GlossStore(path, header)
                self._vectors = self._store.load()
            else:
                self._vectors = {}
        return self._vectors

    def vectors(self, synsets: Iterable[str]) -> dict[str, np.ndarray]:
        """float32 vector of each synset name asked for (those not yet known are encoded and,
        with ``cache``, saved)."""
        encoder = load_encoder(self.model)
        known = self._open(encoder)
        wanted = list(dict.fromkeys(synsets))
        todo = [name for name in wanted if name not in known]
        if todo:
            wn = self._wn()
            texts = [text_words(gloss_text(wn.synset(name))) for name in todo]
            fresh = sentence_vectors(encoder, texts, self.layers).astype(np.float16)
            known.update(zip(todo, fresh, strict=True))
            if self._store is not None:
                self._store.add({name: known[name] for name in todo})
        return {name: known[name].astype(np.float32) for name in wanted}
