"""Model files written before the estimator-protocol changes still load and answer as before.

tests/data/models_v0_1 was written by wsd at commit 4d7e01b (six hand-made bass sentences, bag
of words; four points for the binary learners); the expected answers are those that code
printed for the same queries."""

from pathlib import Path

import numpy as np
import pytest

from wsd import Instance
from wsd.learners import AveragedPerceptron, VotedPerceptron
from wsd.persistence import load_model

OLD = Path(__file__).parent / "data" / "models_v0_1"
QUERIES = [Instance.from_text(text, id=f"q{i}", lemma="bass")
           for i, text in enumerate(["loud <<bass>> guitar", "a <<bass>> in the river"])]
X = [[1.0, 0.0, 2.0], [0.0, 1.0, -1.0], [2.0, 1.0, 0.0], [0.0, 2.0, 1.0]]


@pytest.mark.parametrize("name", ["supervised_voted", "supervised_averaged"])
def test_old_supervised_models_load_and_predict_as_before(name):
    model = load_model(OLD / f"{name}.json")
    assert model.predict(QUERIES) == ["bass.sound", "bass.fish"]  # printed by the old code
    assert model.classes_ == ["bass.fish", "bass.sound"]
    assert model.featurizer_ is model.featurizer and model.learner_ is model.learner


def test_old_explanation_margin_is_unchanged():
    model = load_model(OLD / "supervised_averaged.json")
    why = model.explain(QUERIES[1])
    assert why.margin == pytest.approx(1.263157894736842, abs=1e-12)  # the old code's margin
    assert why.bias + sum(v for _, v in why.support + why.against) + why.rest == pytest.approx(
        why.margin, abs=1e-12)


@pytest.mark.parametrize(("kind", "scores"), [
    (VotedPerceptron, [-12.0, 8.0, -12.0, 6.0]),
    (AveragedPerceptron, [-1.4615384615384617, 1.8461538461538463, -1.9230769230769234,
                          2.923076923076923]),
])
def test_old_binary_models_load_and_score_as_before(kind, scores):
    model = kind.load(OLD / f"binary_{'voted' if kind is VotedPerceptron else 'averaged'}.json")
    np.testing.assert_array_equal(model.decision_function(X), scores)
    assert model.classes_.tolist() == ["a", "b"] and model.n_features_in_ == 3
