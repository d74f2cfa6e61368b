"""A supervised WSD system: a Featurizer and a feature-dict learner working as one."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wsd import persistence, provenance
from wsd.evaluation.metrics import accuracy
from wsd.evaluation.splits import instance_labels
from wsd.features import Featurizer
from wsd.instance import Instance
from wsd.learners.multiclass import MulticlassAveragedPerceptron


@dataclass(frozen=True)
class Explanation:
    """Why a sense was chosen: the winner, its margin over the runner-up, the strongest features."""

    sense: str
    margin: float
    runner_up: str | None
    features: list[tuple[str, float]]
    gloss: str | None = None


@persistence.register_model
class SupervisedWSD:
    """Instances in, senses out: ``featurizer`` builds feature dicts, ``learner`` classifies them.

    ``glosses`` (sense -> one-line gloss) travel with the model so a saved model can explain
    its answers without the inventory it was trained with.
    """

    def __init__(
        self,
        featurizer: Featurizer | None = None,
        learner: Any = None,
        glosses: Mapping[str, str] | None = None,
    ) -> None:
        self.featurizer = featurizer if featurizer is not None else Featurizer.preset("full")
        self.learner = learner if learner is not None else MulticlassAveragedPerceptron()
        self.glosses = dict(glosses or {})
        self.lemmas_: list[str] = []
        self.training_: dict[str, Any] | None = None  # provenance.training_record of fit's data

    def fit(
        self, instances: Sequence[Instance], dev: Sequence[Instance] | None = None
    ) -> SupervisedWSD:
        """Fit the weighting and the learner on ``instances`` (``dev`` for early stopping)."""
        if not instances:
            raise ValueError("no training instances")
        labels = instance_labels(instances)
        self.lemmas_ = sorted({inst.lemma for inst in instances})
        self.training_ = provenance.training_record(instances)
        X = self.featurizer.fit_transform(instances)
        if dev:
            self.learner.fit(X, labels, self.featurizer.transform(dev), instance_labels(dev))
        else:
            self.learner.fit(X, labels)
        return self

    @property
    def senses(self) -> list[str]:
        return list(self.learner.classes_)

    def predict(self, instances: Sequence[Instance]) -> list[str]:
        if not instances:
            return []
        provenance.check_targets(self.lemmas_, instances)
        return list(self.learner.predict(self.featurizer.transform(instances)))

    def score(self, instances: Sequence[Instance]) -> float:
        """Accuracy: an answer is right when it is one of the instance's gold senses."""
        return accuracy([inst.senses for inst in instances], self.predict(instances))

    def explain(self, instance: Instance, k: int = 5) -> Explanation:
        """The chosen sense, its score margin and the ``k`` features that pushed hardest for it."""
        (x,) = self.featurizer.transform([instance])
        scores = self.learner.predict_scores(x)
        ranked = sorted(scores, key=lambda s: -scores[s])
        best = self.learner.classify(x)
        others = [s for s in ranked if s != best]
        runner_up = others[0] if others else None
        margin = scores[best] - scores[runner_up] if runner_up is not None else 0.0
        return Explanation(
            sense=best,
            margin=float(margin),
            runner_up=runner_up,
            features=self.learner.explain(x, best, k=k),
            gloss=self.glosses.get(best),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": type(self).__name__,
            "featurizer": self.featurizer.to_dict(),
            "learner": self.learner.to_dict(),
            "glosses": self.glosses,
            "lemmas": self.lemmas_,
            "training": self.training_,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SupervisedWSD:
        glosses = data.get("glosses") or {}
        if not isinstance(glosses, Mapping) or not all(
                isinstance(v, str) for v in glosses.values()):
            raise ValueError("'glosses' must map senses to strings")
        lemmas = data.get("lemmas", [])
        if not isinstance(lemmas, list) or not all(isinstance(v, str) for v in lemmas):
            raise ValueError("'lemmas' must be a list of strings")
        if not isinstance(data.get("featurizer"), Mapping):
            raise ValueError("'featurizer' must be an object")
        model = cls(
            featurizer=Featurizer.from_dict(data["featurizer"]),
            learner=persistence.object_from_dict(data["learner"]),
            glosses=glosses,
        )
        if getattr(model.learner, "classes_", None) is None:
            raise ValueError("the learner has no fitted state; a saved system must be trained")
        model.lemmas_ = lemmas
        model.training_ = provenance.check_record(data.get("training"))
        return model

    def save(self, path: str | Path) -> Path:
        """Write the whole system (features, weighting, weights, glosses) as one JSON file."""
        return persistence.save_model(self, path)

    @classmethod
    def load(cls, path: str | Path) -> SupervisedWSD:
        return persistence.load_model(path, expected=cls)
