"""What each ``wsd`` command is asked to do: one small frozen dataclass of its options, checked
once, when it is made (``__post_init__``), with the library's own rules.

The command line parses its arguments into a request, a config file (``wsd run``) reads its
keys into the same request, and the command's library function takes it. Each field's
metadata says how it is given (``VALUE``, a switch, a list...) and holds its help text; a
help text names its default as ``{default}`` (the field's) or as a value the library owns
(``{settings.epochs}``, filled in by the command line when help is shown), never as a number
of its own. A field left ``None`` means "the library's default"."""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass, field
from typing import Any, ClassVar

from wsd.validation import (
    MAX_DOCUMENT_BYTES,
    check_count_flag,
    check_flag,
    check_parallel_flags,
    check_real_flag,
    check_weight,
)

# How an option is given: a value, a switch (store_true), a switch with a --no- form, several
# values, a comma-separated list, or a positional argument.
VALUE, FLAG, NEGATABLE, MANY, COMMA_LIST, POSITIONAL = (
    "value", "flag", "negatable", "many", "comma-list", "positional")
TRAINING_GROUP = "features and training"
PERCEPTRON_GROUP = "perceptron options (see docs/results.md, lexical sample)"
GROUPS = (None, PERCEPTRON_GROUP, TRAINING_GROUP)  # the order options are listed in --help
WEIGHTINGS = ("binary", "count", "tfidf", "block-tfidf", "ppmi")
NO_DEFAULT = dataclasses.MISSING


class CommandNote(UserWarning):
    """A note a command gives on the way (*note: lesk left out: ...*), printed as it is."""


def option(default: Any = None, help: str = "", *, kind: str = VALUE, choices: Any = None,
           group: str | None = None, exclusive: bool = False, nargs: str | None = None) -> Any:
    """A request field: its default (none: required), help text and how it is given.
    ``choices`` is a tuple, or the name of a list the library owns (filled by the command
    line); ``exclusive`` options of one request cannot be given together."""
    metadata = {"help": help, "kind": kind, "choices": choices, "group": group,
                "exclusive": exclusive, "nargs": nargs}
    if default is NO_DEFAULT:
        return field(metadata=metadata)
    return field(default=default, metadata=metadata)


def flag_of(item: dataclasses.Field) -> str:
    """The command-line spelling of a field: ``--backoff-margin`` for ``backoff_margin``."""
    return "--" + item.name.replace("_", "-")


def value_type(request: type, item: dataclasses.Field) -> type:
    """The type one given value of ``item`` is read as (int, float or str)."""
    hint = typing.get_type_hints(request)[item.name]
    for candidate in (int, float):
        if candidate in (hint, *typing.get_args(hint)):
            return candidate
    return str


def given(request: Any, *names: str, rename: dict[str, str] | None = None) -> dict[str, Any]:
    """The fields ``names`` that were given (not None), as keyword arguments (``rename``
    maps a field to the library's parameter)."""
    rename = rename or {}
    return {rename.get(name, name): getattr(request, name) for name in names
            if getattr(request, name) is not None}


def check_folds(folds: int, allow_split: bool, instances: int | None = None) -> None:
    """ValueError in the command line's words for a ``--folds`` that cannot be cut."""
    if folds < 2 and not (allow_split and folds == 0):
        raise ValueError(f"--folds {folds}: give at least 2"
                         + (" (or 0 for one 80/20 split)" if allow_split else ""))
    if instances is not None and folds > instances:
        raise ValueError(f"--folds {folds}: the corpus has {instances} instances; use --folds "
                         f"{instances} or fewer")


def _check_epochs(epochs: int | None) -> None:
    if epochs is not None and epochs < 1:
        raise ValueError(f"--epochs must be at least 1, got {epochs}")


@dataclass(frozen=True, kw_only=True)
class Training:
    """The features and training options the one-word systems share; unset ones default by
    corpus (the bundled corpus does best with a lemmatized bag of words and tf-idf)."""

    features: str | None = option(
        help="feature set (default: {settings.features} = BoW, words and POS around the target, "
             "collocations, target form; {small.features} for the bundled corpus)",
        choices="presets", group=TRAINING_GROUP)
    weighting: str | None = option(
        help="feature weighting, fitted on training data only (default: {settings.weighting}; "
             "{small.weighting} for the bundled corpus)", choices=WEIGHTINGS, group=TRAINING_GROUP)
    lemmatize: bool | None = option(
        help="lemmatize the bag of words with WordNet when it is installed (default: yes)",
        kind=NEGATABLE, group=TRAINING_GROUP)
    window: int | None = option(
        help="bag-of-words window of +-N tokens (default: the whole sentence)",
        group=TRAINING_GROUP)
    epochs: int | None = option(
        help="training epochs (default: {settings.epochs}; {small.epochs} for the bundled corpus)",
        group=TRAINING_GROUP)
    seed: int | None = option(help="random seed (default: {settings.seed})",
                              group=TRAINING_GROUP)

    def __post_init__(self) -> None:
        _check_epochs(self.epochs)
        for flag, rule in (("--window", "window"), ("--seed", "seed"), ("--epochs", "epochs")):
            check_flag(flag, getattr(self, rule), rule)  # the model file's loader's rules

    def training(self) -> dict[str, Any]:
        """The training options given, by the name SystemSettings gives them."""
        return given(self, "features", "weighting", "lemmatize", "window", "epochs", "seed")


@dataclass(frozen=True, kw_only=True)
class DisambiguateRequest(Training):
    command: ClassVar[str] = "disambiguate"
    summary: ClassVar[str] = "choose the senses of words in raw text"

    sentences: tuple[str, ...] = option(
        (), "text; with a bundled --target and no --model, sentences with the target marked "
            "as <<word>>", kind=POSITIONAL, nargs="*")
    target: str | None = option(help="only this word, in any inflection (bank, bass, crane, line "
                                     "and plant without --model use their bundled models)")
    model: str | None = option(
        help="a model file from `wsd allwords --save` (every content word of raw text) or `wsd "
             "train`; without one, gloss similarity (with the [context] extra) or Lesk with the "
             "WordNet sense prior answers; `gloss` or `lesk` names either")
    file: str | None = option(help="read the text from this file (- for stdin; text piped in "
                                   "with no text given is read too)")
    encoding: str | None = option(help="the encoding of --file or stdin (default: UTF-8, or "
                                       "UTF-16 where the text starts with its byte-order mark)")
    max_size: int | None = option(
        help="the most bytes of text read from --file or stdin: memory grows with the text, "
             "about half a GB per MB (default: {max_text_bytes})")
    json: bool = option(False, "print one JSON object per sentence", kind=FLAG)
    format: str = option("plain", "raw-text output: readable (plain), or one word per line "
                                  "(tsv, conll)", choices=("plain", "tsv", "conll"))
    top: int | None = option(
        help="features shown per answer, with the terms of its score margin over the "
             "runner-up, in plain and JSON output (default: {top} for a bundled target and "
             "with --target; 0 where every content word is tagged)")
    unsure_below: float | None = option(
        help="a bundled target's answers whose score margin over the runner-up is smaller are "
             "marked unsure (default: {unsure_margin})")

    def __post_init__(self) -> None:
        if self.target is not None and not self.target.strip():
            raise ValueError("--target is empty: give the word to disambiguate (any "
                             "inflection), or leave --target out to tag every content word")
        if self.top is not None and self.top < 0:
            raise ValueError(f"--top must be 0 or more, got {self.top}")
        check_real_flag("--unsure-below", self.unsure_below, 0.0, 1e6)
        check_count_flag("--max-size", self.max_size, 1, MAX_DOCUMENT_BYTES)
        super().__post_init__()

    def check_answering(self, raw_text: bool) -> None:
        """ValueError for options that would do nothing: training options where no model is
        trained (a model given with --model, or Lesk), --unsure-below where the answers are
        not a bundled target's."""
        flags = [flag for flag, name in (
            ("--features", "features"), ("--weighting", "weighting"),
            ("--lemmatize/--no-lemmatize", "lemmatize"), ("--window", "window"),
            ("--epochs", "epochs"), ("--seed", "seed")) if getattr(self, name) is not None]
        if flags and (self.model or raw_text):
            why = (f"{self.model} trains nothing" if self.model in ("gloss", "lesk")
                   else f"the model in {self.model} keeps the settings it was trained with"
                   if self.model
                   else f"{self.target or 'raw text'!r} has no bundled model to train")
            verb = "acts" if len(flags) == 1 else "act"
            raise ValueError(f"{', '.join(flags)} only {verb} when a bundled target's model is "
                             f"trained (bank, bass, crane, line, plant without --model); {why}")
        if self.unsure_below is not None and raw_text:
            raise ValueError("--unsure-below marks the answers of a bundled target's model; "
                             "raw-text answers give their margin (and with --top, their "
                             "reasons)")


@dataclass(frozen=True, kw_only=True)
class TrainRequest(Training):
    command: ClassVar[str] = "train"
    summary: ClassVar[str] = "train a model and save it as JSON"

    corpus: str = option(NO_DEFAULT, "{corpus_help}")
    learner: str = option("averaged", "learner (default: {default})", choices="learners")
    out: str = option(NO_DEFAULT, "model file to write (.json)")
    dictionary: str | None = option(help="lexical-sample dictionary XML: glosses for lesk")


@dataclass(frozen=True, kw_only=True)
class PredictRequest:
    command: ClassVar[str] = "predict"
    summary: ClassVar[str] = "predict senses for a user-format file"

    model: str = option(NO_DEFAULT, "model file from `wsd train`")
    input: str = option(NO_DEFAULT, "a .tsv or .jsonl file in the user format (senses optional)",
                        kind=POSITIONAL)


@dataclass(frozen=True, kw_only=True)
class EvaluateRequest:
    command: ClassVar[str] = "evaluate"
    summary: ClassVar[str] = "score a saved model on a labelled corpus"

    model: str = option(NO_DEFAULT, "model file from `wsd train`")
    corpus: str = option(NO_DEFAULT, "{corpus_help}")
    key: str | None = option(help="also write the predictions as a key file (id sense)")
    errors: str | None = option(help="write the wrong answers as TSV: id, sentence, gold, "
                                     "predicted, margin (predicted minus gold sense score)")


@dataclass(frozen=True, kw_only=True)
class CompareRequest(Training):
    command: ClassVar[str] = "compare"
    summary: ClassVar[str] = "compare systems on one corpus with the same folds"

    corpus: str = option(NO_DEFAULT, "{corpus_help}")
    systems: str = option(
        "mfs,first-sense,lesk,perceptron,averaged,voted",
        "comma-separated, from {system_names}; the knowledge-based ones only where the corpus "
        "has a sense inventory (default: {default})", kind=COMMA_LIST)
    folds: int = option(5, "k for stratified k-fold cross-validation; 0 for one 80/20 split "
                           "(default: {default})")
    out: str | None = option(help="write the table as OUT.csv and OUT.md, and the pairwise "
                                  "McNemar p-values as OUT-pairwise.csv and .md")
    quiet: bool = option(False, "no progress bar", kind=FLAG)

    def __post_init__(self) -> None:
        check_folds(self.folds, allow_split=True)
        super().__post_init__()

    def names(self) -> list[str]:
        """The systems named, in order."""
        return [name.strip() for name in self.systems.split(",") if name.strip()]


@dataclass(frozen=True, kw_only=True)
class CurvesRequest(Training):
    command: ClassVar[str] = "curves"
    summary: ClassVar[str] = "learning curves: epochs, example order, data size"

    corpus: str = option(NO_DEFAULT, "{corpus_help}")
    out: str = option("results/curves", "output folder (default: {default})")
    shuffles: int | None = option(
        help="example orders tried for the order-sensitivity plot (default: {curves.shuffles})")
    repeats: int | None = option(
        help="seeds (dev splits) for the training-size curve, drawn as the mean with a min-max "
             "band (default: {curves.repeats})")
    quiet: bool = option(False, "no progress bar", kind=FLAG)
    epochs: int | None = option(
        help="length of the accuracy-per-epoch curve (default: {curves.curve_epochs}); the order "
             "and size panels train for {settings.epochs} epochs ({small.epochs} for the bundled "
             "corpus), as `wsd train` does", group=TRAINING_GROUP)

    def __post_init__(self) -> None:
        if any(n is not None and n < 1 for n in (self.epochs, self.repeats, self.shuffles)):
            raise ValueError("--epochs, --repeats and --shuffles must be at least 1")
        for flag, rule in (("--window", "window"), ("--seed", "seed")):
            check_flag(flag, getattr(self, rule), rule)  # --epochs is the curve's length

    def training(self) -> dict[str, Any]:
        """The panels train as `wsd train` does: --epochs sets only the curve's length."""
        return given(self, "features", "weighting", "lemmatize", "window", "seed")


# Weights an all-words model applies when answering, by flag: they may change a saved model.
PREDICTION_FLAGS = ("--prior", "--prior-count", "--gloss-weight", "--discourse-weight",
                    "--backoff-margin", "--temperature")


@dataclass(frozen=True, kw_only=True)
class AllwordsRequest:
    command: ClassVar[str] = "allwords"
    summary: ClassVar[str] = "all-words WSD: one classifier per lemma#pos, trained on SemCor"

    train: str | None = option(
        help="training data: a framework dataset name or a *.data.xml path with its gold key "
             "beside it (default: {run_allwords.train})")
    evaluate: tuple[str, ...] | None = option(
        help="datasets to disambiguate and score: names (senseval2, senseval3, semeval2007, "
             "...) or *.data.xml paths (default: {run_allwords.evaluate[0]}; none with --save, "
             "which then only trains)", kind=MANY, nargs="+")
    framework: str | None = option(help="the framework folder (default: $WSD_FRAMEWORK_DIR, "
                                        "else ../shared/data/wsd_framework)")
    out: str | None = option(help="write <dataset>.key.txt answer files to this folder")
    save: str | None = option(help="train and save the system to this .npz model file (with no "
                                   "--evaluate it only trains)")
    model: str | None = option(help="apply a model saved with --save instead of training; the "
                                    "prediction-time weights (--prior to --temperature) still "
                                    "apply")
    features: str | None = option(
        help="feature set: tuned (the default), ims, either +context (the target's contextual "
             "vector beside them; needs the [context] extra), or context",
        choices="allwords_features")
    epochs: int | None = option(help="training epochs (default: {allwords.epochs})")
    models: int | None = option(help="perceptrons per word, trained on different shuffles and "
                                     "averaged (default: {allwords.n_models}; 1 is faster)")
    prior: float | None = option(help="weight of the log sense prior (default: {allwords.prior:g})")
    gloss_weight: float | None = option(help="weight of the overlap with WordNet glosses, 0 for "
                                             "none (default: {allwords.gloss_weight:g})")
    discourse_weight: float | None = option(help="weight of one sense per discourse, 0 for none "
                                                 "(default: {allwords.discourse_weight:g})")
    prior_count: float | None = option(
        help="the prior's weight grows by prior-count / n for a word with n training examples "
             "(default: {allwords.prior_count:g})")
    backoff_margin: float | None = option(
        help="answer the most frequent sense when the best sense wins by less (default: "
             "{allwords.margin:g})")
    temperature: float | None = option(
        help="a classifier answer's score is the softmax of its totals divided by this; "
             "changes no answer (default: {temperature:g}; with a contextual block "
             "{context_temperature:g}, {fusion_temperature:g} with the gloss fusion)")
    reader_joins: str | None = option(
        help="which WordNet expressions the raw-text reader learns to join: those the training "
             "corpus tagged (corpus), or WordNet's by their words and context, tagged there or "
             "not (wordnet: *global warming*); see docs/reader.md (default: "
             "{allwords.reader_joins})", choices=("corpus", "wordnet"))
    seed: int | None = option(help="random seed (default: {allwords.seed})")
    jobs: int = option(1, "parallel training processes; results do not depend on it "
                          "(default: {default})")
    workers: int | None = option(help="train on a local Dask cluster of N processes (same model "
                                      "file)", exclusive=True)
    scheduler: str | None = option(help="train on the Dask cluster at this address "
                                        "(tcp://HOST:PORT; same model file)", exclusive=True)
    quiet: bool = option(False, "no progress bar", kind=FLAG)

    def __post_init__(self) -> None:
        _check_epochs(self.epochs)
        if self.models is not None and self.models < 1:
            raise ValueError(f"--models must be at least 1, got {self.models}")
        for flag in PREDICTION_FLAGS:
            value = getattr(self, flag[2:].replace("-", "_"))
            if value is not None:
                check_weight(flag, value, above_zero=flag == "--temperature")
        check_flag("--seed", self.seed, "seed")
        check_parallel_flags(jobs=self.jobs, workers=self.workers)
        if self.model and self.save:
            raise ValueError("--save trains a model and --model applies a saved one; give one")
        training = [flag for flag, value in (("--seed", self.seed), ("--epochs", self.epochs),
                                             ("--models", self.models),
                                             ("--features", self.features),
                                             ("--reader-joins", self.reader_joins))
                    if value is not None]
        if self.model and training:
            raise ValueError(f"{', '.join(training)} only act when training; a model given with "
                             "--model keeps the values it was trained with (prediction-time "
                             f"options: {', '.join(PREDICTION_FLAGS)})")
        if self.jobs != 1 and (self.workers or self.scheduler):
            raise ValueError("--jobs runs local processes; with --workers or --scheduler the "
                             "Dask workers train")


@dataclass(frozen=True, kw_only=True)
class AnnotateRequest:
    command: ClassVar[str] = "annotate"
    summary: ClassVar[str] = "sense-tag a corpus, in one process or on Dask"

    inputs: tuple[str, ...] = option(
        NO_DEFAULT, '.txt files (one document each), JSONL files ({{"id", "text"}} per line), '
                    ".gz too, or folders", kind=POSITIONAL, nargs="+")
    model: str = option(NO_DEFAULT, "model file from `wsd allwords --save` (every content word) "
                                    "or `wsd train` (its word)")
    out: str = option(NO_DEFAULT, "output folder: part-NNNNN files and manifest.json; a re-run "
                                  "resumes it")
    partition_size: int | None = option(
        help="documents per partition (default: {annotate.partition_size})")
    max_document_size: int | None = option(
        help="longer documents are reported as bad (bytes; default: "
             "{annotate.max_document_bytes})")
    encoding: str | None = option(help="the input files' encoding (default: UTF-8, or UTF-16 "
                                       "where a .txt file starts with its byte-order mark)")
    format: str = option("jsonl", "partition files (parquet: the [parquet] extra; default: "
                                  "{default})", choices=("jsonl", "parquet"))
    workers: int | None = option(help="run on a local Dask cluster of N processes",
                                 exclusive=True)
    scheduler: str | None = option(help="run on the Dask cluster at this address "
                                        "(tcp://HOST:PORT)", exclusive=True)
    quiet: bool = option(False, "no progress bar", kind=FLAG)


@dataclass(frozen=True, kw_only=True)
class LexsampleRequest(Training):
    command: ClassVar[str] = "lexsample"
    summary: ClassVar[str] = "Senseval lexical sample: one model per lexelt, scorer2 answers"

    train: str = option(NO_DEFAULT, "training file (Senseval-2/3 format)")
    test: str = option(NO_DEFAULT, "test file (Senseval-2/3 format)")
    out: str = option(NO_DEFAULT, "answer file to write (lexelt id sense)")
    train_key: str | None = option(help="key file for --train (default: its <answer> elements)")
    test_key: str | None = option(help="key file for --test: print scorer2's accuracy")
    sense_map: str | None = option(help="scorer2 sense map: also print coarse-grained scores")
    dictionary: str | None = option(help="dictionary XML with glosses (needed by lesk)")
    learner: str = option("averaged", "learner per lexelt (default: {default})",
                          choices="learners")
    margin: float | None = option(help="update when the gold sense wins by less",
                                  group=PERCEPTRON_GROUP)
    update: str | None = option(help="step rule: perceptron (1) or passive-aggressive PA-I",
                                choices=("perceptron", "pa"), group=PERCEPTRON_GROUP)
    C: float | None = option(help="PA-I aggressiveness cap (default: {perceptron.C:g})",
                             group=PERCEPTRON_GROUP)
    models: int | None = option(help="the averaged learner is the mean of this many perceptrons "
                                     "over shuffles (default: {settings.models})",
                                group=PERCEPTRON_GROUP)
    prior: float | None = option(help="pseudo-count of the size-scaled log sense prior "
                                      "(default: {perceptron.prior:g})", group=PERCEPTRON_GROUP)
    backoff_margin: float | None = option(
        help="answer the most frequent sense below this winning margin", group=PERCEPTRON_GROUP)

    def learner_options(self) -> tuple[tuple[str, Any], ...]:
        """The perceptron options given, as SystemSettings keeps them."""
        return tuple(given(self, "margin", "update", "C", "prior", "backoff_margin").items())


@dataclass(frozen=True, kw_only=True)
class SensesRequest:
    command: ClassVar[str] = "senses"
    summary: ClassVar[str] = "list a word's senses with their glosses"

    word: str = option(NO_DEFAULT, "the word, e.g. bass", kind=POSITIONAL)
    pos: str | None = option(help="only senses of this part of speech (default: all)",
                             choices=("NOUN", "VERB", "ADJ", "ADV", "n", "v", "a", "r"))
    inventory: str = option("auto", "where the senses come from (default: {default} = the "
                                    "bundled inventory for its targets, WordNet for other words)",
                            choices=("auto", "bundled", "wordnet"))


@dataclass(frozen=True, kw_only=True)
class DemoRequest:
    command: ClassVar[str] = "demo"
    summary: ClassVar[str] = "the main job on the bundled corpus, offline"

    folds: int = option(5, "cross-validation folds (default: {default})")
    seed: int = option(0, "random seed (default: {default})")

    def __post_init__(self) -> None:
        check_folds(self.folds, allow_split=False)


@dataclass(frozen=True, kw_only=True)
class RunRequest:
    command: ClassVar[str] = "run"
    summary: ClassVar[str] = "run a command described in a JSON or TOML config"

    config: str = option(NO_DEFAULT, "config file (.json or .toml)", kind=POSITIONAL)


REQUESTS: dict[str, type] = {request.command: request for request in (
    DisambiguateRequest, TrainRequest, PredictRequest, EvaluateRequest, CompareRequest,
    CurvesRequest, AllwordsRequest, AnnotateRequest, LexsampleRequest, SensesRequest,
    DemoRequest, RunRequest)}


def options(request: type) -> list[dataclasses.Field]:
    """The fields of ``request`` in the order --help lists them: positionals and the
    command's own options, then its option groups."""
    return sorted(dataclasses.fields(request), key=lambda f: GROUPS.index(f.metadata["group"]))


def config_options(command: str) -> dict[str, str]:
    """Option string -> kind (VALUE, FLAG, NEGATABLE, MANY or COMMA_LIST) of ``command``'s
    options, for reading a config file; ValueError for an unknown command."""
    if command not in REQUESTS or command == "run":
        raise ValueError(f"unknown command {command!r}; choose from "
                         f"{', '.join(sorted(REQUESTS))}")
    return {flag_of(f): f.metadata["kind"] for f in dataclasses.fields(REQUESTS[command])
            if f.metadata["kind"] != POSITIONAL}


def positional_of(command: str) -> str | None:
    """The name of ``command``'s positional argument (a config key), if it has one."""
    request = REQUESTS.get(command)
    names = [f.name for f in dataclasses.fields(request) if f.metadata["kind"] == POSITIONAL] \
        if request else []
    return names[0] if names else None


def make_request(command: str, values: dict[str, Any]) -> Any:
    """``command``'s request from parsed ``values`` (by field name; lists become tuples),
    checked."""
    request = REQUESTS[command]
    fields = {f.name for f in dataclasses.fields(request)}
    return request(**{name: tuple(value) if isinstance(value, list) else value
                      for name, value in values.items() if name in fields})
