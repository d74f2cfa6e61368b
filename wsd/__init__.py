"""wsd: word-sense disambiguation with sparse features, the perceptron family and Lesk.

The names most scripts need are importable from here; the subpackages hold the rest:
``wsd.corpora`` (loaders), ``wsd.knowledge`` (sense inventories), ``wsd.features``,
``wsd.learners``, ``wsd.systems`` (MFS, Lesk, ``SupervisedWSD``, the all-words system in
``wsd.systems.allwords``), ``wsd.evaluation`` and ``wsd.experiments`` (the drivers).
Each name is imported on first use, so ``import wsd`` (and a cold ``wsd`` command) stays fast.
"""

from importlib.metadata import PackageNotFoundError, version

from wsd.lazy import lazy_getattr

try:  # one version number, kept in pyproject.toml
    __version__ = version("wsd-perceptron")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"

_EXPORTS = {
    "load_bundled": "wsd.corpora",
    "load_dataset": "wsd.corpora",
    "load_senseval": "wsd.corpora",
    "read_lexsample": "wsd.corpora.lexsample",
    "SupervisedWSD": "wsd.systems.supervised",
    "Featurizer": "wsd.features",
    "Instance": "wsd.instance",
    "instances_from_text": "wsd.instance",
    "AveragedPerceptron": "wsd.learners",
    "MulticlassAveragedPerceptron": "wsd.learners",
    "MulticlassPerceptron": "wsd.learners",
    "MulticlassVotedPerceptron": "wsd.learners",
    "NotFittedError": "wsd.learners",
    "Perceptron": "wsd.learners",
    "VotedPerceptron": "wsd.learners",
    "load_model": "wsd.persistence",
    "save_model": "wsd.persistence",
    "MissingResourceError": "wsd.resources",
    "disambiguate": "wsd.systems.allwords.plaintext",
}

__all__ = sorted([*_EXPORTS, "__version__"])

__getattr__ = lazy_getattr(__name__, _EXPORTS)
