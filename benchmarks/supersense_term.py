"""A supersense term beside the gloss fusion (issue 39, held-out SemCor +1.5): one classifier
over all of the training corpus's instances, the target's contextual vector in, its gold
sense's lexicographer file (*noun.artifact*, *verb.motion*, ...: 45 classes) out, shared by
every word; each candidate sense then gets ``w · log p(its file | x)`` beside the default
decision (classifiers' totals, gloss fusion 200, margin 0.5), and ``w_b`` times the same in
the gloss backoff of the words without a classifier.

Every other term tried beside the fusion (docs/sense-vectors.md, "Tried and not kept") used
the target's vectors of the same word only, which its per-word classifier already weighs; this
one learns from every word's instances, so a rare sense can borrow from other words' senses of
its file. The classifier is scikit-learn's (the ``bench`` extra): multinomial logistic
regression, or a one-layer perceptron network (768 units, early stopping, seed 0) for a
non-linear one; it is trained on the training part of each set's model (all of SemCor for
semeval2007; folds 1-2 for held-out SemCor; each half of folds 1-2 for ``oof0`` / ``oof1``),
the vectors standardised with that part's statistics.

Each line: a set, the backoff weight ``w_b``, then F1 at each ``w`` (``w`` = 0 and ``w_b`` = 0
is the default). Needs the ``terms-<set>.json`` files and models of
``benchmarks/gloss_classifiers.py --sense-grid`` in ``--models``, the framework data, the
NLTK data and the [context] extra:

    WSD_CACHE_DIR=... python benchmarks/supersense_term.py --models DIR [--learner mlp]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from gloss_classifiers import Grid, backoff_answer, split
from sklearn.linear_model import LogisticRegression
from sklearn.neural_network import MLPClassifier

from wsd.corpora.framework import load_dataset
from wsd.systems.allwords import AllWordsWSD
from wsd.systems.allwords.keymodel import most_frequent

CLASS_WEIGHTS = (0, 1, 2, 5, 10, 20, 40)
BACKOFF_WEIGHTS = (0, 0.1, 0.2, 0.5, 1)


def lexicographer_file(key: str) -> int:
    """The lexicographer file number of a WordNet sense key (``bank%1:17:01::``: 17)."""
    return int(key.split("%")[1].split(":")[1])


def with_supersense(records: list[dict], log_p: np.ndarray, files: Sequence[int]) -> None:
    """Put each candidate's ``log p(file | x)`` where the grid reads the sense term (a file the
    classifier never saw: the lowest log probability of all)."""
    column = {f: j for j, f in enumerate(files)}
    floor = float(log_p.min())

    def term(i: int, key: str) -> float:
        j = column.get(lexicographer_file(key))
        return floor if j is None else float(log_p[i, j])

    for i, record in enumerate(records):
        for candidate in record["cands"]:
            candidate[4] = term(i, candidate[0])
        if record["classes"] is not None:
            record["scos"] = [term(i, key) for key in record["classes"]]


def grid_lines(name: str, records: list[dict], margin: float) -> list[str]:
    """F1 at each backoff weight (a line) and class weight (a column)."""
    classified = [r for r in records if r["classes"] is not None]
    others = [r for r in records if r["classes"] is None]
    grid = Grid(records, [most_frequent(r["counts"]) for r in classified])

    def f1(right: int, answered: int) -> float:
        p, r = right / max(answered, 1), right / len(records)
        return 100 * 2 * p * r / max(p + r, 1e-12)

    lines = []
    for w_b in BACKOFF_WEIGHTS:
        answers = [backoff_answer(r, w_b, "train") for r in others]
        right = sum(a is not None and a in r["gold"] for a, r in zip(answers, others, strict=True))
        answered = len(classified) + sum(a is not None for a in answers)
        cells = [f"{w:g}: {f1(grid.right(200, w, margin, None) + right, answered):.2f}"
                 for w in CLASS_WEIGHTS]
        lines.append(f"{name} backoff {w_b:g} | " + "  ".join(cells))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", type=Path, default=Path("/tmp/wsd-gloss-classifiers"))
    parser.add_argument("--sets", nargs="+", default=["semeval2007", "heldout", "oof0", "oof1"])
    parser.add_argument("--learner", choices=("logistic", "mlp"), default="logistic")
    args = parser.parse_args()
    semcor = load_dataset("semcor")
    block = AllWordsWSD.load(args.models / "full.npz").context_
    vectors = block.vectors(semcor)  # the encoder's cache makes this a read
    row = {inst.id: i for i, inst in enumerate(semcor)}
    files = np.array([lexicographer_file(inst.senses[0]) for inst in semcor])
    for name in args.sets:
        train, held = split(name, semcor)
        rows = np.array([row[inst.id] for inst in train])
        x, y = vectors[rows], files[rows]
        mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-6
        learner = (LogisticRegression(max_iter=300) if args.learner == "logistic" else
                   MLPClassifier(hidden_layer_sizes=(768,), early_stopping=True, max_iter=30,
                                 batch_size=512, random_state=0))
        learner.fit((x - mean) / scale, y)
        records = json.loads((args.models / f"terms-{name}.json").read_text())
        if len(records) != len(held):
            raise SystemExit(f"{name}: terms-{name}.json has {len(records)} instances, the set "
                             f"{len(held)}: made from other models?")
        log_p = learner.predict_log_proba((block.vectors(held) - mean) / scale)
        right = learner.classes_[log_p.argmax(axis=1)] == [
            lexicographer_file(inst.senses[0]) for inst in held]
        print(f"{name}: supersense accuracy {100 * right.mean():.1f}", flush=True)
        with_supersense(records, log_p, list(learner.classes_))
        for line in grid_lines(name, records, AllWordsWSD().margin):
            print(line, flush=True)


if __name__ == "__main__":
    main()
