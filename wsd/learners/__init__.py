"""Learners: the binary and multiclass perceptron family over feature vectors and dicts.

Names are imported on first use: the dict-based learners load NLTK (``ClassifierI``) and the
compiled engine numba, each over a second, which code that only needs ``wsd.learners.base``
or ``wsd.systems.baselines`` (the raw-text path) should not pay for.
"""

from __future__ import annotations

from wsd.lazy import lazy_getattr

_EXPORTS = {
    "BinaryCSRAveragedPerceptron": "wsd.learners.engine",
    "CSRAveragedPerceptron": "wsd.learners.engine",
    "task_seed": "wsd.learners.engine",
    "train_many": "wsd.learners.engine",
    "AveragedPerceptron": "wsd.learners.binary",
    "MulticlassAveragedPerceptron": "wsd.learners.multiclass",
    "MulticlassPerceptron": "wsd.learners.multiclass",
    "MulticlassVotedPerceptron": "wsd.learners.voted",
    "NotFittedError": "wsd.learners.base",
    "Perceptron": "wsd.learners.binary",
    "VotedPerceptron": "wsd.learners.binary",
}
__all__ = sorted(_EXPORTS)

__getattr__ = lazy_getattr(__name__, _EXPORTS)
