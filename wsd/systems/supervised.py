"""A supervised WSD system: a Featurizer and a feature-dict learner working as one."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from wsd import persistence
from wsd.api import ONE_WORD
from wsd.evaluation.metrics import accuracy
from wsd.evaluation.splits import instance_labels
from wsd.features import Featurizer
from wsd.instance import Instance
from wsd.learners.base import EstimatorMixin, check_is_fitted
from wsd.learners.explanation import Explanation, explain_margin
from wsd.learners.multiclass import MulticlassAveragedPerceptron
from wsd.systems import provenance

__all__ = ["Explanation", "SupervisedWSD"]


# What a .npz name meets when a one-word model is saved (load_model reads either by content).
SAVED_AS_JSON = ("a one-word model is saved as JSON; give a path ending in .json (.npz files "
                 "hold all-words models, from `wsd allwords --save`)")


@persistence.register_model
class SupervisedWSD(EstimatorMixin):
    """Instances in, senses out: ``featurizer`` builds feature dicts, ``learner`` classifies them.

    A scikit-learn estimator over instances: the arguments are stored as given (None: the
    "full" feature preset and the averaged perceptron, made by ``fit``), ``get_params`` /
    ``set_params`` reach the parts' parameters as ``featurizer__weighting`` or
    ``learner__epochs``, so ``GridSearchCV(SupervisedWSD(featurizer, learner), grid)`` can tune
    both on a list of instances. Like scikit-learn's Pipeline, ``fit`` trains the given parts
    in place; ``featurizer_`` and ``learner_`` are the fitted parts. ``glosses`` (sense ->
    one-line gloss) travel with the model so a saved model can explain its answers without the
    inventory it was trained with.
    """

    scope = ONE_WORD

    _tags = {"two_d_array": False}

    def __init__(
        self,
        featurizer: Featurizer | None = None,
        learner: Any = None,
        glosses: Mapping[str, str] | None = None,
    ) -> None:
        self.featurizer = featurizer
        self.learner = learner
        self.glosses = glosses

    def fit(
        self,
        instances: Sequence[Instance],
        y: Sequence[str] | None = None,
        *,
        dev: Sequence[Instance] | None = None,
    ) -> SupervisedWSD:
        """Fit the weighting and the learner on ``instances``, labelled with ``y`` or else
        with each instance's first gold sense (``dev`` for the learner's early stopping)."""
        instances = _instances(instances, "fit")
        if not instances:
            raise ValueError("no training instances")
        labels = instance_labels(instances) if y is None else list(y)
        if len(labels) != len(instances):
            raise ValueError(f"{len(instances)} instances but {len(labels)} labels in y")
        self.featurizer_ = self.featurizer if self.featurizer is not None \
            else Featurizer.preset("full")
        self.learner_ = self.learner if self.learner is not None \
            else MulticlassAveragedPerceptron()
        self.lemmas_ = sorted({inst.lemma for inst in instances})
        self.training_ = provenance.training_record(instances)  # what a saved model checks
        X = self.featurizer_.fit_transform(instances)
        if dev:
            self.learner_.fit(X, labels, self.featurizer_.transform(dev), instance_labels(dev))
        else:
            self.learner_.fit(X, labels)
        self.classes_ = list(self.learner_.classes_)
        return self

    @property
    def senses(self) -> list[str]:
        return list(self._fitted_learner().classes_)

    def _fitted_learner(self) -> Any:
        check_is_fitted(self, "learner_")
        return self.learner_

    def predict(self, instances: Sequence[Instance]) -> list[str]:
        learner = self._fitted_learner()
        instances = _instances(instances, "predict")
        if not instances:
            return []
        instances = provenance.check_targets(self.lemmas_, instances)
        return list(learner.predict(self.featurizer_.transform(instances)))

    def score(self, instances: Sequence[Instance], y: Sequence[str] | None = None) -> float:
        """Accuracy: an answer is right when it is one of the instance's gold senses (or,
        given ``y``, when it equals the label in ``y``)."""
        gold = [inst.senses for inst in instances] if y is None else [[label] for label in y]
        return accuracy(gold, self.predict(instances))

    def explain(self, instance: Instance, k: int = 5, cache_vectors: bool = True
                ) -> Explanation:  # fmt: skip
        """The chosen sense, the runner-up and the features for and against it (see
        ``Explanation``): the bias and every feature's share of the margin add up to it.
        ``cache_vectors``: as ``Featurizer.transform``."""
        learner = self._fitted_learner()
        (instance,) = _instances([instance], "explain")
        (instance,) = provenance.check_targets(self.lemmas_, [instance])  # as predict does
        (x,) = self.featurizer_.transform([instance], cache_vectors=cache_vectors)
        scores = learner.predict_scores(x)
        best = learner.classify(x)
        others = sorted((s for s in scores if s != best), key=lambda s: -scores[s])
        runner_up = others[0] if others else None
        return explain_margin(learner, x, best, runner_up, k,
                              gloss=(self.glosses or {}).get(best),
                              blocks=[e.name for e in self.featurizer_.dense_extractors()])

    def to_dict(self) -> dict[str, Any]:
        """The fitted system (its fitted parts)."""
        return {
            "kind": type(self).__name__,
            "featurizer": self.featurizer_.to_dict(),
            "learner": self._fitted_learner().to_dict(),
            "glosses": dict(self.glosses or {}),
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
        model.featurizer_, model.learner_ = model.featurizer, model.learner
        model.lemmas_ = lemmas
        model.classes_ = list(model.learner_.classes_)
        model.training_ = provenance.check_record(data.get("training"))
        return model

    def save(self, path: str | Path) -> Path:
        """Write the whole system (features, weighting, weights, glosses) as one JSON file;
        ValueError for a name ending in .npz, which says the all-words format."""
        if Path(path).suffix.lower() == ".npz":
            raise ValueError(f"{path}: {SAVED_AS_JSON}")
        return persistence.save_model(self, path)

    @classmethod
    def load(cls, path: str | Path) -> SupervisedWSD:
        return persistence.load_model(path, expected=cls)


def _instances(given: Any, method: str) -> list[Instance]:
    """``given`` as a list of instances (a numpy array of them too: scikit-learn's X);
    TypeError naming ``method`` for one instance, text or anything else (which had failed
    deep inside: *'str' object has no attribute 'lemma'*)."""
    example = "Instance.from_text('He caught a <<bass>>.')"
    if isinstance(given, Instance | str | bytes) or given is None:
        what = "one Instance: give [instance]" if isinstance(given, Instance) else \
            f"a {type(given).__name__}: give instances, e.g. [{example}]"
        raise TypeError(f"{method} takes a sequence of Instance objects, not {what}")
    items = list(given)
    bad = next((item for item in items if not isinstance(item, Instance)), None)
    if bad is not None:
        noun = "an instance" if method == "explain" else "instances"
        raise TypeError(f"{method} takes {noun} ({example}), not {type(bad).__name__}")
    return items
