"""Held-out documents: k folds of a corpus by document, and the F1 of many prediction-time
settings (prior, prior_count, gloss, discourse and backoff margin weights) of one trained
``AllWordsWSD``, from score parts computed once.

A setting's F1 here equals ``system.evaluate(instances)`` with that setting (tested): the
classifier's own scores and the gloss overlaps, the slow parts, are computed once per
instance; the combination, one sense per discourse and the margin backoff are array work.
This is how the all-words defaults are chosen on SemEval-2007 and on held-out SemCor documents
without retraining per setting (``benchmarks/allwords.py``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from wsd.instance import Instance
from wsd.systems.allwords.context import sentence_of
from wsd.systems.allwords.keymodel import most_frequent
from wsd.systems.allwords.predict import classifier_groups, log_prior

if TYPE_CHECKING:
    from wsd.systems.allwords.system import AllWordsWSD

PREDICTION_WEIGHTS = ("prior", "prior_count", "gloss_weight", "discourse_weight", "margin")


def document_folds(
    instances: Sequence[Instance], k: int, seed: int = 0
) -> list[tuple[list[Instance], list[Instance]]]:
    """``k`` (train, held-out) splits in which every document (``document`` in
    ``Instance.meta``) is held out exactly once: documents in a seeded random order, dealt
    round-robin to the folds. Instances keep their order within each part."""
    documents = sorted({sentence_of(inst)[0] for inst in instances})
    if "" in documents:
        raise ValueError("every instance needs a 'document' in its meta to be split by document")
    if not 2 <= k <= len(documents):
        raise ValueError(f"k must be between 2 and the number of documents "
                         f"({len(documents)}), got {k}")  # fmt: skip
    order = np.random.default_rng(seed).permutation(len(documents))
    fold_of = {documents[j]: position % k for position, j in enumerate(order)}
    folds = [fold_of[sentence_of(inst)[0]] for inst in instances]
    return [
        ([inst for inst, f in zip(instances, folds, strict=True) if f != fold],
         [inst for inst, f in zip(instances, folds, strict=True) if f == fold])
        for fold in range(k)
    ]  # fmt: skip


@dataclass(frozen=True)
class ScoreParts:
    """What every setting needs of a trained system's answers on a set of instances.

    Rows are the instances its classifiers answer, columns their key's classes (padded with
    -inf scores): ``scores`` (the classifier's own), ``log_prior``, ``gloss`` (overlaps),
    ``correct`` (the class is a gold sense), ``examples`` (the key's training examples),
    ``mfs_correct`` (the key's most frequent sense is gold) and ``group`` (one id per key and
    document, -1 without a document). The other instances are fixed: ``fixed_correct`` of
    ``fixed_answered`` right; ``total`` instances in all.
    """

    scores: np.ndarray
    log_prior: np.ndarray
    gloss: np.ndarray
    correct: np.ndarray
    examples: np.ndarray
    mfs_correct: np.ndarray
    group: np.ndarray
    fixed_correct: int
    fixed_answered: int
    total: int


def score_parts(system: AllWordsWSD, instances: Sequence[Instance], tagged: bool = False,
                gloss: bool = True) -> ScoreParts:  # fmt: skip
    """The ``ScoreParts`` of a fitted system on gold-annotated instances (``tagged`` as in
    ``AllWordsWSD.decide``); ``gloss=False`` leaves the overlaps at 0 (quicker, for settings
    without gloss weight)."""
    system._check_fitted()
    instances = list(instances) if tagged else system.tagged(instances)
    fixed_correct = fixed_answered = 0
    for inst in instances:
        if inst.key in system.models_:
            continue
        counts = system.sense_counts_.get(inst.key)
        if counts:
            answer = most_frequent(counts)
        else:
            answer = None if system.backoff == "none" else system.knowledge.first_sense(inst)
        fixed_answered += answer is not None
        fixed_correct += answer is not None and answer in inst.senses
    rows: list[tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, bool, str]] = []
    for key, positions, own in classifier_groups(system, instances):
        classes = system.models_[key].classes
        counts = system.sense_counts_[key]
        prior = log_prior(counts, classes)
        mfs = most_frequent(counts)
        for i, scores in zip(positions, own, strict=True):
            inst = instances[i]
            overlaps = system.knowledge.gloss_overlaps(inst, classes) if gloss \
                else np.zeros(len(classes))
            right = np.array([c in inst.senses for c in classes])
            document = sentence_of(inst)[0]
            rows.append((i, scores, prior, overlaps, right, sum(counts.values()),
                         mfs in inst.senses, f"{key}\t{document}" if document else ""))
    rows.sort(key=lambda row: row[0])
    width = max((len(row[1]) for row in rows), default=1)

    def padded(column: int, fill: float, dtype=float) -> np.ndarray:
        out = np.full((len(rows), width), fill, dtype=dtype)
        for r, row in enumerate(rows):
            out[r, : len(row[column])] = row[column]
        return out

    groups: dict[str, int] = {}
    group = np.array([groups.setdefault(row[7], len(groups)) if row[7] else -1 for row in rows],
                     dtype=np.int64)  # fmt: skip
    return ScoreParts(
        scores=padded(1, -np.inf), log_prior=padded(2, 0.0), gloss=padded(3, 0.0),
        correct=padded(4, False, bool), examples=np.array([row[5] for row in rows], dtype=float),
        mfs_correct=np.array([row[6] for row in rows], dtype=bool), group=group,
        fixed_correct=fixed_correct, fixed_answered=fixed_answered, total=len(instances),
    )  # fmt: skip


def _softmax(totals: np.ndarray) -> np.ndarray:
    exp = np.exp(totals - totals.max(axis=1, keepdims=True))
    return exp / exp.sum(axis=1, keepdims=True)


def setting_totals(parts: ScoreParts, setting: Mapping[str, float]
                   ) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """The total scores (classifier, prior, gloss, discourse) of the classifier rows with the
    prediction-time weights in ``setting`` (keys of ``PREDICTION_WEIGHTS``; missing ones count
    as 0), and which rows the classifier answers (the others fall back to their most frequent
    sense: the best beats the runner-up by less than the ``margin``)."""
    prior, prior_count, gloss, discourse, margin = (float(setting.get(name, 0.0))
                                                    for name in PREDICTION_WEIGHTS)  # fmt: skip
    totals = parts.scores.copy()
    if prior:
        weight = prior * (1.0 + prior_count / parts.examples)
        totals += weight[:, None] * parts.log_prior
    if gloss:
        totals += gloss * parts.gloss
    if discourse and len(totals):
        soft = _softmax(totals)
        in_document = parts.group >= 0
        n_groups = int(parts.group.max()) + 1
        sums = np.zeros((n_groups, totals.shape[1]))
        np.add.at(sums, parts.group[in_document], soft[in_document])
        sizes = np.bincount(parts.group[in_document], minlength=n_groups)
        shared = in_document & (sizes[np.maximum(parts.group, 0)] >= 2)
        members = parts.group[shared]
        others = (sums[members] - soft[shared]) / (sizes[members] - 1)[:, None]
        totals[shared] += discourse * others
    answered = np.ones(len(totals), dtype=bool)
    if margin and totals.shape[1] > 1:
        ordered = np.sort(totals, axis=1)
        answered = ordered[:, -1] - ordered[:, -2] >= margin
    return totals, answered


def setting_f1(parts: ScoreParts, setting: Mapping[str, float]) -> float:
    """F1 (framework scorer) of the system with the prediction-time weights in ``setting``
    (keys of ``PREDICTION_WEIGHTS``; missing ones count as 0)."""
    totals, answered = setting_totals(parts, setting)
    rows = np.arange(len(totals))
    right = np.where(answered, parts.correct[rows, np.argmax(totals, axis=1)], parts.mfs_correct)
    return _f1(parts.fixed_correct + int(right.sum()), parts.fixed_answered + len(totals),
               parts.total)


def classifier_answers(parts: ScoreParts, setting: Mapping[str, float]
                       ) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """The total scores and gold-class masks of the rows the classifier answers with
    ``setting``: what a temperature is fitted on and its calibration measured on
    (``wsd.evaluation.calibration``)."""
    totals, answered = setting_totals(parts, setting)
    return totals[answered], parts.correct[answered]


def _f1(correct: int, answered: int, total: int) -> float:
    """F1 of the framework scorer from its counts (P = correct / answered, R = correct / total)."""
    if not correct:
        return 0.0
    precision, recall = correct / answered, correct / total
    return 2 * precision * recall / (precision + recall)


def mfs_f1(parts: ScoreParts) -> float:
    """F1 when every key answers its most frequent training sense (the others as fixed): the
    MFS baseline of the same training data."""
    return _f1(parts.fixed_correct + int(parts.mfs_correct.sum()),
               parts.fixed_answered + len(parts.mfs_correct), parts.total)
