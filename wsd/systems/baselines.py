"""Baseline systems over instances: most frequent sense, WordNet first sense, random sense.

They share the instance-level interface of every WSD system in the toolkit:
``fit(instances) -> self``, ``predict(instances) -> list[str | None]`` (None = no answer)
and ``score(instances)`` (the share of instances whose answer is one of their gold senses).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Sequence

import numpy as np

from wsd.instance import Instance
from wsd.knowledge.inventory import SenseInventory, WordNetInventory
from wsd.resources import MissingResourceError

Answer = str | None


def accuracy_on(system, instances: Sequence[Instance]) -> float:
    """Share of ``instances`` that ``system`` answers with one of their gold senses."""
    if not instances:
        raise ValueError("score() needs at least one instance")
    answers = system.predict(instances)
    pairs = zip(answers, instances, strict=True)
    correct = sum(a is not None and a in inst.senses for a, inst in pairs)
    return correct / len(instances)


class InstanceSystem:
    """The shared part of instance-level systems: ``predict`` by one ``answer`` per
    instance (systems that answer in bulk override it) and ``score``."""

    def answer(self, inst: Instance) -> Answer:
        raise NotImplementedError

    def predict(self, instances: Sequence[Instance]) -> list[Answer]:
        return [self.answer(inst) for inst in instances]

    def score(self, instances: Sequence[Instance]) -> float:
        return accuracy_on(self, instances)


class InventorySystem(InstanceSystem):
    """An instance-level system that reads a sense inventory (WordNet unless one is given,
    loaded on first use)."""

    inventory: SenseInventory | None

    def _inventory(self) -> SenseInventory:
        if self.inventory is None:
            self.inventory = WordNetInventory()
        return self.inventory


class WordNetFirstSense(InventorySystem):
    """Answer the first sense the inventory lists (for WordNet: the most frequent one).

    With WordNet the answer is the sense key of the lemma in its first synset for the
    instance's ``target_pos`` (every POS when that is None), e.g. ``'bank%1:17:01::'``.
    Lemmas the inventory does not know get None. Nothing is learned: ``fit`` is a no-op.
    """

    def __init__(self, inventory: SenseInventory | None = None) -> None:
        self.inventory = inventory

    def fit(self, instances: Sequence[Instance] = ()) -> WordNetFirstSense:
        return self

    def answer(self, inst: Instance) -> Answer:
        senses = self._inventory().senses(inst.lemma, inst.target_pos)
        return senses[0].id if senses else None


class MostFrequentSense(InstanceSystem):
    """The sense seen most often in training with the instance's key (``lemma#pos`` or lemma).

    Training counts ``inst.senses[0]`` per ``inst.key``; a tie goes to the
    lexicographically smallest sense. For keys never seen in training, ``fallback``
    decides: ``"first_sense"`` (default) answers the WordNet first sense when the
    instance has a ``target_pos`` and WordNet is installed, else None; ``"none"``
    answers None; any object with ``predict(instances)`` (another system) or a
    callable ``Instance -> str | None`` answers instead.
    """

    def __init__(self, fallback: str | Callable[[Instance], Answer] | object = "first_sense"):
        self.fallback = fallback

    def fit(self, instances: Sequence[Instance]) -> MostFrequentSense:
        counts: dict[str, Counter] = defaultdict(Counter)
        for inst in instances:
            if inst.senses:
                counts[inst.key][inst.senses[0]] += 1
        self.counts_ = dict(counts)
        self.best_ = {
            key: min(c.items(), key=lambda item: (-item[1], item[0]))[0]
            for key, c in counts.items()
        }
        self._fallback_system = self._make_fallback()
        return self

    def _make_fallback(self):
        if self.fallback == "none":
            return None
        if self.fallback == "first_sense":
            try:
                return WordNetFirstSense(WordNetInventory())
            except MissingResourceError:
                return None
        if hasattr(self.fallback, "predict") or callable(self.fallback):
            return self.fallback
        raise ValueError(
            f"fallback must be 'first_sense', 'none', a system with predict() or a "
            f"callable, not {self.fallback!r}"
        )

    def predict(self, instances: Sequence[Instance]) -> list[Answer]:
        if not hasattr(self, "best_"):
            raise ValueError("MostFrequentSense is not fitted: call fit(training instances)")
        answers: list[Answer] = [self.best_.get(inst.key) for inst in instances]
        unseen = [i for i, a in enumerate(answers) if a is None]
        backup = self._fallback_system
        if unseen and backup is not None:
            if isinstance(backup, WordNetFirstSense):
                unseen = [i for i in unseen if instances[i].target_pos]
            missing = [instances[i] for i in unseen]
            if hasattr(backup, "predict"):
                filled = backup.predict(missing)
            else:
                filled = [backup(inst) for inst in missing]
            for i, answer in zip(unseen, filled, strict=True):
                answers[i] = answer
        return answers


class RandomSense(InventorySystem):
    """A uniformly random sense: among those seen in training for the key, else among the
    inventory's senses (WordNet unless ``inventory`` is given); None when neither has any.

    ``predict`` starts a fresh ``numpy.random.default_rng(seed)`` each call, so the same
    seed gives the same answers for the same instances.
    """

    def __init__(self, seed: int | None = 0, inventory: SenseInventory | None = None) -> None:
        self.seed = seed
        self.inventory = inventory

    def fit(self, instances: Sequence[Instance] = ()) -> RandomSense:
        seen: dict[str, set[str]] = defaultdict(set)
        for inst in instances:
            if inst.senses:
                seen[inst.key].add(inst.senses[0])
        self.senses_ = {key: sorted(senses) for key, senses in seen.items()}
        return self

    def _candidates(self, inst: Instance) -> list[str]:
        trained = getattr(self, "senses_", {}).get(inst.key)
        if trained:
            return trained
        return [s.id for s in self._inventory().senses(inst.lemma, inst.target_pos)]

    def predict(self, instances: Sequence[Instance]) -> list[Answer]:
        rng = np.random.default_rng(self.seed)
        answers: list[Answer] = []
        for inst in instances:
            candidates = self._candidates(inst)
            answers.append(candidates[rng.integers(len(candidates))] if candidates else None)
        return answers
