"""The ``wsd`` command: parse arguments into a request (``wsd.requests``), call the command's
library function with it, print what it gives.

Errors a user can cause (bad input, missing files or resources) end in one line on stderr
naming the file (and line) and exit code 2, never a traceback; any other exception is a bug and
keeps its traceback. ``--debug`` shows the traceback of input errors too.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import importlib
import inspect
import os
import re
import sys
import warnings
from collections.abc import Sequence
from functools import cache
from types import SimpleNamespace
from typing import Any

from wsd import __version__
from wsd.features import PRESETS
from wsd.requests import (
    FLAG,
    NEGATABLE,
    POSITIONAL,
    REQUESTS,
    CommandNote,
    RunRequest,
    config_options,
    flag_of,
    make_request,
    options,
    value_type,
)
from wsd.resources import MissingResourceError
from wsd.systems.allwords.instance_features import FEATURE_SET_NAMES
from wsd.systems.named import LEARNER_NAMES
from wsd.validation import cut_list

# Each command's library function, imported when the command runs (a cold start loads only
# what its command needs); it takes the request and yields the text to print.
COMMANDS = {
    "disambiguate": "wsd.experiments.disambiguate:disambiguate_command",
    "train": "wsd.experiments.train:train_command",
    "predict": "wsd.experiments.train:predict_command",
    "evaluate": "wsd.experiments.evaluate:evaluate_command",
    "compare": "wsd.experiments.compare:compare_command",
    "curves": "wsd.experiments.curves:curves_command",
    "allwords": "wsd.experiments.allwords_run:allwords_command",
    "annotate": "wsd.annotate.run:annotate_command",
    "lexsample": "wsd.experiments.lexsample_run:lexsample_command",
    "senses": "wsd.experiments.senses:senses_command",
    "demo": "wsd.experiments.demo:demo_command",
}
CHOICES = {"presets": PRESETS, "learners": LEARNER_NAMES, "allwords_features": FEATURE_SET_NAMES}
# What bad input, a missing file or a missing resource raises (DefusedXmlException,
# UnicodeDecodeError and JSONDecodeError are ValueErrors), and running out of memory (`wsd
# annotate` fails a run on it); anything else is a bug.
INPUT_ERRORS = (ValueError, MissingResourceError, OSError, ImportError, MemoryError)


def _defaults_of(function: Any) -> SimpleNamespace:
    return SimpleNamespace(**{name: p.default for name, p in
                              inspect.signature(function).parameters.items()})


@cache
def _library_defaults() -> dict[str, Any]:
    """The defaults help texts name, read from the library: imported only to show --help."""
    # inside: these load every command's driver, which a cold command without --help must not
    from wsd.annotate.run import annotate_corpus
    from wsd.corpora.resolve import CORPUS_HELP
    from wsd.experiments.allwords_run import run_allwords
    from wsd.experiments.curves import run_curves
    from wsd.experiments.disambiguate import TOP_FEATURES, UNSURE_MARGIN
    from wsd.experiments.textinput import MAX_TEXT_BYTES
    from wsd.learners.multiclass import MulticlassPerceptron
    from wsd.systems.allwords.system import (
        DEFAULT_CONTEXT_TEMPERATURE,
        DEFAULT_FUSION_TEMPERATURE,
        DEFAULT_TEMPERATURE,
        AllWordsWSD,
    )
    from wsd.systems.named import SYSTEM_NAMES, SystemSettings, small_corpus_settings

    return {"settings": SystemSettings(), "small": small_corpus_settings(),
            "allwords": _defaults_of(AllWordsWSD), "run_allwords": _defaults_of(run_allwords),
            "curves": _defaults_of(run_curves), "annotate": _defaults_of(annotate_corpus),
            "perceptron": _defaults_of(MulticlassPerceptron), "top": TOP_FEATURES,
            "unsure_margin": UNSURE_MARGIN, "max_text_bytes": MAX_TEXT_BYTES,
            "corpus_help": CORPUS_HELP,
            "system_names": ", ".join(SYSTEM_NAMES), "temperature": DEFAULT_TEMPERATURE,
            "fusion_temperature": DEFAULT_FUSION_TEMPERATURE,
            "context_temperature": DEFAULT_CONTEXT_TEMPERATURE}


class _HelpFormatter(argparse.HelpFormatter):
    """Help texts with the library's defaults filled in (``{settings.epochs}``) when help is
    shown: the hook argparse's own ArgumentDefaultsHelpFormatter overrides."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        return action.help and action.help.format_map(_library_defaults())


class _ConfigError(Exception):
    """Arguments from a config file that the command's parser refuses."""


class _ConfigParser(argparse.ArgumentParser):
    """A parser that raises its errors (for a config file's arguments) instead of exiting."""

    def error(self, message: str) -> Any:
        raise _ConfigError(message)


def _add_options(parser: argparse.ArgumentParser, request: type) -> None:
    """The request's fields as arguments: its own options, then its groups."""
    groups: dict[str | None, Any] = {None: parser}
    exclusive = None
    for item in options(request):
        meta, kwargs = item.metadata, {}
        if meta["group"] not in groups:
            groups[meta["group"]] = parser.add_argument_group(meta["group"])
        where = groups[meta["group"]]
        if meta["exclusive"]:
            where = exclusive = exclusive or parser.add_mutually_exclusive_group()
        if meta["kind"] == FLAG:
            kwargs["action"] = "store_true"
        elif meta["kind"] == NEGATABLE:
            kwargs["action"] = argparse.BooleanOptionalAction
        else:
            kwargs.update(type=value_type(request, item), nargs=meta["nargs"],
                          choices=CHOICES.get(meta["choices"], meta["choices"]))
        help = meta["help"].replace("{default}", str(item.default))
        if meta["kind"] == POSITIONAL:
            where.add_argument(item.name, help=help, **kwargs)
        elif item.default is dataclasses.MISSING:
            where.add_argument(flag_of(item), required=True, help=help, **kwargs)
        else:
            where.add_argument(flag_of(item), default=item.default, help=help, **kwargs)


def build_parser(parser_class: type = argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The ``wsd`` parser, one subcommand per request in ``wsd.requests``."""
    parser = parser_class(prog="wsd", formatter_class=_HelpFormatter,
                          description="Word-sense disambiguation: perceptrons, Lesk and baselines.")
    parser.add_argument("--version", action="version", version=f"wsd {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command, request in REQUESTS.items():
        sub = commands.add_parser(command, help=request.summary, formatter_class=_HelpFormatter)
        _add_options(sub, request)
        sub.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                         help="show the full traceback of errors")
    parser.add_argument("--debug", action="store_true",
                        help="show the full traceback of errors (also after the command)")
    return parser


def _config_request(path: str) -> Any:
    """The request a config file describes; ValueError naming the file for a value the
    command refuses, in the config's words: *c.toml: folds: invalid int value: 'five'*."""
    from wsd.experiments.config import load_config  # with the TOML parser: only `wsd run`

    argv = load_config(path, config_options)
    try:
        args = build_parser(_ConfigParser).parse_args(argv)
    except _ConfigError as err:
        message = re.sub(r"argument --([\w-]+)(?:/[^:]*)?:", r"\1:", str(err))
        message = message.replace("the following arguments are required: --", "missing key(s): ")
        raise ValueError(f"{path}: {message.replace(', --', ', ')}") from None
    return make_request(args.command, vars(args))


def _show_note(message, category, filename, lineno, file=None, line=None) -> None:
    note = message if issubclass(category, CommandNote) else f"wsd: note: {message}"
    print(note, file=sys.stderr)


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
    command = args.command
    with warnings.catch_warnings():  # notes as one line each, for this command only
        warnings.showwarning = _show_note
        try:
            request = make_request(command, vars(args))
            if isinstance(request, RunRequest):
                request = _config_request(request.config)
                command = request.command  # its errors are the command's, as typed
            if sys.stdout is None:  # started with it closed (`wsd ... >&-`): print would drop
                raise OSError("standard output is closed: nothing could be printed")
            module, function = COMMANDS[request.command].split(":")
            for text in getattr(importlib.import_module(module), function)(request):
                print(text)
            return 0
        except BrokenPipeError:  # the reader went away (`wsd ... | head`): stop quietly
            with contextlib.suppress(OSError, ValueError, AttributeError):  # stdout replaced
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # flushed at exit
            return 141  # 128 + SIGPIPE, what a shell reports for a tool killed by the signal
        except INPUT_ERRORS as err:
            if args.debug:
                raise
            print(f"wsd {command}: error: {_error_message(err)}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            return 130


if __name__ == "__main__":
    sys.exit(main())
