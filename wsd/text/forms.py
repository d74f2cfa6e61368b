"""Whether a word is a form of a lemma: how a target named on the command line (*cranes*,
*Banks*) finds its model and its occurrences in a sentence."""

from __future__ import annotations

from collections.abc import Sequence

from wsd.resources import MissingResourceError
from wsd.text.lexicon import wordnet

# Regular inflections of a noun or verb (*basses*, *bass's*, *planted*, *lining*): enough for
# the bundled targets without WordNet; WordNet's morphy adds irregular ones (*geese*).
_INFLECTIONS = ("s", "es", "'s", "s'", "ed", "d", "ing")


def is_form_of(word: str, lemma: str) -> bool:
    """Whether ``word`` is ``lemma`` or an inflection of it (*Basses*, *bass's*, *lining*; with
    WordNet installed also irregular ones, *geese*); not another word that starts alike
    (*bassoon*, *linen*)."""
    word, lemma = word.lower(), lemma.lower()
    stem = lemma[:-1] if lemma.endswith("e") else lemma
    if word == lemma or any(word == lemma + end for end in _INFLECTIONS) or word == stem + "ing" \
            or (lemma.endswith("y") and word == lemma[:-1] + "ies"):
        return True
    try:
        reader = wordnet()
    except MissingResourceError:
        return False
    return any(lemma in reader._morphy(word, pos) for pos in "nvar")


def target_lemma(target: str, lemmas: Sequence[str]) -> str | None:
    """The one of ``lemmas`` (a model's words) that ``target`` names, in any inflection (*Cranes*
    -> crane), else None."""
    word = target.lower()
    if word in lemmas:
        return word
    return next((lemma for lemma in lemmas if is_form_of(word, lemma)), None)
