"""Labelling with the weights ``wsd.learners.greedy`` trains, in plain numpy: reading raw
text compiles nothing and does not import numba (a cold start's cost)."""

from __future__ import annotations

import numpy as np

CHUNK = 2048  # tokens whose static scores are summed at a time (bounded temporaries)


def dynamic_rows(n_labels: int, n_tags: int) -> int:
    """How many weight rows the dynamic features take (after the static ones)."""
    states = n_labels + 1  # the labels and the sentence start
    return states + states * states + states * n_tags


def label_greedy(X: np.ndarray, tags: np.ndarray, starts: np.ndarray, W: np.ndarray,
                 n_static: int, n_tags: int, inside: int, outside: int,
                 ) -> tuple[list[int], np.ndarray]:  # fmt: skip
    """The labels of the tokens of several sentences by ``W`` (``train_greedy``'s weights;
    ``X``, ``tags`` and ``starts`` as there) and each token's scores; the label ``inside``
    (a unit goes on) never follows ``outside`` or a sentence start. Plain numpy: nothing to
    compile at start-up."""
    n_labels = W.shape[1]
    states = n_labels + 1
    static = np.empty((len(X), n_labels), dtype=W.dtype)
    padded = np.vstack([W[:n_static], np.zeros((1, n_labels), dtype=W.dtype)])  # -1: zeros
    for at in range(0, len(X), CHUNK):  # each token's rows summed in template order
        rows = X[at : at + CHUNK]
        static[at : at + CHUNK] = padded[np.where(rows >= 0, rows, n_static)].sum(axis=1)
    d1 = W[n_static : n_static + states]
    d2 = W[n_static + states : n_static + states + states * states]
    d3 = W[n_static + states + states * states :]
    labels: list[int] = []
    scores = np.empty_like(static)
    for s in range(len(starts) - 1):
        prev = prev2 = n_labels
        for i in range(starts[s], starts[s + 1]):
            row = static[i] + d1[prev] + d2[prev2 * states + prev] + d3[prev * n_tags + tags[i]]
            if prev in (n_labels, outside):
                row[inside] = -np.inf
            scores[i] = row
            guess = int(row.argmax())
            labels.append(guess)
            prev2, prev = prev, guess
    return labels, scores
