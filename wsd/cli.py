"""The ``wsd`` command: parse arguments, call wsd.experiments, print results.

Errors a user can cause (bad input, missing files or resources) end in one line on stderr
and a non-zero exit code, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from collections.abc import Sequence
from dataclasses import replace
from functools import partial

from wsd import __version__
from wsd.corpora.resolve import CORPUS_HELP, load_corpus
from wsd.experiments.disambiguate import UNSURE_MARGIN
from wsd.experiments.systems import (
    KNOWLEDGE,
    SUPERVISED,
    SYSTEM_NAMES,
    SystemSettings,
    small_corpus_settings,
)
from wsd.features import PRESETS
from wsd.resources import MissingResourceError, has_nltk_resource

WEIGHTINGS = ("binary", "count", "tfidf", "block-tfidf", "ppmi")
LEARNERS = ("perceptron", "averaged", "voted")


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
    bundled = corpus is None or corpus.startswith("bundled:")
    defaults = small_corpus_settings() if bundled else SystemSettings()
    chosen = {"features": args.features, "weighting": args.weighting,
              "lemmatize": args.lemmatize, "epochs": args.epochs}
    return replace(defaults, window=args.window, seed=args.seed,
                   **{k: v for k, v in chosen.items() if v is not None})


def _read_lines(args: argparse.Namespace) -> list[str]:
    sentences = list(args.sentences)
    if args.file:
        stream = sys.stdin if args.file == "-" else open(args.file, encoding="utf-8")
        with stream:
            sentences += [line.strip() for line in stream if line.strip()]
    if not sentences:
        raise ValueError("no sentences: give them as arguments, or with --file PATH (- for stdin)")
    return sentences


def cmd_disambiguate(args: argparse.Namespace) -> int:
    from wsd.experiments.disambiguate import disambiguate, format_record, train_bundled_model
    from wsd.experiments.pipeline import SupervisedWSD

    sentences = _read_lines(args)
    if args.model:
        model = SupervisedWSD.load(args.model)
    else:
        if not args.target:
            raise ValueError("--target is needed to pick the bundled training data "
                             "(or pass --model)")
        model = train_bundled_model(args.target.lower(), _settings(args))
    records = disambiguate(model, sentences, args.target, top=args.top,
                           unsure_below=args.unsure_below)
    if args.json:
        for record in records:
            print(json.dumps(record, ensure_ascii=False))
    else:
        print("\n\n".join(format_record(r) for r in records))
    return 0


def cmd_train(args: argparse.Namespace) -> int:
    from wsd.experiments.disambiguate import bundled_glosses
    from wsd.experiments.systems import make_system

    instances = load_corpus(args.corpus)
    words = sorted({inst.key for inst in instances})
    if len(words) > 1:
        raise ValueError(f"{args.corpus} holds {len(words)} target words ({', '.join(words[:5])}"
                         f"{', ...' if len(words) > 5 else ''}); a model disambiguates one word: "
                         "train one per word, or use `wsd allwords` for all-words data")
    glosses = bundled_glosses(args.corpus.split(":", 1)[1]) if args.corpus.startswith(
        "bundled:") else None
    model = make_system(args.learner, _settings(args, args.corpus), glosses=glosses)
    model.fit(instances)
    model.save(args.out)
    print(f"trained {args.learner} on {len(instances)} instances of {args.corpus} "
          f"({len(model.senses)} senses); saved to {args.out}")
    return 0


def cmd_predict(args: argparse.Namespace) -> int:
    from wsd.corpora.userfile import load_user_file
    from wsd.experiments.pipeline import SupervisedWSD

    model = SupervisedWSD.load(args.model)
    instances = load_user_file(args.input, require_senses=False)
    for inst, sense in zip(instances, model.predict(instances), strict=True):
        print(f"{inst.id}\t{sense}")
    return 0


def cmd_evaluate(args: argparse.Namespace) -> int:
    from wsd.experiments.evaluate import evaluate_model, format_evaluation, write_errors
    from wsd.experiments.pipeline import SupervisedWSD

    model = SupervisedWSD.load(args.model)
    instances = load_corpus(args.corpus)
    result = evaluate_model(model, instances)
    print(format_evaluation(result))
    if args.errors:
        path = write_errors(result.errors, args.errors)
        print(f"{len(result.errors)} wrong answers written to {path}")
    if args.key:
        from wsd.corpora.framework import write_key_file

        answers = zip(instances, result.predictions, strict=True)
        write_key_file(args.key, {i.id: p for i, p in answers})
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


def cmd_compare(args: argparse.Namespace) -> int:
    from wsd.experiments.compare import run_comparison
    from wsd.experiments.report import format_comparison, write_comparison
    from wsd.experiments.systems import make_system

    instances = load_corpus(args.corpus)
    names = [n.strip() for n in args.systems.split(",") if n.strip()]
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
        from wsd.experiments.perkey import PerKeyWSD

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
    if result["png"] is None:
        print("note: no plot: matplotlib is not installed (pip install 'wsd-perceptron[plot]')",
              file=sys.stderr)
    else:
        print(f"wrote {result['png']}")
    print(f"wrote epochs.csv, orders.csv, sizes.csv in {args.out}")
    return 0


def cmd_allwords(args: argparse.Namespace) -> int:
    from wsd.experiments.allwords import run_allwords

    if args.epochs is not None and args.epochs < 1:
        raise ValueError(f"--epochs must be at least 1, got {args.epochs}")
    if args.models is not None and args.models < 1:
        raise ValueError(f"--models must be at least 1, got {args.models}")
    options = {"seed": args.seed, "n_jobs": args.jobs, "verbose": not args.quiet}
    chosen = {"epochs": args.epochs, "n_models": args.models, "prior": args.prior,
              "gloss_weight": args.gloss_weight, "discourse_weight": args.discourse_weight}
    options.update({name: value for name, value in chosen.items() if value is not None})
    table = run_allwords(
        train=None if args.model else args.train, evaluate=args.evaluate, out_dir=args.out,
        root=args.framework, model_path=args.save, model=args.model, **options)
    scores = table.copy()
    for column in ("P", "R", "F1"):
        scores[column] = (100 * scores[column]).round(1)
    print(scores.to_string(index=False))
    if args.out:
        print(f"key files written to {args.out}")
    if args.save:
        print(f"model saved to {args.save}")
    return 0


def cmd_senses(args: argparse.Namespace) -> int:
    from wsd.experiments.senses import format_senses, word_senses

    source, senses = word_senses(args.word, pos=args.pos, source=args.inventory)
    print(format_senses(args.word, source, senses))
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from wsd.experiments.demo import run_demo

    run_demo(folds=args.folds, seed=args.seed)
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    from wsd.experiments.config import load_config

    argv = load_config(args.config)
    return main(argv)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="wsd", description="Word-sense disambiguation: perceptrons, Lesk and baselines.")
    parser.add_argument("--version", action="version", version=f"wsd {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = commands.add_parser("disambiguate", help="choose the sense of a word in sentences")
    p.add_argument("sentences", nargs="*", help="sentences; mark the target as <<word>> or "
                                                "name it with --target")
    p.add_argument("--target", help="the ambiguous word (also picks the bundled training data)")
    p.add_argument("--model", help="a model file from `wsd train` (default: train on the "
                                   "bundled corpus for --target)")
    p.add_argument("--file", help="read one sentence per line from this file (- for stdin)")
    p.add_argument("--json", action="store_true", help="print one JSON object per sentence")
    p.add_argument("--top", type=int, default=5, help="features shown per answer (default: 5)")
    p.add_argument("--unsure-below", type=float, default=UNSURE_MARGIN,
                   help="mark answers whose score margin over the runner-up is smaller as "
                        f"unsure (default: {UNSURE_MARGIN})")
    _settings_arguments(p)
    p.set_defaults(handler=cmd_disambiguate)

    p = commands.add_parser("train", help="train a model and save it as JSON")
    p.add_argument("--corpus", required=True, help=CORPUS_HELP)
    p.add_argument("--learner", choices=LEARNERS, default="averaged",
                   help="learner (default: averaged)")
    p.add_argument("--out", required=True, help="model file to write (.json)")
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
    p.add_argument("--evaluate", nargs="+", default=["semeval2007"],
                   help="datasets to disambiguate and score: names (senseval2, senseval3, "
                        "semeval2007, ...) or *.data.xml paths (default: semeval2007)")
    p.add_argument("--framework", help="the framework folder (default: $WSD_FRAMEWORK_DIR, "
                                       "else ../shared/data/wsd_framework)")
    p.add_argument("--out", help="write <dataset>.key.txt answer files to this folder")
    p.add_argument("--save", help="save the trained system to this model file")
    p.add_argument("--model", help="use a model saved with --save instead of training")
    p.add_argument("--epochs", type=int, default=None, help="training epochs (default: 10)")
    p.add_argument("--models", type=int, default=None,
                   help="perceptrons per word, trained on different shuffles and averaged "
                        "(default: 10; 1 is faster)")
    p.add_argument("--prior", type=float, default=None,
                   help="weight of the log sense prior (default: 0.5)")
    p.add_argument("--gloss-weight", type=float, default=None,
                   help="weight of the overlap with WordNet glosses, 0 for none (default: 1)")
    p.add_argument("--discourse-weight", type=float, default=None,
                   help="weight of one sense per discourse, 0 for none (default: 3)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    p.add_argument("--jobs", type=int, default=1,
                   help="parallel training processes; results do not depend on it (default: 1)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(handler=cmd_allwords)

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
    return parser


def _one_line_notice(message, category, filename, lineno, file=None, line=None) -> None:
    print(f"wsd: note: {message}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    warnings.showwarning = _one_line_notice
    try:
        return args.handler(args)
    except (ValueError, MissingResourceError, OSError, ImportError) as err:
        message = str(err).strip().replace("\n", " ")
        print(f"wsd {args.command}: error: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
