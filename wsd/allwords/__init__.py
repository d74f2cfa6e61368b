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

Data flows one way, one module per step: ``context`` (where an instance sits) -> ``features``
-> ``training`` -> ``keymodel`` / ``modelfile`` (the classifiers and their ``.npz`` file) ->
``predict`` (answers); ``system`` holds the estimator ``AllWordsWSD``, ``runner`` the
end-to-end ``run_allwords``, ``text`` the raw-text path (``annotate_text``) and ``heldout``
the held-out document folds and the F1 of prediction-time settings that chose the defaults.
Names are imported on first use, so ``import wsd.allwords`` stays cheap.
"""

from __future__ import annotations

from wsd.lazy import lazy_getattr

_EXPORTS = {
    "AllWordsWSD": "wsd.allwords.system",
    "annotate_text": "wsd.allwords.text",
    "disambiguate": "wsd.allwords.text",
    "CorpusLemmaBag": "wsd.allwords.features",
    "IMS_FEATURES": "wsd.allwords.features",
    "TUNED_FEATURES": "wsd.allwords.features",
    "Decision": "wsd.allwords.predict",
    "neighbour_tokens": "wsd.allwords.context",
    "one_sense_per_discourse": "wsd.allwords.predict",
    "resolve_dataset": "wsd.allwords.runner",
    "run_allwords": "wsd.allwords.runner",
    "wordnet_examples": "wsd.allwords.context",
}
__all__ = sorted(_EXPORTS)

__getattr__ = lazy_getattr(__name__, _EXPORTS)
