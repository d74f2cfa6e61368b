"""Training speed of the compiled engine against our dict-based learner and two peers.

1. Lexical sample, NLTK senseval ``line`` (4146 instances, 6 senses): features are sentence bag
   of words + POS -3..+3 + the 11 IMS collocations (binary), vectorized once on a fixed seeded
   80/20 split. Each learner trains the multiclass averaged perceptron for 10 epochs (no early
   stopping) and is timed over ``--runs`` runs (median; fit only, the data is prepared before):
   - wsd engine: ``CSRAveragedPerceptron`` on the CSR matrix (first call compile cost shown apart);
   - wsd dict: ``MulticlassAveragedPerceptron`` on the same rows as feature dicts;
   - scikit-learn: ``SGDClassifier(loss="perceptron", average=True, ...)`` on the CSR matrix
     (one-vs-rest, a different algorithm with the same update size);
   - NLTK: ``nltk.tag.perceptron.AveragedPerceptron`` (the tagger's model) driven through its
     ``predict``/``update``/``average_weights`` API over the feature dicts in the same order.
   "ours / it" is the engine's time divided by the row's time; "speed-up" its inverse.
   Prediction time of the multiclass voted perceptron against the averaged one (both dict
   learners, trained as above): the whole test set in one ``predict`` call, and one call per
   test sentence (as ``wsd disambiguate`` and ``explain`` do); "voted / averaged" is the ratio.
2. All-words, SemCor: one classifier per ``lemma#pos`` with at least two senses (IMS preset
   features, a vectorizer per word), trained with ``train_many`` for 10 epochs with 1 and 2
   workers (threads and processes). Loading and featurizing are timed apart from training;
   memory is the peak resident size (ru_maxrss, so far in the run: it includes the loaded
   corpus and features) and, for training alone, the peak of Python/numpy allocations
   (tracemalloc) in a separate run.

Needs the NLTK senseval data, the WSD framework folder and scikit-learn.
Usage: python benchmarks/speed.py [--runs 5] [--skip-semcor] [--skip-nltk] [--voted-only]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import numpy as np

from wsd.corpora.framework import group_by_key, load_dataset
from wsd.corpora.senseval import load_senseval
from wsd.features import BagOfWords, Collocations, FeatureVectorizer, Featurizer, PosTags
from wsd.learners.engine import CSRAveragedPerceptron, train_many
from wsd.learners.multiclass import MulticlassAveragedPerceptron
from wsd.learners.training import epoch_orders
from wsd.learners.voted import MulticlassVotedPerceptron

EPOCHS = 10
SEED = 0


def _interleaved_medians(runs: int, learners: dict[str, Callable[[], Any]]) -> dict:
    """Median seconds and last fitted model per learner; every round runs each learner once,
    so changes in machine load hit all of them alike."""
    times: dict[str, list[float]] = {name: [] for name in learners}
    models = {}
    for _ in range(runs):
        for name, fit in learners.items():
            start = time.perf_counter()
            models[name] = fit()
            times[name].append(time.perf_counter() - start)
    return {name: (statistics.median(times[name]), models[name]) for name in learners}


def _peak_rss_mb(who: int = resource.RUSAGE_SELF) -> float:
    scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: KiB on Linux, bytes on macOS
    return resource.getrusage(who).ru_maxrss * scale / 2**20


# --------------------------------------------------------------------------- lexical sample


def _line_data():
    """Feature dicts, CSR matrices and labels of a fixed 80/20 split of ``line``."""
    instances = load_senseval("line")
    featurizer = Featurizer([BagOfWords(), PosTags(window=3), Collocations()], weighting="binary")
    dicts = featurizer.fit_transform(instances)
    labels = [inst.senses[0] for inst in instances]
    order = np.random.default_rng(SEED).permutation(len(instances))
    cut = int(0.8 * len(instances))
    train, test = order[:cut].tolist(), order[cut:].tolist()
    vectorizer = FeatureVectorizer().fit([dicts[i] for i in train])
    return {
        "train_dicts": [dicts[i] for i in train],
        "test_dicts": [dicts[i] for i in test],
        "X_train": vectorizer.transform([dicts[i] for i in train]),
        "X_test": vectorizer.transform([dicts[i] for i in test]),
        "y_train": [labels[i] for i in train],
        "y_test": [labels[i] for i in test],
    }


def _train_nltk(dicts: list[dict], labels: list[str]):
    """NLTK's tagger perceptron over our feature names, in our epoch order."""
    from nltk.tag.perceptron import AveragedPerceptron

    model = AveragedPerceptron()
    model.classes = set(labels)
    for order in epoch_orders(len(dicts), EPOCHS, SEED, True):
        for i in order.tolist():
            guess, _ = model.predict(dicts[i])
            model.update(labels[i], guess, dicts[i])
    model.average_weights()
    return model


def _sgd():
    from sklearn.linear_model import SGDClassifier

    return SGDClassifier(loss="perceptron", learning_rate="constant", eta0=1, penalty=None,
                         average=True, max_iter=EPOCHS, tol=None, shuffle=True, random_state=0)


_COMPILE_PROBE = """
import time, numpy as np, scipy.sparse as sp
start = time.perf_counter()
from wsd.learners.engine import CSRAveragedPerceptron
imported = time.perf_counter()
CSRAveragedPerceptron(epochs=1).fit(sp.random(20, 10, density=0.3, format="csr",
                                              random_state=0), list("ab") * 10)
print(imported - start, time.perf_counter() - imported)
"""


def _first_call_seconds(cold: bool) -> tuple[float, float]:
    """(import, first tiny fit) seconds in a fresh process; ``cold``: empty numba cache."""
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as cache:
        if cold:
            env["NUMBA_CACHE_DIR"] = cache
        out = subprocess.run([sys.executable, "-c", _COMPILE_PROBE], env=env, check=True,
                             capture_output=True, text=True).stdout
    imported, first_fit = out.split()[-2:]
    return float(imported), float(first_fit)


def lexical_sample(runs: int, skip_nltk: bool) -> None:
    data = _line_data()
    X, y, X_test, y_test = data["X_train"], data["y_train"], data["X_test"], data["y_test"]
    print(f"senseval line: {X.shape[0]} train / {X_test.shape[0]} test instances, "
          f"{X.shape[1]:,} features, {X.nnz / X.shape[0]:.1f} non-zeros per row, "
          f"{len(set(y))} senses; {EPOCHS} epochs, median of {runs} runs")
    cold, warm = _first_call_seconds(True), _first_call_seconds(False)
    print(f"engine in a fresh process: import wsd.learners.engine {warm[0]:.2f} s; first tiny "
          f"fit {cold[1]:.2f} s with an empty numba cache (compiling), {warm[1]:.2f} s with "
          "the cache")
    CSRAveragedPerceptron(epochs=1).fit(X, y)  # compile (or load) outside the timing

    learners = {
        "wsd engine (numba, CSR)": lambda: CSRAveragedPerceptron(
            epochs=EPOCHS, seed=SEED).fit(X, y),
        "wsd dict-based": lambda: MulticlassAveragedPerceptron(
            epochs=EPOCHS, seed=SEED).fit(data["train_dicts"], y),
        "sklearn SGDClassifier perceptron avg": lambda: _sgd().fit(X, y),
    }
    if not skip_nltk:
        learners["NLTK AveragedPerceptron"] = lambda: _train_nltk(data["train_dicts"], y)
    results = _interleaved_medians(runs, learners)
    rows = []
    for name, (seconds, model) in results.items():
        if name.startswith("wsd dict"):
            accuracy = model.score(data["test_dicts"], y_test)
        elif name.startswith("NLTK"):
            accuracy = np.mean([model.predict(d)[0] == gold
                                for d, gold in zip(data["test_dicts"], y_test, strict=True)])
        else:
            accuracy = model.score(X_test, y_test)
        rows.append((name, seconds, accuracy))
    engine_s = rows[0][1]
    print(f"\n{'learner':<40}{'seconds':>9}{'ours/it':>9}{'speed-up':>10}{'accuracy':>10}")
    for name, seconds, accuracy in rows:
        print(f"{name:<40}{seconds:>9.4f}{engine_s / seconds:>9.3f}"
              f"{seconds / engine_s:>9.1f}x{accuracy:>10.4f}")
    times = {name: seconds for name, seconds, _ in rows}
    sgd_ratio = engine_s / times["sklearn SGDClassifier perceptron avg"]
    print(f"target engine <= 0.5x scikit-learn's time: {sgd_ratio:.3f}x -> "
          f"{'met' if sgd_ratio <= 0.5 else 'NOT met'}")
    if "NLTK AveragedPerceptron" in times:
        speedup = times["NLTK AveragedPerceptron"] / engine_s
        print(f"target engine >= 100x faster than NLTK: {speedup:.0f}x -> "
              f"{'met' if speedup >= 100 else 'NOT met'}")


def voted_prediction(runs: int) -> None:
    """Prediction seconds of the voted and the averaged dict learner, batch and per sentence."""
    data = _line_data()
    train, y, test = data["train_dicts"], data["y_train"], data["test_dicts"]
    models = {"averaged": MulticlassAveragedPerceptron(epochs=EPOCHS, seed=SEED).fit(train, y),
              "voted": MulticlassVotedPerceptron(epochs=EPOCHS, seed=SEED).fit(train, y)}
    for model in models.values():
        model.predict(test[:2])  # load compiled code outside the timing
    print(f"\nprediction on {len(test)} test sentences of line (voted: "
          f"{len(models['voted'].counts_):,} stored vectors), median of {runs} runs")
    print(f"{'':<28}{'averaged s':>12}{'voted s':>12}{'voted/averaged':>16}")
    for name, work in (("one predict call", lambda model: model.predict(test)),
                       ("one call per sentence",
                        lambda model: [model.predict([x]) for x in test])):
        timed = _interleaved_medians(runs, {kind: lambda model=model: work(model)  # noqa: B023
                                            for kind, model in models.items()})
        averaged, voted = timed["averaged"][0], timed["voted"][0]
        print(f"{name:<28}{averaged:>12.4f}{voted:>12.4f}{voted / averaged:>15.2f}x")


# --------------------------------------------------------------------------- all-words


def _semcor_tasks() -> tuple[dict, dict]:
    start = time.perf_counter()
    instances = load_dataset("semcor")
    loaded = time.perf_counter()
    groups = {key: group for key, group in group_by_key(instances).items()
              if len({inst.senses[0] for inst in group}) >= 2}
    featurizer = Featurizer.preset("ims")
    tasks = {}
    for key, group in groups.items():
        dicts = featurizer.fit_transform(group)
        tasks[key] = (FeatureVectorizer().fit_transform(dicts),
                      [inst.senses[0] for inst in group])
    done = time.perf_counter()
    stats = {"instances": len(instances), "load_s": loaded - start,
             "featurize_s": done - loaded, "rss_mb": _peak_rss_mb()}
    return tasks, stats


def _train_memory_mb(tasks: dict) -> float:
    tracemalloc.start()
    train_many(tasks, n_jobs=1, seed=SEED, epochs=EPOCHS)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def all_words() -> None:
    tasks, stats = _semcor_tasks()
    n_rows = sum(X.shape[0] for X, _ in tasks.values())
    nnz = sum(X.nnz for X, _ in tasks.values())
    print(f"\nSemCor: {stats['instances']:,} instances; {len(tasks):,} lemma#pos with >= 2 "
          f"senses ({n_rows:,} instances, {nnz:,} non-zeros); load {stats['load_s']:.1f} s, "
          f"IMS featurize + vectorize {stats['featurize_s']:.1f} s, "
          f"peak RSS so far {stats['rss_mb']:,.0f} MB")
    train_many(dict(list(tasks.items())[:2]), n_jobs=1, epochs=1)  # compile/load outside timing
    print(f"{'training (' + str(EPOCHS) + ' epochs)':<34}{'wall s':>8}{'RSS MB':>9}")
    checked = list(tasks)[:200]
    weights, walls = {}, {}
    for n_jobs, prefer in ((1, "threads"), (2, "threads"), (2, "processes")):
        start = time.perf_counter()
        models = train_many(tasks, n_jobs=n_jobs, prefer=prefer, seed=SEED, epochs=EPOCHS)
        seconds = walls[n_jobs, prefer] = time.perf_counter() - start
        rss = max(_peak_rss_mb(), _peak_rss_mb(resource.RUSAGE_CHILDREN))
        print(f"{f'n_jobs={n_jobs} ({prefer})':<34}{seconds:>8.2f}{rss:>9,.0f}")
        weights[n_jobs, prefer] = [models[key].coef_ for key in checked]
        del models
    first = weights[1, "threads"]
    same = all(np.array_equal(a, b) for other in weights.values()
               for a, b in zip(first, other, strict=True))
    print(f"identical weights for every n_jobs/backend (first {len(checked)} words): {same}")
    best = min(walls[2, "threads"], walls[2, "processes"])
    print(f"target SemCor training < 60 s on 2 cores: {best:.1f} s -> "
          f"{'met' if best < 60 else 'NOT met'}")
    print(f"training peak allocation (tracemalloc, n_jobs=1): {_train_memory_mb(tasks):,.0f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per timing (median is shown)")
    parser.add_argument("--skip-semcor", action="store_true", help="lexical sample only")
    parser.add_argument("--skip-nltk", action="store_true", help="leave NLTK's slow peer out")
    parser.add_argument("--voted-only", action="store_true",
                        help="only the voted/averaged prediction times")
    args = parser.parse_args()
    if args.voted_only:
        voted_prediction(args.runs)
        return
    lexical_sample(args.runs, args.skip_nltk)
    voted_prediction(args.runs)
    if not args.skip_semcor:
        all_words()


if __name__ == "__main__":
    main()
