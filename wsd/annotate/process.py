"""Annotating one partition: the one task every scheduler runs, a pure function of its input.

The result carries the output lines already serialised (one JSON object per document:
``{"id", "sentences"}``), the problems of bad documents, counts, the time the task took (wall
and CPU) and the peak memory of the process that ran it, so the driver only writes and tallies.
"""

from __future__ import annotations

import json
import resource
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from wsd.annotate.annotator import ModelRef, annotator_for
from wsd.annotate.documents import BadDocument, Partition
from wsd.resources import MissingResourceError, ResourceFault

# A failure of the model or its resources (encoder, caches, an extra, memory), never of one
# document: it fails the run, and the partition is not journaled, so the same command redoes
# it once the fault is fixed (reported as bad documents, a whole corpus had been "annotated").
RUN_FAULTS = (ResourceFault, MissingResourceError, OSError, ImportError, MemoryError)


@dataclass
class PartitionResult:
    index: int
    lines: list[str]
    bad: list[dict[str, Any]] = field(default_factory=list)
    documents: int = 0
    sentences: int = 0
    tokens: int = 0
    tagged: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    peak_rss_mb: float = 0.0

    def summary(self) -> dict[str, Any]:
        """The partition's entry in the manifest (without its lines)."""
        return {"documents": self.documents, "annotated": len(self.lines),
                "bad": len(self.bad), "sentences": self.sentences, "tokens": self.tokens,
                "tagged": self.tagged, "seconds": round(self.seconds, 3),
                "cpu_seconds": round(self.cpu_seconds, 3),
                "peak_rss_mb": round(self.peak_rss_mb, 1), "bad_documents": self.bad}  # fmt: skip


def annotate_partition(partition: Partition, model: ModelRef) -> PartitionResult:
    """Annotate every document of ``partition`` with the model ``model`` names (loaded once
    per process). A document the annotator refuses or fails on is reported like a bad one,
    with the error, and the others are annotated; a fault of the model's resources
    (``RUN_FAULTS``) is raised: it is the run's, not the document's."""
    annotator = annotator_for(model)  # loading it once per process is not the partition's time
    started, cpu_started = time.perf_counter(), time.process_time()
    result = PartitionResult(partition.index, [], documents=len(partition.records))
    for record in partition.records:
        if isinstance(record, BadDocument):
            result.bad.append(record.to_dict())
            continue
        try:
            sentences = annotator.annotate(record.text)
        except RUN_FAULTS:
            raise
        except ValueError as err:
            result.bad.append(BadDocument(record.source, record.line, str(err)).to_dict())
            continue
        except Exception as err:  # noqa: BLE001 - one document must not stop a corpus
            problem = f"the annotator failed ({type(err).__name__}: {err})"
            result.bad.append(BadDocument(record.source, record.line, problem).to_dict())
            continue
        try:  # what cannot be written is a bad document, not a run that can never finish
            line = json.dumps({"id": record.id, "sentences": sentences}, ensure_ascii=False,
                              allow_nan=False)
            line.encode("utf-8")
        except (UnicodeEncodeError, ValueError) as err:
            problem = f"cannot be written as JSON in UTF-8 ({err})"
            result.bad.append(BadDocument(record.source, record.line, problem).to_dict())
            continue
        result.sentences += len(sentences)
        result.tokens += sum(_token_count(s["text"]) for s in sentences)
        result.tagged += sum(len(s["words"]) for s in sentences)
        result.lines.append(line)
    result.seconds = time.perf_counter() - started
    result.cpu_seconds = time.process_time() - cpu_started
    result.peak_rss_mb = _peak_rss_mb()
    return result


def _token_count(sentence: str) -> int:
    """Whitespace-separated words: the throughput unit (independent of the tokenizer)."""
    return len(sentence.split())


def _peak_rss_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1 << 20) if sys.platform == "darwin" else peak / 1024
