"""Named WSD systems, so experiments and the command line build every system the same way."""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from wsd.experiments.pipeline import SupervisedWSD
from wsd.features import Featurizer
from wsd.knowledge.inventory import BundledInventory, SenseInventory
from wsd.knowledge.lesk import ExtendedLesk, SimplifiedLesk
from wsd.learners.baselines import MostFrequentSense, RandomSense
from wsd.learners.multiclass import MulticlassAveragedPerceptron, MulticlassPerceptron
from wsd.learners.voted import MulticlassVotedPerceptron
from wsd.resources import has_nltk_resource

SUPERVISED = ("perceptron", "averaged", "voted")
BASELINES = ("mfs", "random")
KNOWLEDGE = ("lesk", "lesk-extended")
SYSTEM_NAMES = BASELINES + KNOWLEDGE + SUPERVISED


@dataclass(frozen=True)
class SystemSettings:
    """What the supervised systems share: feature set, weighting, training length, seed."""

    features: str = "full"
    weighting: str = "binary"
    window: int | None = None
    epochs: int = 10
    seed: int = 0


@lru_cache(maxsize=1)
def _can_lemmatize() -> bool:
    """Lesk lemmatizes with WordNet when it is installed; without it, a one-line notice."""
    if has_nltk_resource("wordnet"):
        return True
    warnings.warn("Lesk runs without lemmatization: WordNet is not installed "
                  "(python -m nltk.downloader wordnet)", stacklevel=3)
    return False


def _learner(name: str, settings: SystemSettings) -> Any:
    if name == "perceptron":
        return MulticlassPerceptron(epochs=settings.epochs, seed=settings.seed)
    if name == "averaged":
        return MulticlassAveragedPerceptron(epochs=settings.epochs, seed=settings.seed)
    return MulticlassVotedPerceptron(epochs=settings.epochs, seed=settings.seed)


def make_system(
    name: str,
    settings: SystemSettings | None = None,
    inventory: SenseInventory | None = None,
    glosses: dict[str, str] | None = None,
) -> Any:
    """A fresh, unfitted system called ``name`` (one of SYSTEM_NAMES).

    Lesk needs a sense ``inventory`` whose sense ids match the corpus (the bundled inventory
    for the bundled corpus, WordNet for sense-key data); it backs off to the most frequent
    training sense when no gloss overlaps.
    """
    settings = settings or SystemSettings()
    if name == "mfs":
        return MostFrequentSense(fallback="none")
    if name == "random":
        return RandomSense(seed=settings.seed, inventory=inventory or BundledInventory())
    if name in KNOWLEDGE:
        if inventory is None:
            raise ValueError(f"system {name!r} needs a sense inventory for this corpus")
        lesk = SimplifiedLesk if name == "lesk" else ExtendedLesk
        return lesk(inventory=inventory, backoff="mfs", lemmatize=_can_lemmatize())
    if name in SUPERVISED:
        featurizer = Featurizer.preset(
            settings.features, weighting=settings.weighting, window=settings.window
        )
        return SupervisedWSD(featurizer, _learner(name, settings), glosses=glosses)
    raise ValueError(f"unknown system {name!r}; choose from {', '.join(SYSTEM_NAMES)}")


