"""Compare WSD systems on one corpus with the same folds: one table, with uncertainty."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
import pandas as pd
from tqdm import tqdm

from wsd.corpora.resolve import load_corpus
from wsd.evaluation.metrics import accuracy, precision_recall_fscore
from wsd.evaluation.significance import bootstrap_ci, mcnemar, pairwise_mcnemar
from wsd.evaluation.splits import instance_labels, split_instances, stratified_kfold
from wsd.experiments.report import format_comparison, table_paths, write_comparison
from wsd.instance import Instance
from wsd.knowledge.inventory import BundledInventory, WordNetInventory
from wsd.requests import CommandNote, CompareRequest, check_folds
from wsd.resources import has_nltk_resource
from wsd.systems.named import KNOWLEDGE, SUPERVISED, SYSTEM_NAMES, make_system, settings_for
from wsd.systems.perkey import PerKeyWSD


def cross_validated_predictions(
    make_system: Callable[[], Any],
    instances: Sequence[Instance],
    folds: int = 5,
    seed: int = 0,
) -> tuple[list[str | None], list[float]]:
    """Predict every instance once, by a system trained on the other folds.

    Returns the pooled predictions (in input order) and the accuracy of each fold.
    """
    predictions: list[str | None] = [None] * len(instances)
    fold_scores = []
    for train_idx, test_idx in stratified_kfold(instance_labels(instances), k=folds, seed=seed):
        train = [instances[i] for i in train_idx]
        test = [instances[i] for i in test_idx]
        answers = make_system().fit(train).predict(test)
        for i, answer in zip(test_idx, answers, strict=True):
            predictions[i] = answer
        fold_scores.append(accuracy([inst.senses for inst in test], answers))
    return predictions, fold_scores


def held_out_predictions(
    make_system: Callable[[], Any],
    instances: Sequence[Instance],
    test: float = 0.2,
    seed: int = 0,
) -> tuple[list[Instance], list[str | None]]:
    """Train on a seeded stratified split and predict its held-out part."""
    train, _, held_out = split_instances(instances, dev=0.0, test=test, seed=seed)
    return held_out, make_system().fit(train).predict(held_out)


@dataclass(frozen=True)
class Comparison:
    """The result of :func:`run_comparison`: one row per system (``table``), the McNemar
    p-value between every two systems (``pairwise``), and each system's per-item outcomes
    (1 = right) on the scored items (``correct``)."""

    table: pd.DataFrame
    pairwise: pd.DataFrame
    correct: dict[str, np.ndarray]


def run_comparison(
    systems: Mapping[str, Callable[[], Any]],
    instances: Sequence[Instance],
    folds: int | None = 5,
    test: float = 0.2,
    seed: int = 0,
    baseline: str | None = "mfs",
    n_resamples: int = 1000,
    progress: bool = False,
) -> Comparison:
    """One row per system: accuracy, its 95% bootstrap interval, macro-F1, fold spread and
    McNemar's test against ``baseline`` (when it is among ``systems``); and McNemar's test
    between every two systems.

    With ``folds`` every system sees the same stratified k folds and is scored on the pooled
    out-of-fold predictions; with ``folds=None`` on one held-out ``test`` share.
    """
    if not instances:
        raise ValueError("no instances to compare systems on")
    gold = [inst.senses for inst in instances]
    outcomes: dict[str, np.ndarray] = {}
    rows = []
    for name, factory in tqdm(systems.items(), desc="systems", disable=not progress):
        if folds:
            answers, fold_scores = cross_validated_predictions(factory, instances, folds, seed)
            scored_gold = gold
        else:
            held_out, answers = held_out_predictions(factory, instances, test, seed)
            scored_gold = [inst.senses for inst in held_out]
            fold_scores = [accuracy(scored_gold, answers)]
        correct = np.array([a in g for a, g in zip(answers, scored_gold, strict=True)], float)
        outcomes[name] = correct
        low, high = bootstrap_ci(correct, n_resamples=n_resamples, seed=seed)
        first_gold = [g[0] for g in scored_gold]
        macro = precision_recall_fscore(first_gold, answers, average="macro")
        rows.append({
            "system": name,
            "accuracy": float(correct.mean()),
            "ci_low": low,
            "ci_high": high,
            "macro_f1": float(macro["fscore"]),
            "fold_sd": float(np.std(fold_scores, ddof=1)) if len(fold_scores) > 1 else 0.0,
        })
    table = pd.DataFrame(rows).set_index("system")
    if baseline in outcomes:
        tests = {name: mcnemar(outcomes[name], outcomes[baseline]) for name in outcomes}
        table[f"p_vs_{baseline}"] = [
            np.nan if name == baseline else tests[name]["p_value"] for name in table.index
        ]
    return Comparison(table, pairwise_mcnemar(outcomes), outcomes)


def compare_systems(systems: Mapping[str, Callable[[], Any]], instances: Sequence[Instance],
                    **options: Any) -> pd.DataFrame:
    """The one-row-per-system table of :func:`run_comparison` (same arguments)."""
    return run_comparison(systems, instances, **options).table


def inventory_for(corpus: str) -> BundledInventory | WordNetInventory | None:
    """The sense inventory whose ids the corpus uses: bundled glosses, WordNet sense keys for
    the all-words framework, none for senseval (its labels have no glosses)."""
    if corpus.startswith("bundled:"):
        return BundledInventory()
    if corpus.startswith("framework:"):
        return WordNetInventory()
    return None


def compare_command(request: CompareRequest) -> Iterator[str]:
    """`wsd compare`: the systems named, on the same folds of the corpus, as a table (and
    its CSV and Markdown files); knowledge-based systems left out, with a note, where the
    corpus has no sense inventory or WordNet is not installed."""
    names = request.names()
    if not names:
        raise ValueError(f"--systems {request.systems!r} names no system; choose from "
                         f"{', '.join(SYSTEM_NAMES)}")
    if request.out:
        table_paths(request.out)  # make the folder now, not after the comparison
    instances = load_corpus(request.corpus)
    check_folds(request.folds, allow_split=True, instances=len(instances))
    inventory = inventory_for(request.corpus)
    if inventory is None:
        skipped = [n for n in names if n in KNOWLEDGE]
        names = [n for n in names if n not in KNOWLEDGE]
        if skipped:
            warnings.warn(f"note: {', '.join(skipped)} left out: {request.corpus} has no sense "
                          "inventory", CommandNote, stacklevel=2)
    if "first-sense" in names and not has_nltk_resource("wordnet"):
        names.remove("first-sense")
        warnings.warn("note: first-sense left out: WordNet is not installed "
                      "(python -m nltk.downloader wordnet)", CommandNote, stacklevel=2)
    unknown = [n for n in names if n not in SYSTEM_NAMES]
    if unknown:
        raise ValueError(f"unknown system(s) {', '.join(unknown)}; choose from "
                         f"{', '.join(SYSTEM_NAMES)}")
    settings = settings_for(request, request.corpus)
    if any(n in SUPERVISED for n in names):
        settings.featurizer()  # a missing extra fails here, not after the systems before it
    systems = {n: partial(make_system, n, settings, inventory) for n in names}
    if len({inst.key for inst in instances}) > 1:  # several target words: one model per word
        fallback = "first_sense" if request.corpus.startswith("framework:") else "none"
        systems.update({n: partial(PerKeyWSD, systems[n], fallback)
                        for n in names if n in SUPERVISED})
    comparison = run_comparison(systems, instances, folds=request.folds or None,
                                seed=settings.seed, progress=not request.quiet)
    yield (f"{request.corpus}: {len(instances)} instances, "
           + (f"{request.folds}-fold cross-validation" if request.folds else "80/20 split"))
    yield format_comparison(comparison)
    if request.out:
        yield from (f"wrote {path}" for path in write_comparison(comparison, request.out))
