"""All-words WSD on the standard framework (Raganato et al. 2017): how the defaults were chosen,
and what they score against MFS, Lesk-with-prior, the former default, a LinearSVC and IMS.

Default mode (the proxy table). Two proxies choose ``AllWordsWSD``'s defaults, never the test
sets: SemEval-2007 (the dev set, 455 instances; models trained on all of SemCor) and held-out
SemCor documents (``--folds`` folds by document, seeded: ``wsd.experiments.heldout.
document_folds``; each fold's model trains on the other documents). Training-time variants
(``VARIANTS``: the mean of 10 averaged perceptrons, the same trained with a margin or with PA-I
updates, and a LinearSVC per lemma#pos on the same features) are trained once per fold and
once on SemCor, and cached (``--cache``). The prediction-time weights (prior, prior_count,
gloss, discourse, backoff margin: ``SWEEP``) are swept on each trained model without
retraining (``wsd.experiments.heldout.setting_f1``, equal to ``evaluate``). The new default is the
perceptron-family variant and cell with the best mean of the two proxies' F1; Senseval-2 and
Senseval-3 are printed beside them, reported only. Rows: MFS (SemCor's most frequent sense per
lemma#pos, WordNet first sense for unseen ones), ``LeskWithPrior()`` (fitted on the same
training documents; its WordNet sense counts come partly from SemCor, so its SemCor-CV figure
is optimistic), the former default (prior 0.5, gloss 1, discourse 3), the new default, and
every variant without weights and with its own best weights. Then the calibration of the
new default's scores: per place, the expected calibration error and gold log likelihood of its
classifier answers at temperature 1 and at ``DEFAULT_TEMPERATURE``, and the temperature fitted
there (``wsd.evaluation.calibration``); the default temperature is the mean of the semeval2007
fit and the mean of the SemCor folds' fits. Last: the table for the README.

``--ablations``: the former table of systems and ablations on SemCor -> semeval2007 /
senseval2 / senseval3, each system in a fresh process so that its peak memory (ru_maxrss) is
its own ("train s": wall time of ``fit``; "peak MB" SemCor in memory included; "worker MB" the
largest training worker's peak when ``--n-jobs`` > 1), with published IMS and MFS beside ours.

Usage: python benchmarks/allwords.py [--folds 3] [--variants averaged,linear_svc,margin,pa]
       python benchmarks/allwords.py --ablations [--n-jobs 2] [--systems averaged,vanilla,...]
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

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
    import wsd.systems.allwords.system  # noqa: F401  (imports wsd.knowledge before the baselines)
    from wsd.evaluation.scorer import score_framework
    from wsd.systems.baselines import MostFrequentSense, WordNetFirstSense

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


def _child(name: str, n_jobs: int) -> dict[str, Any]:
    from wsd.corpora.framework import load_dataset
    from wsd.systems.allwords import IMS_FEATURES, AllWordsWSD

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
    parser.add_argument("--ablations", action="store_true",
                        help="the table of systems and ablations (one process each, with memory)")
    parser.add_argument("--folds", type=int, default=3, help="SemCor folds by document")
    parser.add_argument("--seed", type=int, default=0, help="seed of the document folds")
    parser.add_argument("--variants", default=",".join(VARIANTS),
                        help="training variants of the proxy table (comma-separated)")
    parser.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "wsd-allwords"),
                        help="folder for trained fold models, tags and gloss overlaps")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(_child(args.child, args.n_jobs)))
        return
    if not args.ablations:
        variants = args.variants.split(",")
        unknown = [name for name in variants if name not in VARIANTS]
        if unknown or "averaged" not in variants:
            parser.error(f"--variants must include averaged, from {', '.join(VARIANTS)}")
        print(_proxy_report(args.folds, args.seed, variants, Path(args.cache), args.n_jobs))
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


# ---- the defaults, chosen on the proxies (the default mode) ------------------------------

# Training-time options: each is trained once per SemCor fold and once on all of SemCor.
VARIANTS: dict[str, dict[str, Any]] = {
    "averaged": {},  # the mean of 10 averaged perceptrons (AllWordsWSD's training defaults)
    "linear_svc": {"learner": "linear_svc"},
    "margin": {"train_margin": 1.0},
    "pa": {"update": "pa", "C": 1.0},
}
CANDIDATES = ("averaged", "margin", "pa")  # the default stays in the perceptron family
VARIANT_LABELS = {"averaged": "mean of 10 averaged perceptrons",
                  "margin": "10 averaged perceptrons trained with margin 1",
                  "pa": "10 averaged perceptrons with PA-I updates (C = 1)",
                  "linear_svc": "LinearSVC per lemma#pos (C = 1)"}  # fmt: skip
# Prediction-time weights, swept on the score parts of one trained model per fold / set.
SWEEP = {"prior": (0.1, 0.25, 0.5, 1.0), "prior_count": (0.0, 20.0),
         "gloss_weight": (0.0, 0.5, 1.0, 2.0, 3.0), "discourse_weight": (0.0, 1.0, 3.0, 6.0, 10.0),
         "margin": (0.0, 0.5, 1.0)}  # fmt: skip
OLD_DEFAULT = {"prior": 0.5, "prior_count": 0.0, "gloss_weight": 1.0, "discourse_weight": 3.0,
               "margin": 0.0}  # fmt: skip
PLAIN_WEIGHTS = dict.fromkeys(SWEEP, 0.0)
REPORTED = ("senseval2", "senseval3")  # reported, never used for a choice


def _cached_tags(instances, cache: Path):
    """The instances with NLTK's Penn tags, from a JSON cache of tags per sentence."""
    import nltk

    path = cache / "penn_tags.json"
    tags = {}
    if path.is_file():
        tags = {tuple(tokens): tuple(tagged) for tokens, tagged in json.loads(path.read_text())}
    missing = {inst.tokens for inst in instances} - set(tags)
    for tokens in missing:
        tags[tokens] = tuple(tag for _, tag in nltk.pos_tag(list(tokens)))
    if missing:
        path.write_text(json.dumps([[list(k), list(v)] for k, v in tags.items()]))
    return [inst.with_pos(tags[inst.tokens]) for inst in instances]


def _trained(variant: str, where: str, train, cache: Path, n_jobs: int):
    """AllWordsWSD with the variant's training options fitted on ``train`` (cached .npz)."""
    from wsd.systems.allwords import AllWordsWSD

    options = VARIANTS[variant]
    digest = hashlib.sha1(json.dumps(options, sort_keys=True).encode()).hexdigest()[:8]
    path = cache / f"{variant}-{digest}-{where}.npz"
    if path.is_file():
        return AllWordsWSD.load(path)
    start = time.perf_counter()
    system = AllWordsWSD(n_jobs=n_jobs, **options).fit(train, tagged=True)
    print(f"  trained {variant} on {where} in {time.perf_counter() - start:.0f} s",
          file=sys.stderr, flush=True)  # fmt: skip
    system.save(path)
    return system


def _parts(system, instances, where: str, cache: Path):
    """The system's score parts on ``instances``; gloss overlaps cached per set (they depend
    on the instances and their keys' classes, the same for every variant of one split)."""
    from dataclasses import replace

    from wsd.experiments.heldout import score_parts

    path = cache / f"gloss-{where}.npy"
    if path.is_file():
        parts = score_parts(system, instances, tagged=True, gloss=False)
        gloss = np.load(path, allow_pickle=False)
        if gloss.shape == parts.gloss.shape:
            return replace(parts, gloss=gloss)
    start = time.perf_counter()
    parts = score_parts(system, instances, tagged=True)
    print(f"  gloss overlaps of {where} in {time.perf_counter() - start:.0f} s",
          file=sys.stderr, flush=True)  # fmt: skip
    np.save(path, parts.gloss, allow_pickle=False)
    return parts


def _lesk_with_prior(train, test, where: str, cache: Path) -> float:
    """F1 of ``LeskWithPrior()`` fitted on ``train`` (cached per split)."""
    from wsd.evaluation.scorer import score_framework
    from wsd.systems.lesk import LeskWithPrior

    path = cache / f"lesk-with-prior-{where}.json"
    if path.is_file():
        return json.loads(path.read_text())["F1"]
    answers = LeskWithPrior().fit(train).predict(test)
    f1 = score_framework({inst.id: inst.senses for inst in test},
                         dict(zip((inst.id for inst in test), answers, strict=True)))["F1"]
    path.write_text(json.dumps({"F1": f1}))
    return f1


def _proxy_figures(k: int, seed: int, variants: list[str], cache: Path, n_jobs: int):
    """Score parts per (variant, place) and the baselines' F1 per place; places: the SemCor
    folds ``fold0..``, semeval2007 and the reported sets (models trained on all of SemCor)."""
    from wsd.corpora.framework import load_dataset
    from wsd.experiments.heldout import document_folds, mfs_f1

    cache.mkdir(parents=True, exist_ok=True)
    raw = {"semcor": load_dataset("semcor"), **{d: load_dataset(d) for d in DATASETS}}
    tagged = {name: _cached_tags(instances, cache) for name, instances in raw.items()}
    splits = [(f"fold{i}of{k}s{seed}", train, test) for i, (train, test) in
              enumerate(document_folds(tagged["semcor"], k, seed))]  # fmt: skip
    raw_folds = document_folds(raw["semcor"], k, seed)
    parts: dict[tuple[str, str], Any] = {}
    for variant in variants:
        for where, train, test in splits:
            parts[variant, where] = _parts(_trained(variant, where, train, cache, n_jobs),
                                           test, where, cache)  # fmt: skip
        system = _trained(variant, "semcor", tagged["semcor"], cache, n_jobs)
        for dataset in DATASETS:
            parts[variant, dataset] = _parts(system, tagged[dataset], dataset, cache)
    places = [where for where, _, _ in splits] + list(DATASETS)
    baselines = {where: {"MFS": mfs_f1(parts[variants[0], where])} for where in places}
    for (where, _, _), (train, test) in zip(splits, raw_folds, strict=True):
        baselines[where]["Lesk-with-prior"] = _lesk_with_prior(train, test, where, cache)
    for dataset in DATASETS:
        baselines[dataset]["Lesk-with-prior"] = _lesk_with_prior(raw["semcor"], raw[dataset],
                                                                 dataset, cache)  # fmt: skip
    return [where for where, _, _ in splits], parts, baselines


def _proxies(parts, folds: list[str], variant: str, setting) -> tuple[float, float]:
    """(semeval2007 F1, mean F1 over the held-out SemCor folds) of one variant and setting."""
    from wsd.experiments.heldout import setting_f1

    cv = sum(setting_f1(parts[variant, fold], setting) for fold in folds) / len(folds)
    return setting_f1(parts[variant, "semeval2007"], setting), cv


def _sweep(parts, folds: list[str], variant: str):
    """Every ``SWEEP`` cell with its (semeval2007, SemCor-CV) F1, best mean of the two first."""
    cells = []
    for values in itertools.product(*SWEEP.values()):
        setting = dict(zip(SWEEP, values, strict=True))
        cells.append((setting, *_proxies(parts, folds, variant, setting)))
    return sorted(cells, key=lambda cell: -(cell[1] + cell[2]))  # stable: first best on ties


def _describe(setting) -> str:
    return ", ".join(f"{name.removesuffix('_weight')} {value:g}" for name, value in setting.items())


def _proxy_report(k: int, seed: int, variants: list[str], cache: Path, n_jobs: int) -> str:
    from wsd.experiments.heldout import setting_f1

    folds, parts, baselines = _proxy_figures(k, seed, variants, cache, n_jobs)
    swept = {variant: _sweep(parts, folds, variant) for variant in variants}
    best = {variant: cells[0] for variant, cells in swept.items()}
    chosen = max((v for v in CANDIDATES if v in variants),
                 key=lambda v: best[v][1] + best[v][2])  # fmt: skip
    new_setting = best[chosen][0]
    places = ["semeval2007", "CV", *REPORTED]
    rows: list[tuple[str, dict[str, float]]] = []

    def add(label: str, f1_of) -> None:
        figures = {"semeval2007": f1_of("semeval2007"),
                   "CV": sum(f1_of(fold) for fold in folds) / len(folds),
                   **{d: f1_of(d) for d in REPORTED}}  # fmt: skip
        rows.append((label, {p: 100 * f for p, f in figures.items()}))

    for name in ("MFS", "Lesk-with-prior"):
        add(name, lambda where, name=name: baselines[where][name])
    add("old default (prior 0.5, gloss 1, discourse 3)",
        lambda where: setting_f1(parts["averaged", where], OLD_DEFAULT))
    add(f"new default: {VARIANT_LABELS[chosen]}, {_describe(new_setting)}",
        lambda where: setting_f1(parts[chosen, where], new_setting))
    for variant in variants:
        add(f"{VARIANT_LABELS[variant]}, no prior/gloss/discourse",
            lambda where, v=variant: setting_f1(parts[v, where], PLAIN_WEIGHTS))
        add(f"{VARIANT_LABELS[variant]}, own best weights ({_describe(best[variant][0])})",
            lambda where, v=variant: setting_f1(parts[v, where], best[v][0]))
    lines = [f"SemCor CV: {k} folds by document (seed {seed}); models for semeval2007 and the "
             "reported sets trained on all of SemCor. F1 (framework scorer).",
             "CHOSEN ON: semeval2007 and the SemCor-CV mean (the cell with the best mean of the "
             f"two), among {', '.join(c for c in CANDIDATES if c in variants)} x "
             f"{len(swept[chosen])} weight cells; senseval2 / senseval3 reported only.", ""]
    lines.append(f"{'system':96s}" + "".join(f"{p:>12s}" for p in places))
    for label, figures in rows:
        lines.append(f"{label:96s}" + "".join(f"{figures[p]:12.1f}" for p in places))
    mfs = dict(rows[0][1])
    new = dict(rows[3][1])
    lines.append(f"{'new default minus MFS':96s}"
                 + "".join(f"{new[p] - mfs[p]:+12.1f}" for p in places))  # fmt: skip
    lines.append("")
    lines.append(f"top cells of {chosen} (semeval2007 / SemCor-CV F1):")
    for setting, dev, cv in swept[chosen][:8]:
        lines.append(f"  {_describe(setting):70s}{100 * dev:8.2f}{100 * cv:8.2f}")
    lines.append("")
    lines.append(_calibration_report(parts, folds, chosen, new_setting))
    lines.append("")
    lines.append("README table (markdown):")
    lines.append("| system | semeval2007 (dev, chose) | SemCor CV (chose) | senseval2 (test) "
                 "| senseval3 (test) |")
    lines.append("|---|---|---|---|---|")
    for label, figures in rows:
        lines.append(f"| {label} | " + " | ".join(f"{figures[p]:.1f}" for p in places) + " |")
    return "\n".join(lines)


def _calibration_report(parts, folds: list[str], variant: str, setting) -> str:
    """How well the scores of the classifier answers of ``variant`` with ``setting`` estimate
    how often they are right, at temperature 1 and at the default; the fitted temperatures."""
    from wsd.evaluation.calibration import (
        expected_calibration_error,
        fit_temperature,
        gold_log_likelihood,
        softmax_with_temperature,
    )
    from wsd.experiments.heldout import classifier_answers
    from wsd.systems.allwords.system import DEFAULT_TEMPERATURE

    lines = ["calibration of the new default's classifier answers (ECE: expected calibration "
             "error, 10 bins; LL: mean log probability of the gold senses):",
             f"{'place':14s}{'answers':>9s}{'accuracy':>10s}{'ECE T=1':>10s}{'LL T=1':>9s}"
             f"{'ECE T=' + format(DEFAULT_TEMPERATURE, 'g'):>11s}"
             f"{'LL T=' + format(DEFAULT_TEMPERATURE, 'g'):>10s}{'fitted T':>10s}"]
    fitted = {}
    for where in ["semeval2007", *folds, *REPORTED]:
        totals, gold = classifier_answers(parts[variant, where], setting)
        right = gold[np.arange(len(gold)), totals.argmax(axis=1)]
        cells = []
        for temperature in (1.0, DEFAULT_TEMPERATURE):
            confidence = softmax_with_temperature(totals, temperature).max(axis=1)
            cells += [expected_calibration_error(confidence, right),
                      gold_log_likelihood(totals, gold, temperature)]
        fitted[where] = fit_temperature(totals, gold)
        ece_1, ll_1, ece_default, ll_default = cells
        lines.append(f"{where:14s}{len(totals):9d}{100 * right.mean():10.1f}{ece_1:10.3f}"
                     f"{ll_1:9.3f}{ece_default:11.3f}{ll_default:10.3f}"
                     f"{fitted[where]:10.2f}")  # fmt: skip
    folds_mean = sum(fitted[f] for f in folds) / len(folds)
    choice = (fitted["semeval2007"] + folds_mean) / 2
    lines.append(f"CHOSEN ON semeval2007 and the SemCor folds: temperature "
                 f"({fitted['semeval2007']:.2f} + {folds_mean:.2f}) / 2 = {choice:.2f} "
                 f"(in use: {DEFAULT_TEMPERATURE:g}); senseval2 / senseval3 reported only")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
