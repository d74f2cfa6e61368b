"""The README's main job: compare systems on every bundled target, then explain some answers."""

from __future__ import annotations

import time
from collections.abc import Iterator
from functools import partial

from wsd.corpora.bundled import bundled_targets, load_bundled
from wsd.experiments.compare import compare_systems
from wsd.experiments.disambiguate import disambiguate, format_record
from wsd.experiments.report import describe_column, readable_table
from wsd.knowledge.inventory import BundledInventory
from wsd.requests import DemoRequest
from wsd.systems.named import make_system, small_corpus_settings, train_bundled_model

DEMO_SYSTEMS = ("mfs", "lesk", "perceptron", "averaged", "voted")
DEMO_COLUMNS = ["accuracy", "ci_low", "ci_high", "macro_f1", "p_vs_mfs"]

NEW_SENTENCES = {
    "bass": [
        "He caught a huge <<bass>> at the lake this morning.",
        "She plays <<bass>> in a jazz band on Fridays.",
        "Turn the <<bass>> down, the neighbours are complaining.",
    ],
    "crane": [
        "A <<crane>> lifted the steel beams onto the roof.",
        "We watched a <<crane>> wading through the marsh at dawn.",
    ],
    "plant": [
        "Water the <<plant>> on the windowsill twice a week.",
        "The car <<plant>> will hire four hundred workers next year.",
    ],
    "bank": [
        "She opened a savings account at the <<bank>> downtown.",
        "We had a picnic on the grassy <<bank>> of the river.",
    ],
    "line": [
        "Please hold the <<line>> for a moment.",
        "We waited in <<line>> for an hour to buy tickets.",
        "She forgot her <<lines>> in the second act.",
    ],
}


def demo_command(request: DemoRequest) -> Iterator[str]:
    """`wsd demo`: cross-validate the demo systems on each bundled target and explain the
    answers for new sentences, as printed."""
    started = time.perf_counter()
    folds, seed = request.folds, request.seed
    inventory = BundledInventory()
    for target in bundled_targets():
        instances = load_bundled(target)
        settings = small_corpus_settings(seed=seed)
        systems = {name: partial(make_system, name, settings, inventory) for name in DEMO_SYSTEMS}
        table = compare_systems(systems, instances, folds=folds, seed=seed, n_resamples=500)
        yield f"\n== {target}: {len(instances)} sentences, {folds}-fold cross-validation =="
        yield readable_table(table[DEMO_COLUMNS]).to_string()
    yield "\ncolumns:\n" + "\n".join(f"  {c}: {describe_column(c)}" for c in DEMO_COLUMNS)
    yield "\n== New sentences, explained by the averaged perceptron =="
    for target, sentences in NEW_SENTENCES.items():
        if target not in bundled_targets():
            continue
        model = train_bundled_model(target, small_corpus_settings(seed=seed))
        for record in disambiguate(model, sentences, target, top=4):
            yield format_record(record)
    yield f"\ndone in {time.perf_counter() - started:.1f} s"
