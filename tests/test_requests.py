"""Requests: each command's options as one checked dataclass, built alike from the command
line and from a config file; help texts that read their defaults."""

import dataclasses
import json
import os
import re
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wsd import cli
from wsd.requests import (
    REQUESTS,
    AllwordsRequest,
    CompareRequest,
    CurvesRequest,
    DemoRequest,
    DisambiguateRequest,
    TrainRequest,
    config_options,
    make_request,
)
from wsd.systems.named import SYSTEM_NAMES


def test_every_command_has_a_request_and_one_library_function():
    assert set(REQUESTS) == {*cli.COMMANDS, "run"}
    for command, location in cli.COMMANDS.items():
        module, function = location.split(":")
        assert callable(getattr(__import__(module, fromlist=[function]), function)), command


@pytest.mark.parametrize(("request_class", "options", "message"), [
    (TrainRequest, {"epochs": 0}, "--epochs must be at least 1, got 0"),
    (TrainRequest, {"window": -1}, "--window must be an integer from 0 to 10000, got -1"),
    (CompareRequest, {"folds": 1}, "--folds 1: give at least 2 (or 0 for one 80/20 split)"),
    (CurvesRequest, {"shuffles": 0}, "--epochs, --repeats and --shuffles must be at least 1"),
    (DemoRequest, {"folds": 0}, "--folds 0: give at least 2"),
    (DisambiguateRequest, {"target": " "}, "--target is empty"),
    (DisambiguateRequest, {"top": -1}, "--top must be 0 or more, got -1"),
    (AllwordsRequest, {"models": 0}, "--models must be at least 1, got 0"),
    (AllwordsRequest, {"temperature": 0.0}, "--temperature must be a number above 0"),
    (AllwordsRequest, {"model": "m.npz", "save": "n.npz"}, "--save trains a model and --model"),
    (AllwordsRequest, {"model": "m.npz", "epochs": 3}, "--epochs only act when training"),
    (AllwordsRequest, {"model": "m.npz", "reader_joins": "wordnet"},
     "--reader-joins only act when training"),
    (AllwordsRequest, {"jobs": 2, "workers": 2}, "--jobs runs local processes"),
])
def test_a_request_is_checked_when_made_in_the_command_lines_words(request_class, options,
                                                                   message):
    required = {"corpus": "bundled:bass", "out": "m.json"} if request_class in (
        TrainRequest, CompareRequest, CurvesRequest) else {}  # fmt: skip
    with pytest.raises(ValueError, match=re.escape(message)):
        request_class(**required, **options)


def test_the_command_line_gives_the_same_messages_as_the_request(run_cli):
    result = run_cli("train", "--corpus", "bundled:bass", "--out", "m.json", "--epochs", "0")
    assert result.returncode == 2
    assert result.stderr == "wsd train: error: --epochs must be at least 1, got 0\n"


def test_no_help_text_writes_a_default_of_its_own():
    """A default in a help text is read (``{default}``, ``{settings.epochs}``), never typed:
    the text cannot say 5 where the code says 10."""
    for request in REQUESTS.values():
        for item in dataclasses.fields(request):
            assert not re.search(r"default: -?[\d.]", item.metadata["help"]), (
                request.command, item.name)


def test_help_shows_the_library_defaults(run_cli):
    from wsd.systems.allwords.system import AllWordsWSD
    from wsd.systems.named import SystemSettings, small_corpus_settings

    shown = " ".join(run_cli("allwords", "--help").stdout.split())
    assert f"(default: {AllWordsWSD().epochs})" in shown
    assert f"(default: {AllWordsWSD().prior:g})" in shown
    shown = " ".join(run_cli("train", "--help").stdout.split())
    assert (f"training epochs (default: {SystemSettings().epochs}; "
            f"{small_corpus_settings().epochs} for the bundled corpus)") in shown


_COMPARE = st.fixed_dictionaries(
    {"corpus": st.sampled_from(["bundled:bass", "x.tsv"])},
    optional={"folds": st.sampled_from([0, 2, 3, 10]),
              "seed": st.integers(0, 2**32 - 1),
              "systems": st.lists(st.sampled_from(SYSTEM_NAMES), min_size=1, max_size=4),
              "quiet": st.booleans(),
              "lemmatize": st.booleans(),
              "window": st.none() | st.integers(0, 50),
              "weighting": st.sampled_from(["binary", "tfidf", "ppmi"])})


@given(_COMPARE)
@settings(max_examples=60, deadline=None)
def test_a_config_and_the_command_line_make_the_same_request(tmp_path_factory, config):
    """``wsd run`` reads a config into the request that the command line's arguments give."""
    path = tmp_path_factory.mktemp("config") / "c.json"
    path.write_text(json.dumps({"command": "compare", **config}), encoding="utf-8")
    argv = ["compare", "--corpus", config["corpus"]]
    for key, value in config.items():
        if key == "corpus" or value is None:
            continue
        if isinstance(value, bool):
            argv += [f"--{key}"] if value else ([] if key == "quiet" else [f"--no-{key}"])
        else:
            argv += [f"--{key}", ",".join(value) if isinstance(value, list) else str(value)]
    args = cli.build_parser().parse_args(argv)
    assert cli._config_request(str(path)) == make_request("compare", vars(args))


def test_config_keys_are_the_requests_fields():
    assert config_options("compare")["--systems"] == "comma-list"
    assert config_options("allwords")["--evaluate"] == "many"
    assert config_options("compare")["--lemmatize"] == "negatable"
    assert "--sentences" not in config_options("disambiguate")  # a positional: no option
    with pytest.raises(ValueError, match="unknown command 'nope'; choose from allwords"):
        config_options("nope")


def test_run_cli_leaves_no_trace_in_the_test_process(run_cli, tmp_path):
    """Environment, working folder, stdin and the warnings hook are the command's for the
    call only."""
    hook, folder = warnings.showwarning, os.getcwd()
    result = run_cli("senses", "bass", "--inventory", "bundled",
                     env={"WSD_TEST_MARK": "1"}, cwd=tmp_path, stdin="ignored")  # fmt: skip
    assert result.returncode == 0 and "bass" in result.stdout
    assert "WSD_TEST_MARK" not in os.environ and os.getcwd() == folder
    assert warnings.showwarning is hook
    assert run_cli("senses", "--help").returncode == 0  # argparse's exit is an exit code
    assert run_cli("senses").returncode == 2


def test_reader_joins_offers_the_library_s_choices():
    from wsd.text.reader import READER_JOINS

    (field,) = [f for f in dataclasses.fields(AllwordsRequest) if f.name == "reader_joins"]
    assert field.metadata["choices"] == READER_JOINS
