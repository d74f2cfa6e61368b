"""The bundled targets in raw text without a model: their bundled models answer, as
``wsd disambiguate --target bass`` does, not Lesk (which reads *He caught a huge bass* as the
music sense), with or without a target named. A bundled sense maps to its WordNet sense where
the inventory gives one.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from wsd.corpora.bundled import bundled_targets, load_bundled_inventory
from wsd.instance import Instance
from wsd.knowledge.inventory import readable_gloss
from wsd.knowledge.lexicon import wordnet
from wsd.knowledge.sensekeys import lemma_for_key
from wsd.systems.named import small_corpus_settings, train_bundled_model
from wsd.text import Sentence

if TYPE_CHECKING:
    from wsd.systems.allwords.plaintext import TaggedWord


@functools.cache
def bundled_model(target: str) -> Any:
    """The bundled model of ``target`` with the command line's default settings, trained
    once per process (about a second)."""
    return train_bundled_model(target, small_corpus_settings())


@functools.cache
def _inventory(target: str) -> dict[str, Any]:
    return load_bundled_inventory(target)


def with_bundled_answers(words: Sequence[TaggedWord], sentences: Sequence[Sentence],
                         explain: int = 0) -> list[TaggedWord]:  # fmt: skip
    """``words`` (Lesk's answers) with a bundled model's answers where a word's lemma is a
    bundled target in its inventory's part of speech (not *banks* the verb, nor the
    expression *bass guitar*). Such an answer has the WordNet sense of the bundled one
    (none where the inventory gives none: then the bundled gloss), ``source`` "classifier",
    the model's margin over the runner-up (in its perceptron's units) and no ``score`` (the
    model's scores are not calibrated); with ``explain`` > 0, the runner-up and the terms of
    the margin (the bias, the ``explain`` features that moved it most, the others together)."""
    targets = set(bundled_targets())
    answered = []
    for word in words:
        bundled = word.lemma
        if bundled not in targets or word.pos != _inventory(bundled)["pos"]:
            answered.append(word)
            continue
        senses = {sense["id"]: sense for sense in _inventory(bundled)["senses"]}
        why = bundled_model(bundled).explain(_instance(sentences[word.sentence], word.start,
                                                       bundled), k=max(explain, 1))  # fmt: skip
        synset = _synset(senses[why.sense]["wordnet"])
        reasons: dict[str, Any] = {"runner_up": None, "reasons": ()}
        if explain > 0 and why.runner_up is not None:
            other = _synset(senses[why.runner_up]["wordnet"])
            terms = [("bias", why.bias), *why.support, *why.against,
                     (f"{why.n_rest} other features", why.rest) if why.n_rest else None]
            reasons = {"runner_up": other.name() if other else why.runner_up,
                       "reasons": tuple(t for t in terms if t and abs(t[1]) >= 5e-4)}
        answered.append(dataclasses.replace(
            word, sense_key=senses[why.sense]["wordnet"],
            synset_name=synset.name() if synset else None,
            gloss=readable_gloss(synset.definition()) if synset else senses[why.sense]["gloss"],
            score=None, margin=why.margin, source="classifier", **reasons))  # fmt: skip
    return answered


def _synset(key: str | None) -> Any:
    """The WordNet synset of a bundled sense's key, or None where it has none."""
    return lemma_for_key(wordnet(), key).synset() if key else None


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
