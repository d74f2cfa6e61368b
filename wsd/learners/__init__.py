"""Learners: the binary and multiclass perceptron family over feature vectors and dicts."""

from wsd.learners.base import NotFittedError
from wsd.learners.binary import AveragedPerceptron, Perceptron, VotedPerceptron
from wsd.learners.multiclass import MulticlassAveragedPerceptron, MulticlassPerceptron
from wsd.learners.voted import MulticlassVotedPerceptron

__all__ = [
    "AveragedPerceptron",
    "MulticlassAveragedPerceptron",
    "MulticlassPerceptron",
    "MulticlassVotedPerceptron",
    "NotFittedError",
    "Perceptron",
    "VotedPerceptron",
]
