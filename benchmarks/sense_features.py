"""The sense cosines as features of the per-word classifiers (``sense_weight``, issue 39 part
3a) against today's ``tuned+context`` default, all else at its defaults.

``--pilot``: trained on the SemCor instances of the keys semeval2007 has (quick), scored on
semeval2007 for each weight. ``--heldout``: 3 folds of SemCor by document
(``wsd.experiments.heldout.document_folds``, seed 0), each fold scored by the model trained on
the other two (``--only-folds``: some of them; ``--sample N``: one in N of a fold's documents,
in sorted order, as scoring a whole fold costs far more than training). ``--full``: trained
on all of SemCor, scored on semeval2007 (dev), senseval2
and senseval3 (reported only, never used to choose). Each line: the F1 over all instances,
then the accuracy on the instances whose key has a classifier and on the others (MFS or
WordNet's first sense; the cosines cannot change those). Weight 0 is today's default.

    python benchmarks/sense_features.py --pilot --weights 0 1 3 10
    python benchmarks/sense_features.py --heldout --full --weights 0 3

Needs the framework data, the NLTK data and the [context] extra; set $WSD_CACHE_DIR to a cache
holding SemCor's vectors, or the first run encodes SemCor (about half an hour).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

from wsd.corpora.framework import load_dataset
from wsd.evaluation.scorer import score_framework
from wsd.experiments.heldout import document_folds
from wsd.instance import Instance
from wsd.systems.allwords import AllWordsWSD
from wsd.systems.allwords.context import sentence_of
from wsd.systems.allwords.instance_features import feature_set

SETS = ("semeval2007", "senseval2", "senseval3")


def system(weight: float) -> AllWordsWSD:
    return AllWordsWSD(features=feature_set("tuned+context"), sense_weight=weight)


def tally(model: AllWordsWSD, test: Sequence[Instance]) -> dict[str, list[int]]:
    """``{"all": [n, right], "classifier": ..., "none": ...}`` of ``model`` on ``test``."""
    found = {"all": [0, 0], "classifier": [0, 0], "none": [0, 0]}
    answers = model.predict(test)
    for inst, answer in zip(test, answers, strict=True):
        right = int(answer is not None and answer in inst.senses)
        for part in ("all", "classifier" if inst.key in model.models_ else "none"):
            found[part][0] += 1
            found[part][1] += right
    gold = {inst.id: inst.senses for inst in test}
    found["F1"] = 100 * score_framework(gold, dict(zip(gold, answers, strict=True)))["F1"]
    return found


def line(label: str, weight: float, found: dict, seconds: float | None = None) -> None:
    parts = "  ".join(f"{part} {100 * r / max(n, 1):5.1f} (n {n})"
                      for part, (n, r) in ((p, found[p]) for p in ("classifier", "none")))
    took = f"  fit {seconds:.0f} s" if seconds is not None else ""
    print(f"{label:>16}  weight {weight:4g}  F1 {found['F1']:5.2f}  {parts}{took}", flush=True)


def fitted(weight: float, train: Sequence[Instance]) -> tuple[AllWordsWSD, float]:
    clock = time.perf_counter()
    model = system(weight).fit(train, tagged=True)
    return model, time.perf_counter() - clock


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--weights", type=float, nargs="+", default=[0.0, 3.0])
    parser.add_argument("--pilot", action="store_true")
    parser.add_argument("--heldout", action="store_true")
    parser.add_argument("--full", action="store_true")
    parser.add_argument("--folds", type=int, default=3)
    parser.add_argument("--only-folds", type=int, nargs="+", help="score only these folds")
    parser.add_argument("--sample", type=int, default=1,
                        help="score one in this many of a fold's documents (cheaper)")
    args = parser.parse_args()
    tagger = system(0.0)
    semcor = tagger.tagged(load_dataset("semcor"))
    tests = {name: tagger.tagged(load_dataset(name)) for name in SETS}
    if args.pilot:
        keys = {inst.key for inst in tests["semeval2007"]}
        train = [inst for inst in semcor if inst.key in keys]
        for weight in args.weights:
            model, seconds = fitted(weight, train)
            line("pilot 2007", weight, tally(model, tests["semeval2007"]), seconds)
    if args.heldout:
        totals = {w: None for w in args.weights}
        for fold, (train, held) in enumerate(document_folds(semcor, args.folds, seed=0)):
            if args.only_folds and fold not in args.only_folds:
                continue
            documents = sorted({sentence_of(inst)[0] for inst in held})[::args.sample]
            held = [inst for inst in held if sentence_of(inst)[0] in set(documents)]
            for weight in args.weights:
                model, seconds = fitted(weight, train)
                found = tally(model, held)
                del model
                line(f"SemCor fold {fold}", weight, found, seconds)
                found["F1"] *= found["all"][0]
                totals[weight] = found if totals[weight] is None else {
                    k: [a + b for a, b in zip(totals[weight][k], v, strict=True)]
                    if k != "F1" else totals[weight][k] + v for k, v in found.items()}
        for weight, found in totals.items():
            found["F1"] /= found["all"][0]  # instance-weighted mean of the folds' F1
            line("held-out SemCor", weight, found)
    if args.full:
        for weight in args.weights:
            model, seconds = fitted(weight, semcor)
            for name in SETS:
                line(name, weight, tally(model, tests[name]), seconds)


if __name__ == "__main__":
    main()
