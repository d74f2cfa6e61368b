"""wsd: word-sense disambiguation with sparse features, the perceptron family and Lesk.

The names most scripts need are importable from here; the subpackages hold the rest:
``wsd.corpora`` (loaders), ``wsd.features``, ``wsd.learners``, ``wsd.knowledge`` (Lesk),
``wsd.evaluation`` and ``wsd.experiments``.
"""

from importlib.metadata import PackageNotFoundError, version

from wsd.corpora import load_bundled, load_dataset, load_senseval
from wsd.corpora.lexsample import read_lexsample
from wsd.experiments.pipeline import SupervisedWSD
from wsd.features import Featurizer
from wsd.instance import Instance, instances_from_text
from wsd.learners import (
    AveragedPerceptron,
    MulticlassAveragedPerceptron,
    MulticlassPerceptron,
    MulticlassVotedPerceptron,
    NotFittedError,
    Perceptron,
    VotedPerceptron,
)
from wsd.persistence import load_model, save_model
from wsd.resources import MissingResourceError

try:  # one version number, kept in pyproject.toml
    __version__ = version("wsd-perceptron")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"

__all__ = [
    "AveragedPerceptron",
    "Featurizer",
    "Instance",
    "MissingResourceError",
    "MulticlassAveragedPerceptron",
    "MulticlassPerceptron",
    "MulticlassVotedPerceptron",
    "NotFittedError",
    "Perceptron",
    "SupervisedWSD",
    "VotedPerceptron",
    "__version__",
    "instances_from_text",
    "load_bundled",
    "load_dataset",
    "load_model",
    "load_senseval",
    "read_lexsample",
    "save_model",
]
