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
        steps = _DiagonalSteps(d) if self.diagonal else _RankOneSteps(d)
        c = 1
        keep = [i for i in range(len(contexts))
                if len(candidates[i]) > 1 and np.any(right[i])]  # fmt: skip
        for order in epoch_orders(len(keep), self.epochs, self.seed, self.shuffle):
            for j in order:
                i = keep[j]
                x = np.asarray(contexts[i], np.float64)
                G = np.asarray(candidates[i], np.float64)
                good = np.asarray(right[i], bool)
                scores = G @ (x + steps.apply(x))
                p = int(np.argmax(scores))
                if not good[p]:
                    r = int(np.flatnonzero(good)[np.argmax(scores[good])])
                    steps.add(x, self.rate * (G[r] - G[p]), c)
                c += 1
            steps.flush()
            yield steps.D - steps.u / c

    def scores(self, x: np.ndarray, G: np.ndarray, D: np.ndarray | None = None) -> np.ndarray:
        """``x^T (I + D) g`` of each row ``g`` of ``G`` (``D``: default the last epoch's)."""
        D = self.D_ if D is None else D
        x = np.asarray(x, np.float64)
        return np.asarray(G, np.float64) @ (x + (D * x if D.ndim == 1 else x @ D))


class _DiagonalSteps:
    """The diagonal ``D`` (a vector) and its averaging sum ``u``."""

    def __init__(self, d: int) -> None:
        self.D, self.u = np.zeros(d), np.zeros(d)

    def apply(self, x: np.ndarray) -> np.ndarray:
        return self.D * x

    def add(self, x: np.ndarray, y: np.ndarray, c: int) -> None:
        step = x * y
        self.D += step
        self.u += c * step

    def flush(self) -> None:
        """Nothing is pending."""


class _RankOneSteps:
    """The full ``D`` and ``u`` with their rank-one steps ``x y^T`` kept aside and added
    ``size`` at a time in one matrix product (an outer product per step costs d^2 writes);
    ``apply`` counts the pending steps."""

    def __init__(self, d: int, size: int = 256) -> None:
        self.D, self.u = np.zeros((d, d)), np.zeros((d, d))
        self.xs, self.ys, self.cs = np.zeros((size, d)), np.zeros((size, d)), np.zeros(size)
        self.n = 0

    def apply(self, x: np.ndarray) -> np.ndarray:
        n = self.n
        return x @ self.D + (self.xs[:n] @ x) @ self.ys[:n]

    def add(self, x: np.ndarray, y: np.ndarray, c: int) -> None:
        self.xs[self.n], self.ys[self.n], self.cs[self.n] = x, y, c
        self.n += 1
        if self.n == len(self.cs):
            self.flush()

    def flush(self) -> None:
        n = self.n
        self.D += self.xs[:n].T @ self.ys[:n]
        self.u += (self.xs[:n] * self.cs[:n, None]).T @ self.ys[:n]
        self.n = 0
