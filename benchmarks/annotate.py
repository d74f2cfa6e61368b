"""Throughput, memory and scheduling overhead of ``wsd annotate`` on a generated corpus.

Corpus: plain sentences of SemCor (the framework's training corpus, tokens joined by spaces;
without the framework folder, the bundled sentences only) and of the bundled corpus, shuffled
with a seed, cut into JSONL documents of 10 sentences, repeated (each pass reshuffled) until it
holds ``--tokens`` whitespace-separated tokens (default 1,000,000): with the default partition
size of 100 documents that is over 20 times the default partition.
Model: ``--model`` (default: the averaged perceptron of ``wsd train --corpus bundled:plant``,
which tags "plant" only; its cost is mostly sentence splitting and tokenizing).

Each configuration runs as its own ``wsd annotate`` command (so memory figures are its own),
timed from start to exit (imports, model loading and cluster start included):
- one process (the embedded scheduler, no Dask), ``--workers 1`` and ``--workers 2``;
- peer: joblib (``Parallel(n_jobs=2)``, a process pool, no resume or manifest) running the
  same partition task on the same partitions;
- floor: NLTK's Treebank tokenizer alone over the same sentences, one process;
- driver: reading, partitioning and pickling the input alone (the most one driver can feed).
Peak memory per worker is the largest peak resident size any partition reports (ru_maxrss of
the process that ran it), shown after the first 10% of the partitions and at the end: equal
figures mean memory is bounded by the partition, not by the corpus. Scheduling overhead per
partition: the time per empty partition through a one-worker cluster (submit, run, collect,
with 3 in flight as the runner keeps them) minus that through the embedded scheduler.

Usage: nice -n 10 python benchmarks/annotate.py [--tokens 1000000] [--model PATH] [--seed 0]
       [--runs local workers1 workers2]
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import random
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

from wsd.annotate.documents import DEFAULT_PARTITION_SIZE, partitions, read_documents
from wsd.resources import framework_dir, has_framework

SENTENCES_PER_DOCUMENT = 10
PARTITIONS_FOR_OVERHEAD = 500
RUNS = {"local": ("one process (no Dask)", ()), "workers1": ("--workers 1", ("--workers", "1")),
        "workers2": ("--workers 2", ("--workers", "2"))}


def plain_sentences() -> list[str]:
    """SemCor's sentences (when the framework folder is there) and the bundled ones."""
    from wsd.corpora.bundled import bundled_targets, load_bundled

    sentences = [" ".join(inst.tokens) for word in bundled_targets() for inst in load_bundled(word)]
    if not has_framework():
        return sentences
    semcor = framework_dir() / "Training_Corpora" / "SemCor" / "semcor.data.xml"
    if semcor.is_file():
        for _, element in ET.iterparse(semcor):
            if element.tag == "sentence":
                sentences.append(" ".join(t.text.replace("_", " ") for t in element))
                element.clear()
    return sentences


def write_corpus(path: Path, tokens: int, seed: int) -> tuple[int, int]:
    """JSONL documents of shuffled sentences until ``tokens`` tokens; (documents, tokens)."""
    rng = random.Random(seed)
    sentences = plain_sentences()
    written = documents = 0
    with open(path, "w", encoding="utf-8") as stream:
        while written < tokens:
            rng.shuffle(sentences)
            for start in range(0, len(sentences), SENTENCES_PER_DOCUMENT):
                text = " ".join(sentences[start : start + SENTENCES_PER_DOCUMENT])
                stream.write(json.dumps({"id": f"doc{documents}", "text": text}) + "\n")
                documents += 1
                written += len(text.split())
                if written >= tokens:
                    break
    return documents, written


def annotate(corpus: Path, model: Path, out: Path, *options: str) -> tuple[float, dict]:
    """Run ``wsd annotate`` as a command; (wall seconds, manifest)."""
    command = [sys.executable, "-m", "wsd.cli", "annotate", str(corpus), "--model", str(model),
               "--out", str(out), "--quiet", *options]  # fmt: skip
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    return wall, json.loads((out / "manifest.json").read_text())


def steady_rate(manifest: dict) -> float:
    """Tokens per second between the first and the last partition written (start-up and the
    first partition left out)."""
    parts = sorted(manifest["partitions"].values(), key=lambda p: p["written_at"])
    if len(parts) < 2:
        return float("nan")
    seconds = parts[-1]["written_at"] - parts[0]["written_at"]
    return sum(p["tokens"] for p in parts[1:]) / seconds


def peak_memory(manifest: dict) -> tuple[float, float]:
    """Largest peak RSS (MB) over the first 10% of the partitions and over all of them."""
    peaks = [p["peak_rss_mb"] for p in manifest["partitions"].values()]
    return max(peaks[: max(1, len(peaks) // 10)]), max(peaks)


def joblib_peer(corpus: Path, model: Path, jobs: int, size: int) -> float:
    """Seconds for joblib's process pool to run the same task on the same partitions."""
    code = (
        "import sys, joblib\n"
        "from wsd.annotate.annotator import ModelRef\n"
        "from wsd.annotate.documents import partitions, read_documents\n"
        "from wsd.annotate.process import annotate_partition\n"
        "ref = ModelRef.of(sys.argv[2])\n"
        f"parts = partitions(read_documents([sys.argv[1]]), {size})\n"
        f"joblib.Parallel(n_jobs={jobs})(joblib.delayed(annotate_partition)(p, ref) "
        "for p in parts)\n"
    )
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", code, str(corpus), str(model)], check=True)
    return time.perf_counter() - started


def driver_reading(corpus: Path) -> float:
    """Seconds for the driver's own share on the input side: read, cut into partitions and
    serialise them as Dask does (pickle); the ceiling of one driver, however many workers."""
    started = time.perf_counter()
    for part in partitions(read_documents([corpus])):
        pickle.dumps(part, protocol=pickle.HIGHEST_PROTOCOL)
    return time.perf_counter() - started


def tokenizer_floor(corpus: Path) -> float:
    """Seconds for NLTK's Treebank tokenizer alone over the corpus's text, one process."""
    from nltk.tokenize import TreebankWordTokenizer

    tokenizer = TreebankWordTokenizer()
    started = time.perf_counter()
    for part in partitions(read_documents([corpus])):
        for doc in part.records:
            tokenizer.tokenize(doc.text)
    return time.perf_counter() - started


def scheduling_cost(model: Path, n: int) -> tuple[float, float]:
    """Seconds per empty partition through the embedded scheduler and through a one-worker
    Dask cluster (model already loaded: the cost of scheduling, shipping and collecting)."""
    from wsd.annotate.annotator import ModelRef
    from wsd.annotate.dask_runner import ModelPlugin, map_bounded
    from wsd.annotate.documents import Partition
    from wsd.annotate.local import run_local
    from wsd.annotate.process import annotate_partition
    from wsd.cluster import dask_client

    reference = ModelRef.of(model)
    empty = [Partition(i, ()) for i in range(n)]
    list(run_local(empty[:1], reference))  # load the model
    started = time.perf_counter()
    list(run_local(empty, reference))
    local = (time.perf_counter() - started) / n
    with dask_client(workers=1) as client:
        client.register_plugin(ModelPlugin(reference))
        list(map_bounded(client, annotate_partition, empty[:3], reference, in_flight=3))
        started = time.perf_counter()
        list(map_bounded(client, annotate_partition, empty, reference, in_flight=3))
        dask = (time.perf_counter() - started) / n
    return local, dask


def default_model(folder: Path) -> Path:
    path = folder / "plant.json"
    subprocess.run([sys.executable, "-m", "wsd.cli", "train", "--corpus", "bundled:plant",
                    "--out", str(path)], check=True, stdout=subprocess.DEVNULL)  # fmt: skip
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=1_000_000)
    parser.add_argument("--model", type=Path, help="model file (default: bundled plant)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--partition-size", type=int, default=DEFAULT_PARTITION_SIZE)
    parser.add_argument("--runs", nargs="+", choices=RUNS, default=list(RUNS),
                        help="configurations to run (default: all)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="wsd-annotate-bench-") as temporary:
        folder = Path(temporary)
        corpus = folder / "corpus.jsonl"
        documents, tokens = write_corpus(corpus, args.tokens, args.seed)
        model = args.model or default_model(folder)
        size = args.partition_size
        n_parts = -(-documents // size)
        print(f"corpus: {documents} documents, {tokens} tokens, {n_parts} partitions of "
              f"{size} documents; model {model.name}; "
              f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        rows = []
        for name, options in (RUNS[run] for run in args.runs):
            wall, manifest = annotate(corpus, model, folder / f"out{len(rows)}",
                                      "--partition-size", str(size), *options)
            busy = sum(p["cpu_seconds"] for p in manifest["partitions"].values())
            rows.append((name, wall, tokens / wall, steady_rate(manifest), tokens / busy,
                         *peak_memory(manifest)))
        wall = joblib_peer(corpus, model, 2, size)
        rows.append(("peer: joblib, 2 processes", wall, tokens / wall, *[None] * 4))
        wall = driver_reading(corpus)
        rows.append(("driver: read + partition + pickle", wall, tokens / wall, *[None] * 4))
        wall = tokenizer_floor(corpus)
        rows.append(("floor: NLTK Treebank tokenizer only", wall, tokens / wall, *[None] * 4))
        print(f"\n{'configuration':36} {'seconds':>7} {'tokens/s':>9} {'vs first':>9} "
              f"{'steady':>9} {'CPU rate':>10} {'peak MB 1st 10%':>15} {'peak MB':>7}")
        base = rows[0][2]  # the first run chosen
        for name, wall, rate, steady, busy_rate, first, peak in rows:
            extra = (f"{steady:9,.0f} {busy_rate:10,.0f} {first:15.0f} {peak:7.0f}"
                     if first is not None else "")  # fmt: skip
            print(f"{name:36} {wall:7.1f} {rate:9,.0f} {rate / base:9.2f} {extra}")
        print("tokens/s: over the whole command (start-up included); steady: between the first "
              "and the last partition written; CPU rate: tokens per CPU second in the partition "
              "task (what a dedicated worker reaches)")

        local, dask = scheduling_cost(model, PARTITIONS_FOR_OVERHEAD)
        print(f"\nround trip of an empty partition, {PARTITIONS_FOR_OVERHEAD} partitions: one "
              f"process {1000 * local:.2f} ms, --workers 1 {1000 * dask:.1f} ms: Dask "
              f"scheduling overhead {1000 * (dask - local):.1f} ms per partition")

if __name__ == "__main__":
    main()
