"""Pieces every learner shares so that all engines see examples in the same order."""

from __future__ import annotations

import numpy as np


def epoch_orders(n_examples: int, epochs: int, seed: int | None, shuffle: bool):
    """Yield, for each epoch, the order in which the examples are visited.

    With ``shuffle`` a single ``numpy.random.default_rng(seed)`` draws one
    permutation per epoch in turn, so the dict-based and the compiled engine
    visit examples identically for the same seed.
    """
    rng = np.random.default_rng(seed)
    for _ in range(epochs):
        if shuffle:
            yield rng.permutation(n_examples)
        else:
            yield np.arange(n_examples)
