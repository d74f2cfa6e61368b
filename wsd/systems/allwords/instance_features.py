"""The features of all-words instances: the feature sets, a bag of the corpus's own lemmas,
feature dicts that may count the words of the neighbouring sentences too, and the optional
contextual block (``ContextBlock``)."""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from wsd.features import BagOfWords, Featurizer
from wsd.features.encoders import check_encoder, load_encoder
from wsd.features.extractors import extractor_to_dict
from wsd.features.featurizer import scale_dense
from wsd.instance import Instance
from wsd.systems.allwords.context import SentenceId, sentence_of

if TYPE_CHECKING:
    from wsd.features.contextual import Encoding

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
            return self._plain.counts(lemmas, inst.span)  # no Instance built per call
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
    per process (a lemmatizing bag of words loads WordNet; building and checking configs costs
    more than extracting one word's features)."""
    spec = json.loads(spec_json)
    featurizer = Featurizer.preset(spec) if isinstance(spec, str) else Featurizer(spec)
    return tuple(featurizer.built_extractors()) if featurizer.extractors else ()


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


# ---- the contextual block -------------------------------------------------------------------

SCALE_CHUNK = 4096  # rows of the contextual block scaled at a time (bounded float64 temporaries)

FEATURE_SETS = {"tuned": TUNED_FEATURES, "ims": IMS_FEATURES}
# The block beside the sparse features of ``<set>+context``: MiniLM's last four layers, their
# weight chosen on SemEval-2007 (python benchmarks/contextual_allwords.py --choose).
CONTEXT_FEATURE: Mapping[str, Any] = {
    "name": "context",
    "params": {"model": "minilm", "layers": [-4, -3, -2, -1], "window": 256, "weight": 8.0},
}


def feature_set(name: str) -> FeatureSpec:
    """The extractor configs of a named all-words feature set: "tuned" (the default), "ims",
    either followed by "+context" (the target's contextual vector beside them; needs the
    [context] extra), or "context" alone."""
    sparse, _, extra = name.partition("+")
    if name == "context":
        return copy.deepcopy([CONTEXT_FEATURE])
    if sparse not in FEATURE_SETS or extra not in ("", "context"):
        raise ValueError(f"unknown all-words feature set {name!r}; choose from "
                         f"{', '.join(FEATURE_SET_NAMES)}")
    # copies all the way down: a caller may change a setting without changing the preset
    return copy.deepcopy([*FEATURE_SETS[sparse], *([CONTEXT_FEATURE] if extra else [])])


FEATURE_SET_NAMES = (*FEATURE_SETS, *(f"{name}+context" for name in FEATURE_SETS), "context")


class ContextBlock:
    """The dense block of an all-words system: the contextual vector of each instance
    (``ContextualEmbedding``, every sentence encoded once), standardised with the training
    set's per-dimension mean and deviation, divided by sqrt(dim) and times the extractor's
    ``weight`` (as the Featurizer scales it), as features ``context:0``, ``context:1``, ...

    ``encoder`` is the identity of the encoder that made the training vectors; a model
    applied with another encoder (another file behind the same name) is refused.
    """

    def __init__(self, extractor: Any, mean: np.ndarray | None = None,
                 deviation: np.ndarray | None = None, encoder: str | None = None) -> None:
        self.extractor = extractor
        self.mean, self.deviation, self.encoder = mean, deviation, encoder

    @classmethod
    def of(cls, spec_json: str) -> ContextBlock | None:
        """The block of a feature spec (None when it has no dense extractor); MissingExtraError
        now when the encoder's packages are not installed."""
        dense = Featurizer(list(extractors(spec_json))).dense_extractors()
        if not dense:
            return None
        if len(dense) > 1:
            raise ValueError("an all-words feature set takes at most one contextual block")
        check_encoder(dense[0].model)
        return cls(dense[0])

    @property
    def names(self) -> list[str]:
        return [f"{self.extractor.name}:{j}" for j in range(len(self.mean))]

    def vectors(self, instances: Sequence[Instance], progress: bool = False,
                cache_vectors: bool = True, encoding: Encoding | None = None) -> np.ndarray:
        """The raw (unscaled) float32 vectors of ``instances``; ValueError when the encoder is
        not the one the model was trained with; ``cache_vectors=False``: without the on-disk
        cache (``AllWordsWSD.decide``); ``encoding``: a pass of ``encode`` whose vectors are
        taken for the instances it holds."""
        self._check_encoder()
        return self.extractor.vectors(instances, progress=progress,
                                      cache=None if cache_vectors else False,
                                      encoding=encoding)  # fmt: skip

    def encode(self, instances: Sequence[Instance], sentence_layers: Sequence[int] = (-1,),
               sentence_pieces: int = 128) -> Encoding:
        """One pass of the block's encoder over ``instances`` (no cache) that also gives their
        sentences' vectors (``ContextualEmbedding.encode``): for the gloss similarity of a
        model whose block and glosses share the encoder."""
        self._check_encoder()
        return self.extractor.encode(instances, sentence_layers, sentence_pieces)

    def _check_encoder(self) -> None:
        encoder = load_encoder(self.extractor.model).identity
        if self.encoder is not None and encoder != self.encoder:
            raise ValueError(f"the model's contextual features came from encoder {self.encoder}"
                             f", but {self.extractor.model!r} is now {encoder}; retrain it")
        self.encoder = encoder

    def fit_transform(self, instances: Sequence[Instance], progress: bool = False) -> np.ndarray:
        """The scaled block of the training instances, the scaling fitted on them."""
        return self.fit_scale(self.vectors(instances, progress))

    def fit_scale(self, block: np.ndarray) -> np.ndarray:
        """``block`` (raw float32 vectors) scaled in place, the scaling fitted on it; the
        statistics are float64 sums over chunks of rows, never a float64 copy of the block."""
        n = max(len(block), 1)
        mean = sum((block[a : a + SCALE_CHUNK].sum(axis=0, dtype=np.float64)
                    for a in range(0, len(block), SCALE_CHUNK)), np.zeros(block.shape[1]))
        mean /= n
        squares = sum((np.square(block[a : a + SCALE_CHUNK] - mean).sum(axis=0)
                       for a in range(0, len(block), SCALE_CHUNK)), np.zeros(block.shape[1]))
        deviation = np.sqrt(squares / n)
        deviation[deviation == 0] = 1.0
        self.mean, self.deviation = mean, deviation
        return self.scale(block)

    def transform(self, instances: Sequence[Instance], progress: bool = False) -> np.ndarray:
        """The scaled block of new instances (float32, one row each)."""
        if not instances:
            return np.zeros((0, len(self.mean)), np.float32)
        return self.scale(self.vectors(instances, progress))

    def scale(self, block: np.ndarray) -> np.ndarray:
        """float32 ``block`` scaled in place, a chunk of rows at a time (in float64)."""
        for a in range(0, len(block), SCALE_CHUNK):
            block[a : a + SCALE_CHUNK] = scale_dense(block[a : a + SCALE_CHUNK].astype(np.float64),
                                                     self.mean, self.deviation,
                                                     self.extractor.weight)
        return block

    def to_dict(self) -> dict[str, Any]:
        """The encoder's identity, the extractor's whole configuration and the scaling."""
        return {"encoder": self.encoder, "extractor": extractor_to_dict(self.extractor),
                "mean": self.mean.tolist(), "deviation": self.deviation.tolist()}

    def restore(self, data: Mapping[str, Any]) -> ContextBlock:
        """This block with the scaling and encoder identity of a saved model."""
        try:
            mean = np.asarray(data["mean"], dtype=np.float64)
            deviation = np.asarray(data["deviation"], dtype=np.float64)
            encoder = str(data["encoder"])
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"the contextual block's scaling is malformed ({err})") from None
        if mean.ndim != 1 or mean.shape != deviation.shape or not np.all(deviation > 0):
            raise ValueError("the contextual block's scaling is malformed")
        self.mean, self.deviation, self.encoder = mean, deviation, encoder
        return self
