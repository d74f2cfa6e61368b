"""Feature extraction speed, and our vectorize + tf-idf step against scikit-learn's.

1. Featurize every instance of the four NLTK senseval words (hard, interest, line, serve; POS
   tags from the corpus) with sentence bag of words + POS -3..+3 + the 11 IMS collocations, and
   print instances per second (corpus loading is not timed).
2. On those same feature dicts, time fitting and applying the vectorize + tf-idf step:
   ours = ``TfIdf().fit_transform`` on the dicts then ``FeatureVectorizer.fit_transform``;
   scikit-learn = ``DictVectorizer().fit_transform`` then ``TfidfTransformer().fit_transform``
   (same smoothed idf and l2 norm). Both matrices are checked to be equal. Each figure is the
   best of ``--repeat`` runs (the two methods' runs interleaved).

Needs the NLTK senseval data and scikit-learn. Usage: python benchmarks/features.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from typing import Any

from wsd.corpora.senseval import load_senseval, senseval_words
from wsd.features import BagOfWords, Collocations, FeatureVectorizer, Featurizer, PosTags, TfIdf


def _best_of(repeat: int, work: Callable[[], Any]) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = work()
        best = min(best, time.perf_counter() - start)
    return best, result


def _ours(dicts):
    return FeatureVectorizer().fit_transform(TfIdf().fit_transform(dicts))


def _sklearn(dicts):
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.feature_extraction.text import TfidfTransformer

    return TfidfTransformer().fit_transform(DictVectorizer().fit_transform(dicts))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (best is kept)")
    args = parser.parse_args()

    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"machine: {os.cpu_count()} cores, load average {load} (figures are noisy when busy)")
    instances = [inst for word in senseval_words() for inst in load_senseval(word)]
    featurizer = Featurizer([BagOfWords(), PosTags(window=3), Collocations()], weighting="count")
    seconds, dicts = _best_of(args.repeat, lambda: featurizer.extract(instances))
    n_features = sum(len(d) for d in dicts)
    print(f"senseval {', '.join(senseval_words())}: {len(instances)} instances, "
          f"{n_features / len(dicts):.1f} features per instance")  # fmt: skip
    print(f"featurize (BoW + POS +-3 + 11 collocations): {seconds:.2f} s, "
          f"{len(instances) / seconds:,.0f} instances/s")  # fmt: skip

    ours_s, sk_s = float("inf"), float("inf")
    for _ in range(args.repeat):  # interleaved, so both see the same machine load
        seconds, ours = _best_of(1, lambda: _ours(dicts))
        ours_s = min(ours_s, seconds)
        seconds, theirs = _best_of(1, lambda: _sklearn(dicts))
        sk_s = min(sk_s, seconds)
    assert ours.shape == theirs.shape, (ours.shape, theirs.shape)
    assert (ours != theirs).nnz == 0 or abs(ours - theirs).max() < 1e-12  # sparse: no toarray
    print(f"\nvectorize + tf-idf (fit and transform), {ours.shape[0]} x {ours.shape[1]}, "
          f"{ours.nnz:,} non-zeros, matrices equal")  # fmt: skip
    print(f"{'method':<36}{'seconds':>9}{'ratio':>8}")
    print(f"{'wsd TfIdf + FeatureVectorizer':<36}{ours_s:>9.3f}{ours_s / sk_s:>8.2f}")
    print(f"{'sklearn DictVectorizer + Tfidf':<36}{sk_s:>9.3f}{1.0:>8.2f}")


if __name__ == "__main__":
    main()
