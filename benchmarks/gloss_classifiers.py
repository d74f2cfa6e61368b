"""Gloss vectors in the all-words classifiers (issue 39): as per-class features (part a) and
in a late fusion (part b), against today's ``tuned+context`` default, on the two development
sets: semeval2007 (trained on all of SemCor) and one in eight of fold 0's documents of
``document_folds(semcor, 3, seed=0)`` in sorted order (trained on folds 1-2), as
``benchmarks/sense_features.py --heldout --only-folds 0 --sample 8``; senseval2 and
senseval3 are reported, never used to choose.

``--features W ...`` (part a): for each weight W, ``AllWordsWSD(gloss_cosine_weight=W)``
trained and scored on both; only the classifiers of the keys the test set has are trained
(the others cannot change its answers; weight 0 reproduces today's figures).

Part b: two models of today's default are trained once and saved (``--train``): on all of SemCor
(scored on semeval2007; senseval2 and senseval3 reported, never used to choose) and on folds
1-2 of ``document_folds(semcor, 3, seed=0)`` (scored on one in eight of fold 0's documents,
in sorted order, as ``benchmarks/sense_features.py --heldout --only-folds 0 --sample 8``).
Each test instance's classifier totals (scores, sense prior, gloss overlap, one sense per
discourse: what today's decision takes) and ``GlossWithPrior``'s terms of each candidate are
computed once; the grid then reuses them:

- ``loglinear``: a classifier answers ``argmax_c total_c + w · G_c`` over its classes (the
  margin rule then on these sums), ``G_c`` GlossWithPrior's score of c (its log prior,
  10 · cosine and overlap terms) or ``cosine``: its 10 · cosine term alone (the prior and
  overlap being in the totals already);
- ``mixture``: ``(1 - a) · softmax(total / T) + a · softmax(G)`` over the classes
  (today's margin rule first);
- ``fallback``: an instance whose key has no classifier answers GlossWithPrior (its prior
  with the training counts) instead of the most frequent sense or WordNet's first sense;
  ``fallback-unseen``: only those whose key was never seen (WordNet's first sense today).

Each line: F1 over all instances, then the accuracy on the instances whose key has a
classifier and on the others. w = 0 / a = 0 is today's default.

    WSD_CACHE_DIR=... python benchmarks/gloss_classifiers.py --features 0 1 3 10
    WSD_CACHE_DIR=... python benchmarks/gloss_classifiers.py --train
    WSD_CACHE_DIR=... python benchmarks/gloss_classifiers.py

Needs the framework data, the NLTK data and the [context] extra; ``--models`` is the folder
of the two model files (default /tmp/wsd-gloss-classifiers).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from wsd.corpora.framework import load_dataset
from wsd.evaluation.scorer import score_framework
from wsd.experiments.heldout import document_folds
from wsd.instance import Instance
from wsd.knowledge.inventory import WordNetInventory
from wsd.systems.allwords import AllWordsWSD
from wsd.systems.allwords.context import sentence_of
from wsd.systems.allwords.instance_features import feature_set
from wsd.systems.allwords.keymodel import most_frequent
from wsd.systems.allwords.predict import (
    _classifier_rows,
    _total_scores,
    one_sense_per_discourse,
    softmax,
)
from wsd.systems.gloss_prior import GlossWithPrior

SETS = ("semeval2007", "senseval2", "senseval3")
LOGLINEAR = (0.0, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 8.0)
MIXTURE = (0.0, 0.1, 0.2, 0.3, 0.5)


def heldout_sample(semcor: Sequence[Instance]) -> tuple[list[Instance], list[Instance]]:
    """Folds 1-2 of SemCor and one in eight of fold 0's documents, in sorted order."""
    train, held = document_folds(semcor, 3, seed=0)[0]
    documents = set(sorted({sentence_of(inst)[0] for inst in held})[::8])
    return train, [inst for inst in held if sentence_of(inst)[0] in documents]


def totals(model: AllWordsWSD, test: Sequence[Instance]) -> dict[int, tuple[list[str], np.ndarray]]:
    """Position -> (classes, totals) of each instance a classifier answers: today's decision's
    sums before the margin rule."""
    found = {}
    for key, positions, rows, dense, extra in _classifier_rows(model, test):
        km = model.models_[key]
        group = [test[i] for i in positions]
        own = km.scores_many(rows, [dense.get(i) for i in positions],
                             [extra.get(i) for i in positions])
        scores = [_total_scores(model, km, key, inst, s)
                  for inst, s in zip(group, own, strict=True)]  # fmt: skip
        if model.discourse_weight:
            scores = one_sense_per_discourse(group, scores, model.discourse_weight)
        for i, total in zip(positions, scores, strict=True):
            found[i] = (list(km.classes), np.asarray(total, float))
    return found


def gloss_terms(gloss: GlossWithPrior, test: Sequence[Instance]) -> list[dict[str, np.ndarray]]:
    """Per instance: sense id -> (log prior, weight · cosine, overlap term)."""
    gloss.prepare(test)
    return [{sense.id: np.array(terms) for sense, *terms in gloss.sense_terms(inst)}
            for inst in test]


def f1(test: Sequence[Instance], answers: Sequence[str | None]) -> float:
    gold = {inst.id: inst.senses for inst in test}
    return 100 * score_framework(gold, dict(zip(gold, answers, strict=True)))["F1"]


def line(label: str, test: Sequence[Instance], answers: Sequence[str | None],
         classified: set[int]) -> None:  # fmt: skip
    parts = []
    for name, inside in (("classifier", True), ("none", False)):
        chosen = [i for i in range(len(test)) if (i in classified) == inside]
        right = sum(answers[i] is not None and answers[i] in test[i].senses for i in chosen)
        parts.append(f"{name} {100 * right / max(len(chosen), 1):5.1f} (n {len(chosen)})")
    print(f"{label:>34}  F1 {f1(test, answers):5.2f}  " + "  ".join(parts), flush=True)


def below_margin(model: AllWordsWSD, total: np.ndarray) -> bool:
    """Whether today's rule answers the most frequent sense: the best total wins by less than
    the margin."""
    best, runner_up = np.sort(total)[::-1][:2]
    return model.margin > 0 and best - runner_up < model.margin


def decide(model: AllWordsWSD, classes: list[str], total: np.ndarray, key: str) -> str:
    """Today's decision from totals: the classifier's best class, or below the margin the
    key's most frequent sense."""
    if below_margin(model, total):
        return most_frequent(model.sense_counts_[key])
    return classes[int(np.argmax(total))]


def gloss_scores(terms: dict[str, np.ndarray], classes: list[str], part: str) -> np.ndarray:
    """G_c of each class (``part``: "score", the sum of the terms, or "cosine"); a class
    GlossWithPrior does not list gets the lowest of the others."""
    values = {s: float(t.sum() if part == "score" else t[1]) for s, t in terms.items()}
    low = min(values.values(), default=0.0)
    return np.array([values.get(c, low) for c in classes])


def report(name: str, model: AllWordsWSD, gloss: GlossWithPrior,
           test: Sequence[Instance]) -> None:  # fmt: skip
    base = [d.sense for d in model.decide(test, tagged=True)]
    found = totals(model, test)
    terms = gloss_terms(gloss, test)
    classified = set(found)
    line(f"{name} today", test, base, classified)
    again = [decide(model, *found[i], test[i].key) for i in sorted(found)]
    assert again == [base[i] for i in sorted(found)], "today's decision not reproduced"
    for part in ("score", "cosine"):
        for w in LOGLINEAR[1:]:
            answers = list(base)
            for i, (classes, total) in found.items():
                answers[i] = decide(model, classes, total + w * gloss_scores(terms[i], classes,
                                                                             part), test[i].key)
            line(f"{name} loglinear {part} w={w:g}", test, answers, classified)
    for a in MIXTURE[1:]:
        answers = list(base)
        for i, (classes, total) in found.items():
            if not below_margin(model, total):
                mix = ((1 - a) * softmax(total / model.temperature)
                       + a * softmax(gloss_scores(terms[i], classes, "score")))
                answers[i] = classes[int(np.argmax(mix))]
        line(f"{name} mixture a={a:g}", test, answers, classified)
    for label, unseen_only in (("fallback", False), ("fallback-unseen", True)):
        answers = list(base)
        for i, inst in enumerate(test):
            if i in classified or not terms[i]:
                continue
            if unseen_only and inst.key in model.sense_counts_:
                continue
            scored = {s: float(t.sum()) for s, t in terms[i].items()}
            answers[i] = max(scored, key=lambda s, scored=scored: scored[s])
        line(f"{name} {label}", test, answers, classified)


def only_keys(keys: set[str]):
    """A stand-in for ``train_key`` that trains only ``keys`` (None for the others)."""
    from wsd.systems.allwords import keytraining

    train_key = keytraining.train_key

    def train(key, *args):
        return train_key(key, *args) if key in keys else (key, None)

    return train


def features_grid(weights: Sequence[float], settings) -> None:
    """Part a: train with each gloss-cosine weight and score on each (train, tests) setting."""
    from wsd.systems.allwords import keytraining

    original = keytraining.train_key
    for weight in weights:
        for train, tests in settings:
            keys = {inst.key for test in tests.values() for inst in test}
            keytraining.train_key = only_keys(keys)
            try:
                model = AllWordsWSD(features=feature_set("tuned+context"),
                                    gloss_cosine_weight=weight).fit(train, tagged=True)
            finally:
                keytraining.train_key = original
            for test_name, test in tests.items():
                answers = model.predict(test)
                line(f"{test_name} gloss features w={weight:g}", test, answers,
                     {i for i, inst in enumerate(test) if inst.key in model.models_})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--train", action="store_true", help="train and save the two models")
    parser.add_argument("--models", type=Path, default=Path("/tmp/wsd-gloss-classifiers"))
    parser.add_argument("--sets", nargs="+", default=["heldout", *SETS])
    parser.add_argument("--features", type=float, nargs="+", help="part a: these weights")
    args = parser.parse_args()
    tagger = AllWordsWSD(features=feature_set("tuned+context"))
    semcor = tagger.tagged(load_dataset("semcor"))
    train, held = heldout_sample(semcor)
    if args.features:
        tests = {name: tagger.tagged(load_dataset(name)) for name in args.sets
                 if name != "heldout"}  # fmt: skip
        settings = [(train, {"heldout": held})] if "heldout" in args.sets else []
        features_grid(args.features, [*settings, (semcor, tests)] if tests
                      else settings)  # fmt: skip
        return
    if args.train:
        args.models.mkdir(parents=True, exist_ok=True)
        AllWordsWSD(features=feature_set("tuned+context")).fit(train, tagged=True).save(
            args.models / "fold0.npz")
        AllWordsWSD(features=feature_set("tuned+context")).fit(semcor, tagged=True).save(
            args.models / "full.npz")
        return
    inventory = WordNetInventory()
    for name in args.sets:
        if name == "heldout":
            model = AllWordsWSD.load(args.models / "fold0.npz")
            gloss, test = GlossWithPrior(inventory).fit(train), held
        else:
            model = AllWordsWSD.load(args.models / "full.npz")
            gloss, test = GlossWithPrior(inventory).fit(semcor), tagger.tagged(load_dataset(name))
        report(name, model, gloss, test)


if __name__ == "__main__":
    main()
