"""Learners: the binary and multiclass perceptron family over feature vectors and dicts."""

from wsd.learners.base import NotFittedError
from wsd.learners.binary import AveragedPerceptron, Perceptron, VotedPerceptron
from wsd.learners.multiclass import MulticlassAveragedPerceptron, MulticlassPerceptron
from wsd.learners.voted import MulticlassVotedPerceptron

__all__ = [
    "BinaryCSRAveragedPerceptron",
    "CSRAveragedPerceptron",
    "task_seed",
    "train_many",
    "AveragedPerceptron",
    "MulticlassAveragedPerceptron",
    "MulticlassPerceptron",
    "MulticlassVotedPerceptron",
    "NotFittedError",
    "Perceptron",
    "VotedPerceptron",
]

_COMPILED = ("BinaryCSRAveragedPerceptron", "CSRAveragedPerceptron", "task_seed", "train_many")


def __getattr__(name: str):
    """The compiled engine loads numba, which takes seconds: import it only when asked for."""
    if name in _COMPILED:
        from wsd.learners import engine

        return getattr(engine, name)
    raise AttributeError(f"module 'wsd.learners' has no attribute {name!r}")
