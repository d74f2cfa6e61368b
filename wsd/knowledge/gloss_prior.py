"""Gloss similarity with the sense prior: the no-model answer when the ``[context]`` extra is
installed.

Each candidate sense scores ``log P(s) + weight · cos(context, gloss(s))``: ``P(s)`` the
sense prior of :class:`~wsd.knowledge.lesk.LeskWithPrior` (WordNet's counts plus, after
``fit``, training counts, add-``smoothing``), ``gloss(s)`` the synset's gloss vector
(:mod:`wsd.knowledge.gloss_vectors`) and ``context`` the instance's vector from the same
encoder: with ``context="sentence"`` its sentence pooled as the glosses are (every piece's
last-layer state averaged), with ``context="target"`` the target's own pieces
(``wsd.features.contextual``). The defaults were chosen on semeval2007 (see
docs/sense-vectors.md and benchmarks/gloss_allwords.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from wsd.features.encoders import DEFAULT_ENCODER, load_encoder
from wsd.instance import Instance
from wsd.knowledge.gloss_vectors import GlossVectors, sentence_vectors, unit_rows
from wsd.knowledge.inventory import Sense, SenseInventory
from wsd.knowledge.lesk import _first_best, log_prior
from wsd.learners.baselines import InventorySystem

Answer = str | None
CONTEXTS = ("sentence", "target")
DEFAULT_WEIGHT = 20.0  # chosen on semeval2007 (benchmarks/gloss_allwords.py)


class GlossWithPrior(InventorySystem):
    """Sense prior plus ``weight`` times the cosine of the context's and the gloss's vectors
    (see the module docstring); ``fit`` adds training counts to the prior. ``glosses``: the
    gloss vectors (default: ``GlossVectors(model, cache=cache)`` over WordNet)."""

    def __init__(self, inventory: SenseInventory | None = None, weight: float = DEFAULT_WEIGHT,
                 smoothing: float = 1.0, model: str = DEFAULT_ENCODER,
                 context: str = "sentence", cache: bool = True,
                 glosses: GlossVectors | None = None) -> None:
        if context not in CONTEXTS:
            raise ValueError(f"context must be one of {', '.join(CONTEXTS)}, not {context!r}")
        if smoothing <= 0:
            raise ValueError(f"smoothing must be > 0 (it keeps log P finite), not {smoothing!r}")
        self.inventory = inventory
        self.weight = weight
        self.smoothing = smoothing
        self.model = model
        self.context = context
        self.cache = cache
        self._glosses = glosses or GlossVectors(model, cache=cache)
        self._contexts: dict[tuple, np.ndarray] = {}

    def fit(self, instances: Sequence[Instance] = ()) -> GlossWithPrior:
        """Add the training instances' first gold senses to the sense counts."""
        self.counts_ = Counter(inst.senses[0] for inst in instances if inst.senses)
        return self

    def _key(self, inst: Instance) -> tuple:
        return (inst.tokens, inst.span) if self.context == "target" else (inst.tokens,)

    def prepare(self, instances: Sequence[Instance]) -> None:
        """Encode the contexts and glosses of ``instances`` in batches (``sense_terms`` of one
        of them is then a look-up)."""
        todo = list({self._key(inst): inst for inst in instances
                     if self._key(inst) not in self._contexts}.items())  # fmt: skip
        if todo:
            if self.context == "sentence":
                vectors = sentence_vectors(load_encoder(self.model),
                                           [key[0] for key, _ in todo])
            else:
                from wsd.features.contextual import ContextualEmbedding

                vectors = ContextualEmbedding(self.model, layers=(-1,), window=128,
                                              cache=self.cache).vectors([i for _, i in todo])
            self._contexts.update(zip((key for key, _ in todo), unit_rows(vectors), strict=True))
        inventory = self._inventory()
        self._glosses.vectors(sense.synset for inst in instances
                              for sense in inventory.senses(inst.lemma, inst.target_pos)
                              if sense.synset)  # fmt: skip

    def similarities(self, inst: Instance, senses: Sequence[Sense]) -> list[float]:
        """The cosine of the instance's context vector with each sense's gloss vector."""
        if self._key(inst) not in self._contexts:
            self.prepare([inst])
        context = self._contexts[self._key(inst)]
        glosses = self._glosses.vectors(s.synset for s in senses)
        return [float(context @ unit_rows(glosses[s.synset][None])[0]) for s in senses]

    def sense_terms(self, inst: Instance) -> list[tuple[Sense, float, float]]:
        """Every candidate sense with the two terms of its score, in inventory order: ``log
        P(s)`` and ``weight · cos(context, gloss)``."""
        senses = [s for s in self._inventory().senses(inst.lemma, inst.target_pos) if s.synset]
        if not senses:
            return []
        priors = log_prior(senses, getattr(self, "counts_", Counter()), self.smoothing)
        return [(sense, prior, self.weight * cosine) for sense, prior, cosine
                in zip(senses, priors, self.similarities(inst, senses), strict=True)]

    def sense_scores(self, inst: Instance) -> list[tuple[Sense, float]]:
        """Every candidate sense with its combined score, in inventory order."""
        return [(sense, prior + gloss) for sense, prior, gloss in self.sense_terms(inst)]

    def answer(self, inst: Instance) -> Answer:
        scored = self.sense_scores(inst)
        return _first_best(scored)[0].id if scored else None

    def predict(self, instances: Sequence[Instance]) -> list[Answer]:
        self.prepare(instances)
        return [self.answer(inst) for inst in instances]

