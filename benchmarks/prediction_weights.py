"""The all-words decision's prediction-time weights re-chosen beside the gloss fusion (issue 39).

The sense prior (``prior``), the gloss overlap (``gloss_weight``) and one sense per discourse
(``discourse_weight``) were chosen for the sparse model, before the contextual block and the
gloss fusion (``DEFAULT_GLOSS_FUSION`` · the gloss vectors' cosine) joined the totals; the fusion
brings what the gloss overlap measured, from the same glosses. Here each instance's parts are
computed once (the classifier's own scores, the prior's log term, the overlaps; the fusion's
cosines and the backoff's terms from ``benchmarks/gloss_classifiers.py --sense-grid``'s
``terms-<set>.json``) and every cell of the grid is scored with the fusion at its default and
the margin rule; instances whose key has no classifier answer the gloss backoff as the default
does (no weight here changes them). Development sets only: semeval2007, held-out SemCor and the
out-of-fold sets inside its training folds (``gloss_classifiers.py``'s models and terms).

    python benchmarks/gloss_classifiers.py --sense-grid --sets semeval2007 heldout oof0 oof1 \
        --models DIR                                   # the models and terms-<set>.json first
    python benchmarks/prediction_weights.py --models DIR [--sets semeval2007 heldout oof0 oof1]
"""

from __future__ import annotations

import argparse
import itertools
import json
from pathlib import Path

import numpy as np
from gloss_classifiers import Grid, backoff_answer, place

from wsd.corpora.framework import load_dataset
from wsd.knowledge.inventory import WordNetInventory
from wsd.systems.allwords import AllWordsWSD
from wsd.systems.allwords.instance_features import feature_set
from wsd.systems.allwords.keymodel import most_frequent
from wsd.systems.allwords.predict import (
    _classifier_rows,
    log_prior,
    one_sense_per_discourse,
    prior_weight,
)
from wsd.systems.allwords.system import DEFAULT_GLOSS_FUSION

PRIORS = (0.0, 0.05, 0.1, 0.2, 0.5)
OVERLAPS = (0.0, 1.0, 2.0, 3.0, 5.0)
DISCOURSE = (0.0, 3.0, 6.0, 10.0)


def parts(model: AllWordsWSD, test):
    """Per key with a classifier: its instances' positions and instances, the classifier's own
    scores, the prior's term per unit of ``prior`` and the gloss overlaps (unweighted)."""
    found = []
    for key, positions, rows, dense, extra in _classifier_rows(model, test):
        km = model.models_[key]
        own = np.array(km.scores_many(rows, [dense.get(i) for i in positions],
                                      [extra.get(i) for i in positions]), float)
        counts = model.sense_counts_[key]
        prior = prior_weight(1.0, model.prior_count, counts) * log_prior(counts, km.classes)
        group = [test[i] for i in positions]
        overlaps = np.array(model.knowledge.gloss_overlaps_many(group, km.classes), float)
        found.append((positions, group, own, prior, overlaps))
    return found


def totals(found, prior: float, overlap: float, discourse: float) -> dict[int, np.ndarray]:
    """Position -> the totals before the fusion, as ``key_totals`` sums them."""
    out = {}
    for positions, group, own, prior_term, overlaps in found:
        before = own + prior * prior_term + overlap * overlaps
        rows = one_sense_per_discourse(group, list(before), discourse) if discourse else before
        out.update(zip(positions, rows, strict=True))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", type=Path, required=True)
    parser.add_argument("--sets", nargs="+", default=["semeval2007", "heldout", "oof0", "oof1"])
    args = parser.parse_args()
    tagger = AllWordsWSD(features=feature_set("tuned+context"))
    semcor = load_dataset("semcor")
    inventory = WordNetInventory()
    defaults = AllWordsWSD()
    for name in args.sets:
        records = json.loads((args.models / f"terms-{name}.json").read_text())
        model, _, test = place(name, args.models, semcor, tagger, inventory)
        found = parts(model, test)
        others = [r for r in records if r["classes"] is None]
        answers = [backoff_answer(r, 0, "train") for r in others]
        right_others = sum(a is not None and a in r["gold"]
                           for a, r in zip(answers, others, strict=True))
        answered_others = sum(a is not None for a in answers)
        n, n_cls = len(records), len(records) - len(others)
        for prior, overlap, discourse in itertools.product(PRIORS, OVERLAPS, DISCOURSE):
            by_position = totals(found, prior, overlap, discourse)
            cell = [dict(r, total=by_position[i].tolist()) for i, r in enumerate(records)
                    if r["classes"] is not None]
            grid = Grid(cell, [most_frequent(r["counts"]) for r in cell])
            right = grid.right(DEFAULT_GLOSS_FUSION, 0, defaults.margin, None)
            p = (right + right_others) / (n_cls + answered_others)
            r = (right + right_others) / n
            print(f"{name} prior {prior:g} overlap {overlap:g} discourse {discourse:g}: F1 "
                  f"{100 * 2 * p * r / (p + r):6.2f} classifier {100 * right / n_cls:5.1f}",
                  flush=True)


if __name__ == "__main__":
    main()
