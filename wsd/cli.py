"""The ``wsd`` command: parse arguments, call wsd.experiments, print results.

Errors a user can cause (bad input, missing files or resources) end in one line on stderr
naming the file (and line) and exit code 2, never a traceback; any other exception is a bug and
keeps its traceback. ``--debug`` shows the traceback of input errors too.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import sys
import warnings
from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import NoReturn

from wsd import __version__
from wsd.api import ONE_WORD, scope_of
from wsd.corpora.resolve import CORPUS_HELP, corpus_files, load_corpus
from wsd.experiments.disambiguate import UNSURE_MARGIN
from wsd.features import PRESETS
from wsd.persistence import (
    check_output_path,
    check_outputs_apart,
    check_text,
    codec_name,
    decode_text,
    read_bytes,
)
from wsd.resources import MissingResourceError, has_nltk_resource
from wsd.systems.allwords.instance_features import FEATURE_SET_NAMES as ALLWORDS_FEATURE_SETS
from wsd.systems.named import (
    KNOWLEDGE,
    SUPERVISED,
    SYSTEM_NAMES,
    SystemSettings,
    bundled_glosses,
    small_corpus_settings,
    train_bundled_model,
)
from wsd.validation import check_flag, check_parallel_flags, check_real_flag, cut_list

WEIGHTINGS = ("binary", "count", "tfidf", "block-tfidf", "ppmi")
LEARNERS = ("perceptron", "averaged", "voted", "mfs", "lesk")
# What bad input, a missing file or a missing resource raises (DefusedXmlException,
# UnicodeDecodeError and JSONDecodeError are ValueErrors); anything else is a bug.
INPUT_ERRORS = (ValueError, MissingResourceError, OSError, ImportError)


def _settings_arguments(parser: argparse.ArgumentParser, epochs_help: str | None = None) -> None:
    group = parser.add_argument_group("features and training")
    group.add_argument("--features", choices=PRESETS, default=None,
                       help="feature set (default: full = BoW, words and POS around the target, "
                            "collocations, target form; bow for the bundled corpus)")
    group.add_argument("--weighting", choices=WEIGHTINGS, default=None,
                       help="feature weighting, fitted on training data only (default: "
                            "block-tfidf; tfidf for the bundled corpus)")
    group.add_argument("--lemmatize", action=argparse.BooleanOptionalAction, default=None,
                       help="lemmatize the bag of words with WordNet when it is installed "
                            "(default: yes)")
    group.add_argument("--window", type=int, default=None,
                       help="bag-of-words window of +-N tokens (default: the whole sentence)")
    group.add_argument("--epochs", type=int, default=None,
                       help=epochs_help or "training epochs (default: 5; 10 for the bundled "
                                           "corpus)")
    group.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")


def _settings(args: argparse.Namespace, corpus: str | None = None) -> SystemSettings:
    """The settings the options give; unset ones default by corpus (small bundled data
    does best with lemmatized bag-of-words and tf-idf)."""
    if args.epochs is not None and args.epochs < 1:
        raise ValueError(f"--epochs must be at least 1, got {args.epochs}")
    for flag, value, rule in (("--window", args.window, "window"), ("--seed", args.seed, "seed"),
                              ("--epochs", args.epochs, "epochs")):
        check_flag(flag, value, rule)  # the model file's loader's rules, before any work
    bundled = corpus is None or corpus.startswith("bundled:")
    defaults = small_corpus_settings() if bundled else SystemSettings()
    chosen = {"features": args.features, "weighting": args.weighting,
              "lemmatize": args.lemmatize, "epochs": args.epochs}
    return replace(defaults, window=args.window, seed=0 if args.seed is None else args.seed,
                   **{k: v for k, v in chosen.items() if v is not None})


def _read_file(name: str, encoding: str | None = None) -> str:
    """The text of ``--file`` (``-``: stdin) in ``encoding`` (default UTF-8, or what a
    byte-order mark says); ValueError naming it where a byte does not decode."""
    codec = codec_name(encoding).replace("utf-8", "utf-8-sig") if encoding else "utf-8-sig"
    raw = getattr(sys.stdin, "buffer", None)  # None when stdin was replaced by a StringIO
    if name == "-" and raw is None:
        return sys.stdin.read()
    try:  # stdin as bytes, decoded here: in a C locale it lets bad bytes through as escapes
        data = raw.read() if name == "-" else read_bytes(name, "--file")
        text = decode_text(data, "<stdin>" if name == "-" else name, codec)
        if name != "-":
            check_text(text, name)
        return text
    except ValueError as err:
        hint = "" if encoding else "; give its encoding with --encoding (e.g. latin-1)"
        raise ValueError(f"{err}{hint}") from None


def _piped_stdin() -> bool:
    """Whether text is piped in (``echo ... | wsd disambiguate``): stdin is readable and not a
    terminal, so that it is read as ``--file -`` when no text is given otherwise."""
    try:
        return sys.stdin is not None and sys.stdin.readable() and not sys.stdin.isatty()
    except (OSError, ValueError):  # closed or detached
        return False


def _with_piped_stdin(args: argparse.Namespace) -> argparse.Namespace:
    """``args`` reading stdin as ``--file -`` when neither text nor ``--file`` is given and
    text is piped in."""
    if not args.sentences and not args.file and _piped_stdin():
        args.file = "-"
    return args


def _no_text(args: argparse.Namespace, what: str) -> ValueError:
    where = f"{'<stdin>' if args.file == '-' else args.file} holds no {what}" if args.file \
        else f"no {what}"
    return ValueError(f"{where}: give {'them' if what.endswith('s') else 'it'} as arguments, "
                      "with --file PATH, or on stdin (echo TEXT | wsd ...)")


def _read_lines(args: argparse.Namespace) -> tuple[list[str], list[str]]:
    """The sentences given (arguments, then the lines of ``--file`` or stdin that hold text)
    and where each is, for messages: *sentence 2* (the second argument), *story.txt:7*."""
    args = _with_piped_stdin(args)
    sentences = list(args.sentences)
    places = [f"sentence {n}" for n in range(1, len(sentences) + 1)]
    if args.file:
        text = _read_file(args.file, args.encoding)
        source = "<stdin>" if args.file == "-" else args.file
        lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        for number, line in enumerate(lines, start=1):
            if line.strip():
                sentences.append(line.strip())
                places.append(f"{source}:{number}")
    if not sentences:
        raise _no_text(args, "sentences")
    return sentences, places


def _read_text(args: argparse.Namespace) -> str:
    args = _with_piped_stdin(args)
    parts = list(args.sentences)
    if args.file:
        parts.append(_read_file(args.file, args.encoding))
    text = "\n".join(parts)
    if not text.strip():
        raise _no_text(args, "text")
    return text


def cmd_disambiguate(args: argparse.Namespace) -> int:
    from wsd.experiments import rawtext_run as rawtext

    if args.target is not None and not args.target.strip():
        raise ValueError("--target is empty: give the word to disambiguate (any inflection), "
                         "or leave --target out to tag every content word")
    if args.top is not None and args.top < 0:
        raise ValueError(f"--top must be 0 or more, got {args.top}")
    check_real_flag("--unsure-below", args.unsure_below, 0.0, 1e6)
    model = rawtext.load_any_model(args.model) if args.model else None
    raw_text = rawtext.uses_raw_text(model, args.target)
    _check_trained_only(args, raw_text)
    if raw_text:
        fmt = "json" if args.json else args.format
        top = args.top if args.top is not None else (5 if args.target else 0)
        print(rawtext.disambiguate_text(model, _read_text(args), args.target, fmt, top))
        return 0
    from wsd.corpora.bundled import bundled_target
    from wsd.experiments.disambiguate import disambiguate, format_record

    sentences, places = _read_lines(args)
    if model is not None:
        if scope_of(model) != ONE_WORD:
            raise ValueError(f"{args.model} holds a {type(model).__name__}, not a model from "
                             "`wsd train` or `wsd allwords --save`")
    else:
        model = train_bundled_model(bundled_target(args.target), _settings(args))
    unsure_below = UNSURE_MARGIN if args.unsure_below is None else args.unsure_below
    records = disambiguate(model, sentences, args.target, top=5 if args.top is None else args.top,
                           unsure_below=unsure_below, places=places)
    if args.json:
        for record in records:
            print(json.dumps(record, ensure_ascii=False, allow_nan=False))
    else:
        print("\n\n".join(format_record(r) for r in records))
    return 0


def _check_trained_only(args: argparse.Namespace, raw_text: bool) -> None:
    """ValueError for ``wsd disambiguate`` options that would do nothing: training options
    where no model is trained (a model given with --model, or Lesk), --unsure-below where
    the answers are not a bundled target's."""
    given = [flag for flag, value in (
        ("--features", args.features), ("--weighting", args.weighting),
        ("--lemmatize/--no-lemmatize", args.lemmatize), ("--window", args.window),
        ("--epochs", args.epochs), ("--seed", args.seed)) if value is not None]  # fmt: skip
    if given and (args.model or raw_text):
        why = (f"{args.model} trains nothing" if args.model in ("gloss", "lesk")
               else f"the model in {args.model} keeps the settings it was trained with"
               if args.model else f"{args.target or 'raw text'!r} has no bundled model to train")
        verb = "acts" if len(given) == 1 else "act"
        raise ValueError(f"{', '.join(given)} only {verb} when a bundled target's model is "
                         f"trained (bank, bass, crane, line, plant without --model); {why}")
    if args.unsure_below is not None and raw_text:
        raise ValueError("--unsure-below marks the answers of a bundled target's model; raw-text "
                         "answers give their margin (and with --top, their reasons)")


def cmd_train(args: argparse.Namespace) -> int:
    from wsd.experiments.lexsample_run import dictionary_glosses
    from wsd.systems.named import make_learner_system
    from wsd.systems.provenance import check_single_target, check_two_senses

    check_output_path(args.out, "--out", [*corpus_files(args.corpus), args.dictionary])
    instances = load_corpus(args.corpus)
    check_single_target(instances, args.corpus)
    if args.learner not in ("mfs", "lesk"):
        check_two_senses(instances, args.corpus)
    glosses = bundled_glosses(args.corpus.split(":", 1)[1]) if args.corpus.startswith(
        "bundled:") else None
    if args.dictionary:
        glosses = dictionary_glosses(args.dictionary, instances[0])
    model = make_learner_system(args.learner, _settings(args, args.corpus), glosses=glosses)
    model.fit(instances)
    model.save(args.out)
    print(f"trained {args.learner} on {len(instances)} instances of {args.corpus} "
          f"({len(model.senses)} senses); saved to {args.out}")
    return 0


def cmd_predict(args: argparse.Namespace) -> int:
    from wsd.corpora.userfile import user_file_batches
    from wsd.systems.provenance import check_targets
    from wsd.systems.supervised import SupervisedWSD

    model = SupervisedWSD.load(args.model)
    check = partial(check_targets, model.lemmas_, source=args.input)
    for batch in user_file_batches(args.input, 10_000, require_senses=False, check=check):
        batch = check(batch)  # an inflected target takes the model's lemma (*bats*: bat)
        answers = model.predict(batch)  # the file streams: memory holds one batch
        print("".join(f"{i.id}\t{s}\n" for i, s in zip(batch, answers, strict=True)), end="")
    return 0


def cmd_evaluate(args: argparse.Namespace) -> int:
    from wsd.corpora.resolve import corpus_batches
    from wsd.experiments.evaluate import evaluate_batches, format_evaluation, write_errors
    from wsd.systems.provenance import EvaluationNotes, check_targets
    from wsd.systems.supervised import SupervisedWSD

    inputs = [*corpus_files(args.corpus), args.model]
    check_outputs_apart({"--key": args.key, "--errors": args.errors})
    if args.key:
        check_output_path(args.key, "--key", inputs)
    if args.errors:
        Path(args.errors).parent.mkdir(parents=True, exist_ok=True)  # before the work
        check_output_path(args.errors, "--errors", inputs)
    model = SupervisedWSD.load(args.model)
    notes = EvaluationNotes(model.training_, args.corpus)

    def check(batch: list) -> None:  # every batch, before the first is scored
        notes.add(check_targets(model.lemmas_, batch, args.corpus))

    batches = (check_targets(model.lemmas_, batch, args.corpus)  # *bats*: the model's bat
               for batch in corpus_batches(args.corpus, 10_000, check))  # a user file streams
    for note in notes.warnings():
        warnings.warn(note, stacklevel=1)
    result = evaluate_batches(model, batches, errors=bool(args.errors))
    print(format_evaluation(result))
    if args.errors:
        path = write_errors(result.errors, args.errors)
        print(f"{len(result.errors)} wrong answers written to {path}")
    if args.key:
        from wsd.corpora.framework import write_key_file

        write_key_file(args.key, dict(zip(result.ids, result.predictions, strict=True)))
        print(f"predictions written to {args.key}")
    return 0


def _inventory_for(corpus: str):
    """The sense inventory whose ids the corpus uses: bundled glosses, WordNet sense keys for
    the all-words framework, none for senseval (its labels have no glosses)."""
    if corpus.startswith("bundled:"):
        from wsd.knowledge.inventory import BundledInventory

        return BundledInventory()
    if corpus.startswith("framework:"):
        from wsd.knowledge.inventory import WordNetInventory

        return WordNetInventory()
    return None


def _check_folds(folds: int, allow_split: bool, instances: int | None = None) -> None:
    """ValueError in the command line's words for a ``--folds`` that cannot be cut."""
    if folds < 2 and not (allow_split and folds == 0):
        raise ValueError(f"--folds {folds}: give at least 2"
                         + (" (or 0 for one 80/20 split)" if allow_split else ""))
    if instances is not None and folds > instances:
        raise ValueError(f"--folds {folds}: the corpus has {instances} instances; use --folds "
                         f"{instances} or fewer")


def cmd_compare(args: argparse.Namespace) -> int:
    from wsd.experiments.compare import run_comparison
    from wsd.experiments.report import format_comparison, table_paths, write_comparison
    from wsd.systems.named import make_system

    names = [n.strip() for n in args.systems.split(",") if n.strip()]
    if not names:
        raise ValueError(f"--systems {args.systems!r} names no system; choose from "
                         f"{', '.join(SYSTEM_NAMES)}")
    _check_folds(args.folds, allow_split=True)
    if args.out:
        table_paths(args.out)  # make the folder now, not after the comparison
    instances = load_corpus(args.corpus)
    _check_folds(args.folds, allow_split=True, instances=len(instances))
    inventory = _inventory_for(args.corpus)
    if inventory is None:
        skipped = [n for n in names if n in KNOWLEDGE]
        names = [n for n in names if n not in KNOWLEDGE]
        if skipped:
            print(f"note: {', '.join(skipped)} left out: {args.corpus} has no sense inventory",
                  file=sys.stderr)
    if "first-sense" in names and not has_nltk_resource("wordnet"):
        names.remove("first-sense")
        print("note: first-sense left out: WordNet is not installed "
              "(python -m nltk.downloader wordnet)", file=sys.stderr)
    unknown = [n for n in names if n not in SYSTEM_NAMES]
    if unknown:
        raise ValueError(f"unknown system(s) {', '.join(unknown)}; choose from "
                         f"{', '.join(SYSTEM_NAMES)}")
    settings = _settings(args, args.corpus)
    systems = {n: partial(make_system, n, settings, inventory) for n in names}
    if len({inst.key for inst in instances}) > 1:  # several target words: one model per word
        from wsd.systems.perkey import PerKeyWSD

        fallback = "first_sense" if args.corpus.startswith("framework:") else "none"
        systems.update({n: partial(PerKeyWSD, systems[n], fallback)
                        for n in names if n in SUPERVISED})
    comparison = run_comparison(systems, instances, folds=args.folds or None, seed=args.seed,
                                progress=not args.quiet)
    print(f"{args.corpus}: {len(instances)} instances, "
          + (f"{args.folds}-fold cross-validation" if args.folds else "80/20 split"))
    print(format_comparison(comparison))
    if args.out:
        for path in write_comparison(comparison, args.out):
            print(f"wrote {path}")
    return 0


def cmd_curves(args: argparse.Namespace) -> int:
    from wsd.experiments.curves import run_curves, summarize_orders

    if min(args.epochs, args.repeats, args.shuffles) < 1:
        raise ValueError("--epochs, --repeats and --shuffles must be at least 1")
    instances = load_corpus(args.corpus)
    curve_epochs, args.epochs = args.epochs, None  # the other panels train as `wsd train` does
    result = run_curves(instances, _settings(args, args.corpus), args.out, corpus=args.corpus,
                        curve_epochs=curve_epochs, shuffles=args.shuffles,
                        repeats=args.repeats, progress=not args.quiet)
    print(summarize_orders(result["orders"]).round(4).to_string())
    print(f"MFS dev accuracy {result['mfs']:.4f}")
    if not result["pngs"]:
        print("note: no plot: matplotlib is not installed (pip install 'wsd-perceptron[plot]')",
              file=sys.stderr)
    else:
        print(f"wrote {', '.join(str(path) for path in result['pngs'])}")
    print(f"wrote epochs.csv, orders.csv, sizes.csv in {args.out}")
    return 0


def _check_weights(args: argparse.Namespace) -> None:
    """ValueError naming the flag (not the Python parameter) of a decision weight out of range,
    before a model is loaded or trained."""
    from wsd.systems.allwords.system import check_weight

    for flag, value in (("--prior", args.prior), ("--prior-count", args.prior_count),
                        ("--gloss-weight", args.gloss_weight),
                        ("--discourse-weight", args.discourse_weight),
                        ("--backoff-margin", args.backoff_margin),
                        ("--temperature", args.temperature)):  # fmt: skip
        if value is not None:
            check_weight(flag, value, above_zero=flag == "--temperature")


def cmd_allwords(args: argparse.Namespace) -> int:
    from wsd.cluster import joblib_on_dask
    from wsd.experiments.allwords_run import run_allwords

    if args.epochs is not None and args.epochs < 1:
        raise ValueError(f"--epochs must be at least 1, got {args.epochs}")
    if args.models is not None and args.models < 1:
        raise ValueError(f"--models must be at least 1, got {args.models}")
    _check_weights(args)
    check_flag("--seed", args.seed, "seed")
    check_parallel_flags(jobs=args.jobs, workers=args.workers)
    if args.model and args.save:
        raise ValueError("--save trains a model and --model applies a saved one; give one")
    training = [flag for flag, value in (("--seed", args.seed), ("--epochs", args.epochs),
                                         ("--models", args.models), ("--features", args.features))
                if value is not None]  # fmt: skip
    if args.model and training:
        raise ValueError(f"{', '.join(training)} only act when training; a model given with "
                         "--model keeps the values it was trained with (prediction-time "
                         "options: --prior, --prior-count, --gloss-weight, --discourse-weight, "
                         "--backoff-margin, --temperature)")
    if args.save:
        check_output_path(args.save, "--save", corpus_files(args.train))
    if args.out:
        Path(args.out).mkdir(parents=True, exist_ok=True)  # before training, not after
    evaluate = args.evaluate if args.evaluate is not None else (
        [] if args.save else ["semeval2007"])  # --save alone only trains
    options = {"n_jobs": args.jobs, "verbose": not args.quiet}
    chosen = {"seed": args.seed, "epochs": args.epochs, "n_models": args.models,
              "prior": args.prior, "gloss_weight": args.gloss_weight,
              "discourse_weight": args.discourse_weight, "prior_count": args.prior_count,
              "margin": args.backoff_margin, "temperature": args.temperature}
    options.update({name: value for name, value in chosen.items() if value is not None})
    if args.features is not None:
        from wsd.systems.allwords.instance_features import feature_set

        options["features"] = feature_set(args.features)
    if args.jobs != 1 and (args.workers or args.scheduler):
        raise ValueError("--jobs runs local processes; with --workers or --scheduler the Dask "
                         "workers train")
    with joblib_on_dask(args.workers, args.scheduler):
        table = run_allwords(
            train=None if args.model else args.train, evaluate=evaluate, out_dir=args.out,
            root=args.framework, model_path=args.save, model=args.model, **options)
    if len(table):
        scores = table.copy()
        for column in ("P", "R", "F1"):
            scores[column] = (100 * scores[column]).round(1)
        print(scores.to_string(index=False))
    if args.out and len(table):
        print(f"key files written to {args.out}")
    if args.save:
        print(f"model saved to {args.save}")
        from wsd.knowledge import lexicon_compiler

        lexicon_compiler.ensure()  # WordNet and tagger compiled once: fast `disambiguate --model`
    return 0


def cmd_annotate(args: argparse.Namespace) -> int:
    from wsd.annotate import annotate_corpus

    manifest = annotate_corpus(
        args.inputs, args.model, args.out, partition_size=args.partition_size,
        max_document_bytes=args.max_document_size, encoding=args.encoding,
        output_format=args.format,
        workers=args.workers, scheduler=args.scheduler, progress=not args.quiet)
    counts = manifest["counts"]
    print(f"annotated {counts['annotated']} of {counts['documents']} documents "
          f"({counts['tokens']} tokens, {counts['tagged']} words tagged) in "
          f"{counts['partitions']} partitions; {counts['bad']} bad documents; see {args.out}")
    return 0


def cmd_lexsample(args: argparse.Namespace) -> int:
    from wsd.experiments.lexsample_run import format_run, run_lexsample

    check_output_path(args.out, "--out", [args.train, args.test, args.train_key, args.test_key,
                                          args.dictionary, args.sense_map])
    options = {"margin": args.margin, "update": args.update, "C": args.C,
               "prior": args.prior, "backoff_margin": args.backoff_margin}
    settings = replace(_settings(args, "lexsample"), learner_options=tuple(
        (name, value) for name, value in options.items() if value is not None))
    if args.models is not None:
        settings = replace(settings, models=args.models)
    run = run_lexsample(args.train, args.test, args.out, train_key=args.train_key,
                        test_key=args.test_key, dictionary=args.dictionary,
                        sense_map=args.sense_map, learner=args.learner, settings=settings,
                        progress=True)
    print(format_run(run, args.out))
    return 0


def cmd_senses(args: argparse.Namespace) -> int:
    from wsd.experiments.senses import format_senses, word_senses

    source, senses = word_senses(args.word, pos=args.pos, source=args.inventory)
    print(format_senses(args.word, source, senses))
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from wsd.experiments.demo import run_demo

    _check_folds(args.folds, allow_split=False)
    run_demo(folds=args.folds, seed=args.seed)
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    from wsd.experiments.config import load_config

    argv = load_config(args.config, _config_options)
    _check_config_argv(argv, args.config)
    return main(["--debug", *argv] if args.debug else argv)


def _check_config_argv(argv: list[str], source: str) -> None:
    """ValueError naming the config file for arguments the command's parser refuses (a
    value of the wrong type, a missing key), in the config's words, instead of the
    command's usage text: *c.toml: folds: invalid int value: 'five'*."""
    parser = build_parser()
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))

    def refuse(message: str) -> NoReturn:
        message = re.sub(r"argument --([\w-]+)(?:/[^:]*)?:", r"\1:", message)
        message = message.replace("the following arguments are required: --", "missing key(s): ")
        raise ValueError(f"{source}: {message.replace(', --', ', ')}")

    parser.error = subparsers.choices[argv[0]].error = refuse  # type: ignore[method-assign]
    parser.parse_args(argv)


def _config_options(command: str) -> dict[str, str] | None:
    """Option string -> kind (see wsd.experiments.config) for ``command``'s options."""
    from wsd.experiments import config

    subparsers = next(a for a in build_parser()._actions
                      if isinstance(a, argparse._SubParsersAction))
    if command not in subparsers.choices:
        raise ValueError(f"unknown command {command!r}; choose from "
                         f"{', '.join(sorted(subparsers.choices))}")
    kinds = {}
    for action in subparsers.choices[command]._actions:
        for option in action.option_strings:
            if not option.startswith("--") or option.startswith("--no-"):
                continue
            if isinstance(action, argparse.BooleanOptionalAction):
                kinds[option] = config.NEGATABLE
            elif action.nargs == 0:
                kinds[option] = config.FLAG
            elif action.nargs in ("+", "*"):
                kinds[option] = config.MANY
            elif option == "--systems":
                kinds[option] = config.COMMA_LIST
            else:
                kinds[option] = config.VALUE
    for option in ("--help", "--debug"):
        kinds.pop(option, None)
    return kinds


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="wsd", description="Word-sense disambiguation: perceptrons, Lesk and baselines.")
    parser.add_argument("--version", action="version", version=f"wsd {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = commands.add_parser("disambiguate", help="choose the senses of words in raw text")
    p.add_argument("sentences", nargs="*", help="text; with a bundled --target and no --model, "
                                                "sentences with the target marked as <<word>>")
    p.add_argument("--target", help="only this word, in any inflection (bank, bass, crane, "
                                    "line and plant without --model use their bundled models)")
    p.add_argument("--model", help="a model file from `wsd allwords --save` (every content word "
                                   "of raw text) or `wsd train`; without one, gloss similarity "
                                   "(with the [context] extra) or Lesk with the WordNet sense "
                                   "prior answers; `gloss` or `lesk` names either")
    p.add_argument("--file", help="read the text from this file (- for stdin; text piped "
                                          "in with no text given is read too)")
    p.add_argument("--encoding", help="the encoding of --file or stdin (default: UTF-8, or "
                                      "UTF-16 where the text starts with its byte-order mark)")
    p.add_argument("--json", action="store_true", help="print one JSON object per sentence")
    p.add_argument("--format", choices=("plain", "tsv", "conll"), default="plain",
                   help="raw-text output: readable (plain), or one word per line (tsv, conll)")
    p.add_argument("--top", type=int,
                   help="features shown per answer, with the terms of its score margin over "
                        "the runner-up, in plain and JSON output (default: 5 for a bundled "
                        "target and with --target; 0 where every content word is tagged)")
    p.add_argument("--unsure-below", type=float,
                   help="a bundled target's answers whose score margin over the runner-up is "
                        f"smaller are marked unsure (default: {UNSURE_MARGIN})")
    _settings_arguments(p)
    p.set_defaults(handler=cmd_disambiguate, seed=None)

    p = commands.add_parser("train", help="train a model and save it as JSON")
    p.add_argument("--corpus", required=True, help=CORPUS_HELP)
    p.add_argument("--learner", choices=LEARNERS, default="averaged",
                   help="learner (default: averaged)")
    p.add_argument("--out", required=True, help="model file to write (.json)")
    p.add_argument("--dictionary", help="lexical-sample dictionary XML: glosses for lesk")
    _settings_arguments(p)
    p.set_defaults(handler=cmd_train)

    p = commands.add_parser("predict", help="predict senses for a user-format file")
    p.add_argument("--model", required=True, help="model file from `wsd train`")
    p.add_argument("input", help="a .tsv or .jsonl file in the user format (senses optional)")
    p.set_defaults(handler=cmd_predict)

    p = commands.add_parser("evaluate", help="score a saved model on a labelled corpus")
    p.add_argument("--model", required=True, help="model file from `wsd train`")
    p.add_argument("--corpus", required=True, help=CORPUS_HELP)
    p.add_argument("--key", help="also write the predictions as a key file (id sense)")
    p.add_argument("--errors", help="write the wrong answers as TSV: id, sentence, gold, "
                                    "predicted, margin (predicted minus gold sense score)")
    p.set_defaults(handler=cmd_evaluate)

    p = commands.add_parser("compare", help="compare systems on one corpus with the same folds")
    p.add_argument("--corpus", required=True, help=CORPUS_HELP)
    p.add_argument("--systems", default="mfs,first-sense,lesk,perceptron,averaged,voted",
                   help=f"comma-separated, from {', '.join(SYSTEM_NAMES)}; the knowledge-based "
                        "ones only where the corpus has a sense inventory (default: "
                        "mfs,first-sense,lesk,perceptron,averaged,voted)")
    p.add_argument("--folds", type=int, default=5,
                   help="k for stratified k-fold cross-validation; 0 for one 80/20 split "
                        "(default: 5)")
    p.add_argument("--out", help="write the table as OUT.csv and OUT.md, and the pairwise "
                                 "McNemar p-values as OUT-pairwise.csv and .md")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    _settings_arguments(p)
    p.set_defaults(handler=cmd_compare)

    p = commands.add_parser("curves", help="learning curves: epochs, example order, data size")
    p.add_argument("--corpus", required=True, help=CORPUS_HELP)
    p.add_argument("--out", default="results/curves", help="output folder (default: "
                                                           "results/curves)")
    p.add_argument("--shuffles", type=int, default=10,
                   help="example orders tried for the order-sensitivity plot (default: 10)")
    p.add_argument("--repeats", type=int, default=3,
                   help="seeds (dev splits) for the training-size curve, drawn as the mean "
                        "with a min-max band (default: 3)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    _settings_arguments(p, epochs_help="length of the accuracy-per-epoch curve (default: 20); "
                                       "the order and size panels train for 5 epochs (10 for "
                                       "the bundled corpus), as `wsd train` does")
    p.set_defaults(handler=cmd_curves, epochs=20)

    p = commands.add_parser(
        "allwords", help="all-words WSD: one classifier per lemma#pos, trained on SemCor")
    p.add_argument("--train", default="semcor",
                   help="training data: a framework dataset name or a *.data.xml path with its "
                        "gold key beside it (default: semcor)")
    p.add_argument("--evaluate", nargs="+", default=None,
                   help="datasets to disambiguate and score: names (senseval2, senseval3, "
                        "semeval2007, ...) or *.data.xml paths (default: semeval2007; none "
                        "with --save, which then only trains)")
    p.add_argument("--framework", help="the framework folder (default: $WSD_FRAMEWORK_DIR, "
                                       "else ../shared/data/wsd_framework)")
    p.add_argument("--out", help="write <dataset>.key.txt answer files to this folder")
    p.add_argument("--save", help="train and save the system to this .npz model file (with no "
                                  "--evaluate it only trains)")
    p.add_argument("--model", help="apply a model saved with --save instead of training; "
                                   "the prediction-time weights (--prior to --temperature) "
                                   "still apply")
    p.add_argument("--features", choices=ALLWORDS_FEATURE_SETS, default=None,
                   help="feature set: tuned (the default), ims, either +context (the target's "
                        "contextual vector beside them; needs the [context] extra), or context")
    p.add_argument("--epochs", type=int, default=None, help="training epochs (default: 10)")
    p.add_argument("--models", type=int, default=None,
                   help="perceptrons per word, trained on different shuffles and averaged "
                        "(default: 10; 1 is faster)")
    p.add_argument("--prior", type=float, default=None,
                   help="weight of the log sense prior (default: 0.1)")
    p.add_argument("--gloss-weight", type=float, default=None,
                   help="weight of the overlap with WordNet glosses, 0 for none (default: 3)")
    p.add_argument("--discourse-weight", type=float, default=None,
                   help="weight of one sense per discourse, 0 for none (default: 6)")
    p.add_argument("--prior-count", type=float, default=None,
                   help="the prior's weight grows by prior-count / n for a word with n training "
                        "examples (default: 20)")
    p.add_argument("--backoff-margin", type=float, default=None,
                   help="answer the most frequent sense when the best sense wins by less "
                        "(default: 0.5)")
    p.add_argument("--temperature", type=float, default=None,
                   help="a classifier answer's score is the softmax of its totals divided by "
                        "this; changes no answer (default: 10)")
    p.add_argument("--seed", type=int, default=None, help="random seed (default: 0)")
    p.add_argument("--jobs", type=int, default=1,
                   help="parallel training processes; results do not depend on it (default: 1)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int,
                       help="train on a local Dask cluster of N processes (same model file)")
    where.add_argument("--scheduler", help="train on the Dask cluster at this address "
                                           "(tcp://HOST:PORT; same model file)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(handler=cmd_allwords)

    p = commands.add_parser("annotate", help="sense-tag a corpus, in one process or on Dask")
    p.add_argument("inputs", nargs="+", help=".txt files (one document each), JSONL files "
                                             '({"id", "text"} per line), .gz too, or folders')
    p.add_argument("--model", required=True, help="model file from `wsd allwords --save` (every "
                                                  "content word) or `wsd train` (its word)")
    p.add_argument("--out", required=True, help="output folder: part-NNNNN files and "
                                                "manifest.json; a re-run resumes it")
    p.add_argument("--partition-size", type=int, default=100,
                   help="documents per partition (default: 100)")
    p.add_argument("--max-document-size", type=int, default=1_000_000,
                   help="longer documents are reported as bad (bytes; default: 1000000)")
    p.add_argument("--encoding", help="the input files' encoding (default: UTF-8, or UTF-16 "
                                      "where a .txt file starts with its byte-order mark)")
    p.add_argument("--format", choices=("jsonl", "parquet"), default="jsonl",
                   help="partition files (parquet: the [parquet] extra; default: jsonl)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, help="run on a local Dask cluster of N processes")
    where.add_argument("--scheduler", help="run on the Dask cluster at this address "
                                           "(tcp://HOST:PORT)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(handler=cmd_annotate)


    p = commands.add_parser(
        "lexsample", help="Senseval lexical sample: one model per lexelt, scorer2 answers")
    p.add_argument("--train", required=True, help="training file (Senseval-2/3 format)")
    p.add_argument("--test", required=True, help="test file (Senseval-2/3 format)")
    p.add_argument("--out", required=True, help="answer file to write (lexelt id sense)")
    p.add_argument("--train-key", help="key file for --train (default: its <answer> elements)")
    p.add_argument("--test-key", help="key file for --test: print scorer2's accuracy")
    p.add_argument("--sense-map", help="scorer2 sense map: also print coarse-grained scores")
    p.add_argument("--dictionary", help="dictionary XML with glosses (needed by lesk)")
    p.add_argument("--learner", choices=LEARNERS, default="averaged",
                   help="learner per lexelt (default: averaged)")
    group = p.add_argument_group("perceptron options (see docs/results.md, lexical sample)")
    group.add_argument("--margin", type=float, help="update when the gold sense wins by less")
    group.add_argument("--update", choices=("perceptron", "pa"),
                       help="step rule: perceptron (1) or passive-aggressive PA-I")
    group.add_argument("--C", type=float, help="PA-I aggressiveness cap (default: 1)")
    group.add_argument("--models", type=int,
                       help="the averaged learner is the mean of this many perceptrons over "
                            "shuffles (default: 5)")
    group.add_argument("--prior", type=float,
                       help="pseudo-count of the size-scaled log sense prior (default: 0)")
    group.add_argument("--backoff-margin", type=float,
                       help="answer the most frequent sense below this winning margin")
    _settings_arguments(p)
    p.set_defaults(handler=cmd_lexsample)

    p = commands.add_parser("senses", help="list a word's senses with their glosses")
    p.add_argument("word", help="the word, e.g. bass")
    p.add_argument("--pos", choices=("NOUN", "VERB", "ADJ", "ADV", "n", "v", "a", "r"),
                   help="only senses of this part of speech (default: all)")
    p.add_argument("--inventory", choices=("auto", "bundled", "wordnet"), default="auto",
                   help="where the senses come from (default: auto = the bundled inventory for "
                        "its targets, WordNet for other words)")
    p.set_defaults(handler=cmd_senses)

    p = commands.add_parser("demo", help="the main job on the bundled corpus, offline")
    p.add_argument("--folds", type=int, default=5, help="cross-validation folds (default: 5)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    p.set_defaults(handler=cmd_demo)

    p = commands.add_parser("run", help="run a command described in a JSON or TOML config")
    p.add_argument("config", help="config file (.json or .toml)")
    p.set_defaults(handler=cmd_run)
    parser.add_argument("--debug", action="store_true",
                        help="show the full traceback of errors (also after the command)")
    for sub in commands.choices.values():
        sub.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                         help="show the full traceback of errors")
    return parser


def _one_line_notice(message, category, filename, lineno, file=None, line=None) -> None:
    print(f"wsd: note: {message}", file=sys.stderr)


def _error_message(err: BaseException) -> str:
    """An input error as the CLI prints it: a file error names its file first (``x.txt: no
    such file or directory``, not Python's ``[Errno 2] ...``); a list of bad rows keeps one
    row a line."""
    if isinstance(err, OSError) and err.filename is not None and err.strerror:
        what = ("a folder, not a file" if isinstance(err, IsADirectoryError)
                else err.strerror[:1].lower() + err.strerror[1:])  # fmt: skip
        return f"{os.fsdecode(err.filename)}: {what}"
    lines = [" ".join(line.split()) for line in str(err).splitlines() if line.strip()]
    return "\n  ".join(lines[:1] + cut_list(lines[1:])) or type(err).__name__


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    warnings.showwarning = _one_line_notice
    try:
        return args.handler(args)
    except BrokenPipeError:  # the reader went away (`wsd ... | head`): stop quietly, as cat does
        with contextlib.suppress(OSError, ValueError, AttributeError):  # stdout replaced
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # flushed at exit
        return 141  # 128 + SIGPIPE, what a shell reports for a tool killed by the signal
    except INPUT_ERRORS as err:
        if args.debug:
            raise
        print(f"wsd {args.command}: error: {_error_message(err)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
