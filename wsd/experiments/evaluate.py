"""`wsd evaluate`: score a saved model on labelled data and list its mistakes for error analysis."""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from wsd.corpora.framework import write_key_file
from wsd.corpora.resolve import corpus_batches, corpus_files
from wsd.evaluation.metrics import accuracy, classification_report, confusion_matrix
from wsd.instance import Instance
from wsd.persistence import check_output_path, check_outputs_apart, write_text_atomic
from wsd.requests import EvaluateRequest
from wsd.systems.provenance import EvaluationNotes, check_targets
from wsd.systems.supervised import SupervisedWSD

BATCH = 10_000  # instances scored at once: a user file streams

ERROR_COLUMNS = ("id", "sentence", "gold", "predicted", "margin")


@dataclass(frozen=True)
class Evaluation:
    """What `wsd evaluate` prints: accuracy, the per-sense report, the confusion matrix (gold
    rows, predicted columns) and one row per wrong answer (see :func:`error_table`); and the
    predictions themselves with their instances' ids, in input order."""

    predictions: list[str]
    accuracy: float
    size: int
    report: pd.DataFrame
    confusion: pd.DataFrame
    errors: pd.DataFrame
    ids: list[str]
    wrong: int


def marked_sentence(inst: Instance) -> str:
    """The instance's tokens with the target marked as <<target>>, as in the input formats."""
    start, end = inst.span
    tokens = list(inst.tokens)
    return " ".join(tokens[:start] + [f"<<{' '.join(tokens[start:end])}>>"] + tokens[end:])


def error_table(model: SupervisedWSD, instances: list[Instance],
                predictions: list[str]) -> pd.DataFrame:
    """One row per wrong answer: id, sentence (target marked), gold, predicted and margin =
    the predicted sense's score minus the gold sense's (how far the right answer lost by; NaN
    when the model never saw the gold sense). Several gold senses are joined with spaces and
    the best-scored one gives the margin."""
    rows = []
    wrong = [(inst, p) for inst, p in zip(instances, predictions, strict=True)
             if p not in inst.senses]
    features = model.featurizer.transform([inst for inst, _ in wrong]) if wrong else []
    for (inst, predicted), x in zip(wrong, features, strict=True):
        scores = model.learner.predict_scores(x)
        gold_scores = [scores[s] for s in inst.senses if s in scores]
        margin = scores[predicted] - max(gold_scores) if gold_scores else math.nan
        rows.append({"id": inst.id, "sentence": marked_sentence(inst),
                     "gold": " ".join(inst.senses), "predicted": predicted,
                     "margin": round(float(margin), 4)})
    return pd.DataFrame(rows, columns=list(ERROR_COLUMNS))


def evaluate_model(model: SupervisedWSD, instances: list[Instance]) -> Evaluation:
    """Score ``model`` on gold-labelled ``instances``."""
    return evaluate_batches(model, [instances])


def evaluate_batches(model: SupervisedWSD, batches: Iterable[list[Instance]],
                     errors: bool = True) -> Evaluation:
    """Score ``model`` on gold-labelled instances given batch by batch: memory holds one
    batch, and the ids, gold senses and answers of all (a million rows in a few hundred MB).
    ``errors=False``: no table of the wrong answers (``errors`` is left empty)."""
    ids: list[str] = []
    predictions: list[str] = []
    gold: list[tuple[str, ...]] = []
    tables = []
    distinct: dict[tuple[str, ...], tuple[str, ...]] = {}  # each gold tuple kept once
    for batch in batches:
        answers = model.predict(batch)
        ids += [inst.id for inst in batch]
        predictions += answers
        gold += [distinct.setdefault(inst.senses, inst.senses) for inst in batch]  # shared
        if errors:
            tables.append(error_table(model, batch, answers))
    if not predictions:
        raise ValueError("no instances to evaluate on")
    first_gold = [g[0] for g in gold]
    return Evaluation(
        predictions=predictions,
        accuracy=accuracy(gold, predictions),
        size=len(predictions),
        report=classification_report(first_gold, predictions),
        confusion=confusion_matrix(first_gold, predictions),
        errors=(pd.concat(tables, ignore_index=True) if tables
                else pd.DataFrame(columns=list(ERROR_COLUMNS))),
        ids=ids,
        wrong=sum(p not in g for p, g in zip(predictions, gold, strict=True)),
    )


def write_errors(errors: pd.DataFrame, path: str | Path) -> Path:
    """Write the wrong answers as TSV with a header (tabs and newlines in sentences become
    spaces), all at once: a temp file renamed into place, so no half-written file is left."""
    clean = errors.replace(r"[\t\r\n]+", " ", regex=True)
    return write_text_atomic(path, clean.to_csv(sep="\t", index=False, lineterminator="\n"))


def format_evaluation(result: Evaluation) -> str:
    """The text `wsd evaluate` prints."""
    return "\n".join([
        f"accuracy {result.accuracy:.4f} on {result.size} instances "
        f"({result.wrong} wrong)",
        "",
        result.report.round(4).to_string(),
        "",
        "confusion matrix (rows: gold sense, columns: predicted sense)",
        result.confusion.to_string(),
    ])


def evaluate_command(request: EvaluateRequest) -> Iterator[str]:
    """Score the saved model on the corpus; write its wrong answers (--errors) and its
    answers as a key file (--key)."""
    inputs = [*corpus_files(request.corpus), request.model]
    check_outputs_apart({"--key": request.key, "--errors": request.errors})
    if request.key:
        check_output_path(request.key, "--key", inputs)
    if request.errors:
        Path(request.errors).parent.mkdir(parents=True, exist_ok=True)  # before the work
        check_output_path(request.errors, "--errors", inputs)
    model = SupervisedWSD.load(request.model)
    notes = EvaluationNotes(model.training_, request.corpus)

    def check(batch: list) -> None:  # every batch, before the first is scored
        notes.add(check_targets(model.lemmas_, batch, request.corpus))

    batches = (check_targets(model.lemmas_, batch, request.corpus)  # *bats*: the model's bat
               for batch in corpus_batches(request.corpus, BATCH, check))
    for note in notes.warnings():
        warnings.warn(note, stacklevel=1)
    result = evaluate_batches(model, batches, errors=bool(request.errors))
    yield format_evaluation(result)
    if request.errors:
        path = write_errors(result.errors, request.errors)
        yield f"{len(result.errors)} wrong answers written to {path}"
    if request.key:
        write_key_file(request.key, dict(zip(result.ids, result.predictions, strict=True)))
        yield f"predictions written to {request.key}"
