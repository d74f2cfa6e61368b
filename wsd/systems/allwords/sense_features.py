"""The cosine of an instance's contextual vector with each candidate sense's vector, as
features of its key's classifier (issue 39, part 3a).

A key with classes c_1..c_k gets k features ``sense:<c_j>``, valued ``weight · cos(x, v_j)``:
x the instance's raw contextual vector (the block's, before scaling), v_j the vector of c_j's
synset (``SenseVectors``: the mean of its training vectors). The classifier keeps a weight per
feature and class, so it learns from data how much each class gains with its own cosine and
with the others' (a joint feature phi(x, y) = cos(x, v_y) is the case of weights on the
diagonal). A training instance is inside its own sense's mean, so its cosine with that sense
is taken with the mean of the sense's *other* training vectors (leave one out; 0 when it has
none): the weights are learnt from what a new instance will see, not from a cheating value.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from wsd.systems.allwords.sense_vectors import SenseSums, SenseVectors, synset_name

PREFIX = "sense:"


def feature_names(classes: Sequence[str]) -> list[str]:
    """The feature name of each class's cosine."""
    return [f"{PREFIX}{c}" for c in classes]


def columns(cosines: np.ndarray, weight: float) -> np.ndarray:
    """The float32 feature values of rows of cosines: ``weight`` times them."""
    return weight * np.asarray(cosines, np.float32)


def _cosine(rows: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """Cosines of every row with every column vector (0 where either has length 0)."""
    norms = np.linalg.norm(rows, axis=1)[:, None] * np.linalg.norm(columns, axis=1)[None]
    dots = rows @ columns.T
    return np.divide(dots, norms, out=np.zeros_like(dots), where=norms > 0)


def training_cosines(vectors: np.ndarray, inside: Sequence[bool], labels: Sequence[str],
                     classes: Sequence[str], sums: SenseSums) -> np.ndarray:
    """``(len(vectors), len(classes))`` cosines of training vectors with the classes' mean
    vectors, leave-one-out where a row is ``inside`` the sums under its ``labels`` sense."""
    x = np.asarray(vectors, np.float64)
    synsets = [sums.synset_of.get(c) for c in classes]
    rows = [sums.row.get(s, -1) if s else -1 for s in synsets]
    known = np.array([r >= 0 for r in rows])
    means = np.zeros((len(classes), x.shape[1]))
    means[known] = sums.sums[[r for r in rows if r >= 0]]
    found = _cosine(x, means)
    for i, (label, own) in enumerate(zip(labels, inside, strict=True)):
        if not own or label not in classes:
            continue
        j = list(classes).index(label)
        if not known[j]:
            continue
        if sums.counts[rows[j]] <= 1:
            found[i, j] = 0.0  # no other example of the sense
        else:
            found[i, j] = _cosine(x[i : i + 1], (means[j] - x[i])[None])[0, 0]
    return found


def cosines(table: SenseVectors, vector: np.ndarray, classes: Sequence[str]) -> np.ndarray:
    """The cosine of a new instance's raw vector with each class's sense vector (0 where the
    class's synset has none, or WordNet lacks its key)."""
    synsets = [synset_name(table.wordnet, c, table.synset_of) for c in classes]
    return table.cosines(vector, synsets)


def features(table: SenseVectors, vector: np.ndarray, classes: Sequence[str],
             weight: float) -> dict[str, float]:
    """A new instance's cosine features for a classifier with ``classes``."""
    values = columns(cosines(table, vector, classes)[None], weight)[0]
    return dict(zip(feature_names(classes), values.tolist(), strict=True))
