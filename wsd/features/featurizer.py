"""From instances to weighted feature dicts: a list of extractors plus a fitted weighting."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from wsd.features.bow import BagOfWords
from wsd.features.collocations import Collocations
from wsd.features.contextual import ContextualEmbedding
from wsd.features.encoders import check_encoder
from wsd.features.extractors import Extractor, extractor_from_dict, extractor_to_dict
from wsd.features.pos import ensure_pos
from wsd.features.positional import PositionalWords, PosTags
from wsd.features.records import check_record
from wsd.features.target import TargetWord
from wsd.features.weighting import Weighting, make_weighting
from wsd.instance import Instance
from wsd.params import ParamsMixin

FORMAT = "wsd.featurizer"
VERSION = 1

ExtractorLike = Callable[[Instance], Mapping[str, float]]


# Word pieces the presets' contextual block sees around the target: chosen by 5-fold
# cross-validation on NLTK's senseval training data among 32, 64 and 256 (the former window):
# python benchmarks/lexsample_window.py --cv (docs/sense-vectors.md, "Choices").
PRESET_CONTEXT_WINDOW = 64


def _preset_extractors(name: str, window: int | None, lemmatize: bool) -> list[Extractor]:
    if name == "context" or name.endswith("+context"):
        context = ContextualEmbedding(window=PRESET_CONTEXT_WINDOW)
        check_encoder(context.model)  # a missing extra stops here, before any other work
        sparse = name.removesuffix("context").removesuffix("+")
        return (_preset_extractors(sparse, window, lemmatize) if sparse else []) + [context]
    if name == "ims":  # Zhong & Ng (2010): words, POS -3..+3 (target's included), collocations
        return [
            BagOfWords(window=window, lemmatize=lemmatize),
            PosTags(window=3),
            TargetWord(form=False),
            Collocations(),
        ]
    if name == "bow":
        return [BagOfWords(window=window, lemmatize=lemmatize)]
    if name == "local":
        size = 3 if window is None else window
        return [PositionalWords(window=size), PosTags(window=size), TargetWord()]
    if name == "full":
        return [BagOfWords(window=window, lemmatize=lemmatize), PositionalWords(window=2),
                PosTags(window=3), TargetWord(), Collocations()]  # fmt: skip
    raise ValueError(f"unknown feature preset {name!r}; choose one of {', '.join(PRESETS)}")


def dense_scaling(block: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-dimension mean and standard deviation of a training block (deviation 0 -> 1)."""
    deviation = block.std(axis=0)
    deviation[deviation == 0] = 1.0
    return block.mean(axis=0), deviation


def scale_dense(block: np.ndarray, mean: np.ndarray, deviation: np.ndarray,
                weight: float) -> np.ndarray:
    """Standardised, divided by sqrt(dim) (about unit row length) and times the block weight."""
    return (block - mean) / deviation * (weight / np.sqrt(block.shape[1]))


PRESETS = ("ims", "bow", "local", "full", "context", "full+context")


class Featurizer(ParamsMixin):
    """Extract features from instances and weight them with statistics of the training set.

    ``extractors``: callables ``Instance -> dict`` (built-in ones, or their ``{"name", "params"}``
    configs; only built-in ones can be saved). Their dicts are merged, values of a feature
    produced twice are added. ``weighting``: "binary", "count", "tfidf", "ppmi" or a Weighting.
    POS tags missing from the corpus come from NLTK's tagger when installed; without it the POS
    features are left out with a warning, or, with ``require_pos=True``, MissingResourceError.

    Dense extractors (``dense = True``, such as ContextualEmbedding) give a vector per instance
    through ``vectors(instances)`` (``vectors(instances, cache=False)`` for text read once,
    ``transform(..., cache_vectors=False)``). Their block bypasses the weighting: each dimension is
    standardised with the training mean and deviation, the block divided by sqrt(dim) (about
    unit length, like a tf-idf block) and multiplied by the extractor's ``weight``; it joins the
    weighted sparse dict as features ``<name>:<dimension>``, so every dict learner (and the
    compiled engine, through the same CSR vectorisation) takes sparse and dense features alike.
    The arguments are stored as given (``get_params``/``set_params``, so a grid search can tune
    ``featurizer__weighting``); ``fit`` sets ``weighting_``, the fitted weighting.
    """

    def __init__(
        self,
        extractors: Sequence[ExtractorLike | Mapping[str, Any]],
        weighting: str | Weighting = "binary",
        require_pos: bool = False,
    ) -> None:
        self.extractors = extractors
        self.weighting = weighting
        self.require_pos = require_pos

    @classmethod
    def preset(
        cls,
        name: str,
        weighting: str | Weighting = "binary",
        window: int | None = None,
        lemmatize: bool = False,
    ) -> Featurizer:
        """A named feature set: "ims" (BoW, POS +-3, target POS, IMS collocations), "bow"
        (BoW), "local" (words and POS +-``window`` (default 3), target form and POS), "full"
        (BoW, words +-2, POS +-3, target, collocations); "context" (the target's contextual
        vector; needs the [context] extra) alone or after any of them ("full+context").
        ``window`` bounds the bag of words (None: whole sentence); ``lemmatize`` its words
        with WordNet's morphy."""
        return cls(_preset_extractors(name, window, lemmatize), weighting=weighting)

    def built_extractors(self) -> list[ExtractorLike]:
        """The extractors, those given as configs built (each call builds them afresh)."""
        if not self.extractors:
            raise ValueError("a Featurizer needs at least one extractor")
        return [extractor_from_dict(e) if isinstance(e, Mapping) else e for e in self.extractors]

    def _weighting(self) -> Weighting:
        """The fitted weighting, or before ``fit`` the one named (stateless ones work)."""
        return getattr(self, "weighting_", None) or make_weighting(self.weighting)

    def _uses_pos(self, extractors: Sequence[ExtractorLike]) -> bool:
        return any(getattr(e, "uses_pos", False) for e in extractors)

    def dense_extractors(self) -> list[Any]:
        """The extractors that give a dense block (``dense = True``), in order."""
        return [e for e in self.built_extractors() if getattr(e, "dense", False)]

    def extract(self, instances: Sequence[Instance]) -> list[dict[str, float]]:
        """The unweighted sparse features of each instance (tagging it first when POS is
        needed); dense extractors are left to ``fit`` and ``transform``."""
        extractors = [e for e in self.built_extractors() if not getattr(e, "dense", False)]
        if self._uses_pos(extractors):
            instances = ensure_pos(instances, required=self.require_pos)
        rows = []
        for inst in instances:
            features: dict[str, float] = {}
            for extract in extractors:
                part = extract(inst)
                if features.keys().isdisjoint(part):
                    features.update(part)
                else:
                    for f, v in part.items():
                        features[f] = features.get(f, 0.0) + v
            rows.append(features)
        return rows

    def _fit_dense(self, instances: Sequence[Instance]) -> list[np.ndarray]:
        blocks = [e.vectors(instances).astype(np.float64) for e in self.dense_extractors()]
        self.dense_scaling_ = [dense_scaling(block) for block in blocks]
        return blocks

    def _add_dense(self, rows: list[dict[str, float]], instances: Sequence[Instance],
                   blocks: list[np.ndarray] | None = None, cache_vectors: bool = True
                   ) -> list[dict[str, float]]:  # fmt: skip
        dense = self.dense_extractors()
        if not dense:
            return rows
        if not hasattr(self, "dense_scaling_"):
            raise ValueError("the Featurizer is not fitted: call fit(training instances) first")
        if blocks is None:
            blocks = [(e.vectors(instances) if cache_vectors else e.vectors(instances, cache=False)
                       ).astype(np.float64) for e in dense]
        for extractor, block, (mean, deviation) in zip(dense, blocks, self.dense_scaling_,
                                                       strict=True):
            scaled = scale_dense(block, mean, deviation, extractor.weight)
            names = [f"{extractor.name}:{j}" for j in range(block.shape[1])]
            for row, values in zip(rows, scaled.tolist(), strict=True):
                row.update(zip(names, values, strict=True))
        return rows

    def fit(self, instances: Sequence[Instance]) -> Featurizer:
        self.fit_transform(instances)
        return self

    def transform(self, instances: Sequence[Instance], cache_vectors: bool = True
                  ) -> list[dict[str, float]]:  # fmt: skip
        """The weighted features of ``instances`` with the dense blocks; ``cache_vectors=False``:
        a contextual block neither reads nor writes the on-disk vector cache (text read once:
        each look-up reads the whole cache, and each call would add to it)."""
        return self._add_dense(self._weighting().transform(self.extract(instances)), instances,
                               cache_vectors=cache_vectors)

    def fit_transform(self, instances: Sequence[Instance]) -> list[dict[str, float]]:
        self.weighting_ = make_weighting(self.weighting)
        rows = self.weighting_.fit_transform(self.extract(instances))
        return self._add_dense(rows, instances, self._fit_dense(instances))

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form: the extractor configs and the fitted weighting."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "extractors": [extractor_to_dict(e) for e in self.built_extractors()],
            "weighting": self._weighting().to_dict(),
            "require_pos": self.require_pos,
            "dense_scaling": [{"mean": m.tolist(), "deviation": d.tolist()}
                              for m, d in getattr(self, "dense_scaling_", [])],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Featurizer:
        check_record(data, FORMAT, VERSION)
        extractors = data["extractors"]
        if not isinstance(extractors, list) or not all(isinstance(e, Mapping) for e in extractors):
            raise ValueError("the featurizer's extractors must be a list of "
                             '{"name": ..., "params": {...}} objects')
        featurizer = cls(
            extractors,
            weighting=Weighting.from_dict(data["weighting"]),
            require_pos=bool(data.get("require_pos", False)),
        )
        featurizer.weighting_ = featurizer.weighting
        for extractor in featurizer.dense_extractors():
            check_encoder(extractor.model)  # a model with contextual features needs the extra
        if featurizer.dense_extractors():
            featurizer.dense_scaling_ = [
                (np.asarray(s["mean"], dtype=np.float64), np.asarray(s["deviation"], np.float64))
                for s in data.get("dense_scaling", [])]
        return featurizer
