"""The features of all-words instances: the feature sets, a bag of the corpus's own lemmas,
and feature dicts that may count the words of the neighbouring sentences too."""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from wsd.allwords.context import SentenceId, sentence_of
from wsd.features import BagOfWords, Featurizer
from wsd.instance import Instance

FeatureSpec = str | Sequence[Mapping[str, Any]]

# The IMS features with the sentence's corpus lemmas as bag of words (WordNet morphy for text
# without them) plus the target's own form; the best found on SemEval-2007 (see
# benchmarks/allwords.py) with WordNet supersenses of the context added (TUNED_FEATURES).
IMS_FEATURES: tuple[Mapping[str, Any], ...] = (
    {"name": "lemma_bow", "params": {"lemmatize": True}},
    {"name": "pos", "params": {"window": 3}},
    {"name": "target", "params": {"form": True}},
    {"name": "collocations", "params": {}},
)
TUNED_FEATURES: tuple[Mapping[str, Any], ...] = (
    *IMS_FEATURES,
    {"name": "supersense", "params": {"reach": 5, "bag": True}},
)


@dataclass(frozen=True)
class CorpusLemmaBag(BagOfWords):
    """A bag of words over the corpus's own lemmas of the sentence (``("lemmas", (...))`` in
    ``Instance.meta``, as the framework loader keeps them), the target left out; instances
    without them fall back to their tokens. Options as ``BagOfWords``'s (``lemmatize`` applies
    WordNet's morphy to the tokens of the fallback only)."""

    name = "lemma_bow"

    def __call__(self, inst: Instance) -> dict[str, float]:
        lemmas = inst.corpus_lemmas
        if lemmas is not None:
            return self._plain(replace(inst, tokens=lemmas, pos=None))
        return super().__call__(inst)

    @functools.cached_property
    def _plain(self) -> BagOfWords:
        """The same bag without morphy (corpus lemmas are already base forms)."""
        return BagOfWords(
            window=self.window,
            lowercase=self.lowercase,
            stopwords=self.stopwords,
            drop_punctuation=self.drop_punctuation,
        )


@functools.lru_cache(maxsize=4)
def extractors(spec_json: str) -> tuple[Any, ...]:
    """The extractors of a feature spec (JSON of a preset name or extractor configs), built once
    per process (a lemmatizing bag of words loads WordNet)."""
    spec = json.loads(spec_json)
    featurizer = Featurizer.preset(spec) if isinstance(spec, str) else Featurizer(spec)
    return tuple(featurizer.extractors)


def spec_json(features: FeatureSpec) -> str:
    """A feature spec as canonical JSON (the cache key of ``extractors``)."""
    if isinstance(features, str):
        return json.dumps(features)
    return json.dumps([dict(f) for f in features], sort_keys=True)


class InstanceFeatures:
    """Unweighted feature dicts of instances: the extractors plus the neighbouring sentences'
    words, counted as ``bow=`` features by the spec's bag of words (a default one if none)."""

    def __init__(self, spec_json: str, context: Mapping[SentenceId, tuple[str, ...]] | None):
        found = extractors(spec_json)
        self.featurizer = Featurizer(list(found))
        bags = [e for e in found if isinstance(e, BagOfWords)]
        self.bag = bags[0] if bags else BagOfWords()
        self.context = context

    def extract(self, instances: Sequence[Instance]) -> list[dict[str, float]]:
        rows = self.featurizer.extract(instances)
        if self.context is not None:
            for inst, row in zip(instances, rows, strict=True):
                around = self.context.get(sentence_of(inst), ())
                if around:
                    holder = Instance(id="", tokens=(*around, ""), span=(len(around),
                                      len(around) + 1), lemma="")  # fmt: skip
                    for f, v in self.bag(holder).items():
                        row[f] = row.get(f, 0.0) + v
        return rows
