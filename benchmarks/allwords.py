"""All-words WSD on the standard framework (Raganato et al. 2017) against IMS and MFS.

Every system trains on SemCor; SemEval-2007 is the development set, the only data used to choose
settings: ``AllWordsWSD``'s defaults (features, tagging, epochs, number of averaged models, the
weights of the sense prior, the gloss overlap and one sense per discourse) and, for the tf-idf
and PPMI rows, their own weights from a small grid. Senseval-2 and Senseval-3 are reported with
the settings chosen there. Scores are
P / R / F1 of the framework's scorer (``score_framework``). Rows:

- MFS: SemCor's most frequent sense per lemma#pos, WordNet first sense for unseen ones;
- WordNet first sense;
- our system (``AllWordsWSD()``'s defaults): the mean of 10 averaged perceptrons per
  lemma#pos over IMS features + supersenses, with prior, gloss overlap and discourse; the
  same with two other seeds (how much the shuffles move the figures);
- ablations, one part off at a time: supersense features, gloss overlap, discourse, the
  mean of 10 shuffles (one perceptron), and all four (the plain IMS-feature perceptron);
- the effect of averaging (vanilla perceptron) and of the weighting (tf-idf, PPMI).

Each system runs in a fresh process so that its peak memory (ru_maxrss) is its own: "train s"
is the wall time of ``fit`` (SemCor loading excluded), "peak MB" the process's peak resident
memory (SemCor in memory included), "worker MB" the largest training worker's peak when
``--n-jobs`` > 1. Published figures (F1) are printed beside ours, with our F1 minus theirs.

Usage: python benchmarks/allwords.py [--n-jobs 2] [--systems averaged,vanilla,...]
       python benchmarks/allwords.py --choose-defaults   (the grid behind the default weights)
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import resource
import subprocess
import sys
import time
from typing import Any

DATASETS = ("semeval2007", "senseval2", "senseval3")
REFERENCE = {  # F1 on (semeval2007, senseval2, senseval3)
    "IMS (SVM, SemCor; published)": (61.3, 70.9, 69.3),
    "MFS (SemCor + WN backoff; published)": (56.3, 67.2, 66.1),
}
PLAIN = {"n_models": 1, "gloss_weight": 0.0, "discourse_weight": 0.0}
SYSTEMS: dict[str, dict[str, Any]] = {
    "mfs": {},
    "wn_first_sense": {},
    "averaged": {},  # AllWordsWSD defaults
    "averaged_seed1": {"seed": 1},
    "averaged_seed2": {"seed": 2},
    "no_supersense": {"features": "IMS_FEATURES"},
    "no_gloss": {"gloss_weight": 0.0},
    "no_discourse": {"discourse_weight": 0.0},
    "single": {"n_models": 1},
    "plain_ims": {"features": "IMS_FEATURES", **PLAIN},
    "vanilla": {"average": False},
    "vanilla_seed1": {"average": False, "seed": 1},
    "vanilla_seed2": {"average": False, "seed": 2},
    "vanilla_single": {"average": False, "n_models": 1},
    "tfidf": {"weighting": "tfidf"},
    "ppmi": {"weighting": "ppmi"},
}
LABELS = {
    "mfs": "MFS (SemCor + WN first-sense backoff)",
    "wn_first_sense": "WordNet first sense",
    "averaged": "ours: 10 averaged perceptrons (default)",
    "averaged_seed1": "  the same, seed 1",
    "averaged_seed2": "  the same, seed 2",
    "no_supersense": "  without supersense features",
    "no_gloss": "  without gloss overlap",
    "no_discourse": "  without one sense per discourse",
    "single": "  one perceptron instead of 10",
    "plain_ims": "  none of the four: IMS features, 1 model",
    "vanilla": "mean of 10 vanilla perceptrons",
    "vanilla_seed1": "  the same, seed 1",
    "vanilla_seed2": "  the same, seed 2",
    "vanilla_single": "one vanilla perceptron",
    "tfidf": "averaged perceptrons, tf-idf",
    "ppmi": "averaged perceptrons, PPMI",
}
# AllWordsWSD's default prior / gloss / discourse weights are the cell of this grid with the
# best mean semeval2007 F1 over seeds 0-2 (``--choose-defaults`` prints that table again).
DEFAULTS_GRID = {"prior": (0.5, 1.0, 2.0), "gloss_weight": (0.0, 1.0, 2.0, 3.0),
                 "discourse_weight": (0.0, 1.0, 3.0)}  # fmt: skip
# Rows with other feature values than binary ones get their own weights from these grids on
# semeval2007 (tf-idf rows have unit length: smaller scores); every other row keeps the defaults.
GRIDS = {
    "tfidf": {"prior": (0.1, 0.25, 0.5), "gloss_weight": (0.0, 0.1, 0.25, 0.5),
              "discourse_weight": (0.0, 0.1, 0.3)},
    "ppmi": {"prior": (0.5, 1.0, 2.0), "gloss_weight": (0.0, 1.0, 2.0, 3.0),
             "discourse_weight": (0.0, 1.0, 3.0)},
}  # fmt: skip


def _peak_mb(who: int = resource.RUSAGE_SELF) -> float:
    scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: KiB on Linux, bytes on macOS
    return resource.getrusage(who).ru_maxrss * scale / 2**20


def _scores(system, tests) -> dict[str, dict[str, float]]:
    return {name: system.evaluate(instances) for name, instances in tests.items()}


def _baseline(name: str, train, tests) -> dict[str, Any]:
    import wsd.allwords.system  # noqa: F401  (imports wsd.knowledge before the baselines)
    from wsd.evaluation.scorer import score_framework
    from wsd.learners.baselines import MostFrequentSense, WordNetFirstSense

    system = MostFrequentSense() if name == "mfs" else WordNetFirstSense()
    start = time.perf_counter()
    system.fit(train)
    seconds = time.perf_counter() - start
    results = {}
    for dataset, instances in tests.items():
        answers = dict(zip((inst.id for inst in instances), system.predict(instances),
                           strict=True))  # fmt: skip
        gold = {inst.id: inst.senses for inst in instances}
        results[dataset] = score_framework(gold, answers)
    return {"seconds": seconds, "scores": results, "chosen": {}}


def _grid_f1(system, grid: dict[str, tuple[float, ...]], dev) -> dict[tuple[float, ...], float]:
    """The system's dev F1 for every cell of ``grid`` (its weights are left at the last cell)."""
    f1 = {}
    for values in itertools.product(*grid.values()):
        for option, value in zip(grid, values, strict=True):
            setattr(system, option, value)
        f1[values] = system.evaluate(dev)["F1"]
    return f1


def _choose_weights(system, dev) -> dict[str, float]:
    """Set the system's prior / gloss / discourse weights to the grid's best on ``dev``."""
    grid = GRIDS[system.weighting]
    f1 = _grid_f1(system, grid, dev)
    best = dict(zip(grid, max(f1, key=f1.__getitem__), strict=True))  # first best on ties
    for option, value in best.items():
        setattr(system, option, value)
    return best


def _choose_defaults(n_jobs: int) -> str:
    """Mean dev F1 of each ``DEFAULTS_GRID`` cell over seeds 0-2, best first."""
    from wsd.allwords import AllWordsWSD
    from wsd.corpora.framework import load_dataset

    train, dev = load_dataset("semcor"), load_dataset("semeval2007")
    cells: dict[tuple[float, ...], list[float]] = {}
    for seed in (0, 1, 2):
        system = AllWordsWSD(n_jobs=n_jobs, seed=seed).fit(train)
        for values, f1 in _grid_f1(system, DEFAULTS_GRID, dev).items():
            cells.setdefault(values, []).append(100 * f1)
    print(f"  done: seed {seed}", file=sys.stderr, flush=True)
    lines = ["semeval2007 F1 of AllWordsWSD(seed=0, 1, 2) per " + " / ".join(DEFAULTS_GRID)]
    for values, f1 in sorted(cells.items(), key=lambda cell: -sum(cell[1])):
        lines.append(" / ".join(f"{v:g}" for v in values).ljust(16)
                     + "".join(f"{x:7.2f}" for x in f1) + f"   mean {sum(f1) / 3:.2f}")  # fmt: skip
    return "\n".join(lines)


def _child(name: str, n_jobs: int) -> dict[str, Any]:
    from wsd.allwords import IMS_FEATURES, AllWordsWSD
    from wsd.corpora.framework import load_dataset

    train = load_dataset("semcor")
    tests = {dataset: load_dataset(dataset) for dataset in DATASETS}
    if name in ("mfs", "wn_first_sense"):
        result = _baseline(name, train, tests)
    else:
        options = dict(SYSTEMS[name])
        if options.get("features") == "IMS_FEATURES":
            options["features"] = IMS_FEATURES
        system = AllWordsWSD(n_jobs=n_jobs, **options)
        start = time.perf_counter()
        system.fit(train)
        seconds = time.perf_counter() - start
        chosen = _choose_weights(system, tests["semeval2007"]) if name in GRIDS else {}
        result = {"seconds": seconds, "scores": _scores(system, tests), "chosen": chosen}
    if n_jobs > 1:
        from joblib.externals.loky import get_reusable_executor

        get_reusable_executor().shutdown(wait=True)  # reaped workers count in RUSAGE_CHILDREN
    result["peak_mb"] = _peak_mb()
    result["worker_mb"] = _peak_mb(resource.RUSAGE_CHILDREN)
    return result


def _run_child(name: str, n_jobs: int) -> dict[str, Any]:
    command = [sys.executable, __file__, "--child", name, "--n-jobs", str(n_jobs)]
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return json.loads(output.splitlines()[-1])


def _table(results: dict[str, dict[str, Any]]) -> str:
    head = f"{'system':40s}" + "".join(f"{d + ' P/R/F1':>22s}" for d in DATASETS)
    lines = [head + f"{'train s':>9s}{'peak MB':>9s}{'worker MB':>10s}  chosen on dev"]
    for name, result in results.items():
        cells = "".join(
            "{P:6.1f}{R:6.1f}{F1:6.1f}    ".format(**{k: 100 * v for k, v in s.items()
                                                    if k in ("P", "R", "F1")})
            for s in (result["scores"][d] for d in DATASETS)
        )  # fmt: skip
        chosen = ", ".join(f"{k.removesuffix('_weight')}={v:g}"
                           for k, v in result["chosen"].items())
        lines.append(f"{LABELS[name]:40s}{cells}{result['seconds']:9.1f}"
                     f"{result['peak_mb']:9.0f}{result['worker_mb']:10.0f}  {chosen}")  # fmt: skip
    lines.append("")
    lines.append(f"{'published (F1)':40s}" + "".join(f"{d:>22s}" for d in DATASETS))
    for label, figures in REFERENCE.items():
        lines.append(f"{label:40s}" + "".join(f"{f:22.1f}" for f in figures))
    lines.append("")
    lines.append(f"{'F1 minus IMS':40s}" + "".join(f"{d:>22s}" for d in DATASETS))
    ims = REFERENCE["IMS (SVM, SemCor; published)"]
    for name, result in results.items():
        deltas = [100 * result["scores"][d]["F1"] - ims[i] for i, d in enumerate(DATASETS)]
        lines.append(f"{LABELS[name]:40s}" + "".join(f"{x:+22.1f}" for x in deltas))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-jobs", type=int, default=2, help="training processes per system")
    parser.add_argument("--systems", default=",".join(SYSTEMS), help="comma-separated subset")
    parser.add_argument("--choose-defaults", action="store_true",
                        help="print the dev grid behind AllWordsWSD's default weights instead")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(_child(args.child, args.n_jobs)))
        return
    if args.choose_defaults:
        print(_choose_defaults(args.n_jobs))
        return
    names = args.systems.split(",")
    unknown = [name for name in names if name not in SYSTEMS]
    if unknown:
        parser.error(f"unknown system(s) {', '.join(unknown)}; choose from {', '.join(SYSTEMS)}")
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"machine: {os.cpu_count()} cores, load average {load}; n_jobs={args.n_jobs}")
    results = {}
    for name in names:
        results[name] = _run_child(name, args.n_jobs)
        print(f"  done: {LABELS[name]}", file=sys.stderr, flush=True)
    print(_table(results))
    for family in ("averaged", "vanilla"):
        print(_seed_summary(results, family))


def _seed_summary(results: dict[str, dict[str, Any]], family: str) -> str:
    """Mean and range of F1 over the seed rows of ``family`` (when all three ran)."""
    names = [family, f"{family}_seed1", f"{family}_seed2"]
    if not all(name in results for name in names):
        return ""
    cells = []
    for dataset in DATASETS:
        f1 = [100 * results[name]["scores"][dataset]["F1"] for name in names]
        cells.append(f"{dataset} {sum(f1) / 3:.1f} ({min(f1):.1f}-{max(f1):.1f})")
    return f"{LABELS[family]}, seeds 0-2, mean (min-max) F1: " + ", ".join(cells)


if __name__ == "__main__":
    main()
