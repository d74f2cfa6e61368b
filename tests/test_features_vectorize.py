"""FeatureVectorizer: sorted vocabulary, pruning, unknown features, exact round trips."""

import json
import random

import numpy as np
import pytest

from wsd.features import FeatureVectorizer

DICTS = [{"bow=fish": 1.0, "w-1=the": 1.0}, {"bow=guitar": 2.0, "w-1=the": 1.0}, {"bow=fish": 3.0}]


def test_vocabulary_is_alphabetical_and_independent_of_data_order():
    vec = FeatureVectorizer().fit(DICTS)
    assert vec.feature_names_ == ["bow=fish", "bow=guitar", "w-1=the"]
    assert vec.vocabulary_ == {"bow=fish": 0, "bow=guitar": 1, "w-1=the": 2}
    assert FeatureVectorizer().fit(DICTS[::-1]).feature_names_ == vec.feature_names_
    np.testing.assert_array_equal(
        vec.transform(DICTS).toarray(), [[1.0, 0.0, 1.0], [0.0, 2.0, 1.0], [3.0, 0.0, 0.0]]
    )


def test_min_count_prunes_rare_features_and_unknown_features_are_dropped():
    vec = FeatureVectorizer(min_count=2).fit(DICTS)  # guitar occurs in one dict only
    assert vec.feature_names_ == ["bow=fish", "w-1=the"]
    matrix = vec.transform([{"bow=guitar": 1.0, "bow=fish": 2.0, "unseen": 5.0}])
    assert matrix.shape == (1, 2)
    np.testing.assert_array_equal(matrix.toarray(), [[2.0, 0.0]])
    with pytest.raises(ValueError, match="min_count"):
        FeatureVectorizer(min_count=0).fit(DICTS)


def test_round_trip_dict_csr_dict_is_exact():
    rng = random.Random(11)
    dicts = [
        {f"feat{rng.randrange(200)}": rng.uniform(-5, 5) for _ in range(rng.randint(0, 15))}
        for _ in range(300)
    ]
    vec = FeatureVectorizer()
    matrix = vec.fit_transform(dicts)
    assert matrix.format == "csr" and matrix.dtype == np.float64 and matrix.has_sorted_indices
    assert vec.inverse_transform(matrix) == dicts


def test_matches_scikit_learn_dict_vectorizer():
    feature_extraction = pytest.importorskip("sklearn.feature_extraction")
    expected = feature_extraction.DictVectorizer().fit(DICTS)
    vec = FeatureVectorizer().fit(DICTS)
    assert vec.feature_names_ == list(expected.get_feature_names_out())
    np.testing.assert_array_equal(
        vec.transform(DICTS).toarray(), expected.transform(DICTS).toarray()
    )


def test_json_round_trip_and_dtype():
    vec = FeatureVectorizer(min_count=1, dtype=np.float32).fit(DICTS)
    loaded = FeatureVectorizer.from_dict(json.loads(json.dumps(vec.to_dict())))
    assert loaded.feature_names_ == vec.feature_names_ and loaded.min_count == 1
    matrix = loaded.transform(DICTS)
    assert matrix.dtype == np.float32
    assert (matrix != vec.transform(DICTS)).nnz == 0


def test_errors_before_fit_and_for_foreign_records():
    with pytest.raises(ValueError, match="not fitted"):
        FeatureVectorizer().transform(DICTS)
    with pytest.raises(ValueError, match="not a wsd.vectorizer"):
        FeatureVectorizer.from_dict({"format": "wsd.weighting", "version": 1})


def test_empty_rows_and_empty_input():
    vec = FeatureVectorizer().fit(DICTS)
    assert vec.transform([]).shape == (0, 3)
    assert vec.inverse_transform(vec.transform([{}, {"bow=fish": 1.0}])) == [{}, {"bow=fish": 1.0}]
