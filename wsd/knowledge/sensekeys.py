"""WordNet sense keys that always resolve, whatever the case of the lemma.

NLTK builds a lemma's key from its lower-cased name and its own ``lex_id``. When a synset holds
case variants of one word (``Earth`` and ``earth`` in earth.n.01, ``DDC`` and ``ddc``), WordNet's
``index.sense`` lists only one key for the pair, so the key NLTK builds for the other variant
(``earth%1:17:02::``) is no WordNet sense key: ``wordnet.lemma_from_key`` raises on it and gold
files never use it. :func:`sense_key` returns the key ``index.sense`` lists for a lemma, and
:func:`lemma_for_key` finds the lemma of any key either way, with a ValueError naming the key
when there is none.
"""

from __future__ import annotations

from functools import cache
from typing import Any

_SS_TYPE = {"1": "n", "2": "v", "3": "a", "4": "r", "5": "s"}


@cache
def _index(wordnet: Any) -> tuple[dict[str, int], dict[str, list[str]]]:
    """``index.sense`` as {key: synset offset} and {lower-cased lemma: [keys]} (read once)."""
    offsets: dict[str, int] = {}
    by_name: dict[str, list[str]] = {}
    with wordnet.open("index.sense") as lines:
        for line in lines:
            fields = line.split()
            if len(fields) < 2:
                continue
            key = fields[0]
            offsets[key] = int(fields[1])
            by_name.setdefault(key.split("%", 1)[0], []).append(key)
    return offsets, by_name


def _pos_of(key: str) -> str | None:
    return _SS_TYPE.get(key.partition("%")[2][:1])


def sense_key(lemma: Any) -> str:
    """The WordNet sense key of an NLTK ``Lemma``, as ``index.sense`` (and gold files) spell it."""
    key = lemma.key()
    if not hasattr(lemma, "_wordnet_corpus_reader"):  # the compiled lexicon's: index.sense's
        return key
    offsets, by_name = _index(lemma._wordnet_corpus_reader)
    if key in offsets:
        return key
    synset = lemma.synset()
    for candidate in by_name.get(key.split("%", 1)[0], ()):
        same_pos = _pos_of(candidate) == synset.pos() or {_pos_of(candidate), synset.pos()} == {
            "a", "s"}
        if offsets[candidate] == synset.offset() and same_pos:
            return candidate
    return key


def lemma_for_key(wordnet: Any, key: str) -> Any:
    """The NLTK ``Lemma`` of a sense key, also for keys NLTK builds for case variants.

    Raises ValueError naming the key when WordNet has no such sense.
    """
    if hasattr(wordnet, "lemma_for_key"):  # the compiled lexicon knows its keys
        return wordnet.lemma_for_key(key)
    offsets, _ = _index(wordnet)
    name = key.split("%", 1)[0]
    if key in offsets:
        pos = _pos_of(key)
        if pos is not None:
            synset = wordnet.synset_from_pos_and_offset(pos, offsets[key])
            lemmas = synset.lemmas()
            return next((lem for lem in lemmas if lem.key() == key),
                        next((lem for lem in lemmas if lem.name().lower() == name), lemmas[0]))
    for lemma in wordnet.lemmas(name):
        if lemma.key() == key:
            return lemma
    raise ValueError(f"{key!r} is not a WordNet 3.0 sense key")
