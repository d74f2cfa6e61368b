"""WordNet as the raw-text pipeline needs it: base forms (morphy) and multi-word lemmas."""

from __future__ import annotations

import functools

from wsd.resources import MissingResourceError, require_nltk_resource

# Penn tag prefix -> WordNet POS letter, for the parts of speech WordNet covers.
PENN_LETTER = {"N": "n", "V": "v", "J": "a", "R": "r"}
LETTER_POS = {"n": "NOUN", "v": "VERB", "a": "ADJ", "r": "ADV"}
LONGEST_EXPRESSION = 5  # tokens; WordNet's longer lemmas are rare names


@functools.cache
def wordnet():
    """NLTK's WordNet reader, loaded (MissingResourceError with the downloader hint if absent)."""
    require_nltk_resource("wordnet")
    from nltk.corpus import wordnet as reader

    try:
        reader.ensure_loaded()
    except LookupError as error:
        raise MissingResourceError(f"NLTK WordNet could not be loaded: {error}") from None
    return reader


def penn_letter(tag: str) -> str | None:
    """The WordNet letter of a Penn tag (NN -> n, VBD -> v, JJ -> a, RB -> r), else None."""
    return PENN_LETTER.get(tag[:1]) if tag and tag != "MD" else None


@functools.lru_cache(maxsize=65536)
def base_form(word: str, letter: str) -> str | None:
    """WordNet's base form of ``word`` (lowercased) as a ``letter`` word, None if unknown.

    Like ``morphy``, but a form that WordNet knows only as a proper name yields to another
    base form (*banks* -> bank, not the botanist Banks)."""
    forms = wordnet()._morphy(word.lower(), letter)
    common = [form for form in forms if not _only_proper(form, letter)]
    return (common or forms or [None])[0]


def _only_proper(form: str, letter: str) -> bool:
    """Whether every WordNet lemma spelled ``form`` (any case) is capitalised."""
    names = [lemma.name() for synset in wordnet().synsets(form, letter)
             for lemma in synset.lemmas() if lemma.name().lower() == form]  # fmt: skip
    return bool(names) and all(name[:1].isupper() for name in names)


@functools.cache
def expressions(letter: str) -> frozenset[str]:
    """WordNet's multi-word lemmas of one part of speech, lowercase, words joined by '_'."""
    return frozenset(
        name.lower() for name in wordnet().all_lemma_names(letter) if "_" in name
    )
