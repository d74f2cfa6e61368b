"""Sense vectors from training instances and through a small hand-made WordNet."""

import numpy as np
import pytest

from wsd.instance import Instance
from wsd.systems.allwords.sense_vectors import SenseVectors


class Synset:
    def __init__(self, name, lexname, hypernyms=()):
        self._name, self._lexname, self._hypernyms = name, lexname, list(hypernyms)

    def name(self):
        return self._name

    def lexname(self):
        return self._lexname

    def hypernyms(self):
        return self._hypernyms

    def instance_hypernyms(self):
        return []


class Lemma:
    def __init__(self, synset):
        self._synset = synset

    def synset(self):
        return self._synset


ENTITY = Synset("entity.n.01", "noun.Tops")
VESSEL = Synset("vessel.n.03", "noun.artifact", [ENTITY])
PITCHER = Synset("pitcher.n.02", "noun.artifact", [VESSEL])
JUG = Synset("jug.n.01", "noun.artifact", [VESSEL])
PLAYER = Synset("pitcher.n.01", "noun.person")
HURLER = Synset("hurler.n.09", "noun.person")
TOOL = Synset("tool.n.01", "noun.artifact")


class Wordnet:
    synsets = {s.name(): s for s in (ENTITY, VESSEL, PITCHER, JUG, PLAYER, HURLER, TOOL)}
    keys = {"pitcher%1:06:00::": PITCHER, "pitcher%1:18:00::": PLAYER,
            "vessel%1:06:00::": VESSEL}

    def synset(self, name):
        return self.synsets[name]

    def lemma_for_key(self, key):
        if key not in self.keys:
            raise ValueError(key)
        return Lemma(self.keys[key])


def inst(n, key):
    return Instance(id=f"i{n}", tokens=("a", "pitcher"), span=(1, 2), lemma="pitcher",
                    senses=(key,))


def fitted():
    instances = [inst(0, "pitcher%1:06:00::"), inst(1, "pitcher%1:06:00::"),
                 inst(2, "pitcher%1:18:00::"), inst(3, "vessel%1:06:00::"),
                 inst(4, "unknown%1:01:00::")]
    vectors = np.array([[3, 0, 0], [1, 2, 0], [0, 0, 5], [0, 4, 3], [9, 9, 9]], np.float32)
    return SenseVectors.fit(instances, vectors, Wordnet())


def test_a_seen_synset_gets_the_unit_mean_of_its_instances():
    table = fitted()
    assert table.names == ["pitcher.n.01", "pitcher.n.02", "vessel.n.03"]  # unknown skipped
    assert table.matrix.dtype == np.float16
    # by hand: mean of (3,0,0) and (1,2,0) is (2,1,0), length sqrt(5)
    np.testing.assert_allclose(table.vector("pitcher.n.02") * 5 ** .5, [2, 1, 0], atol=2e-3)
    np.testing.assert_allclose(table.vector("vessel.n.03"), [0, .8, .6], atol=1e-3)


def test_an_unseen_synset_takes_its_nearest_hypernyms_then_its_lexicographer_file():
    table = fitted()
    np.testing.assert_allclose(table.vector("jug.n.01"), [0, .8, .6], atol=1e-3)  # the vessel
    # no hypernym with a vector: the mean of noun.person's seen synsets (the player alone)
    np.testing.assert_allclose(table.vector("hurler.n.09"), [0, 0, 1], atol=1e-3)
    # noun.artifact: the unit mean of the vessel and the pitcher (as stored in float16)
    rows = table.matrix[[1, 2]].astype(np.float64).mean(axis=0)
    np.testing.assert_allclose(table.vector("tool.n.01"), rows / np.linalg.norm(rows),
                               atol=1e-6)
    assert table.vector("entity.n.01") is None  # nothing in noun.Tops, no hypernym


def test_cosines_by_hand():
    table = fitted()
    cos = table.cosines(np.array([0, 3, 4]), ["vessel.n.03", "pitcher.n.01", None])
    np.testing.assert_allclose(cos, [(3 * .8 + 4 * .6) / 5, 4 / 5, 0.0], atol=1e-3)


def test_bad_tables_are_refused():
    with pytest.raises(ValueError, match="2 distinct names"):
        SenseVectors(["a", "b"], np.zeros((3, 2)))
    with pytest.raises(ValueError, match="NaN"):
        SenseVectors(["a"], np.array([[np.nan, 1.0]]))


# ---------------------------------------------------------------- cosines as features (3a)

def hand_sums():
    """Two pitcher senses: the vessel seen twice ((1, 0) and (0, 1)), the player once ((1, 1))."""
    from wsd.systems.allwords.sense_vectors import SenseSums

    train = [inst(0, "pitcher%1:06:00::"), inst(1, "pitcher%1:06:00::"),
             inst(2, "pitcher%1:18:00::")]
    vectors = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], np.float32)
    return SenseSums.fit(train, vectors, Wordnet()), vectors


def test_sense_sums_count_and_sum_each_synset():
    sums, _ = hand_sums()
    assert sums.names == ["pitcher.n.01", "pitcher.n.02"]
    np.testing.assert_array_equal(sums.sums, [[1.0, 1.0], [1.0, 1.0]])
    assert sums.counts.tolist() == [1, 2]


def test_training_cosines_leave_the_instance_out_of_its_own_sense():
    """Worked by hand: (1, 0) against the vessel without itself, (0, 1): cosine 0; against the
    player (1, 1): 1/sqrt(2). The player's only example has no other: 0. A row outside the
    sums (a WordNet example, say) sees the whole means."""
    from wsd.systems.allwords.sense_features import training_cosines

    sums, vectors = hand_sums()
    classes = ["pitcher%1:06:00::", "pitcher%1:18:00::"]
    labels = ["pitcher%1:06:00::", "pitcher%1:06:00::", "pitcher%1:18:00::"]
    found = training_cosines(vectors, [True, True, True], labels, classes, sums)
    half = 1 / np.sqrt(2)
    np.testing.assert_allclose(found, [[0.0, half], [0.0, half], [1.0, 0.0]], atol=1e-12)
    outside = training_cosines(vectors[:1], [False], labels[:1], classes, sums)
    np.testing.assert_allclose(outside, [[half, half]], atol=1e-12)


def test_new_instances_get_the_cosines_of_the_stored_vectors():
    from wsd.systems.allwords.sense_features import features

    sums, _ = hand_sums()
    table = SenseVectors.of_sums(sums)
    found = features(table, np.array([3.0, 0.0]), ["pitcher%1:06:00::", "pitcher%1:18:00::",
                                                   "pitcher%9:99:99::"], 2.0)  # fmt: skip
    # both means are (1, 1)/|.|: cosine 1/sqrt(2), times the weight 2; a key WordNet lacks: 0
    assert found == pytest.approx({"sense:pitcher%1:06:00::": np.sqrt(2),
                                   "sense:pitcher%1:18:00::": np.sqrt(2),
                                   "sense:pitcher%9:99:99::": 0.0}, abs=2e-3)
