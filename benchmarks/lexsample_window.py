"""The lexical sample's contextual window: how many word pieces around the target the encoder
sees (``ContextualEmbedding.window``), chosen by cross-validation on training data only.

``--encode W``: encode every context of NLTK's senseval words (hard, interest, line, serve)
with window W into the cache (``$WSD_CACHE_DIR``); run it under ``/usr/bin/time -v`` with an
empty cache for the cost. ``--cv``: for each of ``--windows``, the seeded stratified 5-fold
cross-validation accuracy of ``wsd lexsample``'s averaged perceptron with ``full+context``
(``SystemSettings(features="full+context")``, the window the only change), per word and the
mean over words; the vectors come from the cache when an ``--encode`` run left them.

    WSD_CACHE_DIR=/tmp/c /usr/bin/time -v python benchmarks/lexsample_window.py --encode 64
    WSD_CACHE_DIR=/tmp/c python benchmarks/lexsample_window.py --cv --windows 32 64 128 256

Needs the NLTK ``senseval`` and ``wordnet`` data and the [context] extra.
"""

from __future__ import annotations

import argparse
import dataclasses
import resource
import time

import numpy as np

from wsd.corpora.senseval import load_senseval, senseval_words
from wsd.experiments.compare import cross_validated_predictions
from wsd.features.contextual import ContextualEmbedding
from wsd.features.pos import ensure_pos
from wsd.systems.named import SystemSettings, make_system


def with_window(window: int):
    """A fresh full+context averaged-perceptron system whose block sees ``window`` pieces."""
    system = make_system("averaged", SystemSettings(features="full+context"))
    system.featurizer.extractors = [
        dataclasses.replace(e, window=window) if isinstance(e, ContextualEmbedding) else e
        for e in system.featurizer.extractors]
    return system


def encode(window: int) -> None:
    instances = [inst for word in senseval_words() for inst in load_senseval(word)]
    clock = time.perf_counter()
    vectors = ContextualEmbedding(window=window).vectors(instances)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(f"window {window}: {vectors.shape[0]} contexts encoded in "
          f"{time.perf_counter() - clock:.0f} s wall, {usage.ru_utime:.0f} s user CPU in all",
          flush=True)


def cross_validate(windows: list[int], folds: int, words: list[str]) -> None:
    scores: dict[int, list[float]] = {window: [] for window in windows}
    for word in words:
        instances = ensure_pos(load_senseval(word))
        for window in windows:
            clock = time.perf_counter()
            _, by_fold = cross_validated_predictions(lambda w=window: with_window(w), instances,
                                                     folds=folds, seed=0)
            scores[window].append(100 * float(np.mean(by_fold)))
            print(f"window {window:4d}  {word:9} {scores[window][-1]:.2f}  "
                  f"({time.perf_counter() - clock:.0f} s)", flush=True)
    for window, found in scores.items():
        print(f"window {window:4d}  mean of {len(found)} words {np.mean(found):.2f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--encode", type=int)
    parser.add_argument("--cv", action="store_true")
    parser.add_argument("--windows", type=int, nargs="+", default=[32, 64, 128, 256])
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--words", nargs="+", default=senseval_words())
    args = parser.parse_args()
    if args.encode:
        encode(args.encode)
    if args.cv:
        cross_validate(args.windows, args.folds, args.words)


if __name__ == "__main__":
    main()
