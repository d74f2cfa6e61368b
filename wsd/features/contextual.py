"""The target's contextual vector from a transformer encoder: a dense block of features.

The sentence is cut into word pieces; a window of at most ``window`` pieces (the two special
tokens included) centred on the target is run through the encoder; the vector is the mean,
over the chosen ``layers`` and over all the target's pieces (every token of a multiword
target), of the hidden states. Each distinct sentence is cut into pieces once; windows are
batched and identical windows run once, so all the targets of a sentence shorter than the
window pool their pieces from one encoding of it (an all-words corpus is encoded once per
sentence, not once per target). Each layer's vectors are kept as float16 (half the memory;
the rounding is far below what moves an answer) and cached on disk
(``wsd.features.vector_cache``) under the encoder's identity, the layer and the window, in
chunks as they come (an interrupted run keeps them), so a second experiment reads them back
bit for bit.

The Featurizer treats the block apart from the sparse features: it standardises each
dimension with training means and deviations, divides by sqrt(dim) so the block has about unit
length, and scales it by ``weight`` (see ``wsd.features.featurizer``).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from tqdm import tqdm

from wsd.features.encoders import (
    DEFAULT_ENCODER,
    Encoder,
    Pieces,
    check_window_fits,
    known_max_positions,
    layer_numbers,
    load_encoder,
    mean_over_pieces,
)
from wsd.features.extractors import Extractor, check_window
from wsd.features.vector_cache import VectorCache, digest
from wsd.instance import Instance

CHUNK = 20_000  # contexts encoded between two writes of the cache


@dataclass
class Run:
    """One piece sequence to encode: how many words it covers, the targets it serves as
    (cache key, piece positions), and its sentence when it holds all of it within the
    sentence pooling's pieces (``Encoding.sentences``)."""

    words: int
    targets: list[tuple[str, list[int]]] = field(default_factory=list)
    sentence: tuple[str, ...] | None = None


@dataclass
class Encoding:
    """One encoder pass over some instances, for every consumer of it (``ContextualEmbedding
    .encode``): each layer's float16 target vector by cache key, and, for the sentences whose
    run held them whole in at most ``sentence_pieces`` pieces, the float32 mean over all
    their pieces (special ones included) of ``sentence_layers`` averaged: what
    ``gloss_vectors.sentence_vectors`` gives for them, from the same hidden states."""

    identity: str
    window: int
    layers: list[int]
    targets: list[dict[str, np.ndarray]]
    sentence_layers: list[int]
    sentence_pieces: int
    sentences: dict[tuple[str, ...], np.ndarray]

    def target(self, inst: Instance, layer: int) -> np.ndarray | None:
        """The instance's float16 vector at layer number ``layer`` (None when absent)."""
        return self.targets[self.layers.index(layer)].get(instance_key(inst))


def instance_key(inst: Instance) -> str:
    """The cache key of an instance's target: its sentence and span."""
    return digest(*inst.tokens, f"{inst.span[0]}:{inst.span[1]}")


def piece_window(pieces: Pieces, span: tuple[int, int], size: int) -> tuple[slice, list[int]]:
    """The slice of at most ``size`` pieces centred on the target's pieces, and the target's
    piece positions inside it. A target with no pieces (a word the tokenizer drops) gets
    position -1, read as the [CLS] piece by the caller."""
    _, words = pieces
    start, end = span
    target = [i for i, w in enumerate(words) if w is not None and start <= w < end]
    n = len(words)
    if n <= size:
        return slice(0, n), target
    if not target:
        return slice(0, size), []
    first, last = target[0], min(target[-1], target[0] + size - 1)
    left = max(0, min(first - (size - (last - first + 1)) // 2, n - size))
    return slice(left, left + size), [i - left for i in target if left <= i < left + size]


@dataclass(frozen=True)
class ContextualEmbedding(Extractor):
    """The target's contextual vector from ``model`` (see ``wsd.features.encoders``).

    ``layers``: the layers averaged (negative counts from the last, -1 = last); ``window``:
    at most this many pieces per context, special tokens included, and no more than the
    encoder's positions (ValueError: here for the packaged MiniLM's 512, else when the encoder
    is loaded); ``weight``: the block
    weight beside the sparse features; ``batch_size``: contexts per encoder call;
    ``cache``: read and write the on-disk cache.
    """

    model: str = DEFAULT_ENCODER
    layers: tuple[int, ...] = (-4, -3, -2, -1)
    window: int = 256
    weight: float = 1.0
    batch_size: int = 32
    cache: bool = True

    name = "context"
    dense = True  # the Featurizer asks for ``vectors`` of a whole batch

    def __post_init__(self) -> None:
        object.__setattr__(self, "layers", tuple(self.layers))
        if not self.layers or not all(isinstance(x, int) for x in self.layers):
            raise ValueError(f"layers must be a non-empty list of ints, got {self.layers!r}")
        check_window(self.window, allow_none=False)
        if self.window < 3:
            raise ValueError(f"window must hold the two special pieces and one more, "
                             f"got {self.window}")
        check_window_fits(self.window, known_max_positions(self.model), self.model)
        if isinstance(self.weight, bool) or not self.weight > 0:
            raise ValueError(f"weight must be a positive number, got {self.weight!r}")

    def vectors(self, instances: Sequence[Instance], progress: bool = False,
                cache: bool | None = None, encoding: Encoding | None = None) -> np.ndarray:
        """float32 (len(instances), dim): the target's vector for each instance, the mean of
        the layers' float16 vectors.

        Each layer's pooled vector is kept as float16 and cached on its own, so settings that
        share layers (the last layer, the mean of the last four) share the encoding; the
        layers are summed into the result as they are read or encoded (no layer is held
        whole); ``progress`` shows a bar counting the words encoded (tokens/s); ``cache``
        overrides the extractor's setting for this call (the same vectors either way: the
        cache keeps the float16 values exactly); ``encoding``: a pass of this extractor's
        (``encode``) whose vectors are taken for the instances it holds."""
        encoder = self._encoder()
        layers = layer_numbers(encoder, self.layers, self.model)
        unique = sorted(set(layers))
        keys = [instance_key(inst) for inst in instances]
        if not keys:
            return np.zeros((0, 0), np.float32)
        row_of = {k: row for row, k in enumerate(dict.fromkeys(keys))}
        held, given = self._given(encoding, encoder, unique, row_of)
        wanted = {k: row for k, row in row_of.items() if k not in held}
        caches = [VectorCache(digest(encoder.identity, str(layer), str(self.window))[:24])
                  if (self.cache if cache is None else cache) else None for layer in unique]
        total: np.ndarray | None = None
        seen = np.zeros((len(unique), len(row_of)), bool)
        for n, (layer, cache) in enumerate(zip(unique, caches, strict=True)):
            found = [given[layer]] if given else []
            read = cache.rows(wanted) if cache and wanted else ()
            for rows, vectors in itertools.chain(found, read):
                if total is None:
                    total = np.zeros((len(row_of), vectors.shape[1]), np.float32)
                total[rows] += layers.count(layer) * vectors.astype(np.float32)
                seen[n, rows] = True
        missing = np.flatnonzero(~seen.all(axis=0))
        absent = set(missing.tolist())
        todo = {k: inst for k, inst in zip(keys, instances, strict=True) if row_of[k] in absent}
        if total is not None:
            total[missing] = 0.0  # a key missing from one layer is encoded for all
        for fresh, _ in self._encode(encoder, unique, todo, progress):
            for layer, cache, vectors in zip(unique, caches, fresh, strict=True):
                if cache:
                    cache.put(vectors)
                rows = np.array([row_of[k] for k in vectors], dtype=np.int64)
                matrix = np.stack(list(vectors.values())).astype(np.float32)
                if total is None:
                    total = np.zeros((len(row_of), matrix.shape[1]), np.float32)
                total[rows] += layers.count(layer) * matrix
        total /= len(layers)
        if len(row_of) == len(keys):
            return total
        return total[[row_of[k] for k in keys]]

    def _encoder(self) -> Encoder:
        """The encoder, loaded; ValueError when the window is longer than its positions."""
        encoder = load_encoder(self.model)
        check_window_fits(self.window, encoder.max_positions, self.model)
        return encoder

    def _given(self, encoding: Encoding | None, encoder: Encoder, layers: list[int],
               row_of: Mapping[str, int]
               ) -> tuple[set[str], dict[int, tuple[np.ndarray, np.ndarray]]]:  # fmt: skip
        """The keys of ``row_of`` that ``encoding`` holds, and layer -> (their rows, their
        float16 vectors); none without an encoding, or with one of another encoder, window
        or layers."""
        if (encoding is None or encoding.identity != encoder.identity
                or encoding.window != self.window or not set(layers) <= set(encoding.layers)):
            return set(), {}
        held = [k for k in row_of if k in encoding.targets[0]]
        if not held:
            return set(), {}
        rows = np.array([row_of[k] for k in held], dtype=np.int64)
        return set(held), {layer: (rows, np.stack(
            [encoding.targets[encoding.layers.index(layer)][k] for k in held]))
            for layer in layers}  # fmt: skip

    def encode(self, instances: Sequence[Instance], sentence_layers: Sequence[int] = (),
               sentence_pieces: int = 128) -> Encoding:
        """One pass of the encoder over ``instances`` (no cache), for several consumers: the
        target vectors of this extractor's layers and of ``sentence_layers``, and the sentence
        means of ``sentence_layers`` (see ``Encoding``); the vectors are those ``vectors`` and
        ``gloss_vectors.sentence_vectors`` give, bit for bit."""
        encoder = self._encoder()
        sentence_numbers = sorted(set(layer_numbers(encoder, sentence_layers, self.model)
                                      if sentence_layers else ()))
        numbers = sorted(set(layer_numbers(encoder, self.layers, self.model))
                         | set(sentence_numbers))
        todo = {instance_key(inst): inst for inst in instances}
        targets: list[dict[str, np.ndarray]] = [{} for _ in numbers]
        sentences: dict[tuple[str, ...], np.ndarray] = {}
        for fresh, means in self._encode(encoder, numbers, todo, False, sentence_numbers,
                                         sentence_pieces):  # fmt: skip
            for kept, vectors in zip(targets, fresh, strict=True):
                kept.update(vectors)
            sentences.update(means)
        return Encoding(encoder.identity, self.window, numbers, targets, sentence_numbers,
                        sentence_pieces, sentences)

    def _runs(self, encoder: Encoder, todo: Mapping[str, Instance], sentence_pieces: int = 0
              ) -> dict[tuple[int, ...], Run]:  # fmt: skip
        """The distinct piece sequences to encode, each with the words it covers and the
        (key, target piece positions) it serves: every sentence is cut into pieces once, and
        the targets of a sentence shorter than the window share one run, which is marked as
        the sentence's when it holds it whole in at most ``sentence_pieces`` pieces."""
        budget = self.window - 2
        sentences = list(dict.fromkeys(inst.tokens for inst in todo.values()))
        pieces = dict(zip(sentences, encoder.pieces(sentences), strict=True))
        runs: dict[tuple[int, ...], Run] = {}
        for key, inst in todo.items():
            sentence = pieces[inst.tokens]
            cut, target = piece_window(sentence, inst.span, budget)
            ids = (encoder.cls_id, *sentence[0][cut], encoder.sep_id)
            whole = len(ids) == len(sentence[0]) + 2 and len(ids) <= sentence_pieces
            run = runs.setdefault(ids, Run(len(set(sentence[1][cut])),
                                           sentence=inst.tokens if whole else None))
            run.targets.append((key, [i + 1 for i in target] or [0]))
        return runs

    def _encode(self, encoder: Encoder, layers: list[int], todo: Mapping[str, Instance],
                progress: bool, sentence_layers: Sequence[int] = (), sentence_pieces: int = 0
                ) -> Iterator[tuple[list[dict[str, np.ndarray]],
                                    dict[tuple[str, ...], np.ndarray]]]:  # fmt: skip
        """For each of ``layers``, the pooled vector of each key's target, and the sentence
        means of ``sentence_layers`` (numbers among ``layers``) of the runs that hold their
        sentence whole, in chunks of about ``CHUNK`` contexts (each chunk is cached as it
        comes, so an interrupted run keeps them)."""
        runs = self._runs(encoder, todo, sentence_pieces if sentence_layers else 0)
        order = sorted(runs, key=len)  # similar lengths share a batch: little padding
        bar = tqdm(total=sum(run.words for run in runs.values()), desc="encoding", unit="tok",
                   unit_scale=True, disable=not progress)
        pooled_layers = [layers.index(layer) for layer in sentence_layers]
        vectors: list[dict[str, np.ndarray]] = [{} for _ in layers]
        means: dict[tuple[str, ...], np.ndarray] = {}
        for b in range(0, len(order), self.batch_size):
            batch = order[b : b + self.batch_size]
            ids = np.full((len(batch), len(batch[-1])), encoder.pad_id, dtype=np.int64)
            mask = np.zeros_like(ids)
            for row, piece_ids in enumerate(batch):
                ids[row, : len(piece_ids)] = piece_ids
                mask[row, : len(piece_ids)] = 1
            states = encoder.hidden_states(ids, mask, layers)
            whole = [row for row, piece_ids in enumerate(batch)
                     if runs[piece_ids].sentence is not None]
            if pooled_layers and whole:
                pooled = mean_over_pieces(states[pooled_layers], mask)
                means.update((runs[batch[row]].sentence, pooled[row]) for row in whole)
            for row, piece_ids in enumerate(batch):
                for key, positions in runs[piece_ids].targets:
                    pooled = states[:, row, positions].mean(axis=1, dtype=np.float32).astype(
                        np.float16)
                    for per_layer, vector in zip(vectors, pooled, strict=True):
                        per_layer[key] = vector
                bar.update(runs[piece_ids].words)
            if len(vectors[0]) >= CHUNK:
                yield vectors, means
                vectors, means = [{} for _ in layers], {}
        bar.close()
        if vectors[0]:
            yield vectors, means

    def __call__(self, inst: Instance) -> dict[str, float]:
        """The raw vector as features ``context:0``, ``context:1``, ... (unscaled)."""
        (vector,) = self.vectors([inst])
        return {f"{self.name}:{j}": float(v) for j, v in enumerate(vector)}
