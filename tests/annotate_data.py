"""Shared data of the annotate tests: a one-word model and small corpora from the bundled data."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from wsd.corpora.bundled import load_bundled
from wsd.systems.named import small_corpus_settings, train_bundled_model


def save_bass_model(path: Path) -> Path:
    """The averaged perceptron trained on every bundled 'bass' sentence, saved at ``path``
    (words not lemmatized: worker processes then start without loading WordNet)."""
    settings = replace(small_corpus_settings(), lemmatize=False)
    return train_bundled_model("bass", settings).save(path)


def bundled_sentences() -> list[str]:
    """Every bundled sentence of bass and crane, as plain text."""
    return [" ".join(inst.tokens) for word in ("bass", "crane") for inst in load_bundled(word)]


def write_jsonl_corpus(path: Path, n_documents: int, seed: int = 0) -> list[str]:
    """``n_documents`` documents of 1-4 shuffled bundled sentences as JSONL; their ids."""
    rng = random.Random(seed)
    sentences = bundled_sentences()
    ids = [f"doc{n}" for n in range(n_documents)]
    with open(path, "w", encoding="utf-8") as stream:
        for doc_id in ids:
            text = " ".join(rng.sample(sentences, rng.randint(1, 4)))
            stream.write(json.dumps({"id": doc_id, "text": text}) + "\n")
    return ids


def output_lines(folder: Path) -> list[str]:
    """The lines of every partition file in ``folder``, sorted (the set the run produced)."""
    return sorted(line for part in folder.glob("part-*.jsonl")
                  for line in part.read_text(encoding="utf-8").splitlines())


ALLWORDS_TEXTS = [
    "The money and cash loan went to the bank. Fishing banks with mud and water.",
    "He planted one seed.\n\nThe bank near the river had mud and water.",
    "A loan from the bank, in cash.",
    "The bank lent cash\nto the town. Mr. Lee fished by the river bank!",
]


def save_allwords_model(folder: Path) -> Path:
    """A small all-words model (.npz) of bank (money / river) and seed, as the all-words tests
    train it; needs NLTK's WordNet and tagger to annotate raw text."""
    from test_allwords import QUICK, _bank_sentences, _corpus, _load

    from wsd.systems.allwords import AllWordsWSD

    seed = [(["a", "seed", "grew"], 1, "seed%1:20:00::", "seed")] * 3
    data = _load(_corpus(folder, "t", [_bank_sentences(12) + seed]))
    return AllWordsWSD(**QUICK, epochs=5).fit(data).save(folder / "allwords.npz")


def write_allwords_corpus(path: Path) -> list[str]:
    """ALLWORDS_TEXTS as JSONL documents a0, a1, ...; the texts."""
    with open(path, "w", encoding="utf-8") as stream:
        for n, text in enumerate(ALLWORDS_TEXTS):
            stream.write(json.dumps({"id": f"a{n}", "text": text}) + "\n")
    return ALLWORDS_TEXTS


def stop_after_first_partition(args: Sequence[str], out: Path, signum: int
                               ) -> tuple[int, str]:  # fmt: skip
    """Start ``wsd annotate ARGS`` (writing to ``out``) as a user starts it, in its own
    process, and send it ``signum`` as soon as it has finished a partition; its exit code and
    stderr."""
    from test_cli import WSD

    process = subprocess.Popen([WSD, "annotate", *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True,
                               preexec_fn=_ctrl_c_as_in_a_terminal)  # fmt: skip
    wait_for_first_partition(out, process)
    process.send_signal(signum)
    _, err = process.communicate(timeout=120)
    return process.returncode, err


def _ctrl_c_as_in_a_terminal() -> None:
    """In the child, before ``wsd`` starts: Ctrl-C delivered and handled by default, as a
    shell gives it. A child inherits an ignored or blocked SIGINT, and a Python started so
    never raises KeyboardInterrupt: the run then finished with status 0 instead of 130
    whenever the test process had SIGINT ignored (the Ctrl-C tests failed only in some
    full runs, by which tests had run before them in the same worker)."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def wait_for_first_partition(folder: Path, process: subprocess.Popen, timeout: float = 300) -> None:
    """Return as soon as the run in ``process`` has finished a partition in ``folder``
    (AssertionError when it ends first: then the test could not stop it mid-run)."""
    journal = folder / "journal.jsonl"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if journal.is_file() and journal.read_bytes().count(b"\n"):
            return
        if process.poll() is not None:
            raise AssertionError(f"the run ended before a partition was seen: "
                                 f"{process.stderr.read()}")  # fmt: skip
        time.sleep(0.002)
    raise AssertionError("no partition finished in time")


def journal_partitions(folder: Path) -> list[str]:
    """The partitions ``folder``'s journal lists, in the order they finished."""
    text = (folder / "journal.jsonl").read_text(encoding="utf-8")
    return [json.loads(line)["partition"] for line in text.splitlines()]


def long_run_corpus(folder: Path, model: Path) -> tuple[Path, list[str]]:
    """1,500 documents, 300 partitions of 5 (a run lasts long enough to be stopped mid-run),
    and the lines of their annotation by one uninterrupted run."""
    from wsd.annotate import annotate_corpus

    write_jsonl_corpus(folder / "docs.jsonl", 1500, seed=2)
    annotate_corpus([folder / "docs.jsonl"], model, folder / "reference", progress=False)
    return folder / "docs.jsonl", output_lines(folder / "reference")


LONG_RUN_PARTITIONS = 300


def long_run_arguments(corpus: Path, model: Path, out: Path) -> tuple[str, ...]:
    """The ``wsd annotate`` arguments of a run of the long-run corpus into ``out``."""
    return (str(corpus), "--model", str(model), "--out", str(out), "--partition-size", "5",
            "--quiet")  # fmt: skip
