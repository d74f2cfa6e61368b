"""Baselines and the Lesk family on the all-words evaluation sets, with the official scorer.

Systems, each scored on semeval2007 (the development set all options were tuned on),
senseval2 and senseval3 of the unified framework (Raganato et al. 2017):
- MFS: most frequent sense per ``lemma#pos`` in SemCor, WordNet first sense for unseen lemmas;
- WordNet first sense;
- ``nltk.wsd.lesk(sentence tokens, lemma, pos letter)``, its synset mapped to the sense key of
  the lemma in that synset (no answer when NLTK returns None). NLTK keeps only synsets whose
  POS equals the letter, so 'a' never yields a satellite; for adjectives 's' is tried when 'a'
  gives nothing (this reproduces the reference figures);
- our pure Lesk variants (dictionary text only; no sense counts): SimplifiedLesk, OriginalLesk,
  ExtendedLesk with their defaults (first-sense backoff when nothing overlaps, as NLTK's first
  synset on a tie at zero), and ExtendedLesk with no backoff at all (unanswered instances lower
  recall only);
- LeskWithPrior (defaults): SimplifiedLesk's overlap times WordNet's sense-count prior,
  ``P(s) · (1 + overlap)^2``.

P, R and F1 come from ``wsd.evaluation.scorer.score_framework`` (P = correct / answered,
R = correct / total). Speed is instances per second of ``predict``. WordNet and SemCor loading and
MFS training are outside the timed part, and one untimed WordNet-first-sense pass over each set
fills NLTK's own synset cache first so that row order does not matter; every system starts
with empty caches of its own (signatures, related glosses), which its timing includes.
Reference F1 (senseval2 / senseval3 / semeval2007), measured with the shared SemCor and WordNet,
and the published extended Lesk of Raganato et al. (2017) are printed alongside.

Needs the NLTK WordNet data and the WSD framework folder.
Usage: python benchmarks/knowledge_allwords.py [--sets semeval2007 senseval2 senseval3]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence

from wsd.corpora.framework import load_dataset
from wsd.evaluation.scorer import score_framework
from wsd.instance import Instance
from wsd.knowledge.inventory import WordNetInventory, wordnet_pos
from wsd.systems.baselines import MostFrequentSense, WordNetFirstSense
from wsd.systems.lesk import ExtendedLesk, LeskWithPrior, OriginalLesk, SimplifiedLesk

SETS = ("semeval2007", "senseval2", "senseval3")
REFERENCE_F1 = {  # senseval2, senseval3, semeval2007
    "MFS (SemCor)": (67.2, 66.1, 56.3),
    "WordNet first sense": (66.8, 66.2, 55.2),
    "nltk.wsd.lesk": (48.3, 45.7, 32.1),
    "published extended Lesk": (50.6, 44.5, 32.0),
}
_REFERENCE_ORDER = ("senseval2", "senseval3", "semeval2007")


class NltkLesk:
    """``nltk.wsd.lesk`` as an instance-level system answering sense keys."""

    def fit(self, instances: Sequence[Instance]) -> NltkLesk:
        return self

    def predict(self, instances: Sequence[Instance]) -> list[str | None]:
        from nltk.wsd import lesk

        answers: list[str | None] = []
        for inst in instances:
            name = "_".join(inst.lemma.lower().split())
            letter = wordnet_pos(inst.target_pos)
            synset = lesk(list(inst.tokens), name, letter)
            if synset is None and letter == "a":
                synset = lesk(list(inst.tokens), name, "s")
            if synset is None:
                answers.append(None)
                continue
            lemmas = synset.lemmas()
            matching = [lem for lem in lemmas if lem.name().lower() == name]
            answers.append((matching or lemmas)[0].key())
        return answers


def systems(semcor: Sequence[Instance]) -> dict[str, Callable[[], object]]:
    """Fresh systems (empty caches) by row name; MFS is trained on SemCor once."""
    mfs = MostFrequentSense().fit(semcor)
    return {
        "MFS (SemCor)": lambda: mfs,
        "WordNet first sense": lambda: WordNetFirstSense(WordNetInventory()),
        "nltk.wsd.lesk": NltkLesk,
        "SimplifiedLesk": lambda: SimplifiedLesk(WordNetInventory()),
        "OriginalLesk": lambda: OriginalLesk(WordNetInventory()),
        "ExtendedLesk": lambda: ExtendedLesk(WordNetInventory()),
        "ExtendedLesk, no backoff": lambda: ExtendedLesk(WordNetInventory(), backoff="none"),
        "LeskWithPrior": lambda: LeskWithPrior(SimplifiedLesk(WordNetInventory())),
    }


def evaluate(system, instances: Sequence[Instance]) -> tuple[dict, float]:
    start = time.perf_counter()
    answers = system.predict(instances)
    seconds = time.perf_counter() - start
    gold = {inst.id: inst.senses for inst in instances}
    predictions = {inst.id: a for inst, a in zip(instances, answers, strict=True)}
    return score_framework(gold, predictions), len(instances) / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", nargs="+", default=list(SETS), choices=SETS)
    args = parser.parse_args()

    WordNetInventory()  # load WordNet before any timing
    start = time.perf_counter()
    semcor = load_dataset("semcor")
    table_systems = systems(semcor)
    print(f"SemCor: {len(semcor)} instances loaded and MFS counted in "
          f"{time.perf_counter() - start:.1f} s")
    data = {name: load_dataset(name) for name in args.sets}
    print("instances: " + ", ".join(f"{name} {len(insts)}" for name, insts in data.items()))

    for instances in data.values():  # warm NLTK's synset cache (see the module docstring)
        WordNetFirstSense(WordNetInventory()).predict(instances)

    results: dict[str, dict[str, tuple[dict, float]]] = {}
    for row, make in table_systems.items():
        results[row] = {}
        for name, instances in data.items():
            results[row][name] = evaluate(make(), instances)
        print(f"  done: {row}", flush=True)

    header = f"{'system':30}" + "".join(f"{name:>26}" for name in args.sets)
    print()
    print("P / R / F1 (%) and instances per second; [reference F1]")
    print(header)
    for row in table_systems:
        cells = []
        for name in args.sets:
            scores, speed = results[row][name]
            cells.append(
                f"{100 * scores['P']:5.1f} {100 * scores['R']:5.1f} {100 * scores['F1']:5.1f}"
                f" {speed:7.0f}/s"
            )
        print(f"{row:30}" + "".join(f"{cell:>26}" for cell in cells))
        if row in REFERENCE_F1:
            print(f"{'  [reference]':30}" + "".join(
                f"{'[' + format(REFERENCE_F1[row][_REFERENCE_ORDER.index(n)], '.1f') + ']':>26}"
                for n in args.sets
            ))
    ref = REFERENCE_F1["published extended Lesk"]
    print(f"{'published extended Lesk':30}" + "".join(
        f"{'[' + format(ref[_REFERENCE_ORDER.index(n)], '.1f') + ']':>26}" for n in args.sets
    ))


if __name__ == "__main__":
    main()
