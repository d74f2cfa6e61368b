"""Words made comparable across glosses and contexts, as Lesk and the compiled lexicon read
them: the stopword lists, punctuation, and WordNet's base forms (``Normaliser``)."""

from __future__ import annotations

import re
from collections.abc import Collection

from wsd.knowledge.inventory import wordnet_reader
from wsd.resources import require_nltk_resource

_WORD = re.compile(r"[a-z0-9]+(?:['-][a-z0-9]+)*")

# Our own compact list of English function words: used by default so that stopword removal
# works on a machine without NLTK data. ``stopwords="nltk"`` selects NLTK's English list instead.
BUILTIN_STOPWORDS = frozenset(
    """
    a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further
    had has have having he her here hers herself him himself his how i if in into is it its itself
    just me more most my myself no nor not now of off on once only or other our ours ourselves out
    over own same she should so some such than that the their theirs them themselves then there
    these they this those through to too under until up very was we were what when where which
    while who whom why will with would you your yours yourself yourselves 's 're 've 'd 'll 'm n't
    """.split()
)


def nltk_stopwords() -> frozenset[str]:
    """NLTK's English stopword list; MissingResourceError with the download command if absent."""
    require_nltk_resource("stopwords")
    from nltk.corpus import stopwords  # NLTK: over a second to import

    return frozenset(stopwords.words("english"))


def is_punctuation(token: str) -> bool:
    """True for tokens without a single letter or digit (``.``, ``--``, ``''``)."""
    return not any(ch.isalnum() for ch in token)


class Normaliser:
    """Turns glosses and context tokens into comparable words."""

    def __init__(self, stopwords, lemmatize: bool, raw_tokens: bool) -> None:
        self.raw_tokens = raw_tokens
        self.lemmatize = lemmatize
        if stopwords is True:
            self.stopwords: frozenset[str] = BUILTIN_STOPWORDS
        elif stopwords == "nltk":
            self.stopwords = nltk_stopwords()
        elif not stopwords:
            self.stopwords = frozenset()
        elif isinstance(stopwords, Collection) and not isinstance(stopwords, str):
            self.stopwords = frozenset(w.lower() for w in stopwords)
        else:
            raise ValueError(
                f"stopwords must be True (built-in list), 'nltk', False/None or a collection "
                f"of words, not {stopwords!r}"
            )
        if lemmatize:
            self._morphy = wordnet_reader()._morphy
        self._cache: dict[tuple[str, str | None], str] = {}

    def base(self, word: str, letter: str | None) -> str:
        """WordNet base form of a lowercase word (shortest analysis for ``letter``)."""
        key = (word, letter)
        if key not in self._cache:
            forms: list[str] = []
            for p in [letter] if letter else ["n", "v", "a", "r"]:
                forms = self._morphy(word, p)
                if forms:
                    break
            self._cache[key] = min(forms, key=lambda f: (len(f), f)) if forms else word
        return self._cache[key]

    def word(self, token: str, letter: str | None = None) -> str | None:
        """The comparable form of one token, or None when it is dropped."""
        if self.raw_tokens:
            return token
        token = token.lower()
        if is_punctuation(token) or token in self.stopwords:
            return None
        if self.lemmatize:
            token = self.base(token.replace(" ", "_"), letter)
        return None if token in self.stopwords else token

    def text(self, text: str) -> list[str]:
        """The words of a gloss or example sentence, in order."""
        if self.raw_tokens:
            return text.split()
        words = (self.word(w) for w in _WORD.findall(text.lower()))
        return [w for w in words if w is not None]
