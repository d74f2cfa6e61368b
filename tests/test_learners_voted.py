"""The multiclass voted perceptron against a hand trace and a naive store-every-vector version."""

import json
import math

import nltk
import numpy as np
import pytest
from problems import prototype_problem

from wsd import persistence
from wsd.learners import MulticlassPerceptron, NotFittedError
from wsd.learners.training import epoch_orders
from wsd.learners.voted import MulticlassVotedPerceptron

# Hand-worked: classes a, b, c; no shuffling; two epochs.  Scores are listed as (a, b, c).
#   epoch 1
#   E1 a {p}:    W_0 = 0 scores (0, 0, 0) -> a.  Correct: c_0 = 1.
#   E2 b {q}:    (0, 0, 0) -> a.  Mistake:  w[q] a -1, b +1;  bias (-1, 1, 0).   W_1, c_1 = 1
#   E3 c {r}:    bias only (-1, 1, 0) -> b.  Mistake:  w[r] b -1, c +1;  bias (-1, 0, 1).
#                                                                               W_2, c_2 = 1
#   E4 b {p, q}: (-1 - 1, 1 + 0, 0 + 1) = (-2, 1, 1), tie b/c -> b.  Correct:   c_2 = 2
#   epoch 2
#   E1 a {p}:    bias only (-1, 0, 1) -> c.  Mistake:  w[p] a +1, c -1;  bias (0, 0, 0).
#                                                                               W_3, c_3 = 1
#   E2 b {q}: (-1, 1, 0) -> b;  E3 c {r}: (0, -1, 1) -> c;  E4 b {p, q}: (0, 1, -1) -> b.
#                                                   Three correct:              c_3 = 4
# Counts (1, 1, 2, 4) sum to 2 epochs x 4 examples.
# At x = {p: -2, q: -2}:  W_0 -> a (votes 1);  W_1 (1, -1, 0) -> a (1);
#   W_2 (2 - 1, -2 + 0, 0 + 1) = (1, -2, 1), tie a/c -> a (2);  W_3 (-2 + 2, -2, 2) -> c (4).
#   Votes (4, 0, 4): a tie, so a -- although the last vector alone says c.
# At x = {r: 1}:  W_0 a (1), W_1 (-1, 1, 0) b (1), W_2 (-1, -1, 2) c (2), W_3 (0, -1, 1) c (4).
HAND_X = [{"p": 1}, {"q": 1}, {"r": 1}, {"p": 1, "q": 1}]
HAND_Y = ["a", "b", "c", "b"]


def test_hand_worked_example():
    model = MulticlassVotedPerceptron(epochs=2, shuffle=False).fit(HAND_X, HAND_Y)
    assert model.counts_ == [1, 1, 2, 4]
    assert [h["mistakes"] for h in model.history_] == [2, 1]
    assert model.history_[0]["train_accuracy"] == 0.5
    points = [{"p": -2.0, "q": -2.0}, {"r": 1.0}]
    assert model.vector_predictions(points).tolist() == [[0, 0], [0, 1], [0, 2], [2, 2]]
    assert model.decision_function(points).tolist() == [[4.0, 0.0, 4.0], [1.0, 1.0, 6.0]]
    assert model.predict(points) == ["a", "c"]
    assert model.predict_scores({"r": 1.0}) == {"a": 1.0, "b": 1.0, "c": 6.0}
    assert model.weights() == {"q": {"a": -1.0, "b": 1.0, "c": 0.0},
                               "r": {"a": 0.0, "b": -1.0, "c": 1.0},
                               "p": {"a": 1.0, "b": 0.0, "c": -1.0}}
    assert model.biases() == {"a": 0.0, "b": 0.0, "c": 0.0}
    assert MulticlassPerceptron(epochs=2, shuffle=False).fit(HAND_X, HAND_Y).predict(
        points[:1]) == ["c"]
    assert model.explain({"p": 2.0, "q": 1.0, "new": 5.0}, "a") == [("p", 2.0), ("q", -1.0)]
    assert model.explain({"p": 2.0, "q": 1.0}, "a", k=1) == [("p", 2.0)]


def integer_problem(seed, n=60, d=12, k=4):
    """Small integer feature values: exact arithmetic and many ties in scores and votes."""
    rng = np.random.default_rng(seed)
    X, y = [], []
    for _ in range(n):
        columns = rng.choice(d, size=rng.integers(0, 5), replace=False)
        X.append({f"f{c}": int(rng.integers(-2, 4)) or 1 for c in columns})
        y.append(f"s{int(rng.integers(k))}")
    return X, y


def real_problem(seed, n=80, d=25, k=5):
    """Real values with labels from noisy class prototypes."""
    return prototype_problem(seed, n, d, k, prefix="s")


def naive_voted(X, y, X_test, epochs, seed, shuffle=True):
    """Freund & Schapire with a dense copy of every weight vector and its count.

    Returns (per-vector predictions (vectors x test), vote totals (test x classes)).
    """
    classes = sorted(set(y))
    features = sorted({f for x in X for f in x})

    def dense(dicts):
        return np.array([[x.get(f, 0.0) for f in features] for x in dicts],
                        dtype=float).reshape(len(dicts), len(features))

    train, test = dense(X), dense(X_test)
    targets = [classes.index(label) for label in y]
    W, b = np.zeros((len(classes), len(features))), np.zeros(len(classes))
    vectors = [[W.copy(), b.copy(), 0]]
    for order in epoch_orders(len(X), epochs, seed, shuffle):
        for i in order:
            t = targets[i]
            p = int(np.argmax(W @ train[i] + b))  # the first maximum: lowest index
            if p == t:
                vectors[-1][2] += 1
                continue
            W[t] += train[i]
            b[t] += 1
            W[p] -= train[i]
            b[p] -= 1
            vectors.append([W.copy(), b.copy(), 1])
    steps = np.array([np.argmax(test @ Wm.T + bm, axis=1) for Wm, bm, _ in vectors])
    votes = np.zeros((len(X_test), len(classes)))
    for (_, _, count), predicted in zip(vectors, steps, strict=True):
        votes[np.arange(len(X_test)), predicted] += count
    return steps, votes


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_equals_the_naive_voted_perceptron_on_integer_data(seed):
    X, y = integer_problem(seed)
    X_test, _ = integer_problem(seed + 50, n=70, d=14)  # f12, f13 never seen in training
    steps, votes = naive_voted(X, y, X_test, epochs=4, seed=seed)
    model = MulticlassVotedPerceptron(epochs=4, seed=seed).fit(X, y)
    assert len(model.counts_) == len(steps)
    assert sum(model.counts_) == 4 * len(X)
    np.testing.assert_array_equal(model.vector_predictions(X_test), steps)
    np.testing.assert_array_equal(model.decision_function(X_test), votes)
    assert model.predict(X_test) == [model.classes_[k] for k in np.argmax(votes, axis=1)]


@pytest.mark.parametrize("seed", [3, 4])
def test_equals_the_naive_voted_perceptron_on_real_data(seed):
    X, y = real_problem(seed)
    X_test, _ = real_problem(seed + 50)
    steps, votes = naive_voted(X, y, X_test, epochs=5, seed=seed)
    model = MulticlassVotedPerceptron(epochs=5, seed=seed).fit(X, y)
    np.testing.assert_array_equal(model.vector_predictions(X_test), steps)
    np.testing.assert_array_equal(model.decision_function(X_test), votes)
    unshuffled = naive_voted(X, y, X_test, epochs=2, seed=None, shuffle=False)[1]
    model = MulticlassVotedPerceptron(epochs=2, shuffle=False, seed=None).fit(X, y)
    np.testing.assert_array_equal(model.decision_function(X_test), unshuffled)


def test_one_example_at_a_time_equals_the_batch():
    X, y = real_problem(5)
    X_test, _ = real_problem(6, n=50)
    model = MulticlassVotedPerceptron(epochs=3).fit(X, y)
    whole = model.decision_function(X_test)
    one_by_one = np.vstack([model.decision_function([x]) for x in X_test])
    np.testing.assert_array_equal(one_by_one, whole)
    assert model.vector_predictions(X_test).shape == (len(model.counts_), 50)


def as_matrix(model, features):
    """weights() as a dense (classes x features) array; absent entries are 0."""
    weights = model.weights()
    return np.array([[weights.get(f, {}).get(label, 0.0) for f in features]
                     for label in model.classes_])


@pytest.mark.parametrize("seed", [0, 7])
def test_last_vector_is_the_plain_perceptrons_final_weights(seed):
    X, y = real_problem(seed)
    X_test, _ = real_problem(seed + 1)
    model = MulticlassVotedPerceptron(epochs=6, seed=seed).fit(X, y)
    plain = MulticlassPerceptron(epochs=6, seed=seed).fit(X, y)
    features = sorted({f for x in X for f in x})
    assert as_matrix(model, features).tolist() == as_matrix(plain, features).tolist()
    assert model.biases() == plain.biases()
    assert [h["mistakes"] for h in model.history_] == [h["mistakes"] for h in plain.history_]
    assert len(model.counts_) == 1 + sum(h["mistakes"] for h in plain.history_)
    # The end of the score trajectory predicts what the final weights predict.
    last = model.vector_predictions(X_test)[-1]
    assert [model.classes_[k] for k in last] == plain.predict(X_test)


def test_nltk_accuracy_and_classifier_interface():
    X, y = real_problem(8)
    model = MulticlassVotedPerceptron(epochs=3).fit(X, y)
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
    assert model.decision_function([]).shape == (0, len(model.classes_))
    assert model.predict([{**x, "never-seen": 3.0} for x in X]) == model.predict(X)


def test_save_load_round_trip_predicts_identically(tmp_path):
    X, y = real_problem(9)
    X_test, _ = real_problem(10)
    model = MulticlassVotedPerceptron(epochs=3, seed=4).fit(X, y)
    path = model.save(tmp_path / "voted.json")
    loaded = MulticlassVotedPerceptron.load(path)
    assert persistence.load_model(path).get_params() == model.get_params()
    assert loaded.counts_ == model.counts_
    assert loaded.history_ == model.history_
    assert loaded.weights() == model.weights()
    np.testing.assert_array_equal(loaded.decision_function(X_test),
                                  model.decision_function(X_test))
    assert loaded.explain(X[0], y[0]) == model.explain(X[0], y[0])

    state = json.loads(path.read_text())
    state["state"]["counts"].pop()
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(state))
    with pytest.raises(ValueError, match="survival counts"):
        MulticlassVotedPerceptron.load(broken)
    state["state"]["mistakes"][0][0] = 10**6
    broken.write_text(json.dumps(state))
    with pytest.raises(ValueError, match="refers to an example or class"):
        MulticlassVotedPerceptron.load(broken)
    unfitted = MulticlassVotedPerceptron.from_dict(MulticlassVotedPerceptron().to_dict())
    with pytest.raises(NotFittedError):
        unfitted.predict(X)


# The checks are base.py's, tested in full with MulticlassPerceptron; here: they are applied.
@pytest.mark.parametrize(
    ("X", "y", "message"),
    [([], [], "empty"), (HAND_X, ["a"], "4 examples but y has 1"),
     (HAND_X, ["a"] * 4, "at least two senses.*MFS"),
     ([{"a": 1.0}, {3: 1.0}], ["x", "y"], "feature names must be strings")],
)
def test_bad_training_data_gives_clear_errors(X, y, message):
    with pytest.raises(ValueError, match=message):
        MulticlassVotedPerceptron().fit(X, y)


def test_bad_options_use_before_fit_and_bad_test_data():
    with pytest.raises(ValueError, match="epochs must be an integer >= 1"):
        MulticlassVotedPerceptron(epochs=0).fit(HAND_X, HAND_Y)
    model = MulticlassVotedPerceptron()
    for use in (lambda: model.predict(HAND_X), lambda: model.classify(HAND_X[0]),
                lambda: model.decision_function(HAND_X), lambda: model.weights(),
                lambda: model.labels(), lambda: model.explain(HAND_X[0], "a")):
        with pytest.raises(NotFittedError, match="not fitted yet"):
            use()
    fitted = model.fit(HAND_X, HAND_Y)
    with pytest.raises(ValueError, match="unknown label"):
        fitted.explain(HAND_X[0], "d")
    with pytest.raises(ValueError, match=r"X\[1\] feature 'p' has the value inf"):
        fitted.predict([{"p": 1.0}, {"p": math.inf}])


def test_constructor_arguments_same_seed_and_progress_bar(capsys):
    model = MulticlassVotedPerceptron(epochs=2, seed=None, verbose=True)
    assert model.get_params() == {"epochs": 2, "shuffle": True, "seed": None, "verbose": True}
    model.fit(HAND_X, HAND_Y)
    assert "2/2" in capsys.readouterr().err
    X, y = real_problem(11)
    first = MulticlassVotedPerceptron(epochs=3, seed=1).fit(X, y)
    again = MulticlassVotedPerceptron(epochs=3, seed=1).fit(X, y)
    other = MulticlassVotedPerceptron(epochs=3, seed=2).fit(X, y)
    assert first.counts_ == again.counts_
    assert first.to_dict() == again.to_dict()
    assert first.counts_ != other.counts_


@pytest.mark.parametrize("seed", range(4))
def test_predict_settles_the_winner_early_and_answers_as_the_full_vote(seed):
    """predict lets the last vectors vote first and stops when the rest cannot change the
    winner; on data full of ties (integer) and on real values its answer is the argmax of
    the full vote, in one call and one example at a time."""
    for X, y, X_test in ((*integer_problem(seed), integer_problem(seed + 50, n=70)[0]),
                         (*real_problem(seed), real_problem(seed + 50)[0])):
        model = MulticlassVotedPerceptron(epochs=6, seed=seed).fit(X, y)
        full = [model.classes_[k] for k in np.argmax(model.decision_function(X_test), axis=1)]
        assert model.predict(X_test) == full
        assert [model.predict([x])[0] for x in X_test] == full
        partial = model._vote(model._examples_of(X_test), winner_only=True)[0]
        assert (partial.sum(axis=1) < sum(model.counts_)).any()  # it did stop early
