"""One string names a corpus on the command line and in experiment configs."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from wsd.corpora.bundled import bundled_targets, load_bundled
from wsd.corpora.framework import load_dataset
from wsd.corpora.lexsample import load_lexsample
from wsd.corpora.senseval import load_senseval, senseval_words
from wsd.corpora.userfile import load_user_file, user_file_batches
from wsd.instance import Instance

CORPUS_HELP = (
    "bundled:TARGET (our offline corpus: bundled:bass), senseval:WORD (NLTK's hard, interest, "
    "line, serve), framework:NAME (semcor, senseval2, senseval3, semeval2007), or the path of a "
    ".tsv/.jsonl file in the user format, or lexsample:PATH (a Senseval-2/3 lexical-sample file; "
    "gold from its inline answers or PATH.key)"
)


SOURCES = ("bundled", "senseval", "framework", "lexsample")  # SOURCE:NAME corpus specs


def load_corpus(spec: str) -> list[Instance]:
    """Load the corpus named by ``spec`` (see CORPUS_HELP); ValueError when it names nothing."""
    source, _, name = spec.partition(":")
    if name and source == "bundled":
        return load_bundled(name)
    if name and source == "senseval":
        return load_senseval(name)
    if name and source == "framework":
        return load_dataset(name)
    if name and source == "lexsample":
        return load_lexsample(name)
    if Path(spec).is_file():
        return load_user_file(spec)
    if not name and spec in bundled_targets():
        return load_bundled(spec)
    if not name and spec in senseval_words():
        return load_senseval(spec)
    raise ValueError(f"no corpus {spec!r}: use {CORPUS_HELP}")


def corpus_batches(spec: str, size: int,
                   check: Callable[[list[Instance]], None]) -> Iterator[list[Instance]]:
    """The corpus ``spec`` as lists of instances, every one passed to ``check`` before the
    first is given: a user file streams in lists of at most ``size`` (bounded memory, see
    ``user_file_batches``), any other corpus is one list."""
    source, _, name = spec.partition(":")
    if not (name and source in SOURCES) and Path(spec).is_file():
        return user_file_batches(spec, size, check=check)
    instances = load_corpus(spec)
    check(instances)
    return iter([instances])


def corpus_files(spec: str) -> list[Path]:
    """The files the corpus ``spec`` reads (data and key), so that an output path naming one
    of them can be refused before it is overwritten."""
    source, _, name = spec.partition(":")
    if name and source == "lexsample":
        return [Path(name), Path(name + ".key")]
    if name and source == "framework":
        spec = name
    if spec.endswith(".data.xml"):
        return [Path(spec), Path(spec.removesuffix(".data.xml") + ".gold.key.txt")]
    return [Path(spec)]
