"""Contextual features in the all-words system (Raganato et al. 2017 framework, trained on SemCor).

``--choose``: the block's weight and layers, chosen on SemEval-2007 (the dev set) only: every
setting of the grid trains ``AllWordsWSD(features=TUNED_FEATURES + context)`` (all other options
at their defaults) on the SemCor instances of the lemma#pos keys SemEval-2007 has (the other
keys cannot change a dev answer; the block's scaling is then fitted on those instances) and
prints dev F1 (``--heldout``: the same weights on one in 20 SemCor documents held out, the
rest training). Then the prediction-time weights (sense prior, gloss overlap, one sense per
discourse) for the chosen block, on the same trained model.

Default: the system with and without the block, trained on all of SemCor (timed: wall and CPU
seconds of ``fit``, SemCor loading excluded; the encoding is cached, ``--cold`` encodes again
into a fresh cache), scored on semeval2007 (dev), senseval2 and senseval3 (reported only),
beside published figures; and the raw-text throughput of both models.

    python benchmarks/contextual_allwords.py --choose [--n-jobs 1]
    python benchmarks/contextual_allwords.py --heldout --weights 2 4 8
    python benchmarks/contextual_allwords.py [--weight W] [--layers -4 -3 -2 -1] [--cold]

Needs the framework data (``$WSD_FRAMEWORK_DIR``), the NLTK data and the [context] extra.
"""

from __future__ import annotations

import argparse
import itertools
import os
import resource
import tempfile
import time
from collections.abc import Sequence
from typing import Any

from wsd.corpora.framework import dataset_paths, load_framework
from wsd.evaluation.scorer import score_framework
from wsd.systems.allwords import TUNED_FEATURES, AllWordsWSD

DATASETS = ("semeval2007", "senseval2", "senseval3")
WEIGHTS = (0.5, 1.0, 2.0, 4.0)
LAYERS = ((-1,), (-4, -3, -2, -1))
PUBLISHED = {  # F1 on semeval2007, senseval2, senseval3 (Raganato et al. 2017; Huang et al. 2019)
    "IMS (SVM, SemCor)": (61.3, 70.9, 69.3),
    "IMS + word embeddings": (62.6, 72.2, 70.4),
    "GlossBERT (GPU-era)": (72.5, 77.7, 75.2),
}
SEMCOR_TOKENS = 771_530  # in its 36,218 sentences with at least one instance
PREDICTION_GRID = {"prior": (0.0, 0.5, 1.0), "gloss_weight": (0.0, 0.5, 1.0),
                   "discourse_weight": (0.0, 1.0, 3.0)}


def load(name: str):
    return load_framework(*dataset_paths(name, None))


def features(layers: Sequence[int], weight: float) -> list[dict[str, Any]]:
    return [*map(dict, TUNED_FEATURES),
            {"name": "context", "params": {"layers": list(layers), "weight": weight}}]


def f1(system: AllWordsWSD, instances) -> float:
    gold = {inst.id: inst.senses for inst in instances}
    answers = dict(zip(gold, system.predict(instances), strict=True))
    return 100 * score_framework(gold, answers)["F1"]


def choose(n_jobs: int, weights: Sequence[float], layer_sets: Sequence[tuple[int, ...]],
           prediction_grid: bool) -> None:
    semcor, dev = load("semcor"), load("semeval2007")
    keys = {inst.key for inst in dev}
    train = [inst for inst in semcor if inst.key in keys]
    print(f"grid on semeval2007: {len(train)} SemCor instances of its {len(keys)} keys")
    sparse = AllWordsWSD(n_jobs=n_jobs).fit(train)
    print(f"  sparse (TUNED_FEATURES)                 dev F1 {f1(sparse, dev):.1f}")
    best = (-1.0, None)
    for layers, weight in itertools.product(layer_sets, weights):
        clock = time.perf_counter()
        system = AllWordsWSD(features=features(layers, weight), n_jobs=n_jobs).fit(train)
        score = f1(system, dev)
        print(f"  layers {str(layers):16} weight {weight:3}  dev F1 {score:.1f}  "
              f"({time.perf_counter() - clock:.0f} s)", flush=True)
        if score > best[0]:
            best = (score, system)
    system = best[1]
    if not prediction_grid:
        return
    print(f"prediction-time weights for {system.features[-1]['params']} (dev F1):")
    for values in itertools.product(*PREDICTION_GRID.values()):
        for name, value in zip(PREDICTION_GRID, values, strict=True):
            setattr(system, name, value)
        print(f"  prior {values[0]:3} gloss {values[1]:3} discourse {values[2]:3}  "
              f"{f1(system, dev):.1f}", flush=True)


def heldout(n_jobs: int, weights: Sequence[float], share: int = 20, seed: int = 0) -> None:
    """Dev F1 on held-out SemCor documents: one in ``share`` of SemCor's documents (seeded
    draw) is held out, the rest trains the system without the block and with the mean of the
    last four layers at each weight."""
    import random

    from wsd.systems.allwords.context import sentence_of

    semcor = load("semcor")
    documents = sorted({sentence_of(inst)[0] for inst in semcor})
    held = set(random.Random(seed).sample(documents, len(documents) // share))
    train = [inst for inst in semcor if sentence_of(inst)[0] not in held]
    test = [inst for inst in semcor if sentence_of(inst)[0] in held]
    print(f"held-out SemCor: {len(held)} of {len(documents)} documents, {len(test)} instances; "
          f"training on the other {len(train)}")
    for name, spec in [("sparse", TUNED_FEATURES),
                       *((f"last four layers, weight {w}", features(LAYERS[1], w))
                         for w in weights)]:
        clock = time.perf_counter()
        system = AllWordsWSD(features=spec, n_jobs=n_jobs).fit(train)
        print(f"  {name:32} held-out F1 {f1(system, test):.2f}  "
              f"({time.perf_counter() - clock:.0f} s)", flush=True)


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def raw_text_rate(system: AllWordsWSD, tokens: int = 5000) -> float:
    """Tokens/s of the raw-text path on a stretch of senseval2's text (cache off for the block)."""
    from wsd.systems.allwords.plaintext import tag_text

    sentences, seen, count = [], set(), 0
    for inst in load("senseval2"):
        if inst.tokens not in seen and count < tokens:
            seen.add(inst.tokens)
            sentences.append(" ".join(inst.tokens))
            count += len(inst.tokens)
    cache = os.environ.get("WSD_CACHE_DIR")
    os.environ["WSD_CACHE_DIR"] = tempfile.mkdtemp(prefix="wsd-rate-")  # every sentence encoded
    try:
        tag_text(system, sentences[-1])  # the tagger and WordNet loaded before the clock starts
        clock = time.perf_counter()
        tag_text(system, "\n\n".join(sentences))
        return count / (time.perf_counter() - clock)
    finally:
        os.environ.pop("WSD_CACHE_DIR")
        if cache is not None:
            os.environ["WSD_CACHE_DIR"] = cache


def throughput(sentences: int, layers: Sequence[int]) -> None:
    """Encoding speed on the first ``sentences`` sentences of SemCor (cache off): one run per
    sentence whatever its number of targets."""
    from wsd.features import ContextualEmbedding
    from wsd.features.encoders import load_encoder

    load_encoder("minilm")
    chosen, instances = set(), []
    for inst in load("semcor"):
        if inst.tokens in chosen or len(chosen) < sentences:
            chosen.add(inst.tokens)
            instances.append(inst)
    tokens = sum(len(t) for t in chosen)
    clock, cpu = time.perf_counter(), cpu_seconds()
    ContextualEmbedding(layers=tuple(layers), cache=False).vectors(instances)
    wall, cpu = time.perf_counter() - clock, cpu_seconds() - cpu
    print(f"encoding {len(chosen)} SemCor sentences ({len(instances)} targets, {tokens} tokens): "
          f"{wall:.1f} s wall, {cpu:.1f} s CPU; {len(chosen) / wall:.0f} sentences/s, "
          f"{tokens / wall:.0f} tokens/s wall, {tokens / cpu:.0f} tokens per CPU second; all "
          f"of SemCor ({SEMCOR_TOKENS} tokens) at this rate: "
          f"{SEMCOR_TOKENS / tokens * wall / 60:.1f} min wall")


def compare(layers: Sequence[int], weight: float, n_jobs: int, cold: bool) -> None:
    if cold:
        os.environ["WSD_CACHE_DIR"] = tempfile.mkdtemp(prefix="wsd-cold-")
    semcor = load("semcor")
    tests = {name: load(name) for name in DATASETS}
    rows = []
    for name, spec in (("sparse (TUNED_FEATURES)", TUNED_FEATURES),
                       (f"sparse + context (layers {list(layers)}, weight {weight})",
                        features(layers, weight))):
        clock, cpu = time.perf_counter(), cpu_seconds()
        system = AllWordsWSD(features=spec, n_jobs=n_jobs, verbose=True).fit(semcor)
        wall, cpu = time.perf_counter() - clock, cpu_seconds() - cpu
        scores = [f1(system, tests[d]) for d in DATASETS]
        rows.append((name, *scores, wall, cpu, raw_text_rate(system)))
    print(f"| system | {' | '.join(DATASETS)} | train s (wall) | train s (CPU) | raw text tok/s |")
    print("|---|---|---|---|---|---|---|")
    for name, *scores, wall, cpu, rate in rows:
        print(f"| {name} | {' | '.join(f'{s:.1f}' for s in scores)} | {wall:.0f} | {cpu:.0f} | "
              f"{rate:.0f} |")
    for name, scores in PUBLISHED.items():
        print(f"| {name} (published) | {' | '.join(f'{s:.1f}' for s in scores)} | | | |")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--choose", action="store_true", help="the grid on semeval2007")
    parser.add_argument("--weights", type=float, nargs="+", default=WEIGHTS,
                        help="--choose: the block weights tried")
    parser.add_argument("--last", choices=("1", "4", "both"), default="both",
                        help="--choose: the last layer, the mean of the last four, or both")
    parser.add_argument("--no-prediction-grid", action="store_true")
    parser.add_argument("--heldout", action="store_true",
                        help="the block weights on held-out SemCor documents")
    parser.add_argument("--weight", type=float, default=8.0)
    parser.add_argument("--layers", type=int, nargs="+", default=[-4, -3, -2, -1])
    parser.add_argument("--cold", action="store_true", help="encode SemCor into a fresh cache")
    parser.add_argument("--n-jobs", type=int, default=1)
    parser.add_argument("--throughput", type=int, metavar="SENTENCES",
                        help="only the encoding speed on this many SemCor sentences")
    args = parser.parse_args(argv)
    if args.throughput:
        throughput(args.throughput, args.layers)
    elif args.heldout:
        heldout(args.n_jobs, args.weights)
    elif args.choose:
        layer_sets = {"1": LAYERS[:1], "4": LAYERS[1:], "both": LAYERS}[args.last]
        choose(args.n_jobs, args.weights, layer_sets, not args.no_prediction_grid)
    else:
        compare(args.layers, args.weight, args.n_jobs, args.cold)


if __name__ == "__main__":
    main()
