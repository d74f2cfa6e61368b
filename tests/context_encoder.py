"""A stand-in contextual encoder in numpy, so tests of the contextual features never need the
packaged model (or onnxruntime)."""

import errno
import io
import os
import tempfile
import zlib

import numpy as np

from wsd.features import encoders, vector_cache

DIM = 8
CLS, SEP, PAD = 1, 2, 0


class NumpyEncoder(encoders.Encoder):
    """Words cut into 3-letter pieces (ids from crc32); layer 0 = a random embedding table,
    layer l = tanh(layer l-1 + the masked mean of layer l-1 @ A_l): every layer above 0 sees the
    whole window, as attention does. Counts its batches and the rows it encoded."""

    n_layers = 3
    cls_id, sep_id, pad_id = CLS, SEP, PAD
    identity = "numpy-standin-1"

    def __init__(self, vocab=97):
        rng = np.random.default_rng(0)
        self.vocab = vocab
        self.table = rng.normal(size=(vocab, DIM)).astype(np.float32)
        self.mixers = rng.normal(size=(self.n_layers, DIM, DIM)).astype(np.float32)
        self.calls = 0
        self.rows = 0

    def piece_ids(self, word):
        word = word.lower()
        return [3 + zlib.crc32(word[i : i + 3].encode()) % (self.vocab - 3)
                for i in range(0, len(word), 3)]

    def pieces(self, sentences):
        result = []
        for words in sentences:
            ids, owners = [], []
            for w, word in enumerate(words):
                pieces = self.piece_ids(word)
                ids += pieces
                owners += [w] * len(pieces)
            result.append((ids, owners))
        return result

    def hidden_states(self, ids, mask, layers):
        self.calls += 1
        self.rows += len(ids)
        states = [self.table[ids]]
        weights = mask[:, :, None].astype(np.float32)
        for mixer in self.mixers:
            below = states[-1]
            context = (below * weights).sum(axis=1, keepdims=True) / weights.sum(axis=1)[:, None]
            states.append(np.tanh(below + context @ mixer))
        return np.stack([states[layer] for layer in layers])


def standin_encoder(monkeypatch, tmp_path):
    """For a fixture to ``yield from``: a fresh NumpyEncoder registered as "numpy-test" and as
    the default encoder (so feature presets such as full+context use it), with the cache in
    ``tmp_path``; the loaded encoders are forgotten afterwards."""
    monkeypatch.setenv("WSD_CACHE_DIR", str(tmp_path / "cache"))
    encoder = NumpyEncoder()
    for name in ("numpy-test", encoders.DEFAULT_ENCODER):
        monkeypatch.setitem(encoders._FACTORIES, name, lambda: encoder)
    encoders.load_encoder.cache_clear()
    yield encoder
    encoders.load_encoder.cache_clear()


def unwritable(how: str, cache, monkeypatch) -> str:
    """Make the cache folder ``cache`` unwritable ``how``: a path that is a file, a full disk
    (a write fails half-way), read-only (a temporary file refused, so root is refused too);
    say what the notice gives as the reason."""
    monkeypatch.setattr(vector_cache, "_NOTED", set())
    if how == "file":
        cache.write_text("a file where the cache folder goes")
        return "not a directory"
    code = errno.ENOSPC if how == "full" else errno.EACCES

    def refused(stream, *args, **kwargs):
        stream.write(b"PK\x03\x04 half")
        raise OSError(code, os.strerror(code))

    if how == "full":
        monkeypatch.setattr(np, "savez", refused)
    else:
        monkeypatch.setattr(tempfile, "mkstemp", lambda *a, **k: refused(io.BytesIO()))
    return os.strerror(code).lower()
