"""The dict learner's ``engine`` option: compiled training, identical weights."""

import numpy as np
import pytest

from wsd.learners import multiclass
from wsd.learners.multiclass import MulticlassAveragedPerceptron, MulticlassPerceptron


def random_dicts(n=150, n_features=40, n_classes=4, seed=3):
    rng = np.random.default_rng(seed)
    X, y = [], []
    for _ in range(n):
        features = rng.choice(n_features, size=rng.integers(1, 8), replace=False)
        X.append({f"f{f}": float(rng.normal()) for f in features})
        y.append(f"c{rng.integers(n_classes)}")
    return X, y


def assert_same_model(a, b):
    assert a.classes_ == b.classes_ and a.counter_ == b.counter_
    wa, wb = a.weights(), b.weights()
    for feature in set(wa) | set(wb):
        for label in a.classes_:
            assert wa.get(feature, {}).get(label, 0.0) == pytest.approx(
                wb.get(feature, {}).get(label, 0.0), abs=1e-9)
    for label in a.classes_:
        assert a.biases()[label] == pytest.approx(b.biases()[label], abs=1e-9)
    assert [h["mistakes"] for h in a.history_] == [h["mistakes"] for h in b.history_]


@pytest.mark.parametrize("average", [True, False])
def test_compiled_engine_gives_the_dict_learners_weights(average):
    X, y = random_dicts()
    dict_model = MulticlassPerceptron(epochs=4, average=average, seed=5, engine="dict").fit(X, y)
    fast = MulticlassPerceptron(epochs=4, average=average, seed=5, engine="compiled").fit(X, y)
    assert_same_model(dict_model, fast)
    assert fast.predict(X) == dict_model.predict(X)


def test_compiled_engine_with_early_stopping_keeps_the_same_best_epoch():
    X, y = random_dicts()
    X_dev, y_dev = random_dicts(n=60, seed=9)
    kwargs = dict(epochs=6, seed=1, patience=2)
    slow = MulticlassAveragedPerceptron(engine="dict", **kwargs).fit(X, y, X_dev, y_dev)
    fast = MulticlassAveragedPerceptron(engine="compiled", **kwargs).fit(X, y, X_dev, y_dev)
    assert fast.best_epoch_ == slow.best_epoch_
    assert_same_model(slow, fast)


def test_partial_fit_continues_after_compiled_training():
    X, y = random_dicts()
    slow = MulticlassAveragedPerceptron(epochs=2, engine="dict").fit(X, y).partial_fit(X, y)
    fast = MulticlassAveragedPerceptron(epochs=2, engine="compiled").fit(X, y).partial_fit(X, y)
    assert_same_model(slow, fast)


def test_auto_uses_the_compiled_engine_only_for_large_data(monkeypatch):
    X, y = random_dicts()
    calls = []
    original = MulticlassPerceptron._fit_compiled

    def spy(self, *args):
        calls.append(len(args[0]))
        return original(self, *args)

    monkeypatch.setattr(MulticlassPerceptron, "_fit_compiled", spy)
    MulticlassAveragedPerceptron(epochs=1).fit(X, y)
    assert calls == []
    monkeypatch.setattr(multiclass, "COMPILED_FROM", 10)
    MulticlassAveragedPerceptron(epochs=1).fit(X, y)
    assert calls == [len(X)]


def test_unknown_engine_is_a_clear_error():
    X, y = random_dicts(n=10)
    with pytest.raises(ValueError, match="engine must be one of"):
        MulticlassAveragedPerceptron(engine="gpu").fit(X, y)
