"""Perceptron with margin and passive-aggressive (PA-I) updates: hand-worked steps, and the
compiled engine reaching the dict learner's weights."""

import math

import pytest
from test_engine_option import assert_same_model, random_dicts

from wsd.learners.multiclass import MulticlassAveragedPerceptron, MulticlassPerceptron

OPTIONS = [{"margin": 0.5}, {"margin": 2.0}, {"update": "pa", "C": 0.1},
           {"update": "pa", "C": 10.0}]


@pytest.mark.parametrize("average", [True, False])
@pytest.mark.parametrize("options", OPTIONS)
def test_compiled_engine_gives_the_same_weights(average, options):
    X, y = random_dicts()
    kwargs = dict(epochs=3, average=average, seed=2, **options)
    slow = MulticlassPerceptron(engine="dict", **kwargs).fit(X, y)
    fast = MulticlassPerceptron(engine="compiled", **kwargs).fit(X, y)
    assert_same_model(slow, fast)
    assert slow.get_params()["margin"] == options.get("margin", 0.0)


def test_margin_updates_an_example_that_is_already_right():
    X, y = [{"a": 1.0}, {"a": 1.0}], ["p", "q"]
    plain = MulticlassPerceptron(epochs=1, shuffle=False, engine="dict").fit(X, y)
    # first example: tie, argmax "p" = gold, no update; second: "p" wins the tie -> update
    assert plain.weights() == {"a": {"p": -1.0, "q": 1.0}}
    margin = MulticlassPerceptron(epochs=1, shuffle=False, margin=0.5, engine="dict").fit(X, y)
    # first example now won by 0 < 0.5: step towards "p"; then "q" loses by 4: step back
    assert margin.weights() == {"a": {"p": 0.0, "q": 0.0}}
    assert margin.biases() == {"p": 0.0, "q": 0.0}
    assert [h["mistakes"] for h in margin.history_] == [1]


def test_pa_step_is_the_smallest_that_wins_by_one_capped_by_c():
    X, y = [{"a": 1.0}], ["q"]
    classes = ["p", "q"]
    # scores 0, 0: loss 1, |x|^2 + 1 = 2, tau = 1 / 4: w_q = 0.25, b_q = 0.25, w_p = b_p = -0.25
    model = MulticlassPerceptron(epochs=1, update="pa", C=1.0, engine="dict")
    model.partial_fit(X, y, classes=classes)
    assert model.weights() == {"a": {"p": -0.25, "q": 0.25}}
    assert model.biases() == {"p": -0.25, "q": 0.25}
    # two classes: the score of "q" minus that of "p"; won by exactly 1, so passive next
    assert model.decision_function(X)[0] == pytest.approx(1.0)
    model.partial_fit(X, y)
    assert model.weights() == {"a": {"p": -0.25, "q": 0.25}}
    capped = MulticlassPerceptron(epochs=1, update="pa", C=0.1, engine="dict")
    assert capped.partial_fit(X, y, classes=classes).weights() == {"a": {"p": -0.1, "q": 0.1}}


@pytest.mark.parametrize("options, message", [
    ({"update": "hinge"}, "update must be one of"),
    ({"margin": -1.0}, "margin must be a number >= 0"),
    ({"update": "pa", "C": 0}, "C must be a number > 0"),
])
def test_bad_options_are_refused(options, message):
    X, y = random_dicts(n=10)
    with pytest.raises(ValueError, match=message):
        MulticlassAveragedPerceptron(**options).fit(X, y)


@pytest.mark.parametrize("options", [{"n_models": 3}, {"n_models": 2, "update": "pa"},
                                     {"prior": 20.0}, {"backoff_margin": 0.5},
                                     {"n_models": 2, "prior": 5.0, "backoff_margin": 0.2}])
def test_compiled_engine_agrees_on_the_options_around_training(options):
    X, y = random_dicts()
    slow = MulticlassAveragedPerceptron(epochs=3, seed=4, engine="dict", **options).fit(X, y)
    fast = MulticlassAveragedPerceptron(epochs=3, seed=4, engine="compiled", **options).fit(X, y)
    assert_same_model(slow, fast)
    assert slow.predict(X) == fast.predict(X)


def test_mean_of_models_is_the_mean_of_their_weights():
    X, y = random_dicts()
    mean = MulticlassAveragedPerceptron(epochs=2, seed=7, n_models=2, engine="dict").fit(X, y)
    singles = [MulticlassAveragedPerceptron(epochs=2, seed=s, engine="dict").fit(X, y)
               for s in (7, 8)]
    for label in mean.classes_:
        expected = sum(m.biases()[label] for m in singles) / 2
        assert mean.biases()[label] == pytest.approx(expected, abs=1e-12)
    weights = mean.weights()
    feature = next(iter(weights))
    expected = sum(m.weights().get(feature, {}).get("c0", 0.0) for m in singles) / 2
    assert weights[feature]["c0"] == pytest.approx(expected, abs=1e-12)


def test_prior_shrinks_with_training_size_and_backoff_answers_the_most_frequent():
    X, y = [{"a": 1.0}, {"b": 1.0}, {"c": 1.0}], ["p", "p", "q"]
    plain = MulticlassAveragedPerceptron(epochs=1, shuffle=False, engine="dict").fit(X, y)
    prior = MulticlassAveragedPerceptron(epochs=1, shuffle=False, prior=3.0,
                                         engine="dict").fit(X, y)
    # m / (m + n) = 3 / 6; add-one smoothed P(p) = 3/5, P(q) = 2/5
    shift = {"p": 0.5 * math.log(3 / 5), "q": 0.5 * math.log(2 / 5)}
    for label in ("p", "q"):
        assert prior.biases()[label] == pytest.approx(plain.biases()[label] + shift[label])
    unsure = MulticlassAveragedPerceptron(epochs=1, shuffle=False, backoff_margin=100.0,
                                          engine="dict").fit(X, y)
    assert plain.predict([{"c": 1.0}]) == ["q"]
    assert unsure.predict([{"c": 1.0}]) == ["p"]  # not confident: the most frequent sense
    again = MulticlassAveragedPerceptron.from_dict(unsure.to_dict())
    assert again.predict([{"c": 1.0}]) == ["p"]
