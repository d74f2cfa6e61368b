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
        # The columns from the greatest label down: the first best score there wins a tie.
        self._descending = np.argsort(self.classes)[::-1]
        # A feature's weights per class, on first use: its row of ``_matrix`` (row 0: none,
        # all zeros); a column more than the classes, as numpy sums a matrix of one column
        # pairwise.
        self._row_of: dict[str, int] = {}
        self._matrix = np.zeros((1024, len(self.classes) + 1))
        self._used = 1
        # The rows of the features a word, a context word, a pair of previous tags, a previous
        # tag and a context word make (found by their names once; ``_rows``).
        self._own: dict[str, tuple[int, int]] = {}
        self._places: dict[str, tuple[int, ...]] = {}
        self._tag_pairs: dict[tuple[str, str], tuple[int, int, int]] = {}
        self._tag_words: dict[tuple[str, str], int] = {}

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
        return self.tag_sentences([tokens])[0]

    def tag_sentences(self, sentences: Sequence[Sequence[str]]) -> list[list[str]]:
        """Each sentence's tags, as ``tag`` gives them: the sentences side by side, step t
        tagging every sentence's token t, so that the tokens the tag dictionary lacks are
        scored together (one numpy sum a step, not one a token)."""
        found = [list(reversed(_START)) for _ in sentences]  # then each tag, in order
        contexts = [_START + [self.normalize(w) for w in tokens] + _END for tokens in sentences]
        going = sorted(range(len(sentences)), key=lambda s: -len(sentences[s]))
        for t in range(len(sentences[going[0]]) if going else 0):
            while len(sentences[going[-1]]) <= t:
                going.pop()
            self._bound()
            scored, rows = [], []
            for s in going:
                word, tags = sentences[s][t], found[s]
                tag = self.tagdict.get(word)
                tags.append(tag)
                if not tag:
                    scored.append(tags)
                    rows.append(self._rows(t + 2, word, contexts[s], tags[-2], tags[-3]))
            for tags, tag in zip(scored, self._predict(rows) if rows else (), strict=True):
                tags[-1] = tag
        return [tags[2:] for tags in found]

    def _bound(self) -> None:
        """Forgets the features' rows past ``MAX_ROWS`` (bounded memory on endless input)."""
        kept = (self._row_of, self._own, self._places, self._tag_pairs, self._tag_words)
        if sum(map(len, kept)) > MAX_ROWS:
            for table in kept:
                table.clear()
            self._used = 1

    def _rows(self, i: int, word: str, context: list[str], prev: str, prev2: str
              ) -> list[int]:  # fmt: skip
        """The rows of NLTK's features of the word at ``i`` of ``context``, in NLTK's order
        (each counts once: their names differ): bias, i suffix, i pref1, i-1 tag, i-2 tag,
        i tag+i-2 tag, i word, i-1 tag+i word, i-1 word, i-1 suffix, i-2 word, i+1 word,
        i+1 suffix, i+2 word."""
        own = self._own.get(word)
        if own is None:
            own = self._own[word] = (self._feature_row(f"i suffix {word[-3:]}"),
                                     self._feature_row(f"i pref1 {word[0] if word else ''}"))
        pair = self._tag_pairs.get((prev, prev2))
        if pair is None:
            pair = self._tag_pairs[prev, prev2] = (
                self._feature_row(f"i-1 tag {prev}"), self._feature_row(f"i-2 tag {prev2}"),
                self._feature_row(f"i tag+i-2 tag {prev} {prev2}"))
        tag_word = self._tag_words.get((prev, context[i]))
        if tag_word is None:
            tag_word = self._tag_words[prev, context[i]] = self._feature_row(
                f"i-1 tag+i word {prev} {context[i]}")
        place = self._place_rows
        before, before2, after, after2 = (place(context[i + k]) for k in (-1, -2, 1, 2))
        return [self._feature_row("bias"), *own, *pair, place(context[i])[0], tag_word, before[1],
                before[2], before2[3], after[4], after[5], after2[6]]  # fmt: skip

    def _place_rows(self, word: str) -> tuple[int, ...]:
        """The rows of the features of a context ``word`` at each place: i word, i-1 word,
        i-1 suffix, i-2 word, i+1 word, i+1 suffix, i+2 word."""
        found = self._places.get(word)
        if found is None:
            found = self._places[word] = tuple(self._feature_row(name) for name in (
                f"i word {word}", f"i-1 word {word}", f"i-1 suffix {word[-3:]}",
                f"i-2 word {word}", f"i+1 word {word}", f"i+1 suffix {word[-3:]}",
                f"i+2 word {word}"))  # fmt: skip
        return found

    def _predict(self, rows: list[list[int]]) -> list[str]:
        """NLTK's ``AveragedPerceptron.predict`` of each token's feature ``rows``: the weights
        summed in the same order (down each token's rows: numpy adds them one after another;
        a feature without weights adds the zeros of row 0), the highest score, ties to the
        greater label."""
        scores = np.add.reduce(self._matrix[np.array(rows)], axis=1)[:, self._descending]
        return [self.classes[k] for k in self._descending[scores.argmax(axis=1)].tolist()]

    def _feature_row(self, feature: str) -> int:
        row = self._row_of.get(feature)
        if row is None:
            row = self._row_of[feature] = self._row(feature)
        return row

    def _row(self, feature: str) -> int:
        """The row of ``_matrix`` given to the feature's weights, 0 if it has none."""
        if self._used == len(self._matrix):
            self._matrix = np.vstack([self._matrix, np.zeros_like(self._matrix)])
        row = self._matrix[self._used]
        row[:] = 0.0
        if not self._weights_into(feature, row):
            return 0
        self._used += 1
        return self._used - 1

    def _weights_into(self, feature: str, row: np.ndarray) -> bool:
        """Writes the feature's weights into ``row`` (its columns: ``classes``); False if it
        has none. The compiled lexicon's weights write themselves, in the same order of
        classes (``TaggerWeights.weights_into``: no dict per feature)."""
        into = getattr(self.weights, "weights_into", None)
        if into is not None:
            return into(feature, row)
        weights = self.weights.get(feature)
        if not weights:
            return False
        column = self._columns
        for label, weight in weights.items():
            row[column[label]] = weight
        return True


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


def sentences_penn_tags(sentences: Sequence[Sequence[str]]) -> list[list[str]]:
    """``penn_tags`` of each sentence, tagged together (faster than one by one); text without
    tokens needs no tagger (none is loaded)."""
    if not any(sentences):
        return [[] for _ in sentences]
    return _tagger().tag_sentences(sentences)
