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
    # The sentences side by side: step t labels every sentence's token t (the longest
    # sentences first, so that those still going on are a prefix), each token's sums as one
    # token at a time adds them.
    lengths = np.diff(starts)
    order = np.argsort(-lengths, kind="stable")
    first, lengths = np.asarray(starts[:-1])[order], lengths[order]
    labels = np.empty(len(X), dtype=np.int64)
    scores = np.empty_like(static)
    prev = prev2 = np.full(len(order), n_labels, dtype=np.int64)
    for t in range(int(lengths[0]) if len(lengths) else 0):
        going = int(np.searchsorted(-lengths, -t, side="left"))  # sentences longer than t
        at, prev, prev2 = first[:going] + t, prev[:going], prev2[:going]
        row = static[at] + d1[prev] + d2[prev2 * states + prev] + d3[prev * n_tags + tags[at]]
        row[(prev == n_labels) | (prev == outside), inside] = -np.inf
        scores[at] = row
        prev2, prev = prev, row.argmax(axis=1)
        labels[at] = prev
    return labels.tolist(), scores
