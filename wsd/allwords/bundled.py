"""The bundled targets in raw text without a model: their bundled models answer, as
``wsd disambiguate --target bass`` does, not Lesk (which reads *He caught a huge bass* as the
music sense). A bundled sense maps to its WordNet sense where the inventory gives one.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from wsd.corpora.bundled import bundled_target
from wsd.instance import Instance
from wsd.knowledge.sensekeys import lemma_for_key
from wsd.text import Sentence
from wsd.text.lexicon import wordnet

if TYPE_CHECKING:
    from wsd.allwords.text import TaggedWord


@functools.cache
def bundled_model(target: str) -> Any:
    """The bundled model of ``target`` with the command line's default settings, trained
    once per process (about a second)."""
    from wsd.experiments.disambiguate import train_bundled_model
    from wsd.experiments.systems import small_corpus_settings

    return train_bundled_model(target, small_corpus_settings())


@functools.cache
def _inventory(target: str) -> dict[str, Any]:
    from wsd.corpora.bundled import load_bundled_inventory

    return load_bundled_inventory(target)


def with_bundled_answers(words: Sequence[TaggedWord], sentences: Sequence[Sentence],
                         target: str) -> list[TaggedWord]:  # fmt: skip
    """``words`` (Lesk's answers for ``target``) with the bundled model's answers where
    ``target`` is a bundled word in its inventory's part of speech (not *banks* the verb, nor
    the expression *bass guitar*). Such an answer has the WordNet sense of the bundled one
    (none where the inventory gives none: then the bundled gloss), ``source`` "classifier",
    the model's margin over the runner-up (in its perceptron's units) and no ``score`` (the
    model's scores are not calibrated)."""
    bundled = bundled_target(target)
    if bundled is None:
        return list(words)
    senses = {sense["id"]: sense for sense in _inventory(bundled)["senses"]}
    answered = []
    for word in words:
        if word.lemma != bundled or word.pos != _inventory(bundled)["pos"]:
            answered.append(word)
            continue
        why = bundled_model(bundled).explain(_instance(sentences[word.sentence], word.start,
                                                       bundled))  # fmt: skip
        key = senses[why.sense]["wordnet"]
        synset = lemma_for_key(wordnet(), key).synset() if key else None
        answered.append(dataclasses.replace(
            word, sense_key=key, synset_name=synset.name() if synset else None,
            gloss=synset.definition() if synset else senses[why.sense]["gloss"], score=None,
            margin=why.margin, source="classifier"))  # fmt: skip
    return answered


def _instance(sentence: Sentence, start: int, target: str) -> Instance:
    """The sentence's tokens with the word at ``start`` as the target (an expression
    elsewhere in it, *ice cream*, is its words again, as the bundled corpus writes them)."""
    tokens: list[str] = []
    index = 0
    for word in sentence.words:
        if word.start == start:
            index = len(tokens)
        tokens += word.form.split()
    return Instance(id="s", tokens=tuple(tokens), span=(index, index + 1), lemma=target)
