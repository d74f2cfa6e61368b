"""The compiled vote of the multiclass voted perceptron (see ``wsd.learners.voted``).

The scores of vector W_m on a test row are running sums: mistake m adds ``g + 1`` to its gold
class and subtracts it from its predicted class, where ``g`` is the dot product of the
mistake's example with the row (taken through an inverted index of the mistake examples by
feature). Each vector votes for its argmax (lowest index on ties), weighted by its survival
count.

The late vectors, which survive longest, carry most of the votes (on senseval line, the last
5% of the vectors hold half of them). So the vectors split in two: the *tail*, the last ones,
holding three quarters of the votes (``voted.TAIL_SHARE``), and the ones before it. The tail's
running sums start from the scores of W_{tail-1}, taken directly from a dense copy of that
vector made at fit time; the tail then votes from the last vector backwards. When only the
winner is wanted (``winner_only``, what ``predict`` needs), the walk stops as soon as the
leader's lead exceeds the votes still to come, since no other vector can change the winner
then, and the vectors before the tail vote only when the tail did not settle it. They run
forward from W_0 = 0. The full vote and ``predict`` take every argmax on the same sums, so the
winner is always the full vote's (ties included). Imported on first prediction: loading
numba takes a moment.
"""

from __future__ import annotations

import numpy as np
from numba import njit

CHECK_EVERY = 8  # tail vectors between two checks of whether the winner is settled


@njit(cache=True, nogil=True)
def vote(x_indptr, x_indices, x_data, post_indptr, post_rows, post_values, mistake_rows,
         gold, predicted, counts, earlier, checkpoint, checkpoint_bias, tail, n_distinct,
         votes, steps, keep_steps, winner_only):
    """Fill ``votes`` (rows x classes; with ``winner_only`` only as far as needed to settle
    their argmax) and, with ``keep_steps``, ``steps`` (vectors x rows: the class each vector
    predicts, for the vectors that voted). ``post_*``: the mistake examples by feature (CSC);
    ``earlier[m]``: the votes of W_0 .. W_{m-1}; ``checkpoint``, ``checkpoint_bias``: the
    vector W_{tail-1}, dense (features x classes); ``tail``: the first vector of the tail."""
    n_vectors = mistake_rows.shape[0] + 1
    n_classes = checkpoint_bias.shape[0]
    gains = np.zeros(n_distinct)
    scores = np.zeros(n_classes)
    tail_scores = np.zeros((n_vectors - tail, n_classes))
    for i in range(x_indptr.shape[0] - 1):
        gains[:] = 0.0
        for j in range(x_indptr[i], x_indptr[i + 1]):
            value = x_data[j]
            for p in range(post_indptr[x_indices[j]], post_indptr[x_indices[j] + 1]):
                gains[post_rows[p]] += post_values[p] * value
        settled = False
        if tail < n_vectors:
            scores[:] = checkpoint_bias
            for j in range(x_indptr[i], x_indptr[i + 1]):
                for k in range(n_classes):
                    scores[k] += x_data[j] * checkpoint[x_indices[j], k]
            for m in range(tail, n_vectors):
                _step(scores, gains[mistake_rows[m - 1]] + 1.0, gold[m - 1], predicted[m - 1])
                tail_scores[m - tail, :] = scores
            for m in range(n_vectors - 1, tail - 1, -1):
                best = _argmax(tail_scores[m - tail])
                votes[i, best] += counts[m]
                if keep_steps:
                    steps[m, i] = best
                if winner_only and (m - tail) % CHECK_EVERY == 0 and _settled(votes[i],
                                                                              earlier[m]):
                    settled = True
                    break
        if settled:
            continue
        scores[:] = 0.0
        votes[i, 0] += counts[0]
        for m in range(1, tail):
            _step(scores, gains[mistake_rows[m - 1]] + 1.0, gold[m - 1], predicted[m - 1])
            best = _argmax(scores)
            votes[i, best] += counts[m]
            if keep_steps:
                steps[m, i] = best


@njit(cache=True, inline="always")
def _step(scores, delta, up, down):
    scores[up] += delta
    scores[down] -= delta


@njit(cache=True, inline="always")
def _argmax(scores):
    """The index of the largest score, the lowest on a tie."""
    best = 0
    for k in range(1, scores.shape[0]):
        if scores[k] > scores[best]:
            best = k
    return best


@njit(cache=True, inline="always")
def _settled(votes, still_to_come):
    """Whether the leader's lead over every other class exceeds the votes still to come."""
    leader = _argmax(votes)
    for k in range(votes.shape[0]):
        if k != leader and votes[leader] - votes[k] <= still_to_come:
            return False
    return True
