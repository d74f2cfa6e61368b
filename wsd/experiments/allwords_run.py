"""``run_allwords``, the end-to-end entry point behind ``wsd allwords``: train (or load a model),
disambiguate framework datasets (``*.data.xml``), write key files and score them like the
official scorer."""

from __future__ import annotations

import math
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from wsd.cluster import joblib_on_dask
from wsd.corpora.framework import dataset_paths, load_framework, write_key_file
from wsd.corpora.resolve import corpus_files
from wsd.evaluation.scorer import score_framework
from wsd.knowledge import lexicon_compiler
from wsd.persistence import check_output_path
from wsd.requests import AllwordsRequest, given
from wsd.systems.allwords.instance_features import feature_set
from wsd.systems.allwords.system import AllWordsWSD


def resolve_dataset(
    spec: str | os.PathLike, root: str | os.PathLike | None = None
) -> tuple[str, Path, Path | None]:
    """``(name, data.xml, gold key or None)`` for a framework dataset name or a ``*.data.xml``
    path (its gold key is ``<name>.gold.key.txt`` beside it, when that file exists)."""
    text = os.fspath(spec)
    if text.endswith(".xml"):
        xml_path = Path(text)
        if not xml_path.is_file():
            raise ValueError(f"{xml_path} does not exist; give a *.data.xml file or a dataset name")
        name = xml_path.name.removesuffix(".xml").removesuffix(".data")
        key_path = xml_path.with_name(name + ".gold.key.txt")
        return name, xml_path, key_path if key_path.is_file() else None
    xml_path, key_path = dataset_paths(text, root)
    return text, xml_path, key_path


def check_outputs(datasets: Sequence[tuple[str, Path, Path | None]],
                  out_dir: str | os.PathLike | None, model_path: str | os.PathLike | None,
                  inputs: Sequence[Path | None]) -> None:  # fmt: skip
    """ValueError before any work when an output would overwrite an input (a dataset's XML or
    gold key, the training data, the model) or another output (two datasets of one name
    writing one key file)."""
    if model_path is not None:
        check_output_path(model_path, "--save", inputs)
    if out_dir is None:
        return
    seen: dict[str, Path] = {}
    for name, xml_path, _ in datasets:
        if name in seen and seen[name].resolve() != xml_path.resolve():
            raise ValueError(f"--evaluate: {seen[name]} and {xml_path} are both named {name!r}; "
                             f"both answers would be written to {Path(out_dir) / name}.key.txt "
                             "and the first lost: rename one of them")
        seen[name] = xml_path
    Path(out_dir).mkdir(parents=True, exist_ok=True)
    outputs = [Path(out_dir) / f"{name}.key.txt" for name in seen]
    for key_file in outputs:
        check_output_path(key_file, "--out", [*inputs, model_path])


# Options that act when answering, not when training: they can change a loaded model.
PREDICTION_OPTIONS = ("prior", "prior_count", "gloss_weight", "discourse_weight", "margin",
                      "temperature", "backoff")
_RUN_OPTIONS = ("n_jobs", "verbose")  # how to run, not what to compute
TRAINING_DATA, EVALUATION_DATA = "semcor", ("semeval2007",)  # the framework's own split


def with_prediction_options(system: AllWordsWSD, options: dict[str, Any]) -> AllWordsWSD:
    """``system`` with the prediction-time ``options`` set (checked); ValueError naming any
    option that only acts in training (a loaded model cannot honour it)."""
    training = sorted(set(options) - set(PREDICTION_OPTIONS) - set(_RUN_OPTIONS))
    if training:
        raise ValueError(f"{', '.join(training)} only act when training; a saved model keeps "
                         f"the values it was trained with (prediction-time options: "
                         f"{', '.join(PREDICTION_OPTIONS)})")
    for name, value in options.items():
        if name in PREDICTION_OPTIONS:
            setattr(system, name, value)
    system._check_params()
    return system


def run_allwords(
    train: str | os.PathLike | None = TRAINING_DATA,
    evaluate: Sequence[str | os.PathLike] = EVALUATION_DATA,
    out_dir: str | os.PathLike | None = None,
    root: str | os.PathLike | None = None,
    model_path: str | os.PathLike | None = None,
    model: AllWordsWSD | str | os.PathLike | None = None,
    **options: Any,
) -> pd.DataFrame:
    """Train ``AllWordsWSD(**options)`` on ``train`` and disambiguate every ``evaluate`` dataset.

    Datasets are framework names ('semcor', 'senseval2', 'semeval2007', ...) or ``*.data.xml``
    paths; ``evaluate`` may be empty (train and save only). ``model`` (a fitted AllWordsWSD or
    a model file) is used instead of training; then only prediction-time ``options``
    (``PREDICTION_OPTIONS``) may be given, and they take effect. With ``out_dir`` each
    dataset's answers go to ``<out_dir>/<name>.key.txt``; with ``model_path`` the system is
    saved there (.npz). Returns one row per dataset: instances, answered, P, R, F1 (fractions,
    as ``score_framework``; NaN when the dataset has no gold key).
    """
    datasets = [resolve_dataset(spec, root) for spec in evaluate]  # bad names fail before training
    if model_path is not None and Path(model_path).suffix.lower() == ".json":
        raise ValueError(f"{model_path}: all-words models are saved in the compact .npz format; "
                         "give a path ending in .npz")
    inputs = [path for _, xml, key in datasets for path in (xml, key)]
    if train is not None and model is None:
        inputs += resolve_dataset(train, root)[1:]
    if isinstance(model, str | os.PathLike):
        inputs.append(Path(model))
    check_outputs(datasets, out_dir, model_path, inputs)
    if model is not None:
        system = model if isinstance(model, AllWordsWSD) else AllWordsWSD.load(model)
        system = with_prediction_options(system, options)
    elif train is None:
        raise ValueError("give training data (train=) or a trained model (model=)")
    else:
        _, train_xml, train_key = resolve_dataset(train, root)
        if train_key is None:
            raise ValueError(f"training data {train_xml} has no gold key file beside it")
        system = AllWordsWSD(**options).fit(load_framework(train_xml, train_key))
        system.trained_on_["data"] = str(train)
    if model_path is not None:
        system.save(model_path)
    if out_dir is not None:
        Path(out_dir).mkdir(parents=True, exist_ok=True)
    rows = []
    for name, xml_path, key_path in datasets:
        instances = load_framework(xml_path, key_path)
        answers = dict(zip((inst.id for inst in instances), system.predict(instances),
                           strict=True))  # fmt: skip
        if out_dir is not None:
            write_key_file(Path(out_dir) / f"{name}.key.txt", answers)
        row: dict[str, Any] = {"dataset": name, "instances": len(instances)}
        if key_path is not None:
            scores = score_framework({inst.id: inst.senses for inst in instances}, answers)
            row.update({k: scores[k] for k in ("answered", "P", "R", "F1")})
        else:
            row.update({"answered": sum(a is not None for a in answers.values()),
                        "P": math.nan, "R": math.nan, "F1": math.nan})  # fmt: skip
        rows.append(row)
    return pd.DataFrame(rows, columns=["dataset", "instances", "answered", "P", "R", "F1"])


def allwords_command(request: AllwordsRequest) -> Iterator[str]:
    """`wsd allwords`: train (or load --model), answer and score the datasets, save the model;
    the score table as printed (P, R, F1 in percent)."""
    train = request.train or TRAINING_DATA
    if request.save:
        check_output_path(request.save, "--save", corpus_files(train))
    if request.out:
        Path(request.out).mkdir(parents=True, exist_ok=True)  # before training, not after
    evaluate = request.evaluate if request.evaluate is not None else (
        () if request.save else EVALUATION_DATA)  # --save alone only trains
    options = given(request, "seed", "epochs", "models", "prior", "gloss_weight",
                    "discourse_weight", "prior_count", "backoff_margin", "temperature",
                    "reader_joins",
                    rename={"models": "n_models", "backoff_margin": "margin"})
    if request.features is not None:
        options["features"] = feature_set(request.features)
    with joblib_on_dask(request.workers, request.scheduler):
        table = run_allwords(
            train=None if request.model else train, evaluate=evaluate, out_dir=request.out,
            root=request.framework, model_path=request.save, model=request.model,
            n_jobs=request.jobs, verbose=not request.quiet, **options)
    if len(table):
        scores = table.copy()
        for column in ("P", "R", "F1"):
            scores[column] = (100 * scores[column]).round(1)
        yield scores.to_string(index=False)
    if request.out and len(table):
        yield f"key files written to {request.out}"
    if request.save:
        yield f"model saved to {request.save}"
        lexicon_compiler.ensure()  # WordNet and tagger compiled once: fast `disambiguate --model`
