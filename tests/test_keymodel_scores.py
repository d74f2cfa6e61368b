"""Scoring a key's instances together, over a model file's sorted vocabulary: the same rows,
the same sums (bit for bit) as a classifier with its own dict of feature names, and as a
plain loop over the features; the numpy softmax is scipy's."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special

from wsd.features.weighting import make_weighting
from wsd.systems.allwords.keymodel import KeyModel
from wsd.systems.allwords.modelfile import SEPARATOR, StoredKeyModel, Vocabulary
from wsd.systems.allwords.predict import softmax

NAMES = st.text(alphabet="abc=_", min_size=1, max_size=4)


def _stored(model: KeyModel, others: list[str]) -> StoredKeyModel:
    """``model`` as a model file stores it: ids into a vocabulary shared with ``others``."""
    names = sorted({*model.features, *others})
    position = {name: i for i, name in enumerate(names)}
    ids = np.array([position[f] for f in model.features], dtype=np.int32)
    order = np.argsort(ids)
    return StoredKeyModel(model.classes, Vocabulary(SEPARATOR.join(names)), ids[order],
                          model.coef[order], model.intercept, model.weighting)  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(features=st.lists(NAMES, min_size=1, max_size=12, unique=True),
       others=st.lists(NAMES, max_size=12),
       instances=st.lists(st.dictionaries(NAMES, st.floats(0.5, 3.0), max_size=8), min_size=1,
                          max_size=5),
       seed=st.integers(0, 2**16), weighting=st.sampled_from(["binary", "count"]))
def test_stored_key_model_scores_as_its_own_dict_and_a_plain_loop(features, others, instances,
                                                                    seed, weighting):
    rng = np.random.default_rng(seed)
    model = KeyModel(["s1", "s2", "s3"], features, rng.normal(size=(len(features), 3)),
                     rng.normal(size=3), make_weighting(weighting))  # fmt: skip
    stored = _stored(model, others)
    asked = [f for inst in instances for f in inst] + others
    expected_rows = [model.rows.get(f, -1) for f in asked]
    assert stored.row_ids(asked).tolist() == [
        -1 if r < 0 else stored.features.index(model.features[r]) for r in expected_rows]
    dense = [None] * len(instances)
    together = stored.scores_many(instances, dense)
    assert all(np.array_equal(a, b) for a, b in zip(together, model.scores_many(
        instances, dense), strict=True))  # fmt: skip
    for inst, scores in zip(instances, together, strict=True):
        assert np.array_equal(scores, model.scores(inst))
        loop = model.intercept.astype(np.float64)
        for f, v in model.weighting.transform_one(inst).items():
            if f in model.rows:
                loop = loop + v * model.coef[model.rows[f]].astype(np.float64)
        assert np.allclose(scores, loop)


def test_vocabulary_positions_of_known_and_unknown_names():
    vocabulary = Vocabulary(SEPARATOR.join(["a", "bow=bank", "bow=river", "z"]))
    asked = ["bow=river", "bow=rive", "a", "zz", "", "bow=river"]
    assert vocabulary.ids(asked).tolist() == [2, -1, 0, -1, -1, 2]
    assert Vocabulary("").ids(["a"]).tolist() == [-1]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(-50, 50), min_size=1, max_size=9))
def test_softmax_is_scipys_bit_for_bit(values):
    scores = np.array(values)
    assert np.array_equal(softmax(scores), special.softmax(scores))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**16), n=st.integers(1, 1200))
def test_scores_of_more_instances_than_one_gathering_are_those_of_one_at_a_time(seed, n):
    rng = np.random.default_rng(seed)
    features = [f"f{i}" for i in range(20)]
    model = KeyModel(["s1", "s2"], features, rng.normal(size=(20, 2)), rng.normal(size=2),
                     make_weighting("count"))  # fmt: skip
    stored = _stored(model, ["g1", "g2"])
    names = [*features, "g1", "unseen"]
    instances = [{names[j]: float(rng.integers(1, 4)) for j in rng.choice(22, rng.integers(0, 6))}
                 for _ in range(n)]  # fmt: skip
    together = stored.scores_many(instances, [None] * n)
    assert len(together) == n
    assert all(np.array_equal(a, stored.scores(inst)) for a, inst in zip(together, instances,
                                                                          strict=True))


@settings(max_examples=60, deadline=None)
@given(vocabulary=st.lists(NAMES, max_size=15, unique=True), asked=st.lists(NAMES, max_size=20))
def test_vocabulary_ids_are_the_sorted_positions_asked_again_or_not(vocabulary, asked):
    names = sorted(vocabulary)
    table = Vocabulary(SEPARATOR.join(names)) if names else Vocabulary("")
    expected = [names.index(a) if a in names else -1 for a in asked]
    assert table.ids(asked).tolist() == expected
    assert table.ids(asked[::-1]).tolist() == expected[::-1]  # now from the names kept


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.floats(-50, 50), min_size=3, max_size=3), min_size=1, max_size=6))
def test_softmax_of_a_matrix_is_that_of_each_row_bit_for_bit(rows):
    matrix = np.array(rows)
    assert all(np.array_equal(a, softmax(row)) for a, row in zip(softmax(matrix), matrix,
                                                                 strict=True))
