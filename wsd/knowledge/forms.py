"""Whether a word is a form of a lemma: how a target named on the command line (*cranes*,
*Banks*) finds its model and its occurrences in a sentence."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from wsd.knowledge.lexicon import wordnet
from wsd.resources import MissingResourceError

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


def _base_candidates(word: str) -> set[str]:
    """Words ``word`` may be an inflection of: the regular endings taken off, and WordNet's
    morphy base forms when WordNet is installed (``is_form_of`` confirms each)."""
    found = {word}
    found.update(word[: -len(end)] for end in _INFLECTIONS if word.endswith(end)
                 and len(word) > len(end))  # fmt: skip
    if word.endswith("ing"):
        found.update((word[:-3], word[:-3] + "e"))
    if word.endswith("ies"):
        found.add(word[:-3] + "y")
    try:
        reader = wordnet()
    except MissingResourceError:
        return found
    for pos in "nvar":
        found.update(reader._morphy(word, pos))
    return found


def lemmas_of(word: str, lemmas: Collection[str]) -> list[str]:
    """The ones of ``lemmas`` that ``word`` is or is an inflection of, sorted."""
    word = word.lower()
    return sorted(lemma for lemma in _base_candidates(word)
                  if lemma in lemmas and is_form_of(word, lemma))  # fmt: skip


def form_lemma(word: str, lemmas: Collection[str], where: str) -> str | None:
    """The one of ``lemmas`` that the marked ``word`` names, in any inflection (*bats* ->
    bat), else None; ValueError naming ``where`` (*file:line*, *sentence 2*) when it is a form
    of several (no prefix when ``where`` is empty). How a user file's rows and a model's
    sentences find their lemma."""
    if word.lower() in lemmas:
        return word.lower()
    found = lemmas_of(word, lemmas)
    if len(found) > 1:
        raise ValueError(f"{where + ': ' if where else ''}the marked word {word!r} is a form of "
                         f"{' and of '.join(map(repr, found))}; give its lemma (a lemma column "
                         "in TSV, \"lemma\" in JSONL)")
    return found[0] if found else None
