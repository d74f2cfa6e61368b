"""Gloss similarity fused with the all-words classifiers (issue 39, part b) against today's
``tuned+context`` decision, on the two development sets: semeval2007 (the model trained on all
of SemCor) and one in eight of fold 0's documents of ``document_folds(semcor, 3, seed=0)``,
in sorted order (trained on folds 1-2), as ``benchmarks/sense_features.py --heldout
--only-folds 0 --sample 8`` scores them; senseval2 and senseval3 are reported, never used to
choose. Both models are trained once with the fusion off and saved (``--train``); each test
instance's classifier totals (scores, sense prior, gloss overlap, one sense per discourse:
what the decision takes before the fusion) and ``GlossWithPrior``'s terms of each candidate
are computed once, and the grid reuses them:

- ``loglinear cosine w``: a classifier answers ``argmax_c total_c + w · G_c`` over its classes
  (the margin rule then on these sums), ``G_c`` = GlossWithPrior's cosine term (10 · cosine;
  ``AllWordsWSD(gloss_fusion=10 w)``); ``loglinear score w``: ``G_c`` its whole score (its
  WordNet prior and overlap too); ``mixture a``: ``(1 - a) · softmax(total / T) + a ·
  softmax(G)`` over the classes;
- ``+ gloss``: the instances whose key has no classifier answer GlossWithPrior's best sense
  (its prior: WordNet's counts plus the training counts); ``+ gloss-seen``: only those whose
  key was seen in training (never seen: WordNet's first sense, as today); ``+
  gloss-seen-trainprior``: likewise with the prior of the key's training counts alone,
  add-one over the lemma's WordNet senses (``gloss_backoff``): WordNet's counts come from
  SemCor, the held-out documents included.

Each line: F1 over all instances, then the accuracy on the instances whose key has a
classifier and on the others. "today" is the decision with both off.

With ``--calibration``, on the development sets only: the calibration of the classifier
answers (those over the margin) with the fusion off and with ``DEFAULT_GLOSS_FUSION``: their
expected calibration error (10 bins) and gold log likelihood at ``DEFAULT_TEMPERATURE``, at
``DEFAULT_CONTEXT_TEMPERATURE``, at ``DEFAULT_FUSION_TEMPERATURE`` and at the temperature
fitted there (``wsd.evaluation.calibration``), then the means of the temperatures fitted
without the fusion and with it (what chose ``DEFAULT_CONTEXT_TEMPERATURE`` and
``DEFAULT_FUSION_TEMPERATURE``).

With ``--sense-grid`` (issue 39, held-out SemCor +1.5): each instance's terms are computed once
and kept as ``terms-<set>.json`` in ``--models`` (``instance_terms``: the classifier's totals,
each class's gloss cosine and sense-vector cosine, every WordNet candidate's GlossWithPrior
terms and sense-vector cosine), then every cell is scored from them (``Grid``): the gloss
fusion's weight and a sense-vector term ``w_sense · cos(x, v_s)`` beside it (x the block's raw
vector, v_s the model's ``sense_vectors_``), the margin rule, the lemma's WordNet senses the
classifier lacks as candidates (their total the lowest class's minus ``extend``), the LMMS
concatenation ``cos([x̂; c], [v̂_s; ĝ_s])`` in place of the gloss term, and the gloss backoff
with a sense-vector term, and the gloss cosine's two parts (the target's and the sentence's)
weighted apart. With ``--combiner`` too, a conditional logit over the candidates
(``COMBINER`` features) is trained on out-of-fold data inside folds 1-2 (``--train-oof``: a
model on each half of folds 1-2, ``document_folds(folds 1-2, 2, seed=0)``, scoring one in
eight documents of the other half: the sets "oof0" and "oof1") and scored on the dev sets.

With ``--train --wordnet-examples`` (and/or ``--wordnet-glosses N``) the two models are trained
with WordNet's example sentences (``AllWordsWSD(wordnet_examples=True)``) and/or N copies of
each sense's gloss (``wordnet_glosses``) as training instances of the classifiers too
(docs/sense-vectors.md, "WordNet's sentences as training instances of the classifiers"); the
scoring is the same, with ``--models`` naming their folder. ``--seed S`` trains them at
another seed of the classifiers' shuffling (the seed check of a gain; docs/sense-vectors.md).

``--sets heldout-rest`` scores the fold-0 model on the other seven in eight of fold 0's
documents (70,112 instances), on which nothing was chosen: how far the sample's gain holds.

    WSD_CACHE_DIR=... python benchmarks/gloss_classifiers.py --train
    WSD_CACHE_DIR=... python benchmarks/gloss_classifiers.py
    WSD_CACHE_DIR=... python benchmarks/gloss_classifiers.py --train --wordnet-examples \
        --models DIR
    WSD_CACHE_DIR=... python benchmarks/gloss_classifiers.py --train --seed 1 --models DIR
    WSD_CACHE_DIR=... python benchmarks/gloss_classifiers.py --calibration
    WSD_CACHE_DIR=... python benchmarks/gloss_classifiers.py --train-oof
    WSD_CACHE_DIR=... python benchmarks/gloss_classifiers.py --sense-grid --combiner \
        --sets semeval2007 heldout

Needs the framework data, the NLTK data and the [context] extra; ``--models`` is the folder
of the two model files (default /tmp/wsd-gloss-classifiers).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

from wsd.corpora.framework import load_dataset
from wsd.evaluation.calibration import (
    expected_calibration_error,
    fit_temperature,
    gold_log_likelihood,
    softmax_with_temperature,
)
from wsd.evaluation.scorer import score_framework
from wsd.experiments.heldout import document_folds
from wsd.features.gloss_vectors import unit_rows
from wsd.instance import Instance
from wsd.knowledge.inventory import WordNetInventory, nltk_wordnet
from wsd.systems.allwords import AllWordsWSD, sense_features, system
from wsd.systems.allwords.context import sentence_of, wordnet_examples, wordnet_glosses
from wsd.systems.allwords.instance_features import feature_set
from wsd.systems.allwords.keymodel import most_frequent
from wsd.systems.allwords.predict import (
    _classifier_rows,
    key_totals,
    log_prior,
    softmax,
)
from wsd.systems.allwords.system import (
    DEFAULT_CONTEXT_TEMPERATURE,
    DEFAULT_FUSION_TEMPERATURE,
    DEFAULT_GLOSS_FUSION,
    DEFAULT_TEMPERATURE,
)
from wsd.systems.gloss_prior import GlossWithPrior

SETS = ("semeval2007", "senseval2", "senseval3")
LOGLINEAR = (0.0, 0.5, 1.0, 2.0, 3.0, 5.0, 8.0, 12.0, 20.0, 30.0)
MIXTURE = (0.0, 0.1, 0.2, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9)


def heldout_sample(semcor: Sequence[Instance], k: int = 3, fold: int = 0, rest: bool = False
                   ) -> tuple[list[Instance], list[Instance]]:  # fmt: skip
    """Folds 1-2 of SemCor and one in eight of fold 0's documents, in sorted order (``k``
    and ``fold``: another split by document, the same sample of it; ``rest``: the fold's
    other seven in eight documents instead)."""
    train, held = document_folds(semcor, k, seed=0)[fold]
    documents = set(sorted({sentence_of(inst)[0] for inst in held})[::8])
    return train, [inst for inst in held if (sentence_of(inst)[0] in documents) != rest]


def totals(model: AllWordsWSD, test: Sequence[Instance]) -> dict[int, tuple[list[str], np.ndarray]]:
    """Position -> (classes, totals) of each instance a classifier answers: the decision's
    sums before the gloss fusion and the margin rule."""
    found = {}
    for key, positions, rows, dense, extra in _classifier_rows(model, test):
        km = model.models_[key]
        own = km.scores_many(rows, [dense.get(i) for i in positions],
                             [extra.get(i) for i in positions])
        _, scores = key_totals(model, km, key, [test[i] for i in positions], own)
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


FALLBACKS = ("gloss", "gloss-seen", "gloss-seen-trainprior")


def fallback(model: AllWordsWSD, test: Sequence[Instance], terms: list[dict[str, np.ndarray]],
             base: list[str | None], kind: str) -> list[str | None]:
    """``base`` with the instances no classifier answers answered by GlossWithPrior's best
    sense: "gloss" all of them; "gloss-seen" those whose key was seen in training (the others
    keep WordNet's first sense); "gloss-seen-trainprior" likewise with the prior of the
    training counts alone (add-one), not WordNet's counts (which come from SemCor, held-out
    documents included)."""
    answers = list(base)
    for i, inst in enumerate(test):
        if inst.key in model.models_ or not terms[i]:
            continue
        counts = model.sense_counts_.get(inst.key)
        if kind != "gloss" and not counts:
            continue
        senses = list(terms[i])
        scores = np.array([terms[i][s].sum() for s in senses])
        if kind == "gloss-seen-trainprior":
            scores = scores - np.array([terms[i][s][0] for s in senses]) + log_prior(counts,
                                                                                    senses)
        answers[i] = senses[int(np.argmax(scores))]
    return answers


def report(name: str, model: AllWordsWSD, gloss: GlossWithPrior,
           test: Sequence[Instance]) -> None:  # fmt: skip
    base = [d.sense for d in model.decide(test, tagged=True)]
    found = totals(model, test)
    terms = gloss_terms(gloss, test)
    classified = set(found)
    again = [decide(model, *found[i], test[i].key) for i in sorted(found)]
    assert again == [base[i] for i in sorted(found)], "today's decision not reproduced"
    fused: dict[str, list[str | None]] = {"today": base}
    for part in ("cosine", "score"):
        for w in LOGLINEAR[1:]:
            answers = list(base)
            for i, (classes, total) in found.items():
                answers[i] = decide(model, classes, total + w * gloss_scores(terms[i], classes,
                                                                             part), test[i].key)
            fused[f"loglinear {part} w={w:g}"] = answers
    for a in MIXTURE[1:]:
        answers = list(base)
        for i, (classes, total) in found.items():
            if not below_margin(model, total):
                mix = ((1 - a) * softmax(total / model.score_temperature)
                       + a * softmax(gloss_scores(terms[i], classes, "score")))
                answers[i] = classes[int(np.argmax(mix))]
        fused[f"mixture a={a:g}"] = answers
    for label, answers in fused.items():
        line(f"{name} {label}", test, answers, classified)
    for kind in FALLBACKS:
        for fusion in fused:
            if fusion == "today" or fusion.startswith("loglinear cosine"):
                line(f"{name} {fusion} + {kind}", test,
                     fallback(model, test, terms, fused[fusion], kind), classified)


def answered_totals(model: AllWordsWSD, test: Sequence[Instance],
                    found: dict[int, tuple[list[str], np.ndarray]],
                    terms: list[dict[str, np.ndarray]], w: float
                    ) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """The totals (``w`` times the cosine term added; padded with -inf) and gold-class masks
    of the instances the classifier answers: those over the margin."""
    rows = []
    for i, (classes, total) in sorted(found.items()):
        fused = total + w * gloss_scores(terms[i], classes, "cosine")
        if not below_margin(model, fused):
            rows.append((fused, [c in test[i].senses for c in classes]))
    width = max(len(total) for total, _ in rows)
    scores = np.full((len(rows), width), -np.inf)
    gold = np.zeros((len(rows), width), bool)
    for j, (total, right) in enumerate(rows):
        scores[j, :len(total)], gold[j, :len(right)] = total, right
    return scores, gold


def calibration(name: str, model: AllWordsWSD, gloss: GlossWithPrior,
                test: Sequence[Instance]) -> list[float]:  # fmt: skip
    """Print the calibration of the classifier answers without and with the fusion; return
    the temperatures fitted without it and with it."""
    found, terms = totals(model, test), gloss_terms(gloss, test)
    temperatures = []
    for fusion in (0.0, DEFAULT_GLOSS_FUSION):
        scores, gold = answered_totals(model, test, found, terms, fusion / gloss.weight)
        right = gold[np.arange(len(gold)), scores.argmax(axis=1)]
        fitted = fit_temperature(scores, gold)
        cells = []
        temperatures.append(fitted)
        for temperature in (DEFAULT_TEMPERATURE, DEFAULT_CONTEXT_TEMPERATURE,
                            DEFAULT_FUSION_TEMPERATURE, fitted):
            confidence = softmax_with_temperature(scores, temperature).max(axis=1)
            cells.append(f"T={temperature:.2f}: ECE "
                         f"{expected_calibration_error(confidence, right):.3f} LL "
                         f"{gold_log_likelihood(scores, gold, temperature):.3f}")
        print(f"{name:>12} fusion {fusion:5g}  answers {len(scores):5d}  accuracy "
              f"{100 * right.mean():5.1f}  " + "  ".join(cells) + " (fitted)", flush=True)
    return temperatures


# ---- sense vectors beside the gloss fusion (--sense-grid) ---------------------------------

def instance_terms(model: AllWordsWSD, gloss: GlossWithPrior, test: Sequence[Instance]
                   ) -> list[dict]:  # fmt: skip
    """Per instance, what every cell of the sense grid needs (JSON-able): the gold senses, the
    key's training counts, WordNet's first sense, the classifier's classes and totals (None
    without one) and each class's gloss cosine and sense-vector cosine, and every WordNet
    candidate's GlossWithPrior terms with its sense-vector cosine; ``cnorm``: the length of
    GlossWithPrior's context vector (for the LMMS concatenation)."""
    found, terms = totals(model, test), gloss_terms(gloss, test)
    table = model.sense_vectors_
    table.wordnet = table.wordnet or nltk_wordnet()
    raw = model.context_.vectors(list(test))
    records = []
    for i, inst in enumerate(test):
        candidates = gloss.candidate_senses(inst)
        scos = table.cosines(raw[i], [s.synset for s in candidates])
        record = {"gold": list(inst.senses), "counts": model.sense_counts_.get(inst.key),
                  "first": model.knowledge.first_sense(inst),
                  "cands": [[s.id, *map(float, terms[i][s.id]), float(v)]
                            for s, v in zip(candidates, scos, strict=True)],
                  "classes": None}
        if candidates:
            context = ((1 - gloss.mix) * gloss._targets[(inst.tokens, inst.span)]
                       + gloss.mix * gloss._sentences[inst.tokens])
            record["cnorm"] = float(np.linalg.norm(context))
        if i in found:
            classes, total = found[i]
            record.update(classes=classes, total=total.tolist(),
                          gcos=(gloss_scores(terms[i], classes, "cosine") / gloss.weight).tolist(),
                          scos=sense_features.cosines(table, raw[i], classes).tolist(),
                          parts=gloss_parts(gloss, inst, candidates, classes))
        records.append(record)
    return records


def gloss_parts(gloss: GlossWithPrior, inst: Instance, candidates: Sequence,
                classes: Sequence[str]) -> list[list[float]]:  # fmt: skip
    """Per class, the gloss vector's cosine with the unit target vector and with the unit
    sentence vector (GlossWithPrior's cosine is ``1 - mix`` times the first plus ``mix``
    times the second); a class that is not a candidate gets the lowest of each."""
    if not candidates:
        return [[0.0, 0.0] for _ in classes]
    glosses = gloss._glosses.vectors(s.synset for s in candidates)
    units = unit_rows(np.stack([glosses[s.synset] for s in candidates]))
    both = units @ np.stack([gloss._targets[(inst.tokens, inst.span)],
                             gloss._sentences[inst.tokens]]).T
    of = {s.id: row.tolist() for s, row in zip(candidates, both, strict=True)}
    low = both.min(axis=0).tolist()
    return [of.get(c, low) for c in classes]


class Grid:
    """The padded arrays of the instances a classifier answers, extended with the lemma's
    WordNet senses the classifier lacks (``extra``), for vectorised cells."""

    def __init__(self, records: list[dict], margin_mfs: Sequence[str]) -> None:
        rows = [r for r in records if r["classes"] is not None]
        width = max(len(set(r["classes"]) | {c[0] for c in r["cands"]}) for r in rows)
        shape = (len(rows), width)
        self.total, self.gcos, self.scos = (np.zeros(shape) for _ in range(3))
        self.lmms, self.prior = np.zeros(shape), np.zeros(shape)
        self.target, self.sentence = np.zeros(shape), np.zeros(shape)  # the gloss cosine's parts
        self.valid, self.extra, self.gold, self.mfs = (np.zeros(shape, bool) for _ in range(4))
        self.mfs_right = np.array([m in r["gold"] for m, r in zip(margin_mfs, rows, strict=True)])
        for j, r in enumerate(rows):
            k = len(r["classes"])
            cands = {c[0]: c for c in r["cands"] if c[0] not in r["classes"]}
            names = r["classes"] + list(cands)
            self.valid[j, :len(names)] = True
            self.extra[j, k:len(names)] = True
            self.total[j, :k] = r["total"]
            self.total[j, k:len(names)] = min(r["total"])
            self.gcos[j, :k] = r["gcos"]
            self.gcos[j, k:len(names)] = [c[2] / 10 for c in cands.values()]
            self.scos[j, :k] = r["scos"]
            self.scos[j, k:len(names)] = [c[4] for c in cands.values()]
            self.gold[j, :len(names)] = [n in r["gold"] for n in names]
            self.mfs[j, :len(names)] = [n == margin_mfs[j] for n in names]
            self.prior[j, :len(names)] = log_prior(r["counts"], names)
            self.lmms[j] = (self.gcos[j] + self.scos[j]) / np.sqrt(2 * (1 + r.get("cnorm", 1) ** 2))
            self.target[j, :k], self.sentence[j, :k] = np.array(r["parts"]).T

    def right(self, w_gloss: float, w_sense: float, margin: float, extend: float | None,
              w_lmms: float = 0.0, split: tuple[float, float] = (0.0, 0.0)) -> int:
        """How many are right with these weights, margin rule and (``extend``: the extra
        senses' total below the lowest class's; None: classes only); ``split``: weights of
        the gloss cosine's two parts, the target's and the sentence's (classes only)."""
        keep = self.valid & ~self.extra if extend is None else self.valid
        fused = self.total - (extend or 0.0) * self.extra + w_gloss * self.gcos + w_sense * \
            self.scos + w_lmms * self.lmms + split[0] * self.target + split[1] * self.sentence
        fused = np.where(keep, fused, -np.inf)
        order = np.argsort(-fused, axis=1, kind="stable")
        rows = np.arange(len(fused))
        best, second = fused[rows, order[:, 0]], fused[rows, order[:, 1]]
        under = (best - second < margin) if margin > 0 else np.zeros(len(fused), bool)
        return int(np.where(under, self.mfs_right, self.gold[rows, order[:, 0]]).sum())


    def features(self, extend: bool) -> tuple[np.ndarray, np.ndarray]:
        """Per candidate, the combiner's features (``COMBINER``; candidates outside the
        classes only with ``extend``), and the mask of the candidates."""
        keep = self.valid if extend else self.valid & ~self.extra
        return np.stack([self.total, self.gcos, self.scos, self.prior, self.mfs, self.extra],
                        axis=2), keep


COMBINER = ("total", "gloss cosine", "sense cosine", "log prior", "is MFS", "outside classes")


def fit_combiner(grids: Sequence[Grid], extend: bool, l2: float = 1e-3) -> np.ndarray:
    """The weights of a conditional logit over each instance's candidates (the gold ones'
    probability maximised), on ``grids`` (out-of-fold data); instances whose gold sense is no
    candidate are left out."""
    from scipy.optimize import minimize  # benchmark only

    parts = [g.features(extend) for g in grids]
    x = np.concatenate([f for f, _ in parts])
    keep = np.concatenate([k for _, k in parts])
    gold = np.concatenate([g.gold for g in grids]) & keep
    has = gold.any(axis=1)
    x, keep, gold = x[has], keep[has], gold[has]
    scale = np.abs(np.where(keep[..., None], x, 0)).max(axis=(0, 1)) + 1e-12
    x = x / scale

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        z = np.where(keep, x @ w, -np.inf)
        top = z.max(axis=1, keepdims=True)
        p = np.where(keep, np.exp(z - top), 0.0)
        all_, good = p.sum(axis=1), np.where(gold, p, 0).sum(axis=1)
        value = -np.sum(np.log(good) - np.log(all_)) / len(x) + l2 * w @ w
        grad = (np.einsum("nk,nkd->d", p / all_[:, None], x)
                - np.einsum("nk,nkd->d", np.where(gold, p, 0) / good[:, None], x)) / len(x)
        return value, grad + 2 * l2 * w

    w = minimize(loss, np.zeros(x.shape[2]), jac=True, method="L-BFGS-B").x
    return w / scale


def combiner_right(grid: Grid, w: np.ndarray, extend: bool) -> int:
    """How many of the grid's instances the combiner ``w`` answers right."""
    x, keep = grid.features(extend)
    z = np.where(keep, x @ w, -np.inf)
    return int(grid.gold[np.arange(len(z)), z.argmax(axis=1)].sum())


def backoff_answer(record: dict, w_sense: float, prior: str) -> str | None:
    """The answer of an instance without a classifier: "today" (MFS, else the first sense),
    or the gloss backoff (keys seen; ``prior``: "train" the training counts' add-one prior)
    plus ``w_sense`` times the sense-vector cosine."""
    counts = record["counts"]
    if prior == "today" or not counts or not record["cands"]:
        return most_frequent(counts) if counts else record["first"]
    names = [c[0] for c in record["cands"]]
    scores = (log_prior(counts, names) + np.array([c[2] + c[3] + w_sense * c[4]
                                                   for c in record["cands"]]))
    return names[int(np.argmax(scores))]


def sense_grid(name: str, records: list[dict], margin: float,
               combiners: dict[str, tuple[np.ndarray, bool]]) -> None:  # fmt: skip
    """Print the cells of the sense grid on one set (see ``instance_terms``), then those of
    the ``combiners`` (label -> weights, extended)."""
    classified = [r for r in records if r["classes"] is not None]
    mfs = [most_frequent(r["counts"]) for r in classified]
    grid = Grid(records, mfs)
    n, n_cls = len(records), len(classified)
    others = [r for r in records if r["classes"] is None]

    def f1(right: int, answered: int) -> float:
        p, r = right / max(answered, 1), right / n
        return 100 * 2 * p * r / max(p + r, 1e-12)

    backoffs = {}
    for label, w, prior in (("today", 0, "today"), ("gloss", 0, "train"),
                            *((f"gloss+sense {w:g}", w, "train") for w in (1, 2, 3, 5, 10, 20))):
        answers = [backoff_answer(r, w, prior) for r in others]
        backoffs[label] = (sum(a is not None and a in r["gold"] for a, r in zip(answers, others,
                                                                                  strict=True)),
                           sum(a is not None for a in answers))
    print(f"== {name}: {n} instances, {n_cls} with a classifier", flush=True)
    for label, (right, _) in backoffs.items():
        print(f"{name} backoff {label:>16}: none {100 * right / max(len(others), 1):5.1f}")
    today = grid.right(0, 0, margin, None)
    print(f"{name} today: F1 {f1(today + backoffs['today'][0], n_cls + backoffs['today'][1]):6.2f}"
          f" classifier {100 * today / n_cls:5.1f}")
    base_right, base_answered = backoffs["gloss"]
    cells = []
    for extend in (None, 0.0, 2.0, 5.0, 10.0):
        for m in (0.0, 0.25, 0.5, 1.0, 2.0, 3.0):
            for wg in (0, 100, 150, 200, 250, 300):
                for ws in (0, 10, 25, 50, 100, 150, 200, 300, 400):
                    right = grid.right(wg, ws, m, extend)
                    cells.append((f"extend {extend} margin {m:g} gloss {wg:g} sense {ws:g}",
                                  right))
    for m in (0.0, 0.5, 1.0):
        for wl in (100, 200, 300, 400, 600):
            cells.append((f"lmms margin {m:g} w {wl:g}", grid.right(0, 0, m, None, wl)))
    for wt in (0, 70, 100, 140, 200, 280):  # the default is 140 / 60 (0.7 / 0.3 of 200)
        for wsent in (0, 30, 60, 100, 150, 200, 300):
            cells.append((f"split target {wt:g} sentence {wsent:g}",
                          grid.right(0, 0, margin, None, split=(wt, wsent))))
    for label, (w, extend) in combiners.items():
        cells.append((f"combiner {label}", combiner_right(grid, w, extend)))
    for label, right in cells:
        print(f"{name} {label}: F1 {f1(right + base_right, n_cls + base_answered):6.2f} "
              f"classifier {100 * right / n_cls:5.1f}", flush=True)


def place(name: str, models: Path, semcor: list[Instance], tagger: AllWordsWSD,
          inventory: WordNetInventory) -> tuple[AllWordsWSD, GlossWithPrior, list[Instance]]:
    """The model, GlossWithPrior (its counts from the model's training data) and tagged test
    instances of ``name``: "heldout", "heldout-rest" (the other seven in eight of fold 0's
    documents, which no setting was chosen on; the same model), "oof0" / "oof1" (one in eight
    documents of each half of folds 1-2, ``document_folds(folds 1-2, 2, seed=0)``, the model
    trained on the other half: out-of-fold data inside held-out SemCor's training folds) or a
    test set."""
    train, held = split(name, semcor)
    model = AllWordsWSD.load(models / MODEL_FILES.get(name, "full.npz"))  # saved with both off
    return model, GlossWithPrior(inventory).fit(train), tagger.tagged(held)


def split(name: str, semcor: list[Instance]) -> tuple[list[Instance], list[Instance]]:
    """The training part of ``name``'s model and its scored instances (see ``place``)."""
    train, held = heldout_sample(semcor, rest=name == "heldout-rest")  # rest: nothing chosen on
    if name.startswith("oof"):
        return heldout_sample(train, 2, int(name[3:]))
    return (train, held) if name.startswith("heldout") else (semcor, load_dataset(name))


def wordnet_instances(examples: bool, glosses: int):
    """``wordnet_examples``' stand-in for training: WordNet's example sentences (``examples``)
    and ``glosses`` copies of each sense's gloss instance (``wordnet_glosses``)."""

    def instances(lemma: str, pos: str, inventory: WordNetInventory) -> list[Instance]:
        found = wordnet_examples(lemma, pos, inventory) if examples else []
        return found + [replace(inst, id=f"{inst.id}:{copy}") for copy in range(glosses)
                        for inst in wordnet_glosses(lemma, pos, inventory)]

    return instances


MODEL_FILES = {"heldout": "fold0.npz", "heldout-rest": "fold0.npz", "oof0": "oof0.npz",
               "oof1": "oof1.npz"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--train", action="store_true", help="train and save the two models")
    parser.add_argument("--train-oof", action="store_true",
                        help="train and save the two out-of-fold models inside folds 1-2")
    parser.add_argument("--wordnet-examples", action="store_true",
                        help="with --train: WordNet's example sentences as training instances "
                             "too (AllWordsWSD(wordnet_examples=True))")
    parser.add_argument("--wordnet-glosses", type=int, default=0, metavar="N",
                        help="with --train: each sense's gloss (``wordnet_glosses``) N times "
                             "as training instances too")
    parser.add_argument("--seed", type=int, default=0,
                        help="with --train / --train-oof: the classifiers' seed (another seed "
                             "checks that a gain is not the shuffling's)")
    parser.add_argument("--block-weight", type=float, default=None,
                        help="with --train / --train-oof: the contextual block's weight "
                             "(default: the preset's)")
    parser.add_argument("--epochs", type=int, default=AllWordsWSD().epochs,
                        help="with --train / --train-oof: the classifiers' epochs")
    parser.add_argument("--models", type=Path, default=Path("/tmp/wsd-gloss-classifiers"))
    parser.add_argument("--sets", nargs="+", default=None,
                        help="default: all four; with --calibration, the development sets")
    parser.add_argument("--sense-grid", action="store_true",
                        help="sense vectors beside the gloss fusion: the grid (terms cached "
                             "as terms-<set>.json in --models)")
    parser.add_argument("--combiner", action="store_true",
                        help="with --sense-grid: a conditional logit over the candidates, "
                             "trained on the out-of-fold sets oof0 and oof1")
    parser.add_argument("--calibration", action="store_true",
                        help="the calibration of the classifier answers with the fusion")
    args = parser.parse_args()
    if args.sets is None:
        args.sets = ["heldout", "semeval2007"] if args.calibration else ["heldout", *SETS]
    tagger = AllWordsWSD(features=feature_set("tuned+context"))
    semcor = load_dataset("semcor")
    if args.train or args.train_oof:
        semcor = tagger.tagged(semcor)
        args.models.mkdir(parents=True, exist_ok=True)
        train, _ = heldout_sample(semcor)
        jobs = {"fold0.npz": train, "full.npz": semcor} if args.train else {
            f"oof{k}.npz": heldout_sample(train, 2, k)[0] for k in (0, 1)}
        if args.wordnet_glosses:  # the examples' hook also brings the glosses
            system.wordnet_examples = wordnet_instances(args.wordnet_examples,
                                                        args.wordnet_glosses)
        features = feature_set("tuned+context")
        if args.block_weight is not None:
            features[-1]["params"]["weight"] = args.block_weight
        for path, data in jobs.items():
            AllWordsWSD(features=features, gloss_fusion=0.0,
                        gloss_backoff=False,
                        wordnet_examples=args.wordnet_examples or args.wordnet_glosses > 0,
                        seed=args.seed, epochs=args.epochs, verbose=True,
                        ).fit(data, tagged=True).save(args.models / path)
        return
    inventory = WordNetInventory()
    fitted = []

    def records(name: str) -> list[dict]:
        path = args.models / f"terms-{name}.json"
        if not path.exists():
            path.write_text(json.dumps(instance_terms(*place(name, args.models, semcor, tagger,
                                                             inventory))))
        return json.loads(path.read_text())

    combiners = {}
    if args.combiner:
        oof = [records(f"oof{k}") for k in (0, 1)]
        grids = [Grid(r, [most_frequent(x["counts"]) for x in r if x["classes"] is not None])
                 for r in oof]
        for extend in (False, True):
            w = fit_combiner(grids, extend)
            label = f"{'extended' if extend else 'classes'}"
            combiners[label] = (w, extend)
            print(f"combiner {label}: " + ", ".join(f"{n} {v:.3g}" for n, v in zip(
                COMBINER, w, strict=True)), flush=True)
    for name in args.sets:
        if args.sense_grid:
            sense_grid(name, records(name), AllWordsWSD().margin, combiners)
            continue
        model, gloss, test = place(name, args.models, semcor, tagger, inventory)
        if args.calibration:
            fitted.append(calibration(name, model, gloss, test))
        else:
            report(name, model, gloss, test)
    if fitted:
        without, with_fusion = np.mean(fitted, axis=0)
        print(f"mean fitted temperature without the fusion: {without:.2f}, with it: "
              f"{with_fusion:.2f}")


if __name__ == "__main__":
    main()
