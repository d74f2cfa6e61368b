"""Gloss similarity with the sense prior: the no-model answer when the ``[context]`` extra is
installed.

Each candidate sense scores ``log P(s) + weight · cos(context, gloss(s)) + overlap · log(1 +
shared words)``: ``P(s)`` the sense prior of :class:`~wsd.systems.lesk.LeskWithPrior`
(WordNet's counts plus, after ``fit``, training counts, add-``smoothing``); ``gloss(s)`` the
synset's gloss vector (:mod:`wsd.features.gloss_vectors`); the cosine is ``1 - mix`` times
that with the target's own vector (the encoder's last layer over the target's pieces, a window
of 128 pieces: ``wsd.features.contextual``) plus ``mix`` times that with the sentence's vector
(pooled as the glosses are); the last term is simplified Lesk's count of context words the
sense's gloss and examples share (0 turns it off). The defaults (weight 10, mix 0.3, overlap
1, smoothing 1) are the best cell of a grid on semeval2007 (docs/sense-vectors.md,
benchmarks/gloss_allwords.py).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

import numpy as np

from wsd.features.contextual import ContextualEmbedding, Encoding
from wsd.features.encoders import DEFAULT_ENCODER, load_encoder
from wsd.features.gloss_vectors import GlossVectors, sentence_vectors, unit_rows
from wsd.instance import Instance
from wsd.knowledge.inventory import Sense, SenseInventory
from wsd.systems.baselines import InventorySystem
from wsd.systems.lesk import SimplifiedLesk, _first_best, log_prior

Answer = str | None
DEFAULT_WEIGHT = 10.0  # these three: the best cell on semeval2007 (benchmarks/gloss_allwords.py)
DEFAULT_MIX = 0.3
DEFAULT_OVERLAP = 1.0
TERMS = ("sense prior", "gloss vectors", "gloss overlap")
TARGET_WINDOW = 128  # pieces of the target's window and of the sentence's vector


class GlossWithPrior(InventorySystem):
    """Sense prior plus the gloss vectors' cosine with the context plus the gloss overlap
    (see the module docstring); ``fit`` adds training counts to the prior. ``glosses``: the
    gloss vectors (default: ``GlossVectors(model, cache=cache)`` over WordNet)."""

    def __init__(self, inventory: SenseInventory | None = None, weight: float = DEFAULT_WEIGHT,
                 mix: float = DEFAULT_MIX, overlap: float = DEFAULT_OVERLAP,
                 smoothing: float = 1.0, model: str = DEFAULT_ENCODER, cache: bool = True,
                 glosses: GlossVectors | None = None) -> None:
        if not 0 <= mix <= 1:
            raise ValueError(f"mix must be from 0 to 1, not {mix!r}")
        if smoothing <= 0:
            raise ValueError(f"smoothing must be > 0 (it keeps log P finite), not {smoothing!r}")
        self.inventory = inventory
        self.weight = weight
        self.mix = mix
        self.overlap = overlap
        self.smoothing = smoothing
        self.model = model
        self.cache = cache
        self._glosses = glosses or GlossVectors(model, cache=cache)
        self._targets: dict[tuple, np.ndarray] = {}
        self._sentences: dict[tuple, np.ndarray] = {}
        self._identity: str | None = None  # the encoder of ``_targets`` and ``_sentences``
        self._lesk: SimplifiedLesk | None = None

    def fit(self, instances: Sequence[Instance] = ()) -> GlossWithPrior:
        """Add the training instances' first gold senses to the sense counts."""
        self.counts_ = Counter(inst.senses[0] for inst in instances if inst.senses)
        return self

    def prepare(self, instances: Sequence[Instance], encoding: Encoding | None = None) -> None:
        """Encode the contexts and glosses of ``instances`` in batches (``sense_terms`` of one
        of them is then a look-up); a sentence's target vectors and its own vector come from
        one pass (``ContextualEmbedding.encode``), or from ``encoding`` (a pass of this
        encoder's made for another consumer too: a model's contextual block) where it holds
        the sentence whole. Only this batch's contexts are kept (those of earlier batches
        that it shares are reused): one system answers every raw-text call of a process, and
        had kept the vectors of every sentence it had read."""
        encoder = load_encoder(self.model)
        if encoder.identity != self._identity:  # the model's name loads another encoder now
            self._targets, self._sentences, self._identity = {}, {}, encoder.identity
        targets = {(i.tokens, i.span): i for i in instances}
        sentences = dict.fromkeys(i.tokens for i in instances)
        kept_targets = {k: self._targets[k] for k in targets if k in self._targets}
        kept_sentences = {k: self._sentences[k] for k in sentences if k in self._sentences}
        todo = [inst for key, inst in targets.items() if key not in kept_targets]
        own = ContextualEmbedding(self.model, layers=(-1,), window=TARGET_WINDOW, cache=False)
        last = encoder.n_layers
        if (encoding is not None and encoding.identity == encoder.identity
                and last in encoding.layers and encoding.sentence_layers == [last]
                and encoding.sentence_pieces == TARGET_WINDOW):
            # a sentence held whole is the same run in that pass as in this one's
            held = {id(inst) for inst in todo if inst.tokens in encoding.sentences
                    and encoding.target(inst, last) is not None}
            self._take([inst for inst in todo if id(inst) in held], encoding, last,
                       kept_targets, kept_sentences)  # fmt: skip
            todo = [inst for inst in todo if id(inst) not in held]
        if todo:
            self._take(todo, own.encode(todo, sentence_layers=(-1,),
                                        sentence_pieces=TARGET_WINDOW),
                       last, kept_targets, kept_sentences)  # fmt: skip
        todo_sentences = [tokens for tokens in sentences if tokens not in kept_sentences]
        if todo_sentences:  # longer than the sentence pooling's pieces
            vectors = sentence_vectors(encoder, todo_sentences, max_pieces=TARGET_WINDOW)
            kept_sentences.update(zip(todo_sentences, unit_rows(vectors), strict=True))
        self._targets, self._sentences = kept_targets, kept_sentences
        inventory = self._inventory()
        self._glosses.vectors(sense.synset for inst in instances
                              for sense in inventory.senses(inst.lemma, inst.target_pos)
                              if sense.synset)  # fmt: skip

    @staticmethod
    def _take(instances: Sequence[Instance], encoding: Encoding, layer: int,
              targets: dict[tuple, np.ndarray], sentences: dict[tuple, np.ndarray]) -> None:
        """Add the unit target vectors (at ``layer``) and sentence vectors ``encoding`` holds
        for ``instances`` to ``targets`` and ``sentences``."""
        if not instances:
            return
        rows = unit_rows(np.stack([encoding.target(inst, layer) for inst in instances]))
        targets.update(zip(((i.tokens, i.span) for i in instances), rows, strict=True))
        held = [tokens for tokens in dict.fromkeys(i.tokens for i in instances)
                if tokens in encoding.sentences and tokens not in sentences]
        if held:
            vectors = unit_rows(np.stack([encoding.sentences[tokens] for tokens in held]))
            sentences.update(zip(held, vectors, strict=True))

    def similarities(self, inst: Instance, senses: Sequence[Sense]) -> np.ndarray:
        """Each sense's gloss vector's cosine with the context: ``1 - mix`` times the target's
        plus ``mix`` times the sentence's."""
        if (inst.tokens, inst.span) not in self._targets or inst.tokens not in self._sentences:
            self.prepare([inst])
        context = ((1 - self.mix) * self._targets[(inst.tokens, inst.span)]
                   + self.mix * self._sentences[inst.tokens])  # fmt: skip
        glosses = self._glosses.vectors(s.synset for s in senses)
        return unit_rows(np.stack([glosses[s.synset] for s in senses])) @ context

    def shared_words(self, inst: Instance, sense: Sense) -> list[str]:
        """The context words the sense's gloss and examples share (simplified Lesk's)."""
        return self._overlaps().shared_words(inst, sense)

    def _overlaps(self) -> SimplifiedLesk:
        if self._lesk is None:
            self._lesk = SimplifiedLesk(self._inventory())
        return self._lesk

    def candidate_senses(self, inst: Instance) -> list[Sense]:
        """The instance's lemma's senses that have a synset (a gloss), in inventory order."""
        return [s for s in self._inventory().senses(inst.lemma, inst.target_pos) if s.synset]

    def sense_terms(self, inst: Instance) -> list[tuple[Sense, float, float, float]]:
        """Every candidate sense with the three terms of its score (``TERMS``), in inventory
        order: ``log P(s)``, ``weight · cosine`` and ``overlap · log(1 + shared words)``."""
        senses = self.candidate_senses(inst)
        if not senses:
            return []
        priors = log_prior(senses, getattr(self, "counts_", Counter()), self.smoothing)
        shared = ([len(self.shared_words(inst, s)) for s in senses] if self.overlap
                  else [0] * len(senses))  # fmt: skip
        return [(sense, prior, self.weight * float(cosine), self.overlap * math.log1p(n))
                for sense, prior, cosine, n in zip(senses, priors, self.similarities(
                    inst, senses), shared, strict=True)]  # fmt: skip

    def sense_scores(self, inst: Instance) -> list[tuple[Sense, float]]:
        """Every candidate sense with its combined score, in inventory order."""
        return [(sense, sum(terms)) for sense, *terms in self.sense_terms(inst)]

    def answer(self, inst: Instance) -> Answer:
        scored = self.sense_scores(inst)
        return _first_best(scored)[0].id if scored else None

    def predict(self, instances: Sequence[Instance]) -> list[Answer]:
        self.prepare(instances)
        return [self.answer(inst) for inst in instances]
