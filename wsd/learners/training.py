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


class EarlyStopping:
    """Keep the state of the epoch with the best dev accuracy; say when patience runs out.

    ``update`` takes the epoch's dev accuracy, its number and a function that snapshots the
    learner (called only when the epoch is the best so far) and returns True to stop.
    ``best`` is then (accuracy, epoch, snapshot), or None before the first update.
    """

    def __init__(self, patience: int | None) -> None:
        self.patience = patience
        self.best: tuple | None = None
        self._stale = 0

    def update(self, accuracy: float, epoch: int, snapshot) -> bool:
        if self.best is None or accuracy > self.best[0]:
            self.best = (accuracy, epoch, snapshot())
            self._stale = 0
            return False
        self._stale += 1
        return self.patience is not None and self._stale >= self.patience
