"""The cosine of an instance's context vector with each candidate sense's gloss vector, as
features of its key's classifier (issue 39, part a; ``gloss_cosine_weight``, off by default).

A key with classes c_1..c_k gets k features ``gloss:<c_j>``, valued ``weight · cos(x, g_j)``:
g_j the gloss vector of c_j's synset (``wsd.features.gloss_vectors``: its lemma names, gloss
and examples, the encoder's last layer pooled over all their pieces), x the instance's context
vector pooled as the no-model default pools it (``wsd.systems.gloss_prior``): ``1 - mix``
times the unit target vector (the last layer over the target's pieces, the contextual block's
window) plus ``mix`` times the unit sentence vector (pooled as the glosses are). Glosses are
not training instances, so a training instance sees the values a new one will (no leave one
out). Sentence vectors are kept in the on-disk vector cache (``wsd.features.vector_cache``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from wsd.features.contextual import ContextualEmbedding
from wsd.features.encoders import load_encoder
from wsd.features.gloss_vectors import GlossVectors, sentence_vectors, unit_rows
from wsd.features.vector_cache import VectorCache, digest
from wsd.instance import Instance
from wsd.systems.allwords.sense_vectors import synset_name
from wsd.systems.gloss_prior import DEFAULT_MIX

PREFIX = "gloss:"
CHUNK = 4096  # rows mixed at a time (bounded temporaries)


def feature_names(classes: Sequence[str]) -> list[str]:
    """The feature name of each class's gloss cosine."""
    return [f"{PREFIX}{c}" for c in classes]


class GlossCosines:
    """Context vectors of instances and their cosines with the gloss vectors of sense keys.

    ``model`` and ``window``: the encoder and the target's window (the contextual block's);
    ``wordnet``: the NLTK reader mapping sense keys to synsets; ``glosses``: the gloss vectors
    (default ``GlossVectors(model)``, cached on disk); ``cache``: keep sentence vectors in
    the on-disk vector cache."""

    def __init__(self, model: str, window: int, wordnet, mix: float = DEFAULT_MIX,
                 glosses: GlossVectors | None = None, cache: bool = True) -> None:
        self.model, self.window, self.wordnet, self.mix = model, window, wordnet, mix
        self.glosses = glosses or GlossVectors(model)
        self.cache = cache
        self._synsets: dict[str, str | None] = {}

    def contexts(self, instances: Sequence[Instance]) -> np.ndarray:
        """float32 (len(instances), dim): each instance's context vector x (see the module),
        computed in place in float32 (all of SemCor's at once for training)."""
        if not instances:
            return np.zeros((0, 0), np.float32)
        found = ContextualEmbedding(self.model, layers=(-1,), window=self.window,
                                    cache=self.cache).vectors(instances)  # fmt: skip
        norms = np.linalg.norm(found, axis=1, keepdims=True)
        found /= np.where(norms > 0, norms, 1.0)
        found *= 1 - self.mix
        if self.mix:
            sentences = list(dict.fromkeys(inst.tokens for inst in instances))
            unit = self._sentences(sentences)
            index = {tokens: i for i, tokens in enumerate(sentences)}
            rows = np.array([index[inst.tokens] for inst in instances])
            for a in range(0, len(rows), CHUNK):
                found[a : a + CHUNK] += self.mix * unit[rows[a : a + CHUNK]]
        return found

    def _sentences(self, sentences: Sequence[tuple[str, ...]]) -> np.ndarray:
        """Unit sentence vectors, each distinct sentence encoded once (and cached)."""
        encoder = load_encoder(self.model)
        keys = [digest(*tokens) for tokens in sentences]
        cache = (VectorCache(digest(encoder.identity, "sentence", "-1", "128")[:24])
                 if self.cache else None)  # fmt: skip
        known = {k: v.astype(np.float32) for k, v in cache.get(keys).items()} if cache else {}
        todo = {k: tokens for k, tokens in zip(keys, sentences, strict=True) if k not in known}
        if todo:
            fresh = sentence_vectors(encoder, list(todo.values())).astype(np.float16)
            fresh_of = dict(zip(todo, fresh, strict=True))
            if cache:
                cache.put(fresh_of)
            known.update((k, v.astype(np.float32)) for k, v in fresh_of.items())
        return unit_rows(np.stack([known[k] for k in keys]))

    def cosines(self, contexts: np.ndarray, classes: Sequence[str]) -> np.ndarray:
        """``(len(contexts), len(classes))`` cosines of context vectors with the classes'
        gloss vectors (0 for a class WordNet lacks)."""
        synsets = [synset_name(self.wordnet, c, self._synsets) for c in classes]
        vectors = self.glosses.vectors(s for s in synsets if s)
        width = contexts.shape[1]
        rows = np.array([vectors[s] if s else np.zeros(width, np.float32) for s in synsets])
        norms = np.linalg.norm(contexts, axis=1)[:, None] * np.linalg.norm(rows, axis=1)[None]
        dots = np.asarray(contexts, np.float64) @ rows.T.astype(np.float64)
        return np.divide(dots, norms, out=np.zeros_like(dots), where=norms > 0)

    def features(self, context: np.ndarray, classes: Sequence[str],
                 weight: float) -> dict[str, float]:  # fmt: skip
        """A new instance's gloss-cosine features for a classifier with ``classes``."""
        values = weight * self.cosines(context[None], classes)[0]
        return dict(zip(feature_names(classes), values.tolist(), strict=True))
