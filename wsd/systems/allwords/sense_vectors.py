"""Sense vectors from a training corpus, and through WordNet for the senses it never shows
(after LMMS, Loureiro & Jorge 2019).

A synset seen in training gets the mean of its instances' target vectors (the contextual
block's raw vectors: the mean of the encoder's chosen layers over the target's pieces). A
synset never seen gets, from WordNet: the mean of the vectors of its nearest hypernyms that
have one (instance hypernyms too; climbing one level at a time), else the mean of the seen
synsets of its lexicographer file (*noun.artifact*, *adj.all*, ...). Vectors are kept as
float16; cosines with an instance's vector are what the all-words system uses.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from wsd.features.gloss_vectors import unit_rows
from wsd.instance import Instance
from wsd.knowledge.sensekeys import lemma_for_key

MAX_CLIMB = 8  # hypernym levels tried before the lexicographer file
CHUNK = 4096  # training vectors summed in float64 at a time
VECTOR_PRIOR = 0.1  # the sense prior's weight beside the cosine (benchmarks/sense_vectors.py)


class SenseSums:
    """Per synset, the sum (float64) and number of the training vectors whose instance's first
    gold sense is in it, and the synset of each sense key met (None: WordNet lacks it)."""

    def __init__(self, names: list[str], sums: np.ndarray, counts: np.ndarray,
                 synset_of: dict[str, str | None], wordnet=None) -> None:
        self.names, self.sums, self.counts, self.synset_of = names, sums, counts, synset_of
        self.wordnet = wordnet
        self.row = {name: i for i, name in enumerate(names)}

    @classmethod
    def fit(cls, instances: Sequence[Instance], vectors: np.ndarray, wordnet) -> SenseSums:
        synset_of: dict[str, str | None] = {}
        row: dict[str, int] = {}
        owner = np.full(len(instances), -1, np.int64)
        for i, inst in enumerate(instances):
            if not inst.senses:
                continue
            name = synset_name(wordnet, inst.senses[0], synset_of)
            if name is not None:
                owner[i] = row.setdefault(name, len(row))
        width = vectors.shape[1] if len(vectors) else 0
        sums = np.zeros((len(row), width))
        for a in range(0, len(owner), CHUNK):  # float64 a chunk at a time, never the whole
            chunk = owner[a : a + CHUNK]
            kept = np.flatnonzero(chunk >= 0)
            np.add.at(sums, chunk[kept], np.asarray(vectors[a : a + CHUNK][kept], np.float64))
        counts = np.bincount(owner[owner >= 0], minlength=len(row))
        names = sorted(row)
        order = [row[n] for n in names]
        return cls(names, sums[order], counts[order], synset_of, wordnet)


def synset_name(wordnet, key: str, known: dict[str, str | None]) -> str | None:
    """The synset name of a sense key (None when WordNet lacks it), remembered in ``known``."""
    if key not in known:
        try:
            known[key] = lemma_for_key(wordnet, key).synset().name()
        except (LookupError, ValueError):
            known[key] = None
    return known[key]


class SenseVectors:
    """Unit float16 vectors by synset name (``names``, ``matrix``), and the WordNet reader
    that builds the vectors of unseen synsets (given on first use, or by ``fit``)."""

    def __init__(self, names: Sequence[str], matrix: np.ndarray, wordnet=None) -> None:
        matrix = np.asarray(matrix, np.float16)
        if matrix.ndim != 2 or len(matrix) != len(names) or len(set(names)) != len(names):
            raise ValueError(f"sense vectors: {len(names)} distinct names for a "
                             f"{matrix.shape} matrix")
        if not np.isfinite(matrix).all():
            raise ValueError("sense vectors hold NaN or infinite values")
        self.names = list(names)
        self.matrix = matrix
        self.wordnet = wordnet
        self._index = {name: i for i, name in enumerate(self.names)}
        self._built: dict[str, np.ndarray | None] = {}
        self.synset_of: dict[str, str | None] = {}  # sense key -> synset, as looked up
        self._lexnames: dict[str, np.ndarray] | None = None

    @classmethod
    def fit(cls, instances: Sequence[Instance], vectors: np.ndarray, wordnet) -> SenseVectors:
        """The mean target vector of each synset, over the instances whose first gold sense
        is in it (``vectors``: one row per instance); sense keys WordNet lacks are skipped."""
        return cls.of_sums(SenseSums.fit(instances, vectors, wordnet))

    @classmethod
    def of_sums(cls, sums: SenseSums) -> SenseVectors:
        """The unit mean vector of each synset of ``sums``."""
        return cls(sums.names, unit_rows(sums.sums), sums.wordnet)

    def vector(self, synset: str) -> np.ndarray | None:
        """The float32 unit vector of a synset: its own, else built through WordNet (None
        when neither hypernyms nor its lexicographer file have any)."""
        if synset in self._index:
            return self.matrix[self._index[synset]].astype(np.float32)
        if synset not in self._built:
            self._built[synset] = self._through_wordnet(synset)
        return self._built[synset]

    def cosines(self, vector: np.ndarray, synsets: Iterable[str | None]) -> np.ndarray:
        """The cosine of ``vector`` with each synset's vector (0 where there is none)."""
        unit = unit_rows(np.asarray(vector, np.float64)[None])[0]
        found = [self.vector(s) if s else None for s in synsets]
        return np.array([0.0 if v is None else float(unit @ v) for v in found])

    def _through_wordnet(self, name: str) -> np.ndarray | None:
        synset = self.wordnet.synset(name)
        level = [synset]
        for _ in range(MAX_CLIMB):
            level = [h for s in level for h in (*s.hypernyms(), *s.instance_hypernyms())]
            if not level:
                break
            known = [self._index[h.name()] for h in level if h.name() in self._index]
            if known:
                return unit_rows(self.matrix[known].astype(np.float64).mean(axis=0)[None])[0]
        return self._lexname_means().get(synset.lexname())

    def _lexname_means(self) -> dict[str, np.ndarray]:
        if self._lexnames is None:
            groups: dict[str, list[int]] = {}
            for i, name in enumerate(self.names):
                groups.setdefault(self.wordnet.synset(name).lexname(), []).append(i)
            self._lexnames = {lexname: unit_rows(self.matrix[rows].astype(np.float64).mean(
                axis=0)[None])[0] for lexname, rows in groups.items()}
        return self._lexnames

