"""The all-words model file: one ``.npz`` archive (``allow_pickle=False``), compressed.

Members (all plain numeric arrays; nothing is pickled):

- ``metadata``: UTF-8 JSON as uint8 ``{"format": "wsd-allwords", "version": 1 (2 when the
  classifiers weigh sense cosines, ``sense_weight`` > 0; 3 when the decisions add gloss
  similarity, ``gloss_fusion`` or ``gloss_backoff``: what an older wsd cannot), "kind":
  "AllWordsWSD", "params", "sense_counts", "trained_on", "keys", "classes" (per key),
  "weightings" (the distinct fitted weightings), "reader" (the learnt raw-text reader's version,
  labels, feature templates, feature values and corpus lemmas, ``wsd.text.reader``; absent in older
  files, whose "conventions" are not read)}``;
- ``vocabulary``: the feature names shared by every key, sorted, NUL-separated UTF-8 (uint8);
- ``weighting_index`` (int32, per key): which of ``weightings`` the key uses;
- ``n_rows`` (int32, per key): how many features the key has a weight row for (only rows
  that are not all zero are kept);
- ``feature_ids`` (int32): the vocabulary index of each of those rows, key after key;
- ``coef`` (float32): the rows' weights, ``n_rows x n_classes`` per key, flattened;
- ``intercepts`` (float32): ``n_classes`` biases per key;
- with a reader, ``reader_rows`` (int32: which rows of its weights are not all zero) and
  ``reader_weights`` (float32: those rows, one weight per label, flattened).
- optionally (a model with a contextual block), ``sense_vector_names``: the synsets that have
  a sense vector, sorted, NUL-separated UTF-8 (uint8), and ``sense_vectors`` (float16): their
  unit vectors, one after another (``wsd.systems.allwords.sense_vectors``).

Loading checks that shapes agree, values are finite (in the arrays and in the metadata, which
is read as strict JSON), dtypes and the version are right, keys and each key's classes are
distinct strings, sense counts are positive integers, the vocabulary is UTF-8, and names the
file in every error (a damaged archive included). Per-key classifiers are built from the
arrays on first use.
"""

from __future__ import annotations

import bisect
import functools
import io
import json
import operator
import tokenize
import zipfile
import zlib
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
from numpy.lib import format as npy

from wsd.features.weighting import Weighting
from wsd.persistence import atomic_open, loads_json
from wsd.resources import ResourceFault
from wsd.systems.allwords import unpacked
from wsd.systems.allwords.keymodel import KeyModel
from wsd.systems.allwords.sense_vectors import SenseVectors
from wsd.text.reader import LearnedReader
from wsd.validation import MAX_COUNT, MAX_WEIGHT_VALUE

FORMAT = "wsd-allwords"
VERSION = 3  # the newest read; 2: classifiers that weigh sense cosines (``sense_weight``); 3:
# decisions that add gloss similarity (``gloss_fusion``, ``gloss_backoff``)
KIND = "AllWordsWSD"
SEPARATOR = "\x00"
NPZ_MAGIC = b"PK\x03\x04"
_DTYPES = {"metadata": np.uint8, "vocabulary": np.uint8, "weighting_index": np.int32,
           "n_rows": np.int32, "feature_ids": np.int32, "coef": np.float32,
           "intercepts": np.float32}  # fmt: skip
_READER_DTYPES = {"reader_rows": np.int32, "reader_weights": np.float32}
_SENSE_VECTORS = ("sense_vector_names", "sense_vectors")  # optional members


class ModelFileError(ResourceFault, ValueError):
    """A model file that is not a valid all-words model (the message names the file); met
    during a run (a file changed since it was loaded), the run's fault, not a document's."""


class PickledMemberError(ValueError):
    """A member holds Python objects: reading it would need pickle, which is refused."""


# What reading a damaged archive raises: a bad zip directory or CRC, a cut or corrupt deflate
# stream, a .npy header that does not parse (numpy tokenizes it), a member shorter than its
# header says, an unsupported compression method or an encrypted member.
DAMAGED_ARCHIVE_ERRORS = (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError,
                          SyntaxError, tokenize.TokenError, NotImplementedError, RuntimeError)


def _bytes(text: str) -> np.ndarray:
    return np.frombuffer(text.encode("utf-8"), dtype=np.uint8)


def file_version(header: Mapping[str, Any]) -> int:
    """The oldest format that holds the model's decisions, so that an older wsd refuses a file
    it would answer otherwise: 3 with gloss similarity in the decisions, 2 with classifiers that
    weigh sense cosines, else 1 (what every older wsd reads). Both need a contextual block."""
    params = header.get("params", {})
    if "context" not in header:
        return 1
    if params.get("gloss_fusion") or params.get("gloss_backoff"):
        return 3
    return 2 if params.get("sense_weight") else 1


def write_npz(path: str | Path, header: Mapping[str, Any], models: Mapping[str, KeyModel],
              reader: LearnedReader | None = None,
              sense_vectors: SenseVectors | None = None) -> Path:  # fmt: skip
    """Write the system's ``header`` (params, sense counts, trained_on), its per-key models,
    its raw-text ``reader`` and its sense vectors (when it has them).

    The file is written next to ``path`` and renamed into place, so a failure never leaves
    half a model behind.
    """
    path = Path(path).expanduser()
    keys = sorted(models)
    vocabulary = sorted({f for key in keys for f in models[key].features})
    if any(SEPARATOR in f for f in vocabulary):
        raise ValueError("a feature name contains a NUL character; it cannot be saved")
    index = {f: i for i, f in enumerate(vocabulary)}
    weightings: dict[str, int] = {}
    weighting_index, n_rows, ids, coefs, intercepts = [], [], [], [], []
    for key in keys:
        model = models[key]
        rows = np.array([index[f] for f in model.features], dtype=np.int64)
        order = np.argsort(rows, kind="stable")
        ids.append(rows[order])
        coefs.append(np.asarray(model.coef, dtype=np.float32)[order].ravel())
        intercepts.append(np.asarray(model.intercept, dtype=np.float32))
        n_rows.append(len(rows))
        weighting = json.dumps(model.weighting.to_dict(), sort_keys=True)
        weighting_index.append(weightings.setdefault(weighting, len(weightings)))
    metadata = {
        "format": FORMAT, "version": file_version(header), "kind": KIND, **header, "keys": keys,
        "classes": [models[key].classes for key in keys],
        "weightings": [json.loads(w) for w in weightings],
    }  # fmt: skip
    reader_arrays = {}
    if reader is not None:
        metadata["reader"], reader_arrays = reader.to_file()
    arrays = {
        "metadata": _bytes(json.dumps(metadata, ensure_ascii=False, allow_nan=False)),
        "vocabulary": _bytes(SEPARATOR.join(vocabulary)),
        "weighting_index": np.array(weighting_index, dtype=np.int32),
        "n_rows": np.array(n_rows, dtype=np.int32),
        "feature_ids": np.concatenate(ids or [np.zeros(0)]).astype(np.int32),
        "coef": np.concatenate(coefs or [np.zeros(0)]).astype(np.float32),
        "intercepts": np.concatenate(intercepts or [np.zeros(0)]).astype(np.float32),
        **reader_arrays,
    }
    if sense_vectors is not None:
        if any(SEPARATOR in name for name in sense_vectors.names):
            raise ValueError("a synset name contains a NUL character; it cannot be saved")
        arrays["sense_vector_names"] = _bytes(SEPARATOR.join(sense_vectors.names))
        arrays["sense_vectors"] = sense_vectors.matrix.astype(np.float16).ravel()
    with atomic_open(path, "wb") as out:
        _savez(out, arrays)
    return path


def _savez(out: BinaryIO, arrays: Mapping[str, np.ndarray]) -> None:
    """``np.savez_compressed`` at zlib's highest level (1.3% smaller for the SemCor model,
    for about 4 s more at saving; any ``np.load`` reads it)."""
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9,
                         allowZip64=True) as archive:  # fmt: skip
        for name, array in arrays.items():
            with archive.open(f"{name}.npy", "w", force_zip64=True) as member:
                npy.write_array(member, array, allow_pickle=False)


MAX_KNOWN_NAMES = 1 << 20  # names whose vocabulary position is kept (a text's features repeat)


class Vocabulary:
    """The shared feature names, kept as the file's decoded text and split into names when a
    key's classifier first asks for some (splitting at load would cost every start)."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._size = text.count(SEPARATOR) + 1 if text else 0
        self._ids: dict[str, int] = {}  # the names looked up so far (see ``ids``)

    def __len__(self) -> int:
        return self._size

    @functools.cached_property
    def _names(self) -> list[str]:
        return self._text.split(SEPARATOR) if self._text else []

    def names(self, ids: np.ndarray) -> list[str]:
        if len(ids) == 0:
            return []
        found = operator.itemgetter(*ids.tolist())(self._names)  # a tuple, or one name
        return list(found) if len(ids) > 1 else [found]

    def ids(self, names: Sequence[str]) -> np.ndarray:
        """The position of each name in the (sorted) vocabulary, -1 for names not in it."""
        known = self._ids
        try:  # a text's features repeat: most often every name is known already
            return np.fromiter(map(known.__getitem__, names), dtype=np.int64, count=len(names))
        except KeyError:
            pass
        if len(known) > MAX_KNOWN_NAMES:
            known.clear()
        new = set(names).difference(known)  # C-level passes over the names, not a Python one
        if new:
            vocabulary, size = self._names, self._size
            for name in new:
                i = bisect.bisect_left(vocabulary, name)
                known[name] = i if i < size and vocabulary[i] == name else -1
        return np.array(list(map(known.__getitem__, names)), dtype=np.int64)


class StoredKeyModel(KeyModel):
    """A key's classifier as a model file stores it: its feature ids, sorted, into the file's
    sorted vocabulary. Its feature names are looked up there (a dict of each key's names had
    cost a tenth of the raw-text path's time) and listed only when asked for."""

    def __init__(self, classes: list[str], vocabulary: Vocabulary, ids: np.ndarray,
                 coef: np.ndarray, intercept: np.ndarray, weighting: Weighting) -> None:
        self.classes = classes
        self._vocabulary, self._ids = vocabulary, ids
        self.coef = np.asarray(coef, dtype=np.float32)
        self.intercept = np.asarray(intercept, dtype=np.float32)
        self.weighting = weighting

    @functools.cached_property
    def features(self) -> list[str]:  # type: ignore[override]
        return self._vocabulary.names(self._ids)

    def row_ids(self, names: Sequence[str]) -> np.ndarray:
        ids = self._vocabulary.ids(names)
        rows = np.searchsorted(self._ids, ids)
        known = (ids >= 0) & (rows < len(self._ids))
        known[known] = self._ids[rows[known]] == ids[known]
        return np.where(known, rows, -1)

    @functools.cached_property
    def rows(self) -> Mapping[str, int]:
        return _Rows(self)


class _Rows(Mapping[str, int]):
    """Feature name -> weight row of a ``StoredKeyModel``, without a dict of its own."""

    def __init__(self, model: StoredKeyModel) -> None:
        self._model = model

    def __getitem__(self, name: str) -> int:
        row = int(self._model.row_ids([name])[0])
        if row < 0:
            raise KeyError(name)
        return row

    def __iter__(self) -> Iterator[str]:
        return iter(self._model.features)

    def __len__(self) -> int:
        return len(self._model._ids)


class KeyModels(Mapping[str, KeyModel]):
    """``{lemma#pos: KeyModel}`` over the arrays of a model file; each key's classifier is
    built when it is first asked for."""

    def __init__(self, keys, classes, weightings, weighting_index, vocabulary, n_rows,
                 feature_ids, coef, intercepts) -> None:  # fmt: skip
        self._position = {key: i for i, key in enumerate(keys)}
        self._classes = classes
        self._weightings = weightings
        self._weighting_index = weighting_index
        self._vocabulary = vocabulary
        self._row_start = np.concatenate([[0], np.cumsum(n_rows, dtype=np.int64)])
        widths = np.array([len(c) for c in classes], dtype=np.int64)
        self._coef_start = np.concatenate([[0], np.cumsum(n_rows * widths)])
        self._class_start = np.concatenate([[0], np.cumsum(widths)])
        self._feature_ids, self._coef, self._intercepts = feature_ids, coef, intercepts
        self._built: dict[str, KeyModel] = {}
        self._weightings_read: dict[int, Weighting] = {}

    def __getitem__(self, key: str) -> KeyModel:
        model = self._built.get(key)
        if model is None:
            i = self._position[key]
            classes = self._classes[i]
            ids = self._feature_ids[self._row_start[i] : self._row_start[i + 1]]
            coef = self._coef[self._coef_start[i] : self._coef_start[i + 1]]
            model = StoredKeyModel(
                classes=list(classes),
                vocabulary=self._vocabulary,
                ids=ids,
                coef=coef.reshape(len(ids), len(classes)),
                intercept=self._intercepts[self._class_start[i] : self._class_start[i + 1]],
                weighting=self._weighting(int(self._weighting_index[i])),
            )
            self._built[key] = model
        return model

    def _weighting(self, index: int) -> Weighting:
        """The fitted weighting ``index``, read once and shared by the keys that use it (a
        model file usually holds one for all its keys; reading it again for each key had
        cost 5% of the raw-text path's time)."""
        weighting = self._weightings_read.get(index)
        if weighting is None:
            weighting = self._weightings_read[index] = Weighting.from_dict(self._weightings[index])
        return weighting

    def __contains__(self, key: object) -> bool:
        return key in self._position

    def __iter__(self) -> Iterator[str]:
        return iter(self._position)

    def __len__(self) -> int:
        return len(self._position)


def read_npz(path: str | Path) -> tuple[dict[str, Any], KeyModels]:
    """``(metadata, per-key models)`` of a model file, checked; ModelFileError otherwise.
    The metadata's ``reader``, when the file has one, is the ``LearnedReader``."""
    path = Path(path)

    def bad(problem: str) -> ModelFileError:
        return ModelFileError(f"model file {str(path)!r} {problem}")

    try:
        arrays = _read_members(path)
    except PickledMemberError as err:
        raise bad(f"could not be read without pickle ({err}); wsd never loads pickles") from err
    except DAMAGED_ARCHIVE_ERRORS as err:
        raise bad(f"is not a readable .npz archive, or is damaged ({err})") from err
    missing = sorted(set(_DTYPES) - set(arrays))
    if missing:
        raise bad(f"is not an all-words model: it lacks {', '.join(missing)}")
    for name, dtype in _DTYPES.items():
        array = arrays[name]
        if array.dtype != dtype or array.ndim != 1:
            raise bad(f"has {name} of dtype {array.dtype} and {array.ndim} dimension(s); "
                      f"expected a 1-d {np.dtype(dtype).name} array")
    try:  # strict: no NaN, Infinity or 1e999, no nesting deep enough to recurse out
        metadata = loads_json(arrays["metadata"].tobytes().decode("utf-8"), "metadata")
    except ValueError as err:  # UnicodeDecodeError included
        raise bad(f"has unreadable metadata ({err})") from err
    _check_header(metadata, bad)
    if "reader" in metadata:
        metadata["reader"] = _reader(metadata["reader"], arrays, bad)
    return metadata, _key_models(metadata, arrays, bad)


def _reader(meta: Any, arrays: dict[str, np.ndarray], bad) -> LearnedReader:
    for name, dtype in _READER_DTYPES.items():
        array = arrays.get(name)
        if array is None or array.dtype != dtype or array.ndim != 1:
            raise bad(f"has a reader without a 1-d {np.dtype(dtype).name} {name}")
    if not isinstance(meta, dict) or not np.isfinite(arrays["reader_weights"]).all():
        raise bad("has a reader that is not an object, or weights that are not finite")
    try:
        return LearnedReader.from_file(meta, arrays["reader_rows"], arrays["reader_weights"])
    except ValueError as err:
        raise bad(f"has a reader that does not fit together ({err})") from err
def archive_directory(path: str | Path) -> tuple[tuple[str, int, int], ...]:
    """What the model file's zip directory says of its members (name, CRC-32, size), read
    without decompressing: other contents have another (a change of mode or owner does not
    change it, where it moves the file's change time)."""
    with zipfile.ZipFile(path) as archive:
        return tuple(sorted((info.filename, info.CRC, info.file_size)
                            for info in archive.infolist()))


def read_sense_vectors(path: str | Path) -> SenseVectors | None:
    """The sense vectors of a model file (None when it has none); ModelFileError naming the
    file when they are damaged or do not match their names."""
    path = Path(path)
    try:
        with zipfile.ZipFile(path) as archive:
            present = {info.filename: info for info in archive.infolist()}
            if not {f"{name}.npy" for name in _SENSE_VECTORS} <= set(present):
                return None
            for name in _SENSE_VECTORS:  # bounded before decompressing, as every member
                _check_member(archive, present[f"{name}.npy"])
            arrays = {name: _member_array(f"{name}.npy", archive.read(f"{name}.npy"))
                      for name in _SENSE_VECTORS}  # fmt: skip
        names_text = arrays["sense_vector_names"].tobytes().decode("utf-8")
    except (PickledMemberError, UnicodeDecodeError, *DAMAGED_ARCHIVE_ERRORS) as err:
        raise ModelFileError(f"model file {str(path)!r} has unreadable sense vectors ({err})") \
            from err
    names = names_text.split(SEPARATOR) if names_text else []
    vectors = arrays["sense_vectors"]
    if (arrays["sense_vector_names"].dtype != np.uint8 or vectors.dtype != np.float16
            or (len(vectors) % len(names) if names else len(vectors))):
        raise ModelFileError(f"model file {str(path)!r} has {vectors.dtype} sense vectors of "
                             f"{len(vectors)} values that do not fit {len(names)} names")
    try:
        return SenseVectors(names, vectors.reshape(len(names), -1) if names else
                            np.zeros((0, 0), np.float16))
    except ValueError as err:
        raise ModelFileError(f"model file {str(path)!r}: {err}") from err


def _member_array(name: str, data: bytes) -> np.ndarray:
    """One ``.npy`` member as an array over its decompressed bytes (no copy, no pickle)."""
    stream = io.BytesIO(data)
    read_header = {(1, 0): npy.read_array_header_1_0, (2, 0): npy.read_array_header_2_0}.get(
        npy.read_magic(stream))
    if read_header is None:
        raise ValueError(f"{name} has an unknown .npy version")
    shape, fortran, dtype = read_header(stream)
    if dtype.hasobject:
        raise PickledMemberError(f"{name} holds Python objects")
    if fortran or len(shape) != 1:
        raise ValueError(f"{name} is not a 1-d array")
    return np.frombuffer(data, dtype=dtype, count=shape[0], offset=stream.tell())


# A member's bound: its size at most MAX_MEMBER_BYTES, and beyond MAX_PLAIN_BYTES at most
# MAX_RATIO times its compressed size (weights and names compress less than 10 to 1; a
# "zip bomb" of zeros, 1000 to 1). Checked before a byte is decompressed.
MAX_MEMBER_BYTES = 1 << 31
MAX_PLAIN_BYTES = 1 << 26
MAX_RATIO = 50


def _check_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> unpacked.Member:
    """The member's directory entry and ``.npy`` header; ValueError unless its size is within
    the bounds above and equals what the header declares (shape times item size), read
    before the data."""
    size = info.file_size
    if size > MAX_MEMBER_BYTES or (size > MAX_PLAIN_BYTES
                                   and size > MAX_RATIO * max(info.compress_size, 1)):
        raise ValueError(f"{info.filename} would decompress to {size:,} bytes from "
                         f"{info.compress_size:,} (at most {MAX_MEMBER_BYTES:,}, and {MAX_RATIO} "
                         "times its compressed size); refused before reading it")
    with archive.open(info) as stream:
        read_header = {(1, 0): npy.read_array_header_1_0,
                       (2, 0): npy.read_array_header_2_0}.get(npy.read_magic(stream))
        if read_header is None:
            raise ValueError(f"{info.filename} has an unknown .npy version")
        shape, _, dtype = read_header(stream, max_header_size=10_000)
        if dtype.hasobject:  # its bytes are a pickle, not shape times item size
            raise PickledMemberError(f"{info.filename} holds Python objects")
        declared = stream.tell() + int(np.prod(shape, dtype=object)) * dtype.itemsize
    if declared != size:
        raise ValueError(f"{info.filename} declares {declared:,} bytes (shape {shape}) but holds "
                         f"{size:,}")
    return unpacked.Member(info, shape, dtype)


def _read_members(path: Path) -> dict[str, np.ndarray]:
    """The arrays of the ``.npz`` archive that the format knows, each checked first
    (``_check_member``): mapped from their decompressed copy when the file is large and has
    one (``wsd.systems.allwords.unpacked``), else decompressed in parallel threads (zlib
    releases the GIL), largest first (and a large file's copy written).
    The headers are parsed in this thread: numpy parses them with ``ast``, which is not
    thread-safe on Python 3.11."""
    with zipfile.ZipFile(path) as archive:
        present = {info.filename.removesuffix(".npy"): info for info in archive.infolist()}
        known = set(_DTYPES) | set(_READER_DTYPES)
        names = sorted(set(present) & known, key=lambda n: -present[n].file_size)
        members = {name: _check_member(archive, present[name]) for name in names}
        folder = unpacked.folder_for([present[name] for name in names])
        found = unpacked.read(folder, members) if folder else None
        if found is not None:
            return found
        with ThreadPoolExecutor(max_workers=2) as pool:
            blobs = list(pool.map(lambda n: archive.read(n + ".npy"), names))
    arrays = {name: _member_array(name + ".npy", data)
              for name, data in zip(names, blobs, strict=True)}  # fmt: skip
    if folder:
        unpacked.write(folder, dict(zip(names, blobs, strict=True)), members)
    return arrays


def _check_header(metadata: Any, bad) -> None:
    if not isinstance(metadata, dict) or metadata.get("format") != FORMAT:
        found = metadata.get("format") if isinstance(metadata, dict) else None
        raise bad(f"is not a wsd all-words model (format {found!r}, expected {FORMAT!r})")
    version = metadata.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise bad(f"has no valid format version (found {version!r})")
    if version > VERSION:
        raise bad(f"uses all-words model format version {version}, but this wsd reads up to "
                  f"version {VERSION}; upgrade wsd to load it")
    if metadata.get("kind") != KIND:
        raise bad(f"holds a {metadata.get('kind')!r} model, expected {KIND!r}")
    for field, kind in (("params", dict), ("sense_counts", dict), ("keys", list),
                        ("classes", list), ("weightings", list)):  # fmt: skip
        if not isinstance(metadata.get(field), kind):
            raise bad(f"has no valid {field!r} field in its metadata")
    if not isinstance(metadata.get("trained_on", {}) or {}, dict):
        raise bad("has a 'trained_on' field that is not an object")
    for key, counts in metadata["sense_counts"].items():
        if not isinstance(counts, dict) or not counts or not all(
                isinstance(sense, str) and _is_count(n) for sense, n in counts.items()):
            raise bad(f"has sense counts for {key!r} that are not positive integers per sense")


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_COUNT


def _key_models(metadata: dict[str, Any], arrays: dict[str, np.ndarray], bad) -> KeyModels:
    keys, classes, weightings = metadata["keys"], metadata["classes"], metadata["weightings"]
    n_rows, weighting_index = arrays["n_rows"], arrays["weighting_index"]
    if not (len(keys) == len(classes) == len(n_rows) == len(weighting_index)):
        raise bad(f"is inconsistent: {len(keys)} keys, {len(classes)} class lists, "
                  f"{len(n_rows)} row counts, {len(weighting_index)} weighting indices")
    if not all(isinstance(key, str) for key in keys) or len(set(keys)) != len(keys):
        raise bad("has keys that are not distinct strings")
    if any(not isinstance(c, list) or not c or not all(isinstance(s, str) for s in c)
           or len(set(c)) != len(c) for c in classes):  # fmt: skip
        raise bad("has a key with no classes, a class that is not a string, or a class twice")
    if n_rows.size and (n_rows.min() < 0 or weighting_index.min() < 0
                        or weighting_index.max() >= len(weightings)):  # fmt: skip
        raise bad("has a negative row count or a weighting index out of range")
    widths = np.array([len(c) for c in classes], dtype=np.int64)
    expected = {"feature_ids": int(n_rows.sum(dtype=np.int64)),
                "coef": int(np.dot(n_rows.astype(np.int64), widths)),
                "intercepts": int(widths.sum())}  # fmt: skip
    for name, size in expected.items():
        if arrays[name].size != size:
            raise bad(f"is inconsistent: {name} holds {arrays[name].size} values, the keys "
                      f"and classes call for {size}")
    for name in ("coef", "intercepts"):  # min and max are NaN or infinite if any value is
        low, high = (arrays[name].min(), arrays[name].max()) if arrays[name].size else (0, 0)
        if not (np.isfinite(low) and np.isfinite(high)):
            raise bad(f"has non-finite values (NaN or infinity) in {name}")
        if max(-low, high) > MAX_WEIGHT_VALUE:
            raise bad(f"has weights beyond +-{MAX_WEIGHT_VALUE:g} in {name} (a trained model's "
                      "are far smaller; scores would overflow)")
    try:  # one pass over the bytes; names are split from the text lazily
        vocabulary = Vocabulary(arrays["vocabulary"].tobytes().decode("utf-8"))
    except UnicodeDecodeError as err:
        raise bad(f"has a vocabulary that is not UTF-8 ({err})") from err
    ids = arrays["feature_ids"]
    if ids.size and (ids.min() < 0 or ids.max() >= len(vocabulary)):
        raise bad(f"has feature ids outside its vocabulary of {len(vocabulary)} names")
    try:  # checked here; each key builds its own copy on first use
        for weighting in weightings:
            Weighting.from_dict(weighting)
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise bad(f"has an invalid weighting ({err!r})") from err
    return KeyModels(keys, classes, weightings, weighting_index, vocabulary, n_rows, ids,
                     arrays["coef"], arrays["intercepts"])  # fmt: skip
