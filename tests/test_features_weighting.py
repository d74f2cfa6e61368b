"""Hand-worked tf-idf and PPMI on a 3-instance toy corpus, serialisation and no-leakage proofs."""

import json
import math
import random

import numpy as np
import pytest

from wsd.features import PPMI, Binary, Count, TfIdf, Weighting, make_weighting

# The toy training corpus, as counts (instances x features):
#        a  b  c  d   row sum
#   A1   2  1  .  .   3
#   A2   1  .  1  .   2
#   A3   .  1  1  1   3
#   col  3  2  2  1   T = 8      document frequency: a 2, b 2, c 2, d 1 (N = 3)
TRAIN = [{"a": 2.0, "b": 1.0}, {"a": 1.0, "c": 1.0}, {"b": 1.0, "c": 1.0, "d": 1.0}]


def test_binary_and_count():
    assert Binary().fit_transform(TRAIN)[0] == {"a": 1.0, "b": 1.0}
    assert Count().fit_transform(TRAIN)[0] == {"a": 2.0, "b": 1.0}
    assert Binary().transform([{"x": 3.0, "y": 0.0}]) == [{"x": 1.0}]


def test_tfidf_by_hand():
    # idf = ln((1 + N) / (1 + df)) + 1:  a, b, c: ln(4/3) + 1 = 1.28768;  d: ln(4/2) + 1 = 1.69315
    idf_abc, idf_d = math.log(4 / 3) + 1, math.log(2) + 1
    raw = TfIdf(norm=None).fit(TRAIN)
    assert raw.idf_ == pytest.approx({"a": idf_abc, "b": idf_abc, "c": idf_abc, "d": idf_d})
    # A1 unnormalised: a = 2 * 1.28768 = 2.57536, b = 1.28768
    assert raw.transform([TRAIN[0]])[0] == pytest.approx({"a": 2.57536, "b": 1.28768}, abs=1e-5)
    # l2: A1 = (2, 1) * idf_abc / (idf_abc * sqrt(5)) = (0.89443, 0.44721)
    # A3 = (1.28768, 1.28768, 1.69315) / sqrt(2 * 1.28768^2 + 1.69315^2) = / 2.48657
    #    = (0.51785, 0.51785, 0.68092)
    l2 = TfIdf().fit_transform(TRAIN)
    assert l2[0] == pytest.approx({"a": 0.89443, "b": 0.44721}, abs=1e-5)
    assert l2[2] == pytest.approx({"b": 0.51785, "c": 0.51785, "d": 0.68092}, abs=1e-5)
    # A feature never seen in training has df = 0: idf = ln(4) + 1 = 2.38629
    assert raw.transform([{"z": 1.0}])[0] == pytest.approx({"z": 2.38629}, abs=1e-5)


def test_tfidf_matches_scikit_learn_on_training_data():
    sklearn = pytest.importorskip("sklearn.feature_extraction")
    text = pytest.importorskip("sklearn.feature_extraction.text")
    rng = random.Random(3)
    dicts = [
        {f"f{rng.randrange(30)}": float(rng.randint(1, 3)) for _ in range(rng.randint(1, 8))}
        for _ in range(50)
    ]
    vectorizer = sklearn.DictVectorizer()
    expected = text.TfidfTransformer().fit_transform(vectorizer.fit_transform(dicts)).toarray()
    ours = TfIdf().fit_transform(dicts)
    names = vectorizer.get_feature_names_out()
    got = np.array([[row.get(f, 0.0) for f in names] for row in ours])
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-15)


def test_ppmi_by_hand():
    # ppmi(i, f) = max(0, ln(C[i,f] * T / (rowsum_i * colsum_f))), T = 8
    #   A1: a ln(2*8/(3*3)) = ln(16/9) = 0.57536   b ln(8/(3*2)) = ln(4/3) = 0.28768
    #   A2: a ln(8/(2*3)) = 0.28768                c ln(8/(2*2)) = ln 2 = 0.69315
    #   A3: b ln(8/(3*2)) = 0.28768   c 0.28768    d ln(8/(3*1)) = 0.98083
    rows = PPMI().fit_transform(TRAIN)
    assert rows[0] == pytest.approx({"a": 0.57536, "b": 0.28768}, abs=1e-5)
    assert rows[1] == pytest.approx({"a": 0.28768, "c": 0.69315}, abs=1e-5)
    assert rows[2] == pytest.approx({"b": 0.28768, "c": 0.28768, "d": 0.98083}, abs=1e-5)
    # New row {a, b, c, d: 1, z: 5}: z unseen in training -> dropped, rowsum 4.
    #   a ln(1*8/(4*3)) = ln(2/3) < 0 -> 0;  b, c ln(8/(4*2)) = 0 -> 0;  d ln(8/(4*1)) = ln 2
    new = {"a": 1.0, "b": 1.0, "c": 1.0, "d": 1.0, "z": 5.0}
    assert PPMI().fit(TRAIN).transform([new]) == [pytest.approx({"d": math.log(2)})]


def test_ppmi_matches_a_dense_reimplementation():
    rng = np.random.default_rng(0)
    counts = rng.integers(0, 3, size=(20, 12)).astype(float)
    counts[counts.sum(axis=1) == 0, 0] = 1.0
    dicts = [{f"f{j}": v for j, v in enumerate(row) if v} for row in counts]
    total = counts.sum()
    with np.errstate(divide="ignore"):
        pmi = np.log(counts * total / np.outer(counts.sum(axis=1), counts.sum(axis=0)))
    expected = np.maximum(pmi, 0.0)
    got = PPMI().fit_transform(dicts)
    dense = np.array([[row.get(f"f{j}", 0.0) for j in range(12)] for row in got])
    np.testing.assert_allclose(dense, expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("kind", ["binary", "count", "tfidf", "ppmi"])
def test_no_test_data_leaks_into_fitting(kind):
    rng = random.Random(7)

    def corpus(n):
        return [
            {f"f{rng.randrange(40)}": float(rng.randint(1, 3)) for _ in range(rng.randint(1, 6))}
            for _ in range(n)
        ]

    train, test, other_test = corpus(30), corpus(10), corpus(10)
    fitted = make_weighting(kind).fit(train)
    state = json.dumps(fitted.to_dict(), sort_keys=True)
    first = fitted.transform(test)
    # Fitted state depends on the training data only, and transforming does not change it.
    assert json.dumps(fitted.to_dict(), sort_keys=True) == state
    refit = make_weighting(kind).fit(train)
    refit.transform(other_test)
    assert json.dumps(refit.to_dict(), sort_keys=True) == state
    # A test row's weights do not depend on the other test rows.
    mixed = fitted.transform([test[0], *other_test])
    assert mixed[0] == first[0]
    assert fitted.transform([test[3]])[0] == first[3]


@pytest.mark.parametrize("kind", ["binary", "count", "tfidf", "ppmi"])
def test_json_round_trip_gives_identical_weights(kind):
    fitted = make_weighting(kind).fit(TRAIN)
    loaded = Weighting.from_dict(json.loads(json.dumps(fitted.to_dict())))
    assert type(loaded) is type(fitted)
    new = [{"a": 1.0, "d": 2.0, "z": 1.0}, *TRAIN]
    assert loaded.transform(new) == fitted.transform(new)


def test_weighting_errors():
    with pytest.raises(ValueError, match="not fitted"):
        TfIdf().transform(TRAIN)
    with pytest.raises(ValueError, match="not fitted"):
        PPMI().to_dict()
    with pytest.raises(ValueError, match="unknown weighting 'bm25'"):
        make_weighting("bm25")
    with pytest.raises(ValueError, match="norm"):
        TfIdf(norm="l1")
    with pytest.raises(ValueError, match="not a wsd.weighting"):
        Weighting.from_dict({"format": "other", "version": 1, "kind": "binary"})
