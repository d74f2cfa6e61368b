"""A learned similarity of two vectors: the averaged ranking perceptron over candidate groups.

Each example is a context vector ``x`` and a group of candidate vectors ``g_1 .. g_k`` (the
senses' gloss vectors), some of them right. The score is bilinear::

    score(x, g) = x^T (I + D) g

so ``D = 0`` is the plain dot product (the cosine of unit vectors), and ``D`` is learned,
mistake-driven, as the multiclass perceptron learns its rows (Kuhlmann), with Daumé's
averaging trick (``w``, the cached ``u``, the counter ``c``; the averaged ``D`` is
``D - u / c``)::

    D <- 0;  u <- 0;  c <- 1
    for each epoch, for each example (x, G, right) in a seeded shuffle:
        p <- the candidate with the largest score (ties: the first)
        if p is not right:
            r <- the right candidate with the largest score
            D <- D + step;  u <- u + c * step      step = x (g_r - g_p)^T
        c <- c + 1

``diagonal=True`` keeps only the diagonal of ``D`` (``d`` weights: the step is ``x * (g_r -
g_p)`` elementwise), ``False`` the whole ``d x d`` matrix. ``rate`` scales every step: a
rate below 1 keeps ``I + D`` nearer the plain dot product (the same as starting from ``I /
rate`` with steps of 1).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from wsd.learners.training import epoch_orders


class BilinearRankingPerceptron:
    """``score(x, g) = x^T (I + D) g`` with ``D`` learned by the averaged ranking perceptron
    (see the module docstring); ``history_[e]`` is the averaged ``D`` after epoch ``e + 1``
    and ``D_`` the last one."""

    def __init__(self, diagonal: bool = True, epochs: int = 5, seed: int = 0,
                 shuffle: bool = True, rate: float = 1.0) -> None:  # fmt: skip
        if epochs < 1:
            raise ValueError(f"epochs must be at least 1, not {epochs!r}")
        if not rate > 0:
            raise ValueError(f"rate must be > 0, not {rate!r}")
        self.rate = rate
        self.diagonal = diagonal
        self.epochs = epochs
        self.seed = seed
        self.shuffle = shuffle

    def fit(self, contexts: np.ndarray, candidates: Sequence[np.ndarray],
            right: Sequence[np.ndarray]) -> BilinearRankingPerceptron:  # fmt: skip
        """Learn ``D`` from ``contexts`` (n, d), each example's candidate rows (k_i, d) and
        its mask of right candidates (k_i,); an example without a right candidate, or with
        one candidate, teaches nothing and is left out."""
        self.history_ = list(self._epochs(contexts, candidates, right))
        self.D_ = self.history_[-1]
        return self

    def _epochs(self, contexts: np.ndarray, candidates: Sequence[np.ndarray],
                right: Sequence[np.ndarray]) -> Iterator[np.ndarray]:  # fmt: skip
        """The averaged ``D`` after each epoch; rows are read (as float64) when visited, so
        the examples stay in the caller's (float32, shared) arrays."""
        d = np.shape(contexts)[1]
        D = np.zeros(d if self.diagonal else (d, d))
        u = np.zeros_like(D)
        c = 1
        keep = [i for i in range(len(contexts))
                if len(candidates[i]) > 1 and np.any(right[i])]  # fmt: skip
        for order in epoch_orders(len(keep), self.epochs, self.seed, self.shuffle):
            for j in order:
                i = keep[j]
                x = np.asarray(contexts[i], np.float64)
                G = np.asarray(candidates[i], np.float64)
                good = np.asarray(right[i], bool)
                scores = G @ (x + (D * x if self.diagonal else x @ D))
                p = int(np.argmax(scores))
                if not good[p]:
                    r = int(np.flatnonzero(good)[np.argmax(scores[good])])
                    step = self.rate * (x * (G[r] - G[p]) if self.diagonal
                                        else np.outer(x, G[r] - G[p]))  # fmt: skip
                    D += step
                    u += c * step
                c += 1
            yield D - u / c

    def scores(self, x: np.ndarray, G: np.ndarray, D: np.ndarray | None = None) -> np.ndarray:
        """``x^T (I + D) g`` of each row ``g`` of ``G`` (``D``: default the last epoch's)."""
        D = self.D_ if D is None else D
        x = np.asarray(x, np.float64)
        return np.asarray(G, np.float64) @ (x + (D * x if D.ndim == 1 else x @ D))
