"""Penn Treebank tags from NLTK's averaged-perceptron tagger, loaded once.

NLTK's tagger runs at well over 10,000 tokens/s here (``benchmarks/raw_text.py``), a small
part of the raw-text pipeline's time; what it costs is importing NLTK. So with the compiled
lexicon (``wsd.knowledge.compiled``, which holds the tagger's weights) the same weights run
through ``PerceptronTags``, a copy of NLTK's ``PerceptronTagger.tag`` without NLTK: identical
tags by construction, checked against ``nltk.pos_tag`` in ``tests/test_text_compiled.py``.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

import numpy as np

from wsd.knowledge import compiled
from wsd.resources import TAGGER_RESOURCE, require_nltk_resource

_START, _END = ["-START-", "-START2-"], ["-END-", "-END2-"]


MAX_ROWS = 100_000  # features whose rows are kept (a text's features repeat)


class PerceptronTags:
    """NLTK's averaged-perceptron tagger (``nltk.tag.perceptron.PerceptronTagger.tag``: the
    same features, tag dictionary, scores and tie-break) over its ``weights``, ``tagdict``
    and ``classes``."""

    def __init__(self, weights: Mapping[str, Mapping[str, float]], tagdict: Mapping[str, str],
                 classes: Sequence[str]) -> None:  # fmt: skip
        self.weights, self.tagdict, self.classes = weights, tagdict, list(classes)
        self._columns = {label: i for i, label in enumerate(self.classes)}
        # A feature's weights per class, on first use: its row of ``_matrix`` (-1: none); a
        # column more than the classes, as numpy sums a matrix of one column pairwise.
        self._row_of: dict[str, int] = {}
        self._matrix = np.zeros((1024, len(self.classes) + 1))
        self._used = 0

    @staticmethod
    def normalize(word: str) -> str:
        if "-" in word and word[0] != "-":
            return "!HYPHEN"
        if word.isdigit() and len(word) == 4:
            return "!YEAR"
        if word and word[0].isdigit():
            return "!DIGITS"
        return word.lower()

    def tag(self, tokens: Sequence[str]) -> list[str]:
        prev, prev2 = _START
        tags = []
        context = _START + [self.normalize(w) for w in tokens] + _END
        for i, word in enumerate(tokens):
            tag = self.tagdict.get(word)
            if not tag:
                tag = self._predict(self._features(i + 2, word, context, prev, prev2))
            tags.append(tag)
            prev2, prev = prev, tag
        return tags

    @staticmethod
    def _features(i: int, word: str, context: list[str], prev: str, prev2: str) -> list[str]:
        """NLTK's feature names, in its order; each counts once (their prefixes differ)."""
        return [
            "bias", f"i suffix {word[-3:]}", f"i pref1 {word[0] if word else ''}",
            f"i-1 tag {prev}", f"i-2 tag {prev2}", f"i tag+i-2 tag {prev} {prev2}",
            f"i word {context[i]}", f"i-1 tag+i word {prev} {context[i]}",
            f"i-1 word {context[i - 1]}", f"i-1 suffix {context[i - 1][-3:]}",
            f"i-2 word {context[i - 2]}", f"i+1 word {context[i + 1]}",
            f"i+1 suffix {context[i + 1][-3:]}", f"i+2 word {context[i + 2]}",
        ]  # fmt: skip

    def _predict(self, features: list[str]) -> str:
        """NLTK's ``AveragedPerceptron.predict``: the weights summed in the same order, the
        highest score, ties to the greater label."""
        scores = self._score_vector(features).tolist()
        best = max(scores)
        if scores.count(best) == 1:
            return self.classes[scores.index(best)]
        return max(label for label, score in zip(self.classes, scores, strict=True)
                   if score == best)  # fmt: skip

    def _score_vector(self, features: list[str]) -> np.ndarray:
        """Per class, its weights summed feature after feature (NLTK's sums: a feature without
        weights adds nothing; the rows' sum down a column adds them in their order)."""
        if len(self._row_of) + len(features) > MAX_ROWS:  # bounded memory on endless input
            self._row_of.clear()
            self._used = 0
        row_of = self._row_of
        rows = []
        for feature in features:
            row = row_of.get(feature)
            if row is None:
                row = row_of[feature] = self._row(feature)
            if row >= 0:
                rows.append(row)
        if not rows:
            return np.zeros(len(self.classes))
        return self._matrix[rows].sum(axis=0)[:-1]

    def _row(self, feature: str) -> int:
        """The row of ``_matrix`` given to the feature's weights, -1 if it has none."""
        weights = self.weights.get(feature)
        if not weights:
            return -1
        if self._used == len(self._matrix):
            self._matrix = np.vstack([self._matrix, np.zeros_like(self._matrix)])
        row = self._matrix[self._used]
        row[:] = 0.0
        column = self._columns
        for label, weight in weights.items():
            row[column[label]] = weight
        self._used += 1
        return self._used - 1


@functools.cache
def _tagger():
    lexicon = compiled.active()
    if lexicon is not None:
        return PerceptronTags(*lexicon.tagger_params())
    require_nltk_resource(TAGGER_RESOURCE)
    from nltk.tag.perceptron import PerceptronTagger  # NLTK: over a second to import

    tagger = PerceptronTagger()
    return PerceptronTags(tagger.model.weights, tagger.tagdict, sorted(tagger.classes))


def penn_tags(tokens: Sequence[str]) -> list[str]:
    """One Penn tag per token (what ``nltk.pos_tag`` gives)."""
    return _tagger().tag(list(tokens))

