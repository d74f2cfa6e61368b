"""Figures behind the bundled corpus's defaults (README, "Bundled corpus"; offline, ~1 minute).

1. 5-fold cross-validated accuracy of the averaged perceptron on every bundled target with the
   small-corpus settings (`small_corpus_settings`: lemmatized bag of words, tf-idf, 10 epochs)
   and with the lexical-sample defaults (`SystemSettings`: "full" features, block tf-idf,
   5 epochs, mean of 5 models), and their means over the targets.
2. How often the small-corpus model's out-of-fold answers are right below and above the
   `UNSURE_MARGIN` that `wsd disambiguate` marks as unsure.

Usage: python benchmarks/bundled_defaults.py [--folds 5] [--seed 0]
"""

from __future__ import annotations

import argparse
from functools import partial

import pandas as pd

from wsd.corpora.bundled import bundled_targets, load_bundled
from wsd.evaluation.splits import instance_labels, stratified_kfold
from wsd.experiments.compare import cross_validated_predictions
from wsd.experiments.disambiguate import UNSURE_MARGIN
from wsd.instance import Instance
from wsd.systems.named import SystemSettings, make_system, small_corpus_settings


def accuracy(settings: SystemSettings, instances: list[Instance], folds: int, seed: int) -> float:
    predictions, _ = cross_validated_predictions(partial(make_system, "averaged", settings),
                                                 instances, folds=folds, seed=seed)
    return sum(p in inst.senses for p, inst in zip(predictions, instances, strict=True)) / len(
        instances)


def margin_outcomes(instances: list[Instance], folds: int, seed: int) -> list[tuple[bool, bool]]:
    """(unsure, right) for every out-of-fold answer of the small-corpus model."""
    outcomes = []
    for train_idx, test_idx in stratified_kfold(instance_labels(instances), k=folds, seed=seed):
        model = make_system("averaged", small_corpus_settings(seed=seed))
        model.fit([instances[i] for i in train_idx])
        for i in test_idx:
            why = model.explain(instances[i])
            outcomes.append((why.margin < UNSURE_MARGIN, why.sense in instances[i].senses))
    return outcomes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    configs = {"small-corpus (default)": small_corpus_settings(seed=args.seed),
               "lexical-sample defaults": SystemSettings(seed=args.seed)}
    rows, outcomes = [], []
    for target in bundled_targets():
        instances = load_bundled(target)
        rows.append({"target": target, "sentences": len(instances), **{
            name: accuracy(s, instances, args.folds, args.seed) for name, s in configs.items()}})
        outcomes += margin_outcomes(instances, args.folds, args.seed)
    table = pd.DataFrame(rows).set_index("target").astype(float)
    table.loc["mean"] = table.mean()
    print(table.round(3).to_string())
    for unsure in (True, False):
        right = [ok for flag, ok in outcomes if flag == unsure]
        label = f"margin {'<' if unsure else '>='} {UNSURE_MARGIN}"
        print(f"{label}: {sum(right)} of {len(right)} right ({sum(right) / len(right):.0%})")


if __name__ == "__main__":
    main()
