"""Gloss similarity with the sense prior (``GlossWithPrior``) against Lesk with the sense prior
on the all-words evaluation sets (XML input, nothing trained on them), with the official scorer.

The weight of the cosine term, the sentence's share of the context vector (beside the target's
pieces) and the weight of the gloss overlap are chosen on semeval2007 only, from the grid below
(the best cell; on a tie, the smaller weight); senseval2 and senseval3 are reported at every
cell. Each instance's cosines and overlaps are computed once and the grid reuses them. Needs
the [context] extra, WordNet and the WSD framework folder; the gloss vectors are kept under
$WSD_CACHE_DIR (a second run reads them back).

Usage: python benchmarks/gloss_allwords.py [--sets semeval2007 senseval2 senseval3] [--tour]
(``--tour``: only the sentences of ``TOUR``, answered by each system.)
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

import numpy as np

from wsd.corpora.framework import load_dataset
from wsd.evaluation.scorer import score_framework
from wsd.instance import Instance
from wsd.knowledge.inventory import WordNetInventory
from wsd.systems.gloss_prior import (
    DEFAULT_MIX,
    DEFAULT_OVERLAP,
    DEFAULT_WEIGHT,
    GlossWithPrior,
)
from wsd.systems.lesk import LeskWithPrior, SimplifiedLesk, log_prior

SETS = ("semeval2007", "senseval2", "senseval3")
# Sentences a new user might try, none of a bundled target, written with the synsets that count
# as right before either system was run on them.
TOUR = (
    ("She poured a pitcher of lemonade for the guests.", "pitcher",
     {"pitcher.n.02", "pitcher.n.03"}),
    ("We drank cold water from a mountain spring.", "spring", {"spring.n.03", "spring.n.04"}),
    ("He swung the bat and hit the ball over the fence.", "bat",
     {"bat.n.05", "cricket_bat.n.01"}),
    ("A bat flew out of the cave at dusk.", "bat", {"bat.n.01"}),
    ("The pitcher threw the ball to the batter.", "pitcher", {"pitcher.n.01"}),
    ("She wore a gold ring on her finger.", "ring", {"ring.n.08"}),
    ("He turned the key and opened the door.", "key", {"key.n.01"}),
    ("She drank a glass of milk.", "glass", {"glass.n.02", "glass.n.03"}),
)
DEV = "semeval2007"
WEIGHTS = (0.0, 3.0, 5.0, 7.0, 10.0, 15.0)
MIXES = (0.0, 0.3, 0.5, 1.0)  # the sentence's share of the context vector
OVERLAPS = (0.0, 1.0, 2.0)  # the weight of log(1 + shared words)


def f1(instances: Sequence[Instance], answers: Sequence[str | None]) -> float:
    gold = {inst.id: inst.senses for inst in instances}
    return 100 * score_framework(gold, dict(zip(gold, answers, strict=True)))["F1"]


Row = tuple[list[str], np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def parts(system: GlossWithPrior, instances: Sequence[Instance]) -> list[Row | None]:
    """Per instance: candidate ids, log priors, cosines with the target's and with the
    sentence's vector, log(1 + shared words) (None without candidates)."""
    system.prepare(instances)
    found: list[Row | None] = []
    for inst in instances:
        senses = [s for s in system._inventory().senses(inst.lemma, inst.target_pos) if s.synset]
        if not senses:
            found.append(None)
            continue
        cosines = []
        for mix in (0.0, 1.0):
            system.mix = mix
            cosines.append(system.similarities(inst, senses))
        overlaps = np.log1p([len(system.shared_words(inst, s)) for s in senses])
        found.append(([s.id for s in senses], np.array(log_prior(senses, {}, 1.0)), *cosines,
                      overlaps))
    return found


def answers(rows: Sequence[Row | None], weight: float, mix: float, overlap: float
            ) -> list[str | None]:  # fmt: skip
    return [None if row is None else row[0][int(np.argmax(
        row[1] + weight * ((1 - mix) * row[2] + mix * row[3]) + overlap * row[4]))]
        for row in rows]  # fmt: skip


def tour() -> None:
    """Each tour sentence answered without a model by Lesk and by gloss similarity (both with
    the sense prior), as `wsd disambiguate "..." --target WORD --model lesk|gloss` does."""
    from wsd.systems.allwords.plaintext import tag_text

    right = {"lesk": 0, "gloss": 0}
    for text, target, accepted in TOUR:
        cells = []
        for name in right:
            (word,) = tag_text(name, text, target)[1]
            right[name] += word.synset_name in accepted
            cells.append(f"{name} {word.synset_name}{'' if word.synset_name in accepted else ' x'}")
        print(f"{text:52} " + "; ".join(cells))
    print(f"right: lesk {right['lesk']} of {len(TOUR)}, gloss {right['gloss']} of {len(TOUR)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", nargs="+", default=list(SETS), choices=SETS)
    parser.add_argument("--tour", action="store_true", help="only the tour sentences")
    args = parser.parse_args()
    if args.tour:
        tour()
        return
    inventory = WordNetInventory()
    data = {name: load_dataset(name) for name in args.sets}
    print("instances: " + ", ".join(f"{name} {len(insts)}" for name, insts in data.items()))
    lesk = {name: f1(insts, LeskWithPrior(SimplifiedLesk(inventory)).predict(insts))
            for name, insts in data.items()}  # fmt: skip
    print("LeskWithPrior F1: " + ", ".join(f"{n} {v:.1f}" for n, v in lesk.items()))
    system = GlossWithPrior(inventory)
    start = time.perf_counter()
    rows = {name: parts(system, insts) for name, insts in data.items()}
    print(f"cosines and overlaps in {time.perf_counter() - start:.0f} s")
    grid = {(w, m, o): {name: f1(data[name], answers(rows[name], w, m, o)) for name in data}
            for w in WEIGHTS for m in MIXES for o in OVERLAPS}  # fmt: skip
    chosen = max(grid, key=lambda cell: (grid[cell][DEV], -cell[0])) if DEV in data else None
    print(f"{'weight':>7} {'mix':>5} {'overlap':>7}" + "".join(f"{n:>13}" for n in args.sets)
          + "   (F1 minus LeskWithPrior's in brackets)")
    for cell, scores in grid.items():
        mark = "  <- best on semeval2007" if cell == chosen else ""
        print(f"{cell[0]:7g} {cell[1]:5g} {cell[2]:7g}" + "".join(
            f"{scores[n]:6.1f} ({scores[n] - lesk[n]:+4.1f})" for n in args.sets) + mark)
    defaults = (DEFAULT_WEIGHT, DEFAULT_MIX, DEFAULT_OVERLAP)
    print("defaults " + str(defaults) + ": " + ", ".join(
        f"{n} {grid[defaults][n]:.1f}" for n in args.sets) if defaults in grid else "")

if __name__ == "__main__":
    main()
