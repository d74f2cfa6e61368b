"""A learned gloss similarity beside the all-words classifiers (issue 39, held-out SemCor +1.5;
docs/sense-vectors.md, "A learned gloss similarity").

The gloss fusion of ``tuned+context`` adds ``10 w · cos(c, g_s)`` to each class's total: a fixed,
untrained similarity of the context ``c`` and the synset's gloss vector ``g_s``. Here the
similarity is learned on SemCor: ``L(i, s) = t_i^T (I + D) g_s`` (``t_i`` the unit target
vector: the encoder's last layer over the target's pieces, 256-piece window, as the contextual
block caches it; ``g_s`` the unit gloss vector), ``D`` diagonal or full, by the averaged ranking
perceptron over each instance's candidates (the lemma#pos's WordNet senses with a synset:
``wsd.learners.bilinear``), seeded shuffle, epochs 1..``--epochs``. Training instances are the
SemCor instances of the scored set's model's training documents only: folds 1-2 of
``document_folds(semcor, 3, seed=0)`` for held-out SemCor, the other half of folds 1-2 for the
out-of-fold sets oof0 / oof1, all of SemCor for semeval2007. ``L`` is divided by ``||I + D|| /
||I||`` (Frobenius) so that ``D = 0`` is the cosine and the scale stays the cosine's.

The cells reuse ``benchmarks/gloss_classifiers.py``'s instance terms (``terms-<set>.json`` in
``--models``, written by its ``--sense-grid``) and its ``Grid`` (classes only, margin 0.5):

- ``beside wg wl``: total + ``wg`` · the fusion's cosine + ``wl`` · L (the default is ``wg`` 200,
  ``wl`` 0);
- ``target wg``: the fusion's cosine with its target part (0.7 · cos(t, g)) replaced by 0.7 · L;
- ``alone``: the accuracy of the best candidate by L alone, and by the plain cosine;
- ``backoff beside w`` / ``backoff target``: the gloss backoff (keys seen without a classifier)
  with ``10 w · L`` added, or its cosine's target part replaced by L's.

Each line: F1 over all instances, then the accuracy on the instances with a classifier and on
those without. Epochs are chosen on the out-of-fold sets (inside the training folds).

    WSD_CACHE_DIR=... python benchmarks/gloss_classifiers.py --sense-grid --sets \
        semeval2007 heldout oof0 oof1 --models DIR      # the terms, once
    WSD_CACHE_DIR=... python benchmarks/learned_gloss.py --models DIR [--full]

Needs the framework data, the NLTK data and the [context] extra.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from gloss_classifiers import Grid, backoff_answer, heldout_sample

from wsd.corpora.framework import load_dataset
from wsd.features.contextual import ContextualEmbedding
from wsd.features.gloss_vectors import GlossVectors, unit_rows
from wsd.instance import Instance
from wsd.knowledge.inventory import WordNetInventory
from wsd.learners.bilinear import BilinearRankingPerceptron
from wsd.persistence import atomic_open
from wsd.systems.allwords import AllWordsWSD
from wsd.systems.allwords.keymodel import most_frequent
from wsd.systems.gloss_prior import GlossWithPrior

TARGET_SHARE = 0.7  # GlossWithPrior's 1 - mix: the target's part of the fusion's cosine
BESIDE_GLOSS = (0, 100, 150, 200, 250)
BESIDE_LEARNED = (0, 25, 50, 100, 150, 200, 300, 400, 600)
BACKOFF = (0.5, 1, 2, 3, 5)


class Candidates:
    """Unit target vectors and candidate gloss rows of instances: ``rows(i)`` the unit gloss
    vectors of instance ``i``'s candidates, ``names[i]`` their sense ids, ``right(i)`` the
    mask of its gold senses among them (the rows index one matrix of unit gloss vectors)."""

    def __init__(self, instances: Sequence[Instance], gloss: GlossWithPrior,
                 vectors: GlossVectors) -> None:  # fmt: skip
        embedding = ContextualEmbedding("minilm", layers=(-1,), window=256)
        self.targets = unit_rows(embedding.vectors(list(instances)))
        senses = [gloss.candidate_senses(inst) for inst in instances]
        synsets = sorted({s.synset for found in senses for s in found})
        known = vectors.vectors(synsets)
        self.matrix = unit_rows(np.stack([known[s] for s in synsets]))
        row = {s: k for k, s in enumerate(synsets)}
        self.index = [np.array([row[s.synset] for s in found], int) for found in senses]
        self.names = [[s.id for s in found] for found in senses]
        self.gold = [set(inst.senses) for inst in instances]

    def rows(self, i: int) -> np.ndarray:
        return self.matrix[self.index[i]]

    def right(self, i: int) -> np.ndarray:
        return np.array([n in self.gold[i] for n in self.names[i]], bool)

    def subset(self, positions: Sequence[int]) -> tuple[np.ndarray, list, list]:
        """The learner's inputs for the instances at ``positions``: targets, candidate rows
        (lazily read) and right masks."""
        positions = list(positions)
        return (self.targets[positions], _Lazy(self.rows, positions),
                _Lazy(self.right, positions))

    def learned(self, i: int, D: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Instance ``i``'s candidates' learned score (normalised) and plain cosine."""
        G, t = self.rows(i).astype(np.float64), self.targets[i].astype(np.float64)
        learned = G @ (t + (D * t if D.ndim == 1 else t @ D)) / scale(D)
        return learned, G @ t


class _Lazy(Sequence):
    def __init__(self, get, positions: list[int]) -> None:
        self.get, self.positions = get, positions

    def __len__(self) -> int:
        return len(self.positions)

    def __getitem__(self, k):  # type: ignore[override]
        return self.get(self.positions[k])


def scale(D: np.ndarray) -> float:
    """The root mean square of ``I + D``'s entries times ``sqrt(d)`` over ``I``'s: 1 for
    ``D = 0`` (the learned score is divided by it, so it stays on the cosine's scale)."""
    W = 1 + D if D.ndim == 1 else np.eye(len(D)) + D
    return float(np.sqrt((W**2).sum() / len(D)))


def split(name: str, semcor: list[Instance]) -> tuple[list[Instance], list[Instance]]:
    """The model's training instances and the scored instances of set ``name`` (as
    ``gloss_classifiers.place``)."""
    train, held = heldout_sample(semcor)
    if name.startswith("oof"):
        train, held = heldout_sample(train, 2, int(name[3:]))
    elif name != "heldout":
        train, held = semcor, load_dataset(name)
    return train, held


def per_class(values: dict[str, float], classes: Sequence[str]) -> list[float]:
    """Each class's value; a class that is not a candidate gets the lowest (0 with none)."""
    low = min(values.values(), default=0.0)
    return [values.get(c, low) for c in classes]


def score_cells(name: str, records: list[dict], cands: Candidates, D: np.ndarray,
                margin: float, label: str) -> dict[str, tuple[float, float, float]]:  # fmt: skip
    """F1, accuracy with a classifier and without, of each cell for ``D``."""
    learned, plain = [], []
    for i, record in enumerate(records):
        assert [c[0] for c in record["cands"]] == cands.names[i], f"{name}: record {i} differs"
        lv, pv = cands.learned(i, D) if cands.names[i] else (np.zeros(0), np.zeros(0))
        learned.append(dict(zip(cands.names[i], lv.tolist(), strict=True)))
        plain.append(dict(zip(cands.names[i], pv.tolist(), strict=True)))
    for part, inside in (("all", None), ("classifier", True), ("none", False)):
        ranked = [k for k, r in enumerate(records) if r["cands"]
                  and inside in (None, r["classes"] is not None)]  # fmt: skip
        alone = {kind: sum(max(values[k], key=values[k].get) in records[k]["gold"]
                           for k in ranked)
                 for kind, values in (("learned", learned), ("cosine", plain))}
        print(f"{name} {label} alone {part} (the best of the candidates, {len(ranked)} "
              "instances): " + ", ".join(f"{kind} {100 * right / max(len(ranked), 1):5.1f}"
                                         for kind, right in alone.items()), flush=True)
    classified = [k for k, r in enumerate(records) if r["classes"] is not None]
    others = [k for k, r in enumerate(records) if r["classes"] is None]
    grid = Grid(records, [most_frequent(records[k]["counts"]) for k in classified])
    base = grid.gcos.copy()
    n, n_cls = len(records), len(classified)
    for j, k in enumerate(classified):
        classes = records[k]["classes"]
        grid.scos[j, :len(classes)] = per_class(learned[k], classes)
        grid.gcos[j, :len(classes)] = np.asarray(records[k]["gcos"]) + TARGET_SHARE * (
            np.asarray(per_class(learned[k], classes)) - np.asarray(per_class(plain[k], classes)))
    swapped, grid.gcos = grid.gcos, base

    def backoff(kind: str, w: float) -> tuple[int, int]:
        right = answered = 0
        for k in others:
            record = dict(records[k])
            cands_ = [list(c) for c in record["cands"]]
            for c in cands_:
                if kind == "beside":
                    c[4] = 10 * learned[k][c[0]]
                else:
                    c[2] += 10 * TARGET_SHARE * (learned[k][c[0]] - plain[k][c[0]])
            record["cands"] = cands_
            answer = backoff_answer(record, w, "train")
            right += answer is not None and answer in record["gold"]
            answered += answer is not None
        return right, answered

    def f1(right: int, answered: int) -> float:
        p, r = right / max(answered, 1), right / n
        return 100 * 2 * p * r / max(p + r, 1e-12)

    cells = {}
    backs = {"default": backoff("beside", 0), "target": backoff("target", 0),
             **{f"beside {w:g}": backoff("beside", w) for w in BACKOFF}}
    for bname, (b_right, b_answered) in backs.items():
        for wg in BESIDE_GLOSS:
            for wl in BESIDE_LEARNED:
                if bname != "default" and (wg, wl) != (200, 0):
                    continue
                right = grid.right(wg, wl, margin, None)
                cells[f"beside {wg} {wl} | backoff {bname}"] = (
                    f1(right + b_right, n_cls + b_answered), right, b_right)
        if bname in ("default", "target"):
            grid.gcos = swapped
            for wg in (100, 150, 200, 250, 300):
                right = grid.right(wg, 0, margin, None)
                cells[f"target {wg} | backoff {bname}"] = (
                    f1(right + b_right, n_cls + b_answered), right, b_right)
            grid.gcos = base
    for cell, (value, right, b_right) in cells.items():
        print(f"{name} {label} {cell}: F1 {value:6.2f} classifier "
              f"{100 * right / n_cls:5.1f} none {100 * b_right / max(len(others), 1):5.1f}",
              flush=True)
    return cells


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", type=Path, default=Path("/tmp/wsd-gloss-classifiers"),
                        help="the folder of gloss_classifiers.py's terms-<set>.json")
    parser.add_argument("--sets", nargs="+", default=["oof0", "oof1", "heldout", "semeval2007"])
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--full", action="store_true", help="the full d x d matrix D")
    parser.add_argument("--rate", type=float, default=1.0, help="the perceptron's step")
    parser.add_argument("--out", type=Path, default=None,
                        help="keep each set's D of every epoch as <out>/D-<set>.npy")
    args = parser.parse_args()
    semcor = load_dataset("semcor")
    gloss, vectors = GlossWithPrior(WordNetInventory()), GlossVectors()
    start = time.time()
    everything = Candidates(semcor, gloss, vectors)
    print(f"SemCor: {len(semcor)} instances, {len(everything.matrix)} synsets "
          f"({time.time() - start:.0f} s)", flush=True)
    position = {inst.id: k for k, inst in enumerate(semcor)}
    margin = AllWordsWSD().margin
    results: dict[tuple[int, str], dict[str, float]] = {}
    trained: dict[str, BilinearRankingPerceptron] = {}
    for name in args.sets:
        train, test = split(name, semcor)
        records = json.loads((args.models / f"terms-{name}.json").read_text())
        scored = Candidates(test, gloss, vectors)
        start = time.time()
        key = "semcor" if train is semcor else name  # the test sets share all of SemCor's D
        if key not in trained:
            trained[key] = BilinearRankingPerceptron(
                diagonal=not args.full, epochs=args.epochs, seed=args.seed, rate=args.rate
            ).fit(*everything.subset([position[inst.id] for inst in train]))
        model = trained[key]
        print(f"{name}: D trained on {len(train)} instances, {args.epochs} epochs "
              f"({time.time() - start:.0f} s)", flush=True)
        if args.out:
            args.out.mkdir(parents=True, exist_ok=True)
            with atomic_open(args.out / f"D-{name}.npy", "wb") as stream:
                np.save(stream, np.stack(model.history_))
        for epoch, D in enumerate([np.zeros_like(model.D_), *model.history_]):
            if epoch:
                print(f"{name} epoch {epoch}: scale {scale(D):.3f}, mean of I + D's diagonal "
                      f"{1 + (D if D.ndim == 1 else np.diag(D)).mean():.3f}")
            for cell, value in score_cells(name, records, scored, D, margin,
                                           f"epoch {epoch}").items():
                results.setdefault((epoch, cell), {})[name] = value[0]
    choose(results, args.sets)


DEFAULT_CELL = (0, "beside 200 0 | backoff default")  # D = 0: today's fusion and backoff
REPORTED_ONLY = ("senseval2", "senseval3")  # scored, never used to choose


def choose(results: dict[tuple[int, str], dict[str, float]], sets: Sequence[str]) -> None:
    """The epoch and cell with the largest smallest gain over the default on the out-of-fold
    sets (ties: the mean gain), and its F1 on every set; then, for reference only, the same
    choice made on the development sets (senseval2 and senseval3 never choose)."""
    base = results[DEFAULT_CELL]
    development = [s for s in sets if s not in REPORTED_ONLY]
    for label, chooser in (("out-of-fold", [s for s in sets if s.startswith("oof")]),
                           ("every development set (reference, not a choice)", development)):
        if not chooser:
            continue
        scored = [k for k, v in results.items() if all(s in v for s in chooser)]
        best = max(scored, key=lambda k: (min(results[k][s] - base[s] for s in chooser),
                                          np.mean([results[k][s] - base[s] for s in chooser])))
        found = results[best]
        print(f"chosen on {label}: epoch {best[0]} {best[1]}: " + ", ".join(
            f"{s} {found[s]:.2f} ({found[s] - base[s]:+.2f})" for s in sets if s in found))


if __name__ == "__main__":
    main()
