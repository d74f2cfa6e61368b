"""Test set-up: use the shared NLTK data beside the repository when it is there; run `wsd`
in this process (``run_cli``)."""

import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path

import nltk
import pytest

_SHARED = Path(__file__).resolve().parents[2] / "shared"
if (_SHARED / "nltk_data").is_dir():
    os.environ.setdefault("NLTK_DATA", str(_SHARED / "nltk_data"))
    if os.environ["NLTK_DATA"] not in nltk.data.path:
        nltk.data.path.insert(0, os.environ["NLTK_DATA"])


@pytest.fixture(scope="session", autouse=True)
def compiled_lexicon():
    """WordNet and the tagger compiled into the user's cache before any test, where NLTK's
    data is installed: a raw-text command compiles them on its first call, with a notice on
    stderr that tests reading a command's stderr must not meet in whichever runs first."""
    from wsd.knowledge import lexicon_compiler

    with contextlib.redirect_stderr(io.StringIO()):
        return lexicon_compiler.ensure()


@pytest.fixture
def run_cli(capsys, monkeypatch):
    """``run_cli(*args, stdin=None, env=None, cwd=None)``: ``wsd ARGS`` run by ``wsd.cli.main``
    in this process (no interpreter start-up), as ``subprocess.run`` gives it (returncode,
    stdout, stderr). What a process would have of its own is set for the call only: stdin
    (the text given, else empty, as /dev/null), environment variables, the working folder;
    argparse's exits (--help, usage errors) become the exit code. Warnings filters and hooks
    are the command's own (``main`` restores them)."""
    from wsd.cli import main

    def run(*args, stdin: str | None = None, env: dict | None = None,
            cwd: str | os.PathLike | None = None) -> subprocess.CompletedProcess:  # fmt: skip
        argv = [str(arg) for arg in args]
        with monkeypatch.context() as patch:
            for name, value in (env or {}).items():
                patch.setenv(name, value)
            if cwd is not None:
                patch.chdir(cwd)
            given = io.BytesIO((stdin or "").encode("utf-8"))
            patch.setattr(sys, "stdin", io.TextIOWrapper(given, encoding="utf-8"))
            capsys.readouterr()
            try:
                code = main(argv)
            except SystemExit as exit:
                code = exit.code or 0
            out, err = capsys.readouterr()
        return subprocess.CompletedProcess(["wsd", *argv], code, out, err)

    return run
