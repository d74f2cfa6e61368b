"""Gloss similarity in the all-words decision (issue 39, part b): knowledge from WordNet's
glosses, outside the training examples, beside the per-word classifiers.

- Fusion (``gloss_fusion``): each classifier's totals (its scores, the sense prior, the gloss
  overlap, one sense per discourse) plus ``gloss_fusion`` times each class's gloss-vector
  cosine with the instance's context, as :class:`~wsd.systems.gloss_prior.GlossWithPrior`
  computes it (the target's and the sentence's vectors against the synset's gloss vector).
- Backoff (``gloss_backoff``): a key seen in training without a classifier (one sense, or too
  few examples) answers ``argmax_s log p(s) + GlossWithPrior's cosine and overlap terms`` over
  the lemma's WordNet senses, p the key's add-one training frequency (source "gloss"); a key
  never seen keeps WordNet's first sense.

Both need a contextual block (its encoder encodes the glosses and contexts) and WordNet; the
weights were chosen on semeval2007 and held-out SemCor (docs/sense-vectors.md).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from wsd.features.contextual import Encoding
from wsd.instance import Instance
from wsd.systems.allwords.predict import Decision, log_prior, prior_decision
from wsd.systems.gloss_prior import GlossWithPrior

GLOSS = "gloss"


class GlossDecisions:
    """The gloss cosines of classes and the gloss backoff's decisions, by ``glosses``."""

    def __init__(self, glosses: GlossWithPrior) -> None:
        self.glosses = glosses

    def prepare(self, instances: Sequence[Instance], encoding: Encoding | None = None) -> None:
        """Encode the contexts and glosses of ``instances`` in batches (the contexts taken
        from ``encoding`` where it holds them: ``GlossWithPrior.prepare``)."""
        if instances:
            self.glosses.prepare(instances, encoding)

    def cosines(self, inst: Instance, classes: Sequence[str]) -> np.ndarray:
        """Each class's gloss-vector cosine with the instance's context; a class that is not
        among the lemma's WordNet senses gets the lowest of theirs (0 when it has none)."""
        senses = self.glosses.candidate_senses(inst)
        if not senses:
            return np.zeros(len(classes))
        found = self.glosses.similarities(inst, senses)
        of = {sense.id: float(value) for sense, value in zip(senses, found, strict=True)}
        low = float(found.min())
        return np.array([of.get(c, low) for c in classes])

    def backoff(self, inst: Instance, counts: dict[str, int], explain: int = 0
                ) -> Decision | None:  # fmt: skip
        """The backoff's decision for an instance of a key seen with ``counts`` (None when
        the lemma has no WordNet sense); with ``explain``, reasons naming each term."""
        terms = self.glosses.sense_terms(inst)
        if not terms:
            return None
        priors = log_prior(counts, [sense.id for sense, *_ in terms])
        rows = [(sense, float(prior), vectors, overlap)
                for (sense, _, vectors, overlap), prior in zip(terms, priors, strict=True)]

        def names(best: int, other: int) -> tuple[str, str, str]:
            weight = self.glosses.weight or 1.0
            return ("sense prior (training counts)",
                    f"gloss vectors (cosine {rows[best][2] / weight:.2f} vs "
                    f"{rows[other][2] / weight:.2f})", "gloss overlap")

        return prior_decision(rows, GLOSS, names if explain > 0 else None)
