"""The lexical-sample configuration: one feature set and learner setting for every target word.

Chosen once for all four NLTK senseval words (hard, interest, line, serve), never per word or
per fold, by seeded stratified 5-fold cross-validation of the averaged perceptron (mean over
several shuffle and fold seeds) among BoW windows, lemmas, stopwords, block scales, binary /
tf-idf / PPMI, 3-30 epochs and extra n-grams. The choice looked at those folds, so its margin
over published figures is slightly optimistic; ``benchmarks/lexical_sample.py`` prints the
spread over seeds.

- extractors: bag of words over the whole context (lowercased, built-in stopwords and
  punctuation dropped, WordNet morphy lemmas), words at +-2, POS tags at +-3, the target's own
  form and POS ("lines" vs "line"), the 11 IMS collocations;
- weighting: ``BlockTfIdf`` -- presence x smoothed idf, the bag-of-words block and the local
  block (everything else) each scaled to unit length, the bag of words then weighted 0.85, so
  a long context cannot drown the handful of local features and vice versa;
- learner: the averaged perceptron, 5 epochs.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from wsd.experiments.pipeline import SupervisedWSD
from wsd.features import BagOfWords, Collocations, Featurizer, PositionalWords, PosTags, TargetWord
from wsd.features.weighting import TfIdf
from wsd.learners.multiclass import MulticlassAveragedPerceptron, MulticlassPerceptron

BEST_EPOCHS = 5
BEST_BOW_WEIGHT = 0.85


class BlockTfIdf(TfIdf):
    """Presence x smoothed idf, l2-normalised separately within two blocks of features.

    Features whose names start with ``prefix`` (default ``bow=``, the bag of words) form one
    block, all others the local block; each block is scaled to unit Euclidean length and the
    first one multiplied by ``bow_weight``. The idf is ``TfIdf``'s, fitted the same way:
    ``ln((1 + N) / (1 + df)) + 1`` from the training contexts (unseen features: df = 0).
    """

    kind = "block-tfidf"

    def __init__(self, bow_weight: float = BEST_BOW_WEIGHT, prefix: str = "bow=") -> None:
        super().__init__(norm="l2")
        if (
            isinstance(bow_weight, bool)
            or not isinstance(bow_weight, (int, float))
            or not (bow_weight > 0)
        ):
            raise ValueError(f"bow_weight must be a positive number, got {bow_weight!r}")
        self.bow_weight = float(bow_weight)
        self.prefix = prefix

    def params(self) -> dict[str, Any]:
        return {"bow_weight": self.bow_weight, "prefix": self.prefix}

    def transform_one(self, features: Mapping[str, float]) -> dict[str, float]:
        idf, unseen, prefix = self.idf_, self._unseen_idf, self.prefix
        bow: dict[str, float] = {}
        local: dict[str, float] = {}
        for f, v in features.items():
            if v:
                (bow if f.startswith(prefix) else local)[f] = idf.get(f, unseen)
        weighted: dict[str, float] = {}
        for block, scale in ((bow, self.bow_weight), (local, 1.0)):
            if block:
                factor = scale / math.sqrt(sum(w * w for w in block.values()))
                weighted.update((f, w * factor) for f, w in block.items())
        return weighted


def best_extractors() -> list[Any]:
    """The extractors of the chosen lexical-sample feature set (see the module docstring)."""
    return [
        BagOfWords(lemmatize=True),
        PositionalWords(window=2),
        PosTags(window=3),
        TargetWord(),
        Collocations(),
    ]


def best_featurizer(weighting: Any = None) -> Featurizer:
    """The chosen feature set; ``weighting`` (a name or Weighting) replaces ``BlockTfIdf()``."""
    return Featurizer(best_extractors(), weighting=BlockTfIdf() if weighting is None else weighting)


def best_system(
    learner: str = "averaged", epochs: int = BEST_EPOCHS, seed: int = 0, weighting: Any = None
) -> SupervisedWSD:
    """The chosen features with ``learner`` ("averaged", "perceptron" or "voted")."""
    if learner == "averaged":
        model: Any = MulticlassAveragedPerceptron(epochs=epochs, seed=seed)
    elif learner == "perceptron":
        model = MulticlassPerceptron(epochs=epochs, seed=seed)
    elif learner == "voted":
        from wsd.learners.voted import MulticlassVotedPerceptron

        model = MulticlassVotedPerceptron(epochs=epochs, seed=seed)
    else:
        raise ValueError(f"unknown learner {learner!r}; choose averaged, perceptron or voted")
    return SupervisedWSD(best_featurizer(weighting), model)


class LinearSVMOnDicts:
    """A peer learner: scikit-learn's LinearSVC on the same feature dicts (DictVectorizer).

    Only for comparisons (not saveable); needs scikit-learn.
    """

    def __init__(self, C: float = 1.0, seed: int = 0) -> None:
        self.C = C
        self.seed = seed

    def fit(self, X: Sequence[Mapping[str, float]], y: Sequence[str]) -> LinearSVMOnDicts:
        from sklearn.feature_extraction import DictVectorizer
        from sklearn.svm import LinearSVC

        self._vectorizer = DictVectorizer()
        matrix = self._vectorizer.fit_transform(X)
        self._svm = LinearSVC(C=self.C, random_state=self.seed).fit(_int32(matrix), list(y))
        self.classes_ = list(self._svm.classes_)
        return self

    def predict(self, X: Sequence[Mapping[str, float]]) -> list[str]:
        return [str(label) for label in self._svm.predict(_int32(self._vectorizer.transform(X)))]


def _int32(matrix: Any) -> Any:
    """LinearSVC refuses int64 sparse indices, which DictVectorizer can produce."""
    matrix.indices = matrix.indices.astype("int32")
    matrix.indptr = matrix.indptr.astype("int32")
    return matrix
