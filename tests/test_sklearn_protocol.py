"""Every learner against scikit-learn's own checks and tools, and the NLTK idioms.

scikit-learn is a dev dependency only: the learners implement the protocol themselves.
"""

import io
import warnings
from contextlib import redirect_stdout

import numpy as np
import pytest
from problems import prototype_problem
from scipy.special import log_softmax, softmax
from sklearn.base import clone, is_classifier
from sklearn.feature_extraction import DictVectorizer
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.utils.estimator_checks import parametrize_with_checks

from wsd.corpora.bundled import load_bundled
from wsd.experiments.disambiguate import disambiguate, format_record
from wsd.features import Featurizer
from wsd.learners import (
    AveragedPerceptron,
    BinaryCSRAveragedPerceptron,
    CSRAveragedPerceptron,
    MulticlassAveragedPerceptron,
    MulticlassPerceptron,
    MulticlassVotedPerceptron,
    Perceptron,
    VotedPerceptron,
)
from wsd.learners.explanation import explain_margin
from wsd.systems.supervised import SupervisedWSD

ARRAY_LEARNERS = [CSRAveragedPerceptron(), CSRAveragedPerceptron(average=False),
                  BinaryCSRAveragedPerceptron(), Perceptron(), AveragedPerceptron(),
                  VotedPerceptron()]
DICT_LEARNERS = [MulticlassPerceptron(), MulticlassAveragedPerceptron(),
                 MulticlassAveragedPerceptron(engine="compiled"), MulticlassVotedPerceptron()]
ALL_LEARNERS = ARRAY_LEARNERS + DICT_LEARNERS


# The dict learners answer as NLTK's ClassifierI does: predict gives a list of labels and
# classes_ is a list (callers throughout the toolkit rely on it). The checks below index or
# reshape those as numpy arrays, so they are expected to fail, and only for that reason.
LIST_OUTPUT = "predict returns a list and classes_ is a list (NLTK's convention); the check " \
              "needs numpy arrays"
DICT_LEARNER_XFAILS = {name: LIST_OUTPUT for name in (
    "check_estimator_sparse_array", "check_estimator_sparse_matrix", "check_classifiers_classes",
    "check_classifiers_train", "check_supervised_y_2d")}


def expected_failures(learner):
    """The checks expected to fail for ``learner``: none for the array learners."""
    return DICT_LEARNER_XFAILS if learner in DICT_LEARNERS else {}


# scikit-learn's common checks, one pytest case each.
with warnings.catch_warnings():  # "does not inherit from BaseEstimator": by design
    warnings.filterwarnings("ignore", message="Estimator .* does not inherit from")
    ESTIMATOR_CHECKS = parametrize_with_checks(
        ARRAY_LEARNERS + DICT_LEARNERS[:2] + DICT_LEARNERS[3:],
        expected_failed_checks=expected_failures, xfail_strict=True)


@ESTIMATOR_CHECKS
@pytest.mark.filterwarnings("ignore:Estimator .* does not inherit from")
def test_scikit_learn_estimator_checks(estimator, check):
    check(estimator)


def problem(seed=0, n=120, k=3):
    return prototype_problem(seed, n=n, d=15, k=k, prefix="s")


@pytest.mark.parametrize("learner", ALL_LEARNERS, ids=repr)
def test_parameters_are_stored_as_given_and_clone_copies_them(learner):
    params = learner.get_params(deep=False)
    assert vars(learner) == params  # __init__ sets nothing else
    copy = clone(learner.set_params(seed=7))
    assert copy is not learner and copy.get_params() == learner.get_params()
    assert copy.seed == 7 and is_classifier(copy)
    with pytest.raises(ValueError, match="Invalid parameter 'no_such'"):
        learner.set_params(no_such=1)
    X, y = problem(k=2) if learner in ARRAY_LEARNERS[2:6] else problem()
    if learner in ARRAY_LEARNERS:
        X = DictVectorizer().fit_transform(X)
    assert learner.fit(X, y) is learner
    assert not hasattr(copy, "classes_")  # the clone was not fitted along
    assert sorted(set(y)) == list(learner.classes_)


@pytest.mark.parametrize("learner", DICT_LEARNERS, ids=repr)
def test_dict_learners_give_the_same_answers_after_a_dict_vectorizer(learner):
    X, y = problem(1)
    X_test, _ = problem(2, n=40)
    on_dicts = clone(learner).fit(X, y)
    pipeline = make_pipeline(DictVectorizer(), clone(learner)).fit(X, y)
    assert list(pipeline.predict(X_test)) == list(on_dicts.predict(X_test))
    np.testing.assert_allclose(pipeline.decision_function(X_test),
                               on_dicts.decision_function(X_test), rtol=0, atol=1e-9)
    matrix_model = pipeline[-1]
    assert matrix_model.n_features_in_ == len(pipeline[0].feature_names_)
    with pytest.raises(ValueError, match="trained on feature dicts"):
        on_dicts.predict(pipeline[0].transform(X_test))


@pytest.mark.parametrize("learner", DICT_LEARNERS + ARRAY_LEARNERS[:2], ids=repr)
def test_cross_val_score_matches_a_hand_written_loop(learner):
    X, y = problem(3)
    matrix = DictVectorizer().fit_transform(X)
    data = matrix if learner in ARRAY_LEARNERS else X
    scores = cross_val_score(learner, data, y, cv=3)
    by_hand = []
    for train, test in StratifiedKFold(3).split(matrix, y):
        model = clone(learner).fit(matrix[train] if data is matrix else [X[i] for i in train],
                                   [y[i] for i in train])
        held = matrix[test] if data is matrix else [X[i] for i in test]
        by_hand.append(np.mean(np.asarray(model.predict(held)) == np.asarray(y)[test]))
    np.testing.assert_allclose(scores, by_hand)


@pytest.mark.parametrize("learner", [MulticlassAveragedPerceptron(), CSRAveragedPerceptron()],
                         ids=repr)
def test_grid_search_tunes_the_epochs(learner):
    X, y = problem(4)
    data = X if learner in DICT_LEARNERS else DictVectorizer().fit_transform(X)
    search = GridSearchCV(learner, {"epochs": [1, 4], "shuffle": [False, True]}, cv=3)
    search.fit(data, y)
    assert search.best_params_ in search.cv_results_["params"]
    assert search.best_estimator_.epochs == search.best_params_["epochs"]
    assert search.best_score_ == max(search.cv_results_["mean_test_score"])


@pytest.mark.parametrize("learner", [MulticlassAveragedPerceptron(), MulticlassVotedPerceptron()],
                         ids=repr)
def test_nltk_train_prob_classify_and_informative_features(learner):
    X, y = problem(5)
    pairs = list(zip(X, y, strict=True))
    trained = type(learner).train(pairs, epochs=3, seed=2)
    fitted = clone(learner).set_params(epochs=3, seed=2).fit(X, y)
    assert trained.classify_many(X) == fitted.predict(X)
    for x in X[:10]:
        distribution = trained.prob_classify(x)
        probabilities = [distribution.prob(label) for label in trained.labels()]
        assert sum(probabilities) == pytest.approx(1.0)
        assert distribution.max() == trained.classify(x)
    out = io.StringIO()
    with redirect_stdout(out):
        trained.show_most_informative_features(4)
    lines = out.getvalue().splitlines()
    assert lines[0] == "Most Informative Features" and len(lines) == 5
    spread = {f: max(row.values()) - min(row.values()) for f, row in trained.weights().items()}
    assert lines[1].split()[0] == max(spread, key=lambda f: (spread[f], f))


def test_calibration_fits_the_temperature_on_held_out_data():
    X, y = problem(6, n=200)
    dev, y_dev = problem(7, n=100)
    model = MulticlassAveragedPerceptron(epochs=5).fit(X, y)
    scores = model.decision_function(dev)
    gold = np.array([model.classes_.index(label) for label in y_dev])

    def log_loss(temperature):
        return -log_softmax(scores / temperature, axis=1)[np.arange(len(gold)), gold].mean()

    assert model.calibrate(dev, y_dev) is model
    t = model.temperature_
    assert log_loss(t) <= min(log_loss(1.0), log_loss(t * 1.1), log_loss(t / 1.1)) + 1e-9
    expected = softmax(scores[0] / t)
    got = model.prob_classify(dev[0])
    assert [got.prob(label) for label in model.classes_] == pytest.approx(expected.tolist())
    loaded = MulticlassAveragedPerceptron.from_dict(model.to_dict())
    assert loaded.temperature_ == t


@pytest.fixture(scope="module")
def bass():
    return load_bundled("bass")


def test_supervised_wsd_is_grid_searchable_over_its_parts(bass):
    system = SupervisedWSD(Featurizer.preset("bow"), MulticlassAveragedPerceptron(epochs=2))
    assert vars(SupervisedWSD()) == {"featurizer": None, "learner": None, "glosses": None}
    params = system.get_params()
    assert params["learner__epochs"] == 2 and params["featurizer__weighting"] == "binary"
    grid = {"learner__epochs": [1, 3], "featurizer__weighting": ["binary", "tfidf"]}
    search = GridSearchCV(system, grid, cv=3).fit(bass)
    assert len(search.cv_results_["params"]) == 4
    best = search.best_estimator_
    assert best.learner_.epochs == search.best_params_["learner__epochs"]
    assert best.featurizer_.weighting_.kind == search.best_params_["featurizer__weighting"]
    assert system.get_params()["learner__epochs"] == 2  # the template was cloned, not changed
    scores = cross_val_score(clone(system), bass, cv=3)
    assert scores.shape == (3,) and all(0.0 <= s <= 1.0 for s in scores)


def test_supervised_wsd_takes_labels_as_y_and_dev_by_keyword(bass):
    labels = [inst.senses[0] for inst in bass]
    by_y = SupervisedWSD(Featurizer.preset("bow"), MulticlassPerceptron(epochs=2)).fit(bass, labels)
    by_gold = SupervisedWSD(Featurizer.preset("bow"), MulticlassPerceptron(epochs=2)).fit(bass)
    assert by_y.predict(bass) == by_gold.predict(bass)
    assert by_y.score(bass, labels) == by_gold.score(bass)
    flipped = list(reversed(labels))
    assert SupervisedWSD(Featurizer.preset("bow")).fit(bass, flipped).classes_ == sorted(
        set(flipped))
    with pytest.raises(TypeError):
        SupervisedWSD().fit(bass, None, bass)  # dev is keyword-only


@pytest.mark.parametrize("learner", [MulticlassAveragedPerceptron(epochs=3),
                                     MulticlassVotedPerceptron(epochs=3)], ids=repr)
def test_explanations_add_up_to_the_margin(learner):
    X, y = problem(8)
    model = learner.fit(X, y)
    for x in X[:20]:
        scores = model.predict_scores(x)
        best = model.classify(x)
        runner_up = max((s for s in scores if s != best), key=lambda s: scores[s])
        why = explain_margin(model, x, best, runner_up, k=1)
        listed = why.bias + sum(v for _, v in why.support + why.against) + why.rest
        assert listed == pytest.approx(why.margin, abs=1e-9)
        assert why.margin == pytest.approx(why.score - why.runner_up_score, abs=1e-12)
        assert len(why.support) <= 1 and len(why.against) <= 1
        assert all(v > 0 for _, v in why.support) and all(v < 0 for _, v in why.against)
        if isinstance(model, MulticlassAveragedPerceptron):  # a linear learner: its own scores
            assert why.score == pytest.approx(scores[best], abs=1e-9)
            assert why.runner_up_score == pytest.approx(scores[runner_up], abs=1e-9)
            assert why.margin >= 0
        else:
            assert why.basis == "the last weight vector"


def test_disambiguate_prints_a_breakdown_whose_lines_sum_to_the_margin(bass):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = SupervisedWSD(Featurizer.preset("bow"), MulticlassAveragedPerceptron()).fit(bass)
    (record,) = disambiguate(model, ["He caught a huge <<bass>> in the lake"], "bass", top=2)
    text = format_record(record)
    lines = text.splitlines()
    margin = float(lines[2].split()[1])
    addends = [float(line.split()[0]) for line in lines[3:]]
    assert "bias" in lines[3]
    assert sum(addends) == pytest.approx(margin, abs=1e-3 * len(addends))
    assert record["margin"] == pytest.approx(margin, abs=1e-3)
