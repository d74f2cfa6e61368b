"""Learning curves: nested stratified training sets, one fresh system per size."""

from collections import Counter

import pytest

from wsd.evaluation.learning_curve import learning_curve
from wsd.instance import Instance


class _Recorder:
    """Remembers its training set; answers with the sense of the context word it saw most with."""

    def __init__(self, log=None):
        self.log = [] if log is None else log

    def fit(self, instances):
        self.log.append([inst.id for inst in instances])
        self.by_cue = {}
        for inst in instances:
            self.by_cue.setdefault(inst.tokens[0], Counter())[inst.sense] += 1
        return self

    def predict(self, instances):
        return [
            self.by_cue[inst.tokens[0]].most_common(1)[0][0] if inst.tokens[0] in self.by_cue
            else None
            for inst in instances
        ]


def _data():
    items = []
    for i in range(100):
        sense, cue = ("fish", "river") if i % 4 else ("music", "guitar")
        items.append(Instance(id=f"i{i}", tokens=(cue, "bass"), span=(1, 2), lemma="bass",
                              senses=(sense,)))
    return items


def test_nested_stratified_training_sets():
    log = []
    curve = learning_curve(lambda: _Recorder(log), _data(), sizes=[4, 0.5, 1.0], seed=1, test=0.2)
    assert curve["size"].tolist() == [4, 40, 80]
    first, half, full = (set(ids) for ids in log)
    assert first < half < full and len(full) == 80
    senses = Counter("music" if int(i[1:]) % 4 == 0 else "fish" for i in log[1])
    assert senses == {"fish": 30, "music": 10}
    assert curve["train_accuracy"].tolist() == [1.0, 1.0, 1.0]
    assert curve["test_accuracy"].iloc[-1] == 1.0


def test_explicit_test_set_and_unseen_cues():
    data = _data()
    held_out = [Instance(id="new", tokens=("lake", "bass"), span=(1, 2), lemma="bass",
                         senses=("fish",))]
    curve = learning_curve(_Recorder, data, sizes=[10], test=held_out)
    assert curve.loc[0, "test_accuracy"] == 0.0  # unseen cue -> no answer -> wrong


def test_bad_sizes():
    with pytest.raises(ValueError, match="training size 0"):
        learning_curve(_Recorder, _data(), sizes=[0])
    with pytest.raises(ValueError, match="of 80 training instances"):
        learning_curve(_Recorder, _data(), sizes=[81])
    with pytest.raises(ValueError, match="no test instances"):
        learning_curve(_Recorder, _data(), sizes=[5], test=[])
