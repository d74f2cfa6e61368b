"""POS tagging with and without the per-process tag cache (``wsd.features.pos.tag_tokens``).

Lexical-sample contexts arrive untagged (the Senseval files have none), so the featurizer tags
every context. Cross-validation extracts the features of each context once per fold it appears
in (k - 1 times as training, once as test), so without a cache every context is tagged k times.
This script strips NLTK senseval's own tags from one word's instances and times the feature
extraction of a k-fold run, first calling NLTK's tagger every time, then through the cache.

    python benchmarks/pos_cache.py [--word line] [--folds 5] [--size 1000]

Needs the NLTK ``senseval`` corpus and the ``averaged_perceptron_tagger_eng`` tagger.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace

from wsd.corpora.senseval import load_senseval
from wsd.evaluation.splits import instance_labels, stratified_order
from wsd.features import pos
from wsd.systems.lexical import best_featurizer


def fold_features(instances, folds: int) -> float:
    """Seconds to fit_transform the training part and transform the test part of every fold."""
    order = stratified_order(instance_labels(instances), seed=0)
    start = time.perf_counter()
    for fold in range(folds):
        test = {i for n, i in enumerate(order) if n % folds == fold}
        featurizer = best_featurizer()
        featurizer.fit_transform([inst for i, inst in enumerate(instances) if i not in test])
        featurizer.transform([instances[i] for i in sorted(test)])
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--word", default="line")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--size", type=int, default=1000, help="instances used (0: all)")
    args = parser.parse_args()
    instances = [replace(inst, pos=None) for inst in load_senseval(args.word)]
    instances = instances[: args.size or None]
    fold_features(instances[:20], 2)  # load the tagger, WordNet and the lemmatizer once

    cached = pos.tag_tokens
    pos.tag_tokens = cached.__wrapped__  # NLTK's tagger on every call
    try:
        uncached_seconds = fold_features(instances, args.folds)
    finally:
        pos.tag_tokens = cached
    cached.cache_clear()
    cached_seconds = fold_features(instances, args.folds)
    tokens = sum(len(inst.tokens) for inst in instances)
    print(f"{args.word}: {len(instances)} untagged contexts ({tokens} tokens), "
          f"{args.folds}-fold feature extraction")
    print(f"  tagging every time (NLTK pos_tag per call): {uncached_seconds:7.1f} s")
    print(f"  tag cache (each context tagged once):        {cached_seconds:7.1f} s")
    print(f"  speed-up: {uncached_seconds / cached_seconds:.2f}x; cache: {cached.cache_info()}")


if __name__ == "__main__":
    main()
