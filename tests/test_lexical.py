"""The lexical-sample configuration: block tf-idf weighting, the chosen featurizer and systems."""

import math

import pytest

from wsd.evaluation.splits import instance_labels, split_instances, stratified_order
from wsd.features import Featurizer, Weighting
from wsd.features.weighting import BlockTfIdf
from wsd.instance import Instance
from wsd.resources import has_nltk_resource
from wsd.systems.lexical import LinearSVMOnDicts, best_featurizer, best_system
from wsd.systems.named import make_system

TRAIN = [
    {"bow=fish": 2.0, "bow=river": 1.0, "w-1=the": 1.0},
    {"bow=fish": 1.0, "w-1=a": 1.0, "coll(1,1)=player": 1.0},
]


def idf(df: int, n: int = 2) -> float:
    return math.log((1 + n) / (1 + df)) + 1.0


def test_block_tfidf_hand_worked_row():
    weighting = BlockTfIdf(bow_weight=0.5).fit(TRAIN)
    row = weighting.transform(
        [{"bow=fish": 3.0, "bow=river": 1.0, "w-1=the": 1.0, "w+1=new": 1.0}]
    )[0]
    # Counts become presence; bow block (idf 1, idf(1)) and local block (idf(1), unseen) apart.
    bow_length = math.hypot(idf(2), idf(1))
    local_length = math.hypot(idf(1), idf(0))
    assert row["bow=fish"] == pytest.approx(0.5 * idf(2) / bow_length)
    assert row["bow=river"] == pytest.approx(0.5 * idf(1) / bow_length)
    assert row["w-1=the"] == pytest.approx(idf(1) / local_length)
    assert row["w+1=new"] == pytest.approx(idf(0) / local_length)


def test_block_tfidf_block_lengths_and_empty_blocks():
    weighting = BlockTfIdf(bow_weight=0.85).fit(TRAIN)
    only_local, both, empty = weighting.transform([{"w-1=a": 1.0}, TRAIN[0], {}])
    assert only_local == {"w-1=a": pytest.approx(1.0)}
    bow = math.sqrt(sum(v * v for f, v in both.items() if f.startswith("bow=")))
    local = math.sqrt(sum(v * v for f, v in both.items() if not f.startswith("bow=")))
    assert (bow, local) == (pytest.approx(0.85), pytest.approx(1.0))
    assert empty == {}


def test_block_tfidf_round_trip_and_errors():
    weighting = BlockTfIdf(bow_weight=0.7, prefix="bow=").fit(TRAIN)
    copy = Weighting.from_dict(weighting.to_dict())
    assert isinstance(copy, BlockTfIdf) and copy.bow_weight == 0.7
    assert copy.transform(TRAIN) == weighting.transform(TRAIN)
    with pytest.raises(ValueError, match="not fitted"):
        BlockTfIdf().transform(TRAIN)
    for bad in (0, -1.0, True, "1"):
        with pytest.raises(ValueError, match="bow_weight"):
            BlockTfIdf(bow_weight=bad)


def test_best_system_rejects_unknown_learner():
    with pytest.raises(ValueError, match="unknown learner"):
        best_system("forest")


def test_linear_svm_peer_learns_separable_dicts():
    pytest.importorskip("sklearn")
    X = [{"a": 1.0}, {"a": 1.0, "c": 1.0}, {"b": 1.0}, {"b": 1.0, "c": 1.0}]
    y = ["A", "A", "B", "B"]
    model = LinearSVMOnDicts().fit(X, y)
    assert model.classes_ == ["A", "B"]
    assert model.predict([{"a": 1.0}, {"b": 1.0, "z": 1.0}]) == ["A", "B"]


needs_senseval = pytest.mark.skipif(
    not (has_nltk_resource("senseval") and has_nltk_resource("wordnet")),
    reason="needs the NLTK senseval and wordnet data",
)


@needs_senseval
def test_best_featurizer_round_trips_with_its_weighting():
    from wsd.corpora.senseval import load_senseval

    instances = load_senseval("interest")[:40]
    featurizer = best_featurizer().fit(instances)
    copy = Featurizer.from_dict(featurizer.to_dict())
    assert copy.transform(instances) == featurizer.transform(instances)
    row = featurizer.transform(instances[:1])[0]
    assert any(f.startswith("bow=") for f in row) and "coll(-1,1)=" in " ".join(row)


@needs_senseval
def test_best_averaged_perceptron_beats_mfs_on_a_subsample():
    from wsd.corpora.senseval import load_senseval

    instances = load_senseval("interest")
    order = stratified_order(instance_labels(instances), seed=0)
    sample = [instances[i] for i in sorted(order[:500])]
    train, _, test = split_instances(sample, dev=0.0, test=0.3, seed=0)
    mfs = make_system("mfs").fit(train).score(test)
    averaged = best_system("averaged").fit(train).score(test)
    assert averaged > mfs + 0.15


def test_best_system_on_handmade_instances():
    if not has_nltk_resource("wordnet"):
        pytest.skip("needs the NLTK wordnet data")
    fish = [
        Instance.from_text(f"he caught a <<bass>> in the river {i}", senses=("fish",))
        for i in range(6)
    ]
    music = [
        Instance.from_text(f"she played the <<bass>> on stage {i}", senses=("music",))
        for i in range(6)
    ]
    system = best_system("averaged").fit(fish + music)
    probe = [
        Instance.from_text("a <<bass>> from the river"),
        Instance.from_text("he played the <<bass>> loudly"),
    ]
    assert system.predict(probe) == ["fish", "music"]
