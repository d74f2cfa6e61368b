"""The gloss fusion's weight shrunk by how much a key was trained on (issue 39, held-out SemCor
+1.5; docs/sense-vectors.md, "The fusion's weight by the key's training examples"): a classifier
trained on few examples leans more on the gloss vectors, ``w(n) = w · (1 + c / n)`` or
``w · (50 / n) ** a`` for a key with n training examples, as ``prior_weight`` shrinks the sense
prior. Scored from the per-instance terms that ``benchmarks/gloss_classifiers.py --sense-grid``
keeps in ``--models`` (``terms-<set>.json``): the classifiers, the margin rule and the gloss
backoff as the ``tuned+context`` default's, only the fusion's weight changes. Each cell: F1 and,
in brackets, the instances right against the default (w = 200 flat).

    python benchmarks/fusion_shrinkage.py [--models DIR] [--sets semeval2007 heldout oof0 oof1]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
from gloss_classifiers import Grid, backoff_answer

from wsd.systems.allwords import AllWordsWSD
from wsd.systems.allwords.predict import most_frequent

DEFAULT_FUSION = 200.0


def cells(n: np.ndarray) -> Iterator[tuple[str, np.ndarray]]:
    """Per cell, its label and each classified instance's fusion weight (``n``: its key's
    training examples)."""
    yield "flat 200 (the default)", np.full(len(n), DEFAULT_FUSION)
    for w in (100, 150, 200):
        for c in (5, 10, 20, 50, 100):
            yield f"{w} (1 + {c}/n)", w * (1 + c / n)
    for w in (200, 300, 400):
        for a in (0.1, 0.2, 0.3):
            yield f"{w} (50/n)^{a}", w * (50 / n) ** a


def scores(records: list[dict]) -> dict[str, tuple[float, int]]:
    """Per cell, F1 and the instances its classifiers answer right."""
    classified = [r for r in records if r["classes"] is not None]
    others = [r for r in records if r["classes"] is None]
    grid = Grid(records, [most_frequent(r["counts"]) for r in classified])
    n = np.array([sum(r["counts"].values()) for r in classified], dtype=float)
    answers = [backoff_answer(r, 0, "train") for r in others]  # the gloss backoff
    backoff_right = sum(a is not None and a in r["gold"] for a, r in zip(answers, others,
                                                                          strict=True))
    answered = len(classified) + sum(a is not None for a in answers)
    cosines, margin, found = grid.gcos, AllWordsWSD().margin, {}
    for label, weights in cells(n):
        grid.gcos = cosines * weights[:, None]
        right = grid.right(1.0, 0.0, margin, None)
        p, r = (right + backoff_right) / answered, (right + backoff_right) / len(records)
        found[label] = (100 * 2 * p * r / (p + r), right)
    grid.gcos = cosines
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", type=Path, default=Path("/tmp/wsd-gloss-classifiers"),
                        help="the folder of gloss_classifiers.py's terms-<set>.json files")
    parser.add_argument("--sets", nargs="+", default=["semeval2007", "heldout", "oof0", "oof1"])
    args = parser.parse_args()
    missing = [name for name in args.sets if not (args.models / f"terms-{name}.json").exists()]
    if missing:
        parser.error(f"no terms-<set>.json in {args.models} for {', '.join(missing)}: run "
                     "benchmarks/gloss_classifiers.py --sense-grid --models DIR first")
    found = {name: scores(json.loads((args.models / f"terms-{name}.json").read_text()))
             for name in args.sets}  # fmt: skip
    print("cell".ljust(24) + "".join(name.rjust(18) for name in args.sets))
    for label in found[args.sets[0]]:
        row = []
        for name in args.sets:
            f1, right = found[name][label]
            row.append(f"{f1:7.2f} ({right - found[name]['flat 200 (the default)'][1]:+4d})")
        print(label.ljust(24) + "".join(cell.rjust(18) for cell in row))


if __name__ == "__main__":
    main()
