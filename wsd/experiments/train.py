"""`wsd train` and `wsd predict`: train one word's model on a corpus and save it; answer a
user-format file with a saved model, one batch at a time."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from pathlib import Path

from wsd.corpora.resolve import corpus_files, load_corpus
from wsd.corpora.userfile import user_file_batches
from wsd.experiments.lexsample_run import dictionary_glosses
from wsd.persistence import check_output_path
from wsd.requests import PredictRequest, TrainRequest
from wsd.systems.named import bundled_glosses, make_learner_system, settings_for
from wsd.systems.provenance import check_single_target, check_targets, check_two_senses
from wsd.systems.supervised import SAVED_AS_JSON, SupervisedWSD

BATCH = 10_000  # instances of a user file held in memory at once


def train_command(request: TrainRequest) -> Iterator[str]:
    """Train ``request.learner`` on the corpus and save it to ``request.out``."""
    check_output_path(request.out, "--out", [*corpus_files(request.corpus), request.dictionary])
    if Path(request.out).suffix.lower() == ".npz":  # refused by save, after training
        raise ValueError(f"--out {request.out}: {SAVED_AS_JSON}")
    instances = load_corpus(request.corpus)
    check_single_target(instances, request.corpus)
    if request.learner not in ("mfs", "lesk"):
        check_two_senses(instances, request.corpus)
    glosses = bundled_glosses(request.corpus.split(":", 1)[1]) if request.corpus.startswith(
        "bundled:") else None
    if request.dictionary:
        glosses = dictionary_glosses(request.dictionary, instances[0])
    model = make_learner_system(request.learner, settings_for(request, request.corpus),
                                glosses=glosses)
    model.fit(instances)
    model.save(request.out)
    yield (f"trained {request.learner} on {len(instances)} instances of {request.corpus} "
           f"({len(model.senses)} senses); saved to {request.out}")


def predict_command(request: PredictRequest) -> Iterator[str]:
    """``id<TAB>sense`` lines for the user file, one batch at a time (memory holds one)."""
    model = SupervisedWSD.load(request.model)
    check = partial(check_targets, model.lemmas_, source=request.input)
    for batch in user_file_batches(request.input, BATCH, require_senses=False, check=check):
        batch = check(batch)  # an inflected target takes the model's lemma (*bats*: bat)
        answers = model.predict(batch)
        yield from (f"{i.id}\t{s}" for i, s in zip(batch, answers, strict=True))
