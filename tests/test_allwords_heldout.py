"""Held-out documents and the batched F1 of prediction-time settings (``wsd.experiments.heldout``),
checked against ``AllWordsWSD.evaluate``, the per-instance path; and the training options."""

import itertools

import numpy as np
import pytest

from wsd.corpora.framework import load_dataset
from wsd.experiments.heldout import (
    classifier_answers,
    document_folds,
    mfs_f1,
    score_parts,
    setting_f1,
)
from wsd.instance import Instance
from wsd.resources import has_framework, has_nltk_resource
from wsd.systems.allwords import AllWordsWSD
from wsd.systems.allwords.context import sentence_of
from wsd.systems.allwords.predict import prior_weight
from wsd.systems.baselines import MostFrequentSense

# No NLTK data needed: corpus tags, the IMS preset, one perceptron, no WordNet backoff.
QUICK = {"features": "ims", "pos_tags": "corpus", "n_models": 1, "backoff": "none",
         "gloss_weight": 0.0, "prior": 0.0, "discourse_weight": 0.0, "margin": 0.0,
         "train_margin": 0.0}
SENSES = ("s%1:00:00::", "s%1:00:01::", "s%1:00:02::")


def _noisy_corpus(n_documents=8, per_document=12, seed=0):
    """Three-sense words whose cue words point to the sense only 60% of the time, in
    documents that mostly keep one sense per word: a classifier that is right often but not
    always, so that prior, discourse and margin change answers."""
    rng = np.random.default_rng(seed)
    found = []
    for d in range(n_documents):
        for lemma in ("alpha", "beta"):
            usual = int(rng.integers(3))
            for s in range(per_document):
                gold = usual if rng.random() < 0.7 else int(rng.integers(3))
                cue = gold if rng.random() < 0.6 else int(rng.integers(3))
                tokens = (f"cue{cue}", f"noise{int(rng.integers(5))}", lemma, "end")
                found.append(Instance(
                    id=f"d{d}.{lemma}.{s}", tokens=tokens, span=(2, 3), lemma=lemma,
                    target_pos="NOUN", senses=(SENSES[gold].replace("s%", f"{lemma}%"),),
                    meta=(("document", f"d{d}"), ("sentence", f"d{d}.{lemma}.{s}"))))
    return found


def test_document_folds_hold_out_every_document_once_and_are_seeded():
    instances = _noisy_corpus()
    folds = document_folds(instances, 3, seed=1)
    held = [{sentence_of(inst)[0] for inst in test} for _, test in folds]
    assert sorted(d for docs in held for d in docs) == sorted(f"d{d}" for d in range(8))
    for (train, test), documents in zip(folds, held, strict=True):
        assert len(train) + len(test) == len(instances)
        assert not documents & {sentence_of(inst)[0] for inst in train}
    assert [len(docs) for docs in held] == [3, 3, 2]  # dealt round-robin
    assert document_folds(instances, 3, seed=1) == folds
    assert [t for _, t in document_folds(instances, 3, seed=2)] != [t for _, t in folds]
    with pytest.raises(ValueError, match="between 2 and the number of documents"):
        document_folds(instances, 9)
    with pytest.raises(ValueError, match="document"):
        document_folds([Instance(id="x", tokens=("a",), span=(0, 1), lemma="a")], 2)


SETTINGS = [dict(zip(("prior", "prior_count", "discourse_weight", "margin"), values,
                     strict=True))
            for values in itertools.product((0.0, 1.0), (0.0, 20.0), (0.0, 2.0), (0.0, 0.5))]


def test_setting_f1_equals_evaluate_for_every_setting():
    train, test = document_folds(_noisy_corpus(), 2, seed=0)[0]
    system = AllWordsWSD(**QUICK, epochs=3).fit(train)
    parts = score_parts(system, test, gloss=False)
    f1 = []
    for setting in SETTINGS:
        for name, value in setting.items():
            setattr(system, name, value)
        f1.append(setting_f1(parts, setting))
        assert f1[-1] == pytest.approx(system.evaluate(test)["F1"], abs=1e-12), setting
    assert len(set(f1)) >= 3  # the settings do change the answers
    counts = MostFrequentSense(fallback="none").fit(train)
    gold = {inst.id: inst.senses for inst in test}
    right = sum(a in gold[inst.id] for inst, a in zip(test, counts.predict(test), strict=True))
    assert mfs_f1(parts) == pytest.approx(right / len(test))


@pytest.mark.skipif(not (has_framework() and has_nltk_resource("wordnet")),
                    reason="WSD framework data (../shared/data/wsd_framework) or NLTK WordNet "
                           "absent")
def test_setting_f1_equals_evaluate_with_gloss_overlaps_on_semeval2007():
    train, test = document_folds(load_dataset("semeval2007"), 3, seed=0)[0]
    system = AllWordsWSD(pos_tags="corpus", n_models=1, epochs=3, features="ims").fit(train)
    parts = score_parts(system, test)
    for gloss, prior, discourse, margin in ((0.0, 0.5, 3.0, 0.0), (1.0, 0.5, 3.0, 0.0),
                                            (2.0, 1.0, 0.0, 0.3), (1.0, 0.0, 1.0, 1.0)):
        setting = {"gloss_weight": gloss, "prior": prior, "discourse_weight": discourse,
                   "margin": margin, "prior_count": 5.0}
        for name, value in setting.items():
            setattr(system, name, value)
        assert setting_f1(parts, setting) == pytest.approx(system.evaluate(test)["F1"],
                                                           abs=1e-12)


def test_classifier_answers_are_the_totals_behind_each_reported_score():
    """What a temperature is fitted on must be what ``decide`` turns into scores: the rows
    the classifier answers (not the margin's MFS fallbacks), their totals and gold masks."""
    from wsd.evaluation.calibration import fit_temperature, softmax_with_temperature

    train, test = document_folds(_noisy_corpus(), 2, seed=0)[0]
    setting = {"prior": 1.0, "prior_count": 20.0, "discourse_weight": 2.0, "margin": 0.5}
    system = AllWordsWSD(**{**QUICK, **setting}, epochs=3).fit(train)
    totals, gold = classifier_answers(score_parts(system, test, gloss=False), setting)
    system.temperature = fit_temperature(totals, gold)
    decisions = [d for d in system.decide(test) if d.source == "classifier"]
    assert 0 < len(decisions) == len(totals) < len(test)  # some rows fell back to the MFS
    shares = softmax_with_temperature(totals, system.temperature).max(axis=1)
    assert [d.score for d in decisions] == pytest.approx(shares.tolist(), abs=1e-9)
    right = [inst.senses[0] == d.sense for inst, d in zip(test, system.decide(test), strict=True)
             if d.source == "classifier"]  # fmt: skip
    assert right == gold[np.arange(len(gold)), totals.argmax(axis=1)].tolist()


def test_prior_count_weighs_the_prior_more_for_keys_with_few_examples():
    assert prior_weight(0.5, 0.0, {"a": 3, "b": 1}) == 0.5
    assert prior_weight(0.5, 8.0, {"a": 3, "b": 1}) == 0.5 * 3  # n = 4
    assert prior_weight(0.5, 8.0, {"a": 300, "b": 100}) == pytest.approx(0.51)
    train, test = document_folds(_noisy_corpus(), 2, seed=0)[0]
    system = AllWordsWSD(**{**QUICK, "prior": 0.1}, epochs=3).fit(train)
    mfs = MostFrequentSense(fallback="none").fit(train).predict(test)
    plain = system.predict(test)
    system.prior_count = 1e6  # every key: the prior dominates, the answer is its MFS
    assert system.predict(test) == mfs != plain


@pytest.mark.skipif(not has_nltk_resource("wordnet"), reason="NLTK wordnet data absent "
                    "(the ims features' lemmas and stopwords need it to reach the bar)")
def test_training_options_pa_margin_and_linear_svc():
    train, test = document_folds(_noisy_corpus(), 2, seed=0)[0]
    weights = {}
    for options in ({}, {"update": "pa"}, {"train_margin": 5.0},
                    {"learner": "linear_svc", "C": 0.5}):
        system = AllWordsWSD(**{**QUICK, **options}, epochs=3).fit(train)
        assert system.score(test) > 0.4
        weights[str(options)] = system.models_["alpha#NOUN"].coef
    assert len({w.tobytes() for w in weights.values()}) == 4
    for bad, match in (({"learner": "svm"}, "learner"), ({"update": "hinge"}, "update"),
                       ({"train_margin": -1.0}, "margin"), ({"C": 0.0}, "C"),
                       ({"prior_count": -1.0}, "prior_count")):
        with pytest.raises(ValueError, match=match):
            AllWordsWSD(**{**QUICK, **bad}).fit(train)


def test_two_class_linear_svc_keeps_its_decision_function():
    from sklearn.svm import LinearSVC

    from wsd.learners.engine import task_seed
    from wsd.systems.allwords.keytraining import fit_linear_svc

    X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.0, 0.0]])
    y = ["a", "b", "a", "b"]
    classes, coef, intercept = fit_linear_svc(X, y, "k", {"C": 1.0, "seed": 0})
    svc = LinearSVC(C=1.0, random_state=task_seed(0, "k")).fit(X, y)
    scores = X @ coef + intercept
    assert classes == ["a", "b"]
    np.testing.assert_allclose(scores[:, 1] - scores[:, 0], svc.decision_function(X),
                               rtol=1e-6, atol=1e-9)
