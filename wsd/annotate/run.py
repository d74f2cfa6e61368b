"""``wsd annotate``: stream the inputs in partitions, annotate them on the chosen scheduler,
write each finished partition and the manifest, report bad documents, show progress.

The scheduler is a parameter, never a code path: every scheduler runs
``process.annotate_partition`` on the same partitions, so the output lines do not depend on
it, on the number of workers, or on the partition size.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from tqdm import tqdm

from wsd.annotate.annotator import ModelRef, annotator_for
from wsd.annotate.documents import (
    DEFAULT_MAX_BYTES,
    DEFAULT_PARTITION_SIZE,
    checked_encoding,
    count_records,
    partitions,
    read_documents,
)
from wsd.annotate.listing import check_out_apart, input_files, input_fingerprint
from wsd.annotate.local import run_local
from wsd.annotate.output import OutputFolder
from wsd.annotate.process import PartitionResult
from wsd.cluster import wants_cluster
from wsd.knowledge import lexicon_compiler
from wsd.requests import AnnotateRequest, given
from wsd.validation import (
    MAX_DOCUMENT_BYTES,
    MAX_PARTITION_SIZE,
    check_count_flag,
    check_parallel_flags,
)


def scheduler_name(workers: int | None, scheduler: str | None) -> str:
    if scheduler:
        return f"dask cluster at {scheduler}"
    return f"local dask cluster, {workers} worker processes" if workers else "local process"


def annotate_corpus(
    inputs: Sequence[str | os.PathLike],
    model: str | os.PathLike,
    out: str | os.PathLike,
    partition_size: int = DEFAULT_PARTITION_SIZE,
    max_document_bytes: int = DEFAULT_MAX_BYTES,
    encoding: str | None = None,
    output_format: str = "jsonl",
    workers: int | None = None,
    scheduler: str | None = None,
    progress: bool = True,
    on_result: Callable[[PartitionResult], None] | None = None,
) -> dict[str, Any]:
    """Annotate every document of ``inputs`` with the model file ``model`` into the folder
    ``out`` and return the manifest. Partitions already finished in ``out`` (same inputs,
    model and settings) are skipped. ``workers``: a local Dask cluster of that many processes;
    ``scheduler``: the address of an existing Dask cluster; neither: this process, no Dask.
    ``encoding``: the input files' (default UTF-8; ``inputs.checked_encoding``).
    ``on_result`` is called with each partition's result after it is written."""
    if max_document_bytes < 1:
        raise ValueError(f"--max-document-size must be at least 1, got {max_document_bytes}")
    if partition_size < 1:
        raise ValueError(f"--partition-size must be at least 1, got {partition_size}")
    check_count_flag("--max-document-size", max_document_bytes, 1, MAX_DOCUMENT_BYTES)
    check_count_flag("--partition-size", partition_size, 1, MAX_PARTITION_SIZE)
    check_parallel_flags(workers=workers)
    # missing inputs and an unknown encoding fail before the model is hashed or a folder made
    codec = checked_encoding(encoding)
    files = input_files(inputs, note_left_out=True)
    check_out_apart(out, inputs, files)
    on_dask = wants_cluster(workers, scheduler)
    reference = ModelRef.of(model)
    annotator_for(reference)  # a file that is no model fails here, before --out is made
    # WordNet and the tagger compiled once, as `wsd disambiguate` has them: a corpus read
    # through NLTK's WordNet took 3.3 times as long (40k tokens: 31 s of CPU against 9 s)
    lexicon_compiler.ensure()
    folder = OutputFolder(out, {
        "inputs": [str(Path(p).resolve()) for p in inputs],
        "input_files": input_fingerprint(files),
        "model": {"path": reference.path, "sha256": reference.sha256},
        "settings": {"partition_size": partition_size, "max_document_bytes": max_document_bytes,
                     "encoding": codec or "utf-8", "format": output_format},
        "scheduler": scheduler_name(workers, scheduler),
    })  # fmt: skip
    todo = (part for part in partitions(read_documents(inputs, max_document_bytes, codec),
                                        partition_size) if not folder.finished(part.index))
    if on_dask:
        from wsd.annotate.dask_runner import run_dask  # the optional [dask] extra

        results = run_dask(todo, reference, workers=workers, scheduler=scheduler)
    else:
        results = run_local(todo, reference)
    total = -(-count_records(inputs) // partition_size)
    folder.expect(total)
    bar = tqdm(total=total, initial=len(folder.manifest["partitions"]), unit="partition",
               desc="annotate", disable=not progress, file=sys.stderr)  # fmt: skip
    started, tokens = time.perf_counter(), 0
    status = "failed"
    try:
        for result in results:
            folder.write(result)
            for bad in result.bad:
                where = f"{bad['source']}:{bad['line']}" if bad["line"] else bad["source"]
                tqdm.write(f"wsd annotate: bad document {where}: {bad['problem']}",
                           file=sys.stderr)
            tokens += result.tokens
            bar.set_postfix_str(f"{tokens / (time.perf_counter() - started):,.0f} tokens/s")
            bar.update()
            if on_result is not None:
                on_result(result)
        status = "complete"
    except KeyboardInterrupt:
        status = "interrupted"
        raise
    finally:
        bar.close()
        manifest = folder.close(status)
    return manifest


def annotate_command(request: AnnotateRequest) -> Iterator[str]:
    """`wsd annotate`: sense-tag the inputs into ``request.out``; what was done, as printed."""
    manifest = annotate_corpus(
        request.inputs, request.model, request.out, encoding=request.encoding,
        output_format=request.format, workers=request.workers, scheduler=request.scheduler,
        progress=not request.quiet, **given(request, "partition_size", "max_document_size",
                                            rename={"max_document_size": "max_document_bytes"}))
    counts = manifest["counts"]
    yield (f"annotated {counts['annotated']} of {counts['documents']} documents "
           f"({counts['tokens']} tokens, {counts['tagged']} words tagged) in "
           f"{counts['partitions']} partitions; {counts['bad']} bad documents; see {request.out}")
