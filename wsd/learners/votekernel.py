"""The compiled vote of the multiclass voted perceptron (see ``wsd.learners.voted``).

For each test row the kernel walks the mistakes once: the running scores of every class start
at 0 (the vector W_0) and mistake m adds ``g + 1`` to its gold class and subtracts it from its
predicted class, where ``g`` is the dot product of the mistake's example with the row. After
each step the argmax (lowest index on ties) is the vote of that vector, weighted by its
survival count. The argmax is kept up to date from the two scores that changed and only
recomputed over all classes when the leader's own score went down. Cost per row: the dot
products through the inverted index plus O(vectors) (x classes at worst), with no
(vectors x rows) working arrays. Imported on first prediction:
loading numba takes a moment.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def vote(x_indptr, x_indices, x_data, post_indptr, post_rows, post_values, mistake_rows,
         gold, predicted, counts, n_classes, n_distinct, votes, steps, keep_steps):
    """Fill ``votes`` (rows x classes) and, with ``keep_steps``, ``steps`` (vectors x rows:
    the class each vector predicts). ``post_*``: the mistake examples by feature (CSC)."""
    n_rows = x_indptr.shape[0] - 1
    gains = np.zeros(n_distinct)
    scores = np.zeros(n_classes)
    for i in range(n_rows):
        gains[:] = 0.0
        for j in range(x_indptr[i], x_indptr[i + 1]):
            f = x_indices[j]
            value = x_data[j]
            for p in range(post_indptr[f], post_indptr[f + 1]):
                gains[post_rows[p]] += post_values[p] * value
        scores[:] = 0.0
        best = 0
        run = counts[0]  # votes of the current leader since it took the lead
        if keep_steps:
            steps[0, i] = 0
        for m in range(mistake_rows.shape[0]):
            up = gold[m]
            down = predicted[m]
            delta = gains[mistake_rows[m]] + 1.0
            scores[up] += delta
            scores[down] -= delta
            leader = best
            if (leader == up and delta < 0.0) or (leader == down and delta > 0.0):
                leader = 0  # the leader lost ground: look at every class
                for k in range(1, n_classes):
                    if scores[k] > scores[leader]:
                        leader = k
            elif leader != up and leader != down:
                leader = _leader(scores, leader, up)
                leader = _leader(scores, leader, down)
            if leader != best:
                votes[i, best] += run
                best = leader
                run = 0.0
            run += counts[m + 1]
            if keep_steps:
                steps[m + 1, i] = best
        votes[i, best] += run


@njit(cache=True, inline="always")
def _leader(scores, best, other):
    """The argmax of the two classes, the lower index on a tie."""
    if scores[other] > scores[best] or (scores[other] == scores[best] and other < best):
        return other
    return best
