"""Bag of words around the target: ``bow=guitar`` with the word's count in the window."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from wsd.features.extractors import Extractor, check_window
from wsd.features.sentencebag import SentenceBag, SentenceBags, float_counts
from wsd.instance import Instance
from wsd.knowledge.inventory import require_wordnet, wordnet_reader
from wsd.knowledge.normalise import BUILTIN_STOPWORDS, is_punctuation, nltk_stopwords


class _Morphy:
    """WordNet's morphy base form, memoised per word (the first POS that knows the word wins)."""

    def __init__(self) -> None:
        require_wordnet()
        self._morphy = wordnet_reader().morphy  # the compiled lexicon's or NLTK's: same answers
        self._cache: dict[str, str] = {}

    def __call__(self, word: str) -> str:
        base = self._cache.get(word)
        if base is None:
            base = self._morphy(word) or word
            self._cache[word] = base
        return base


@dataclass(frozen=True)
class BagOfWords(Extractor):
    """Words within ``window`` tokens of the target (None: the whole sentence), target excluded.

    Options: ``lowercase``; ``stopwords`` (True: our built-in English list, "nltk": NLTK's list,
    False: keep them); ``drop_punctuation`` (tokens with no letter or digit); ``lemmatize`` with
    WordNet's morphy (needs the ``wordnet`` NLTK data). Values are counts in the window.
    """

    window: int | None = None
    lowercase: bool = True
    stopwords: bool | str = True
    drop_punctuation: bool = True
    lemmatize: bool = False
    _stop: frozenset[str] = field(init=False, repr=False, compare=False)
    _lemma: Any = field(init=False, repr=False, compare=False)
    _cache: dict[str, str] = field(init=False, repr=False, compare=False)
    _sentences: SentenceBags = field(init=False, repr=False, compare=False)

    name = "bow"

    def __post_init__(self) -> None:
        check_window(self.window, allow_none=True)
        if self.stopwords is True:
            stop = BUILTIN_STOPWORDS
        elif self.stopwords is False:
            stop = frozenset()
        elif self.stopwords == "nltk":
            stop = nltk_stopwords()
        else:
            raise ValueError(f"stopwords must be True, False or 'nltk', got {self.stopwords!r}")
        object.__setattr__(self, "_stop", stop)
        object.__setattr__(self, "_lemma", _Morphy() if self.lemmatize else None)
        object.__setattr__(self, "_cache", {})
        object.__setattr__(self, "_sentences", SentenceBags())

    def _feature(self, token: str) -> str:
        """``bow=<word>`` for ``token``, or "" when the token is filtered out."""
        word = token.lower() if self.lowercase else token
        if (self.drop_punctuation and is_punctuation(word)) or word.lower() in self._stop:
            return ""
        if self._lemma is not None:
            word = self._lemma(word)
        return "bow=" + word

    def __call__(self, inst: Instance) -> dict[str, float]:
        return self.counts(inst.tokens, inst.span)

    def counts(self, tokens: tuple[str, ...], span: tuple[int, int]) -> dict[str, float]:
        """The features of the target at ``span`` of ``tokens`` (what ``__call__`` gives); with
        the whole sentence as window, from the sentence's counts made once."""
        start, end = span
        if self.window is None:
            bag = self._sentences.get(tokens) or self._sentences.add(
                tokens, SentenceBag(self._keys(tokens)))
            return bag.without(start, end)
        context = tokens[max(0, start - self.window) : start] + tokens[end : end + self.window]
        return float_counts(self._keys(context))

    def _keys(self, tokens: tuple[str, ...]) -> list[str]:
        """Each token's feature ("" for none), memoised per token type: C-level lookups."""
        cache = self._cache
        keys = list(map(cache.get, tokens))
        if None in keys:
            for token in tokens:
                if token not in cache:
                    cache[token] = self._feature(token)
            keys = list(map(cache.get, tokens))
        return keys
