"""Explanations that add up: a linear learner's margin split into its bias and features."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Explanation:
    """Why ``sense`` was chosen over ``runner_up``, in numbers that add up.

    ``score`` and ``runner_up_score`` are the two senses' scores under ``basis`` (the learner's
    own scores, or for the voted perceptron those of its last weight vector); ``margin`` is
    their difference. It splits into ``bias`` (the difference of the two biases), one term per
    feature, x_f * (w_f,sense - w_f,runner_up): ``support`` lists the largest positive terms
    (features for the sense), ``against`` the most negative ones (features for the runner-up),
    and ``rest`` sums the ``n_rest`` terms not listed, so that
    ``margin == bias + sum(support) + sum(against) + rest`` up to float rounding. Without a
    runner-up (one sense) the margin is the sense's own score and the terms are its own.
    """

    sense: Hashable
    runner_up: Hashable | None
    score: float
    runner_up_score: float | None
    margin: float
    bias: float
    support: list[tuple[str, float]]
    against: list[tuple[str, float]]
    rest: float
    n_rest: int
    gloss: str | None = None
    basis: str = "the scores"

    @property
    def features(self) -> list[tuple[str, float]]:
        """The features that pushed hardest for the sense (``support``)."""
        return self.support

    def lines(self) -> list[str]:
        """The breakdown as text, one addend a line: the listed numbers sum to the margin."""
        if self.runner_up is None:
            head = f"score {self.score:+.3f} ({self.basis}) ="
        else:
            head = (f"margin {self.margin:+.3f} over {self.runner_up} ({self.basis}: "
                    f"{self.score:+.3f} vs {self.runner_up_score:+.3f}) =")
        lines = [head, f"  {self.bias:+.3f}  bias"]
        lines += [f"  {value:+.3f}  {name}" for name, value in self.support]
        lines += [f"  {value:+.3f}  {name}  (against)" for name, value in self.against]
        if self.n_rest:
            lines.append(f"  {self.rest:+.3f}  {self.n_rest} other features")
        return lines


def explain_margin(learner: Any, x: Mapping[str, float], sense: Hashable,
                   runner_up: Hashable | None, k: int = 5,
                   gloss: str | None = None, blocks: Sequence[str] = ()) -> Explanation:
    """The ``Explanation`` of ``sense`` against ``runner_up`` for the feature dict ``x``, with
    the ``k`` strongest features each way; ``learner`` needs ``score_terms(x, label)``. The
    terms of each dense block in ``blocks`` (features ``<block>:<dimension>``, such as the
    contextual vector) count as one term ``<block> vector``: its dimensions mean nothing alone."""
    bias, terms = learner.score_terms(x, sense)
    score = bias + sum(value for _, value in terms)
    runner_up_score = None
    if runner_up is not None:
        other_bias, other_terms = learner.score_terms(x, runner_up)
        runner_up_score = other_bias + sum(value for _, value in other_terms)
        against_runner = dict(other_terms)
        terms = [(name, value - against_runner.get(name, 0.0)) for name, value in terms]
        bias -= other_bias
    terms = [(name, value) for name, value in _merge_blocks(terms, blocks) if value != 0.0]
    support = sorted((t for t in terms if t[1] > 0), key=lambda t: (-t[1], t[0]))[:k]
    against = sorted((t for t in terms if t[1] < 0), key=lambda t: (t[1], t[0]))[:k]
    listed = {name for name, _ in support + against}
    rest = [value for name, value in terms if name not in listed]
    margin = score if runner_up_score is None else score - runner_up_score
    return Explanation(sense=sense, runner_up=runner_up, score=score,
                       runner_up_score=runner_up_score, margin=margin, bias=bias,
                       support=support, against=against, rest=sum(rest), n_rest=len(rest),
                       gloss=gloss, basis=getattr(learner, "explained_scores", "the scores"))


def _merge_blocks(terms: list[tuple[str, float]],
                  blocks: Sequence[str]) -> list[tuple[str, float]]:
    """``terms`` with those of each dense block summed into one ``<block> vector`` term."""
    if not blocks:
        return terms
    prefixes = tuple(f"{block}:" for block in blocks)
    merged: dict[str, float] = {}
    kept = []
    for name, value in terms:
        if name.startswith(prefixes):
            block = f"{name.split(':', 1)[0]} vector"
            merged[block] = merged.get(block, 0.0) + value
        else:
            kept.append((name, value))
    return kept + list(merged.items())
