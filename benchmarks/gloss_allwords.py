"""Gloss similarity with the sense prior (``GlossWithPrior``) against Lesk with the sense prior
on the all-words evaluation sets (XML input, nothing trained on them), with the official scorer.

The weight of the cosine term and the context vector (the sentence pooled as the glosses are,
or the target's pieces) are chosen on semeval2007 only, from the grid below; senseval2 and
senseval3 are reported at that choice. Each instance's cosines are computed once and the
grid reuses them. Needs the [context] extra, WordNet and the WSD framework folder; the gloss
vectors are kept under $WSD_CACHE_DIR (a second run reads them back).

Usage: python benchmarks/gloss_allwords.py [--sets semeval2007 senseval2 senseval3]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

import numpy as np

from wsd.corpora.framework import load_dataset
from wsd.evaluation.scorer import score_framework
from wsd.instance import Instance
from wsd.knowledge import LeskWithPrior, SimplifiedLesk
from wsd.knowledge.gloss_prior import CONTEXTS, GlossWithPrior
from wsd.knowledge.inventory import WordNetInventory

SETS = ("semeval2007", "senseval2", "senseval3")
DEV = "semeval2007"
WEIGHTS = (0.0, 2.0, 5.0, 10.0, 15.0, 20.0, 30.0, 50.0, 100.0)


def f1(instances: Sequence[Instance], answers: Sequence[str | None]) -> float:
    gold = {inst.id: inst.senses for inst in instances}
    return 100 * score_framework(gold, dict(zip(gold, answers, strict=True)))["F1"]


def terms(system: GlossWithPrior, instances: Sequence[Instance]) -> list[tuple[list, np.ndarray,
                                                                             np.ndarray]]:
    """Per instance: candidate ids, log priors, cosines (weight 1)."""
    system.prepare(instances)
    found = []
    for inst in instances:
        rows = system.sense_terms(inst)
        found.append(([s.id for s, _, _ in rows], np.array([p for _, p, _ in rows]),
                      np.array([c for _, _, c in rows]) / system.weight))
    return found


def answers(rows, weight: float) -> list[str | None]:
    return [ids[int(np.argmax(prior + weight * cos))] if ids else None
            for ids, prior, cos in rows]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", nargs="+", default=list(SETS), choices=SETS)
    args = parser.parse_args()
    inventory = WordNetInventory()
    data = {name: load_dataset(name) for name in args.sets}
    print("instances: " + ", ".join(f"{name} {len(insts)}" for name, insts in data.items()))
    lesk = {name: f1(insts, LeskWithPrior(SimplifiedLesk(inventory)).predict(insts))
            for name, insts in data.items()}  # fmt: skip
    print("LeskWithPrior F1: " + ", ".join(f"{n} {v:.1f}" for n, v in lesk.items()))
    for context in CONTEXTS:
        system = GlossWithPrior(inventory, weight=1.0, context=context)
        start = time.perf_counter()
        rows = {name: terms(system, insts) for name, insts in data.items()}
        print(f"\ncontext={context}: cosines in {time.perf_counter() - start:.0f} s")
        print(f"{'weight':>8}" + "".join(f"{name:>14}" for name in args.sets))
        for weight in WEIGHTS:
            print(f"{weight:8g}" + "".join(
                f"{f1(data[name], answers(rows[name], weight)):14.1f}" for name in args.sets))


if __name__ == "__main__":
    main()
