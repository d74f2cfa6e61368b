"""The dict-based multiclass (averaged) perceptron against the lecture pseudocode."""

import math

import nltk
import numpy as np
import pytest
from problems import prototype_problem

from wsd.learners import MulticlassAveragedPerceptron, MulticlassPerceptron, NotFittedError
from wsd.learners.training import epoch_orders

# Hand-worked: classes sorted ["fish", "music"], no shuffling, one epoch.
#   e1 fish:  activations (0, 0), tie -> lowest index: fish.  Correct.          c: 1 -> 2
#   e2 music: activations (0, 0) -> fish, a mistake at c = 2:
#       w[play], w[jazz]: music +1, fish -1;  b = (-1, +1)
#       u[play], u[jazz]: music +2, fish -2;  beta = (-2, +2)                  c: 2 -> 3
#   e3 music: fish -1 + (-1 from play) = -2, music 1 + 1 = 2 -> music.  Correct. c: 3 -> 4
# Averaged with c = 4: w - u/4 = music 1 - 2/4 = 0.5, fish -0.5;  b - beta/4 = (-0.5, 0.5)
# (the mean of the 4 weight vectors held: zero, zero, then twice the updated one).
HAND_X = [{"w=striped": 1.0, "w=fish": 2.0}, {"w=play": 1.0, "w=jazz": 1.0},
          {"w=fish": 1.0, "w=play": 1.0}]
HAND_Y = ["fish", "music", "music"]


def random_problem(seed, n=90, d=30, k=4):
    return prototype_problem(seed, n, d, k, prefix="sense")


def lecture_reference(X, y, epochs, seed, shuffle=True):
    """The lecture pseudocode with dense numpy arrays, independent of the learner's code.

    Returns the classes, the feature columns, the final (W, b), the averaged (W, b) by the
    counter trick and the naive mean of every (W, b) held (the zero start, then one after
    each example).
    """
    classes = sorted(set(y))
    features = sorted({f for x in X for f in x})
    column = {f: j for j, f in enumerate(features)}
    dense = np.zeros((len(X), len(features)))
    for i, x in enumerate(X):
        for f, v in x.items():
            dense[i, column[f]] = v
    targets = [classes.index(label) for label in y]
    W = np.zeros((len(classes), len(features)))
    b = np.zeros(len(classes))
    U, beta = np.zeros_like(W), np.zeros_like(b)
    c = 1
    sum_W, sum_b, held = W.copy(), b.copy(), 1
    for order in epoch_orders(len(X), epochs, seed, shuffle):
        for i in order:
            x, t = dense[i], targets[i]
            p = int(np.argmax(W @ x + b))  # np.argmax: the first maximum
            if p != t:
                W[t] += x
                b[t] += 1
                W[p] -= x
                b[p] -= 1
                U[t] += c * x
                beta[t] += c
                U[p] -= c * x
                beta[p] -= c
            c += 1
            sum_W += W
            sum_b += b
            held += 1
    averaged = (W - U / c, b - beta / c)
    return classes, features, (W, b), averaged, (sum_W / held, sum_b / held)


def as_matrix(model, features):
    weights = model.weights()
    return np.array([[weights.get(f, {}).get(label, 0.0) for f in features]
                     for label in model.classes_])


def test_hand_worked_example():
    plain = MulticlassPerceptron(epochs=1, shuffle=False).fit(HAND_X, HAND_Y)
    assert plain.weights() == {"w=play": {"fish": -1.0, "music": 1.0},
                               "w=jazz": {"fish": -1.0, "music": 1.0}}
    assert plain.biases() == {"fish": -1.0, "music": 1.0}
    assert plain.history_ == [{"epoch": 1, "mistakes": 1, "train_accuracy": 2 / 3,
                               "dev_accuracy": None}]
    averaged = MulticlassAveragedPerceptron(epochs=1, shuffle=False).fit(HAND_X, HAND_Y)
    assert averaged.weights() == {"w=play": {"fish": -0.5, "music": 0.5},
                                  "w=jazz": {"fish": -0.5, "music": 0.5}}
    assert averaged.biases() == {"fish": -0.5, "music": 0.5}
    assert averaged.counter_ == 4
    assert averaged.predict([{"w=jazz": 1.0}, {}]) == ["music", "music"]
    assert averaged.explain({"w=play": 2.0, "w=jazz": 1.0, "w=new": 5.0}, "music") == [
        ("w=play", 1.0), ("w=jazz", 0.5)]
    assert averaged.explain({"w=play": 2.0, "w=jazz": 1.0}, "music", k=1) == [("w=play", 1.0)]


@pytest.mark.parametrize("seed", [0, 1])
def test_matches_the_lecture_pseudocode_weights_naive_average_and_predictions(seed):
    X, y = random_problem(seed)
    classes, features, _, (avg_W, avg_b), (mean_W, mean_b) = lecture_reference(X, y, 4, seed)
    model = MulticlassAveragedPerceptron(epochs=4, seed=seed).fit(X, y)
    assert model.classes_ == classes
    W = as_matrix(model, features)
    b = np.array([model.biases()[label] for label in classes])
    np.testing.assert_allclose(W, avg_W, rtol=0, atol=1e-9)
    np.testing.assert_allclose(b, avg_b, rtol=0, atol=1e-9)
    np.testing.assert_allclose(W, mean_W, rtol=0, atol=1e-9)
    np.testing.assert_allclose(b, mean_b, rtol=0, atol=1e-9)

    X_test, _ = random_problem(seed + 100)
    dense = np.array([[x.get(f, 0.0) for f in features] for x in X_test])
    expected = [classes[k] for k in np.argmax(dense @ avg_W.T + avg_b, axis=1)]
    assert model.predict(X_test) == expected
    np.testing.assert_allclose(model.decision_function(X_test), dense @ avg_W.T + avg_b,
                               rtol=0, atol=1e-9)


def test_plain_multiclass_perceptron_matches_the_unaveraged_reference():
    X, y = random_problem(2)
    classes, features, (W, b), _, _ = lecture_reference(X, y, 3, 5)
    model = MulticlassPerceptron(epochs=3, seed=5).fit(X, y)
    np.testing.assert_allclose(as_matrix(model, features), W, rtol=0, atol=1e-9)
    assert [model.biases()[label] for label in classes] == b.tolist()
    averaged = MulticlassAveragedPerceptron(epochs=3, seed=5).fit(X, y)
    assert model.history_ == averaged.history_  # the same mistakes on the same path
    assert not np.allclose(as_matrix(averaged, features), W)


def test_real_feature_values_are_used():
    # Both examples have the same single feature; only its value tells them apart.
    # Trace (classes long=0, short=1, no shuffling): the weights settle at
    # w[len] = (2.5, -2.5), b = (-2, 2): "long" exactly when 5 * value > 4.
    X = [{"len": 0.5}, {"len": 4.0}]
    y = ["short", "long"]
    model = MulticlassPerceptron(epochs=5, shuffle=False).fit(X, y)
    assert model.weights() == {"len": {"long": 2.5, "short": -2.5}}
    assert model.biases() == {"long": -2.0, "short": 2.0}
    assert model.predict([{"len": 0.5}, {"len": 2.0}]) == ["short", "long"]
    assert model.predict_scores({"len": 2.0}) == {"long": 3.0, "short": -3.0}


def test_nltk_accuracy_and_classifier_interface():
    X, y = random_problem(3)
    model = MulticlassAveragedPerceptron(epochs=3).fit(X, y)
    gold = list(zip(X, y, strict=True))
    assert nltk.classify.accuracy(model, gold) == model.score(X, y)
    interface = [name for name in vars(nltk.classify.api.ClassifierI) if not name.startswith("_")]
    assert all(getattr(type(model), name) is not getattr(nltk.classify.api.ClassifierI, name, None)
               for name in interface), "every ClassifierI method is the learner's own"
    (dist,) = model.prob_classify_many([X[0]])
    assert dist.max() == model.classify(X[0])
    assert model.labels() == sorted(set(y))
    assert model.classify(X[0]) == model.predict([X[0]])[0]
    assert model.classify_many(X) == model.predict(X)


def test_decision_function_predict_scores_and_unknown_features():
    X, y = random_problem(4)
    model = MulticlassAveragedPerceptron(epochs=2).fit(X, y)
    scores = model.decision_function(X)
    assert scores.shape == (len(X), len(model.classes_))
    assert model.predict(X) == [model.classes_[k] for k in np.argmax(scores, axis=1)]
    assert model.predict_scores(X[0]) == dict(zip(model.classes_, scores[0], strict=True))
    with_unknown = [{**x, "never-seen": 3.0} for x in X]
    assert model.predict(with_unknown) == model.predict(X)
    assert model.decision_function([]).shape == (0, len(model.classes_))


def test_same_seed_same_weights_other_seed_other_order():
    X, y = random_problem(5)
    first = MulticlassAveragedPerceptron(epochs=3, seed=1).fit(X, y)
    again = MulticlassAveragedPerceptron(epochs=3, seed=1).fit(X, y)
    other = MulticlassAveragedPerceptron(epochs=3, seed=2).fit(X, y)
    assert first.weights() == again.weights()
    assert first.history_ == again.history_
    assert first.weights() != other.weights()


def test_partial_fit_continues_the_weights_and_the_counter():
    X, y = random_problem(6)
    whole = MulticlassAveragedPerceptron(epochs=2, shuffle=False).fit(X, y)
    step = MulticlassAveragedPerceptron(epochs=1, shuffle=False).fit(X, y)
    assert step.counter_ == len(X) + 1
    step.partial_fit(X, y)
    assert step.counter_ == whole.counter_ == 2 * len(X) + 1
    assert step.weights() == whole.weights()
    assert step.biases() == whole.biases()
    assert [h["epoch"] for h in step.history_] == [1, 2]

    online = MulticlassAveragedPerceptron()
    online.partial_fit(X[:30], y[:30], classes=sorted(set(y)))
    online.partial_fit(X[30:], y[30:])
    online.partial_fit(X, y)
    assert online.weights() == whole.weights()
    with pytest.raises(ValueError, match="not among classes_"):
        online.partial_fit([{"a": 1.0}], ["brand-new-sense"])


def noisy_dev_problem():
    X, y = random_problem(7, n=120)
    X_dev, y_dev = random_problem(8, n=60)
    return X, y, X_dev, y_dev


def test_early_stopping_restores_the_best_epoch():
    X, y, X_dev, y_dev = noisy_dev_problem()
    model = MulticlassPerceptron(epochs=12, seed=3).fit(X, y, X_dev, y_dev)
    dev = [h["dev_accuracy"] for h in model.history_]
    best = dev.index(max(dev)) + 1
    assert model.best_epoch_ == best
    assert best < len(dev)  # later epochs were worse, so restoring matters
    assert model.score(X_dev, y_dev) == max(dev)
    # The restored model is exactly the one trained for best_epoch_ epochs.
    short = MulticlassPerceptron(epochs=best, seed=3).fit(X, y)
    assert model.weights() == short.weights()
    assert model.counter_ == short.counter_


def test_patience_stops_training_early():
    X, y, X_dev, y_dev = noisy_dev_problem()
    model = MulticlassAveragedPerceptron(epochs=30, seed=3, patience=2).fit(X, y, X_dev, y_dev)
    assert len(model.history_) == model.best_epoch_ + 2 < 30
    dev = [h["dev_accuracy"] for h in model.history_]
    assert max(dev[model.best_epoch_:]) <= dev[model.best_epoch_ - 1]


def test_progress_bar(capsys):
    MulticlassAveragedPerceptron(epochs=2, verbose=True).fit(HAND_X, HAND_Y)
    assert "2/2" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("X", "y", "message"),
    [
        ([], [], "empty"),
        (HAND_X, ["fish"], "3 examples but y has 1"),
        (HAND_X, ["fish"] * 3, r"only one class \(the label 'fish'\); .*at least two senses.*MFS"),
        ([{"a": math.nan}, {"b": 1.0}], ["x", "y"], r"X\[0\] feature 'a' has the value nan"),
        ([{"a": 1.0}, {"b": math.inf}], ["x", "y"], r"X\[1\] feature 'b' has the value inf"),
        ([{"a": 1.0}, {"b": "1"}], ["x", "y"], r"X\[1\] feature 'b' .*non-numeric"),
        ([{"a": 1.0}, {3: 1.0}], ["x", "y"], "feature names must be strings"),
        ([{"a": 1.0}, ["b"]], ["x", "y"], r"X\[1\] is a list"),
        ([{"a": 1.0}, {"b": 1.0}], ["x", 2], "comparable"),
    ],
)
def test_bad_training_data_gives_clear_errors(X, y, message):
    with pytest.raises(ValueError, match=message):
        MulticlassAveragedPerceptron().fit(X, y)


@pytest.mark.parametrize(("pairs", "item"), [
    ([{"a": 1.0}], "item 0 is dict"),                   # a featureset without its label
    ([({"a": 1.0}, "x"), (("a", "b"), "y")], "item 1 is tuple"),  # features as a tuple
    ([({"a": 1.0}, "x", 3)], "item 0 is tuple"),        # three values
])
def test_nltk_train_names_the_first_item_that_is_not_a_featureset_and_label(pairs, item):
    """Had failed in unpacking (*not enough values to unpack*) or in numpy (*inhomogeneous
    shape*)."""
    with pytest.raises(ValueError, match=rf"train takes \(featureset, label\) pairs.*{item}"):
        MulticlassAveragedPerceptron.train(pairs)


def test_bad_options_and_use_before_fit():
    with pytest.raises(ValueError, match="epochs must be an integer >= 1"):
        MulticlassPerceptron(epochs=0).fit(HAND_X, HAND_Y)
    with pytest.raises(ValueError, match="patience needs a development set"):
        MulticlassPerceptron(patience=2).fit(HAND_X, HAND_Y)
    with pytest.raises(ValueError, match="both X_dev and y_dev"):
        MulticlassPerceptron().fit(HAND_X, HAND_Y, X_dev=HAND_X)
    with pytest.raises(ValueError, match=r"X_dev\[0\] feature 'a'"):
        MulticlassPerceptron().fit(HAND_X, HAND_Y, [{"a": math.nan}], ["fish"])
    model = MulticlassAveragedPerceptron()
    for use in (lambda: model.predict(HAND_X), lambda: model.classify(HAND_X[0]),
                lambda: model.weights(), lambda: model.labels()):
        with pytest.raises(NotFittedError, match="not fitted yet"):
            use()
    fitted = model.fit(HAND_X, HAND_Y)
    with pytest.raises(ValueError, match="unknown label"):
        fitted.explain(HAND_X[0], "bird")


def test_constructor_arguments_are_stored_as_given():
    model = MulticlassAveragedPerceptron(epochs=7, seed=None)
    assert model.get_params() == {"epochs": 7, "average": True, "shuffle": True, "seed": None,
                                  "patience": None, "verbose": False, "engine": "auto",
                                  "margin": 0.0, "update": "perceptron", "C": 1.0,
                                  "n_models": 1, "prior": 0.0, "backoff_margin": 0.0}
    assert MulticlassPerceptron().average is False


def test_early_stopping_keeps_the_first_best_epoch_and_stops_after_patience():
    from wsd.learners.training import EarlyStopping

    stopping = EarlyStopping(patience=2)
    snapshots = iter(["s1", "s2", "s3", "s4", "s5"])
    decisions = [stopping.update(acc, epoch, lambda: next(snapshots))
                 for epoch, acc in enumerate([0.5, 0.7, 0.7, 0.6], start=1)]
    assert decisions == [False, False, False, True]
    assert stopping.best == (0.7, 2, "s2")  # a tie is not an improvement
    assert EarlyStopping(patience=None).update(0.1, 1, lambda: None) is False
