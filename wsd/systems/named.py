"""Named WSD systems, so experiments and the command line build every system the same way."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from wsd.corpora.bundled import bundled_targets, load_bundled, load_bundled_inventory
from wsd.features import Featurizer
from wsd.instance import Instance
from wsd.knowledge.inventory import (
    BundledInventory,
    SenseInventory,
    WordNetInventory,
    require_wordnet,
)
from wsd.learners.glosses import GlossOverlap, MostFrequentLabel
from wsd.learners.multiclass import MulticlassAveragedPerceptron, MulticlassPerceptron
from wsd.learners.voted import MulticlassVotedPerceptron
from wsd.requests import Training
from wsd.resources import MissingResourceError
from wsd.systems.baselines import (
    InstanceSystem,
    MostFrequentSense,
    RandomSense,
    WordNetFirstSense,
)
from wsd.systems.lesk import ExtendedLesk, SimplifiedLesk
from wsd.systems.supervised import SupervisedWSD

SUPERVISED = ("perceptron", "averaged", "voted")
BASELINES = ("mfs", "random")
KNOWLEDGE = ("first-sense", "lesk", "lesk-extended")  # need a sense inventory
SYSTEM_NAMES = BASELINES + KNOWLEDGE + SUPERVISED
# What `wsd train` and `wsd lexsample` can train and save: the perceptrons and two baselines.
LEARNER_NAMES = (*SUPERVISED, "mfs", "lesk")


@dataclass(frozen=True)
class SystemSettings:
    """What the supervised systems share: feature set, weighting, training length, seed.

    The defaults are the lexical-sample configuration chosen on senseval by cross-validation
    (``wsd.systems.lexical``): the "full" features with a lemmatized bag of words, block
    tf-idf, 5 epochs, and for the averaged perceptron the mean of ``models`` = 5 of them over
    shuffles (chosen by nested cross-validation inside the training folds; see docs/results.md).
    """

    features: str = "full"
    weighting: str = "block-tfidf"
    window: int | None = None
    epochs: int = 5
    seed: int = 0
    lemmatize: bool = True
    models: int = 5
    # Options of the multiclass perceptron (margin, update, C, n_models, prior, backoff_margin)
    # as (name, value) pairs; the voted perceptron takes none.
    learner_options: tuple[tuple[str, Any], ...] = ()

    def featurizer(self) -> Featurizer:
        """A fresh Featurizer for these settings (bag-of-words lemmatized with ``lemmatize``)."""
        return Featurizer.preset(self.features, weighting=self.weighting, window=self.window,
                                 lemmatize=self.lemmatize and can_lemmatize())


def small_corpus_settings(**changes) -> SystemSettings:
    """Settings that work best on a few hundred sentences, such as the bundled corpus:
    lemmatized sentence bag-of-words with tf-idf (5-fold CV on the four bundled targets:
    0.813 mean accuracy, against 0.758 for the "full" binary feature set; with line, the mean
    over five is 0.757 against 0.761 for the lexical-sample defaults, which win only on line:
    benchmarks/bundled_defaults.py)."""
    return replace(SystemSettings(features="bow", weighting="tfidf", epochs=10, models=1),
                   **changes)


def settings_for(request: Training, corpus: str | None = None) -> SystemSettings:
    """The settings a command's request gives; unset ones default by corpus (none: the
    bundled corpus, whose small data does best with lemmatized bag-of-words and tf-idf)."""
    bundled = corpus is None or corpus.startswith("bundled:")
    return replace(small_corpus_settings() if bundled else SystemSettings(),
                   **request.training())


@lru_cache(maxsize=1)
def can_lemmatize() -> bool:
    """Lemmatizing needs WordNet (the compiled lexicon's, read without importing NLTK, or
    NLTK's); without it, one notice and the words stay as written."""
    try:
        require_wordnet()
        return True
    except MissingResourceError:
        pass
    warnings.warn("words are not lemmatized: WordNet is not installed "
                  "(python -m nltk.downloader wordnet)", stacklevel=3)
    return False


def _learner(name: str, settings: SystemSettings) -> Any:
    options = dict(settings.learner_options)
    if name == "perceptron":
        return MulticlassPerceptron(epochs=settings.epochs, seed=settings.seed, **options)
    if name == "averaged":
        options = {"n_models": settings.models, **options}
        return MulticlassAveragedPerceptron(epochs=settings.epochs, seed=settings.seed, **options)
    if options:
        raise ValueError(f"the voted perceptron takes none of {', '.join(options)}")
    return MulticlassVotedPerceptron(epochs=settings.epochs, seed=settings.seed)


class BundledFirstSense(InstanceSystem):
    """WordNet's first sense among those the bundled inventory covers: the bundled sense whose
    recorded WordNet key comes first in WordNet's order (None when none is recorded)."""

    def __init__(self) -> None:
        self._wordnet = WordNetInventory()

    def fit(self, instances: Sequence[Instance] = ()) -> BundledFirstSense:
        return self

    def answer(self, inst: Instance) -> str | None:
        senses = load_bundled_inventory(inst.lemma)["senses"]
        to_bundled = {s["wordnet"]: s["id"] for s in senses if s.get("wordnet")}
        for sense in self._wordnet.senses(inst.lemma, inst.target_pos):
            if sense.id in to_bundled:
                return to_bundled[sense.id]
        return None


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
        wordnet_keys = isinstance(inventory, WordNetInventory)
        return MostFrequentSense(fallback="first_sense" if wordnet_keys else "none")
    if name == "random":
        return RandomSense(seed=settings.seed, inventory=inventory or BundledInventory())
    if name in KNOWLEDGE:
        if inventory is None:
            raise ValueError(f"system {name!r} needs a sense inventory for this corpus")
        if name == "first-sense":
            if isinstance(inventory, BundledInventory):
                return BundledFirstSense()
            return WordNetFirstSense(inventory)
        lesk = SimplifiedLesk if name == "lesk" else ExtendedLesk
        return lesk(inventory=inventory, backoff="mfs", lemmatize=can_lemmatize())
    if name in SUPERVISED:
        return SupervisedWSD(settings.featurizer(), _learner(name, settings), glosses=glosses)
    raise ValueError(f"unknown system {name!r}; choose from {', '.join(SYSTEM_NAMES)}")


def make_learner_system(
    name: str, settings: SystemSettings | None = None, glosses: dict[str, str] | None = None
) -> SupervisedWSD:
    """A saveable SupervisedWSD for ``name`` in LEARNER_NAMES: a perceptron on the settings'
    features, the most frequent training sense ("mfs"), or simplified Lesk over the bag of words
    with ``glosses`` as its dictionary ("lesk", backing off to the most frequent sense)."""
    settings = settings or SystemSettings()
    if name == "mfs":
        return SupervisedWSD(Featurizer.preset("bow"), MostFrequentLabel(), glosses=glosses)
    if name == "lesk":
        if not glosses:
            raise ValueError("the lesk learner needs glosses: train on the bundled corpus, or "
                             "give a lexical-sample --dictionary")
        lemmatize = settings.lemmatize and can_lemmatize()
        return SupervisedWSD(Featurizer.preset("bow", lemmatize=lemmatize),
                             GlossOverlap(glosses=glosses, lemmatize=lemmatize), glosses=glosses)
    if name in SUPERVISED:
        return make_system(name, settings, glosses=glosses)
    raise ValueError(f"unknown learner {name!r}; choose from {', '.join(LEARNER_NAMES)}")


def bundled_glosses(target: str) -> dict[str, str]:
    """Sense id -> gloss from the bundled inventory of ``target``."""
    return {s["id"]: s["gloss"] for s in load_bundled_inventory(target)["senses"]}


def train_bundled_model(target: str, settings: SystemSettings | None = None) -> SupervisedWSD:
    """The averaged perceptron trained on every bundled sentence of ``target``."""
    targets = bundled_targets()
    if target not in targets:
        raise ValueError(
            f"no bundled training data for {target!r}; bundled targets: {', '.join(targets)} "
            "(or pass --model with a model trained on your own data)"
        )
    model = make_system("averaged", settings, glosses=bundled_glosses(target))
    return model.fit(load_bundled(target))
