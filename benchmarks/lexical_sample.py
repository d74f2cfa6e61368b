"""Lexical-sample accuracy on NLTK senseval (hard, interest, line, serve) beside published figures.

Every row is scored with the same seeded stratified k folds (default 5) and reports the mean
accuracy over the folds ± its standard deviation. Rows: MFS, the vanilla / voted / averaged
perceptron on the chosen feature set (``wsd.systems.lexical``), a linear SVM (scikit-learn's
LinearSVC) on the very same feature dicts, and the averaged perceptron with the toolkit's former
default (preset "full", binary, 10 epochs). Then the effect of averaging (averaged - vanilla) and
of the weighting (binary / tf-idf / PPMI / block tf-idf) for the averaged perceptron.

    python benchmarks/lexical_sample.py [--words hard line] [--folds 5] [--seed 0] [--quick]
    python benchmarks/lexical_sample.py --nested [--seeds 0 1] [--quick]

``--nested`` prints the honest comparison behind the lexical-sample default instead: nested
cross-validation (outer folds report, inner folds inside each outer training set choose among
the perceptron options) beside a LinearSVC on the same features and outer folds.

Needs the NLTK ``senseval`` data (plus ``wordnet`` for the lemmas).
"""

from __future__ import annotations

import argparse
import importlib.util
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from wsd.corpora.senseval import load_senseval, senseval_words
from wsd.evaluation.splits import instance_labels, stratified_order
from wsd.experiments.compare import cross_validated_predictions
from wsd.features import Featurizer
from wsd.instance import Instance
from wsd.learners.multiclass import MulticlassAveragedPerceptron
from wsd.systems.lexical import BEST_EPOCHS, LinearSVMOnDicts, best_featurizer, best_system
from wsd.systems.named import make_system
from wsd.systems.supervised import SupervisedWSD

# 5-fold accuracies of a linear SVM with bag of words + words and POS at +-3 + 3 collocations.
SVM_REFERENCE = {"hard": 0.923, "interest": 0.926, "line": 0.899, "serve": 0.926}
MFS_REFERENCE = {"hard": 0.797, "interest": 0.529, "line": 0.535, "serve": 0.414}
PEDERSEN_2000 = {"interest": 0.89, "line": 0.88}  # naive Bayes ensembles
NG_LEE_1996 = {"interest": 0.874}  # LEXAS
QUICK_SIZE = 600  # instances per word with --quick

CONFIGURATION = (
    "features: BoW over the whole context (lowercased, stopwords and punctuation dropped, "
    "WordNet lemmas), words +-2, POS +-3, target form + POS, 11 IMS collocations\n"
    "weighting: block tf-idf (presence x idf; BoW block and local block each l2-normalised, "
    f"BoW x 0.85)\nlearners: {BEST_EPOCHS} epochs, shuffled with the seed"
)

Factory = Callable[[], Any]


def has_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


def systems(seed: int) -> dict[str, Factory | None]:
    """Row name -> factory of a fresh system (None: not available here, printed as n/a)."""
    voted = has_module("wsd.learners.voted")
    svm = has_module("sklearn")

    def averaged(weighting: str) -> Factory:
        return lambda: best_system("averaged", seed=seed, weighting=weighting)

    return {
        "MFS": lambda: make_system("mfs"),
        "perceptron (vanilla)": lambda: best_system("perceptron", seed=seed),
        "voted perceptron": (lambda: best_system("voted", seed=seed)) if voted else None,
        "averaged perceptron": lambda: best_system("averaged", seed=seed),
        "linear SVM (LinearSVC, same dicts)": (
            (lambda: SupervisedWSD(best_featurizer(), LinearSVMOnDicts(seed=seed))) if svm else None
        ),
        "averaged, old default (full, binary, 10 ep)": lambda: SupervisedWSD(
            Featurizer.preset("full"), MulticlassAveragedPerceptron(epochs=10, seed=seed)
        ),
        "weighting: binary": averaged("binary"),
        "weighting: tf-idf (l2)": averaged("tfidf"),
        "weighting: PPMI": averaged("ppmi"),
    }


def subsample(instances: Sequence[Instance], size: int, seed: int) -> list[Instance]:
    """A stratified subset of ``size`` instances (all of them when there are fewer)."""
    order = stratified_order(instance_labels(instances), seed=seed)
    return [instances[i] for i in sorted(order[:size])]


def load_corpora(words: Sequence[str], seed: int, quick: bool) -> dict[str, list[Instance]]:
    corpora = {}
    for word in words:
        instances = load_senseval(word)
        corpora[word] = subsample(instances, QUICK_SIZE, seed) if quick else instances
    return corpora


def evaluate(
    corpora: dict[str, list[Instance]], folds: int, seed: int
) -> tuple[dict[str, dict[str, tuple[float, float] | None]], dict[str, float]]:
    """{row: {word: (mean, sd) or None}} and the seconds each row took over all words."""
    words = list(corpora)
    table: dict[str, dict[str, tuple[float, float] | None]] = {}
    seconds: dict[str, float] = {}
    for name, factory in systems(seed).items():
        table[name] = {}
        start = time.perf_counter()
        for word in words:
            if factory is None:
                table[name][word] = None
                continue
            _, scores = cross_validated_predictions(factory, corpora[word], folds, seed)
            table[name][word] = (float(np.mean(scores)), float(np.std(scores, ddof=1)))
        seconds[name] = time.perf_counter() - start
        print(f"  {name}: {seconds[name]:.0f} s", flush=True)
    return table, seconds


def seed_spread(
    corpora: dict[str, list[Instance]], folds: int, seeds: Sequence[int]
) -> dict[str, list[float]]:
    """Mean fold accuracy of the averaged perceptron per word for each seed (new folds and a
    new shuffle each time): how much of a margin is luck of the split."""
    spread: dict[str, list[float]] = {}
    for word, instances in corpora.items():
        spread[word] = []
        for seed in seeds:
            factory = lambda seed=seed: best_system("averaged", seed=seed)  # noqa: E731
            _, scores = cross_validated_predictions(factory, instances, folds, seed)
            spread[word].append(float(np.mean(scores)))
    return spread


def fmt(cell: tuple[float, float] | float | None, width: int = 15) -> str:
    if cell is None:
        return "n/a".rjust(width)
    if isinstance(cell, tuple):
        return f"{cell[0]:.3f} ± {cell[1]:.3f}".rjust(width)
    return f"{cell:.3f}".rjust(width)


def signed(value: float | None, width: int = 15) -> str:
    return ("n/a" if value is None else f"{value:+.3f}").rjust(width)


def report(
    table: dict[str, dict[str, tuple[float, float] | None]],
    seconds: dict[str, float],
    spread: dict[str, list[float]],
    words: Sequence[str],
    folds: int,
    seed: int,
    quick: bool,
) -> None:
    label = 46
    sample = f", {QUICK_SIZE}-instance stratified subsamples (--quick)" if quick else ""
    print(f"\nLexical sample (NLTK senseval): {folds}-fold stratified CV, seed {seed}{sample}")
    print("accuracy: mean ± sd over the folds; the same folds for every row\n" + CONFIGURATION)
    header = "system".ljust(label) + "".join(w.rjust(15) for w in words) + "time (s)".rjust(10)
    print("\n" + header + "\n" + "-" * len(header))
    main_rows = [name for name in table if not name.startswith("weighting")]
    for name in main_rows:
        cells = "".join(fmt(table[name][w]) for w in words)
        print(name.ljust(label) + cells + f"{seconds[name]:10.0f}")
    references = [
        ("reference: SVM (BoW, +-3 words+POS, 3 coll.)", SVM_REFERENCE),
        ("reference: MFS", MFS_REFERENCE),
        ("Pedersen (2000), NB ensembles", PEDERSEN_2000),
        ("Ng & Lee (1996), LEXAS", NG_LEE_1996),
    ]
    for name, figures in references:
        print(name.ljust(label) + "".join(fmt(figures.get(w)) for w in words))

    averaged = table["averaged perceptron"]
    gaps = {w: averaged[w][0] - SVM_REFERENCE[w] for w in words if averaged[w] is not None}
    print("averaged - SVM reference".ljust(label) + "".join(signed(gaps.get(w)) for w in words))
    met = all(gap >= 0 for gap in gaps.values())
    verdict = "not judged on --quick subsamples" if quick else ("met" if met else "NOT met")
    print(f"TARGET (averaged perceptron >= SVM reference on every word): {verdict}")
    svm = table["linear SVM (LinearSVC, same dicts)"]
    if all(svm[w] is not None for w in words):
        ratios = "".join(f"{averaged[w][0] / svm[w][0]:15.3f}" for w in words)
        print("averaged / our linear SVM".ljust(label) + ratios)

    if spread and len(next(iter(spread.values()))) > 1:
        runs = len(spread[words[0]])
        print(
            f"\nSeed spread: the averaged perceptron with {runs} seeds {seed}..{seed + runs - 1}"
            " (new folds and shuffles each)"
        )
        print("mean over seeds".ljust(label) + "".join(fmt(np.mean(spread[w])) for w in words))
        print("worst seed".ljust(label) + "".join(fmt(min(spread[w])) for w in words))
        print(
            "worst seed - SVM reference".ljust(label)
            + "".join(signed(min(spread[w]) - SVM_REFERENCE[w]) for w in words)
        )

    print("\nEffect of averaging (same features, same epochs)")
    vanilla = table["perceptron (vanilla)"]
    print(
        "averaged - vanilla".ljust(label)
        + "".join(signed(averaged[w][0] - vanilla[w][0]) for w in words)
    )
    voted = table["voted perceptron"]
    if all(voted[w] is not None for w in words):
        print(
            "voted - vanilla".ljust(label)
            + "".join(signed(voted[w][0] - vanilla[w][0]) for w in words)
        )
        print(
            "averaged - voted".ljust(label)
            + "".join(signed(averaged[w][0] - voted[w][0]) for w in words)
        )
    print(
        "fold sd: vanilla / averaged".ljust(label)
        + "".join(f"{vanilla[w][1]:.3f} / {averaged[w][1]:.3f}".rjust(15) for w in words)
    )

    print("\nEffect of the weighting (averaged perceptron, same extractors and epochs)")
    weightings = [name for name in table if name.startswith("weighting")]
    for name in weightings:
        print(
            name.ljust(label)
            + "".join(fmt(table[name][w]) for w in words)
            + f"{seconds[name]:10.0f}"
        )
    print(
        "weighting: block tf-idf (chosen)".ljust(label) + "".join(fmt(averaged[w]) for w in words)
    )


# The perceptron options the nested cross-validation chooses among (averaged, 5 epochs, the
# chosen features; only the learner option differs). The first is the default they challenge.
CANDIDATES: dict[str, dict[str, Any]] = {
    "averaged (default)": {},
    "margin 1": {"margin": 1.0},
    "PA-I C=0.1": {"update": "pa", "C": 0.1},
    "PA-I C=1": {"update": "pa", "C": 1.0},
    "mean of 5 shuffles": {"n_models": 5},
    "prior m=100": {"prior": 100.0},
    "backoff margin 0.1": {"backoff_margin": 0.1},
}
INNER_FOLDS = 3


def _weighted(raw: list[dict], train: Sequence[int], test: Sequence[int]):
    """Block tf-idf fitted on the training rows only, applied to both parts."""
    from wsd.features.weighting import make_weighting

    weighting = make_weighting("block-tfidf")
    return (weighting.fit_transform([raw[i] for i in train]),
            weighting.transform([raw[i] for i in test]))


def _accuracy(model: Any, X_train, y_train, X_test, y_test) -> float:
    predicted = model.fit(X_train, y_train).predict(X_test)
    return float(np.mean([p == g for p, g in zip(predicted, y_test, strict=True)]))


def nested_cv(raw: list[dict], labels: list[str], folds: int, seed: int) -> dict[str, Any]:
    """Outer accuracy of every candidate and of the LinearSVC, the outer accuracy of the
    candidate the inner folds chose, and how often each was chosen, for one word and seed."""
    from wsd.evaluation.splits import stratified_kfold

    def learner(name: str) -> MulticlassAveragedPerceptron:
        return MulticlassAveragedPerceptron(epochs=BEST_EPOCHS, seed=seed, **CANDIDATES[name])

    outer = {name: [] for name in [*CANDIDATES, "LinearSVC", "nested choice"]}
    chosen: list[str] = []
    for train, test in stratified_kfold(labels, folds, seed):
        inner_labels = [labels[i] for i in train]
        inner_scores = dict.fromkeys(CANDIDATES, 0.0)
        for inner_train, inner_test in stratified_kfold(inner_labels, INNER_FOLDS, seed):
            part_train, part_test = train[inner_train], train[inner_test]
            X_train, X_test = _weighted(raw, part_train, part_test)
            y_train, y_test = [labels[i] for i in part_train], [labels[i] for i in part_test]
            for name in CANDIDATES:
                inner_scores[name] += _accuracy(learner(name), X_train, y_train, X_test, y_test)
        best = max(CANDIDATES, key=lambda name: (inner_scores[name], name == "averaged (default)"))
        chosen.append(best)
        X_train, X_test = _weighted(raw, train, test)
        y_train, y_test = [labels[i] for i in train], [labels[i] for i in test]
        for name in CANDIDATES:
            outer[name].append(_accuracy(learner(name), X_train, y_train, X_test, y_test))
        outer["nested choice"].append(outer[best][-1])
        outer["LinearSVC"].append(
            _accuracy(LinearSVMOnDicts(seed=seed), X_train, y_train, X_test, y_test))
    return {"outer": {name: float(np.mean(scores)) for name, scores in outer.items()},
            "chosen": chosen}


def report_nested(results: dict[tuple[str, int], dict], words: Sequence[str],
                  seeds: Sequence[int], folds: int) -> None:
    label = 26
    print(f"\nNested cross-validation: {folds} outer folds report, {INNER_FOLDS} inner folds "
          "inside each outer training set choose; seeds " + ", ".join(map(str, seeds)))
    print("accuracy: mean over outer folds and seeds; same folds and features for every row")
    columns = [*words, "mean"]
    header = "learner".ljust(label) + "".join(c.rjust(10) for c in columns) + \
        "  - default per word x seed (worst .. best)"
    print(header + "\n" + "-" * len(header))
    rows = [*CANDIDATES, "nested choice", "LinearSVC"]
    default = "averaged (default)"
    for name in rows:
        per_word = [np.mean([results[w, s]["outer"][name] for s in seeds]) for w in words]
        gaps = [results[w, s]["outer"][name] - results[w, s]["outer"][default]
                for w in words for s in seeds]
        print(name.ljust(label) + "".join(f"{v:10.4f}" for v in per_word)
              + f"{np.mean(per_word):10.4f}  {min(gaps):+.4f} .. {max(gaps):+.4f}")
    picks = Counter(name for result in results.values() for name in result["chosen"])
    print("inner folds chose: " + ", ".join(f"{name} x{n}" for name, n in picks.most_common()))


def main_nested(words: Sequence[str], seeds: Sequence[int], folds: int, quick: bool) -> None:
    results = {}
    for word in words:
        start = time.perf_counter()
        instances = load_corpora([word], seeds[0], quick)[word]
        raw = best_featurizer().extract(instances)
        labels = instance_labels(instances)
        for seed in seeds:
            results[word, seed] = nested_cv(raw, labels, folds, seed)
            outer = results[word, seed]["outer"]
            print(f"  {word}, seed {seed}: " + ", ".join(f"{name} {value:.4f}"
                                                        for name, value in outer.items())
                  + f"; chosen {results[word, seed]['chosen']}", flush=True)
        print(f"  {word}: {time.perf_counter() - start:.0f} s", flush=True)
    report_nested(results, words, seeds, folds)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", nargs="+", default=senseval_words(), choices=senseval_words())
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"{QUICK_SIZE} instances per word: a smoke run, not the figures",
    )
    parser.add_argument(
        "--repeats",
        type=int,
        default=3,
        help="seeds (folds and shuffles) for the averaged perceptron's seed spread; 1: none",
    )
    parser.add_argument("--nested", action="store_true",
                        help="nested CV of the learner options beside a LinearSVC")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1],
                        help="seeds (folds and shuffles) for --nested")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    if args.nested:
        main_nested(args.words, args.seeds, args.folds, args.quick)
        print(f"\ntotal wall time: {time.perf_counter() - start:.0f} s")
        return
    corpora = load_corpora(args.words, args.seed, args.quick)
    table, seconds = evaluate(corpora, args.folds, args.seed)
    extra_seeds = range(args.seed + 1, args.seed + max(1, args.repeats))
    spread = seed_spread(corpora, args.folds, extra_seeds) if len(extra_seeds) else {}
    for word in spread:
        spread[word].insert(0, table["averaged perceptron"][word][0])
    report(table, seconds, spread, args.words, args.folds, args.seed, args.quick)
    print(f"\ntotal wall time: {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
