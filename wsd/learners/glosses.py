"""The two baselines as feature-dict learners, so they train, save and predict like the
perceptrons (``wsd train --learner mfs|lesk``, ``wsd lexsample --learner mfs|lesk``).

- ``MostFrequentLabel``: the label seen most often in training (ties: the smallest label).
- ``GlossOverlap``: simplified Lesk over the bag-of-words features: the sense whose gloss
  shares the most distinct context words (``bow=`` features, normalised as the extractor
  normalises context words: lowercased, stopwords and punctuation dropped, optionally
  lemmatized) with the example; no overlap, or a tie at the top, backs off to the most frequent
  training sense among the tied ones. The glosses are a constructor argument, so the saved model
  carries its own dictionary.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from wsd.features.bow import BagOfWords
from wsd.instance import token_spans
from wsd.learners.base import EstimatorMixin, PersistentMixin, check_is_fitted
from wsd.learners.dictclassifier import DictClassifierMixin
from wsd.learners.inputs import check_feature_dicts, check_labels
from wsd.persistence import register_model


def _ranked_labels(labels: Sequence[Hashable]) -> list:
    """Labels from most to least frequent, ties by label."""
    counts = Counter(labels)
    return sorted(counts, key=lambda label: (-counts[label], label))


@register_model
class MostFrequentLabel(DictClassifierMixin, PersistentMixin, EstimatorMixin):
    """Predict the most frequent training label whatever the features (one label is enough)."""

    def __init__(self) -> None:
        pass

    def fit(self, X: Sequence[Mapping[str, float]], y: Sequence[Hashable]) -> MostFrequentLabel:
        labels = check_labels(y, len(X))
        self.ranking_ = _ranked_labels(labels)
        self.classes_ = sorted(set(labels))
        return self

    def predict(self, X: Sequence[Mapping[str, float]]) -> list:
        check_is_fitted(self)
        return [self.ranking_[0]] * len(X)

    def _get_state(self) -> dict[str, Any]:
        return {"classes": list(self.classes_), "ranking": list(self.ranking_)}

    def _set_state(self, state: Mapping[str, Any]) -> None:
        self.classes_ = list(state["classes"])
        self.ranking_ = list(state["ranking"])


@register_model
class GlossOverlap(DictClassifierMixin, PersistentMixin, EstimatorMixin):
    """Simplified Lesk on feature dicts: ``glosses`` maps each sense to its gloss text.

    The candidates are the glossed senses plus those seen in training; a sense without a gloss
    scores 0. ``lemmatize`` must match the bag-of-words extractor of the features.
    """

    def __init__(self, glosses: Mapping[str, str] | None = None, lemmatize: bool = True) -> None:
        self.glosses = glosses
        self.lemmatize = lemmatize

    def _signatures(self) -> dict[str, frozenset[str]]:
        words = BagOfWords(lemmatize=self.lemmatize)
        signatures = {}
        for sense, gloss in (self.glosses or {}).items():
            tokens = (gloss[start:end] for start, end in token_spans(gloss))
            signatures[sense] = frozenset(filter(None, map(words._feature, tokens)))
        return signatures

    def fit(self, X: Sequence[Mapping[str, float]], y: Sequence[Hashable]) -> GlossOverlap:
        labels = check_labels(y, len(X))
        if not self.glosses:
            raise ValueError("GlossOverlap (lesk) needs glosses: a sense inventory with a gloss "
                             "per sense (the bundled corpus, or --dictionary)")
        self.ranking_ = _ranked_labels(labels) + sorted(set(self.glosses) - set(labels))
        self.classes_ = sorted(self.ranking_)
        self._signature = self._signatures()
        return self

    def predict(self, X: Sequence[Mapping[str, float]]) -> list:
        check_is_fitted(self)
        if not hasattr(self, "_signature"):
            self._signature = self._signatures()
        answers = []
        for example in check_feature_dicts(X):
            words = {name for name, _ in example if name.startswith("bow=")}
            overlaps = [len(words & self._signature.get(sense, frozenset()))
                        for sense in self.ranking_]
            answers.append(self.ranking_[overlaps.index(max(overlaps))])
        return answers

    def _get_state(self) -> dict[str, Any]:
        return {"classes": list(self.classes_), "ranking": list(self.ranking_)}

    def _set_state(self, state: Mapping[str, Any]) -> None:
        self.classes_ = list(state["classes"])
        self.ranking_ = list(state["ranking"])
