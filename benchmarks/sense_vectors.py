"""Sense vectors from SemCor (``wsd.systems.allwords.sense_vectors``) where the all-words
system has no classifier: against the most frequent SemCor sense / WordNet first sense on the
instances whose ``lemma#pos`` has no classifier (seen with one sense only, with fewer than 2
examples, or never), on the evaluation sets (XML input) and on held-out SemCor documents.

For those instances the answer is ``argmax_s  prior · log P(s) + cos(x, v_s)`` over the
lemma's WordNet senses: ``P`` the add-one SemCor frequency over them, ``x`` the instance's
contextual vector (the ``tuned+context`` block's: mean of MiniLM's last four layers over the
target's pieces), ``v_s`` the sense's vector (seen in SemCor, else built through WordNet). The
prior weight is chosen on semeval2007 and held-out SemCor (3 folds by document, sense vectors
from the other folds); senseval2/3 are reported at that choice. Vectors come from the on-disk
cache ($WSD_CACHE_DIR) when an earlier run encoded them.

Usage: python benchmarks/sense_vectors.py
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence

import numpy as np

from wsd.corpora.framework import group_by_key, load_dataset
from wsd.experiments.heldout import document_folds
from wsd.features.contextual import ContextualEmbedding
from wsd.instance import Instance
from wsd.knowledge.inventory import WordNetInventory, nltk_wordnet
from wsd.systems.allwords.instance_features import CONTEXT_FEATURE
from wsd.systems.allwords.keymodel import most_frequent
from wsd.systems.allwords.sense_vectors import SenseVectors

SETS = ("semeval2007", "senseval2", "senseval3")
PRIORS = (0.0, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0)


def counts_of(train: Sequence[Instance]) -> dict[str, Counter]:
    return {key: Counter(i.senses[0] for i in group) for key, group in group_by_key(train).items()}


def has_classifier(counts: Counter | None) -> bool:
    return counts is not None and len(counts) > 1 and sum(counts.values()) >= 2


def evaluate(test, vectors, counts, table: SenseVectors, inventory) -> dict:
    """Per part (classifier / no classifier): instances and correct answers of the backoff
    (MFS, else first sense) and, per prior weight, of the sense-vector answer."""
    found = {"classifier": [0], "none": [0, 0] + [0] * len(PRIORS)}
    found["mfs"], found["unseen"] = list(found["none"]), list(found["none"])
    for inst, x in zip(test, vectors, strict=True):
        key_counts = counts.get(inst.key)
        if has_classifier(key_counts):
            found["classifier"][0] += 1
            continue
        senses = inventory.senses(inst.lemma, inst.target_pos)
        gold = set(inst.senses)
        backoff = most_frequent(key_counts) if key_counts else (senses[0].id if senses else None)
        row = [1, backoff in gold] + [0] * len(PRIORS)
        if senses:
            seen = key_counts or Counter()
            prior = np.log(np.array([seen[s.id] + 1.0 for s in senses])
                           / (sum(seen.values()) + len(senses)))  # fmt: skip
            cos = table.cosines(x, [s.synset for s in senses])
            for j, weight in enumerate(PRIORS):
                row[2 + j] = senses[int(np.argmax(weight * prior + cos))].id in gold
        else:
            row[2:] = [backoff in gold] * len(PRIORS)
        for part in ("none", "mfs" if key_counts else "unseen"):
            found[part] = [a + b for a, b in zip(found[part], row, strict=True)]
    return found


def report(name: str, found: dict) -> None:
    """Accuracy (%) of the backoff and of the sense vectors on the instances without a
    classifier: all of them, those of keys seen (MFS) and of keys never seen (first sense)."""
    for part in ("none", "mfs", "unseen"):
        n, backoff, *by_prior = found[part]
        cells = " ".join(f"{100 * c / max(n, 1):5.1f}" for c in by_prior)
        label = name if part == "none" else f"  {part}"
        print(f"{label:>16} {found['classifier'][0] if part == 'none' else '':>6} {n:6d}  "
              f"{100 * backoff / max(n, 1):5.1f} | {cells}", flush=True)


def main() -> None:
    params = CONTEXT_FEATURE["params"]
    block = ContextualEmbedding(params["model"], layers=tuple(params["layers"]),
                                window=params["window"])
    inventory, wordnet = WordNetInventory(), nltk_wordnet()
    start = time.perf_counter()
    semcor = load_dataset("semcor")
    semcor_vectors = block.vectors(semcor)
    print(f"SemCor vectors: {semcor_vectors.shape} in {time.perf_counter() - start:.0f} s")
    print(f"{'set':>16} {'clf':>6} {'no clf':>6}  {'MFS/1st':>5} | sense vectors, prior weight "
          + " ".join(f"{w:5g}" for w in PRIORS))
    index = {inst.id: i for i, inst in enumerate(semcor)}
    total = None
    for fold, (train, held) in enumerate(document_folds(semcor, 3, seed=0)):
        rows = [index[i.id] for i in train]
        table = SenseVectors.fit(train, semcor_vectors[rows], wordnet)
        found = evaluate(held, semcor_vectors[[index[i.id] for i in held]], counts_of(train),
                         table, inventory)
        report(f"SemCor fold {fold}", found)
        total = found if total is None else {k: [a + b for a, b in zip(total[k], v,
                                                                        strict=True)]
                                             for k, v in found.items()}  # fmt: skip
    report("held-out SemCor", total)
    table = SenseVectors.fit(semcor, semcor_vectors, wordnet)
    counts = counts_of(semcor)
    for name in SETS:
        test = load_dataset(name)
        report(name, evaluate(test, block.vectors(test), counts, table, inventory))


if __name__ == "__main__":
    main()
