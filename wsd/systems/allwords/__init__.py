"""All-words WSD: one averaged perceptron per ``lemma#pos``, IMS-style (Zhong & Ng 2010).

Training (usually SemCor) is split by ``Instance.key``. Every key with at least two senses and
``min_examples`` examples gets its own classifier (the mean of several averaged perceptrons
trained on different shuffles) over IMS features (the lemmas of the sentence, the corpus's own
when the loader kept them, Penn POS tags of +-3 words, the 11 local collocations), the
target's form and WordNet supersenses of the context. At prediction its scores are combined
with a sense prior, the overlap with WordNet glosses and the other instances of the word in
the same document (one sense per discourse); a margin test can hand unsure answers to the
most frequent sense. Other seen keys answer their most frequent training sense; keys never
seen answer the WordNet first sense. Each key is featurized and trained on its own, so memory
holds one key's feature dicts at a time, and keys train in parallel (``n_jobs``) with a per-key
seed (``engine.task_seed``): the model does not depend on ``n_jobs``.

Data flows one way, one module per step: ``context`` (where an instance sits) ->
``instance_features`` -> ``keytraining`` -> ``keymodel`` / ``modelfile`` (the classifiers and
their ``.npz`` file) -> ``predict`` (answers); ``system`` holds the estimator ``AllWordsWSD``
and ``plaintext`` the raw-text path (``annotate_text``); the drivers
``wsd.experiments.allwords_run`` (``run_allwords``, end to end) and ``wsd.experiments.heldout``
(held-out document folds, the F1 of prediction-time settings that chose the defaults) run it.
Names are imported on first use, so ``import wsd.systems.allwords`` stays cheap.
"""

from __future__ import annotations

from wsd.lazy import lazy_getattr

_EXPORTS = {
    "AllWordsWSD": "wsd.systems.allwords.system",
    "annotate_text": "wsd.systems.allwords.plaintext",
    "disambiguate": "wsd.systems.allwords.plaintext",
    "CorpusLemmaBag": "wsd.systems.allwords.instance_features",
    "IMS_FEATURES": "wsd.systems.allwords.instance_features",
    "TUNED_FEATURES": "wsd.systems.allwords.instance_features",
    "Decision": "wsd.systems.allwords.predict",
    "neighbour_tokens": "wsd.systems.allwords.context",
    "one_sense_per_discourse": "wsd.systems.allwords.predict",
    "wordnet_examples": "wsd.systems.allwords.context",
}
__all__ = sorted(_EXPORTS)

__getattr__ = lazy_getattr(__name__, _EXPORTS)
