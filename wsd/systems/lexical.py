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
- weighting: ``BlockTfIdf`` ("block-tfidf" in ``wsd.features.weighting``) -- presence x
  smoothed idf, the bag-of-words block and the local
  block (everything else) each scaled to unit length, the bag of words then weighted 0.85, so
  a long context cannot drown the handful of local features and vice versa;
- learner: the averaged perceptron, 5 epochs; the mean of ``BEST_MODELS`` = 5 of them trained on
  different shuffles, chosen later by nested cross-validation (inner folds choose, outer folds
  report; ``benchmarks/lexical_sample.py --nested``, table in docs/results.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from wsd.features import Featurizer
from wsd.learners.multiclass import MulticlassAveragedPerceptron, MulticlassPerceptron
from wsd.learners.voted import MulticlassVotedPerceptron
from wsd.systems.supervised import SupervisedWSD

BEST_EPOCHS = 5
BEST_MODELS = 5


def best_featurizer(weighting: Any = "block-tfidf") -> Featurizer:
    """The chosen feature set: the "full" preset with lemmatized bag of words, weighted with
    block tf-idf unless ``weighting`` (a name or Weighting) says otherwise."""
    return Featurizer.preset("full", weighting=weighting, lemmatize=True)


def best_system(
    learner: str = "averaged", epochs: int = BEST_EPOCHS, seed: int = 0, weighting: Any = None,
    models: int = BEST_MODELS,
) -> SupervisedWSD:
    """The chosen features with ``learner`` ("averaged": the mean of ``models`` averaged
    perceptrons over shuffles, "perceptron" or "voted")."""
    if learner == "averaged":
        model: Any = MulticlassAveragedPerceptron(epochs=epochs, seed=seed, n_models=models)
    elif learner == "perceptron":
        model = MulticlassPerceptron(epochs=epochs, seed=seed)
    elif learner == "voted":
        model = MulticlassVotedPerceptron(epochs=epochs, seed=seed)
    else:
        raise ValueError(f"unknown learner {learner!r}; choose averaged, perceptron or voted")
    return SupervisedWSD(best_featurizer(weighting or "block-tfidf"), model)


class LinearSVMOnDicts:
    """A peer learner: scikit-learn's LinearSVC on the same feature dicts (DictVectorizer).

    Only for comparisons (not saveable); needs scikit-learn.
    """

    def __init__(self, C: float = 1.0, seed: int = 0) -> None:
        self.C = C
        self.seed = seed

    def fit(self, X: Sequence[Mapping[str, float]], y: Sequence[str]) -> LinearSVMOnDicts:
        from sklearn.feature_extraction import DictVectorizer  # optional: scikit-learn
        from sklearn.svm import LinearSVC  # optional: scikit-learn

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
