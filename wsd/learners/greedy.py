"""A greedy left-to-right sequence labeller trained by the averaged perceptron, compiled with
numba: Honnibal's tagger (the lecture notes' averaged perceptron, one label per token, the
previous labels among the features), over precomputed feature ids.

Each token has a row of static feature ids (``-1``: none) and a tag id; the labels before it
add three dynamic features: the previous label, the previous two labels, and the previous
label with the token's tag. On a mistake (guess p, gold t) every active feature's weight for
t goes up by one and for p down by one; the averaged weights are ``W - U / c`` (``U`` sums
each update times the counter ``c``, which grows by one per token), as in
``wsd.learners.engine``. During training the previous labels are the labeller's own guesses,
as at prediction. Sentences are visited in a seeded random order each epoch.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from wsd.learners.greedylabel import dynamic_rows


@njit(cache=True, nogil=True)
def _dynamic(n_static, n_labels, n_tags, prev, prev2, tag, out):
    states = n_labels + 1
    out[0] = n_static + prev
    out[1] = n_static + states + prev2 * states + prev
    out[2] = n_static + states + states * states + prev * n_tags + tag


@njit(cache=True, nogil=True)
def _train(X, tags, starts, gold, orders, n_static, n_labels, n_tags, W, U):
    c = 1.0
    width = X.shape[1]
    active = np.empty(width + 3, dtype=np.int64)  # the static ids, then the dynamic ones
    scores = np.empty(n_labels)
    for e in range(orders.shape[0]):
        for s in orders[e]:
            prev, prev2 = n_labels, n_labels  # the start state
            for i in range(starts[s], starts[s + 1]):
                active[:width] = X[i]
                _dynamic(n_static, n_labels, n_tags, prev, prev2, tags[i], active[width:])
                scores[:] = 0.0
                for f in active:
                    if f >= 0:
                        scores += W[f]
                guess = np.argmax(scores)  # the first best: ties to the lower label
                truth = gold[i]
                if guess != truth:
                    for f in active:
                        if f >= 0:
                            W[f, truth] += 1.0
                            W[f, guess] -= 1.0
                            U[f, truth] += c
                            U[f, guess] -= c
                c += 1.0
                prev2, prev = prev, guess
    return c


def train_greedy(X: np.ndarray, tags: np.ndarray, starts: np.ndarray, gold: np.ndarray,
                 n_static: int, n_labels: int, n_tags: int, epochs: int,
                 seed: int = 0) -> np.ndarray:  # fmt: skip
    """The averaged weights, ``(n_static + dynamic_rows(n_labels, n_tags), n_labels)``:
    ``X`` (tokens x templates, int, -1 for none), ``tags`` (tag id per token), ``starts``
    (each sentence's first token, then the number of tokens), ``gold`` (label per token)."""
    rows = n_static + dynamic_rows(n_labels, n_tags)
    W = np.zeros((rows, n_labels))
    U = np.zeros((rows, n_labels))
    rng = np.random.default_rng(seed)
    n_sentences = len(starts) - 1
    orders = np.stack([rng.permutation(n_sentences) for _ in range(epochs)]) if epochs else \
        np.zeros((0, n_sentences), dtype=np.int64)
    c = _train(np.ascontiguousarray(X, dtype=np.int64), tags.astype(np.int64),
                  starts.astype(np.int64), gold.astype(np.int64), orders, n_static, n_labels,
                  n_tags, W, U)  # fmt: skip
    return W - U / c
