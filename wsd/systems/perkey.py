"""One system per target word: how a lexical-sample learner handles a corpus of many words."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

from wsd.instance import Instance
from wsd.systems.baselines import InstanceSystem, MostFrequentSense


class PerKeyWSD(InstanceSystem):
    """Train ``make_system()`` separately for every instance key (``lemma#pos``, or lemma).

    A classifier only ever chooses among the senses of its own word. Keys seen with a single
    sense answer it; keys never seen in training get ``fallback``'s answer (by default the
    WordNet first sense when the instance has a POS and WordNet is installed, else None).
    """

    def __init__(self, make_system: Callable[[], Any], fallback: Any = "first_sense") -> None:
        self.make_system = make_system
        self.fallback = fallback

    def fit(self, instances: Sequence[Instance]) -> PerKeyWSD:
        if not instances:
            raise ValueError("no training instances")
        self.backoff_ = MostFrequentSense(fallback=self.fallback).fit(instances)
        groups: dict[str, list[Instance]] = defaultdict(list)
        for inst in instances:
            if inst.senses:
                groups[inst.key].append(inst)
        self.systems_ = {
            key: self.make_system().fit(group)
            for key, group in groups.items()
            if len({inst.senses[0] for inst in group}) > 1
        }
        return self

    def predict(self, instances: Sequence[Instance]) -> list[str | None]:
        if not hasattr(self, "systems_"):
            raise ValueError("PerKeyWSD is not fitted: call fit(training instances)")
        answers = self.backoff_.predict(instances)
        positions: dict[str, list[int]] = defaultdict(list)
        for i, inst in enumerate(instances):
            if inst.key in self.systems_:
                positions[inst.key].append(i)
        for key, indices in positions.items():
            predicted = self.systems_[key].predict([instances[i] for i in indices])
            for i, answer in zip(indices, predicted, strict=True):
                answers[i] = answer
        return answers
